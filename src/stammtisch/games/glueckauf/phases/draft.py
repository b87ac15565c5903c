"""The order draft before the first shift (glueck-auf.md, Setup 9): from the start player's right,
counter-clockwise, each seat takes one revealed order card until everyone holds their orders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.engine.flow import SEQUENTIAL, Phase
from stammtisch.engine.protocol import Action, Event, Seat
from stammtisch.games.glueckauf.board import ORDER
from stammtisch.games.glueckauf.phases.orders import new_order
from stammtisch.games.glueckauf.phases.shift import start_shift
from stammtisch.games.glueckauf.state import DRAFT, PLACE, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf


def to_act(game: GlueckAuf, state: State) -> list[Seat]:
    return [state.draft_queue[0]]


def legal(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    return [game.draft_actions[c] for c in state.revealed]


def allows(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    return len(action) == 2 and type(action[1]) is int and action[1] in state.revealed


def draft(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    card = int(action[1])  # the engine's `in` check lets True pass for 1
    state.revealed.remove(card)
    state.draft_queue.pop(0)
    state.players[seat].orders.append(new_order(game, card))
    events.append(Event("drafted", {"seat": seat, "card": card}))
    if not state.draft_queue:
        end_draft(game, state, events)


def end_draft(game: GlueckAuf, state: State, events: list[Event]) -> None:
    leftover_slot = game.spot_by_id[game.edition.leftover_order_space].number
    if state.revealed:
        state.order_slots[leftover_slot] = state.revealed.pop()
    for spot in game.spots:
        if spot.kind == ORDER and not state.order_slots[spot.number] and state.order_deck:
            state.order_slots[spot.number] = state.order_deck.pop()
    state.revealed = []
    start_shift(game, state, events)


DRAFT_PHASE = Phase(DRAFT, N_("Drafting orders"), SEQUENTIAL, to_act=to_act, legal=legal, allows=allows,
                    moves={"draft": draft}, next=PLACE)
