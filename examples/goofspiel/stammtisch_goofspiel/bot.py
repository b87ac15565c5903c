"""A Goofspiel bot that sees only its view: it bids the card nearest to the prize's value, a little
higher for a big prize, and throws its lowest card at a small one."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from stammtisch.engine.protocol import Action

SMALL_PRIZE = 4  # at most this, a prize gets the lowest card


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal: list[Action]) -> Action:
        prize = view["board"]["prize"] or 0
        cards = sorted(action[1] for action in legal)
        if prize <= SMALL_PRIZE:
            return ("bid", cards[0])
        aim = prize + self.rng.choice((0, 1, 2))
        return ("bid", min(cards, key=lambda card: (abs(card - aim), card)))
