"""Resampling what one seat cannot see (glueck-auf.md, hidden information; view.py): a full state
that gives the seat the same view, with every hidden part drawn at random within the rules.

Everything in a pit and on the board is open.  Hidden are the tile stack and the order deck
(contents and order; their sizes are public), another seat's draw-5 hand, and (unless the
table plays with open delivered cards, or the game is over) the cards another seat delivered.
The sampler gathers the tiles and the order cards the seat cannot see into sorted lists,
shuffles them with ``rng`` and deals them back into those places.  What the seat itself drew and
put back on the stack is kept where the seat saw it go.  The chance generator is reseeded.

Another seat putting its draw-5 hand back: the view does not say which side it chose or how many
it has put back, so the sample starts that return afresh (nothing put back yet).  What a seat
remembers beyond its view (the delivered cards named by the public delivery event, where its
own earlier returns lie in the stack) is not used.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from stammtisch.engine.chance import Chance
from stammtisch.games.glueckauf.state import KEEP_ORDER, KEEP_TILE, OVER, RETURN_ORDERS, RETURN_TILES, State

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

TILE_STAGES = (KEEP_TILE, RETURN_TILES)
ORDER_STAGES = (KEEP_ORDER, RETURN_ORDERS)


def resample(game: GlueckAuf, state: State, seat: int, rng: random.Random) -> State:
    sample = state.copy()
    sample.chance = Chance(rng.getrandbits(63))
    drawer = state.current if state.stage in TILE_STAGES + ORDER_STAGES else None
    if drawer is not None and drawer != seat:
        sample.drawn = []
        sample.returned = []
        sample.return_to = None
    _tiles(game, state, sample, seat, drawer, rng)
    _orders(game, state, sample, seat, drawer, rng)
    return sample


def _shuffled(pool: list[int], rng: random.Random) -> list[int]:
    pool = sorted(pool)
    rng.shuffle(pool)
    return pool


def _pile(pile: list[int], known: list[int], where: str | None, unknown: list[int]) -> list[int]:
    """A pile of ``len(pile)`` with the seat's own put-back items where it put them."""
    rest = len(pile) - len(known)
    if where == "top":
        return unknown[:rest] + known
    return known[::-1] + unknown[:rest]


def _tiles(game: GlueckAuf, state: State, sample: State, seat: int, drawer: int | None,
           rng: random.Random) -> None:
    seen = [t for t in state.factory if t]
    for player in state.players:
        seen += player.tiles
    mine = drawer == seat and state.stage in TILE_STAGES
    if mine:
        seen += state.drawn + state.returned
    pool = _shuffled(sorted(set(t.id for t in game.edition.tunnel_tiles) - set(seen)), rng)
    known = state.returned if mine else []
    sample.tile_stack = _pile(state.tile_stack, known, state.return_to if mine else None, pool)
    if drawer not in (None, seat) and state.stage in TILE_STAGES:
        sample.drawn = sorted(pool[len(state.tile_stack) - len(known):])
    else:
        assert len(pool) == len(state.tile_stack) - len(known), "the hidden places do not hold the unseen tiles"


def _orders(game: GlueckAuf, state: State, sample: State, seat: int, drawer: int | None,
            rng: random.Random) -> None:
    seen = [c for c in state.order_slots if c] + state.revealed
    open_piles = game.options["open_delivered"] or state.stage == OVER
    hidden_piles = []
    for other, player in enumerate(state.players):
        seen += [card for card, _fields, _missing in player.orders]
        if open_piles or other == seat:
            seen += player.delivered
        else:
            hidden_piles.append(other)
    mine = drawer == seat and state.stage in ORDER_STAGES
    if mine:
        seen += state.drawn + state.returned
    pool = _shuffled(sorted({c.id for c in game.edition.order_cards} - set(seen)), rng)
    known = state.returned if mine else []
    sample.order_deck = _pile(state.order_deck, known, state.return_to if mine else None, pool)
    start = len(state.order_deck) - len(known)
    for other in hidden_piles:
        size = len(state.players[other].delivered)
        sample.players[other].delivered = pool[start:start + size]
        start += size
    if drawer not in (None, seat) and state.stage in ORDER_STAGES:
        sample.drawn = sorted(pool[start:])
    else:
        assert start == len(pool), "the hidden places do not hold the unseen order cards"
