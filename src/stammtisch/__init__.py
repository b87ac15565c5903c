"""Stammtisch: heavy board games on one deterministic game engine (the games: ``stammtisch.games``)."""

from stammtisch import _build  # chooses the compiled or the pure-Python build before anything else loads

__version__ = "0.1.0"
BUILD = _build.select()  # "compiled" or "pure"
