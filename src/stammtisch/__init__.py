"""Stammtisch: heavy board games on one deterministic game engine (the games: ``stammtisch.games``)."""

__version__ = "0.1.0"
