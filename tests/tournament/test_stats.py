"""Win rates with intervals, split wins, places, margins and ratings (tournament/stats.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from stammtisch.tournament.play import GameResult
from stammtisch.tournament.schedule import GameJob, Plan, plan
from stammtisch.tournament.stats import bootstrap, kind_stats, margins, places, ratings, wilson, win_shares


def test_wilson_interval_of_8_wins_in_10() -> None:
    # By hand, z = 1.959964: p = 0.8, z²/n = 0.384146, centre = (0.8 + 0.192073) / 1.384146 = 0.716740,
    # half = 1.959964 / 1.384146 × √(0.016 + 0.009604) = 0.226573, so 0.4902–0.9433.
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_of_no_wins_and_of_every_win() -> None:
    # x = 0: the interval is 0 to z² / (n + z²) = 3.841459 / 27.841459 = 0.13798 for n = 24.
    assert wilson(0, 24) == pytest.approx((0.0, 0.13798), abs=1e-5)
    low, high = wilson(24, 24)
    assert (low, high) == pytest.approx((1 - 0.13798, 1.0), abs=1e-5)


def test_wilson_interval_narrows_with_more_games_and_takes_split_wins() -> None:
    widths = [high - low for low, high in (wilson(n / 2, n) for n in (10, 100, 1000))]
    assert widths[0] > widths[1] > widths[2]
    # Half a win more than 2 of 10 lies between the intervals of 2 and 3 of 10.
    assert wilson(2, 10)[0] < wilson(2.5, 10)[0] < wilson(3, 10)[0]


def test_a_shared_win_is_split() -> None:
    assert win_shares(3, [1]) == [0.0, 1.0, 0.0]
    assert win_shares(4, [0, 2]) == [0.5, 0.0, 0.5, 0.0]
    assert win_shares(3, [0, 1, 2]) == pytest.approx([1 / 3] * 3)


def test_winners_share_first_place_and_the_others_follow_by_score() -> None:
    assert places([10, 30, 20], [1]) == [3.0, 1.0, 2.0]
    assert places([10, 30, 30, 5], [1, 2]) == [3.0, 1.5, 1.5, 4.0]
    assert places([30, 10, 10], [0]) == [1.0, 2.5, 2.5]
    # glueck-auf.md: equal VP, the one with more Marks kept wins alone; the other is second.
    assert places([30, 30, 10], [1]) == [2.0, 1.0, 3.0]


def test_margin_is_against_the_best_other_seat() -> None:
    assert margins([10, 30, 25]) == [-20, 5, -5]
    assert margins([30, 30, 4]) == [0, 0, -26]


def result(index: int, scores: list[int], winners: list[int]) -> GameResult:
    return GameResult(index, tuple(scores), tuple(winners), (1,) * len(scores), (0.0,) * len(scores))


def test_per_kind_figures_of_a_hand_made_tournament() -> None:
    tournament = plan("glueckauf", 3, ["heuristic", "random"], 6)  # heuristic in seat 0, 1, 2, 0, 1, 2
    assert [job.kinds.index("heuristic") for job in tournament.jobs()] == [0, 1, 2, 0, 1, 2]
    results = [result(0, [50, 10, 20], [0]), result(1, [30, 30, 0], [0, 1]), result(2, [9, 8, 9], [0, 2]),
               result(3, [5, 40, 20], [1]), result(4, [7, 7, 7], [0, 1, 2]), result(5, [1, 2, 60], [2])]
    heuristic, random = kind_stats(tournament, results)
    assert (heuristic.kind, heuristic.seat_games, random.seat_games) == ("heuristic", 6, 12)
    assert heuristic.wins == pytest.approx(1 + 1 / 2 + 1 / 2 + 0 + 1 / 3 + 1)
    assert heuristic.wins + random.wins == pytest.approx(6)  # every game gives out one win
    assert heuristic.win_rate == pytest.approx(heuristic.wins / 6)
    assert (heuristic.wilson_low, heuristic.wilson_high) == pytest.approx(wilson(heuristic.wins, 6))
    # The interval resamples the two deals (games 0-2 and 3-5): heuristic won 2 of deal 0's 3 seat-games
    # and 4/3 of deal 1's, so a resample's rate is 2/3, 5/9 or 4/9, each end drawn in a quarter of them.
    assert heuristic.deals == 2
    assert (heuristic.win_low, heuristic.win_high) == pytest.approx((4 / 9, 2 / 3))
    assert heuristic.mean_place == pytest.approx((1 + 1.5 + 1.5 + 3 + 2 + 1) / 6)
    assert heuristic.mean_margin == pytest.approx((30 + 0 + 0 - 35 + 0 + 58) / 6)
    assert heuristic.mean_score == pytest.approx((50 + 30 + 9 + 5 + 7 + 60) / 6)


def test_ratings_follow_the_places() -> None:
    tournament = plan("glueckauf", 2, ["heuristic", "random"], 20)
    wins = [result(job.index, [10 if kind == "heuristic" else 0 for kind in job.kinds],
                   [job.kinds.index("heuristic")]) for job in tournament.jobs()]
    rated = ratings(tournament, wins)
    assert rated["heuristic"].mu > 25 > rated["random"].mu
    assert rated["heuristic"].sigma < 25 / 3
    ties = [result(job.index, [5, 5], [0, 1]) for job in tournament.jobs()]
    even = ratings(tournament, ties)
    assert even["heuristic"].mu == pytest.approx(even["random"].mu)


def test_a_kind_in_several_seats_is_rated_by_the_mean_of_its_seats() -> None:
    # Three random bots and one heuristic bot; the heuristic bot always ties for last place, and the
    # random seats' places differ only among themselves.
    tournament = plan("diemacher", 4, ["heuristic", "random"], 8)
    games = []
    for job in tournament.jobs():
        scores, points = [], 30
        for kind in job.kinds:
            scores.append(0 if kind == "heuristic" else points)
            points -= 0 if kind == "heuristic" else 10
        games.append(result(job.index, scores, [scores.index(max(scores))]))
    rated = ratings(tournament, games)
    assert rated["heuristic"].mu < 25 < rated["random"].mu


def deal_results(tournament: Plan, winner: Callable[[GameJob], str]) -> list[GameResult]:
    """One result per game, the seat of kind ``winner(job)`` winning it."""
    return [result(job.index, [1 if kind == winner(job) else 0 for kind in job.kinds],
                   [job.kinds.index(winner(job))]) for job in tournament.jobs()]


def test_the_interval_resamples_deals_not_seat_games() -> None:
    # 20 deals, each in both rotations.  When a deal's two seat-games go the same way (the deal decides,
    # not the seat), the 40 seat-games hold only 20 independent outcomes: the interval over deals must be
    # wider than one that treats the seat-games as independent (each game its own unit, or Wilson's).
    tournament = plan("glueckauf", 2, ["heuristic", "random"], 40)
    assert (tournament.deals, tournament.games) == (20, 40)
    correlated = deal_results(tournament, lambda job: "heuristic" if job.deal % 2 else "random")
    heuristic = kind_stats(tournament, correlated)[0]
    assert heuristic.win_rate == 0.5 and heuristic.deals == 20
    seat_games = [(win_shares(2, g.winners)[tournament.job(g.index).kinds.index("heuristic")], 1) for g in correlated]
    per_game = bootstrap(seat_games, random.Random(1))
    deal_width = heuristic.win_high - heuristic.win_low
    assert deal_width > 1.25 * (per_game[1] - per_game[0])  # √2 in theory
    assert deal_width > heuristic.wilson_high - heuristic.wilson_low
    # When the rotations of each deal split (each seat wins once), the deals agree exactly: no spread at all.
    split = deal_results(tournament, lambda job: "heuristic" if job.rotation else "random")
    even = kind_stats(tournament, split)[0]
    assert (even.win_rate, even.win_low, even.win_high) == (0.5, 0.5, 0.5)


def test_the_bootstrap_by_hand() -> None:
    assert bootstrap([(1.0, 1)], random.Random(0)) == (0.0, 1.0)  # one deal: no interval
    assert bootstrap([(1.0, 2), (1.0, 2), (1.0, 2)], random.Random(0)) == (0.5, 0.5)
    low, high = bootstrap([(float(d % 2), 1) for d in range(400)], random.Random(0))
    assert low == pytest.approx(0.5 - 1.96 * 0.025, abs=0.01) and high == pytest.approx(0.5 + 1.96 * 0.025, abs=0.01)
