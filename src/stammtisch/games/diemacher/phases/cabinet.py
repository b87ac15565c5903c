"""Phase 5 (die-macher.md §6.5): the shadow cabinet, politicians placed face down."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.phases.rallies import enter_by_seat
from stammtisch.games.diemacher.state import Placed, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# A politician placed face down: everybody sees where, only its party which (engine.protocol.EventKind).
POLITICIAN_PLACED: Final = EventKind("politician_placed", "seat", "board")
POLITICIAN_PLACED_SECRET: Final = EventKind("politician_placed_secret", "seat", "board", "politician")


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    boards = game.from_election(state)
    while state.turn < state.seats:
        seat = state.turn_seat(state.turn)
        if state.cursor < len(boards) and state.players[seat].politicians:
            state.actor = seat
            return WAIT
        state.turn, state.cursor = state.turn + 1, 0
    return NEXT


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    pos = game.from_election(state)[state.cursor]
    politicians = game.edition.politicians
    return [("place", pos, None)] + [("place", pos, politicians[p].id) for p in state.players[seat].politicians]


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    if len(action) != 3 or type(action[1]) is not int or action[1] != game.from_election(state)[state.cursor]:
        return False
    politician_id = action[2]
    if politician_id is None:
        return True
    return type(politician_id) is str and game.politician_index.get(politician_id) in state.players[seat].politicians


def place(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    _, pos, politician_id = action
    if politician_id is not None:
        politician = game.politician_index[politician_id]
        state.players[seat].politicians.remove(politician)
        state.boards[pos].row.append(Placed(seat, politician))
        events.append(POLITICIAN_PLACED.event(seat, pos))
        events.append(POLITICIAN_PLACED_SECRET.event(seat, pos, politician_id, seats=(seat,)))
    state.cursor += 1


CABINET = Phase("cabinet", N_("5 Send Shadow Cabinet"), SEQUENTIAL, track="5", enter=enter_by_seat, legal=legal,
                allows=allows, moves={"place": place}, settle=settle, next="politicians")
