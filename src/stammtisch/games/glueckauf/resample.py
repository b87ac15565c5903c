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

from stammtisch.engine.resample import deal, reseeded
from stammtisch.games.glueckauf.state import KEEP_ORDER, KEEP_TILE, OVER, RETURN_ORDERS, RETURN_TILES, State

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

TILE_STAGES = (KEEP_TILE, RETURN_TILES)
ORDER_STAGES = (KEEP_ORDER, RETURN_ORDERS)


def resample(game: GlueckAuf, state: State, seat: int, rng: random.Random) -> State:
    sample = state.copy()
    sample.chance = reseeded(rng)
    drawer = state.current if state.phase in TILE_STAGES + ORDER_STAGES else None
    if drawer is not None and drawer != seat:
        sample.drawn = []
        sample.returned = []
        sample.return_to = None
    _tiles(game, state, sample, seat, drawer, rng)
    _orders(game, state, sample, seat, drawer, rng)
    return sample


def _pile(known: list[int], where: str | None, unknown: list[int]) -> list[int]:
    """The unknown part of a pile with the seat's own put-back items where it put them (the top
    is the end of the list; items put under the pile one by one lie in reverse order)."""
    if where == "top":
        return unknown + known
    return known[::-1] + unknown


def _tiles(game: GlueckAuf, state: State, sample: State, seat: int, drawer: int | None,
           rng: random.Random) -> None:
    seen = {t for t in state.factory if t}
    for player in state.players:
        seen.update(player.tiles)
    mine = drawer == seat and state.phase in TILE_STAGES
    if mine:
        seen.update(state.drawn + state.returned)
    unseen = [t.id for t in game.edition.tunnel_tiles if t.id not in seen]
    known = state.returned if mine else []
    other_hand = drawer not in (None, seat) and state.phase in TILE_STAGES
    stack_size = len(state.tile_stack) - len(known)
    stack, hand = deal(unseen, rng, [stack_size, len(unseen) - stack_size if other_hand else 0])
    sample.tile_stack = _pile(known, state.return_to if mine else None, stack)
    if other_hand:
        sample.drawn = sorted(hand)


def _orders(game: GlueckAuf, state: State, sample: State, seat: int, drawer: int | None,
            rng: random.Random) -> None:
    seen = {c for c in state.order_slots if c} | set(state.revealed)
    open_piles = game.options["open_delivered"] or state.phase == OVER
    hidden_piles = []
    for other, player in enumerate(state.players):
        seen.update(order.card for order in player.orders)
        if open_piles or other == seat:
            seen.update(player.delivered)
        else:
            hidden_piles.append(other)
    mine = drawer == seat and state.phase in ORDER_STAGES
    if mine:
        seen.update(state.drawn + state.returned)
    unseen = [c.id for c in game.edition.order_cards if c.id not in seen]
    known = state.returned if mine else []
    sizes = [len(state.order_deck) - len(known)] + [len(state.players[s].delivered) for s in hidden_piles]
    other_hand = drawer not in (None, seat) and state.phase in ORDER_STAGES
    deck, *piles, hand = deal(unseen, rng, [*sizes, len(unseen) - sum(sizes) if other_hand else 0])
    sample.order_deck = _pile(known, state.return_to if mine else None, deck)
    for other, pile in zip(hidden_piles, piles, strict=True):
        sample.players[other].delivered = pile
    if other_hand:
        sample.drawn = sorted(hand)
