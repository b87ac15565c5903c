"""The learned judge (bots/learned.py, tools/train-judge) and the search's opponent model
(``Settings.opponents``, ``bots.ismcts.NoisyPolicy``); docs/bots.md, "A learned judge"."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stammtisch.bots.base import decide, knowledge_of
from stammtisch.bots.ismcts import NoisyPolicy, PairedSearch, Search, SearchingBot
from stammtisch.bots.learned import LearnedJudge, Record, fit, game_module, learned_judge, predict, self_play
from stammtisch.bots.strengths import HardBot
from stammtisch.registry import game_spec, make_game
from stammtisch.tournament import outside
from tests.bots.test_ismcts import advance

ROOT = Path(__file__).resolve().parents[2]
TABLES = [("diemacher", 4), ("glueckauf", 3)]
QUICK = dataclasses.replace(HardBot.settings, iterations=12, seconds=None)  # no clock: reproducible


def staged_points(name: str, players: int) -> list[tuple[Any, int]]:
    """(state, seat) at decisions after the first shift (round) has ended, where the shipped
    weights judge (stages without weights fall back to the game's judge)."""
    game = make_game(name, players)
    judge = game_module(name).JUDGE
    found = []
    for seed in (1, 2):
        first = advance(game, seed, 10_000, until=lambda s: judge.stage(s) >= 2)
        for moves in (0, 30):
            state = advance_from(game, first, moves)
            seat = game.to_act(state)[0]
            found.append((state, seat))
    return found


def advance_from(game: Any, state: Any, moves: int) -> Any:
    spec = game_spec(game.name)
    state = game.copy(state)
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        game.apply(state, seat, decide(spec.bot("heuristic", seat), game, state, seat))
    return state


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_shipped_weights_load_and_cover_the_tables(name: str, players: int) -> None:
    judge = learned_judge(name)
    assert isinstance(judge, LearnedJudge)
    spec = game_spec(name)
    for table in range(spec.min_players, spec.max_players + 1):
        assert judge.weights[table], f"{name} {table}p has no weights"
        for weights in judge.weights[table].values():
            assert len(weights) == 1 + len(game_module(name).FEATURES)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_seats_estimate_reads_only_what_its_view_shows(name: str, players: int) -> None:
    # Issue 27 item 4: features from the seat's view.  A state resampled from the seat's
    # knowledge shows the seat the same view but differs in what is hidden from it; the learned
    # estimate of that seat must not change.
    game = make_game(name, players)
    judge = learned_judge(name)
    assert judge is not None
    for state, seat in staged_points(name, players):
        assert judge.stage(state) in judge.weights[players]
        other = game.resample(state, seat, random.Random(12345))
        assert game.view(other, seat) == game.view(state, seat)
        assert game.to_json(other) != game.to_json(state), "the two states must differ in hidden parts"
        assert judge.estimate(game, other)[seat] == judge.estimate(game, state)[seat]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_learned_estimate_is_the_linear_model_of_each_seats_view(name: str, players: int) -> None:
    game = make_game(name, players)
    judge = learned_judge(name)
    assert judge is not None
    module = game_module(name)
    state, _seat = staged_points(name, players)[0]
    weights = judge.weights[players][judge.stage(state)]
    expected = [predict(weights, module.features(game, game.view(state, s))) for s in range(players)]
    assert judge.estimate(game, state) == expected
    assert expected != module.JUDGE.estimate(game, state)


def test_a_stage_without_weights_is_judged_by_the_games_own_judge() -> None:
    game = make_game("glueckauf", 3)
    module = game_module("glueckauf")
    judge = LearnedJudge(module.JUDGE, module.features, {3: {}})
    state = advance(game, 1, 40)
    assert judge.estimate(game, state) == module.JUDGE.estimate(game, state)


def test_the_fit_recovers_a_linear_relation() -> None:
    rng = random.Random(0)
    records = []
    for _ in range(200):
        x = [rng.uniform(0, 10), rng.uniform(-5, 5)]
        records.append(Record(3, 2, x, 4.0 + 2.0 * x[0] - 3.0 * x[1]))
    weights = fit(records, ridge=0.0)[3][2]
    assert weights == pytest.approx([4.0, 2.0, -3.0], abs=1e-4)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_self_play_records_every_seat_at_every_stage(name: str, players: int) -> None:
    records = list(self_play(name, players, 1, 5, 0.5))
    stages = {r.stage for r in records}
    assert len(stages) >= 2
    assert len(records) == players * len(stages)
    assert all(len(r.features) == len(game_module(name).FEATURES) for r in records)


def test_the_training_command_writes_a_judge_file(tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin", "STAMMTISCH_PURE": "1"}
    done = subprocess.run([sys.executable, str(ROOT / "tools/train-judge"), "glueckauf", "--games", "5",
                           "--out", str(out)], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "held-out" in done.stdout
    text = out.read_text(encoding="utf-8")
    assert '"features"' in text and '"3"' in text


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_search_uses_the_learned_judge_when_asked(name: str, players: int) -> None:
    game = make_game(name, players)
    state, seat = staged_points(name, players)[0]
    plain = Search(game, knowledge_of(game, state, seat), seat, dataclasses.replace(QUICK, judge="game"),
                   random.Random(1))
    learned = Search(game, knowledge_of(game, state, seat), seat, dataclasses.replace(QUICK, judge="learned"),
                     random.Random(1))
    assert plain.judge is game_module(name).JUDGE
    assert learned.judge is learned_judge(name)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_opponent_model_plays_only_the_other_seats(name: str, players: int) -> None:
    # Settings.opponents: the other seats' playout moves come from the noisy policy, the asking
    # seat's own from the playout policy.
    game = make_game(name, players)
    state, seat = staged_points(name, players)[1]
    bot = SearchingBot(3, dataclasses.replace(QUICK, opponents=0.5))
    own, others = bot.policy(game), bot.policy(game, 0.5)
    assert isinstance(others, NoisyPolicy) and not isinstance(own, NoisyPolicy)
    movers: dict[str, set[int]] = {"own": set(), "others": set()}

    def watch(policy: Any, key: str) -> Any:
        def watched(g: Any, s: Any, mover: int, legal: list[Any], rng: random.Random) -> Any:
            movers[key].add(mover)
            return policy(g, s, mover, legal, rng)
        return watched

    search = PairedSearch(game, knowledge_of(game, state, seat), seat, bot.settings, random.Random(2),
                          watch(own, "own"), watch(others, "others"))
    search.run()
    assert movers["others"] and seat not in movers["others"]
    assert movers["own"] <= {seat}


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_noisy_opponents_prefer_as_the_heuristic_does_from_the_whole_view(name: str, players: int) -> None:
    game = make_game(name, players)
    spec = game_spec(name)
    for state, seat in staged_points(name, players):
        legal = game.legal_actions(state, seat)
        in_sample = spec.bot("heuristic", 1).preferences_in_sample(game, state, seat, legal)  # type: ignore[attr-defined]
        whole = spec.bot("heuristic", 1).preferences(game.view(state, seat), legal)  # type: ignore[attr-defined]
        assert in_sample == whole


@pytest.mark.parametrize("kind", ["hard-learned", "hard-opponents", "hard-both", "hard-to-end", "hard-wide"])
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_hard_variants_decide_from_knowledge_alone(name: str, players: int, kind: str) -> None:
    # As tests/bots/test_ismcts.py::test_decision_ignores_what_the_seat_cannot_see, for the
    # tournament's candidates (tournament/outside.py).
    game = make_game(name, players)
    bot = outside.bot(game_spec(name), kind, 5)
    assert isinstance(bot, SearchingBot)
    quick = dataclasses.replace(bot.settings, iterations=12, seconds=None)
    for state, seat in staged_points(name, players)[:2]:
        other = game.resample(state, seat, random.Random(4))
        first = decide(SearchingBot(5, quick), game, state, seat)
        assert first == decide(SearchingBot(5, quick), game, other, seat)


def test_the_variants_are_tournament_entrants_with_a_budget() -> None:
    from stammtisch.tournament import entrants

    spec = game_spec("glueckauf")
    assert "hard-learned" not in spec.bot_kinds()  # the lobby, play and the API offer the game's own kinds
    bot = entrants.make(spec, "hard-both@0.5", 1)
    assert isinstance(bot, SearchingBot)
    assert bot.settings.seconds == 0.5 and bot.settings.judge == "learned" and bot.settings.opponents == 0.5
    before = entrants.make(spec, "hard-game-judge", 1)
    assert isinstance(before, SearchingBot)
    assert before.settings == dataclasses.replace(HardBot.settings, judge="game")


def test_the_hard_bot_judges_its_playouts_with_the_learned_judge() -> None:
    # issue 27 item 4: kept because it won in the same tournament (docs/performance.md)
    assert HardBot.settings.judge == "learned" and HardBot.settings.rounds == 1
