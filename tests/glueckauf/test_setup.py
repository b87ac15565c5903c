"""Setup, the order draft and table options."""

from __future__ import annotations

import pytest
from glueckauf_helpers import after_draft, new_game

from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import DRAFT


@pytest.mark.parametrize(("players", "workers", "money"), [(2, 18, 10), (3, 15, 9), (4, 13, 8)])
def test_workers_money_and_coal(players: int, workers: int, money: int) -> None:
    game = new_game(players)
    state, _ = game.new_state(3)
    for p in state.players:
        assert (p.workers, p.money, p.vp, p.cage_level) == (workers, money, 0, 0)
        assert [p.coal[t * 4 + t] for t in range(4)] == [1, 1, 1, 1] and sum(p.coal) == 4
        assert p.carts == [1, 1, 1, 1]
    assert state.supply == [16 - players] * 4


@pytest.mark.parametrize(("players", "tiles"), [(2, 6), (3, 7), (4, 8)])
def test_one_tile_on_every_open_factory_space(players: int, tiles: int) -> None:
    game = new_game(players)
    state, _ = game.new_state(5)
    assert sum(1 for t in state.factory if t) == tiles
    assert len(state.tile_stack) == 48 - tiles
    locked = {s.id for s in game.edition.spaces if players in s.locked_with}
    for spot_id, slot in (("factory_4", 3), ("factory_8", 7)):
        assert (state.factory[slot] == 0) == (spot_id in locked)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draft_from_the_right_counter_clockwise(players: int) -> None:
    game = new_game(players, start_player=1)
    state, _ = game.new_state(2)
    assert state.phase == DRAFT and len(state.revealed) == 3 * players + 1
    first_round = [(1 - k) % players for k in range(1, players + 1)]
    assert state.draft_queue == first_round * 3
    assert state.draft_queue[players - 1] == 1  # the start player drafts last in each round
    seen = []
    while state.draft_queue:
        seat = game.to_act(state)[0]
        seen.append(seat)
        game.apply(state, seat, game.legal_actions(state, seat)[-1])
    assert seen == first_round * 3
    assert all(len(p.orders) == 3 for p in state.players)
    assert state.current == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_leftover_card_and_order_spaces(players: int) -> None:
    game = new_game(players)
    state, _ = game.new_state(8)
    leftover = set(state.revealed)
    state = after_draft(game, 8)
    drafted = {o[0] for p in state.players for o in p.orders}
    leftover -= drafted
    assert len(leftover) == 1
    assert state.order_slots[3] == leftover.pop()  # BGA: the leftover goes onto order_4
    assert (state.order_slots[0] == 0) == (players == 2)  # leftmost space locked with 2
    assert all(state.order_slots[1:3])
    assert len(state.order_deck) == 44 - (3 * players + 1) - (2 if players == 2 else 3)


def test_random_start_player_comes_from_the_seed() -> None:
    game = GlueckAuf(4)
    starts = {game.new_state(seed)[0].start_player for seed in range(30)}
    assert starts == {0, 1, 2, 3}
    assert game.new_state(11)[0].start_player == game.new_state(11)[0].start_player


@pytest.mark.parametrize(
    "options",
    [{"colour": "red"}, {"count_printed_carts": "yes"}, {"start_player": 4}, {"start_player": True},
     {"open_delivered": 1}, {"edition": 3}],
)  # fmt: skip
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        GlueckAuf(4, options)


def test_default_options() -> None:
    assert GlueckAuf(3).options == {
        "count_printed_carts": True, "open_delivered": False, "start_player": None, "edition": None,
        "hints": False, "guide": False,
    }  # fmt: skip


@pytest.mark.parametrize("players", [1, 5])
def test_player_count(players: int) -> None:
    with pytest.raises(ValueError):
        GlueckAuf(players)
