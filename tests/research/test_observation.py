"""The observation layout (docs/research.md, "The observation"): named slots, the digest that
versions it, that it encodes the seat's view and nothing else, and that a value with no place is
refused, never dropped (issue 27 item 2)."""

import random

import numpy as np
import pytest

from stammtisch.engine.shape import ShapeError
from stammtisch.registry import make_game
from stammtisch.research.observation import layout_for
from tests.research.play import played
from tests.research.play import random_state as mid_game


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


def test_every_delivered_order_has_its_slots():
    # issue 27 item 2: the layout learnt from random games kept room for 2 delivered orders per seat
    # and dropped the rest; the room now comes from the order cards (44 but the others' drafted ones).
    game = make_game("glueckauf", 4)
    layout = layout_for(game)
    view = game.view(played(game, "heuristic", 1), None)  # at the end every delivered pile is open
    observation = layout.encode(view)
    slot = layout.entries.index
    for seat, shown in enumerate(view["board"]["seats"]):
        assert len(shown["delivered"]) > 2
        for index, card in enumerate(shown["delivered"]):
            assert observation[slot(f"board.seats[{seat}].delivered[{index}].id")] == card["id"]


def test_a_new_view_field_is_refused_with_its_place_named():
    # issue 27 item 2: a public field added to the views (used politicians, say) is not dropped
    # silently; the observation refuses the view until the game's shape declares the field.
    game = make_game("diemacher", 4)
    layout = layout_for(game)
    view = game.view(mid_game(game, seed=2, steps=30), 0)
    view["board"]["seats"][1]["used_politicians"] = ["backbencher"]
    with pytest.raises(ShapeError, match=r"board\.seats\[1\]: no place for 'used_politicians'"):
        layout.encode(view)


@pytest.mark.parametrize(("change", "where"), [
    (lambda view: view.update(phase="no such phase"), "phase"),
    (lambda view: view.update(to_act=[0, 1, 0]), "to_act"),  # one seat more than the table has
    (lambda view: view["board"]["seats"][0].update(money=2.5), r"board\.seats\[0\]\.money"),
    (lambda view: view["board"]["seats"][0].update(money=2**30), r"board\.seats\[0\]\.money"),
])
def test_a_value_with_no_place_is_refused(change, where):
    game = make_game("glueckauf", 2)
    view = game.view(mid_game(game, seed=2, steps=10), 0)
    change(view)
    with pytest.raises(ShapeError, match=f"^{where}: "):
        layout_for(game).encode(view)


def test_decode_gives_the_view_back():
    game = make_game("glueckauf", 3)
    layout = layout_for(game)
    view = game.view(mid_game(game, seed=4, steps=60), 1)
    assert layout.decode(layout.encode(view)) == view
