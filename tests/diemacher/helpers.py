"""Helpers that build Die Macher situations for the worked examples.

Tests set up a situation by writing the state directly (the rulebook examples start in the
middle of a game), then act only through ``engine.step``, as a player would."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from stammtisch.engine.protocol import Action, Event
from stammtisch.engine.snapshot import field_names
from stammtisch.engine.step import step
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import NOBODY, Board, State

TOPICS = ("education", "digitization", "genetic_engineering", "national_security", "welfare_state",
          "environment", "traffic")


def card(name: str) -> int:
    """'+education' -> its card number; '−traffic' or '-traffic' -> the minus card."""
    sign, topic = name[0], name[1:]
    return TOPICS.index(topic) * 2 + (0 if sign == "+" else 1)


def new_game(players: int = 3, seed: int = 1, **options: Any) -> tuple[DieMacher, State]:
    game = DieMacher(players, options)
    state, _ = game.new_state(seed)
    return game, state


def act(game: DieMacher, state: State, seat: int, action: Action) -> list[Event]:
    return step(game, state, seat, action)


def play_first(game: DieMacher, state: State, until: str, limit: int = 5000) -> None:
    """Play the first legal action for whoever acts until the phase is ``until``."""
    for _ in range(limit):
        if state.phase == until and state.program_change is None and state.poll_in_hand == NOBODY:
            return
        seat = game.to_act(state)[0]
        step(game, state, seat, game.legal_actions(state, seat)[0])
    raise AssertionError(f"phase {until} never reached (stuck in {state.phase})")


def play_random(game: DieMacher, state: State, rng: random.Random, until: str | None = None) -> None:
    while not game.is_over(state) and state.phase != until:
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))


def random_decisions(game: DieMacher, state: State, rng: random.Random) -> Iterator[tuple[int, list[Action]]]:
    """Each decision of a random game to its end, (seat, legal actions), before a random one is taken."""
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        yield seat, legal
        step(game, state, seat, rng.choice(legal))


def program(*names: str) -> list[int]:
    return [card(n) for n in names]


def set_opinions(board: Board, names: list[str], doubled: int = NOBODY) -> None:
    board.opinions = program(*names)
    board.face_up = [True] * len(names)
    board.doubled = doubled


def snapshot(obj: Any) -> Any:
    """Every field of a state, recursively, for exact comparisons."""
    if hasattr(type(obj), "__slots__") or hasattr(type(obj), "__mypyc_attrs__"):
        return {name: snapshot(getattr(obj, name)) for name in field_names(type(obj))}
    if isinstance(obj, list | tuple):
        return [snapshot(x) for x in obj]
    if isinstance(obj, dict):
        return {k: snapshot(v) for k, v in obj.items()}
    return obj
