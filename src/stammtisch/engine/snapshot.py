"""Snapshots: a whole state as JSON-ready data and back, exactly (as FEN is for chess).

The encoding is generic over the state classes: it walks their fields (``__slots__``, the
attributes of a class compiled by mypyc, dataclass or NamedTuple fields), so a field added to a
state is snapshotted without further code.  Loading builds each object through its class: a
dataclass or NamedTuple from its fields, any other class called without arguments (a blank or
defaulted object, as the states' ``copy()`` makes them) and then given every field — never
``object.__new__``, which mypyc's native classes refuse.  Format version 1::

    {"snapshot": "stammtisch", "version": 1, "game": NAME, "players": N, "options": {...},
     "state": NODE}

A NODE is ``null``, a boolean, a whole number, a finite float, a string, a JSON array of NODEs
(a Python list), or an object tagged by its key ``"@"``:

- ``{"@": "tuple", "items": [NODE, ...]}``
- ``{"@": "dict", "items": [[KEY NODE, VALUE NODE], ...]}`` (insertion order kept)
- ``{"@": "module:Class", "fields": {NAME: NODE, ...}}``: an instance of a slotted class (or one
  compiled by mypyc), a dataclass or a NamedTuple defined in the game's own package or in the engine
  (nothing else is imported)
- ``{"@": "module:Class", "value": NODE}``: a member of an Enum from those packages
"""

from __future__ import annotations

import dataclasses
import json
import math
from enum import Enum
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stammtisch.engine.protocol import Game

FORMAT = "stammtisch"
VERSION = 1
ENGINE_PACKAGE = "stammtisch.engine"


class SnapshotError(ValueError):
    """Data that is not a snapshot of this game (malformed, foreign or of another version)."""


def dump_state(game: Game[Any], state: Any) -> dict[str, Any]:
    return {
        "snapshot": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": game.num_players,
        "options": _options(game),
        "state": _Encoder(_packages(game)).node(state, "state"),
    }


def load_state(game: Game[Any], data: Any) -> Any:
    if not isinstance(data, dict) or data.get("snapshot") != FORMAT:
        raise SnapshotError("not a Stammtisch snapshot (expected an object with \"snapshot\": \"stammtisch\")")
    if data.get("version") != VERSION:
        raise SnapshotError(f"snapshot format version {data.get('version')!r}; this engine reads version {VERSION}")
    if data.get("game") != game.name:
        raise SnapshotError(f"a snapshot of {data.get('game')!r}, not of {game.name!r}")
    if data.get("players") != game.num_players:
        raise SnapshotError(f"a snapshot for {data.get('players')!r} players, this table has {game.num_players}")
    if _canonical(_as_read_now(game, data.get("options"))) != _canonical(_options(game)):
        raise SnapshotError("the snapshot was taken at a table with other options")
    if "state" not in data:
        raise SnapshotError("the snapshot has no state")
    return _Decoder(_packages(game)).node(data["state"], "state")


def situation(game: Game[Any], state: Any, changes: dict[str, Any]) -> Any:
    """A state built from ``state``'s snapshot with some fields changed, for tests that start
    in the middle of a game.  Keys are dotted paths into the state (``"players.0.money"``,
    ``"boards.2.rallies"``); values are plain Python values, encoded like the rest."""
    data = dump_state(game, state)
    encoder = _Encoder(_packages(game))
    for path, value in changes.items():
        parent, key = _walk(data["state"], path)
        parent[key] = encoder.node(value, path)
    return load_state(game, json.loads(json.dumps(data)))


def _walk(node: Any, path: str) -> tuple[Any, Any]:
    parts = path.split(".")
    for part in parts[:-1]:
        node = _child(node, part, path)
    last = parts[-1]
    if isinstance(node, dict) and node.get("@") == "tuple":
        node = node["items"]
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        return node, int(last)
    if isinstance(node, dict) and "fields" in node and last in node["fields"]:
        return node["fields"], last
    raise SnapshotError(f"{path}: no such field")


def _child(node: Any, part: str, path: str) -> Any:
    if isinstance(node, dict) and node.get("@") == "tuple":
        node = node["items"]
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    if isinstance(node, dict) and "fields" in node and part in node["fields"]:
        return node["fields"][part]
    raise SnapshotError(f"{path}: no field {part!r}")


def _options(game: Game[Any]) -> Any:
    return json.loads(json.dumps(game.options))


def _as_read_now(game: Game[Any], options: Any) -> Any:
    """A snapshot's options as this release reads them: an option added since gets its default, one
    given by an earlier name (``Option.formerly``) its name; options this release refuses stay as given."""
    if not isinstance(options, dict):
        return options
    try:
        return json.loads(json.dumps(game.check_options(dict(options))))
    except (ValueError, TypeError):
        return options


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _packages(game: Game[Any]) -> tuple[str, str]:
    return type(game).__module__.rpartition(".")[0], ENGINE_PACKAGE


def _is_named_tuple(cls: type) -> bool:
    return issubclass(cls, tuple) and hasattr(cls, "_fields")


def _is_native(cls: type) -> bool:
    """A class compiled by mypyc: its attributes are listed in ``__mypyc_attrs__``, it has no ``__slots__``."""
    return "__mypyc_attrs__" in cls.__dict__


def _has_fields(cls: type) -> bool:
    return dataclasses.is_dataclass(cls) or hasattr(cls, "__slots__") or _is_native(cls)


def field_names(cls: type) -> list[str]:
    """The fields of a state class in declaration order, the same in both builds (a compiled class
    declares them in the class body in the order of its source's ``__slots__``)."""
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    if _is_named_tuple(cls):
        return list(cls._fields)  # type: ignore[attr-defined]
    if _is_native(cls):
        return [name for name in cls.__dict__["__mypyc_attrs__"] if name not in ("__weakref__", "__dict__")]
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s not in ("__weakref__", "__dict__")]
    return names


def _allowed(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


class _At(SnapshotError):
    """An error deep in a snapshot; each enclosing container adds its key on the way out, so the
    happy path builds no paths at all."""

    def __init__(self, message: str, *path: Any) -> None:
        super().__init__(message)
        self.message = message
        self.path = list(path)

    def within(self, key: Any) -> _At:
        self.path.insert(0, key)
        return self

    def finished(self, root: str) -> SnapshotError:
        return SnapshotError(f"{'.'.join(str(p) for p in [root, *self.path])}: {self.message}")


_PLAIN = (type(None), bool, int, str)
_FIELDS: dict[type, list[str]] = {}


def _fields_of(cls: type) -> list[str]:
    if cls not in _FIELDS:
        _FIELDS[cls] = field_names(cls)
    return _FIELDS[cls]


class _Encoder:
    def __init__(self, packages: tuple[str, ...]) -> None:
        self.packages = packages

    def node(self, value: Any, where: str) -> Any:
        try:
            return self._node(value)
        except _At as error:
            raise error.finished(where) from None

    def _node(self, value: Any) -> Any:
        kind = type(value)
        if kind in _PLAIN:
            return value
        if kind is list:
            return [self._item(x, i) for i, x in enumerate(value)]
        if kind is tuple:
            return {"@": "tuple", "items": [self._item(x, i) for i, x in enumerate(value)]}
        if kind is dict:
            return {"@": "dict", "items": [[self._item(k, "key"), self._item(v, k)] for k, v in value.items()]}
        if kind is float:
            if not math.isfinite(value):
                raise _At(f"{value} cannot be snapshotted")
            return value
        tag = f"{kind.__module__}:{kind.__qualname__}"
        if not _allowed(kind.__module__, self.packages):
            raise _At(f"a {tag} is not part of this game's state")
        if isinstance(value, Enum):
            return {"@": tag, "value": self._node(value.value)}
        if not _has_fields(kind):
            raise _At(f"{tag} is neither a slotted class, a dataclass nor a NamedTuple")
        return {"@": tag, "fields": {name: self._item(getattr(value, name), name) for name in _fields_of(kind)}}

    def _item(self, value: Any, key: Any) -> Any:
        if type(value) in _PLAIN:
            return value
        try:
            return self._node(value)
        except _At as error:
            raise error.within(key) from None


class _Decoder:
    def __init__(self, packages: tuple[str, ...]) -> None:
        self.packages = packages
        self.classes: dict[str, type] = {}

    def node(self, data: Any, where: str) -> Any:
        try:
            return self._node(data)
        except _At as error:
            raise error.finished(where) from None

    def _node(self, data: Any) -> Any:
        kind = type(data)
        if kind in _PLAIN:
            return data
        if kind is list:
            return [self._item(x, i) for i, x in enumerate(data)]
        if kind is float:
            if not math.isfinite(data):
                raise _At(f"{data} is not a snapshot value")
            return data
        if kind is not dict or not isinstance(data.get("@"), str):
            raise _At(f"expected a value, a list or a tagged object, got {data!r:.80}")
        tag = data["@"]
        if tag == "tuple":
            return tuple(self._item(x, i) for i, x in enumerate(self._list(data, "items")))
        if tag == "dict":
            return self._dict(data)
        cls = self._class(tag)
        if issubclass(cls, Enum):
            try:
                return cls(self._node(data.get("value")))
            except ValueError:
                raise _At(f"{data.get('value')!r} is not a {tag}") from None
        return self._object(cls, data)

    def _item(self, data: Any, key: Any) -> Any:
        if type(data) in _PLAIN:
            return data
        try:
            return self._node(data)
        except _At as error:
            raise error.within(key) from None

    @staticmethod
    def _list(data: dict[str, Any], key: str) -> list[Any]:
        items = data.get(key)
        if type(items) is not list:
            raise _At(f"expected a list under {key!r}")
        return items

    def _dict(self, data: dict[str, Any]) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for pair in self._list(data, "items"):
            if type(pair) is not list or len(pair) != 2:
                raise _At("a dict item must be a [key, value] pair")
            key = self._item(pair[0], "key")
            try:
                result[key] = self._item(pair[1], key)
            except TypeError:
                raise _At(f"{key!r} cannot be a key") from None
        return result

    def _class(self, tag: str) -> type:
        if tag in self.classes:
            return self.classes[tag]
        module, _, qualname = tag.partition(":")
        if not qualname or not _allowed(module, self.packages):
            raise _At(f"{tag!r} is not a class of this game's state")
        try:
            found: Any = import_module(module)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            raise _At(f"unknown class {tag!r}") from None
        if not isinstance(found, type):
            raise _At(f"{tag!r} is not a class")
        self.classes[tag] = found
        return found

    def _object(self, cls: type, data: dict[str, Any]) -> Any:
        fields = data.get("fields")
        if type(fields) is not dict or not _has_fields(cls):
            raise _At(f"expected the fields of a {cls.__qualname__}")
        names = _fields_of(cls)
        if len(fields) != len(names) or not all(name in fields for name in names):
            missing, extra = sorted(set(names) - set(fields)), sorted(set(fields) - set(names))
            raise _At(f"fields of {cls.__qualname__} do not match (missing {missing}, unexpected {extra})")
        values = {name: self._item(fields[name], name) for name in names}
        if _is_named_tuple(cls) or dataclasses.is_dataclass(cls):
            return cls(**values)
        try:
            obj: Any = cls()
        except TypeError:
            raise _At(f"{cls.__qualname__} cannot be called without arguments, so it cannot be loaded") from None
        try:
            for name, value in values.items():
                setattr(obj, name, value)
        except TypeError as error:  # a compiled class checks the types of its fields
            raise _At(f"{cls.__qualname__}.{name}: {error}") from None
        return obj
