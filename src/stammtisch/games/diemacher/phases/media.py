"""Phase 3 (die-macher.md §6.3): buying media markers in turn until everybody passes in a row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.phases.auction import PASSED
from stammtisch.games.diemacher.state import NOBODY, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# A media marker bought (made on every move: engine.protocol.EventKind).
MEDIA_BOUGHT: Final = EventKind("media_bought", "seat", "board")
BUY_MEDIA_ACTIONS: Final = tuple(("buy_media", pos) for pos in range(4))  # one per board, made once


def enter(game: DieMacher, state: State, events: list[Event]) -> None:
    state.turn, state.passes = 0, 0


def targets(game: DieMacher, state: State, seat: int) -> list[int]:
    player = state.players[seat]
    if player.money < game.edition.media_marker_cost or not player.media_supply:
        return []
    return [pos for pos in game.from_election(state) if NOBODY in state.boards[pos].media]


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    while state.passes < state.seats:
        seat = state.turn_seat(state.turn % state.seats)
        if targets(game, state, seat):
            state.actor = seat
            return WAIT
        state.passes += 1  # nothing to buy: an automatic pass
        state.turn += 1
    return NEXT


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return [("pass",), *[BUY_MEDIA_ACTIONS[pos] for pos in targets(game, state, seat)]]


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    if action[0] == "pass":
        return len(action) == 1
    return len(action) == 2 and type(action[1]) is int and action[1] in targets(game, state, seat)


def buy_media(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    board, player = state.boards[action[1]], state.players[seat]
    board.media[board.media.index(NOBODY)] = seat
    player.media_supply -= 1
    player.money -= game.edition.media_marker_cost
    state.passes = 0
    events.append(MEDIA_BOUGHT.event(seat, action[1]))
    state.turn += 1


def pass_(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    state.passes += 1
    events.append(PASSED.event(seat))
    state.turn += 1


MEDIA = Phase("media", N_("3 Secure Media Influence"), SEQUENTIAL, track="3", enter=enter, legal=legal,
              allows=allows, moves={"buy_media": buy_media, "pass": pass_}, settle=settle, next="rallies")
