"""The minecart factory: buying tiles, coal on new carts, substitutes, draw 5, refills."""

from __future__ import annotations

import pytest
from glueckauf_helpers import BLACK, GREY, YELLOW, act, after_draft, black_tile_on_offer, kinds, new_game, tile_with

from stammtisch.engine.protocol import IllegalAction
from stammtisch.engine.undo import undoable
from stammtisch.games.glueckauf import scoring
from stammtisch.games.glueckauf.state import COAL, CONFIRM, KEEP_TILE, PLACE, RETURN_TILES


def test_workshop_example() -> None:
    # glueck-auf.md example 1 (workshop): a tile with two grey carts costs 6 Marks; 2 grey cubes
    # go on it; it extends the grey level on its side.
    game = new_game(4)
    state = after_draft(game)
    tile = tile_with(game, GREY, 2, True)
    state.tile_stack.remove(tile)
    state.factory[0] = tile
    p = state.players[0]
    supply = state.supply[GREY]
    act(game, state, ("place", "factory_1"))
    assert p.money == 8 - 6
    assert p.carts[GREY] == 3 and p.coal[GREY * 4 + GREY] == 3  # printed cart + the two new ones
    assert state.supply[GREY] == supply - 2
    assert p.tiles == [tile]
    view = game.view(state, 0)["board"]["seats"][0]["tunnels"][GREY]
    assert [t["id"] for t in view["light"]] == [tile] and view["dark"] == []


@pytest.mark.parametrize(("colour", "carts", "cost"), [(0, 1, 1), (0, 2, 2), (1, 1, 2), (1, 2, 4), (2, 1, 3),
                                                       (2, 2, 6), (3, 1, 4), (3, 2, 8)])  # fmt: skip
def test_tile_costs(colour: int, carts: int, cost: int) -> None:
    game = new_game(2)
    assert game.tile_cost[tile_with(game, colour, carts, False)] == cost


def test_refill_only_on_confirm() -> None:
    game = new_game(4)
    state = after_draft(game)
    top = state.tile_stack[-1]
    state.players[0].money = 20
    act(game, state, ("place", "factory_2"))
    assert state.phase == CONFIRM and state.factory[1] == 0 and state.tile_stack[-1] == top
    events = act(game, state, ("confirm",))
    assert state.factory[1] == top and "refilled" in kinds(events)
    assert state.phase == PLACE and state.current == 1


def test_no_refill_from_an_empty_stack() -> None:
    game = new_game(4)
    state = after_draft(game)
    state.tile_stack.clear()
    state.players[0].money = 20
    act(game, state, ("place", "factory_2"))
    events = act(game, state, ("confirm",))
    assert state.factory[1] == 0 and "not_refilled" in kinds(events)
    assert "factory_2" not in {a[1] for a in game.legal_actions(state, 1)}


def test_coal_substitution_when_the_colour_runs_out() -> None:
    game, state = black_tile_on_offer(4, [3, 0, 2, 1])
    p = state.players[0]
    act(game, state, ("place", "factory_1"))
    assert p.money == 0  # the price is unchanged
    assert p.coal[BLACK * 4 + BLACK] == 2 and state.supply[BLACK] == 0
    assert state.phase == COAL and state.owed_coal == [BLACK]
    assert game.legal_actions(state, 0) == [("coal", "yellow"), ("coal", "grey"), ("coal", None)]
    with pytest.raises(IllegalAction):
        act(game, state, ("coal", "brown"))
    act(game, state, ("coal", "grey"))
    assert p.coal[BLACK * 4 + GREY] == 1 and state.supply == [3, 0, 1, 0]
    assert p.carts[BLACK] == 3 and p.cubes_in_tunnel(BLACK) == 3
    assert state.phase == CONFIRM


def test_substitute_cube_is_optional() -> None:
    # issue #8 item 6; glueck-auf.md §1 and the Polish rulebook's additional notes: a player
    # *may* ("możesz") put a cube of another colour on each cart they cannot fill; a cart left
    # empty counts for the empty-minecart categories of shift III.
    game, state = black_tile_on_offer(2, [3, 0, 2, 0])
    p = state.players[0]
    act(game, state, ("place", "factory_1"))
    assert state.phase == COAL and state.owed_coal == [BLACK, BLACK]
    assert ("coal", None) in game.legal_actions(state, 0)
    events = act(game, state, ("coal", None))
    assert "cart_left_empty" in kinds(events) and state.supply == [3, 0, 2, 0]
    assert state.phase == COAL and state.owed_coal == [BLACK]
    act(game, state, ("coal", "grey"))
    assert p.carts[BLACK] == 3 and p.cubes_in_tunnel(BLACK) == 2 and state.supply == [3, 0, 1, 0]
    assert game.view(state, 1)["board"]["seats"][0]["tunnels"][BLACK]["empty_carts"] == 1
    empty_black = next(c for c in game.edition.categories if c.id == "empty_black_carts")
    assert scoring.score_category(game, state.players, empty_black, True) == ([1, 0], [empty_black.first, 0])
    assert game.summary(state)["carts_left_empty"] == 1


def test_no_cube_at_all_leaves_the_cart_empty() -> None:
    game = new_game(4)
    state = after_draft(game)
    tile = tile_with(game, YELLOW, 2, True)
    state.tile_stack.remove(tile)
    state.factory[0] = tile
    state.supply = [1, 0, 0, 0]
    act(game, state, ("place", "factory_1"))
    p = state.players[0]
    assert p.carts[YELLOW] == 3 and p.cubes_in_tunnel(YELLOW) == 2
    assert state.phase == CONFIRM and state.owed_coal == []


def test_draw_five_keep_one_and_return_the_rest() -> None:
    game = new_game(4)
    state = after_draft(game)
    state.players[0].money = 3
    stack = list(state.tile_stack)
    events = act(game, state, ("place", "factory_draw"))
    drawn = stack[-5:]
    assert sorted(state.drawn) == sorted(drawn) and len(state.tile_stack) == len(stack) - 5
    private = [e for e in events if e.kind == "drawn_tiles"]
    assert private and private[0].seats == (0,)
    assert state.phase == KEEP_TILE
    legal = game.legal_actions(state, 0)
    affordable = [t for t in drawn if game.tile_cost[t] <= 3]
    assert sorted(a[1] for a in legal if a[1] is not None) == sorted(affordable)
    assert ("keep_tile", None) in legal
    too_dear = [t for t in drawn if game.tile_cost[t] > 3]
    if too_dear:
        with pytest.raises(IllegalAction):
            act(game, state, ("keep_tile", too_dear[0]))
    kept = affordable[0] if affordable else None
    act(game, state, ("keep_tile", kept))
    assert state.phase == RETURN_TILES
    rest = sorted(t for t in drawn if t != kept)
    for tile in rest[:-1]:
        act(game, state, ("return_tiles", "bottom", tile))
    assert state.tile_stack[: len(rest)] == rest[::-1]  # each one put under the stack
    assert state.tile_stack[len(rest) :] == stack[:-5]
    assert state.phase == PLACE and state.current == 1
    assert state.players[0].tiles == ([kept] if kept else [])


def test_draw_five_return_on_top_and_keep_nothing() -> None:
    game = new_game(4)
    state = after_draft(game)
    stack = list(state.tile_stack)
    act(game, state, ("place", "factory_draw"))
    act(game, state, ("keep_tile", None))
    order = sorted(stack[-5:], reverse=True)
    for tile in order[:-1]:
        act(game, state, ("return_tiles", "top", tile))
    assert state.tile_stack[-5:] == order and state.tile_stack[:-5] == stack[:-5]
    assert state.players[0].money == 8 and state.players[0].tiles == []


def test_draw_from_a_short_stack() -> None:
    game = new_game(4)
    state = after_draft(game)
    state.tile_stack = state.tile_stack[:2]
    state.players[0].money = 20
    act(game, state, ("place", "factory_draw"))
    assert len(state.drawn) == 2 and state.tile_stack == []
    act(game, state, ("keep_tile", state.drawn[0]))
    act(game, state, ("return_tiles", "top", state.drawn[0]))
    assert len(state.tile_stack) == 1 and state.phase == PLACE


def test_draw_five_returns_in_the_order_the_drawer_chooses() -> None:
    # issue #8 item 5; glueck-auf.md §1 and the Polish rulebook: the other tiles go back face down
    # "w dowolnej kolejności" (in any order), all on top or all under the stack.  One at a time:
    # the drawer picks the next tile and, for the first, the side; the last one has no choice.
    game = new_game(3)
    state = after_draft(game)
    stack = list(state.tile_stack)
    act(game, state, ("place", "factory_draw"))
    act(game, state, ("keep_tile", None))
    hand = sorted(stack[-5:])
    legal = game.legal_actions(state, 0)
    assert legal == [("return_tiles", where, t) for where in ("top", "bottom") for t in hand]
    chosen = [hand[2], hand[0], hand[4], hand[3], hand[1]]
    draws = state.chance.draws
    for tile in chosen[:3]:
        before = state.copy()
        events = act(game, state, ("return_tiles", "top", tile))
        # nothing drawn by chance, nothing revealed: each step can be taken back (ConfirmUndo)
        assert undoable(game, draws, state, 0, events) and before != state
    assert game.legal_actions(state, 0) == [("return_tiles", "top", t) for t in sorted(chosen[3:])]
    with pytest.raises(IllegalAction):
        act(game, state, ("return_tiles", "bottom", chosen[3]))
    events = act(game, state, ("return_tiles", "top", chosen[3]))
    assert state.tile_stack[-5:] == chosen and state.tile_stack[:-5] == stack[:-5]
    assert state.phase == PLACE and state.current == 1 and state.drawn == []
    returned = [e for e in events if e.kind == "returned"]
    assert [e.params for e in returned] == [{"seat": 0, "what": "tiles", "count": 5, "where": "top"}]
    # the last tile put on top refills the next factory space emptied
    state.players[1].money = 20
    act(game, state, ("place", "factory_1"))
    act(game, state, ("confirm",))
    assert state.factory[0] == chosen[-1]


def test_return_order_is_the_drawers_secret() -> None:
    # issue #8 item 5: the order of the returned tiles is hidden from every other seat
    game = new_game(3)
    state = after_draft(game)
    act(game, state, ("place", "factory_draw"))
    act(game, state, ("keep_tile", None))
    first, second = sorted(state.drawn)[:2]
    other = state.copy()
    act(game, state, ("return_tiles", "top", first))
    act(game, state, ("return_tiles", "top", second))
    act(game, other, ("return_tiles", "top", second))
    act(game, other, ("return_tiles", "top", first))
    assert state.tile_stack != other.tile_stack
    for viewer in (None, 1, 2):
        assert game.view(state, viewer) == game.view(other, viewer)
    mine = game.view(state, 0)["board"]["returned"]
    assert mine["to"] == "top" and [t["id"] for t in mine["items"]] == [first, second]
