"""The generic observation layout (docs/research.md, "The observation layout"): named slots, the
digest that versions it, and that it encodes the seat's view and nothing else."""

import random

import numpy as np

from stammtisch.engine.registry import make_game
from stammtisch.research.observation import layout_for


def mid_game(game, seed, steps):
    rng = random.Random(seed)
    state, _events = game.new_state(seed)
    for _ in range(steps):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.randrange(len(legal))])
    return state


def test_every_slot_is_named_and_the_slots_hold_the_views_values():
    game = make_game("diemacher", 3)
    layout = layout_for(game)
    assert layout.size == len(layout.entries) == len(set(layout.entries))
    state = mid_game(game, seed=3, steps=40)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    observation = layout.encode(view)
    slot = layout.entries.index
    assert observation[slot(f"board.seats[{seat}].money")] == view["board"]["seats"][seat]["money"]
    assert observation[slot(f"phase = {view['phase']}")] == 1.0
    assert observation[slot("len(to_act)")] == len(view["to_act"])


def test_another_partys_hidden_money_is_not_encoded():
    # die-macher.md HI-01: without open money a party's money is hidden from the others.
    game = make_game("diemacher", 3)
    layout = layout_for(game)
    state = mid_game(game, seed=5, steps=30)
    other = (game.to_act(state)[0] + 1) % 3
    observation = layout.encode(game.view(state, game.to_act(state)[0]))
    assert game.view(state, other)["board"]["seats"][other]["money"] > 0
    assert observation[layout.entries.index(f"board.seats[{other}].money is null")] == 1.0
    assert observation[layout.entries.index(f"board.seats[{other}].money")] == 0.0


def test_a_resampled_state_gives_the_seat_the_same_observation():
    for name, players in (("diemacher", 4), ("glueckauf", 3)):
        game = make_game(name, players)
        layout = layout_for(game)
        state = mid_game(game, seed=8, steps=50)
        seat = game.to_act(state)[0]
        sample = game.resample(state, seat, random.Random(1))
        assert np.array_equal(layout.encode(game.view(sample, seat)), layout.encode(game.view(state, seat)))


def test_the_digest_versions_the_table():
    plain = layout_for(make_game("diemacher", 3))
    assert layout_for(make_game("diemacher", 3)) is plain  # built once per table
    assert layout_for(make_game("diemacher", 3, {"open_money": True})).digest != plain.digest
    assert layout_for(make_game("diemacher", 4)).digest != plain.digest
    assert len(plain.digest) == 16


def test_values_without_a_slot_are_counted_and_leave_zeros():
    game = make_game("glueckauf", 2)
    layout = layout_for(game)
    state = mid_game(game, seed=2, steps=10)
    view = game.view(state, 0)
    before = layout.lost
    observation = layout.encode({**view, "phase": "no such phase", "to_act": [0, 1, 0]})
    assert layout.lost == before + 2  # an unknown string, one seat more than the table has
    assert all(observation[i] == 0 for i, name in enumerate(layout.entries) if name.startswith("phase = "))
    assert observation[layout.entries.index("len(to_act)")] == 3
    assert np.array_equal(layout.encode(view), layout.encode(view)) and layout.lost == before + 2
