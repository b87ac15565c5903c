"""The noisy heuristic: a reference opponent that a search cannot read (issue 27 item 3).

The search bots play out every seat with the game's heuristic bot, which is deterministic up to
tie-breaks, so against heuristic opponents a search knows exactly what the others will do.  The
noisy bot plays the same heuristic with noise: it draws an action with probability
``exp(preference / temperature)`` normalised over the legal actions (a softmax), where the
preferences are the heuristic's own scores of the actions (``HeuristicBot.preferences``).  A low
temperature plays the heuristic's favourite almost always; a high one almost uniformly.  The
temperature is in the units of the game's preference scores (docs/bots.md).  Tournaments seat it
as the kind ``noisy`` (``noisy@T`` for temperature T; tournament/entrants.py).
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

from stammtisch.engine.protocol import Action

TEMPERATURE = 1.0


class Preferring(Protocol):
    """A view bot that scores every legal action (the games' heuristic bots)."""

    def preferences(self, view: dict[str, Any], legal: list[Action]) -> list[float]: ...


def softmax(preferences: list[float], temperature: float) -> list[float]:
    """exp(p / T) normalised; T = 0 puts everything on the first of the best."""
    best = max(preferences)
    if temperature <= 0:
        first = preferences.index(best)
        return [1.0 if i == first else 0.0 for i in range(len(preferences))]
    weights = [math.exp((p - best) / temperature) for p in preferences]
    total = sum(weights)
    return [w / total for w in weights]


class NoisyBot:
    """A view bot (``bots.base.Bot``): the heuristic's preferences, softmax at ``temperature``."""

    parameter = "temperature"  # what ``noisy@X`` sets in a tournament

    def __init__(self, heuristic: Preferring, seed: int = 0, temperature: float = TEMPERATURE) -> None:
        self.heuristic = heuristic
        self.rng = random.Random(seed)
        self.temperature = temperature

    def tune(self, value: float) -> None:
        self.temperature = value

    def probabilities(self, view: dict[str, Any], legal: list[Action]) -> list[float]:
        return softmax(self.heuristic.preferences(view, legal), self.temperature)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.rng.choices(legal, weights=self.probabilities(view, legal))[0]
