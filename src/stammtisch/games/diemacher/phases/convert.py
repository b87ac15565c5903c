"""Phase 9a (die-macher.md §6.9): rallies converted into votes, board by board against the
election order; compulsory on the boards that vote now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.board import conversion, matches
from stammtisch.games.diemacher.phases.auction import PASSED
from stammtisch.games.diemacher.phases.rallies import enter_by_seat
from stammtisch.games.diemacher.state import State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# Rallies converted into votes (made on every move: engine.protocol.EventKind).
RALLIES_CONVERTED: Final = EventKind("rallies_converted", "seat", "board", "rallies", "trend", "base", "matches",
                                     "mult", "votes", "total")


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    boards = game.relocation_order(state)
    elections = game.elections_in(state.round)
    while state.cursor < len(boards):
        pos = boards[state.cursor]
        while state.turn < state.seats:
            seat = state.turn_seat(state.turn)
            rallies = state.boards[pos].rallies[seat]
            at_cap = game.options["force_convert_at_cap"] and rallies == game.edition.rally_cap
            forced = pos in elections or at_cap
            if forced and rallies:
                _convert(game, state, seat, pos, rallies, events)
            elif rallies >= 4 and not forced:
                state.actor = seat
                return WAIT
            state.turn += 1
        state.cursor, state.turn = state.cursor + 1, 0
    return NEXT


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    pos = game.relocation_order(state)[state.cursor]
    rallies = state.boards[pos].rallies[seat]
    return [("pass",)] + [("convert", pos, k) for k in range(4, rallies + 1)]


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    if action[0] == "pass":
        return len(action) == 1
    if len(action) != 3 or type(action[1]) is not int or type(action[2]) is not int:
        return False
    pos = game.relocation_order(state)[state.cursor]
    return action[1] == pos and 4 <= action[2] <= state.boards[pos].rallies[seat]


def convert(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    _convert(game, state, seat, action[1], action[2], events)
    state.turn += 1


def pass_(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    events.append(PASSED.event(seat))
    state.turn += 1


def _convert(game: DieMacher, state: State, seat: int, pos: int, k: int, events: list[Event]) -> None:
    board = state.boards[pos]
    trend = board.trend[seat]
    match = matches(board, state.players[seat].program)
    base, mult, votes = conversion(k, trend, match, game.trend_floor(state, pos))
    board.votes[seat] += votes
    board.rallies[seat] -= k
    state.players[seat].rally_supply += k
    events.append(RALLIES_CONVERTED.event(seat, pos, k, trend, base, match, mult, votes, board.votes[seat]))


CONVERT = Phase("convert", N_("9a Relocate Votes"), SEQUENTIAL, track="9a", enter=enter_by_seat, legal=legal,
                allows=allows, moves={"convert": convert, "pass": pass_}, settle=settle, next="election")
