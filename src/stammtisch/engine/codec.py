"""Action codecs: a stable integer for every action a game can ever allow at a table.

A game enumerates its whole action space, deterministically from its data and options; the
codec numbers that table in order.  ``digest`` is a short hash of the table, so that a trained
network or a stored policy can tell when the numbering it learnt has changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from stammtisch.engine.protocol import Action, Seat, identical
from stammtisch.engine.record import action_to_json

if TYPE_CHECKING:
    from stammtisch.engine.protocol import Game


class UnknownAction(ValueError):
    """An action or a code outside the codec's table."""


class ActionCodec:
    def __init__(self, game: Game[Any], actions: Iterable[Action]) -> None:
        self.game = game
        self.actions: tuple[Action, ...] = tuple(actions)
        self.size = len(self.actions)
        self._index: dict[Action, int] = {}
        for code, action in enumerate(self.actions):
            if action in self._index:
                raise ValueError(f"{game.name}: {action!r} and {self.actions[self._index[action]]!r} share a code")
            self._index[action] = code
        table = json.dumps([action_to_json(a) for a in self.actions], separators=(",", ":"))
        self.digest = hashlib.sha256(f"{game.name}\n{table}".encode()).hexdigest()[:16]

    def encode(self, action: Action) -> int:
        code = self._index.get(action)
        if code is None or not identical(self.actions[code], action):
            raise UnknownAction(f"{self.game.name}: {action!r} is not in the action table")
        return code

    def decode(self, code: int) -> Action:
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < self.size:
            raise UnknownAction(f"{self.game.name}: {code!r} is not an action code (0 to {self.size - 1})")
        return self.actions[code]

    def mask(self, state: Any, seat: Seat) -> bytearray:
        """1 at the code of every action ``seat`` may take now, else 0."""
        mask = bytearray(self.size)
        for action in self.game.legal_actions(state, seat):
            mask[self.encode(action)] = 1
        return mask


def money_amounts(unit: int, high: int) -> range:
    """Every multiple of ``unit`` from 0 to ``high``: the table of a money-valued decision."""
    return range(0, high + 1, unit)


_CODECS: dict[tuple[type, int, str], ActionCodec] = {}


def cached_codec(cls: type[Game[Any]], num_players: int, options: Mapping[str, Any] | None,
                 enumerate_actions: Callable[[Any], Iterable[Action]]) -> ActionCodec:
    """The codec of a table, built once per game class, player count and options."""
    key = (cls, num_players, json.dumps(dict(options or {}), sort_keys=True, default=repr))
    if key not in _CODECS:
        game = cls(num_players, options)
        _CODECS[key] = ActionCodec(game, enumerate_actions(game))
    return _CODECS[key]
