"""Seeded chance kept inside the state: two integers, so copies stay cheap and exact."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


class Chance:
    """Each draw uses a fresh generator seeded by (seed, draws so far): replays are exact.

    Compiled with the states (a mypyc native class), so a plain slotted class rather than a
    dataclass, whose generated ``__init__`` would run interpreted.  ``shuffle`` and ``choice`` draw
    exactly as ``random.Random.shuffle`` and ``choice`` do (Python 3.11's algorithm, spelled out
    here so that the compiled build runs it natively; tests/engine/test_chance.py holds them equal)."""

    __slots__ = ("seed", "draws")

    def __init__(self, seed: int = 0, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws

    def _next(self) -> random.Random:
        self.draws += 1
        return random.Random(self.seed * 1_000_003 + self.draws)

    def shuffle(self, items: list[T]) -> None:
        bits = self._next().getrandbits
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = bits(k)
            while j >= n:
                j = bits(k)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        bits = self._next().getrandbits
        n = len(items)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        return items[j]

    def copy(self) -> Chance:
        return Chance(self.seed, self.draws)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and self.seed == other.seed and self.draws == other.draws

    def __repr__(self) -> str:
        return f"Chance(seed={self.seed!r}, draws={self.draws!r})"
