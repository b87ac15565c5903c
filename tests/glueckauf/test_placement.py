"""Placing workers: displacement, the bank, legality of each space."""

from __future__ import annotations

import pytest
from glueckauf_helpers import act, after_draft, card_with, give_order, kinds, new_game

from stammtisch.engine.protocol import IllegalAction
from stammtisch.engine.snapshot import situation
from stammtisch.games.glueckauf.state import CONFIRM, PLACE


def spaces(game, state, seat=None):  # type: ignore[no-untyped-def]
    seat = state.current if seat is None else seat
    return {a[1] for a in game.legal_actions(state, seat) if a[0] == "place"}


def test_placement_example() -> None:
    # glueck-auf.md example 2 (worker placement): an empty space takes 1 worker; a space with
    # 1 red worker takes 2 of yours (the red goes to the canteen); with 2 of your own, 3.
    game = new_game(3)
    state = after_draft(game)
    maciek, red = state.players[0], state.players[2]
    index = game.spot_by_id["money_5"].index
    state.owner[index], state.count[index] = 2, 1
    red.workers -= 1
    own = game.spot_by_id["money_6"].index
    state.owner[own], state.count[own] = 0, 2
    maciek.workers -= 2

    trial = state.copy()
    act(game, trial, ("place", "money_4"))
    assert (trial.players[0].workers, trial.count[game.spot_by_id["money_4"].index]) == (15 - 2 - 1, 1)
    assert trial.players[0].money == 9 + 4

    trial = state.copy()
    events = act(game, trial, ("place", "money_5"))
    assert trial.players[0].workers == 15 - 2 - 2
    assert (trial.owner[index], trial.count[index]) == (0, 2)
    assert trial.players[2].canteen == 1 and trial.players[0].canteen == 0
    assert events[0].params["displaced"] == 1

    trial = state.copy()
    act(game, trial, ("place", "money_6"))
    assert trial.players[0].workers == 15 - 2 - 3 and trial.players[0].canteen == 2
    assert trial.count[own] == 3


def test_not_enough_workers_to_displace() -> None:
    game = new_game(4)
    state = after_draft(game)
    index = game.spot_by_id["mining_10"].index
    state.owner[index], state.count[index] = 1, 3
    state.players[0].workers = 3
    assert "mining_10" not in spaces(game, state)
    state.players[0].workers = 4
    assert "mining_10" in spaces(game, state)


def test_bank_takes_one_worker_and_gives_one_mark() -> None:
    game = new_game(2)
    state = after_draft(game)
    state.players[0].workers = 1
    assert spaces(game, state) >= {"bank"}
    act(game, state, ("place", "bank"))
    p = state.players[0]
    assert (p.workers, p.bank, p.money) == (0, 1, 11)
    act(game, state, ("place", "bank"))  # the bank is never occupied nor displaced
    assert state.players[1].bank == 1 and p.bank == 1


@pytest.mark.parametrize(
    ("players", "locked"),
    [(2, {"factory_4", "factory_8", "mining_4", "mining_8", "money_3", "money_5", "order_1"}),
     (3, {"factory_8", "mining_4", "money_3"}), (4, set())],
)  # fmt: skip
def test_locked_spaces_are_never_legal(players: int, locked: set[str]) -> None:
    game = new_game(players)
    state = after_draft(game)
    state.players[0].money = 100
    legal = spaces(game, state)
    assert not legal & locked
    everything = {s.id for s in game.edition.spaces} - {
        f"delivery_{t}" for t in ("handcart", "wagon", "lorry", "train")
    }
    assert legal == everything - locked


def test_cannot_afford_a_tile() -> None:
    game = new_game(4)
    state = after_draft(game)
    tile = state.factory[0]
    state.players[0].money = game.tile_cost[tile] - 1
    assert "factory_1" not in spaces(game, state)
    with pytest.raises(IllegalAction):
        act(game, state, ("place", "factory_1"))
    state.players[0].money += 1
    assert "factory_1" in spaces(game, state)


def test_delivery_needs_a_completed_order_of_that_transport() -> None:
    game = new_game(4)
    state = after_draft(game)
    p = state.players[0]
    p.orders = []
    train = card_with(game, 3, (0,))
    give_order(game, state, 0, train)  # empty
    assert not {s for s in spaces(game, state) if s.startswith("delivery")}
    p.orders = []
    give_order(game, state, 0, train, ((0,),))  # complete
    assert {s for s in spaces(game, state) if s.startswith("delivery")} == {"delivery_train"}


def test_empty_slots_and_piles() -> None:
    game = new_game(4)
    state = after_draft(game)
    state.factory[2] = 0
    state.order_slots[1] = 0
    legal = spaces(game, state)
    assert "factory_3" not in legal and "order_2" not in legal
    assert {"factory_draw", "order_draw"} <= legal
    state.tile_stack.clear()
    state.order_deck.clear()
    legal = spaces(game, state)
    assert "factory_draw" not in legal and "order_draw" not in legal


def test_factory_draw_needs_no_money() -> None:
    game = new_game(4)
    state = after_draft(game)
    state.players[0].money = 0
    legal = spaces(game, state)
    assert "factory_draw" in legal and not {s for s in legal if s.startswith("factory_") and s != "factory_draw"}


def test_players_without_workers_are_skipped_and_shift_ends() -> None:
    game = new_game(3)
    state = after_draft(game)
    state.players[1].workers = 0
    act(game, state, ("place", "money_4"))
    assert state.current == 2
    for p in state.players:
        p.workers = 0
    state.players[2].workers = 1
    events = act(game, state, ("place", "bank"))
    assert "shift_ends" in kinds(events) and state.shift == 2
    assert all(p.workers == 15 and p.canteen == 0 and p.bank == 0 for p in state.players)
    assert not any(state.count)


def test_other_seats_and_wrong_moments_are_rejected() -> None:
    game = new_game(4)
    state = after_draft(game)
    assert game.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        act(game, state, ("place", "bank"), seat=1)
    with pytest.raises(IllegalAction):
        act(game, state, ("confirm",))
    act(game, state, ("place", "order_2"))
    assert state.phase == CONFIRM and game.legal_actions(state, 0) == [("confirm",)]
    with pytest.raises(IllegalAction):
        act(game, state, ("place", "bank"))
    act(game, state, ("confirm",))
    assert state.phase == PLACE and state.current == 1


@pytest.mark.parametrize("changes", [
    {"order_deck": [], "tile_stack": []},  # the draw spaces closed (rarely met in random games)
    {"players.0.money": 0},  # no factory tile affordable
    {"players.0.workers": 1},  # only empty spaces
    {"order_slots.0": 0, "factory.0": 0},  # an emptied slot not refilled
])
def test_the_strict_steps_placement_test_agrees_with_the_legal_list(changes: dict[str, object]) -> None:
    # placement.allows_place answers for legal_place without building it (engine/flow.py, allows)
    game = new_game(3)
    state = situation(game, after_draft(game), changes)
    assert state.current == 0
    legal = game.legal_actions(state, 0)
    for spot in game.spots:
        assert game.is_legal(state, 0, spot.place) == (spot.place in legal), spot.id
