"""Shared helpers for the Glück Auf tests: games, positions after the draft, random play."""

from __future__ import annotations

import random
from typing import Any

from stammtisch.engine.protocol import Action, Event
from stammtisch.engine.step import step
from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import PLACE, Order, State

YELLOW, BROWN, GREY, BLACK = range(4)


def new_game(players: int, **options: Any) -> GlueckAuf:
    options.setdefault("start_player", 0)
    return GlueckAuf(players, options)


def after_draft(game: GlueckAuf, seed: int = 1) -> State:
    """A game in its first turn: every seat drafted the first card open."""
    state, _ = game.new_state(seed)
    while state.draft_queue:
        seat = game.to_act(state)[0]
        step(game, state, seat, game.legal_actions(state, seat)[0])
    assert state.phase == PLACE
    return state


def act(game: GlueckAuf, state: State, action: Action, seat: int | None = None) -> list[Event]:
    """Take ``action`` for the seat to act (or ``seat``) through the strict engine door."""
    if seat is None:
        seat = game.to_act(state)[0]
    return step(game, state, seat, action)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def card_with(game: GlueckAuf, transport: int, fields: tuple[int, ...], vp: int | None = None) -> int:
    """The id of an order card with this transport and these printed fields."""
    for card in game.edition.order_cards:
        if card.transport == transport and card.fields == fields and (vp is None or card.vp == vp):
            return card.id
    raise LookupError(f"no card {transport} {fields}")


def tile_with(game: GlueckAuf, colour: int, carts: int, light: bool) -> int:
    for tile in game.edition.tunnel_tiles:
        if (tile.colour, tile.carts, tile.light) == (colour, carts, light):
            return tile.id
    raise LookupError("no such tile")


def play_random(game: GlueckAuf, seed: int, limit: int = 5000) -> tuple[State, list[tuple[int, Action]]]:
    """A whole game of uniformly random legal actions through engine.step."""
    rng = random.Random(seed)
    state, _ = game.new_state(seed)
    moves: list[tuple[int, Action]] = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        step(game, state, seat, action)
        moves.append((seat, action))
        assert len(moves) < limit, "the game does not end"
    return state, moves


def give_order(
    game: GlueckAuf, state: State, seat: int, card: int, fields: tuple[tuple[int, ...], ...] | None = None
) -> None:
    """Put order card ``card`` into the seat's outstanding orders, its fields filled as given."""
    printed = game.cards[card].fields
    fields = fields if fields is not None else ((),) * len(printed)
    missing = sum(1 for j, f in enumerate(fields) if not (len(f) == 2 or (len(f) == 1 and f[0] == printed[j])))
    state.players[seat].orders.append(Order(card, fields, missing))


def take_card_out(state: State, card: int) -> None:
    """Remove a card from wherever it lies (deck, slots, hands) so a test can place it."""
    if card in state.order_deck:
        state.order_deck.remove(card)
    state.order_slots = [0 if c == card else c for c in state.order_slots]
    for p in state.players:
        p.orders = [o for o in p.orders if o.card != card]
        p.delivered = [c for c in p.delivered if c != card]


def black_tile_on_offer(players: int, supply: list[int]) -> tuple[GlueckAuf, State]:
    """After the draft: a tunnel tile with 2 black carts on factory space 1 (the 1st player's to buy),
    and the coal supply as given (yellow, brown, grey, black)."""
    game = new_game(players)
    state = after_draft(game)
    tile = tile_with(game, BLACK, 2, False)
    state.tile_stack.remove(tile)
    state.factory[0] = tile
    state.supply = supply
    return game, state
