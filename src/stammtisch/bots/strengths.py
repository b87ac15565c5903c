"""The search bot's three strengths, the same for every game (docs/bots.md gives the measurements
the settings come from).  Budgets are CPU time of one core per decision."""

from __future__ import annotations

import dataclasses

from stammtisch.bots.ismcts import SearchingBot, Settings


class EasyBot(SearchingBot):
    """A short search with random playouts, and now and then a random move: beatable."""

    settings = Settings(iterations=20, seconds=0.05, noise=0.3)


# The game's heuristic bot plays the playouts and orders new children; every node widens
# progressively, so that the few iterations there are go to the heuristic's favourites first.
# Playouts stop at the end of the round (shift) and the game's judge estimates the scores there
# (games/<g>/judge.py): ten times the iterations of playouts to the end.
NORMAL = Settings(iterations=10_000, seconds=0.1, playout="heuristic", widen_above=1, widen_c=1.0, exploration=0.3,
                  rounds=1)


class NormalBot(SearchingBot):
    settings = NORMAL


class HardBot(SearchingBot):
    settings = dataclasses.replace(NORMAL, seconds=0.2)
