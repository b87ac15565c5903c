"""The PettingZoo environments (issue #12): PettingZoo's own api, seed and render tests at every table,
and the promises docs/research.md makes about observations, masks, sealed turns and rewards."""

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from stammtisch.engine.protocol import IllegalAction
from stammtisch.research.pettingzoo import env
from tests.research.tables import IDS, TABLES

# PettingZoo warns about every dict observation (the documented form with an action mask).
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


@pytest.mark.parametrize(("game", "players"), TABLES, ids=IDS)
def test_pettingzoo_api_test(game, players):
    api_test(env(game, players), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=IDS)
def test_pettingzoo_seed_test(game, players):
    seed_test(lambda: env(game, players), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=IDS)
def test_pettingzoo_render_test(game, players):
    render_test(lambda render_mode=None: env(game, players, render_mode=render_mode))


def play_out(environment, seed):
    """Random masked actions until the game ends; the final (rewards, scores)."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _info = environment.last()
        rewards[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    game, state = environment.table.game, environment.match.state
    return rewards, game, state


@pytest.mark.parametrize("game", ["diemacher", "glueckauf"])
def test_rewards_are_the_final_scores_or_the_win(game):
    rewards, engine, state = play_out(env(game), seed=5)
    assert engine.is_over(state)
    assert list(rewards.values()) == [float(points) for points in engine.scores(state)]
    wins, engine, state = play_out(env(game, rewards="win"), seed=5)
    assert [seat for seat, won in enumerate(wins.values()) if won == 1.0] == engine.winners(state)
    assert set(wins.values()) <= {0.0, 1.0}


def test_observation_is_the_seats_view_encoded_and_the_mask_is_the_codecs():
    environment = env("glueckauf", 3)
    environment.reset(seed=3)
    match, table = environment.match, environment.table
    for agent in environment.possible_agents:
        seat = environment.possible_agents.index(agent)
        observed = environment.observe(agent)
        assert np.array_equal(observed["observation"], table.layout.encode(match.view(seat)))
        expected = table.codec.mask(match.state, seat) if seat in match.to_act() else bytearray(table.codec.size)
        assert observed["action_mask"].tolist() == list(expected)


def test_an_illegal_action_is_refused_and_changes_nothing():
    environment = env("diemacher", 3)
    environment.reset(seed=1)
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    before = environment.observe(agent)["observation"]
    with pytest.raises(IllegalAction):
        environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.agent_selection == agent
    assert np.array_equal(environment.observe(agent)["observation"], before)


def until_sealed(environment, seed):
    """Play the lowest legal code until a sealed decision with two seats to act, the acting one with a
    choice; return the codes played."""
    environment.reset(seed=seed)
    played = []
    while True:
        match = environment.match
        mask = environment.observe(environment.agent_selection)["action_mask"]
        if match.game.sealed(match.state) and len(match.to_act()) > 1 and mask.sum() > 1:
            return played
        played.append(int(np.flatnonzero(mask)[0]))
        environment.step(played[-1])


def test_a_sealed_choice_is_not_seen_by_the_other_seats_before_the_reveal():
    # die-macher.md §6: the seats choose their sealed decisions unseen; the env asks them in turn.
    first, second = env("diemacher", 3), env("diemacher", 3)
    played = until_sealed(first, seed=2)
    second.reset(seed=2)
    for code in played:
        second.step(code)
    mover = first.agent_selection
    choices = np.flatnonzero(first.observe(mover)["action_mask"])
    first.step(int(choices[0]))
    second.step(int(choices[-1]))
    waiting = [agent for agent in first.possible_agents
               if first.possible_agents.index(agent) in first.match.to_act()]
    assert waiting and mover not in waiting
    for agent in waiting:
        assert np.array_equal(first.observe(agent)["observation"], second.observe(agent)["observation"])
        assert np.array_equal(first.observe(agent)["action_mask"], second.observe(agent)["action_mask"])


def test_ansi_render_is_the_spectators_terminal_board():
    environment = env("glueckauf", 2, render_mode="ansi")
    environment.reset(seed=4)
    text = environment.render()
    assert text == environment.table.render(environment.match.state)
    assert "Shift 1 of 3" in text


def test_state_is_every_seats_observation():
    # issue 27 item 2: state() was missing.  The global state for centralised training is every
    # seat's observation in seat order: what any seat knows, never what no seat knows.
    environment = env("diemacher", 3)
    environment.reset(seed=2)
    for _ in range(25):
        environment.step(int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[0]))
    state = environment.state()
    assert environment.state_space.contains(state)
    layout, match = environment.table.layout, environment.match
    assert np.array_equal(state, np.concatenate([layout.encode(match.view(seat)) for seat in range(3)]))
    own = [layout.decode(part)["board"]["seats"][seat].get("hand") for seat, part in
           enumerate(np.split(state, 3))]
    assert own == [sorted(match.state.players[seat].hand) for seat in range(3)]
