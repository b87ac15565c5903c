"""OpenSpiel's ISMCTS as the tournament's outside reference (issue #12): named in a tournament only,
at the hard bot's CPU time per decision, deciding from its seat's knowledge alone."""

from __future__ import annotations

import dataclasses
import random

import pytest

from stammtisch.bots.base import bot_seed, decide
from stammtisch.bots.strengths import HardBot
from stammtisch.registry import game_spec, make_game
from stammtisch.research import openspiel
from stammtisch.tournament import entrants, outside, play, schedule
from tests.bots.test_ismcts import decision_points


@pytest.fixture
def no_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard bot's budget, and so the reference's, set to nothing: two simulations per decision."""
    monkeypatch.setattr(HardBot, "settings", dataclasses.replace(HardBot.settings, seconds=0.0))


def test_the_outside_reference_is_offered_by_the_tournament_only() -> None:
    for name in ("diemacher", "glueckauf"):
        assert "openspiel-ismcts" not in game_spec(name).bot_kinds()  # what lobby, play and the API offer
        with pytest.raises(ValueError, match="unknown bot kind"):
            game_spec(name).bot("openspiel-ismcts", 0)
    tournament = schedule.plan("glueckauf", 2, ["hard", "openspiel-ismcts"], 2)
    assert tournament.line_ups == (("hard", "openspiel-ismcts"),)


def test_the_outside_reference_thinks_as_long_as_the_hard_bot() -> None:
    bot = outside.bot(game_spec("glueckauf"), "openspiel-ismcts", 5)
    assert isinstance(bot, openspiel.HardTimedISMCTSBot)
    search = bot.make_bot(openspiel.load(make_game("glueckauf", 2)), 5)
    assert search.seconds == HardBot.settings.seconds


def test_a_timed_search_with_no_time_left_runs_two_simulations() -> None:
    loaded = openspiel.load(make_game("glueckauf", 2))
    search = openspiel.ismcts(seconds=0.0)(loaded, 0)
    state = loaded.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    action = search.step(state)
    assert search.simulations == openspiel.MIN_SIMULATIONS == 2  # the first only expands the root
    assert action in state.legal_actions()


@pytest.mark.usefixtures("no_time")
@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_the_outside_reference_ignores_what_its_seat_cannot_see(name: str, players: int) -> None:
    # Same knowledge, same seed -> same action, whatever lies hidden; without
    # allow_inconsistent_action_sets (the view decides the seat's legal actions).
    game = make_game(name, players)
    for state, seat in decision_points(game):
        other = game.resample(state, seat, random.Random(12345))
        assert game.view(other, seat) == game.view(state, seat)
        first = decide(openspiel.HardTimedISMCTSBot(3), game, state, seat)
        assert first == decide(openspiel.HardTimedISMCTSBot(3), game, other, seat)
        assert first in game.legal_actions(state, seat)


@pytest.mark.usefixtures("no_time")
def test_a_tournament_game_against_the_outside_reference_is_played_to_its_end() -> None:
    tournament = schedule.plan("glueckauf", 2, ["heuristic", "openspiel-ismcts"], 2)
    result, match = play.play(tournament, tournament.job(1))
    assert match.is_over()
    assert result.decisions[0] > 0 and result.decisions[1] > 0


@pytest.mark.usefixtures("no_time")
def test_the_outside_reference_takes_the_seeds_of_any_tournament() -> None:
    # A tournament's bot seeds exceed numpy's 32-bit legacy seeding from base seed 68 on (a tournament
    # with --seed 100 stopped with "Seed must be between 0 and 2**32 - 1"); equal seeds still give equal
    # generators, different ones different.
    large = bot_seed(100, 1, 1)
    assert large >= 2**32
    assert openspiel.numpy_random(large).randint(2**31) == openspiel.numpy_random(large).randint(2**31)
    assert openspiel.numpy_random(large).randint(2**31) != openspiel.numpy_random(large + 1).randint(2**31)
    tournament = schedule.plan("glueckauf", 2, ["heuristic", "openspiel-ismcts"], 2, seed=100)
    result, match = play.play(tournament, tournament.job(1))
    assert match.is_over() and result.decisions[1] > 0


@pytest.mark.usefixtures("no_time")
@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_the_outside_reference_rolls_out_with_the_heuristic_and_follows_its_preferences(name: str,
                                                                                         players: int) -> None:
    # Issue 27 item 3: with random rollouts at the hard bot's budget it played almost uniformly.  Its
    # rollouts are now the heuristic's and its children open in the heuristic's order, so two
    # simulations (one to open the root, one to try a move) play the heuristic's favourite.
    game, spec = make_game(name, players), game_spec(name)
    bot = outside.bot(spec, "openspiel-ismcts", 3)
    assert isinstance(bot, openspiel.HardTimedISMCTSBot)
    search = bot.make_bot(openspiel.load(game), 3)
    assert isinstance(search._evaluator, openspiel.BotRolloutEvaluator) and search.by_prior
    for state, seat in decision_points(game):
        legal = game.legal_actions(state, seat)
        preferences = spec.bot("heuristic", 0).preferences(game.view(state, seat), legal)  # type: ignore[attr-defined]
        chosen = decide(openspiel.HardTimedISMCTSBot(3), game, state, seat)
        assert preferences[legal.index(chosen)] == max(preferences)


def test_the_outside_reference_takes_a_budget_of_its_own() -> None:
    bot = entrants.make(game_spec("glueckauf"), "openspiel-ismcts@0.5", 1)
    assert isinstance(bot, openspiel.HardTimedISMCTSBot) and bot.seconds == 0.5
    assert bot.make_bot(openspiel.load(make_game("glueckauf", 2)), 1).seconds == 0.5
