"""Line-ups from --bots, their rotations, mirrored deals and seeds (tournament/schedule.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from stammtisch.tournament.schedule import MAX_GAMES, TournamentError, line_ups, plan, rotated


def test_exactly_n_kinds_are_one_line_up_as_given() -> None:
    assert line_ups(["heuristic", "random", "random"], 3) == (("heuristic", "random", "random"),)


def test_fewer_kinds_than_seats_the_last_fills_the_rest() -> None:
    assert line_ups(["hard", "heuristic"], 4) == (("hard", "heuristic", "heuristic", "heuristic"),)
    assert line_ups(["easy", "normal", "heuristic"], 5) == (("easy", "normal", "heuristic", "heuristic", "heuristic"),)
    assert line_ups(["random"], 2) == (("random", "random"),)


def test_more_kinds_than_seats_give_every_choice_of_n() -> None:
    assert line_ups(["a", "b", "c", "d"], 3) == (("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d"))
    with pytest.raises(TournamentError, match="each kind may be named only once"):
        line_ups(["a", "b", "a", "c"], 3)


def test_rotation_r_seats_kind_i_in_seat_i_plus_r() -> None:
    assert rotated(("a", "b", "c", "d"), 0) == ("a", "b", "c", "d")
    assert rotated(("a", "b", "c", "d"), 1) == ("d", "a", "b", "c")
    assert rotated(("a", "b", "c", "d"), 3) == ("b", "c", "d", "a")


def test_every_kind_sits_in_every_seat_equally_often() -> None:
    tournament = plan("diemacher", 4, ["heuristic", "random"], 8)
    seated = Counter((kind, seat) for job in tournament.jobs() for seat, kind in enumerate(job.kinds))
    deals = tournament.deals
    assert seated == {**{("heuristic", seat): deals for seat in range(4)},
                      **{("random", seat): 3 * deals for seat in range(4)}}


def test_every_rotation_plays_the_same_deal_seed() -> None:
    tournament = plan("glueckauf", 3, ["heuristic", "random"], 30, seed=7)
    seeds_by_deal: dict[int, set[int]] = {}
    for job in tournament.jobs():
        seeds_by_deal.setdefault(job.deal, set()).add(job.game_seed)
    assert seeds_by_deal == {deal: {7 + deal} for deal in range(tournament.deals)}
    rotations = Counter(job.deal for job in tournament.jobs())
    assert set(rotations.values()) == {3}


def test_every_line_up_plays_the_same_deals(three_kinds: None) -> None:
    tournament = plan("glueckauf", 2, ["heuristic", "random", "lazy"], 12, seed=5)
    assert tournament.line_ups == (("heuristic", "random"), ("heuristic", "lazy"), ("random", "lazy"))
    assert (tournament.deals, tournament.games) == (2, 12)
    played = Counter((job.line_up, job.game_seed) for job in tournament.jobs())
    assert played == {(line_up, seed): 2 for line_up in range(3) for seed in (5, 6)}  # 2 rotations each
    assert tournament.kinds() == ["heuristic", "random", "lazy"]


def test_games_are_rounded_up_to_whole_rotations_and_bot_seeds_differ() -> None:
    tournament = plan("glueckauf", 3, ["heuristic", "random"], 10, seed=3)
    assert (tournament.deals, tournament.games) == (4, 12)
    jobs = tournament.jobs()
    assert [job.index for job in jobs] == list(range(12))
    assert [(job.deal, job.rotation) for job in jobs[:4]] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    seeds = [seed for job in jobs for seed in job.bot_seeds]
    assert len(set(seeds)) == len(seeds)
    assert tournament.job(5) == jobs[5]


@pytest.mark.parametrize(("players", "bots", "games", "message"), [
    (3, ["heuristic", "clever"], 10, "unknown bot kind 'clever'; choose one of heuristic, easy, normal, hard, random"),
    (6, ["heuristic", "random"], 10, "diemacher is played by 3–5 players, not 6"),
    (2, ["heuristic", "random"], 10, "diemacher is played by 3–5 players, not 2"),
    (3, ["heuristic", ""], 10, "--bots needs a comma-separated list"),
    (3, ["heuristic", "random"], 0, "a tournament plays 1–20000 games"),
    (3, ["heuristic", "random"], MAX_GAMES + 1, "a tournament plays 1–20000 games"),
])
def test_bad_arguments_are_named(players: int, bots: list[str], games: int, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        plan("diemacher", players, bots, games)


def test_a_game_outside_the_tournament() -> None:
    with pytest.raises(TournamentError, match="game 12 is not in this tournament; its games are 0–11"):
        plan("glueckauf", 3, ["heuristic", "random"], 12).job(12)
