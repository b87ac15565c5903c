"""Steps per CPU second of random play through the bare engine, the PettingZoo environment and the
OpenSpiel game (issue #12), one core, for each table (CPU time, so other jobs on the machine
disturb the figures less than wall time would).

    PYTHONPATH=src .venv/bin/python tools/measure_research.py [games per figure]

engine: ``legal_actions`` + ``apply``.  PettingZoo: ``last()`` (the acting seat's encoded view and
mask) + ``step``, random masked actions.  OpenSpiel: ``legal_actions`` + ``apply_action``; and again
with the acting player's observation tensor at every step, read through an observer
(``open_spiel.python.observation.make_observation``).  Layouts are built before timing.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

from stammtisch.registry import make_game
from stammtisch.research.openspiel import short_name
from stammtisch.research.pettingzoo import env

TABLES = [("diemacher", 3), ("diemacher", 5), ("glueckauf", 2), ("glueckauf", 4)]


def engine(name: str, players: int, games: int) -> float:
    game, steps, start = make_game(name, players), 0, time.process_time()
    for seed in range(games):
        rng, (state, _events) = random.Random(seed), game.new_state(seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            game.apply(state, seat, legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.process_time() - start)


def pettingzoo(name: str, players: int, games: int) -> float:
    environment, steps = env(name, players), 0
    environment.reset(seed=0)
    start = time.process_time()
    for seed in range(games):
        environment.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in environment.agent_iter():
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - start)


def openspiel(name: str, players: int, games: int, observe: bool) -> float:
    game, steps = pyspiel.load_game(short_name(name), {"players": players}), 0
    observer = make_observation(game)
    rng, start = np.random.RandomState(0), time.process_time()
    for _game in range(games):
        state = game.new_initial_state()
        while state.is_chance_node():  # the deal
            state.apply_action(rng.choice(state.legal_actions()))
        while not state.is_terminal():
            if observe:
                observer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.process_time() - start)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print("| Game | Players | Engine | PettingZoo | OpenSpiel | OpenSpiel + observation |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, players in TABLES:
        figures = (engine(name, players, games), pettingzoo(name, players, games),
                   openspiel(name, players, games, False), openspiel(name, players, games, True))
        print(f"| {name} | {players} | " + " | ".join(f"{rate:,.0f}" for rate in figures) + " |")


if __name__ == "__main__":
    main()
