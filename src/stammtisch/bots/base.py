"""The bot interface and the random bot, shared by both games."""

from __future__ import annotations

import random
from typing import Any, Protocol

from stammtisch.engine.protocol import Action


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
