"""Playing a tournament's games: one game through ``Match`` and ``decide``, batches of games in
worker processes or on a Dask cluster, and the results in game order whatever ran them."""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from typing import Any

from stammtisch.bots.base import decide
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Game, IllegalAction
from stammtisch.i18n import _, current_language, using_language
from stammtisch.registry import game_spec
from stammtisch.tournament import entrants, outside
from stammtisch.tournament.schedule import GameJob, Plan, TournamentError

BATCHES_PER_WORKER = 8  # small batches balance the load; each costs one round trip


@dataclass(frozen=True)
class GameResult:
    index: int
    scores: tuple[int, ...]  # by seat
    winners: tuple[int, ...]
    decisions: tuple[int, ...]  # by seat
    thinking: tuple[float, ...]  # CPU seconds of the deciding thread by seat: differs from run to run


@cache
def _game(name: str, players: int, options: str) -> Game[Any]:
    return game_spec(name).make(players, json.loads(options))


def table_of(plan: Plan) -> Game[Any]:
    """The plan's game, built once per process."""
    return _game(plan.game, plan.players, json.dumps(plan.options, sort_keys=True))


def play(plan: Plan, job: GameJob, limit: float | None = None) -> tuple[GameResult, Match]:
    """Play one game of ``plan`` to its end; TournamentError if a bot errs or it takes over ``limit`` s."""
    game = table_of(plan)
    spec = game_spec(plan.game)
    try:
        bots = [entrants.make(spec, kind, seed, plan.budgets)
                for kind, seed in zip(job.kinds, job.bot_seeds, strict=True)]
    except (outside.MissingExtra, entrants.EntrantError) as error:
        raise TournamentError(str(error)) from None
    decisions, thinking = [0] * plan.players, [0.0] * plan.players
    match = Match(game, job.game_seed)
    start = time.monotonic()
    while not match.is_over():
        seat = match.to_act()[0]
        began = time.thread_time()
        action = decide(bots[seat], game, match.state, seat)
        thinking[seat] += time.thread_time() - began
        decisions[seat] += 1
        try:
            match.act(seat, action)
        except IllegalAction:
            raise TournamentError(_("game {index}: the {kind} bot of seat {seat} chose {action}, which is not "
                                    "legal").format(index=job.index, kind=job.kinds[seat], seat=seat,
                                                    action=repr(action))) from None
        if limit is not None and time.monotonic() - start > limit:
            raise TournamentError(_("game {index} took longer than {seconds} s; play it alone with --only {index}")
                                  .format(index=job.index, seconds=limit))
    result = GameResult(job.index, tuple(game.scores(match.state)), tuple(game.winners(match.state)),
                        tuple(decisions), tuple(thinking))
    return result, match


def play_batch(plan: Plan, jobs: Sequence[GameJob], limit: float | None, language: str) -> list[GameResult]:
    """A worker's share (module level, so that processes and Dask can call it by name)."""
    with using_language(language):
        return [play(plan, job, limit)[0] for job in jobs]


Progress = Callable[[int], None]


def run(plan: Plan, executor: Executor | None = None, *, workers: int = 1, limit: float | None = None,
        progress: Progress | None = None) -> list[GameResult]:
    """Every game of ``plan``, in game order: here when ``executor`` is None, else in batches on it
    (``workers`` sets the batch size only; results never depend on it)."""
    jobs = plan.jobs()
    size = max(1, math.ceil(len(jobs) / (max(1, workers) * BATCHES_PER_WORKER)))
    batches = [jobs[start:start + size] for start in range(0, len(jobs), size)]
    language = current_language()
    results: list[GameResult] = []
    if executor is None:
        for batch in batches:
            results += play_batch(plan, batch, limit, language)
            if progress:
                progress(len(batch))
        return results
    futures: list[Future[list[GameResult]]] = [executor.submit(play_batch, plan, b, limit, language) for b in batches]
    try:
        for future in as_completed(futures):
            done = future.result()
            results += done
            if progress:
                progress(len(done))
    finally:
        for future in futures:
            future.cancel()
    return sorted(results, key=lambda result: result.index)


def default_workers() -> int:
    return os.cpu_count() or 1


@contextlib.contextmanager
def local_executor(workers: int) -> Iterator[Executor | None]:
    """Worker processes on this machine; none for one worker (the games run in this process).
    Spawned, not forked: the caller may have threads running (a progress bar) when they start."""
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@contextlib.contextmanager
def dask_executor(address: str, workers: int) -> Iterator[Executor]:
    """Dask's executor: ``local`` starts a cluster of ``workers`` processes here, else ``tcp://host:port``
    connects to a running scheduler (whose workers must have Stammtisch installed)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise TournamentError(_("running on a cluster needs Dask: pip install 'stammtisch[cluster]'")) from None
    with contextlib.ExitStack() as stack:
        if address == "local":
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1,
                                                       dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(address, timeout=10))
            except OSError as error:
                raise TournamentError(_("cannot reach the Dask scheduler at {address}: {error}").format(
                    address=address, error=error)) from None
        yield client.get_executor()
