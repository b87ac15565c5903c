"""Replays (issue 14): any position of a table's game as the spectators saw it, for finished games and,
up to now, for running ones; and (issue 25) a finished game's whole replay from one seat, as that seat
saw it, in one answer.

A position is a spectator's move number N (docs/api.md, "Move numbers"): the state after the last
log entry that spectators count as their N-th, which is what a spectator's page showed at move N.
Positions are rebuilt with the engine from the table's own move log (``Line``), and only the
spectators' view, the events every spectator may see and the public round number leave this
module: no seat's view, no seed, no state.

What it costs, bounded: a table's line keeps one copy of the state every ``EVERY`` moves along the
line of play (take-backs branch off it), so a position costs a copy and at most ``EVERY`` steps; at
most ``KEPT`` lines are kept (least recently used dropped), and the answers' views (as JSON) and
sentences for at most ``ANSWERS`` positions.  Building a line replays the log once, as loading a
table does, in slices that let other clients go on.

A seat's replay (``seat_replay``) is every position by the seat's own move numbers: the seat's view
after the last log entry it counts as each (what its socket was sent at that move), the first view
whole and each later one as a JSON Patch of the one before (``server/delta.py``), with the events the
seat was told and their sentences.  Only the seat's own views leave this module, and only once the
game is over; built once per (table, seat, language), one at a time, and kept for ``SEAT_ANSWERS``.
"""

from __future__ import annotations

import asyncio
import gzip
import time
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson

from stammtisch import i18n
from stammtisch.engine.match import PackedEvents, unpack
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.registry import Scoring, game_spec
from stammtisch.server.delta import make_patch
from stammtisch.server.livetable import LiveTable, conflict
from stammtisch.server.messages import bad_request

EVERY = 32  # moves between kept states along a line
KEPT = 16  # tables whose lines are kept
ANSWERS = 512  # positions whose view (JSON) and sentences are kept, per language
SEAT_ANSWERS = 16  # seats' replays kept (each for one table, seat and language)

RoundOf = Callable[[Game[Any], Any], int]
Write = Callable[[Event, dict[str, Any], list[str]], str]  # an event's sentence, from the reader's view and names
# A position: its spectator view as JSON, the seats to act, its events, the view itself.
Position = tuple[orjson.Fragment, list[Seat], list[dict[str, Any]], dict[str, Any]]
SeatReplay = tuple[bytes, bytes]  # a seat's replay as JSON, and gzipped


class Slices:
    """Lets other tasks run every few milliseconds of a long loop."""

    def __init__(self, seconds: float = 0.004) -> None:
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds

    async def pause(self) -> None:
        if time.perf_counter() > self.deadline:
            await asyncio.sleep(0)
            self.deadline = time.perf_counter() + self.seconds


class Line:
    """One table's log as a tree of states.  Node n is log entry n when that entry is a move (0: the
    setup): its state is the move applied to the state of its parent, the node it was played on.
    After a take-back the state is that of the parent of the move it took back."""

    def __init__(self, game: Game[Any], seed: int, round_of: RoundOf | None, scoring: Scoring | None = None) -> None:
        self.game = game
        self.round_of = round_of
        self.scoring = scoring.kinds if scoring is not None else ()
        self.head, _ = game.new_state(seed)  # the state of node[-1]
        self.parent: list[int] = [-1]  # per entry; -1 for the setup and for take-backs (no node)
        self.depth: list[int] = [0]
        self.moves: list[tuple[Seat, Action] | None] = [None]
        self.node: list[int] = [0]  # per entry: the node whose state holds after it
        self.rounds: list[int] = [self._round(self.head)]  # per entry: the round its state is in
        self.scored: list[bool] = [False]  # per entry: whether its public events score a round (Scoring)
        self.kept: dict[int, Any] = {0: game.copy(self.head)}
        self.in_force: list[int] = []  # the moves in force (the record), as nodes
        self.lock = asyncio.Lock()

    @property
    def entries(self) -> int:
        """Log entries followed so far."""
        return len(self.node) - 1

    def _round(self, state: Any) -> int:
        return self.round_of(self.game, state) if self.round_of is not None else 0

    def add(self, seat: Seat, action: Action | None, events: PackedEvents = ()) -> None:
        """Follow the log's next entry: a move, or ``seat`` taking back its last move (``action`` None),
        and its ``events``."""
        if action is None:
            taken = self.in_force.pop()
            back = self.parent[taken]
            self.head = self.state_at(back)
            self.parent.append(-1)
            self.depth.append(self.depth[back])
            self.moves.append(None)
            self.node.append(back)
        else:
            entry, on = len(self.node), self.node[-1]
            self.game.apply(self.head, seat, action)
            self.parent.append(on)
            self.depth.append(self.depth[on] + 1)
            self.moves.append((seat, action))
            self.node.append(entry)
            self.in_force.append(entry)
            if self.depth[entry] % EVERY == 0:
                self.kept[entry] = self.game.copy(self.head)
        self.rounds.append(self._round(self.head))
        self.scored.append(any(readers is None and orjson.loads(data)["kind"] in self.scoring
                               for readers, data in events) if self.scoring else False)

    def state_at(self, node: int) -> Any:
        """A fresh copy of a node's state: the nearest kept state on its way back to the setup, and the
        moves from there (at most ``EVERY``)."""
        path = []
        while node not in self.kept:
            path.append(node)
            node = self.parent[node]
        state = self.game.copy(self.kept[node])
        for step in reversed(path):
            move = self.moves[step]
            assert move is not None
            self.game.apply(state, *move)
        return state

    def after(self, entry: int) -> Any:
        """The state after log entry ``entry``."""
        return self.state_at(self.node[entry])

    async def follow(self, log: list[tuple[Seat, Action | None]], events: list[PackedEvents]) -> None:
        """Follow ``log`` and its ``events`` (the table's, which may grow meanwhile) to its end, letting
        other tasks run every few milliseconds."""
        slices = Slices()
        while self.entries < len(log):
            self.add(*log[self.entries], events[self.entries + 1])
            await slices.pause()


class Replays:
    """The lines and answers of one server process, both bounded (least recently used dropped)."""

    def __init__(self, kept: int = KEPT, answers: int = ANSWERS) -> None:
        self.kept, self.most_answers = kept, answers
        self.lines: OrderedDict[str, Line] = OrderedDict()
        self.views: OrderedDict[tuple[str, int], Position] = OrderedDict()
        self.sentences: OrderedDict[tuple[str, int, str, tuple[str, ...]], list[str]] = OrderedDict()
        self.seat_answers: OrderedDict[tuple[str, Seat, str], SeatReplay] = OrderedDict()
        self.seat_building = asyncio.Lock()  # one seat's replay built at a time: the others wait, then find it

    async def line(self, table: LiveTable) -> Line:
        """The table's line, caught up with its log."""
        assert table.match is not None
        line = self.lines.get(table.id)
        if line is None or line.game is not table.match.game:
            spec = game_spec(table.row.game)
            line = Line(table.match.game, table.row.seed, spec.round_function(), spec.scoring)
        keep(self.lines, table.id, line, self.kept)
        async with line.lock:  # one builder per line; the others wait for it
            await line.follow(table.match.log, table.match.events)
        return line

    def position(self, table: LiveTable, line: Line, counts: list[int], move: int) -> Position:
        """Position ``move``'s spectator view (as JSON), seats to act, the events since the position
        before that every spectator may see, and the view itself (for the sentences).  Kept by log
        entry: a running table's latest position moves on when hidden entries follow."""
        assert table.match is not None
        entry = bisect_right(counts, move) - 1
        key = (table.id, entry)
        found = self.views.get(key)
        if found is None:
            first = bisect_right(counts, move - 1) if move > 0 else 0
            state = line.after(entry)
            view = self.game_view(line.game, state)
            events = [e for packed in table.match.events[first:entry + 1] for e in unpack(packed, None)]
            found = (orjson.Fragment(orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS)),
                     list(line.game.to_act(state)), events, view)
        keep(self.views, key, found, self.most_answers)
        return found

    @staticmethod
    def game_view(game: Game[Any], state: Any) -> dict[str, Any]:
        """The spectators' view, never a seat's."""
        return game.view(state, None)

    def written(self, table: LiveTable, entry: int, lang: str, events: list[dict[str, Any]],
                view: dict[str, Any], write: Write) -> list[str]:
        with i18n.using_language(lang):
            names = table.shown_names()
        key = (table.id, entry, lang, tuple(names))
        found = self.sentences.get(key)
        if found is None:
            found = sentences(lang, events, view, names, write)
        keep(self.sentences, key, found, self.most_answers)
        return found


def keep(cache: OrderedDict[Any, Any], key: Any, value: Any, most: int) -> None:
    """Keep ``value`` under ``key`` as the most recently used of at most ``most``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > most:
        cache.popitem(last=False)


def sentences(lang: str, events: list[dict[str, Any]], view: dict[str, Any], names: list[str],
              write: Write) -> list[str]:
    """The events' sentences in ``lang``, written with the reader's view of their position."""
    with i18n.using_language(lang):
        return [write(Event(e["kind"], e["params"]), view, names) for e in events]


def rounds(line: Line, counts: list[int]) -> list[dict[str, int]]:
    """Where each round begins: ``{round, move_no}`` of the first position in it."""
    found: list[dict[str, int]] = []
    for entry, number in enumerate(line.rounds[:len(counts)]):
        if not found or found[-1]["round"] != number:
            found.append({"round": number, "move_no": counts[entry]})
    return found


def jumps(line: Line, counts: list[int], lang: str) -> dict[str, Any]:
    """What an answer tells of rounds and scorings: ``rounds``, ``scorings`` (the positions whose events
    score a round, GameSpec.scoring) and ``scoring_names`` (the jumps' names in ``lang``, or null)."""
    spec = game_spec(line.game.name)
    names = None
    if spec.scoring is not None:
        with i18n.using_language(lang):
            names = [i18n._(spec.scoring.previous), i18n._(spec.scoring.next)]
    scored = sorted({counts[entry] for entry, hit in enumerate(line.scored[:len(counts)]) if hit})
    return {"rounds": rounds(line, counts), "scorings": scored, "scoring_names": names}


def check_started(table: LiveTable) -> None:
    if table.status == "open" or table.match is None:
        raise conflict("the game has not started yet" if table.status == "open"
                       else "this game was interrupted by an upgrade: only its record remains")


async def replay_answer(replays: Replays, table: LiveTable, move: int | None, lang: str,
                        write: Write) -> dict[str, Any]:
    """The answer of ``GET /api/tables/{id}/replay``: position ``move`` (default: the latest)."""
    check_started(table)
    line = await replays.line(table)
    counts = table.seen[None][:line.entries + 1]  # the log may have grown while the line followed it
    last = counts[-1]
    if move is None:
        move = last
    if not 0 <= move <= last:
        raise bad_request(f"move must be from 0 to {last}, not {move}")
    view, to_act, events, shown = replays.position(table, line, counts, move)
    entry = bisect_right(counts, move) - 1
    answer: dict[str, Any] = {
        "table_id": table.id, "game": table.row.game, "status": table.status, "move_no": move, "last": last,
        "round": line.rounds[entry], **jumps(line, counts, lang), "to_act": to_act, "view": view,
        "events": events, "sentences": replays.written(table, entry, lang, events, shown, write),
    }
    if move == last and table.status == "finished":
        answer["scores"] = table.game.scores(table.state) if table.game is not None else None
    return answer


async def seat_replay(replays: Replays, table: LiveTable, seat: Seat, lang: str, write: Write) -> SeatReplay:
    """The answer of ``GET /api/tables/{id}/replay/seat`` for ``seat`` (its token checked by the
    caller): its whole replay, once the game is over."""
    check_started(table)
    if table.status != "finished":
        raise conflict("a seat's own replay opens when the game is over; until then the replay shows what "
                       "spectators see, and only to spectators")
    key = (table.id, seat, lang)
    async with replays.seat_building:
        found = replays.seat_answers.get(key)
        if found is None:
            answer = await seat_answer(replays, table, seat, lang, write)
            plain = orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS)
            found = (plain, gzip.compress(plain, 6, mtime=0))
        keep(replays.seat_answers, key, found, SEAT_ANSWERS)
    return found


async def seat_answer(replays: Replays, table: LiveTable, seat: Seat, lang: str, write: Write) -> dict[str, Any]:
    """Every position of a finished game by ``seat``'s move numbers, as the seat saw it: the first view
    whole, then per position the patch from the view before, the events the seat was told since the
    position before and their sentences; the spectators' move number of each position (``public``: the
    address of the move), the positions after the seat's own moves (``mine``), rounds and scorings."""
    assert table.match is not None and table.game is not None
    line = await replays.line(table)
    log, packed = table.match.log, table.match.events
    with i18n.using_language(lang):
        names = table.shown_names()
    first: dict[str, Any] | None = None
    before: dict[str, Any] = {}  # the view of the position before
    steps: list[dict[str, Any]] = []
    public: list[int] = []
    mine: list[int] = []
    async for start, entry, view in seat_views(table, seat):
        events = [e for entry_events in packed[start:entry + 1] for e in unpack(entry_events, seat)]
        steps.append({"patch": [] if first is None else make_patch(before, view), "events": events,
                      "sentences": sentences(lang, events, view, names, write)})
        public.append(table.seen[None][entry])
        if start and log[start - 1][0] == seat and log[start - 1][1] is not None:  # a move of its own
            mine.append(len(steps) - 1)
        first, before = first or view, view
    return {"table_id": table.id, "game": table.row.game, "seat": seat, "status": table.status,
            "last": len(steps) - 1, "view": first, **jumps(line, table.seen[seat], lang), "mine": mine,
            "public": public, "steps": steps, "scores": table.game.scores(table.state)}


async def seat_views(table: LiveTable, seat: Seat) -> AsyncIterator[tuple[int, int, dict[str, Any]]]:
    """Each of ``seat``'s positions in order: the first and the last log entry it counts as that position,
    and its view after the last (the state walked entry by entry, take-backs included)."""
    assert table.match is not None
    walk = Line(table.match.game, table.row.seed, None)
    counts, start, slices = table.seen[seat], 0, Slices()
    for entry in range(len(counts)):
        if entry:
            walk.add(*table.match.log[entry - 1])
        if entry + 1 < len(counts) and counts[entry + 1] == counts[entry]:
            continue  # the seat counts the next entry as this position too
        yield start, entry, table.match.game.view(walk.head, seat)
        start = entry + 1
        await slices.pause()
