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
    s = State.new(chance, players, len(ed.spaces))
    s.supply = [ed.coal_per_colour - n] * 4
    start = game.options["start_player"]
    s.start_player = s.current = chance.choice(list(range(n))) if start is None else start
    s.tile_stack = [t.id for t in ed.tunnel_tiles]
    chance.shuffle(s.tile_stack)
    s.factory = [0] * game.factory_slot_count
    s.order_slots = [0] * game.order_slot_count
    for spot in game.spots:
        if spot.kind == FACTORY:
            s.factory[spot.number] = s.tile_stack.pop()
    s.order_deck = [c.id for c in ed.order_cards]
    chance.shuffle(s.order_deck)
    s.revealed = [s.order_deck.pop() for _ in range(ed.draft_reveal[n])]
    # from the start player's right, counter-clockwise, until everyone holds their orders
    s.draft_queue = [(s.start_player - k) % n for k in range(1, n + 1)] * ed.orders_drafted
    event = Event("setup", {"players": n, "start_player": s.start_player, "factory": list(s.factory),
                            "revealed": list(s.revealed)})  # fmt: skip
    events = [event]
    game.flow.start(game, s, events)
    if not s.draft_queue:  # an edition without a draft
        end_draft(game, s, events)
    return s, events
