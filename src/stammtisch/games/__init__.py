"""The games' folders.  Each declares itself in its ``spec.py`` (a ``GameSpec``, registered under the
entry-point group ``stammtisch.games``); ``stammtisch.engine.registry`` finds them."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Game
from stammtisch.engine.registry import game_spec, games, make_game

__all__ = ["game_class", "game_spec", "games", "make_game"]


def game_class(name: str) -> type[Game[Any]]:
    return game_spec(name).game
