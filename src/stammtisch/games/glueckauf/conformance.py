"""What the conformance suite needs of Glück Auf beyond the protocol (tests/conformance/hooks.py reads it
through the registry; docs/adding-a-game.md, "Conformance hooks"): the option sets to play, the
invariants (glueck-auf.md Components: nothing is created or destroyed), what one seat cannot know
(its secrets as snapshot places, and scramblers that change only them; the two levels are those of
games/diemacher/conformance.py) and the golden master's cases with their digests.
"""

from __future__ import annotations

import random
from typing import Any

from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import KEEP_ORDER, KEEP_TILE, RETURN_ORDERS, RETURN_TILES, State

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"open_delivered": True, "count_printed_carts": False},
]
DRAWING = ("keep_tile", "return_tiles", "keep_order", "return_orders")
# Secrets a sampler starts afresh rather than draws: another seat's return of its draw-5 hand in
# progress (which items it put back, in which order, on which side; games/glueckauf/resample.py).
STARTED_AFRESH = frozenset({"other_returned"})
# Secrets every sampler must draw anew somewhere in random games (tests/conformance/test_resample.py).
SECRETS = frozenset({"chance", "tile_stack", "order_deck", "other_drawn"})


def invariants(game: GlueckAuf, state: State) -> None:
    coal = sum(state.supply) + sum(p.coal_owned() for p in state.players)
    assert coal == 4 * game.edition.coal_per_colour
    tiles_drawn = state.drawn if state.phase in (KEEP_TILE, RETURN_TILES) else []
    tiles = (state.tile_stack + [t for t in state.factory if t] + tiles_drawn
             + [t for p in state.players for t in p.tiles])
    assert sorted(tiles) == list(range(1, 49))
    cards_drawn = state.drawn if state.phase in (KEEP_ORDER, RETURN_ORDERS) else []
    cards = state.order_deck + [c for c in state.order_slots if c] + state.revealed + cards_drawn
    cards += [o[0] for p in state.players for o in p.orders] + [c for p in state.players for c in p.delivered]
    assert sorted(cards) == list(range(1, 45))
    for seat, p in enumerate(state.players):
        on_board = sum(n for owner, n in zip(state.owner, state.count, strict=True) if owner == seat and n)
        assert p.workers + p.canteen + p.bank + on_board == game.total_workers
        assert 0 <= sum(p.cage) <= 5 and p.money >= 0
        for t in range(4):
            assert 0 <= p.cubes_in_tunnel(t) <= p.carts[t]


def hidden_places(game: Any, state: Any, seat: int) -> dict[str, list[str]]:
    """The secrets of a Glück Auf state from ``seat`` (glueck-auf.md; view.py), as snapshot paths."""
    places = {"chance": ["chance"], "tile_stack": ["tile_stack"], "order_deck": ["order_deck"]}
    if state.phase in DRAWING and state.current != seat:
        places["other_drawn"] = ["drawn"]
        places["other_returned"] = ["returned", "return_to"]  # which items, in which order, which side
    return places


def unordered(state: Any) -> list[str]:
    """Lists whose order no rule reads and no view shows: a pit's tiles (they count by colour and side)."""
    return [f"players.{s}.tiles" for s in range(len(state.players))]


def scramble_secrets(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Glück Auf: the tile stack, the order deck, another seat's draw-5 hand and the order it puts
    it back in, the generator (glueck-auf.md; view.py)."""
    from stammtisch.games.glueckauf.state import KEEP_TILE, RETURN_ORDERS, RETURN_TILES

    other = state.copy()
    other.chance.seed += 1
    drawing = other.current if other.phase in DRAWING else None
    tiles_known = drawing == seat and other.phase == RETURN_TILES
    orders_known = drawing == seat and other.phase == RETURN_ORDERS
    if not tiles_known:
        rng.shuffle(other.tile_stack)
    if not orders_known:
        rng.shuffle(other.order_deck)
    if drawing is not None and drawing != seat:
        pile = other.tile_stack if other.phase in (KEEP_TILE, RETURN_TILES) else other.order_deck
        if pile and other.drawn:
            other.drawn[0], pile[0] = pile[0], other.drawn[0]
            other.drawn.sort()
        other.returned.reverse()
        if other.returned:
            other.return_to = "bottom" if other.return_to == "top" else "top"
    return other


def scramble(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Glück Auf, what the view hides: the secrets and others' delivered cards unless open."""
    from stammtisch.games.glueckauf.state import OVER, RETURN_ORDERS

    other = scramble_secrets(game, state, seat, rng)
    orders_known = other.current == seat and other.phase == RETURN_ORDERS
    if not game.options["open_delivered"] and other.phase != OVER and not orders_known:
        for index, p in enumerate(other.players):
            if index != seat and p.delivered and other.order_deck:
                p.delivered[0], other.order_deck[0] = other.order_deck[0], p.delivered[0]
    return other


# The golden master (tests/conformance/golden.py): (case, players, options, seeds, digest); a digest
# changes only with the rules (bump the spec's rules_version then).
GOLDEN: list[tuple[str, int, dict[str, Any], tuple[int, ...], str]] = [
    ('ga-2', 2, {},
     (21, 121, 221), '9bbd463f85680261bb3e96e3aa3b40a7ca11e4236b3934c5bdb799c63c0caf8b'),
    ('ga-3', 3, {},
     (22, 122, 222), '02841557321e4dc13fef7f774e4b84d5fe351c1d901cc36e0aaebfc995120255'),
    ('ga-4', 4, {},
     (23, 123, 223), '06c0cd6807f2a57fdd9626c8be26f9adbb298d2cac6cacc5f72cf3d520a7951a'),
    ('ga-2-open-delivered', 2, {'open_delivered': True, 'count_printed_carts': False, 'start_player': 1},
     (24, 124, 224), '3bbd40a09e1b090150ffa8e0dcf95e49fbdee9952ec93f82b7efd3d6bef2e05d'),
    ('ga-4-start-player', 4, {'start_player': 3},
     (25, 125, 225), '1038b519e3405187a732f9b9db22ed34b8ba4abd2c3c23e82d3d02d9e579f1ea'),
]
