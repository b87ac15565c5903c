"""Mining: work steps, the cage, storage, order fields and substitution."""

from __future__ import annotations

import pytest
from glueckauf_helpers import BLACK, BROWN, GREY, YELLOW, act, after_draft, card_with, give_order, new_game

from stammtisch.engine.protocol import IllegalAction
from stammtisch.engine.snapshot import situation
from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import MINING, PLACE, State


def mining(players: int = 4, space: str = "mining_8") -> tuple[GlueckAuf, State]:
    game = new_game(players)
    state = after_draft(game)
    state.players[0].orders = []
    act(game, state, ("place", space))
    assert state.phase == MINING
    return game, state


def test_mining_example() -> None:
    # glueck-auf.md example 3 (mining with 8 steps): down, grey, grey, up, yellow, up,
    # grey onto a grey field, grey onto a grey field.
    game, state = mining()
    state = situation(game, state, {f"players.0.carts.{GREY}": 3, f"players.0.coal.{GREY * 4 + GREY}": 3})
    p = state.players[0]
    card = card_with(game, 0, (GREY, GREY))
    give_order(game, state, 0, card)
    plan = [("cage", "grey"), ("load", "grey"), ("load", "grey"), ("cage", "yellow"), ("load", "yellow"),
            ("cage", "surface"), ("fill", "cage", card, 0, "grey"), ("fill", "cage", card, 1, "grey")]  # fmt: skip
    for number, action in enumerate(plan):
        assert state.steps_left == 8 - number
        act(game, state, action)
    assert state.phase == PLACE and state.current == 1  # all 8 steps used: the turn is over
    assert p.cage_level == 0 and p.cage == [1, 0, 0, 0]
    assert p.coal[GREY * 4 + GREY] == 1 and p.coal[YELLOW * 4 + YELLOW] == 0
    assert p.orders == [(card, ((GREY,), (GREY,)), 0)]


@pytest.mark.parametrize(("space", "steps"), [("mining_4", 4), ("mining_6", 6), ("mining_8", 8), ("mining_10", 10)])
def test_steps_per_space(space: str, steps: int) -> None:
    game, state = mining(4, space)
    assert state.steps_left == steps
    for k in range(steps):
        act(game, state, ("cage", "yellow" if k % 2 == 0 else "surface"))
    assert state.phase == PLACE


def test_done_ends_early_and_the_cage_stays() -> None:
    game, state = mining()
    act(game, state, ("cage", "black"))
    events = act(game, state, ("done",))
    assert events[0].params["steps_unused"] == 7
    assert state.phase == PLACE and state.players[0].cage_level == 4


def test_cage_moves_any_distance_but_not_to_its_own_level() -> None:
    game, state = mining()
    legal = game.legal_actions(state, 0)
    assert {a for a in legal if a[0] == "cage"} == {("cage", c) for c in ("yellow", "brown", "grey", "black")}
    act(game, state, ("cage", "grey"))
    legal = game.legal_actions(state, 0)
    assert {a[1] for a in legal if a[0] == "cage"} == {"surface", "yellow", "brown", "black"}


def test_load_only_from_the_cage_level_and_only_five() -> None:
    game, state = mining(4, "mining_10")
    p = state.players[0]
    assert not [a for a in game.legal_actions(state, 0) if a[0] == "load"]  # at the surface
    p.coal[BROWN * 4 + BROWN] = 7
    p.carts[BROWN] = 7
    act(game, state, ("cage", "brown"))
    assert [a for a in game.legal_actions(state, 0) if a[0] == "load"] == [("load", "brown")]
    with pytest.raises(IllegalAction):
        act(game, state, ("load", "yellow"))
    for _ in range(5):
        act(game, state, ("load", "brown"))
    assert p.cage == [0, 5, 0, 0]
    assert ("load", "brown") not in game.legal_actions(state, 0)  # the cage holds 5


def test_store_only_at_the_surface_and_fill_from_storage_anywhere() -> None:
    game, state = mining(4, "mining_10")
    p = state.players[0]
    card = card_with(game, 3, (YELLOW,))
    give_order(game, state, 0, card)
    act(game, state, ("cage", "yellow"))
    act(game, state, ("load", "yellow"))
    assert not [a for a in game.legal_actions(state, 0) if a[0] in ("store", "fill")]  # cage underground
    act(game, state, ("cage", "surface"))
    legal = game.legal_actions(state, 0)
    assert ("store", "yellow") in legal and ("fill", "cage", card, 0, "yellow") in legal
    act(game, state, ("store", "yellow"))
    assert p.storage == [1, 0, 0, 0] and p.cage == [0, 0, 0, 0]
    act(game, state, ("cage", "black"))
    legal = game.legal_actions(state, 0)
    assert ("fill", "storage", card, 0, "yellow") in legal and ("store", "yellow") not in legal
    act(game, state, ("fill", "storage", card, 0, "yellow"))
    assert p.orders == [(card, ((YELLOW,),), 0)] and p.storage == [0, 0, 0, 0]


def test_substitution_two_other_cubes_fill_one_field() -> None:
    game, state = mining(4, "mining_10")
    card = card_with(game, 1, (BLACK, BLACK, BLACK))
    give_order(game, state, 0, card)
    state = situation(game, state, {"players.0.storage": [1, 1, 0, 1]})
    p = state.players[0]
    legal = game.legal_actions(state, 0)
    # identical empty fields of one card are one choice
    assert {a for a in legal if a[0] == "fill"} == {
        ("fill", "storage", card, 0, c) for c in ("yellow", "brown", "black")
    }
    act(game, state, ("fill", "storage", card, 0, "yellow"))
    assert p.orders[0] == (card, ((YELLOW,), (), ()), 3)  # one substitute: not yet filled
    legal = {a for a in game.legal_actions(state, 0) if a[0] == "fill"}
    assert ("fill", "storage", card, 0, "brown") in legal and ("fill", "storage", card, 1, "brown") in legal
    act(game, state, ("fill", "storage", card, 0, "black"))  # the pair may include the printed colour
    assert p.orders[0] == (card, ((YELLOW, BLACK), (), ()), 2)
    act(game, state, ("fill", "storage", card, 1, "brown"))
    assert p.orders[0].missing == 2
    # a filled field takes nothing more
    assert not [a for a in game.legal_actions(state, 0) if a[0] == "fill" and a[3] == 0]


def test_a_field_of_its_own_colour_is_filled_by_one_cube() -> None:
    game, state = mining()
    p = state.players[0]
    card = card_with(game, 0, (YELLOW, BROWN, GREY, BLACK))
    give_order(game, state, 0, card)
    p.storage = [0, 0, 1, 0]
    act(game, state, ("fill", "storage", card, 2, "grey"))
    assert p.orders[0] == (card, ((), (), (GREY,), ()), 3)
    p.storage = [0, 0, 1, 0]
    assert ("fill", "storage", card, 2, "grey") not in game.legal_actions(state, 0)


def test_fill_needs_a_cube_of_that_colour() -> None:
    game, state = mining()
    card = card_with(game, 0, (YELLOW,))
    give_order(game, state, 0, card)
    state = situation(game, state, {"players.0.storage": [0, 1, 0, 0]})
    before = state.copy()
    with pytest.raises(IllegalAction):
        act(game, state, ("fill", "storage", card, 0, "yellow"))
    assert state == before
