"""The live tables of one server process: lobby, seats, actions, undo, bot turns, subscribers.

Every action goes through the table's ``engine.match.Match``: checked on a copy of the state
(``prepare``), committed to the move log, and only then put in force (``accept``) and
acknowledged.  A process that loses a race for a move number (another client, another process)
reloads the log and validates again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from bisect import bisect_right
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from stammtisch import i18n
from stammtisch.bots.base import Bot, SearchBot, decide
from stammtisch.bots.hints import HINT_KIND, hints_allowed, why
from stammtisch.bots.ismcts import Estimate
from stammtisch.engine.match import Match, Move, unpack
from stammtisch.engine.options import server_files
from stammtisch.engine.protocol import Action, Event, Game, IllegalAction, Seat
from stammtisch.engine.record import Header, Record, action_from_json, action_to_json, rules_version
from stammtisch.i18n import N_, _
from stammtisch.registry import games, make_game
from stammtisch.server.bots import bot_kinds, default_bot_kind, make_bot
from stammtisch.server.chat import TableChat, catch_up, remote_chat
from stammtisch.server.config import Config
from stammtisch.server.holds import Hold, hold_for_serving
from stammtisch.server.keys import key_columns, key_hash, wrong_key
from stammtisch.server.live import make_broker
from stammtisch.server.messages import MAX_NAME, ApiError, bad_request
from stammtisch.server.messages import field as get_field
from stammtisch.server.notify import Notifier, check_email, check_lang
from stammtisch.server.pace import REASONS, Clocks, Pace
from stammtisch.server.store import Conflict, Contact, MoveRow, SeatChange, SeatRow, Store, TableRow
from stammtisch.server.thinking import Thinkers
from stammtisch.server.upgrade import INTERRUPTED, interrupt_outdated, interrupted_info, moves_in_force

log = logging.getLogger("stammtisch.server")

BOTS_ELSEWHERE = 10.0  # seconds before asking again whether another process still plays a table's bots
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


def guide_json(guide: Any) -> dict[str, Any] | None:
    """What the lobby needs to seat a game's guided first game (``POST /api/tables`` with ``learn``)."""
    return None if guide is None else {"players": guide.players, "bots": guide.bots}


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


class Hub:
    """Everything one server process knows: the store, the broker, the cached live tables."""

    def __init__(self, config: Config, hold: Hold | None = None) -> None:
        self.config = config
        self.hold = hold  # the database, held while this process serves it (server/holds.py)
        self._bot_tables: set[str] = set()  # tables whose bots (and stand-ins) this process plays
        self._elsewhere: dict[str, float] = {}  # tables another process played when last asked → ask again after
        self._letting_go: set[asyncio.Task[None]] = set()
        self.thinkers = Thinkers(config.bot_workers, config.bot_timeout)
        self.store = Store(config.database_url())
        self.broker = make_broker(config.redis)
        self.shared = config.redis is not None  # other processes write to the same database
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()  # least recently used first
        self._loads: dict[str, asyncio.Future[LiveTable]] = {}
        self._closing = False
        self._poller: asyncio.Task[None] | None = None
        self._clock_watch: asyncio.Task[None] | None = None
        self.notifier = Notifier(self, config.smtp) if config.smtp is not None else None

    async def open(self) -> None:
        if self.hold is None:  # (``serve`` holds it before: its refusal is a clear line)
            self.hold = await asyncio.to_thread(hold_for_serving, self.store.url, lambda alone: None)
        await self.store.open(self.config.migrate)
        await interrupt_outdated(self.store)  # games the new rules cannot go on with end visibly
        await self.broker.start(self.on_remote_change, lambda table_id: remote_chat(self, table_id))
        for table_id in await self.store.running_with_bots():  # games with bots go on after a restart
            with contextlib.suppress(Exception):
                self.kick_bots(await self.get(table_id))
        if self.shared:
            self._poller = asyncio.create_task(self._poll())
        self._clock_watch = asyncio.create_task(self._watch_clocks())
        if self.notifier is not None:  # tables whose players want e-mail are watched from the start
            for table_id in await self.store.running_with_contacts():
                with contextlib.suppress(Exception):
                    await self.get(table_id)
            self.notifier.start()

    async def _watch_clocks(self) -> None:
        """Every ``clock_tick`` seconds: a stand-in for each seat whose time has run out, in the timed
        tables this process holds; now and then it looks for tables whose bots nobody plays.  The
        deadlines come from stored times, so after a restart the overdue seats are found at once."""
        ticks = 0
        while True:
            try:
                if ticks % 15 == 14:
                    await self._play_unplayed_bots()
                now = time.time()
                for table in [t for t in self.tables.values() if t.overdue(now)]:
                    for seat in table.overdue(now):
                        await self.stand_in(table, seat, "timeout")
            except Exception:
                log.exception("watching the clocks")
            ticks += 1
            await asyncio.sleep(self.config.clock_tick)

    async def _play_unplayed_bots(self) -> None:
        """The running tables with bots or stand-ins that no process plays: started by another process,
        or played by one that has ended (its claims ended with it)."""
        self._elsewhere.clear()
        for table_id in await self.store.running_with_bots():
            table = self.tables.get(table_id)
            if table is not None:
                self.kick_bots(table)
            elif await self._plays_bots(table_id):
                self.kick_bots(await self.get(table_id))

    async def _poll(self, every: float = 2.0) -> None:
        """With several processes: re-read the watched tables now and then, in case a live update
        was lost (Redis restarting, say); normally there is nothing new."""
        while True:
            await asyncio.sleep(every)
            for table in [t for t in self.tables.values() if t.subscribers or t.bot_task]:
                try:
                    async with table.lock:
                        await self.refresh(table)
                    await catch_up(self, table)
                except Exception:
                    log.exception("re-reading table %s", table.id)

    async def close(self) -> None:
        self._closing = True
        if self._poller is not None:
            self._poller.cancel()
        if self._clock_watch is not None:
            self._clock_watch.cancel()
        if self.notifier is not None:
            await self.notifier.close()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.broker.close()
        await self.store.close()
        self.thinkers.close()
        if self.hold is not None:
            self.hold.close()

    # Loading and catching up.

    async def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
            return table
        loading = self._loads.get(table_id)
        if loading is None:  # one load per table, however many ask at once; other tables need not wait
            loading = self._loads[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loads.pop(table_id, None))
        table = await asyncio.shield(loading)
        if table_id not in self.tables:
            self.keep(table)
        return table

    def keep(self, table: LiveTable) -> None:
        """Cache a table, forgetting the least recently used unwatched ones beyond ``max_tables``
        (they are read again when asked for)."""
        self.tables[table.id] = table
        excess = len(self.tables) - self.config.max_tables
        if excess <= 0:
            return
        for other in list(self.tables.values()):
            if excess <= 0:
                break
            if other is not table and not other.busy():
                del self.tables[other.id]
                self._let_go_of_bots(other.id)
                excess -= 1

    async def _load(self, table_id: str) -> LiveTable:
        if len(table_id) > 32 or not TABLE_ID.fullmatch(table_id):  # (PostgreSQL refuses a NUL in a text)
            raise ApiError(404, "not_found", f"no table {table_id[:40]!r}")
        found = await self.store.table(table_id)
        if found is None:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        table = LiveTable(*found)
        if table.status == INTERRUPTED or not table.installed:  # its rules are gone: its record, never a board
            table.kept_moves = moves_in_force(await self.store.moves(table_id))
        elif table.status != "open":
            table.begin()
            changes = await self.store.seat_changes(table_id)
            await replay_gently(table, await self.store.moves(table_id), changes)
            if self.notifier is not None:
                table.contacts = await self.store.contacts(table_id)
        return table

    async def refresh(self, table: LiveTable) -> bool:
        """Catch up with the database (changes by other processes); call with the table's lock held.
        Whatever it finds is pushed to this process's subscribers."""
        found = await self.store.table(table.id)
        if found is None:
            return False
        before = (table.version, table.status, [(s.seat, s.kind, s.name) for s in table.seats.values()],
                  len(table.changes), table.row.rematch)
        row, seat_rows = found
        table.seats = {s.seat: s for s in seat_rows}
        table.row.rematch = row.rematch
        if row.status == INTERRUPTED and table.status != INTERRUPTED:  # by another process's start
            self.tables.pop(table.id, None)  # read again (its record) when next asked for
            table.row.status, table.match = row.status, None
            self.wake(table)
            return True
        if table.game is None and row.status != "open" and table.installed:
            table.row.status = row.status
            table.row.started = row.started
            table.begin()
        elif table.status == "open":
            table.row.status = row.status
        if table.game is not None:
            entries = await self.store.moves(table.id, after=table.version)
            table.catch_up(entries, await self.store.seat_changes(table.id, len(table.changes)))
            if self.notifier is not None:
                table.contacts = await self.store.contacts(table.id)
        changed = before != (table.version, table.status, [(s.seat, s.kind, s.name) for s in table.seats.values()],
                             len(table.changes), table.row.rematch)
        if changed:
            self.wake(table)
            self.kick_bots(table)
        return changed

    async def current(self, table_id: str) -> LiveTable:
        """The table, caught up with other processes when there are any."""
        table = await self.get(table_id)
        if self.shared:
            async with table.lock:
                await self.refresh(table)
        return table

    async def on_remote_change(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            await self.refresh(table)

    async def changed(self, table: LiveTable) -> None:
        self.wake(table)
        try:
            await self.broker.publish(table.id)
        except Exception:  # the change is committed; other processes catch up on their next read
            log.exception("publishing a change of table %s", table.id)
        self.kick_bots(table)

    def wake(self, table: LiveTable) -> None:
        for sub in table.subscribers:
            sub.changed.set()

    def subscribe(self, table: LiveTable, seat: Seat | None, since: int, token: str | None = None) -> Subscriber:
        sub = Subscriber(seat, since, token)
        table.subscribers.add(sub)
        if seat is not None:
            table.watching[seat] += 1
        sub.changed.set()
        return sub

    def unsubscribe(self, table: LiveTable, sub: Subscriber) -> None:
        if sub in table.subscribers and sub.seat is not None:
            table.watching[sub.seat] -= 1
            if table.watching[sub.seat] <= 0:
                del table.watching[sub.seat]
        table.subscribers.discard(sub)

    # The lobby.

    def games(self) -> dict[str, Any]:
        """Every game with its player range, bots, browser module and the options a client may choose
        (labels in the current language)."""
        result = {}
        for name, spec in games().items():
            defaults = {k: v for k, v in spec.make(spec.min_players, {}).options.items() if k not in FILE_OPTIONS}
            result[name] = {"title": _(spec.title), "min_players": spec.min_players, "max_players": spec.max_players,
                            "default_players": spec.default_players, "options": defaults,
                            "schema": [o.to_json() for o in spec.options if not o.server_file],
                            "bots": list(bot_kinds(name)), "module": spec.browser, "rules_version": spec.rules_version,
                            "rules": f"/rules/{name}" if spec.rules_page else None,
                            "guide": guide_json(spec.guide_script()),
                            "about": spec.about.to_json() if spec.about else None}
        return result

    async def create_table(self, body: dict[str, Any]) -> dict[str, Any]:
        game = get_field(body, "game", str)
        players = get_field(body, "players", int)
        options = get_field(body, "options", dict, {})
        if game not in games():
            raise bad_request(f"unknown game {game!r}; choose one of {', '.join(games())}")
        seed = secrets.randbelow(2**62)
        if body.get("learn"):  # Learn to play: the guide's table and fixed deal (stammtisch/guide.py)
            guide = games()[game].guide_script()
            if guide is None:
                raise bad_request(f"{game} has no guided first game")
            players, options, seed = guide.players, guide.table_options(), guide.seed
        banned = sorted(FILE_OPTIONS & set(options))
        if banned:
            raise bad_request(f"option {banned[0]} names a file on the server and cannot be chosen here")
        try:
            make_game(game, players, options)
        except (ValueError, TypeError) as error:
            raise bad_request(str(error)) from None
        pace = Pace.from_json(msgspec.to_builtins(body.get("pace")))
        standin = body.get("standin") or ""
        if standin and standin not in bot_kinds(game):
            raise bad_request(f"unknown stand-in kind {standin!r}; choose one of {', '.join(bot_kinds(game))}")
        host_token = new_token()
        row = TableRow(secrets.token_urlsafe(9), game, players, options, seed, "open",
                       hash_token(host_token), time.time(), rules_version(game), pace.to_json() if pace.timed else None,
                       standin)
        await self.store.create_table(row)
        table = LiveTable(row, [])
        self.keep(table)
        return {"table_id": row.id, "host_token": host_token, "table": table.info()}

    async def list_tables(self, statuses: tuple[str, ...], limit: int = 200,
                          before: tuple[float, str] | None = None) -> list[dict[str, Any]]:
        return [table_info(row, seat_rows) for row, seat_rows in await self.store.list_tables(statuses, limit, before)]

    async def still_open(self, table_ids: list[str]) -> list[str]:
        """Of these tables, those that have not started."""
        return await self.store.open_among(table_ids) if table_ids else []  # another process may have started them

    def check_host(self, table: LiveTable, token: str | None) -> None:
        if not token:
            raise ApiError(401, "no_token", "this needs the table's host token (Authorization: Bearer …)")
        if not hmac.compare_digest(table.row.host_hash, hash_token(token)):
            raise ApiError(403, "wrong_token", "that is not this table's host token")

    def _free_seat(self, table: LiveTable, seat: int) -> None:
        if table.status != "open":
            raise conflict("the table has started; seats can no longer change")
        if not 0 <= seat < table.row.players:
            raise bad_request(f"seat must be from 0 to {table.row.players - 1}, not {seat}")
        if seat in table.seats:
            raise conflict(f"seat {seat} is taken")

    async def _claim(self, table: LiveTable, seat: SeatRow) -> None:
        async with table.lock:
            await self.refresh(table)
            self._free_seat(table, seat.seat)
            try:
                await self.store.claim_seat(table.id, seat)
            except Conflict as error:
                await self.refresh(table)
                raise conflict(str(error)) from None
            table.seats[seat.seat] = seat
        await self.changed(table)

    async def join(self, table: LiveTable, seat: int, body: dict[str, Any], token: str | None) -> dict[str, Any]:
        """Take a free seat, or (``token``: an invitation) claim an invited one; with ``key``, bound to
        that personal key (server/keys.py)."""
        name = _name(get_field(body, "name", str, default_name(seat, "human")))
        key = await self.known_key(get_field(body, "key", str, None))
        if token:
            return await self._accept(table, seat, token, name, key)
        new = new_token()
        await self._claim(table, SeatRow(seat, "human", name, None, hash_token(new), *key_columns(key, table.id, seat)))
        return {"table_id": table.id, "seat": seat, "token": new}

    async def known_key(self, key: str | None) -> str | None:
        """``key`` if it is a personal key of this server (403 if not); None stays None."""
        if key is not None and not await self.store.player_known(key_hash(key)):
            raise wrong_key()
        return key

    async def _accept(self, table: LiveTable, seat: int, invitation: str, name: str,
                      key: str | None = None) -> dict[str, Any]:
        """Claim an invitation: the player gets a fresh seat token, and the invitation is used up."""
        new = new_token()
        async with table.lock:
            await self.refresh(table)
            held = table.seats.get(seat)
            if (table.status == "finished" or held is None or held.kind != "invited" or held.token_hash is None
                    or not hmac.compare_digest(held.token_hash, hash_token(invitation))):
                raise ApiError(403, "wrong_token", f"that is no (longer an) invitation to seat {seat}: it may have "
                                                   "been used or replaced by a new one")
            claimed = SeatRow(seat, "human", name, None, hash_token(new), *key_columns(key, table.id, seat))
            try:
                await self.store.accept_invite(table.id, held.token_hash, claimed)
            except Conflict as error:
                await self.refresh(table)
                raise ApiError(403, "wrong_token", str(error)) from None
            table.seats[seat] = claimed
            while seat in table.standins:  # a seat whose player left: the new player takes it from the stand-in
                await self._add_change(table, seat, "handed")
            await self._forget_contact(table, seat)  # the seat's earlier player's address, if any
        await self.changed(table)
        return {"table_id": table.id, "seat": seat, "token": new}

    async def invite(self, table: LiveTable, token: str | None, body: dict[str, Any], base: str) -> dict[str, Any]:
        """Invitations to free seats, or new ones (replacing the old) to seats whose invited player never
        came; all or nothing."""
        self.check_host(table, token)
        wanted = get_field(body, "seats", list, None)
        async with table.lock:
            await self.refresh(table)
            seats = self._invitable(table, wanted)
            rows = [SeatRow(seat, "invited", default_name(seat, "invited"), None, None) for seat in seats]
            tokens = [new_token() for _ in rows]
            for row, invitation in zip(rows, tokens, strict=True):
                row.token_hash = hash_token(invitation)
            abandoned = {seat for seat, why in table.standins.items() if why == "left"}
            try:
                await self.store.invite(table.id, rows, abandoned)
            except Conflict as error:
                await self.refresh(table)
                raise conflict(str(error)) from None
            table.seats.update((row.seat, row) for row in rows)
        if rows:
            await self.changed(table)
        # The invitation rides in the link's fragment, which browsers never send to a server.
        return {"table_id": table.id, "invites": [
            {"seat": row.seat, "token": code, "url": f"{base}/play/{table.id}#seat={row.seat}&invite={code}"}
            for row, code in zip(rows, tokens, strict=True)]}

    def _invitable(self, table: LiveTable, wanted: list[Any] | None) -> list[int]:
        if wanted is None:
            if table.status != "open":
                raise conflict("the table has started; seats can no longer change")
            return [s for s in range(table.row.players) if s not in table.seats]
        if any(not isinstance(seat, int) or isinstance(seat, bool) for seat in wanted):
            raise bad_request("seats must be a list of seat numbers")
        if len(set(wanted)) != len(wanted):
            raise bad_request("seats must not repeat a seat")
        for seat in wanted:
            held = table.seats.get(seat)
            if table.status == "running" and table.standins.get(seat) == "left":
                continue  # its player left the game: the host may hand it to somebody else (issue 15)
            if held is None or held.kind != "invited":
                self._free_seat(table, seat)
            elif table.status == "finished":
                raise conflict("the game is over")
        return list(wanted)

    async def add_bot(self, table: LiveTable, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        self.check_host(table, token)
        table.require_game()
        seat = get_field(body, "seat", int)
        kind = get_field(body, "kind", str, bot_kinds(table.row.game)[0])
        if kind not in bot_kinds(table.row.game):
            raise bad_request(f"unknown bot kind {kind!r}; choose one of {', '.join(bot_kinds(table.row.game))}")
        await self._claim(table, SeatRow(seat, "bot", default_name(seat, "bot", kind), kind, None))
        return {"table_id": table.id, "seat": seat, "kind": kind}

    async def start(self, table: LiveTable, token: str | None) -> dict[str, Any]:
        self.check_host(table, token)
        async with table.lock:
            await self.refresh(table)
            if table.status != "open":
                raise conflict("the table has already started")
            await self.begin_game(table)
        await self.changed(table)
        return table.info()

    async def begin_game(self, table: LiveTable) -> None:
        """Start an open table whose seats are all taken (call with its lock held)."""
        table.require_game()
        try:
            await self.store.start(table.id, table.row.players, rules_version(table.row.game))
            table.row.rules_version = rules_version(table.row.game)  # an open table starts under today's rules
        except Conflict as error:
            raise conflict(str(error)) from None
        await self.refresh(table)

    # Playing.

    def seat_of(self, table: LiveTable, token: str | None) -> Seat:
        if not token:
            raise ApiError(401, "no_token", "acting needs your seat token (Authorization: Bearer …); "
                                            "without one you can only watch")
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(403, "wrong_token", "that token holds no seat at this table")
        if table.left_for_good(seat):
            raise left_the_game()
        return seat

    def seat_lost(self, table: LiveTable, sub: Subscriber) -> ApiError | None:
        """Why a socket's token no longer holds the seat it watches (its player left the game for good,
        or the seat went to somebody else), or None: such a socket is closed, never shown the seat again."""
        if sub.seat is None:
            return None
        try:
            self.seat_of(table, sub.token)
        except ApiError as error:
            return error
        return None

    def viewer(self, table: LiveTable, token: str | None) -> Seat | None:
        """The seat a token holds, or None (a spectator) when there is no token."""
        return None if not token else self.seat_of(table, token)

    def state_message(self, table: LiveTable, seat: Seat | None, since: int | None = None,
                      entries: bool = False) -> dict[str, Any]:
        """``entries``: each event also names its log entry and the seat whose move that is (the
        browser's log, docs/web.md)."""
        message: dict[str, Any] = {"type": "state", "table": table.info(), "seat": seat, "status": table.status,
                                   "move_no": table.move_no(seat)}
        game = table.game
        if game is None:
            message.update(view=None, legal=[], to_act=[], undo_allowed=False, events=[])
            return message
        assert table.match is not None
        to_act = table.to_act()
        legal = table.match.legal_actions(seat) if seat is not None and seat in to_act else []
        first = table.version + 1 if since is None else max(0, min(since + 1, table.version + 1))
        events = []
        for n, entry in enumerate(table.match.events[first:], first):
            for event in unpack(entry, seat):
                if entries:
                    event["entry"], event["by"] = n, table.match.log[n - 1][0] if n else None
                events.append(self._event(event, n in table.standin_entries))
        message.update(view=table.view(seat), legal=[action_to_json(a) for a in legal], to_act=list(to_act),
                       undo_allowed=table.undo_allowed(seat), events=events)
        if table.status == "finished":
            message["scores"] = game.scores(table.state)
        return message

    @staticmethod
    def _event(event: dict[str, Any], standin: bool) -> dict[str, Any]:
        """An event as sent; ``standin``: of a move a stand-in made for an absent player (issue 15)."""
        if standin:
            event["standin"] = True
        return event

    def _check_turn(self, table: LiveTable, seat: Seat, move_no: int) -> None:
        if table.status == "open":
            raise conflict("the game has not started yet")
        if table.status != "running":
            raise ApiError(422, "illegal", "the game is over")
        current = table.move_no(seat)
        if move_no > current:
            raise conflict(f"move_no {move_no} is ahead of the table, which is at move {current}")
        if table.last_by_seat.get(seat, 0) > table.entry_of(seat, move_no):
            raise conflict(f"your seat has acted since move {move_no} (the table is at move {current}); "
                           "decide again on the current state")

    async def act(self, table: LiveTable, seat: Seat, action: Action, move_no: int, standin: str | None = None) -> int:
        """Validate, commit, then apply: the returned move number is committed.  ``standin``: the
        stand-in's bot kind when a stand-in moves for the seat (only while it holds the seat)."""
        async with table.lock:
            for _attempt in range(10):
                self._check_turn(table, seat, move_no)
                if (standin is None) == (seat in table.standins):
                    raise conflict("a stand-in plays your seat now: take it back first" if standin is None
                                   else "the seat's player has taken it back")
                assert table.match is not None
                try:  # checked on a copy against the legal list the seat was sent (Match keeps it)
                    move = table.match.prepare(seat, action)
                except IllegalAction as error:
                    raise ApiError(422, "illegal", str(error)) from None
                at = time.time()
                try:
                    if self._may_change_hands(table, seat):
                        await self.store.append_checked(table.id, move.number, seat, action_to_json(action),
                                                        move.ends_game, at, standin, len(table.changes))
                    else:
                        await self.store.append(table.id, move.number, seat, action_to_json(action),
                                                move.ends_game, at, standin)
                except Conflict:
                    await self.refresh(table)  # somebody else moved: validate again on the new state
                    continue
                table.accept(move, at, standin)
                version = table.move_no(seat)
                break
            else:
                raise conflict("the table is busy; try again")
        await self.changed(table)
        return version

    @staticmethod
    def _may_change_hands(table: LiveTable, seat: Seat) -> bool:
        """Whether a seat change can race this seat's move: a player's at a timed table (its deadline),
        a stand-in's (its player coming back).  Such moves are committed on the condition that no seat
        change came meanwhile; the others go into the group commit."""
        return seat in table.standins or (table.clocks is not None and not table.plays_itself(seat))

    async def undo(self, table: LiveTable, seat: Seat, move_no: int) -> int:
        async with table.lock:
            for _attempt in range(10):
                self._check_turn(table, seat, move_no)
                if not table.undo_allowed(seat):
                    raise ApiError(422, "undo_refused",
                                   "nothing to take back: only your own last move, while it is still your turn, "
                                   "and only if it drew no chance and revealed nothing")
                assert table.match is not None
                move = table.match.prepare_take_back(seat)
                at = time.time()
                try:
                    await self.store.append(table.id, move.number, seat, None, False, at)
                except Conflict:
                    await self.refresh(table)
                    continue
                table.accept(move, at)
                version = table.move_no(seat)
                break
            else:
                raise conflict("the table is busy; try again")
        await self.changed(table)
        return version

    async def hint(self, table: LiveTable, seat: Seat, lang: str = "en") -> dict[str, Any]:
        """What the hard bot would do in ``seat``'s place (only at tables with hints on): its best moves
        with their estimated values, searched in a worker from the seat's knowledge, and ``why`` the
        first, in ``lang``, from the seat's view (bots/hints.py); for this seat only."""
        if table.match is None or not hints_allowed(table.match.game):
            raise ApiError(403, "no_hints", "hints are off at this table (table option hints)")
        if table.status != "running":
            raise conflict("hints are given while the game is running")
        legal = table.match.legal_actions(seat)
        if not legal:
            raise conflict("it is not your decision")
        if seat in table.hinting:
            raise ApiError(429, "busy", "a hint for your seat is already being worked out")
        table.hinting.add(seat)
        view, move_no = table.match.view(seat), table.move_no(seat)  # the position asked about
        try:
            found = await self.thinkers.hint(table.match.game, table.match.state, seat, legal, secrets.randbelow(2**31))
        except TimeoutError:
            raise ApiError(503, "too_slow", "the hint took too long; try again") from None
        finally:
            table.hinting.discard(seat)
        found = [Estimate(e.action, e.visits, round(e.value, 3)) for e in found]  # as sent: why says the same
        with i18n.using_language(lang):
            reason = why(table.row.game, view, found, table.shown_names())
        return {"move_no": move_no, "bot": HINT_KIND,
                "hints": [{"action": action_to_json(e.action), "value": e.value, "visits": e.visits} for e in found],
                "why": None if reason is None else reason.line()}

    # Stand-ins (issue 15).

    async def stand_in(self, table: LiveTable, seat: Seat, why: str) -> bool:
        """A stand-in takes ``seat`` (why: timeout, left, asked).  The claim is the seat change's number
        in the database: of two processes (or a process and its restarted self) that find the same
        deadline passed, one adds the change, the other reads it; a timeout is checked again on the
        table as stored.  False if nothing changed."""
        async with table.lock:
            if self.shared:
                await self.refresh(table)
            # A timeout is claimed once (the clock watcher looks again); a player's own request is tried
            # again when a move came in between.
            for _attempt in range(1 if why == "timeout" else 10):
                if table.status != "running" or (seat in table.standins and why != "left" or
                                                 table.standins.get(seat) == "left"):
                    return False
                if why == "timeout" and seat not in table.overdue(time.time()):
                    return False
                if await self._add_change(table, seat, why):
                    break
            else:
                return False
        if why == "left":  # a player who left gets no more e-mail from this table
            await self._forget_contact(table, seat)
        log.info("table %s: a %s stand-in takes seat %s (%s)", table.id, table.standin_kind(), seat, why)
        await self.changed(table)
        return True

    async def _add_change(self, table: LiveTable, seat: Seat, what: str, row: SeatRow | None = None) -> bool:
        """Claim the next seat change (call with the table's lock held); False if another writer had it."""
        change = SeatChange(len(table.changes), seat, table.version, what, time.time())
        try:
            await self.store.add_seat_change(table.id, change, row)
        except Conflict:
            await self.refresh(table)
            return False
        if row is not None:
            table.seats[seat] = row
        table.change(change)
        return True

    async def away(self, table: LiveTable, seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
        """The seat's player asks for a stand-in, or (``leave``) leaves the game for good."""
        leave = get_field(body, "leave", bool, False)
        if table.status != "running":
            raise conflict("stand-ins play running games only")
        await self.stand_in(table, seat, "left" if leave else "asked")
        return {"table_id": table.id, "seat": seat, "standin": table.standins.get(seat)}

    # E-mail notices (issue 15, server/notify.py).

    def notify_info(self, table: LiveTable, seat: Seat) -> dict[str, Any]:
        """For the seat's own player only: whether this server sends e-mail, and the seat's address."""
        contact = table.contacts.get(seat) if self.notifier is not None else None
        return {"table_id": table.id, "seat": seat, "email_available": self.notifier is not None,
                "email": contact.email if contact else None, "lang": contact.lang if contact else None}

    async def set_contact(self, table: LiveTable, seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
        """The seat's address for e-mail notices (``email`` None: no more e-mail) and their language."""
        address = get_field(body, "email", str, None)
        contact = None if address is None else Contact(check_email(address), check_lang(body.get("lang")))
        if contact is not None and self.notifier is None:
            raise conflict("this server sends no e-mail (it was started without --smtp)")
        if contact is not None and table.status in ("finished", INTERRUPTED):
            raise conflict("the game is over")
        async with table.lock:
            await self.store.set_contact(table.id, seat, contact)
            if contact is None:
                table.contacts.pop(seat, None)
            else:
                table.contacts[seat] = contact
        await self.changed(table)  # other processes read the table's addresses again
        return self.notify_info(table, seat)

    async def _forget_contact(self, table: LiveTable, seat: Seat) -> None:
        try:
            await self.store.set_contact(table.id, seat, None)
        except Exception:  # the seat changed hands all the same; the notice is checked again when due
            log.exception("forgetting the address of table %s seat %s", table.id, seat)
        table.contacts.pop(seat, None)

    async def back(self, table: LiveTable, seat: Seat) -> dict[str, Any]:
        """The seat's player takes the seat back from its stand-in."""
        async with table.lock:
            await self.refresh(table)
            if table.left_for_good(seat):  # (a request that passed the token check before the leave)
                raise left_the_game()
            if seat not in table.standins:
                raise conflict("no stand-in plays your seat")
            while seat in table.standins:
                await self._add_change(table, seat, "returned")
        await self.changed(table)
        return {"table_id": table.id, "seat": seat, "standin": None}

    def record(self, table: LiveTable) -> str:
        if table.status not in ("finished", INTERRUPTED):
            raise conflict("the record can be downloaded once the game is over")
        header = Header(table.row.game, table.row.players, dict(table.row.options), table.row.seed, table.names(),
                        rules_version=table.row.rules_version)
        return Record(header, list(table.moves), dict(table.standin_moves)).dumps()

    # Bots.

    def kick_bots(self, table: LiveTable) -> None:
        if self._closing or table.status != "running":
            return
        if not any(table.plays_itself(s) for s in table.seats):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._bot_loop(table))

    async def _bot_loop(self, table: LiveTable) -> None:
        claimed_now = table.id not in self._bot_tables
        if not await self._plays_bots(table.id):
            return  # another process plays them (issue 26: both played every stand-in, one lost every race)
        if claimed_now and self.shared:  # the process that played them until now may just have ended the game
            async with table.lock:
                await self.refresh(table)
        try:
            await self._play_bots(table)
        finally:
            if table.status != "running":
                self._let_go_of_bots(table.id)

    async def _plays_bots(self, table_id: str) -> bool:
        """Whether this process plays the table's bots and stand-ins: of several processes, the first to
        claim the table does until it forgets the table or the game ends (or the process ends)."""
        if table_id not in self._bot_tables:
            if self._elsewhere.get(table_id, 0.0) > time.monotonic():  # (not asked again at every move)
                return False
            if self.hold is None or not await self._claim_bots(table_id):
                self._elsewhere[table_id] = time.monotonic() + BOTS_ELSEWHERE
                return False
            self._elsewhere.pop(table_id, None)
            self._bot_tables.add(table_id)
        return True

    async def _claim_bots(self, table_id: str) -> bool:
        assert self.hold is not None
        try:
            return await asyncio.to_thread(self.hold.take_table, table_id)
        except Exception as error:  # the claim cannot be asked for: play (a move is committed once all the same)
            log.warning("claiming the bots of table %s: %s", table_id, error)
            return True

    def _let_go_of_bots(self, table_id: str) -> None:
        if table_id in self._bot_tables and self.hold is not None:
            self._bot_tables.discard(table_id)
            task = asyncio.ensure_future(asyncio.to_thread(self.hold.release_table, table_id))
            self._letting_go.add(task)
            task.add_done_callback(self._letting_go.discard)

    async def _play_bots(self, table: LiveTable) -> None:
        failures = 0
        while table.status == "running" and table.game is not None and not self._closing:
            seats = [s for s in table.game.to_act(table.state) if table.plays_itself(s)]
            if not seats:
                return
            await asyncio.sleep(self.config.bot_delay)
            seats = [s for s in table.game.to_act(table.state) if s in seats]
            if not seats or table.status != "running":
                continue
            try:
                standin = table.standin_kind() if seats[0] in table.standins else None
                await self.act(table, seats[0], await self._bot_move(table, seats[0]), table.move_no(seats[0]), standin)
                failures = 0
            except ApiError as error:  # a lost race (another process played) is no news
                failures += 1
                log.log(logging.DEBUG if error.status == 409 else logging.WARNING, "bot at table %s seat %s: %s",
                        table.id, seats[0], error.message)
            except Exception:  # a database hiccup: wait and try again
                failures += 1
                log.exception("bot at table %s seat %s", table.id, seats[0])
            if failures:
                if failures > 20:
                    log.error("bot at table %s seat %s stops after %d failed moves in a row", table.id, seats[0],
                              failures)
                    return
                await asyncio.sleep(0.05 * failures)

    async def _bot_move(self, table: LiveTable, seat: Seat) -> Action:
        """The bot's choice.  A search bot thinks in a worker process (server/thinking.py) from a
        snapshot of its seat's knowledge; if it takes longer than the time limit or fails, the game's
        default (heuristic) bot decides instead.  A choice that fails or is not legal is logged and
        replaced by a random legal action, so that a table never waits for a bot that cannot move."""
        assert table.match is not None
        legal = table.match.legal_actions(seat)
        kind = table.standin_kind() if seat in table.standins else table.seats[seat].bot_kind or "random"
        bot = table.bots.get(seat)
        if bot is None:
            bot = table.bots[seat] = make_bot(table.row.game, kind, secrets.randbelow(2**31))
        if not legal:
            raise ApiError(500, "stalled", f"seat {seat} is to act but has no legal action")
        fallback = legal[secrets.randbelow(len(legal))]
        if isinstance(bot, SearchBot) and len(legal) > 1:
            try:
                action = await self.thinkers.decide(table.match.game, table.match.state, seat, legal, kind,
                                                    secrets.randbelow(2**31))
                return self._legal_or(fallback, action, table, seat, kind)
            except Exception as error:
                log.warning("%s bot at table %s seat %s: %s; the %s bot decides instead", kind, table.id, seat,
                            "no decision in time" if isinstance(error, TimeoutError) else repr(error),
                            default_bot_kind(table.row.game))
                bot = make_bot(table.row.game, default_bot_kind(table.row.game), secrets.randbelow(2**31))
        try:
            action = decide(bot, table.match.game, table.match.state, seat, legal)
        except Exception:
            log.exception("%s bot at table %s seat %s failed; it plays a random legal action instead", kind, table.id,
                          seat)  # (never the action: the log may not show a seat's secrets)
            return fallback
        return self._legal_or(fallback, action, table, seat, kind)

    @staticmethod
    def _legal_or(fallback: Action, action: Action, table: LiveTable, seat: Seat, kind: str) -> Action:
        assert table.match is not None
        if action not in table.match.legal_actions(seat):
            log.error("%s bot at table %s seat %s chose an action that is not legal; it plays a random legal one "
                      "instead", kind, table.id, seat)
            return fallback
        return action


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


def _name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise bad_request("name must not be empty")
    if len(name) > MAX_NAME:
        raise bad_request(f"name must be at most {MAX_NAME} characters")
    return name
