"""A fixed-length numeric encoding of a seat's view, the same layout for every view at one table.

The layout is the game's declared view shape (``Game.observation_shape``, engine/shape.py): every
place a view has, each list with the room the rules give it, so nothing depends on games played
and nothing a view holds is dropped.  A value with no place raises ``ShapeError`` naming it, and
``decode`` gives back the view ``encode`` was given.  ``Layout.entries`` names every slot;
docs/research.md describes the encoding.

``Layout.digest`` hashes the format version, the table's options, the action codec's digest and the
entries: a stored network or policy can tell when the observation (or the action numbering, or the
rules it was played under) it learnt has changed.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

import numpy as np

from stammtisch.engine.protocol import Game

VERSION = 2


class Layout:
    """The observation layout of one table: ``size`` slots, ``entries`` naming them."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.shape = game.observation_shape()
        self.entries = self.shape.names("")
        self.size = self.shape.size
        codec = game.action_codec(game.num_players, game.options)
        text = json.dumps([VERSION, game.name, game.options, codec.digest, self.entries], separators=(",", ":"),
                          sort_keys=True, default=repr)
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        """The view as ``size`` float32 numbers; a value with no place raises ``ShapeError``."""
        out = np.zeros(self.size, np.float32)
        self.shape.encode(view, out, 0)
        return out

    def decode(self, observation: np.ndarray) -> dict[str, Any]:
        """The view an observation encodes."""
        if observation.shape != (self.size,):
            raise ValueError(f"an observation of this table has {self.size} numbers, not {observation.shape}")
        view: dict[str, Any] = self.shape.decode(observation.tolist(), 0)
        return view


@cache
def _layout(name: str, players: int, options: str) -> Layout:
    from stammtisch.registry import make_game

    return Layout(make_game(name, players, json.loads(options)))


def layout_for(game: Game[Any]) -> Layout:
    """The layout of ``game``'s table, built once per game, player count and options."""
    return _layout(game.name, game.num_players, json.dumps(game.options, sort_keys=True))
