"""Seeded chance kept inside the state: two integers, so copies stay cheap and exact."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


class Chance:
    """Each draw uses a fresh generator seeded by (seed, draws so far): replays are exact.

    Compiled with the states (a mypyc native class), so a plain slotted class rather than a
    dataclass, whose generated ``__init__`` would run interpreted."""

    __slots__ = ("seed", "draws")

    def __init__(self, seed: int = 0, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws

    def _next(self) -> random.Random:
        self.draws += 1
        return random.Random(self.seed * 1_000_003 + self.draws)

    def shuffle(self, items: list[T]) -> None:
        self._next().shuffle(items)

    def choice(self, items: list[T]) -> T:
        return self._next().choice(items)

    def copy(self) -> Chance:
        return Chance(self.seed, self.draws)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and self.seed == other.seed and self.draws == other.draws

    def __repr__(self) -> str:
        return f"Chance(seed={self.seed!r}, draws={self.draws!r})"
