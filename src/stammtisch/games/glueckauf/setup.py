"""Setup (glueck-auf.md, "Setup"): money and workers, the coal supply, the first start player, the
factory's tunnel tiles, the order deck and the cards revealed for the draft (phases/draft.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.engine.chance import Chance
from stammtisch.engine.protocol import Event
from stammtisch.games.glueckauf.board import FACTORY
from stammtisch.games.glueckauf.phases.draft import end_draft
from stammtisch.games.glueckauf.state import Player, State

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf


def set_up(game: GlueckAuf, seed: int) -> tuple[State, list[Event]]:
    ed = game.edition
    n = game.num_players
    chance = Chance(seed)
    players = [Player.new(ed.money[n], game.total_workers) for _ in range(n)]
    state = State.new(chance, players, len(ed.spaces))
    state.supply = [ed.coal_per_colour - n] * 4
    start = game.options["start_player"]
    state.start_player = state.current = chance.choice(list(range(n))) if start is None else start
    state.tile_stack = [t.id for t in ed.tunnel_tiles]
    chance.shuffle(state.tile_stack)
    state.factory = [0] * game.factory_slot_count
    state.order_slots = [0] * game.order_slot_count
    for spot in game.spots:
        if spot.kind == FACTORY:
            state.factory[spot.number] = state.tile_stack.pop()
    state.order_deck = [c.id for c in ed.order_cards]
    chance.shuffle(state.order_deck)
    state.revealed = [state.order_deck.pop() for _ in range(ed.draft_reveal[n])]
    # from the start player's right, counter-clockwise, until everyone holds their orders
    state.draft_queue = [(state.start_player - k) % n for k in range(1, n + 1)] * ed.orders_drafted
    event = Event("setup", {"players": n, "start_player": state.start_player, "factory": list(state.factory),
                            "revealed": list(state.revealed)})  # fmt: skip
    events = [event]
    game.flow.start(game, state, events)
    if not state.draft_queue:  # an edition without a draft
        end_draft(game, state, events)
    return state, events
