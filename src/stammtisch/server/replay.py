"""Replays (issue 14): any position of a table's game as the spectators saw it, for finished games and,
up to now, for running ones.

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
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson

from stammtisch import i18n
from stammtisch.engine.match import unpack
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.registry import game_spec
from stammtisch.server.messages import bad_request
from stammtisch.server.tables import LiveTable, conflict

EVERY = 32  # moves between kept states along a line
KEPT = 16  # tables whose lines are kept
ANSWERS = 512  # positions whose view (JSON) and sentences are kept, per language

RoundOf = Callable[[Game[Any], Any], int]
# A position: its spectator view as JSON, the seats to act, its events, the view itself.
Position = tuple[orjson.Fragment, list[Seat], list[dict[str, Any]], dict[str, Any]]


class Line:
    """One table's log as a tree of states.  Node n is log entry n when that entry is a move (0: the
    setup): its state is the move applied to the state of its parent, the node it was played on.
    After a take-back the state is that of the parent of the move it took back."""

    def __init__(self, game: Game[Any], seed: int, round_of: RoundOf | None) -> None:
        self.game = game
        self.round_of = round_of
        self.head, _ = game.new_state(seed)  # the state of node[-1]
        self.parent: list[int] = [-1]  # per entry; -1 for the setup and for take-backs (no node)
        self.depth: list[int] = [0]
        self.moves: list[tuple[Seat, Action] | None] = [None]
        self.node: list[int] = [0]  # per entry: the node whose state holds after it
        self.rounds: list[int] = [self._round(self.head)]  # per entry: the round its state is in
        self.kept: dict[int, Any] = {0: game.copy(self.head)}
        self.in_force: list[int] = []  # the moves in force (the record), as nodes
        self.lock = asyncio.Lock()

    @property
    def entries(self) -> int:
        """Log entries followed so far."""
        return len(self.node) - 1

    def _round(self, state: Any) -> int:
        return self.round_of(self.game, state) if self.round_of is not None else 0

    def add(self, seat: Seat, action: Action | None) -> None:
        """Follow the log's next entry: a move, or ``seat`` taking back its last move (``action`` None)."""
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

    async def follow(self, log: list[tuple[Seat, Action | None]], slice_seconds: float = 0.004) -> None:
        """Follow ``log`` (the table's, which may grow meanwhile) to its end, letting other tasks run
        every few milliseconds."""
        deadline = time.perf_counter() + slice_seconds
        while self.entries < len(log):
            self.add(*log[self.entries])
            if time.perf_counter() > deadline:
                await asyncio.sleep(0)
                deadline = time.perf_counter() + slice_seconds


class Replays:
    """The lines and answers of one server process, both bounded (least recently used dropped)."""

    def __init__(self, kept: int = KEPT, answers: int = ANSWERS) -> None:
        self.kept, self.most_answers = kept, answers
        self.lines: OrderedDict[str, Line] = OrderedDict()
        self.views: OrderedDict[tuple[str, int], Position] = OrderedDict()
        self.sentences: OrderedDict[tuple[str, int, str, tuple[str, ...]], list[str]] = OrderedDict()

    async def line(self, table: LiveTable) -> Line:
        """The table's line, caught up with its log."""
        assert table.match is not None
        line = self.lines.get(table.id)
        if line is None or line.game is not table.match.game:
            spec = game_spec(table.row.game)
            line = Line(table.match.game, table.row.seed, spec.round_function())
            self.lines[table.id] = line
        self.lines.move_to_end(table.id)
        while len(self.lines) > self.kept:
            self.lines.popitem(last=False)
        async with line.lock:  # one builder per line; the others wait for it
            await line.follow(table.match.log)
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
            self.views[key] = found
            while len(self.views) > self.most_answers:
                self.views.popitem(last=False)
        self.views.move_to_end(key)
        return found

    @staticmethod
    def game_view(game: Game[Any], state: Any) -> dict[str, Any]:
        """The spectators' view, never a seat's."""
        return game.view(state, None)

    def written(self, table: LiveTable, entry: int, lang: str, events: list[dict[str, Any]],
                view: dict[str, Any], write: Callable[[Event, dict[str, Any], list[str]], str]) -> list[str]:
        with i18n.using_language(lang):
            names = table.shown_names()
        key = (table.id, entry, lang, tuple(names))
        found = self.sentences.get(key)
        if found is None:
            with i18n.using_language(lang):
                found = [write(Event(e["kind"], e["params"]), view, names) for e in events]
            self.sentences[key] = found
            while len(self.sentences) > self.most_answers:
                self.sentences.popitem(last=False)
        return found


def rounds(line: Line, counts: list[int]) -> list[dict[str, int]]:
    """Where each round begins: ``{round, move_no}`` of the first position in it."""
    found: list[dict[str, int]] = []
    for entry, number in enumerate(line.rounds[:len(counts)]):
        if not found or found[-1]["round"] != number:
            found.append({"round": number, "move_no": counts[entry]})
    return found


async def replay_answer(replays: Replays, table: LiveTable, move: int | None, lang: str,
                        write: Callable[[Event, dict[str, Any], list[str]], str]) -> dict[str, Any]:
    """The answer of ``GET /api/tables/{id}/replay``: position ``move`` (default: the latest)."""
    if table.status == "open" or table.match is None:
        raise conflict("the game has not started yet" if table.status == "open"
                       else "this game was interrupted by an upgrade: only its record remains")
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
        "round": line.rounds[entry], "rounds": rounds(line, counts), "to_act": to_act, "view": view,
        "events": events, "sentences": replays.written(table, entry, lang, events, shown, write),
    }
    if move == last and table.status == "finished":
        answer["scores"] = table.game.scores(table.state) if table.game is not None else None
    return answer

