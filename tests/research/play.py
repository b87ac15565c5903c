"""Games played by the heuristic bots, the easy search bot on a small budget, or uniformly random
choices: every state they pass through, for the checks of issue 27 item 2."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from stammtisch.bots.base import decide
from stammtisch.bots.strengths import EasyBot
from stammtisch.engine.protocol import Game
from stammtisch.registry import game_spec

# The easy search bot with a budget the shared test machine affords: a few short playouts per decision.
SMALL_EASY = dataclasses.replace(EasyBot.settings, iterations=3, seconds=None, depth=20)


def bots(game: Game[Any], play: str, seed: int) -> list[Any]:
    """``"heuristic"``: every seat the heuristic bot; ``"easy"``: seat 0 the easy search bot, the others
    heuristic; ``"random"``: uniformly random choices."""
    spec = game_spec(game.name)
    kind = "random" if play == "random" else "heuristic"
    seats = [spec.bot(kind, seed * 10 + seat) for seat in range(game.num_players)]
    if play == "easy":
        seats[0] = EasyBot(seed, SMALL_EASY)
    return seats


def states(game: Game[Any], play: str, seed: int) -> Iterator[Any]:
    """The state before every decision of one game, then the final state (the same object, changed
    in place: read it before the next is asked for)."""
    players = bots(game, play, seed)
    state, _events = game.new_state(seed)
    while not game.is_over(state):
        yield state
        seat = game.to_act(state)[0]
        game.apply(state, seat, decide(players[seat], game, state, seat))
    yield state


def played(game: Game[Any], play: str, seed: int) -> Any:
    """The final state of one game."""
    return deque(states(game, play, seed), maxlen=1)[0]


def random_state(game: Game[Any], seed: int, steps: int) -> Any:
    """The state after ``steps`` random decisions."""
    rng = random.Random(seed)
    state, _events = game.new_state(seed)
    for _ in range(steps):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.randrange(len(legal))])
    return state
