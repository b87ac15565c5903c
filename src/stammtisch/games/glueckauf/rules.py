"""Glück Auf (Coal Baron, Szczęść Boże): the rules, on the engine's Game protocol.

A turn is one worker placement followed by the small decisions of its action: the steps of
a mining run, the choice among 5 drawn tiles or cards, substitute coal colours.  Board slots
emptied during a turn are refilled only on ``("confirm",)``, so a turn can be taken back
until then without anything face down having been revealed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from stammtisch.engine.chance import Chance
from stammtisch.engine.codec import ActionCodec, cached_codec
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.games.glueckauf import scoring
from stammtisch.games.glueckauf.data import COLOURS, TRANSPORTS, Edition, OrderCard, TunnelTile, load_edition
from stammtisch.games.glueckauf.options import OPTIONS, check_options
from stammtisch.games.glueckauf.state import (
    COAL,
    CONFIRM,
    DRAFT,
    KEEP_ORDER,
    KEEP_TILE,
    MINING,
    OVER,
    PLACE,
    RETURN_ORDERS,
    RETURN_TILES,
    Field,
    Order,
    Player,
    State,
)

LEVELS = ("surface", "yellow", "brown", "grey", "black")
SOURCES = ("cage", "storage")
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
LEVEL_INDEX = {name: i for i, name in enumerate(LEVELS)}

SUMMARY_KEYS = (
    "orders_delivered", "deliveries", "tiles_bought", "displacements", "draw_tiles", "draw_orders",
    "substitute_cubes", "substituted_fields", "carts_left_empty", "factory_not_refilled", "order_not_refilled",
)  # fmt: skip

DONE: Action = ("done",)
CONFIRM_TURN: Action = ("confirm",)
CAGE_TO = tuple(("cage", name) for name in LEVELS)
LOAD = tuple(("load", name) for name in COLOURS)
STORE = tuple(("store", name) for name in COLOURS)
SUBSTITUTE = tuple(("coal", name) for name in COLOURS)
LEAVE_CART_EMPTY: Action = ("coal", None)  # a substitute cube is optional ("możesz")
RETURN_SIDES = ("top", "bottom")
KEEP_NO_TILE: Action = ("keep_tile", None)
KEEP_NO_ORDER: Action = ("keep_order", None)

# kinds of worker spaces
FACTORY, FACTORY_DRAW, MINING_SPACE, DELIVERY, MONEY, BANK, ORDER, ORDER_DRAW = range(8)
KIND = {"factory": FACTORY, "factory_draw": FACTORY_DRAW, "mining": MINING_SPACE, "delivery": DELIVERY,
        "money": MONEY, "bank": BANK, "order": ORDER, "order_draw": ORDER_DRAW}  # fmt: skip


class Spot:
    """An open worker space of this table, with everything placement needs precomputed."""

    __slots__ = ("index", "id", "kind", "number", "place")

    def __init__(self, index: int, space_id: str, kind: int, number: int) -> None:
        self.index = index  # position in the edition's space list (state.owner / state.count)
        self.id = space_id
        self.kind = kind
        self.number = number  # slot (0-based), steps, Marks or transport index
        self.place: Action = ("place", space_id)


def is_complete(card: OrderCard, field_index: int, field: Field) -> bool:
    return len(field) == 2 or (len(field) == 1 and field[0] == card.fields[field_index])


def accepts(card: OrderCard, field_index: int, field: Field) -> bool:
    """An empty field takes any cube (its colour, or the first of two substitutes); a field
    holding one substitute takes a second cube of any colour."""
    return not field or (len(field) == 1 and field[0] != card.fields[field_index])


class GlueckAuf(Game[State]):
    name = "glueckauf"
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
        self.total_workers = ed.workers[num_players]
        self.spots = self._open_spots()
        self.spot_by_id = {spot.id: spot for spot in self.spots}
        self.factory_slot_count = max(int(s.value) for s in ed.spaces if s.action == "factory")
        self.order_slot_count = max(int(s.value) for s in ed.spaces if s.action == "order")
        self.fill_actions = self._fill_actions()
        self.draft_actions = [("draft", i) for i in range(len(self.cards))]
        self.keep_tile_actions = [("keep_tile", i) for i in range(len(self.tiles))]
        self.keep_order_actions = [("keep_order", i) for i in range(len(self.cards))]
        self._legal: dict[str, Callable[[State, Player], list[Action]]] = {
            DRAFT: self._legal_draft, PLACE: self._legal_place, MINING: self._legal_mining,
            KEEP_TILE: self._legal_keep_tile, RETURN_TILES: self._legal_return,
            KEEP_ORDER: self._legal_keep_order, RETURN_ORDERS: self._legal_return,
            COAL: self._legal_coal, CONFIRM: lambda s, p: [CONFIRM_TURN],
        }  # fmt: skip
        self._apply: dict[str, Callable[[State, int, Action, list[Event]], None]] = {
            "draft": self._draft, "place": self._place, "cage": self._move_cage, "load": self._load,
            "store": self._store, "fill": self._fill, "done": self._done, "keep_tile": self._keep_tile,
            "return_tiles": self._return_tiles, "keep_order": self._keep_order,
            "return_orders": self._return_orders, "coal": self._substitute, "confirm": self._confirm,
        }  # fmt: skip

    # --- setup --------------------------------------------------------------------------------

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

    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        ed = self.edition
        n = self.num_players
        chance = Chance(seed)
        players = [Player(ed.money[n], self.total_workers) for _ in range(n)]
        s = State(chance, players, len(ed.spaces))
        s.supply = [ed.coal_per_colour - n] * 4
        start = self.options["start_player"]
        s.start_player = s.current = chance.choice(list(range(n))) if start is None else start
        s.tile_stack = [t.id for t in ed.tunnel_tiles]
        chance.shuffle(s.tile_stack)
        s.factory = [0] * self.factory_slot_count
        s.order_slots = [0] * self.order_slot_count
        for spot in self.spots:
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
        if not s.draft_queue:  # an edition without a draft
            self._end_draft(s, events)
        return s, events

    # --- protocol -----------------------------------------------------------------------------

    def to_act(self, state: State) -> list[Seat]:
        if state.stage == OVER:
            return []
        if state.stage == DRAFT:
            return [state.draft_queue[0]]
        return [state.current]

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        stage = state.stage
        if stage == OVER:
            return []
        if stage == DRAFT:
            if seat != state.draft_queue[0]:
                return []
        elif seat != state.current:
            return []
        return self._legal[stage](state, state.players[seat])

    def apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        self._apply[action[0]](state, seat, action, events)
        return events

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        from stammtisch.games.glueckauf.view import build_view

        return build_view(self, state, seat)

    def describe(self) -> dict[str, Any]:
        from stammtisch.games.glueckauf.view import describe

        return describe(self)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_over(self, state: State) -> bool:
        return state.stage == OVER

    def resample(self, state: State, seat: Seat, rng: random.Random) -> State:
        from stammtisch.games.glueckauf.resample import resample

        return resample(self, state, seat, rng)

    @classmethod
    def action_codec(cls, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        from stammtisch.games.glueckauf.codec import action_table

        return cached_codec(cls, num_players, options, action_table)

    def scores(self, state: State) -> list[int]:
        return [p.vp for p in state.players]

    def winners(self, state: State) -> list[Seat]:
        kept = [p.money % self.edition.marks_per_vp for p in state.players]
        return scoring.winners(self.scores(state), kept)

    def summary(self, state: State) -> dict[str, int]:
        result = dict.fromkeys(SUMMARY_KEYS, 0)
        result.update(state.stats)
        if state.stage == OVER:
            vp = self.scores(state)
            tied = [seat for seat, v in enumerate(vp) if v == max(vp)]
            won = self.winners(state)
            result["decided_by_marks"] = int(len(tied) > 1 and len(won) == 1)
            result["shared_win"] = int(len(won) > 1)
            result["unbalanced_pits"] = sum(1 for f in state.final or [] if f["balance_vp"] < 0)
        return result

    # --- legal action lists -------------------------------------------------------------------

    def _legal_draft(self, s: State, p: Player) -> list[Action]:
        return [self.draft_actions[c] for c in s.revealed]

    def _legal_place(self, s: State, p: Player) -> list[Action]:
        workers = p.workers
        money = p.money
        count = s.count
        ready = self._complete_transports(p)
        legal = []
        for spot in self.spots:
            if count[spot.index] >= workers:
                continue  # not enough workers to displace those there (the bank is never occupied)
            kind = spot.kind
            if kind == FACTORY:
                tile = s.factory[spot.number]
                if not tile or self.tile_cost[tile] > money:
                    continue
            elif kind == DELIVERY:
                if not ready >> spot.number & 1:
                    continue
            elif kind == ORDER:
                if not s.order_slots[spot.number]:
                    continue
            elif kind == FACTORY_DRAW:
                if not s.tile_stack:
                    continue
            elif kind == ORDER_DRAW and not s.order_deck:
                continue
            legal.append(spot.place)
        return legal

    def _complete_transports(self, p: Player) -> int:
        """A bit per transport with at least one completed outstanding order."""
        transport = self.card_transport
        ready = 0
        for card, _, missing in p.orders:
            if not missing:
                ready |= 1 << transport[card]
        return ready

    def _legal_mining(self, s: State, p: Player) -> list[Action]:
        legal = [DONE]
        level = p.cage_level
        legal.extend(CAGE_TO[:level])
        legal.extend(CAGE_TO[level + 1 :])
        cage = p.cage
        in_cage = cage[0] + cage[1] + cage[2] + cage[3]
        if level:
            if in_cage < self.edition.cage_capacity:
                base = (level - 1) * 4
                coal = p.coal
                legal.extend(LOAD[c] for c in range(4) if coal[base + c])
        elif in_cage:
            legal.extend(STORE[c] for c in range(4) if cage[c])
        sources = []
        if level == 0 and in_cage:
            sources.append((0, cage))
        storage = p.storage
        if storage[0] or storage[1] or storage[2] or storage[3]:
            sources.append((1, storage))
        if sources and p.orders:
            self._legal_fills(p, sources, legal)
        return legal

    def _legal_fills(self, p: Player, sources: list[tuple[int, list[int]]], legal: list[Action]) -> None:
        for card_id, fields, missing in p.orders:
            if not missing:
                continue
            card = self.cards[card_id]
            seen: list[tuple[int, Field]] = []
            for j, field in enumerate(fields):
                if not accepts(card, j, field):
                    continue
                key = (card.fields[j], field)
                if key in seen:
                    continue  # an identical field of the same card: the same choice
                seen.append(key)
                for src, cubes in sources:
                    actions = self.fill_actions[src][card_id][j]
                    legal.extend(actions[c] for c in range(4) if cubes[c])

    def _legal_keep_tile(self, s: State, p: Player) -> list[Action]:
        legal = [self.keep_tile_actions[t] for t in s.drawn if self.tile_cost[t] <= p.money]
        legal.append(KEEP_NO_TILE)
        return legal

    def _legal_keep_order(self, s: State, p: Player) -> list[Action]:
        legal = [self.keep_order_actions[c] for c in s.drawn]
        legal.append(KEEP_NO_ORDER)
        return legal

    def _legal_return(self, s: State, p: Player) -> list[Action]:
        """The next drawn item to put back; the side is chosen with the first one."""
        kind = "return_tiles" if s.stage == RETURN_TILES else "return_orders"
        sides = RETURN_SIDES if s.return_to is None else (s.return_to,)
        return [(kind, where, item) for where in sides for item in sorted(s.drawn)]

    def _legal_coal(self, s: State, p: Player) -> list[Action]:
        return [*(SUBSTITUTE[c] for c in range(4) if s.supply[c]), LEAVE_CART_EMPTY]

    # --- draft --------------------------------------------------------------------------------

    def _draft(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        card = int(action[1])  # the engine's `in` check lets True pass for 1
        s.revealed.remove(card)
        s.draft_queue.pop(0)
        s.players[seat].orders.append(self._new_order(card))
        events.append(Event("drafted", {"seat": seat, "card": card}))
        if not s.draft_queue:
            self._end_draft(s, events)

    def _end_draft(self, s: State, events: list[Event]) -> None:
        leftover_slot = self.spot_by_id[self.edition.leftover_order_space].number
        if s.revealed:
            s.order_slots[leftover_slot] = s.revealed.pop()
        for spot in self.spots:
            if spot.kind == ORDER and not s.order_slots[spot.number] and s.order_deck:
                s.order_slots[spot.number] = s.order_deck.pop()
        s.revealed = []
        s.stage = PLACE
        s.current = s.start_player
        events.append(Event("shift_starts", {"shift": s.shift, "start_player": s.start_player,
                                             "order_slots": list(s.order_slots)}))  # fmt: skip

    def _new_order(self, card: int) -> Order:
        n = len(self.cards[card].fields)
        return (card, ((),) * n, n)

    # --- placing workers ----------------------------------------------------------------------

    def _place(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        spot = self.spot_by_id[action[1]]
        p = s.players[seat]
        if spot.kind == BANK:
            p.workers -= 1
            p.bank += 1
            p.money += 1
            events.append(Event("placed", {"seat": seat, "space": spot.id, "workers": 1, "displaced": 0}))
            events.append(Event("marks", {"seat": seat, "marks": 1}))
            self._end_turn(s, events)
            return
        displaced = s.count[spot.index]
        if displaced:
            s.players[s.owner[spot.index]].canteen += displaced
            self._count(s, "displacements")
        events.append(Event("placed", {"seat": seat, "space": spot.id, "workers": displaced + 1,
                                       "displaced": displaced, "displaced_seat": s.owner[spot.index]}))  # fmt: skip
        s.owner[spot.index] = seat
        s.count[spot.index] = displaced + 1
        p.workers -= displaced + 1
        self._carry_out(s, seat, p, spot, events)

    def _carry_out(self, s: State, seat: int, p: Player, spot: Spot, events: list[Event]) -> None:
        kind = spot.kind
        if kind == MONEY:
            p.money += spot.number
            events.append(Event("marks", {"seat": seat, "marks": spot.number}))
            self._end_turn(s, events)
        elif kind == MINING_SPACE:
            s.stage = MINING
            s.steps_left = spot.number
        elif kind == DELIVERY:
            self._deliver(s, seat, p, spot.number, events)
            self._end_turn(s, events)
        elif kind == FACTORY:
            tile = s.factory[spot.number]
            s.factory[spot.number] = 0
            s.refill = ("factory", spot.number)
            self._buy_tile(s, seat, p, tile, events)
            self._after_purchase(s, events)
        elif kind == ORDER:
            card = s.order_slots[spot.number]
            s.order_slots[spot.number] = 0
            s.refill = ("order", spot.number)
            p.orders.append(self._new_order(card))
            events.append(Event("order_taken", {"seat": seat, "card": card}))
            s.stage = CONFIRM
        elif kind == FACTORY_DRAW:
            self._draw(s, seat, s.tile_stack, "tiles", events)
            s.stage = KEEP_TILE
        else:
            self._draw(s, seat, s.order_deck, "orders", events)
            s.stage = KEEP_ORDER

    def _draw(self, s: State, seat: int, pile: list[int], what: str, events: list[Event]) -> None:
        n = min(self.edition.draw_count, len(pile))
        s.drawn = sorted(pile.pop() for _ in range(n))  # a hand, not a pile: no order to learn
        self._count(s, f"draw_{what}")
        events.append(Event(f"drew_{what}", {"seat": seat, "count": n}))
        events.append(Event(f"drawn_{what}", {"seat": seat, "ids": list(s.drawn)}, (seat,)))

    # --- tiles and coal -----------------------------------------------------------------------

    def _buy_tile(self, s: State, seat: int, p: Player, tile_id: int, events: list[Event]) -> None:
        tile = self.tiles[tile_id]
        cost = self.tile_cost[tile_id]
        colour = tile.colour
        p.money -= cost
        p.tiles.append(tile_id)
        p.carts[colour] += tile.carts
        owed = 0
        for _ in range(tile.carts):
            if s.supply[colour]:
                s.supply[colour] -= 1
                p.coal[colour * 5] += 1
            elif any(s.supply):
                s.owed_coal.append(colour)
                owed += 1
            else:
                self._count(s, "carts_left_empty")  # no cube of any colour left in the supply
        self._count(s, "tiles_bought")
        events.append(Event("tile_bought", {"seat": seat, "tile": tile_id, "colour": COLOURS[colour],
                                            "carts": tile.carts, "side": "light" if tile.light else "dark",
                                            "cost": cost, "substitutes_owed": owed}))  # fmt: skip

    def _after_purchase(self, s: State, events: list[Event]) -> None:
        if s.owed_coal and not any(s.supply):
            s.owed_coal.clear()
        if s.owed_coal:
            s.stage = COAL
        elif s.refill is not None:
            s.stage = CONFIRM
        else:
            self._end_turn(s, events)

    def _substitute(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        tunnel = s.owed_coal.pop(0)
        if action[1] is None:
            self._count(s, "carts_left_empty")
            events.append(Event("cart_left_empty", {"seat": seat, "tunnel": COLOURS[tunnel]}))
            self._after_purchase(s, events)
            return
        colour = COLOUR_INDEX[action[1]]
        s.supply[colour] -= 1
        s.players[seat].coal[tunnel * 4 + colour] += 1
        self._count(s, "substitute_cubes")
        events.append(Event("substitute_coal", {"seat": seat, "tunnel": COLOURS[tunnel], "colour": action[1]}))
        self._after_purchase(s, events)

    def _keep_tile(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        tile = None if action[1] is None else int(action[1])
        if tile is None:
            events.append(Event("kept_nothing", {"seat": seat, "what": "tile"}))
        else:
            s.drawn.remove(tile)
            self._buy_tile(s, seat, s.players[seat], tile, events)
        if s.drawn:
            s.stage = RETURN_TILES
        else:
            self._after_purchase(s, events)

    def _return_tiles(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        if self._return_one(s, seat, s.tile_stack, action, "tiles", events):
            self._after_purchase(s, events)

    def _return_one(self, s: State, seat: int, pile: list[int], action: Action, what: str, events: list[Event]) -> bool:
        """Put one drawn item face down on top of or under the pile (the last one follows by
        itself); True once the hand is empty.  Only the drawer knows the order."""
        where = str(action[1])
        s.return_to = where
        self._put_back(s, pile, where, int(action[2]))
        if len(s.drawn) == 1:
            self._put_back(s, pile, where, s.drawn[0])
        if s.drawn:
            return False
        events.append(Event("returned", {"seat": seat, "what": what, "count": len(s.returned), "where": where}))
        s.return_to = None
        s.returned = []
        return True

    @staticmethod
    def _put_back(s: State, pile: list[int], where: str, item: int) -> None:
        s.drawn.remove(item)
        s.returned.append(item)
        if where == "top":
            pile.append(item)
        else:
            pile.insert(0, item)

    # --- orders -------------------------------------------------------------------------------

    def _keep_order(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        card = None if action[1] is None else int(action[1])
        if card is None:
            events.append(Event("kept_nothing", {"seat": seat, "what": "order"}))
        else:
            s.drawn.remove(card)
            s.players[seat].orders.append(self._new_order(card))
            events.append(Event("order_taken", {"seat": seat, "card": card}))
        if s.drawn:
            s.stage = RETURN_ORDERS
        else:
            self._end_turn(s, events)

    def _return_orders(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        if self._return_one(s, seat, s.order_deck, action, "orders", events):
            self._end_turn(s, events)

    def _deliver(self, s: State, seat: int, p: Player, transport: int, events: list[Event]) -> None:
        cards = self.cards
        delivered = []
        kept = []
        for order in p.orders:
            card_id, fields, missing = order
            if missing == 0 and cards[card_id].transport == transport:
                delivered.append(card_id)
                for field in fields:
                    for cube in field:
                        s.supply[cube] += 1
            else:
                kept.append(order)
        p.orders = kept
        p.delivered.extend(delivered)
        vp = sum(cards[c].vp for c in delivered)
        p.vp += vp
        self._count(s, "deliveries")
        self._count(s, "orders_delivered", len(delivered))
        events.append(Event("delivered", {"seat": seat, "transport": TRANSPORTS[transport],
                                          "cards": delivered, "vp": vp}))  # fmt: skip

    # --- mining -------------------------------------------------------------------------------

    def _move_cage(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s.players[seat]
        events.append(Event("cage_moved", {"seat": seat, "from": LEVELS[p.cage_level], "to": action[1]}))
        p.cage_level = LEVEL_INDEX[action[1]]
        self._step_taken(s, events)

    def _load(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s.players[seat]
        colour = COLOUR_INDEX[action[1]]
        p.coal[(p.cage_level - 1) * 4 + colour] -= 1
        p.cage[colour] += 1
        events.append(Event("coal_loaded", {"seat": seat, "colour": action[1], "level": LEVELS[p.cage_level]}))
        self._step_taken(s, events)

    def _store(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s.players[seat]
        colour = COLOUR_INDEX[action[1]]
        p.cage[colour] -= 1
        p.storage[colour] += 1
        events.append(Event("coal_stored", {"seat": seat, "colour": action[1]}))
        self._step_taken(s, events)

    def _fill(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        _, source, card_id, j, colour_name = action
        card_id, j = int(card_id), int(j)
        p = s.players[seat]
        colour = COLOUR_INDEX[colour_name]
        (p.cage if source == "cage" else p.storage)[colour] -= 1
        card = self.cards[card_id]
        for i, (c, fields, missing) in enumerate(p.orders):
            if c == card_id:
                field = (*fields[j], colour)
                if is_complete(card, j, field):
                    missing -= 1
                if len(field) == 2:
                    self._count(s, "substituted_fields")
                p.orders[i] = (c, (*fields[:j], field, *fields[j + 1 :]), missing)
                params = {"seat": seat, "card": card_id, "field": j, "from": source, "colour": colour_name}
                events.append(Event("field_filled", {**params, "order_complete": missing == 0}))
                break
        self._step_taken(s, events)

    def _step_taken(self, s: State, events: list[Event]) -> None:
        s.steps_left -= 1
        if s.steps_left == 0:
            self._end_turn(s, events)

    def _done(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        events.append(Event("mining_ends", {"seat": seat, "steps_unused": s.steps_left}))
        self._end_turn(s, events)

    # --- end of turn, shift and game ----------------------------------------------------------

    def _confirm(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        assert s.refill is not None
        kind, slot = s.refill
        pile, slots = (s.tile_stack, s.factory) if kind == "factory" else (s.order_deck, s.order_slots)
        if pile:
            slots[slot] = pile.pop()
            events.append(Event("refilled", {"what": kind, "slot": slot + 1, "id": slots[slot]}))
        else:
            self._count(s, f"{kind}_not_refilled")
            events.append(Event("not_refilled", {"what": kind, "slot": slot + 1}))
        self._end_turn(s, events)

    def _end_turn(self, s: State, events: list[Event]) -> None:
        s.stage = PLACE
        s.refill = None
        s.steps_left = 0
        n = len(s.players)
        for k in range(1, n + 1):
            seat = (s.current + k) % n
            if s.players[seat].workers:
                s.current = seat
                return
        self._end_shift(s, events)

    def _end_shift(self, s: State, events: list[Event]) -> None:
        events.append(Event("shift_ends", {"shift": s.shift}))
        if self.options["open_delivered"] is False:
            for seat, p in enumerate(s.players):
                events.append(Event("delivered_revealed", {"seat": seat, "cards": list(p.delivered)}))
        self._shift_scoring(s, events)
        if s.shift >= self.edition.shifts:
            self._final_scoring(s, events)
            return
        s.start_player = self._next_start_player(s)
        s.shift += 1
        s.current = s.start_player
        for p in s.players:
            p.workers = self.total_workers
            p.canteen = 0
            p.bank = 0
        s.owner = [-1] * len(s.owner)
        s.count = [0] * len(s.count)
        events.append(Event("shift_starts", {"shift": s.shift, "start_player": s.start_player,
                                             "order_slots": list(s.order_slots)}))  # fmt: skip

    def _shift_scoring(self, s: State, events: list[Event]) -> None:
        printed = self.options["count_printed_carts"]
        for category in scoring.shift_categories(self.edition, s.shift):
            counts, awards = scoring.score_category(self.edition, s.players, category, printed)
            for p, vp in zip(s.players, awards, strict=True):
                p.vp += vp
            events.append(Event("category_scored", {"shift": s.shift, "category": category.id,
                                                    "counts": counts, "vp": awards}))  # fmt: skip

    def _next_start_player(self, s: State) -> int:
        """Most workers on factory spaces; ties go to the tied seat nearest clockwise after
        the previous start player, who cannot keep the marker on a tie."""
        n = len(s.players)
        in_factory = [0] * n
        for spot in self.spots:
            if spot.kind in (FACTORY, FACTORY_DRAW) and s.count[spot.index]:
                in_factory[s.owner[spot.index]] += s.count[spot.index]
        best = max(in_factory)
        previous = s.start_player
        if best == 0:
            return (previous + 1) % n
        tied = [seat for seat in range(n) if in_factory[seat] == best]
        if len(tied) == 1:
            return tied[0]
        return next((previous + k) % n for k in range(1, n) if in_factory[(previous + k) % n] == best)

    def _final_scoring(self, s: State, events: list[Event]) -> None:
        s.final = []
        for seat, p in enumerate(s.players):
            parts = scoring.final_breakdown(self.edition, p)
            p.vp += parts["total_vp"]
            s.final.append(parts)
            events.append(Event("final_scoring", {"seat": seat, **parts}))
        s.stage = OVER
        events.append(Event("game_over", {"vp": self.scores(s), "winners": self.winners(s)}))

    @staticmethod
    def _count(s: State, key: str, n: int = 1) -> None:
        s.stats[key] = s.stats.get(key, 0) + n
