"""Search bots think in worker processes, so the server's event loop stays responsive.

A worker gets only what the seat may know: a snapshot (engine/snapshot.py) of a state resampled
from the seat's knowledge, never the true state; it rebuilds the game, makes the bot and returns
its action (or, for hints, the search's best moves).  A decision that takes longer than the time
limit, or fails, is logged and replaced by the caller's fallback.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from stammtisch.bots.base import SearchBot, knowledge_of
from stammtisch.bots.hints import hint_from_knowledge
from stammtisch.bots.ismcts import Estimate
from stammtisch.engine.protocol import Action, Game, Seat
from stammtisch.registry import game_spec, make_game


class Question:
    """What a worker needs for one seat's decision: the table and a snapshot of the seat's knowledge."""

    def __init__(self, game: Game[Any], state: Any, seat: Seat, legal: list[Action]) -> None:
        self.name = game.name
        self.players = game.num_players
        self.options: Mapping[str, Any] = game.options
        self.knowledge = game.to_json(knowledge_of(game, state, seat))
        self.seat = seat
        self.legal = legal

    def game(self) -> Game[Any]:
        return make_game(self.name, self.players, self.options)


def think(question: Question, kind: str, seed: int) -> Action:
    """In a worker: the bot's action."""
    game = question.game()
    bot = game_spec(question.name).bot(kind, seed)
    if not isinstance(bot, SearchBot):
        raise TypeError(f"a {kind} bot does not search")
    return bot.choose_in(game, game.from_json(question.knowledge), question.seat, question.legal)


def advise(question: Question, seed: int, top: int) -> list[Estimate]:
    """In a worker: the hint bot's best moves with their estimated values."""
    game = question.game()
    return hint_from_knowledge(game, game.from_json(question.knowledge), question.seat, question.legal, seed, top)


def end_with(parent: int) -> None:
    """In a worker, first thing: end when the server process ``parent`` ends, however it ended — a
    SIGTERM, after which uvicorn re-raises the signal before the pool has stopped its workers, or a
    SIGKILL, which leaves no time to stop anything (issue 26).  On Linux the kernel sends the signal
    (``PR_SET_PDEATHSIG``); everywhere a thread notices that the worker has lost its parent."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(AttributeError, OSError):  # no prctl in this C library: the thread does it
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    threading.Thread(target=_end_when_orphaned, args=(parent,), name="end-with-server", daemon=True).start()


PR_SET_PDEATHSIG = 1


def _end_when_orphaned(parent: int, every: float = 0.5) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


class Thinkers:
    """A pool of worker processes, started on first use."""

    def __init__(self, workers: int, timeout: float) -> None:
        self.workers = workers
        self.timeout = timeout
        self._pool: Executor | None = None

    def pool(self) -> Executor:
        if self._pool is None:
            # spawn: a fork of the server would copy its event loop, sockets and threads
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=end_with, initargs=(os.getpid(),))
        return self._pool

    async def run(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` in a worker; TimeoutError after the time limit (the worker finishes
        its search on its own: a search bot's time budget bounds it)."""
        future = self.pool().submit(function, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except BrokenProcessPool:
            self._pool = None  # a worker died: the next call starts a fresh pool
            raise

    async def decide(self, game: Game[Any], state: Any, seat: Seat, legal: list[Action], kind: str,
                     seed: int) -> Action:
        action: Action = await self.run(think, Question(game, state, seat, legal), kind, seed)
        return action

    async def hint(self, game: Game[Any], state: Any, seat: Seat, legal: list[Action], seed: int,
                   top: int = 3) -> list[Estimate]:
        found: list[Estimate] = await self.run(advise, Question(game, state, seat, legal), seed, top)
        return found

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
