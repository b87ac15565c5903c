"""Glück Auf (Coal Baron, Szczęść Boże): the rules, on the engine's Game protocol.

A turn is one worker placement followed by the small decisions of its action: the steps of
a mining run, the choice among 5 drawn tiles or cards, substitute coal colours.  Each is a phase
declared in ``phases/`` and run by the engine's flow (engine/flow.py).  Board slots emptied during
a turn are refilled only on ``("confirm",)``, so a turn can be taken back until then without
anything face down having been revealed.  This class holds the table: options, the edition and
the tables built once from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from stammtisch.engine.codec import ActionCodec, cached_codec
from stammtisch.engine.flow import FlowGame
from stammtisch.engine.protocol import Action, Event, Seat
from stammtisch.engine.shape import Shape
from stammtisch.games.glueckauf import scoring
from stammtisch.games.glueckauf.board import DELIVERY, FACTORY, KIND, ORDER, SOURCES, Spot
from stammtisch.games.glueckauf.data import COLOURS, TRANSPORTS, Edition, OrderCard, TunnelTile, load_edition
from stammtisch.games.glueckauf.options import OPTIONS, check_options
from stammtisch.games.glueckauf.phases import FLOW
from stammtisch.games.glueckauf.state import OVER, State, make_order

SUMMARY_KEYS = (
    "orders_delivered", "deliveries", "tiles_bought", "displacements", "draw_tiles", "draw_orders",
    "substitute_cubes", "substituted_fields", "carts_left_empty", "factory_not_refilled", "order_not_refilled",
)  # fmt: skip


class GlueckAuf(FlowGame[State]):
    name = "glueckauf"
    flow = FLOW
    min_players = 2
    max_players = 4
    option_schema = OPTIONS
    revealing_events = frozenset({"refilled", "not_refilled", "delivered_revealed", "shift_ends", "category_scored",
                                  "final_scoring"})

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(num_players, options)
        self.edition: Edition = load_edition(self.options["edition"])
        ed = self.edition
        self.cards: list[OrderCard] = [ed.order_cards[0], *ed.order_cards]  # indexed by id
        self.tiles: list[TunnelTile] = [ed.tunnel_tiles[0], *ed.tunnel_tiles]
        self.tile_cost = [0] + [ed.tile_cost(t) for t in ed.tunnel_tiles]
        self.card_transport = [c.transport for c in self.cards]
        self.card_fields = [c.fields for c in self.cards]
        # Each card's order as taken, every field empty: made once (orders are values, shared by states).
        self.fresh_orders = [make_order(i, ((),) * len(c.fields), len(c.fields)) for i, c in enumerate(self.cards)]
        self.total_workers = ed.workers[num_players]
        self.cage_capacity = ed.cage_capacity
        self.spots = self._open_spots()
        self.spot_by_id = {spot.id: spot for spot in self.spots}
        self.factory_slot_count = max(int(s.value) for s in ed.spaces if s.action == "factory")
        self.order_slot_count = max(int(s.value) for s in ed.spaces if s.action == "order")
        self.fill_actions = self._fill_actions()
        self.draft_actions = [("draft", i) for i in range(len(self.cards))]
        self.keep_tile_actions = [("keep_tile", i) for i in range(len(self.tiles))]
        self.keep_order_actions = [("keep_order", i) for i in range(len(self.cards))]

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return check_options(options, self.num_players)

    def _open_spots(self) -> list[Spot]:
        spots = []
        for index, space in enumerate(self.edition.spaces):
            if self.num_players in space.locked_with:
                continue
            kind = KIND[space.action]
            if kind in (FACTORY, ORDER):
                number = int(space.value) - 1
            elif kind == DELIVERY:
                number = TRANSPORTS.index(str(space.value))
            else:
                number = int(space.value)
            spots.append(Spot(index, space.id, kind, number))
        return spots

    def _fill_actions(self) -> list[list[list[list[Action]]]]:
        """fill_actions[source][card id][field][colour], built once so legal lists only copy."""
        return [
            [
                [[("fill", src, card.id, j, colour) for colour in COLOURS] for j in range(len(card.fields))]
                for card in self.cards
            ]
            for src in SOURCES
        ]

    # --- protocol -----------------------------------------------------------------------------

    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        from stammtisch.games.glueckauf.setup import set_up

        return set_up(self, seed)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        from stammtisch.games.glueckauf.view import build_view

        return build_view(self, state, seat)

    def views(self, state: State, seats: Iterable[Seat | None]) -> dict[Seat | None, dict[str, Any]]:
        from stammtisch.games.glueckauf.view import build_views

        return build_views(self, state, seats)

    def describe(self) -> dict[str, Any]:
        from stammtisch.games.glueckauf.view import describe

        return describe(self)

    def copy(self, state: State) -> State:
        return state.copy()

    def knowledge(self, state: State, seat: Seat) -> dict[str, Any]:
        from stammtisch.games.glueckauf.resample import knowledge

        return knowledge(self, state, seat)

    def sample(self, knowledge: dict[str, Any], rng: random.Random) -> State:
        from stammtisch.games.glueckauf.resample import sample

        return sample(self, knowledge, rng)

    def sampler(self, knowledge: dict[str, Any]) -> Callable[[random.Random], State]:
        from stammtisch.games.glueckauf.resample import Sampler

        return Sampler(self, knowledge)

    @classmethod
    def action_codec(cls, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        from stammtisch.games.glueckauf.codec import action_table

        return cached_codec(cls, num_players, options, action_table)

    def observation_shape(self) -> Shape:
        from stammtisch.games.glueckauf.codec import observation_shape

        return observation_shape(self)

    def most_decisions(self) -> int:
        from stammtisch.games.glueckauf.codec import most_decisions

        return most_decisions(self)

    def scores(self, state: State) -> list[int]:
        return [p.vp for p in state.players]

    def winners(self, state: State) -> list[Seat]:
        kept = [p.money % self.edition.marks_per_vp for p in state.players]
        return scoring.winners(self.scores(state), kept)

    def summary(self, state: State) -> dict[str, int]:
        result = dict.fromkeys(SUMMARY_KEYS, 0)
        result.update(state.stats)
        if state.phase == OVER:
            vp = self.scores(state)
            tied = [seat for seat, v in enumerate(vp) if v == max(vp)]
            won = self.winners(state)
            result["decided_by_marks"] = int(len(tied) > 1 and len(won) == 1)
            result["shared_win"] = int(len(won) > 1)
            result["unbalanced_pits"] = sum(1 for f in state.final or [] if f["balance_vp"] < 0)
        return result
