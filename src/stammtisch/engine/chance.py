"""Seeded chance kept inside the state: two integers, so copies stay cheap and exact."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class Chance:
    """Each draw uses a fresh generator seeded by (seed, draws so far): replays are exact."""

    seed: int
    draws: int = 0

    def _next(self) -> random.Random:
        self.draws += 1
        return random.Random(self.seed * 1_000_003 + self.draws)

    def shuffle(self, items: list[T]) -> None:
        self._next().shuffle(items)

    def choice(self, items: list[T]) -> T:
        return self._next().choice(items)

    def copy(self) -> Chance:
        return Chance(self.seed, self.draws)
