"""Taking back a move within one's own turn, as Board Game Arena allows: only while the seat is
still deciding and only if the move revealed nothing (no chance drawn, no hidden thing shown)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Event, Game, Seat


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
