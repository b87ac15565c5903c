"""Undo within one's own turn (design.md: as Board Game Arena; issue 4)."""

from __future__ import annotations

import json
import random

import pytest

from stammtisch.engine.match import Match
from stammtisch.engine.step import step
from stammtisch.engine.undo import chance_draws, undoable
from stammtisch.games.diemacher.phases.program import MODE
from stammtisch.registry import make_game
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


@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_match_takes_back_exactly_the_undoable_moves(name: str, players: int) -> None:
    """engine/match.py (issue #10 "Match everywhere"): a take-back restores the state and the record."""
    match = Match(make_game(name, players, {}), seed=3, undo=True)
    rng = random.Random(3)
    taken = refused = 0
    while not match.is_over() and taken < 5:
        seat = rng.choice(match.to_act())
        before, moves = json.dumps(match.game.to_json(match.state)), list(match.record.moves)
        draws = chance_draws(match.state)
        events = match.act(seat, rng.choice(match.legal_actions(seat)))
        if undoable(match.game, draws, match.state, seat, events):
            assert match.can_take_back(seat)
            [undone] = match.take_back(seat)
            assert (undone.kind, undone.params) == ("undo", {"seat": seat})
            assert json.dumps(match.game.to_json(match.state)) == before and match.record.moves == moves
            taken += 1
            match.act(seat, rng.choice(match.legal_actions(seat)))  # play on with another choice
        else:
            assert not match.can_take_back(seat)
            with pytest.raises(ValueError, match="no move to take back"):
                match.take_back(seat)
            refused += 1
    assert taken == 5 and refused > 0
