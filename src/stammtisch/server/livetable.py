"""One live table of a server process: its seats, its match, its viewers' counts, clocks and stand-ins.

Every action goes through the table's ``engine.match.Match``: checked on a copy of the state
(``prepare``), committed to the move log, and only then put in force (``accept``) and
acknowledged (server/playing.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stammtisch.bots.base import Bot
from stammtisch.engine.match import Match, Move
from stammtisch.engine.options import server_files
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.record import action_from_json
from stammtisch.i18n import N_, _
from stammtisch.registry import games, make_game
from stammtisch.server.bots import default_bot_kind
from stammtisch.server.chat import TableChat
from stammtisch.server.messages import ApiError
from stammtisch.server.pace import REASONS, Clocks, Pace
from stammtisch.server.store import Contact, MoveRow, SeatChange, SeatRow, TableRow
from stammtisch.server.upgrade import INTERRUPTED, interrupted_info

log = logging.getLogger("stammtisch.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]+")  # table ids are URL-safe tokens (secrets.token_urlsafe)

# Options naming files on the server's disk: a network client may not choose them.
FILE_OPTIONS = frozenset().union(*(server_files(spec.options) for spec in games().values()))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def conflict(message: str) -> ApiError:
    return ApiError(409, "conflict", message)


def left_the_game() -> ApiError:
    return ApiError(403, "wrong_token", "you left this game for good: your token no longer holds the seat "
                                        "(you may still watch without it)")


_games: dict[str, Game[Any]] = {}


def shared_game(name: str, players: int, options: dict[str, Any]) -> Game[Any]:
    """One game object per (game, players, options): a game is a static description (its states are
    separate objects), and its component data and precomputed tables are large."""
    key = json.dumps([name, players, options], sort_keys=True)
    game = _games.get(key)
    if game is None:
        if len(_games) >= 256:
            _games.clear()
        game = _games[key] = make_game(name, players, options)
    return game


@dataclass(eq=False)
class Subscriber:
    """One connection watching a table; ``changed`` wakes its sender."""

    seat: Seat | None
    sent: int  # the log entry up to which this connection has been told
    token: str | None = None  # the token that holds ``seat`` (checked again before every push)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    last: str = ""  # the last state message sent

    def is_news(self, message: str) -> bool:
        """Whether a state message differs from the last one sent; a move this seat may not see
        (another seat's step of a sealed decision) changes nothing it is sent, so it is not told of it."""
        if message == self.last:
            return False
        self.last = message
        return True


class LiveTable:
    def __init__(self, row: TableRow, seat_rows: list[SeatRow]) -> None:
        self.row = row
        self.seats: dict[Seat, SeatRow] = {s.seat: s for s in seat_rows}
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.watching: Counter[Seat] = Counter()  # subscribers per seat (spectators not counted)
        # The game once started: its state, the log of entries (moves and take-backs) with their events
        # packed, the take-backs allowed (engine/match.py)
        self.match: Match | None = None
        self.kept_moves: list[tuple[Seat, Action]] = []  # an interrupted game's record: it has no Match
        self.last_by_seat: dict[Seat, int] = {}  # each seat's last log entry
        # Per viewer (seat, or None for spectators): seen[v][n] = how many of log entries 1..n v may
        # know of. Moves in a sealed decision are invisible to the other seats, so each viewer counts
        # moves its own way; the move numbers clients see and send are these counts.
        self.seen: dict[Seat | None, list[int]] = {}
        self.bots: dict[Seat, Bot] = {}
        self.hinting: set[Seat] = set()  # seats whose hint is being worked out
        self.bot_task: asyncio.Task[None] | None = None
        # Called after every entry with its events, the table's state being the one after it (keeps
        # caches of what pages show, e.g. the rendered history, up to date without replays).
        self.on_entry: list[Callable[[LiveTable, list[Event]], None]] = []
        self.caches: dict[str, Any] = {}  # for the web layer: per-table caches that go with the table
        # What readers of the current entry share, built at most once per entry: seat (None: the
        # spectators) → its view, and the to-act list. Read only: the same objects go to every reader.
        self._views: dict[Seat | None, dict[str, Any]] = {}
        self._to_act: list[Seat] | None = None
        self._info: tuple[tuple[Any, ...], dict[str, Any]] | None = None  # (what it depends on, info())
        # Issue 15: the pace, the clocks (timed tables, once started), the seat changes so far, the seats
        # a stand-in plays (seat → why: timeout, left, asked) and the stand-ins' moves (index in moves → kind).
        self.pace = Pace(**row.pace) if row.pace else Pace()
        self.clocks: Clocks | None = None
        self.changes: list[SeatChange] = []
        self.standins: dict[Seat, str] = {}
        self.standin_moves: dict[int, str] = {}
        self.standin_entries: set[int] = set()
        # Notices (server/notify.py): since which log entry (and when) each seat to act has been so, the
        # addresses seats gave (loaded only when the server sends e-mail), the notices this process added.
        self.turn_since: dict[Seat, tuple[int, float]] = {}
        self.contacts: dict[Seat, Contact] = {}
        self.noticed: set[tuple[Seat, str, int]] = set()
        self.chat: TableChat | None = None  # issue 14: read when first asked for (server/chat.py)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def game(self) -> Game[Any] | None:
        return None if self.match is None else self.match.game

    @property
    def state(self) -> Any:
        return None if self.match is None else self.match.state

    @property
    def moves(self) -> list[tuple[Seat, Action]]:
        """The moves in force: the game record."""
        return self.kept_moves if self.match is None else self.match.record.moves

    @property
    def version(self) -> int:
        """Entries in the move log (moves and take-backs)."""
        return 0 if self.match is None else self.match.version

    def begin(self) -> None:
        game = shared_game(self.row.game, self.row.players, self.row.options)
        self.match = Match(game, self.row.seed, undo=True, keep_events=True)
        self._forget_views()
        self.seen = {viewer: [0] for viewer in [*range(self.row.players), None]}
        started = self.row.started or self.row.created
        if self.pace.timed:
            self.clocks = Clocks(self.pace, self.row.players)
            self.clocks.start(self.to_act(), started)
        self.turn_since = {seat: (0, started) for seat in self.to_act()}

    def catch_up(self, entries: list[MoveRow], changes: list[SeatChange], final: bool = True) -> None:
        """Apply committed log entries and seat changes in the order they happened (a change made at
        entry n comes after it and before entry n + 1), as clocks need; ``final``: also the changes
        after the last entry."""
        pending = [c for c in changes if c.no >= len(self.changes)]
        for entry in entries:
            while pending and pending[0].move_no < entry.move_no:
                self.change(pending.pop(0))
            self.replay_entry(entry)
        for change in pending if final else []:
            self.change(change)

    def change(self, change: SeatChange) -> None:
        if change.no != len(self.changes):
            raise RuntimeError(f"table {self.id}: seat change {change.no} after {len(self.changes)}")
        self.changes.append(change)
        if change.what in REASONS:
            self.standins[change.seat] = change.what
        else:  # returned, handed: a person plays the seat again
            self.standins.pop(change.seat, None)
            if self.clocks is not None:
                self.clocks.returned(change.seat, change.at)
        self._forget_views()

    def standin_kind(self) -> str:
        return self.row.standin or (default_bot_kind(self.row.game) if self.installed else "")

    @property
    def installed(self) -> bool:
        """Whether this server has the table's game (a table outlives an uninstalled game: its record)."""
        return self.row.game in games()

    def require_game(self) -> None:
        if not self.installed:
            raise conflict(f"this server no longer has the game {self.row.game!r}: the table can only be "
                           "looked at, and its record downloaded")

    def left_for_good(self, seat: Seat) -> bool:
        """Its player left the game ("Leave for good"): the seat waits for the host's next invitation,
        and the leaver's token no longer holds it (issue 26, security 3)."""
        return self.standins.get(seat) == "left"

    def plays_itself(self, seat: Seat) -> bool:
        """A bot's seat or one a stand-in plays: the server moves for it."""
        held = self.seats.get(seat)
        return held is not None and (held.kind == "bot" or seat in self.standins)

    def overdue(self, now: float) -> list[Seat]:
        """Seats to act whose time has run out (a bot's or a stand-in's seat has no deadline)."""
        if self.clocks is None or self.status != "running":
            return []
        return [seat for seat in self.to_act() if not self.plays_itself(seat)
                and (deadline := self.clocks.deadline(seat)) is not None and deadline <= now]

    def next_deadline(self) -> float | None:
        if self.clocks is None or self.status != "running":
            return None
        found = [d for s in self.to_act() if not self.plays_itself(s) and (d := self.clocks.deadline(s)) is not None]
        return min(found, default=None)

    def replay_entry(self, entry: MoveRow) -> None:
        """Apply one committed log entry (loading, or catching up with another process)."""
        assert self.match is not None
        if entry.move_no != self.version + 1:
            raise RuntimeError(f"table {self.id}: log entry {entry.move_no} after {self.version}")
        try:
            move = (self.match.prepare_take_back(entry.seat) if entry.action is None
                    else self.match.prepare(entry.seat, action_from_json(entry.action)))
        except ValueError as error:
            raise RuntimeError(f"table {self.id}: entry {entry.move_no} cannot be replayed: {error}") from None
        self.accept(move, entry.at, entry.standin)

    def accept(self, move: Move, at: float | None = None, standin: str | None = None) -> None:
        """Put a move (or take-back) committed to the log at ``at`` in force; ``standin``: the bot kind of
        the stand-in that made it."""
        assert self.match is not None
        events = self.match.accept(move)
        self._forget_views()
        self.last_by_seat[move.seat] = move.number
        if standin is not None and move.action is not None:
            self.standin_moves[len(self.moves) - 1] = standin
            self.standin_entries.add(move.number)
        at = time.time() if at is None else at
        if self.clocks is not None:
            self.clocks.entry(move.seat, self.to_act(), at)
        to_act = self.to_act()
        self.turn_since = {seat: self.turn_since.get(seat, (move.number, at)) for seat in to_act}
        for viewer, counts in self.seen.items():
            counts.append(counts[-1] + (viewer not in move.hidden))
        for listener in self.on_entry:
            try:
                listener(self, events)
            except Exception:  # a cache that cannot follow must not undo a committed move
                log.exception("table %s: listener of entry %s", self.id, self.version)
        if move.ends_game:
            self.row.status = "finished"

    def _forget_views(self) -> None:
        self._views = {}
        self._to_act = None

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """``seat``'s view of the current state, built once per entry however many sockets, histories
        and messages need it (a seat's view is only ever given to readers of that same seat).  The
        first one asked for is built together with those of every seat watching (Game.views)."""
        found = self._views.get(seat)
        if found is None:
            assert self.game is not None
            readers = {seat, *(sub.seat for sub in self.subscribers)} - self._views.keys()
            self._views.update(self.game.views(self.state, readers))
            found = self._views[seat]
        return found

    def to_act(self) -> list[Seat]:
        if self._to_act is None:
            assert self.game is not None
            self._to_act = self.game.to_act(self.state)
        return self._to_act

    def busy(self) -> bool:
        """Watched, played by bots, being changed, timed or owing e-mail notices: must stay in memory."""
        return (bool(self.subscribers) or self.lock.locked() or (self.bot_task is not None and not self.bot_task.done())
                or self.next_deadline() is not None or (bool(self.contacts) and self.status == "running"))

    def move_no(self, viewer: Seat | None) -> int:
        """The number of moves (and take-backs) ``viewer`` may know of."""
        counts = self.seen.get(viewer)
        return counts[-1] if counts else 0

    def entry_of(self, viewer: Seat | None, move_no: int) -> int:
        """The latest log entry that ``viewer``'s move number stands for (-1: before the setup)."""
        counts = self.seen.get(viewer)
        if not counts or move_no < 0:
            return move_no
        return bisect_right(counts, move_no) - 1

    def undo_allowed(self, seat: Seat | None) -> bool:
        return (self.status == "running" and seat is not None and self.match is not None
                and self.match.can_take_back(seat))

    def seat_of(self, token: str) -> Seat | None:
        digest = hash_token(token)
        found: Seat | None = None
        for seat, info in self.seats.items():  # compare with every seat: the time tells nothing
            # An invited seat's hash is its invitation's, which names the seat but does not hold it.
            held = info.token_hash is not None and hmac.compare_digest(info.token_hash, digest)
            by_key = info.key_token_hash is not None and hmac.compare_digest(info.key_token_hash, digest)
            if (held or by_key) and info.kind != "invited":
                found = seat
        return found

    def info(self) -> dict[str, Any]:
        """The table as the lobby and every state message show it; built once per change of what it
        shows (entries, seats, seat changes, status, its rematch), however many messages carry it.  Read only."""
        stamp = (self.version, self.row.status, self.row.rules_version, len(self.changes),
                 tuple((s.seat, s.kind, s.name, s.bot_kind) for s in self.seats.values()),
                 tuple(self.standins.items()), self.clocks is not None, self.row.rematch)
        if self._info is None or self._info[0] != stamp:
            self._info = (stamp, self._build_info())
        return self._info[1]

    def _build_info(self) -> dict[str, Any]:
        seats = []
        for seat in range(self.row.players):
            s = self.seats.get(seat)
            if s is None:
                seats.append({"seat": seat, "kind": "free", "name": None})
            else:
                seats.append({"seat": seat, "kind": s.kind, "name": s.name, "bot": s.bot_kind,
                              "standin": self.standins.get(seat)})
        data: dict[str, Any] = {"id": self.id, "game": self.row.game, "players": self.row.players,
                                "options": self.row.options, "status": self.status, "seats": seats,
                                "created": self.row.created, "rules_version": self.row.rules_version,
                                "pace": self.pace.to_json(), "standin_kind": self.standin_kind()}
        if self.status == INTERRUPTED:
            data["interrupted"] = interrupted_info(self.row)
        if self.row.rematch:
            data["rematch"] = self.row.rematch  # its rematch's table (server/players.py)
        if self.row.rematch_of:
            data["rematch_of"] = self.row.rematch_of
        if self.game is not None:
            data["move_no"] = self.move_no(None)
            data["to_act"] = list(self.to_act())
        if self.clocks is not None and self.status == "running":
            data["clocks"] = self.clocks.to_json()
        left = [{"seat": c.seat, "move_no": self.seen[None][min(c.move_no, len(self.seen[None]) - 1)], "at": c.at}
                for c in self.changes if c.what == "left"]
        if left:
            data["left"] = left  # players who left mid-game (spectators' move numbers)
        return data

    def names(self) -> list[str]:
        return [self.seats[s].name if s in self.seats else f"Seat {s}" for s in range(self.row.players)]

    def shown_names(self) -> list[str]:
        """The seats' names as a reader sees them, in the current language: the server's default
        names ("Player 2", "Bot 3 (heuristic)") translated, chosen names as they are."""
        return [shown_name(self.seats[s]) if s in self.seats else _("Seat {number}").format(number=s + 1)
                for s in range(self.row.players)]


DEFAULT_PLAYER_NAME = N_("Player {number}")
DEFAULT_BOT_NAMES = {"heuristic": N_("Bot {number} (heuristic)"), "random": N_("Bot {number} (random)"),
                     "easy": N_("Bot {number} (easy)"), "normal": N_("Bot {number} (normal)"),
                     "hard": N_("Bot {number} (hard)")}


def default_name(seat: int, kind: str, bot_kind: str | None = None) -> str:
    """The name the server gives a seat nobody named (in English: it is stored)."""
    return f"Bot {seat + 1} ({bot_kind})" if kind == "bot" else f"Player {seat + 1}"


def shown_name(row: SeatRow) -> str:
    number = row.seat + 1
    if row.name == default_name(row.seat, row.kind, row.bot_kind):
        msgid = DEFAULT_BOT_NAMES.get(row.bot_kind or "") if row.kind == "bot" else DEFAULT_PLAYER_NAME
        if msgid is not None:
            return _(msgid).format(number=number)
    return row.name


def table_info(row: TableRow, seat_rows: list[SeatRow]) -> dict[str, Any]:
    return LiveTable(row, seat_rows).info()



async def replay_gently(table: LiveTable, entries: list[MoveRow], changes: list[SeatChange],
                        slice_seconds: float = 0.004) -> None:
    """Replay log entries (and the seat changes between them), letting other tasks run every few
    milliseconds: a long game takes a few hundred of them, which no other client should feel."""
    deadline = time.perf_counter() + slice_seconds
    for n in range(0, len(entries), 16):
        table.catch_up(entries[n:n + 16], changes, final=False)
        if time.perf_counter() > deadline:
            await asyncio.sleep(0)
            deadline = time.perf_counter() + slice_seconds
    table.catch_up([], changes)

