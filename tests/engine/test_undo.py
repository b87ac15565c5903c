"""Undo within one's own turn (design.md: as Board Game Arena; issue 4)."""

from __future__ import annotations

import random

import pytest

from stammtisch.engine.step import step
from stammtisch.engine.undo import chance_draws, undoable
from stammtisch.games import make_game
from stammtisch.games.diemacher.phases.program import MODE
from tests.diemacher.helpers import snapshot


@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_undoable_moves_reveal_nothing_and_keep_the_turn(name: str, players: int) -> None:
    game = make_game(name, players, {})
    found = {True: 0, False: 0}
    for seed in range(6):
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            before, draws = game.copy(state), chance_draws(state)
            events = step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
            can = undoable(game, draws, state, seat, events)
            found[can] += 1
            if can:
                assert seat in game.to_act(state)
                assert all(e.seats is None for e in events)
                assert snapshot(before.chance) == snapshot(state.chance)
    assert found[True] > 0 and found[False] > 0


def test_drawing_a_blind_program_card_cannot_be_undone() -> None:
    game = make_game("diemacher", 3, {})
    state, _ = game.new_state(2)
    rng = random.Random(2)
    while not (state.program_change is not None and state.program_change.step == MODE):
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    draws = chance_draws(state)
    events = step(game, state, seat, ("draw_and_take",))
    assert not undoable(game, draws, state, seat, events)
    taken = game.legal_actions(state, seat)[0]
    events = step(game, state, seat, taken)
    assert undoable(game, chance_draws(state), state, seat, events)  # taking a face-up card reveals nothing
