"""Playing a tournament: reproducible from its arguments, the same on any number of workers and on
a Dask cluster, one game replayable alone (tournament/play.py)."""

from __future__ import annotations

import itertools
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from distributed import Client, LocalCluster

from stammtisch.registry import game_spec
from stammtisch.tournament import play, report, stats
from stammtisch.tournament.schedule import Plan, TournamentError, plan


def outcome(tournament: Plan, results: list[play.GameResult]) -> dict[str, Any]:
    """The JSON report without the part that may differ between runs (timing, workers)."""
    kinds = stats.kind_stats(tournament, results)
    data = report.to_json(tournament, results, kinds, report.Run(1, None, 0.0))
    del data["run"]
    return data


@pytest.fixture(scope="module")
def tournament() -> Plan:
    return plan("glueckauf", 2, ["heuristic", "random"], 8, seed=21)


@pytest.fixture(scope="module")
def here(tournament: Plan) -> list[play.GameResult]:
    return play.run(tournament)


def test_games_are_played_in_order_with_the_planned_bots(tournament: Plan, here: list[play.GameResult]) -> None:
    assert [r.index for r in here] == list(range(tournament.games))
    for r in here:
        assert len(r.scores) == 2 and r.winners and set(r.winners) <= {0, 1}
        assert all(count > 0 for count in r.decisions)
    assert outcome(tournament, play.run(tournament)) == outcome(tournament, here)  # reproducible


def test_one_game_alone_is_the_game_of_the_tournament(tournament: Plan, here: list[play.GameResult]) -> None:
    result, match = play.play(tournament, tournament.job(5))
    assert (result.scores, result.winners) == (here[5].scores, here[5].winners)
    assert match.record.header.seed == tournament.job(5).game_seed


def test_a_different_seed_plays_different_games(tournament: Plan, here: list[play.GameResult]) -> None:
    other = plan("glueckauf", 2, ["heuristic", "random"], 8, seed=22)
    assert [r.scores for r in play.run(other)] != [r.scores for r in here]


@pytest.mark.parametrize("workers", [2, 3])
def test_results_do_not_depend_on_the_number_of_workers(tournament: Plan, here: list[play.GameResult],
                                                        workers: int) -> None:
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        done: list[int] = []
        results = play.run(tournament, pool, workers=workers, progress=done.append)
    assert sum(done) == tournament.games and len(done) > 1  # several batches
    assert outcome(tournament, results) == outcome(tournament, here)


def test_results_on_a_local_dask_cluster_equal_the_local_run(tournament: Plan, here: list[play.GameResult]) -> None:
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        results = play.run(tournament, client.get_executor(), workers=2)
    assert outcome(tournament, results) == outcome(tournament, here)


def test_a_game_over_its_time_limit_stops_the_tournament(monkeypatch: pytest.MonkeyPatch, tournament: Plan) -> None:
    clock = itertools.count(step=10.0)  # every look at the clock finds 10 s more
    monkeypatch.setattr(play.time, "monotonic", lambda: next(clock))
    with pytest.raises(TournamentError, match=r"game 0 took longer than 15 s; play it alone with --only 0"):
        play.run(tournament, limit=15)


def test_an_illegal_choice_names_the_game_and_the_bot(monkeypatch: pytest.MonkeyPatch, tournament: Plan) -> None:
    class Stubborn:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
            return ("no such action",)

    spec = game_spec("glueckauf")
    monkeypatch.setattr(type(spec), "bot", lambda self, kind, seed: Stubborn(seed))
    with pytest.raises(TournamentError, match=r"game 0: the heuristic bot of seat 0 chose \('no such action',\)"):
        play.run(tournament)


def test_every_line_up_of_a_longer_list_is_played(three_kinds: None) -> None:
    tournament = plan("glueckauf", 2, ["heuristic", "random", "lazy"], 6, seed=3)
    results = play.run(tournament)
    kinds = stats.kind_stats(tournament, results)
    assert [(k.kind, k.seat_games) for k in kinds] == [("heuristic", 4), ("random", 4), ("lazy", 4)]
    assert sum(k.wins for k in kinds) == pytest.approx(6)
