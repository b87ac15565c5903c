"""The shape of a game's views: every place a value can take, and room for the most it can hold.

A game declares the shape of its views (``Game.observation_shape``), built from these parts; the
research adapters turn a view into a fixed-length vector of numbers by it and back (docs/research.md,
"The observation"), so the vector's layout follows from the rules, never from games played:

- ``Int()``: a whole number, one slot; ``Flag()``: a boolean, one slot (0 or 1);
- ``Text(choices)``: a string from a known list, one slot per choice (1 at the one it is);
- ``Const(value)``: a value fixed by the table (the game's name, its options): no slot;
- ``Maybe(shape)``: ``None`` or a value: an ``is null`` slot, then the value's slots;
- ``Seq(item, room, why)``: a list of at most ``room`` items: its length, then ``room`` items' slots.
  ``why`` says where the room comes from (a rule, a component count); docs/research.md lists them;
- ``Record(fields, optional)``: an object with these keys, each with its shape; an optional key gets an
  ``is absent`` slot.  ``one_of(a, b)`` is the record of either.

Nothing a view holds is dropped: a value with no place (an unknown key, a string not among the
choices, a list longer than its room, a value of another kind, a number a 32-bit float cannot hold
exactly) raises ``ShapeError`` naming where it is.  ``decode`` gives back the very view ``encode`` was
given.  The parts write into any sequence of numbers (``out[i] = x``): the engine needs no numpy.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from stammtisch.engine.flow import Flow
    from stammtisch.engine.protocol import Game

EXACT = 2**24  # a 32-bit float holds every whole number up to this exactly
ONE_PER_SEAT = "one per seat"



class Out(Protocol):
    """Where a view is written: a list of floats, a numpy array."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


class Values(Protocol):
    """Where a view is read from."""

    def __getitem__(self, index: int, /) -> float: ...


class ShapeError(ValueError):
    """A value the shape has no place for (or a vector no view encodes to); ``path`` says where."""

    def __init__(self, reason: str, path: str = "") -> None:
        super().__init__(f"{path or 'the view'}: {reason}")
        self.reason = reason
        self.path = path

    def at(self, step: str) -> ShapeError:
        """The same error one level further out: ``step`` is ``"key"`` or ``"[i]"``."""
        inner = self.path if not self.path or self.path.startswith("[") else f".{self.path}"
        return ShapeError(self.reason, step + inner)


class Shape:
    """One place of a view; ``size`` slots."""

    size = 0

    def names(self, path: str) -> list[str]:
        """The name of each slot, for the place ``path``."""
        raise NotImplementedError

    def encode(self, value: Any, out: Out, base: int) -> None:
        """Write ``value`` into ``out[base:base + size]`` (which holds zeros)."""
        raise NotImplementedError

    def decode(self, values: Values, base: int) -> Any:
        """The value ``encode`` wrote into ``values[base:base + size]``."""
        raise NotImplementedError

    def rooms(self, path: str) -> Iterator[tuple[str, int, str]]:
        """Every list place under this one: (path, room, why)."""
        return iter(())


def _kind(value: Any) -> str:
    return type(value).__name__


class Int(Shape):
    size = 1

    def names(self, path: str) -> list[str]:
        return [path]

    def encode(self, value: Any, out: Out, base: int) -> None:
        if type(value) is not int:
            raise ShapeError(f"a whole number was expected, not {_kind(value)} {value!r}")
        if not -EXACT <= value <= EXACT:
            raise ShapeError(f"{value} is beyond ±{EXACT}, which a 32-bit float holds exactly")
        out[base] = value

    def decode(self, values: Values, base: int) -> Any:
        return int(values[base])


class Flag(Shape):
    size = 1

    def names(self, path: str) -> list[str]:
        return [path]

    def encode(self, value: Any, out: Out, base: int) -> None:
        if type(value) is not bool:
            raise ShapeError(f"true or false was expected, not {_kind(value)} {value!r}")
        out[base] = value

    def decode(self, values: Values, base: int) -> Any:
        return bool(values[base])


class Text(Shape):
    def __init__(self, choices: Sequence[str]) -> None:
        self.choices = tuple(dict.fromkeys(choices))
        self.index = {choice: i for i, choice in enumerate(self.choices)}
        self.size = len(self.choices)

    def names(self, path: str) -> list[str]:
        return [f"{path} = {choice}" for choice in self.choices]

    def encode(self, value: Any, out: Out, base: int) -> None:
        slot = self.index.get(value) if type(value) is str else None
        if slot is None:
            raise ShapeError(f"{value!r} is none of {', '.join(map(repr, self.choices))}")
        out[base + slot] = 1.0

    def decode(self, values: Values, base: int) -> Any:
        for slot, choice in enumerate(self.choices):
            if values[base + slot]:
                return choice
        raise ShapeError("no choice is set")


class Const(Shape):
    """A value the table fixes: checked, not stored."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def names(self, path: str) -> list[str]:
        return []

    def encode(self, value: Any, out: Out, base: int) -> None:
        if type(value) is not type(self.value) or value != self.value:
            raise ShapeError(f"{value!r} differs from this table's {self.value!r}")

    def decode(self, values: Values, base: int) -> Any:
        return copy.deepcopy(self.value)


class Maybe(Shape):
    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.size = 1 + shape.size

    def names(self, path: str) -> list[str]:
        return [f"{path} is null", *self.shape.names(path)]

    def encode(self, value: Any, out: Out, base: int) -> None:
        if value is None:
            out[base] = 1.0
        else:
            self.shape.encode(value, out, base + 1)

    def decode(self, values: Values, base: int) -> Any:
        return None if values[base] else self.shape.decode(values, base + 1)

    def rooms(self, path: str) -> Iterator[tuple[str, int, str]]:
        return self.shape.rooms(path)


class Seq(Shape):
    def __init__(self, item: Shape, room: int, why: str) -> None:
        self.item = item
        self.room = room
        self.why = why
        self.size = 1 + room * item.size

    def names(self, path: str) -> list[str]:
        names = [f"len({path})"]
        for index in range(self.room):
            names += self.item.names(f"{path}[{index}]")
        return names

    def encode(self, value: Any, out: Out, base: int) -> None:
        if type(value) is not list and type(value) is not tuple:
            raise ShapeError(f"a list was expected, not {_kind(value)}")
        if len(value) > self.room:
            raise ShapeError(f"{len(value)} items, room for {self.room} ({self.why})")
        out[base] = len(value)
        item, width = self.item, self.item.size
        for index, element in enumerate(value):
            try:
                item.encode(element, out, base + 1 + index * width)
            except ShapeError as error:
                raise error.at(f"[{index}]") from None

    def decode(self, values: Values, base: int) -> Any:
        length = int(values[base])
        if not 0 <= length <= self.room:
            raise ShapeError(f"length {length}, room for {self.room}")
        return [self.item.decode(values, base + 1 + index * self.item.size) for index in range(length)]

    def rooms(self, path: str) -> Iterator[tuple[str, int, str]]:
        yield path, self.room, self.why
        yield from self.item.rooms(f"{path}[i]")


class Record(Shape):
    """An object: ``fields`` always there, ``optional`` ones sometimes; slots in key order."""

    def __init__(self, fields: Mapping[str, Shape], optional: Mapping[str, Shape] | None = None) -> None:
        optional = optional or {}
        if set(fields) & set(optional):
            raise ValueError(f"keys both required and optional: {sorted(set(fields) & set(optional))}")
        self.fields = dict(fields)
        self.optional = dict(optional)
        self.places: list[tuple[str, Shape, int, int | None]] = []  # key, shape, offset, "is absent" slot
        offset = 0
        for key, shape in sorted({**fields, **optional}.items()):
            absent = None
            if key in optional:
                absent, offset = offset, offset + 1
            self.places.append((key, shape, offset, absent))
            offset += shape.size
        self.size = offset
        self.keys = frozenset(self.fields) | frozenset(self.optional)

    def names(self, path: str) -> list[str]:
        names = []
        for key, shape, _offset, absent in self.places:
            inner = f"{path}.{key}" if path else key
            if absent is not None:
                names.append(f"{inner} is absent")
            names += shape.names(inner)
        return names

    def encode(self, value: Any, out: Out, base: int) -> None:
        if type(value) is not dict:
            raise ShapeError(f"an object was expected, not {_kind(value)}")
        if not self.keys.issuperset(value):
            unknown = ", ".join(repr(key) for key in value if key not in self.keys)
            raise ShapeError(f"no place for {unknown} (the game's observation shape does not declare it)")
        for key, shape, offset, absent in self.places:
            if key not in value:
                if absent is None:
                    raise ShapeError(f"{key!r} is missing")
                out[base + absent] = 1.0
                continue
            try:
                shape.encode(value[key], out, base + offset)
            except ShapeError as error:
                raise error.at(key) from None

    def decode(self, values: Values, base: int) -> Any:
        return {key: shape.decode(values, base + offset) for key, shape, offset, absent in self.places
                if absent is None or not values[base + absent]}

    def rooms(self, path: str) -> Iterator[tuple[str, int, str]]:
        for key, shape, _offset, _absent in self.places:
            yield from shape.rooms(f"{path}.{key}" if path else key)


def one_of(*records: Record) -> Record:
    """The record of a place that holds one of several records (a drawn tile or a drawn card): the
    keys they all have are always there, the others optional."""
    shapes: dict[str, Shape] = {}
    for record in records:
        for key, shape in {**record.fields, **record.optional}.items():
            shapes.setdefault(key, shape)
    common = set.intersection(*(set(record.fields) for record in records))
    return Record({key: shape for key, shape in shapes.items() if key in common},
                  {key: shape for key, shape in shapes.items() if key not in common})


def seat_list(players: int) -> Seq:
    """A list with an entry per seat (scores, turn order, votes by seat)."""
    return Seq(Int(), players, ONE_PER_SEAT)


def phase_names(flow: Flow) -> list[str]:
    """Every phase a flow game's view can name: its phases, its interludes and the finished game's."""
    return [*flow.phases, *(interlude.name for interlude in flow.interludes), flow.over]


def envelope_shape(game: Game[Any], *, phases: Sequence[str], decision: Shape, board: Shape,
                   final_detail: Shape) -> Record:
    """The shape of the view envelope (engine/view.py) around a game's own parts."""
    players = game.num_players
    return Record({
        "game": Const(game.name),
        "seat": Maybe(Int()),
        "players": Const(players),
        "to_act": seat_list(players),
        "phase": Text(phases),
        "decision": Maybe(decision),
        "final": Maybe(Record({"scores": seat_list(players), "winners": seat_list(players),
                               "detail": Maybe(Seq(final_detail, players, ONE_PER_SEAT))})),
        "board": board,
    })
