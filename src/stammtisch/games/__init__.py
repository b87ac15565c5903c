"""The games Stammtisch knows, by name.  Each lives in its own folder with the same files."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from stammtisch.engine.protocol import Game

GAMES: dict[str, str] = {
    "diemacher": "stammtisch.games.diemacher.rules:DieMacher",
    "glueckauf": "stammtisch.games.glueckauf.rules:GlueckAuf",
}


def game_class(name: str) -> type[Game[Any]]:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    module, cls = GAMES[name].split(":")
    return getattr(import_module(module), cls)


def make_game(name: str, players: int, options: dict[str, Any] | None = None) -> Game[Any]:
    return game_class(name)(players, options)
