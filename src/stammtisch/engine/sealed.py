"""Sealed decisions: every seat still to commit decides at once, unseen by the others.

The state keeps one list of booleans, ``committed[seat]``; what a seat committed is the game's
secret (kept where the game keeps hidden things) until the phase's reveal runs, once nobody is
left to commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from stammtisch.engine.protocol import Event, EventKind, Seat

COMMITTED: Final = EventKind("sealed_committed", "seat", "decision")  # public: that a seat decided, not what


def open_decision(seats: int, who: Iterable[Seat] | None = None) -> list[bool]:
    """A fresh list of who has committed: nobody yet among ``who`` (default: every seat)."""
    if who is None:
        return [False] * seats
    deciding = set(who)
    return [seat not in deciding for seat in range(seats)]


def waiting(committed: list[bool]) -> list[Seat]:
    """The seats that still have to commit."""
    return [seat for seat, done in enumerate(committed) if not done]


def commit(committed: list[bool], seat: Seat, decision: str, events: list[Event]) -> None:
    """``seat`` has decided; everybody learns that, nobody what."""
    committed[seat] = True
    events.append(COMMITTED.event(seat, decision))
