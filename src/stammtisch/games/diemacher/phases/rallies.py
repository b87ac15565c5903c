"""Phase 4 (die-macher.md §6.4): party rallies, each seat in turn board by board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.state import State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# Rallies organized on a board (made on every move: engine.protocol.EventKind).
RALLIES_ORGANIZED: Final = EventKind("rallies_organized", "seat", "board", "rallies", "cost")


def enter_by_seat(game: DieMacher, state: State, events: list[Event]) -> None:
    """Seats in turn order, each going through the boards from the election on."""
    state.turn, state.cursor = 0, 0


def max_rallies(game: DieMacher, state: State, seat: int, pos: int) -> int:
    player, board = state.players[seat], state.boards[pos]
    most = min(game.edition.rally_cap - board.rallies[seat], player.rally_supply)
    while most and game.rally_cost(most) > player.money:
        most -= 1
    return most


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    boards = game.from_election(state)
    while state.turn < state.seats:
        seat = state.turn_seat(state.turn)
        while state.cursor < len(boards):
            if max_rallies(game, state, seat, boards[state.cursor]):
                state.actor = seat
                return WAIT
            state.cursor += 1
        state.turn, state.cursor = state.turn + 1, 0
    return NEXT


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    pos = game.from_election(state)[state.cursor]
    return game.rally_actions[pos][:max(0, max_rallies(game, state, seat, pos) + 1)]  # 0 to most rallies


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    if len(action) != 3 or type(action[1]) is not int or type(action[2]) is not int:
        return False
    pos = game.from_election(state)[state.cursor]
    return action[1] == pos and 0 <= action[2] <= max_rallies(game, state, seat, pos)


def rallies(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    _, pos, n = action
    if n:
        cost = game.rally_cost(n)
        state.boards[pos].rallies[seat] += n
        state.players[seat].rally_supply -= n
        state.players[seat].money -= cost
        events.append(RALLIES_ORGANIZED.event(seat, pos, n, cost))
    state.cursor += 1


RALLIES = Phase("rallies", N_("4 Organize Party Rallies"), SEQUENTIAL, track="4", enter=enter_by_seat, legal=legal,
                allows=allows, moves={"rallies": rallies}, settle=settle, next="cabinet")
