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


def to_act(game: GlueckAuf, s: State) -> list[Seat]:
    return [s.draft_queue[0]]


def legal(game: GlueckAuf, s: State, seat: Seat) -> list[Action]:
    return [game.draft_actions[c] for c in s.revealed]


def draft(game: GlueckAuf, s: State, seat: Seat, action: Action, events: list[Event]) -> None:
    card = int(action[1])  # the engine's `in` check lets True pass for 1
    s.revealed.remove(card)
    s.draft_queue.pop(0)
    s.players[seat].orders.append(new_order(game, card))
    events.append(Event("drafted", {"seat": seat, "card": card}))
    if not s.draft_queue:
        end_draft(game, s, events)


def end_draft(game: GlueckAuf, s: State, events: list[Event]) -> None:
    leftover_slot = game.spot_by_id[game.edition.leftover_order_space].number
    if s.revealed:
        s.order_slots[leftover_slot] = s.revealed.pop()
    for spot in game.spots:
        if spot.kind == ORDER and not s.order_slots[spot.number] and s.order_deck:
            s.order_slots[spot.number] = s.order_deck.pop()
    s.revealed = []
    start_shift(s, events)


DRAFT_PHASE = Phase(DRAFT, N_("Drafting orders"), SEQUENTIAL, to_act=to_act, legal=legal, moves={"draft": draft},
                    next=PLACE)
