"""A fixed-length numeric encoding of a seat's view, the same layout for every view at one table.

The layout is generic: it is derived from the shapes of the views themselves, not written per game.
Views from probe games (uniform random legal play with fixed seeds, at the same table) are merged
into one schema: a dict keeps every key ever seen (in sorted order), a list keeps room for half as
many items again as the longest list seen at that place, at least one more (the envelope's lists of
seats: one per seat; every item shares one schema; items beyond the room are left out, the length
slot still counts them), a string becomes a one-hot over the
strings seen there, and a number or a boolean one slot.  A place that holds values of several kinds
(``None`` or a dict, a number or a string) gets one flag per kind first.  ``Layout.entries`` names
every slot; docs/research.md describes the encoding.

``Layout.digest`` hashes the format version, the action codec's digest and the entries: a stored
network or policy can tell when the observation (or the action numbering) it learnt has changed.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import numpy as np

from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Game

VERSION = 1
PROBE_GAMES = 48  # random games whose views shape the layout (docs/research.md)
KINDS = ("null", "number", "string", "list", "dict")
SEAT_LISTS = ("to_act", "final.winners", "final.scores", "final.detail")  # the envelope's lists of seats


class Node:
    """The merged shape of every value seen at one place of the view."""

    __slots__ = ("kinds", "strings", "item", "longest", "keys", "dicts")

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.strings: set[str] = set()
        self.item: Node | None = None
        self.longest = 0
        self.keys: dict[str, Node] = {}
        self.dicts = 0

    def merge(self, value: Any) -> None:
        kind = kind_of(value)
        self.kinds.add(kind)
        if kind == "string":
            self.strings.add(value)
        elif kind == "list":
            self.longest = max(self.longest, len(value))
            self.item = self.item or Node()
            for item in value:
                self.item.merge(item)
        elif kind == "dict":
            self._merge_dict(value)

    def _merge_dict(self, value: dict[Any, Any]) -> None:
        for key, item in value.items():
            child = self.keys.get(str(key))
            if child is None:
                child = self.keys[str(key)] = Node()
                if self.dicts:
                    child.kinds.add("null")  # earlier dicts here lacked the key
            child.merge(item)
        for key, child in self.keys.items():
            if key not in value and not any(str(k) == key for k in value):
                child.kinds.add("null")
        self.dicts += 1


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool | int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "dict"
    raise TypeError(f"a view holds {value!r}, which is not JSON-ready")


Encoder = Callable[[Any, np.ndarray, int], None]


class Layout:
    """The observation layout of one table: ``size`` slots, ``entries`` naming them, ``encode(view)``."""

    def __init__(self, game: Game[Any], root: Node) -> None:
        self.game = game
        self.entries: list[str] = []
        self._lost = [0]
        self._encode = self._compile(root, "")
        self.size = len(self.entries)
        codec = game.action_codec(game.num_players, game.options)
        text = json.dumps([VERSION, game.name, codec.digest, self.entries], separators=(",", ":"))
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        self._encode(view, out, 0)
        return out

    @property
    def lost(self) -> int:
        """How many values this layout has had no slot for (a string, a list item, a dict key or a
        kind of value no probe game showed at that place) in all views encoded so far."""
        return self._lost[0]

    def _slot(self, name: str) -> int:
        self.entries.append(name)
        return len(self.entries) - 1

    def _compile(self, node: Node, path: str) -> Encoder:
        kinds = [kind for kind in KINDS if kind in node.kinds]
        flags = {kind: self._slot(f"{path} is {kind}") for kind in kinds} if len(kinds) > 1 else {}
        parts: dict[str, Encoder] = {}
        if "number" in node.kinds:
            parts["number"] = self._number(path)
        if "string" in node.kinds:
            parts["string"] = self._string(node, path)
        if "list" in node.kinds and node.item is not None:
            parts["list"] = self._list(node, path)
        if "dict" in node.kinds:
            parts["dict"] = self._dict(node, path)
        return _dispatch(kinds, flags, parts, self._lost)

    def _number(self, path: str) -> Encoder:
        slot = self._slot(path or "value")

        def number(value: Any, out: np.ndarray, base: int) -> None:
            out[base + slot] = value
        return number

    def _string(self, node: Node, path: str) -> Encoder:
        slots = {text: self._slot(f"{path} = {text}") for text in sorted(node.strings)}
        lost = self._lost

        def string(value: Any, out: np.ndarray, base: int) -> None:
            slot = slots.get(value)
            if slot is None:  # a string no probe showed here has no slot
                lost[0] += 1
            else:
                out[base + slot] = 1.0
        return string

    def _list(self, node: Node, path: str) -> Encoder:
        assert node.item is not None
        length = self._slot(f"len({path})")
        room = self.game.num_players if path in SEAT_LISTS else node.longest + max(1, node.longest // 2)
        start = len(self.entries)
        item = self._compile(node.item, f"{path}[0]")
        width = len(self.entries) - start
        for index in range(1, room):
            self.entries.extend(name.replace(f"{path}[0]", f"{path}[{index}]", 1)
                                for name in self.entries[start:start + width])

        lost = self._lost

        def items(value: Any, out: np.ndarray, base: int) -> None:
            out[base + length] = len(value)
            if len(value) > room:
                lost[0] += len(value) - room
            for index, element in enumerate(value[:room]):
                item(element, out, base + index * width)
        return items

    def _dict(self, node: Node, path: str) -> Encoder:
        fields = [(key, self._compile(child, f"{path}.{key}" if path else key))
                  for key, child in sorted(node.keys.items())]
        known, lost = frozenset(node.keys), self._lost

        def mapping(value: Any, out: np.ndarray, base: int) -> None:
            if not known.issuperset(value):
                lost[0] += sum(str(key) not in known for key in value)
            for key, field in fields:
                item = value.get(key)
                if item is None and key not in value:
                    item = _int_key(value, key)
                field(item, out, base)
        return mapping


def _int_key(value: dict[Any, Any], key: str) -> Any:
    return value.get(int(key)) if key.lstrip("-").isdigit() else None


TYPES = {"null": (type(None),), "number": (bool, int, float), "string": (str,), "list": (list, tuple),
         "dict": (dict,)}


def _dispatch(kinds: list[str], flags: dict[str, int], parts: dict[str, Encoder], lost: list[int]) -> Encoder:
    """Flags for a place of several kinds, then the part for the value's kind; a value of a kind no
    probe showed here has no slot."""
    if not flags:
        return _single(kinds[0] if kinds else "null", parts.get(kinds[0]) if kinds else None, lost)

    def dispatch(value: Any, out: np.ndarray, base: int) -> None:
        kind = kind_of(value)
        flag = flags.get(kind)
        if flag is None:
            lost[0] += 1
            return
        out[base + flag] = 1.0
        part = parts.get(kind)
        if part is not None:
            part(value, out, base)
    return dispatch


def _single(kind: str, part: Encoder | None, lost: list[int]) -> Encoder:
    types = frozenset(TYPES[kind])

    def single(value: Any, out: np.ndarray, base: int) -> None:
        if type(value) not in types:
            lost[0] += 1
        elif part is not None:
            part(value, out, base)
    return single


def probe_views(game: Game[Any], games: int = PROBE_GAMES) -> Iterator[dict[str, Any]]:
    """Views seen in ``games`` random games at this table: the acting seat's at every other step,
    every seat's and a spectator's at every eighth step and at the end.  (Many games read sparsely
    find more of the rare values than a few games read at every step, for the same time.)"""
    for seed in range(games):
        rng = random.Random(seed)
        match = Match(game, seed)
        while not match.is_over():
            seat = match.to_act()[0]
            steps = match.version
            readers = [*range(game.num_players), None] if steps % 8 == 0 else [seat] if steps % 2 == 0 else []
            yield from (match.view(reader) for reader in readers)
            legal = match.legal_actions(seat)
            match.act(seat, legal[rng.randrange(len(legal))])
        for seat in [*range(game.num_players), None]:
            yield match.view(seat)


@cache
def _layout(name: str, players: int, options: str) -> Layout:
    from stammtisch.engine.registry import make_game

    game = make_game(name, players, json.loads(options))
    root = Node()
    for view in probe_views(game):
        root.merge(view)
    return Layout(game, root)


def layout_for(game: Game[Any]) -> Layout:
    """The layout of ``game``'s table, built once per game, player count and options."""
    return _layout(game.name, game.num_players, json.dumps(game.options, sort_keys=True))
