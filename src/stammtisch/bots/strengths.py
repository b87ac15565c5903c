"""The search bot's three strengths, the same for every game (docs/bots.md gives the measurements
the settings come from).  Budgets are CPU time of one core per decision."""

from __future__ import annotations

import dataclasses

from stammtisch.bots.ismcts import SearchingBot, Settings


class EasyBot(SearchingBot):
    """A short search with random playouts, and now and then a random move: beatable."""

    settings = Settings(iterations=20, seconds=0.05, noise=0.3)


# The game's heuristic bot plays the playouts, which stop at the end of the round (shift); the
# game's judge estimates the scores there (games/<g>/judge.py).  The root compares the heuristic's
# favourite moves on shared samples and keeps its favourite unless another is clearly better
# (``root="paired"``; docs/bots.md has the measurements).  A budget above 0.2 s buys more favourites:
# 8 at 1 s beat 4 at 0.2 s, where playouts to the game's end at 1 s did not (docs/performance.md,
# "What a larger budget buys").
NORMAL = Settings(iterations=10_000, seconds=0.1, playout="heuristic", rounds=1, root="paired", candidates=4,
                  candidates_by_budget=((0.2, 4), (1.0, 8)), confidence=1.5)


class NormalBot(SearchingBot):
    settings = NORMAL


class HardBot(SearchingBot):
    """Normal's search at twice the time, its cut-off playouts judged by the learned judge
    (bots/learned.py): it won more games against normal bots than this search with the game's
    judge, on the same deals (docs/performance.md, "A learned judge and opponent models")."""

    settings = dataclasses.replace(NORMAL, seconds=0.2, judge="learned")
