"""The OpenSpiel games (issue #12): OpenSpiel's random_sim_test at every table, its ISMCTS and MCTS
bots through whole games, and resampling from an information state."""

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from stammtisch.bots.base import RandomBot, decide
from stammtisch.engine.match import Match
from stammtisch.engine.registry import make_game
from stammtisch.research.openspiel import OpenSpielBot, short_name
from stammtisch.research.openspiel import ismcts as ismcts_maker
from tests.research.tables import IDS, TABLES


def load(game, **params):
    return pyspiel.load_game(short_name(game), params)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=IDS)
def test_random_sim_test(game, players):
    pyspiel.random_sim_test(load(game, players=players), num_sims=1, serialize=False, verbose=False)


def test_the_games_are_registered_as_sequential_imperfect_information_with_sampled_chance():
    for game in ("diemacher", "glueckauf"):
        kind = load(game).get_type()
        assert kind.short_name == f"python_stammtisch_{game}"
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_table_options_are_game_parameters():
    assert load("diemacher", players=4, elections=7).table.game.options["elections"] == 7
    from_json = load("diemacher", players=4, options=json.dumps({"parties": ["SPD", "CDU", "FDP", "GRUENE"]}))
    assert from_json.table.game.options["parties"] == ["SPD", "CDU", "FDP", "GRUENE"]
    assert load("glueckauf", players=3).num_distinct_actions() == make_game("glueckauf", 3).action_codec(3).size
    with pytest.raises(ValueError, match="elections"):
        load("diemacher", elections=5)


def test_resample_from_infostate_keeps_the_information_state():
    game = load("diemacher", players=3, rng_seed=4)
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sample = state.resample_from_infostate(player, lambda: rng.uniform())
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.information_state_tensor(player) == state.information_state_tensor(player)
    assert sample.legal_actions() == state.legal_actions()
    samples = [str(state.resample_from_infostate(player, lambda: rng.uniform())) for _ in range(5)]
    assert any(text != str(state) for text in samples)  # hidden parts (hands, decks) are drawn anew


def play_with_search_bots(game, players, seed):
    """ISMCTS for seat 0, MCTS (searching a state resampled from its seat's information) for the
    others, with small budgets; the final state."""
    loaded = load(game, players=players, rng_seed=seed, rewards="win")
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=20)
    information_set = ismcts.ISMCTSBot(loaded, evaluator, 2.0, 4, random_state=rng)  # consistent action sets
    perfect = mcts.MCTSBot(loaded, 2.0, 4, evaluator, solve=False, random_state=rng)
    state = loaded.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == 0:
            action = information_set.step(state)
        else:
            action = perfect.step(state.resample_from_infostate(player, lambda: rng.uniform()))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize(("game", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_openspiel_ismcts_and_mcts_play_whole_games(game, players):
    state = play_with_search_bots(game, players, seed=1)
    assert state.is_terminal()
    assert sum(state.returns()) >= 1.0  # somebody won
    assert state.engine.table.game.is_over(state.engine.state)


def test_an_openspiel_bot_plays_as_a_stammtisch_search_bot():
    game = make_game("glueckauf", 2)
    bots = [OpenSpielBot(ismcts_maker(simulations=2), seed=1), RandomBot(2)]
    match = Match(game, 3)
    for _ in range(30):
        seat = match.to_act()[0]
        match.act(seat, decide(bots[seat], game, match.state, seat))  # strict: an illegal choice raises
    assert len(match.record.moves) == 30
