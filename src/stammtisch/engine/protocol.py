"""What every game offers the engine, and the plain types that cross the layers.

An action is a tuple whose first element names it (``("bid", 3000)``); it must be built from
str, int, bool, None and nested tuples so that it round-trips through JSON.  The legal list
for a seat is the single source of truth: bots choose from it, clients render it, the
engine rejects everything else.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from stammtisch.engine.options import Option
from stammtisch.i18n import _

if TYPE_CHECKING:
    from stammtisch.engine.codec import ActionCodec
    from stammtisch.engine.shape import Shape

Seat = int
Action = tuple[Any, ...]
S = TypeVar("S")


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state was not touched."""


class Event:
    """Something that happened, for clients to render in the reader's language.

    ``seats`` is None for a public event, else the seats that may see it.  A value: never changed
    once made.  (A plain class, not a frozen dataclass: the rules make one or more per move, and a
    compiled dataclass's generated ``__init__`` runs interpreted.)  An event made by an
    ``EventKind`` keeps its parameters' names and values and makes ``params`` of them when first
    read.
    """

    __slots__ = ("kind", "seats", "_params", "_names", "_values")

    def __init__(self, kind: str, params: Mapping[str, Any] | None = None,
                 seats: tuple[Seat, ...] | None = None, names: tuple[str, ...] = (),
                 values: tuple[Any, ...] = ()) -> None:
        self.kind = kind
        self.seats = seats
        self._params = params
        self._names = names
        self._values = values

    @property
    def params(self) -> Mapping[str, Any]:
        params = self._params
        if params is None:
            params = self._params = dict(zip(self._names, self._values, strict=True))
        return params

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.kind, self.params, self.seats) == (
            other.kind, other.params, other.seats)

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, params={self.params!r}, seats={self.seats!r})"

    def visible_to(self, seat: Seat | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params)}


# The kinds of event declared ``EventKind(..., reveals=True)``, of every game (``Game.reveals``).
REVEALING_KINDS: set[str] = set()


class EventKind:
    """A kind of event made on (nearly) every move, its parameters' names declared once:
    ``PLACED = EventKind("placed", "seat", "space")`` and then ``PLACED.event(seat, space)`` is
    ``Event("placed", {"seat": seat, "space": space})``, except that the mapping is made only when
    somebody reads the event.  A search makes millions of events nobody reads; building their
    dictionaries was an eighth of a Glück Auf move (docs/performance.md, session 7)."""

    __slots__ = ("kind", "names", "reveals")

    def __init__(self, kind: str, *names: str, reveals: bool = False) -> None:
        self.kind = kind
        self.names = names
        # Declared here, with the kind: a public event that shows something nobody knew before (a
        # face-down card turned up, sealed choices opened).  A move that causes one cannot be taken
        # back (engine/undo.py); the conformance suite's take-back property checks that none is missing.
        self.reveals = reveals
        if reveals:
            REVEALING_KINDS.add(kind)

    def event(self, *values: Any, seats: tuple[Seat, ...] | None = None) -> Event:
        """The event with these values, in the order of the names.  (A method, not ``__call__``:
        compiled, calling an instance goes through Python's generic call.)"""
        if len(values) != len(self.names):
            raise TypeError(f"event {self.kind} takes {len(self.names)} values ({', '.join(self.names)}), "
                            f"not {len(values)}")
        return Event(self.kind, None, seats, self.names, values)


@mypyc_attr(allow_interpreted_subclasses=True)  # games and tests derive from it in plain Python
class Game(ABC, Generic[S]):
    """The static description of a game with its table options; states are separate objects."""

    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    # Public events that show something nobody knew before (a face-down card turned up, a
    # reshuffled deck's new top card): a move that causes one cannot be taken back.  Besides the
    # kinds declared ``EventKind(..., reveals=True)``, which need not be listed here.
    revealing_events: ClassVar[frozenset[str]] = frozenset()
    # Every table option with its type, default and range (engine/options.py).
    option_schema: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(_("{game} is played by {low} to {high} players, not {n}").format(
                game=self.name, low=self.min_players, high=self.max_players, n=num_players))
        self.num_players = num_players
        self.options: dict[str, Any] = self.check_options(dict(options or {}))

    @abstractmethod
    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill in defaults and reject unknown or malformed options with a clear error."""

    @abstractmethod
    def new_state(self, seed: int) -> tuple[S, list[Event]]:
        """Set up a game; all chance comes from ``seed``."""

    @abstractmethod
    def to_act(self, state: S) -> list[Seat]:
        """Seats that may act now (several during a sealed decision); empty once over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now; empty if it is not their decision."""

    def is_legal(self, state: S, seat: Seat, action: object) -> bool:
        """Whether ``action`` is in ``legal_actions(state, seat)``, identical in types all the way down
        (``True`` is not ``1``): what the strict step (engine/step.py) asks.  A game may answer without
        building the list (a flow game's phases declare ``allows``: engine/flow.py)."""
        return listed(action, self.legal_actions(state, seat))

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action already known to be legal; mutate the state."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """Everything ``seat`` may know (None: a spectator), as JSON-ready data."""

    def views(self, state: S, seats: Iterable[Seat | None]) -> dict[Seat | None, dict[str, Any]]:
        """The views of several readers of one state, each equal to ``view(state, seat)``.  Games may
        build what every reader sees once and share it between the views: read them, never change
        them."""
        return {seat: self.view(state, seat) for seat in seats}

    @abstractmethod
    def copy(self, state: S) -> S:
        """An independent copy, cheap enough for search bots."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    def to_json(self, state: S) -> dict[str, Any]:
        """The whole state as JSON-ready data (engine/snapshot.py describes the format)."""
        from stammtisch.engine.snapshot import dump_state

        return dump_state(self, state)

    def from_json(self, data: Any) -> S:
        """The state of a snapshot taken at this table; raises SnapshotError for anything else."""
        from stammtisch.engine.snapshot import load_state

        state: S = load_state(self, data)
        return state

    @abstractmethod
    def knowledge(self, state: S, seat: Seat) -> dict[str, Any]:
        """Everything ``seat`` knows, as JSON-ready data: ``{"view": its view, "record": ...}``, the
        record holding what the public events it was shown prove beyond its view (docs/engine.md)."""

    @abstractmethod
    def sample(self, knowledge: dict[str, Any], rng: random.Random) -> S:
        """A full state built from ``knowledge`` alone, never from another state: the seat's view and
        everything the record says as they are, every part hidden from the seat drawn at random
        (consistent with the rules) and the chance seeded from ``rng``."""

    def sampler(self, knowledge: dict[str, Any]) -> Callable[[random.Random], S]:
        """``sample`` of ``knowledge`` as a function of the generator, for drawing many samples of
        one knowledge (a search decision): a game may read the knowledge once here and draw each
        sample from what it read.  ``sampler(k)(rng)`` equals ``sample(k, rng)``; the knowledge must
        not change while the sampler is in use."""
        return lambda rng: self.sample(knowledge, rng)

    def resample(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A full state that gives ``seat`` the same view as ``state``, every part hidden from
        ``seat`` drawn at random: the ``sample`` of the seat's ``knowledge``, so it is blind by
        construction and equal knowledge gives equal samples."""
        return self.sample(self.knowledge(state, seat), rng)

    @classmethod
    @abstractmethod
    def action_codec(cls, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        """A stable integer encoding of every action that can ever be legal at such a table."""

    def observation_shape(self) -> Shape:
        """The shape of every view at this table (engine/shape.py), each list's room derived from the
        rules: the research adapters encode views by it without dropping a value."""
        raise NotImplementedError(f"{self.name} declares no observation shape (engine/shape.py)")

    def most_decisions(self) -> int:
        """The most decisions a game at this table can take, proven from the rules (OpenSpiel's
        ``max_game_length``)."""
        raise NotImplementedError(f"{self.name} declares no bound on its decisions")

    @abstractmethod
    def scores(self, state: S) -> list[int]:
        """Final points per seat (valid once the game is over)."""

    def sealed(self, state: S) -> bool:
        """Whether the seats to act now decide unseen (a sealed decision): a move then shows the other
        seats nothing but the events it lets them see, not even that it was made."""
        return False
    def describe(self) -> dict[str, Any]:
        """What never changes during a game at this table, for clients (engine/view.py): JSON-ready,
        labels in the current language.  ``phases`` lists the game's phases in order, each
        ``{"name", "label", "kind", "track"}`` (kind: "sequential", "sealed" or "automatic"; a game
        with a declared flow gets them from it: engine/flow.py); ``board`` holds the game's own
        facts (layout, edition data).  Games extend it; it must not depend on a state."""
        return {"game": self.name, "players": self.num_players, "phases": [], "board": {}}

    def reveals(self, event: Event) -> bool:
        """Whether an event shows anybody something that was hidden (private events always do)."""
        return event.seats is not None or event.kind in self.revealing_events or event.kind in REVEALING_KINDS

    def summary(self, state: S) -> dict[str, int]:
        """Counts of notable outcomes in a finished game (for ``simulate``); none by default."""
        return {}

    def winners(self, state: S) -> list[Seat]:
        scores = self.scores(state)
        best = max(scores)
        return [seat for seat, points in enumerate(scores) if points == best]


def listed(action: object, legal: list[Action]) -> bool:
    """Whether ``action`` is one of ``legal``, identical in types all the way down."""
    if not isinstance(action, tuple):  # every action is a tuple (and a list is not hashable, nor in a legal list)
        return False
    try:
        found = legal[legal.index(action)]  # one scan in C; then the rare equal-but-not-identical case
    except ValueError:
        return False
    return identical(action, found) or any(identical(action, other) for other in legal if other == action)


def identical(a: object, b: object) -> bool:
    """Equal and of the same types all the way down: True is not 1, 1.0 is not 1."""
    if a is b:  # the usual case: an action taken from the legal list itself
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple) and isinstance(b, tuple):
        # by index: compiled, zip(strict=True) is a call through Python for every action checked
        return len(a) == len(b) and all(identical(a[i], b[i]) for i in range(len(a)))
    return a == b
