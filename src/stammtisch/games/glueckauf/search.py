"""Glück Auf's search bots at three strengths (bots/ismcts.py; docs/bots.md gives the measurements
the settings come from)."""

from __future__ import annotations

from stammtisch.bots.ismcts import SearchingBot, Settings


class EasyBot(SearchingBot):
    settings = Settings(iterations=20, seconds=0.05, noise=0.3)


class NormalBot(SearchingBot):
    settings = Settings(iterations=200, seconds=0.1)


class HardBot(SearchingBot):
    settings = Settings(iterations=1000, seconds=0.2)
