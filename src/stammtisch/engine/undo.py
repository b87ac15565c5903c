"""Taking back a move within one's own turn, as Board Game Arena allows: only while the seat is
still deciding and only if the move revealed nothing (no chance drawn, no hidden thing shown)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Event, Game, Seat

Reader = Seat | None  # a seat, or None for the spectators


def chance_draws(state: Any) -> int:
    """How often the state's seeded chance has been used (every game keeps it as ``state.chance``)."""
    return int(state.chance.draws)


def undoable(game: Game[Any], draws_before: int, after: Any, seat: Seat, events: list[Event]) -> bool:
    """May ``seat`` take back the move that turned a state with ``draws_before`` chance draws into
    ``after`` with ``events``?"""
    return (
        not game.is_over(after)
        and seat in game.to_act(after)
        and chance_draws(after) == draws_before
        and not any(game.reveals(event) for event in events)
    )


class TakeBacks:
    """The undo policy: the moves that may be taken back now, newest last.

    Only one seat's moves in a row: a move that may not be taken back empties the stack, and so does
    another seat's move (in a sealed decision, too), so a seat takes back only what it did since
    anybody else last moved.  Each move keeps the state before it and the readers it was hidden from:
    taking it back is hidden from them as well."""

    __slots__ = ("_moves",)

    def __init__(self) -> None:
        self._moves: list[tuple[Seat, Any, frozenset[Reader]]] = []

    def moved(self, seat: Seat, before: Any, hidden: frozenset[Reader], may_take_back: bool) -> None:
        """``seat`` moved from the state ``before``."""
        if not may_take_back or (self._moves and self._moves[-1][0] != seat):
            self._moves.clear()
        if may_take_back:
            self._moves.append((seat, before, hidden))

    def allows(self, seat: Seat) -> bool:
        return bool(self._moves) and self._moves[-1][0] == seat

    def last(self) -> tuple[Any, frozenset[Reader]]:
        """The state before the last move, and the readers that move was hidden from."""
        return self._moves[-1][1], self._moves[-1][2]

    def pop(self) -> None:
        self._moves.pop()
