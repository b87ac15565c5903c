"""Setup J (die-macher.md §3.J): each party picks a start block and its states, sealed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stammtisch.engine import sealed
from stammtisch.engine.flow import NEXT, SEALED, Phase
from stammtisch.engine.protocol import Action, Event, Seat
from stammtisch.games.diemacher.phases.draft import enter_all
from stammtisch.games.diemacher.state import NOBODY, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher


def placing(blocks: Sequence[Sequence[str]], secret: Sequence[int]) -> str:
    """The symbol whose state a seat chooses next, from its sealed choices so far (block, states…):
    the choice's rules and its label (text.py, from the seat's own view) both use it."""
    return blocks[secret[0] - 1][len(secret) - 1]


def legal_start(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    secret = state.players[seat].secret
    if not secret:
        return [("start_block", b) for b in range(1, len(game.edition.start_blocks) + 1)]
    taken = taken_states(game, secret)
    return [("start_state", pos) for pos in range(4) if pos not in taken]


def taken_states(game: DieMacher, secret: list[int]) -> set[int]:
    """The states already chosen for the symbol of the block's spot to place next."""
    spots = game.edition.start_blocks[secret[0] - 1]
    symbol = placing(game.edition.start_blocks, secret)
    return {secret[i + 1] for i, s in enumerate(spots[: len(secret) - 1]) if s == symbol}


def allows_start(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_start``'s list, without building it (the strict step)."""
    value = action[1] if len(action) == 2 else None
    if type(value) is not int:
        return False
    secret = state.players[seat].secret
    if not secret:
        return action[0] == "start_block" and 1 <= value <= len(game.edition.start_blocks)
    return action[0] == "start_state" and 0 <= value < 4 and value not in taken_states(game, secret)


def choose(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    secret = state.players[seat].secret
    secret.append(action[1])
    if len(secret) == 6:
        sealed.commit(state.done, seat, "start_position", events)


def reveal_start_positions(game: DieMacher, state: State, events: list[Event]) -> str:
    for seat, player in enumerate(state.players):
        block, *positions = player.secret
        spots = game.edition.start_blocks[block - 1]
        events.append(Event("start_position_revealed", {"seat": seat, "block": block,
                                                        "spots": list(zip(spots, positions, strict=True))}))
        for symbol, pos in zip(spots, positions, strict=True):
            _apply_start_symbol(game, state, seat, symbol, pos)
        player.secret = []
    return NEXT


def _apply_start_symbol(game: DieMacher, state: State, seat: int, symbol: str, pos: int) -> None:
    board, player = state.boards[pos], state.players[seat]
    if symbol == "R":
        placed = min(3, player.rally_supply, game.edition.rally_cap - board.rallies[seat])
        board.rallies[seat] += placed
        player.rally_supply -= placed
    elif symbol == "T":
        board.trend[seat] = game.clamp_trend(board.trend[seat] + 1)
    elif symbol == "M" and player.media_supply and NOBODY in board.media:
        board.media[board.media.index(NOBODY)] = seat
        player.media_supply -= 1
    elif symbol == "V":
        board.votes[seat] += 6


START = Phase("start", N_("Start positions"), SEALED, track="setup", enter=enter_all, legal=legal_start,
              allows=allows_start,
              moves={"start_block": choose, "start_state": choose}, reveal=reveal_start_positions, next="bid")
