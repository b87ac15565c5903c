"""A game in progress: the game, its state, its record and its events, advanced only through ``act``.

One session object for every loop that plays a game (``play``, ``simulate``, ``bench``, replays, the
server's live tables and web histories).  ``act`` goes through the strict ``step`` (``checked=False``
is for callers that chose from the legal list themselves, such as ``bench``); the legal lists
``legal_actions`` hands out are kept until the next move, so checking an action chosen from one does
not build the list again.

A plain match changes its state in place.  A *guarded* one (``undo=True`` or a ``commit`` hook) first
checks a move on a copy of the state (``prepare``), shows it to the hook, and only then puts it in
force (``accept``): if the hook raises, nothing changes.  The server writes each move to its database
in between, so a crash loses no move it acknowledged; being asynchronous, it calls the two halves
itself.  With ``undo=True`` a seat may take back its last moves (the policy is engine/undo.py's
``TakeBacks``); a take-back is an entry of the log like a move.  ``keep_events=True`` keeps every
entry's events packed as JSON (``events[0]`` the setup's), the form the server stores and sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import orjson

from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.record import ENGINE_VERSION, CorruptRecord, Header, Record, check_rules, rules_version
from stammtisch.engine.step import step
from stammtisch.engine.undo import Reader, TakeBacks, chance_draws, undoable

# The events of one log entry as (seats that may see it or None for all, JSON of {kind, params}): plain
# tuples of strings and numbers, which the garbage collector need not scan; a long game has thousands.
PackedEvents = tuple[tuple[tuple[Seat, ...] | None, bytes], ...]


def pack(events: list[Event]) -> PackedEvents:
    return tuple((None if e.seats is None else tuple(e.seats),
                  orjson.dumps(e.to_json(), option=orjson.OPT_NON_STR_KEYS)) for e in events)


def unpack(packed: PackedEvents, reader: Reader) -> list[dict[str, Any]]:
    """The events of an entry that ``reader`` may see, as JSON-ready ``{kind, params}``."""
    return [orjson.loads(data) for seats, data in packed if seats is None or (reader is not None and reader in seats)]


class Move(NamedTuple):
    """A log entry checked against the rules but not yet in force: what a commit hook is shown."""

    number: int  # the entry it becomes (1 for the first move)
    seat: Seat
    action: Action | None  # None: ``seat`` takes back its last move
    events: list[Event]
    before: Any  # the state it was checked on
    after: Any  # the state it leads to
    hidden: frozenset[Reader]  # the readers it is invisible to (another seat's step of a sealed decision)
    may_take_back: bool
    ends_game: bool


Commit = Callable[[Move], None]


class Match:
    def __init__(self, game: Game[Any], seed: int, names: list[str] | None = None, *, undo: bool = False,
                 commit: Commit | None = None, keep_events: bool = False) -> None:
        self.game = game
        self.state, self.setup_events = game.new_state(seed)
        self.record = Record(Header(game.name, game.num_players, dict(game.options), seed, list(names or []),
                                    rules_version=rules_version(game.name)))
        self.log: list[tuple[Seat, Action | None]] = []  # log[n - 1]: entry n, a move or a take-back (None)
        self.events: list[PackedEvents] = [pack(self.setup_events)] if keep_events else []
        self.undo = TakeBacks() if undo else None
        self.commit = commit
        self.keep_events = keep_events
        self._guarded = undo or commit is not None
        self._readers: tuple[Reader, ...] = (*range(game.num_players), None)
        self._offered: dict[Seat, list[Action]] = {}  # the legal lists handed out for this state
        self._offered_in: Any = None  # the state they belong to

    @property
    def version(self) -> int:
        """The number of log entries (moves and take-backs)."""
        return len(self.log)

    def act(self, seat: Seat, action: Action, *, checked: bool = True) -> list[Event]:
        if self._guarded:
            return self._through_commit(self.prepare(seat, action, checked=checked))
        legal = self._kept(seat) if checked else None
        if self._offered:
            self._offered = {}
        if checked:
            events = step(self.game, self.state, seat, action, legal)
        else:
            events = self.game.apply(self.state, seat, action)
        self.record.moves.append((seat, action))
        self.log.append((seat, action))
        if self.keep_events:
            self.events.append(pack(events))
        return events

    def take_back(self, seat: Seat) -> list[Event]:
        """Undo ``seat``'s last move; the record forgets it.  ValueError if it may not be taken back."""
        return self._through_commit(self.prepare_take_back(seat))

    def enter(self, seat: Seat, action: Action | None) -> list[Event]:
        """One entry of a log: a move, or a take-back (``action`` None)."""
        return self.take_back(seat) if action is None else self.act(seat, action)

    def prepare(self, seat: Seat, action: Action, *, checked: bool = True) -> Move:
        """Check ``action`` on a copy of the state: the move, not yet in force (IllegalAction if the rules
        refuse it)."""
        after = self.game.copy(self.state)
        draws = chance_draws(self.state)
        if checked:
            events = step(self.game, after, seat, action, self._kept(seat))
        else:
            events = self.game.apply(after, seat, action)
        hidden = self._hidden_from(seat, events) if self.game.sealed(self.state) else frozenset()
        return Move(len(self.log) + 1, seat, action, events, self.state, after, hidden,
                    self.undo is not None and undoable(self.game, draws, after, seat, events),
                    self.game.is_over(after))

    def prepare_take_back(self, seat: Seat) -> Move:
        if not self.can_take_back(seat):
            raise ValueError(f"seat {seat} has no move to take back")
        assert self.undo is not None
        before, hidden = self.undo.last()
        # Taking back a move nobody else saw is as invisible to them as the move was.
        told = None if not hidden else tuple(r for r in self._readers if r is not None and r not in hidden)
        return Move(self.version + 1, seat, None, [Event("undo", {"seat": seat}, told)], self.state, before,
                    hidden, False, False)

    def accept(self, move: Move) -> list[Event]:
        """Put a prepared move in force; ValueError if the match has moved on since it was prepared."""
        if move.number != len(self.log) + 1 or move.before is not self.state:
            raise ValueError(f"entry {move.number} was prepared for another state (the match is at {self.version})")
        if move.action is None:
            assert self.undo is not None
            self.undo.pop()
            self.record.moves.pop()
        else:
            if self.undo is not None:
                self.undo.moved(move.seat, move.before, move.hidden, move.may_take_back)
            self.record.moves.append((move.seat, move.action))
        self.state = move.after
        if self._offered:
            self._offered = {}
        self.log.append((move.seat, move.action))
        if self.keep_events:
            self.events.append(pack(move.events))
        return move.events

    def _through_commit(self, move: Move) -> list[Event]:
        if self.commit is not None:
            self.commit(move)
        return self.accept(move)

    def _hidden_from(self, seat: Seat, events: list[Event]) -> frozenset[Reader]:
        return frozenset(reader for reader in self._readers
                         if reader != seat and not any(e.visible_to(reader) for e in events))

    def _kept(self, seat: Seat) -> list[Action] | None:
        """The legal list handed out to ``seat`` for the current state, if any."""
        return self._offered.get(seat) if self._offered_in is self.state else None

    def can_take_back(self, seat: Seat) -> bool:
        return self.undo is not None and self.undo.allows(seat)

    def to_act(self) -> list[Seat]:
        return self.game.to_act(self.state)

    def legal_actions(self, seat: Seat) -> list[Action]:
        legal = self.game.legal_actions(self.state, seat)
        if self._offered_in is not self.state:
            self._offered, self._offered_in = {}, self.state
        self._offered[seat] = legal
        return legal[:]  # the caller's copy: what it does to it cannot widen what act accepts

    def view(self, seat: Reader) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)


GameFactory = Callable[[str, int, dict[str, Any]], Game[Any]]


def replay(record: Record, make_game: GameFactory) -> Iterator[tuple[Match, Seat | None, Action | None, list[Event]]]:
    """Yield (match, seat, action, events) after setup and after every move of a record; the match is
    the live one (its state changes as the replay goes on)."""
    header = record.header
    if header.engine_version != ENGINE_VERSION:
        raise CorruptRecord(f"record of engine version {header.engine_version}, this is {ENGINE_VERSION}")
    game = make_game(header.game, header.players, header.options)  # (its rules are declared by now)
    check_rules(header)
    match = Match(game, header.seed, header.names)
    yield match, None, None, match.setup_events
    for index, (seat, action) in enumerate(record.moves, 2):
        try:
            events = match.act(seat, action)
        except ValueError as error:
            raise CorruptRecord(f"line {index}: move {action!r} of seat {seat} cannot be replayed: {error}") from None
        yield match, seat, action, events
