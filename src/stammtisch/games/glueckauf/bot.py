"""A heuristic Glück Auf bot that sees only its seat's view and the legal actions.

It drafts and takes orders it can fill from coal it has or can buy, buys tunnel tiles for the
colours its orders lack (keeping the pit balanced), plans mining runs that end at the surface
with cubes on order fields, and delivers as soon as an order is complete.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any, Final

from stammtisch.engine.protocol import Action
from stammtisch.games.glueckauf.board import LEVELS
from stammtisch.games.glueckauf.view import playout_view

COLOURS: Final = ("yellow", "brown", "grey", "black")
PLAN_PREFERENCE: Final = 3.0  # preference (VP) of the chosen step where the bot follows a plan, not scores
WORKER_VALUE: Final = 1.2  # VP a worker is worth elsewhere; weighs a costly (displacing) placement
CAGE_CAPACITY: Final = 5


# Plain slotted classes, not dataclasses: a plan is made for every combination of loads a mining
# decision weighs, and a compiled dataclass's ``__init__`` runs interpreted.
class Need:
    __slots__ = ("card", "field", "colour", "half", "value")

    def __init__(self, card: int, field: int, colour: int, half: bool, value: float) -> None:
        self.card = card
        self.field = field
        self.colour = colour  # printed colour
        self.half = half  # one substitute cube already lies on it
        self.value = value


class Plan:
    __slots__ = ("loads", "value", "steps")

    def __init__(self, loads: dict[tuple[int, int], int], value: float, steps: int) -> None:
        self.loads = loads  # (tunnel, cube colour) -> cubes to load
        self.value = value
        self.steps = steps


class HeuristicBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        # What a decision asks about its seat's entry again and again (needs, coal, unmet colours),
        # kept for the last entry seen (``me`` is a fresh view's entry, never changed).
        self._memo_me: dict[str, Any] | None = None
        self._memo: dict[str, Any] = {}

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        action = self._choose(view, legal)
        if action in legal:
            return action
        return ("done",) if ("done",) in legal else legal[0]

    def choose_in_sample(self, game: Any, state: Any, seat: int, legal: list[Action]) -> Action:
        """A search playout's move (bots/ismcts.py) in a state the search sampled: decided from the
        part of the seat's view that ``choose`` reads (``playout_view``), which is far cheaper to build."""
        return self.choose(playout_view(game, state, seat), legal)

    def preferences_in_sample(self, game: Any, state: Any, seat: int, legal: list[Action]) -> list[float]:
        """``preferences`` from the seat's playout view of a sampled state (the search's opponent
        model, ``bots.ismcts.NoisyPolicy``)."""
        return self.preferences(playout_view(game, state, seat), legal)

    def preferences(self, view: dict[str, Any], legal: list[Action]) -> list[float]:
        """The bot's own score of each legal action (the noisy bot's softmax, bots/noisy.py), in VP:
        a draft card's, a space's or a drawn card's value as ``choose`` weighs them (keeping none is
        worth 0).  Where the bot follows a plan rather than scores (mining steps, substitutes, putting
        back) its choice has PLAN_PREFERENCE and the other actions 0."""
        me = view["board"]["seats"][view["seat"]]
        kinds = {a[0] for a in legal}
        if "draft" in kinds:
            return [self._card_value(_card(view["board"]["draft"], a[1]), me, view) for a in legal]
        if "keep_order" in kinds or "keep_tile" in kinds:
            drawn = view["board"]["drawn"] or []
            value = self._order_value if "keep_order" in kinds else self._tile_value
            return [0.0 if a[1] is None else value(view, me, _card(drawn, a[1])) for a in legal]
        if "place" in kinds and view["phase"] != "mining" and not kinds & {"return_tiles", "return_orders", "coal"}:
            return [self._placement_value(view, me, a[1]) for a in legal]
        chosen = self.choose(view, legal)
        return [PLAN_PREFERENCE if a == chosen else 0.0 for a in legal]

    def _choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        me = view["board"]["seats"][view["seat"]]
        stage = view["phase"]
        kinds = {a[0] for a in legal}
        if "draft" in kinds:
            return max(legal, key=lambda a: self._card_value(_card(view["board"]["draft"], a[1]), me, view))
        if "keep_order" in kinds:
            return self._keep_order(view, me, legal)
        if "keep_tile" in kinds:
            return self._keep_tile(view, me, legal)
        if "return_tiles" in kinds or "return_orders" in kinds:
            return self._put_back(legal)
        if "coal" in kinds:
            return self._substitute(view, me, legal)
        if stage == "mining":
            return self._mining_step(view, me, legal)
        if "place" in kinds:
            return self._place(view, me, legal)
        return legal[0]

    # --- values ------------------------------------------------------------------------------

    def _card_value(self, card: dict[str, Any], me: dict[str, Any], view: dict[str, Any]) -> float:
        """VP less an estimate of the work: deep colours and colours without coal cost more."""
        have = self._coal(me)
        work = 0.0
        for name in card["fields"]:
            c = COLOURS.index(name)
            work += 0.8 + 0.35 * c
            if have[c] <= 0:
                work += 1.0 + 0.5 * c  # a tile to buy
            have[c] -= 1
        shifts_left = view["board"]["shifts"] - view["board"]["shift"]
        return card["vp"] + 0.6 * len(card["fields"]) * (1 + shifts_left) - 1.6 * work

    def _remembered(self, me: dict[str, Any], key: str, make: Any) -> Any:
        if self._memo_me is not me:
            self._memo_me, self._memo = me, {}
        if key not in self._memo:
            self._memo[key] = make(me)
        return self._memo[key]

    def _needs(self, me: dict[str, Any]) -> list[Need]:
        """The fields the outstanding orders still need (a shared list: callers never change it)."""
        return self._remembered(me, "needs", self._count_needs)

    def _coal(self, me: dict[str, Any]) -> list[int]:
        return self._remembered(me, "coal", _coal_by_colour)[:]

    def _count_needs(self, me: dict[str, Any]) -> list[Need]:
        needs = []
        for order in me["orders"]:
            if not order["missing"]:
                continue
            per_field = order["vp"] / len(order["fields"]) + 3.0 / order["missing"]
            for j, (printed, filled) in enumerate(zip(order["fields"], order["filled"], strict=True)):
                colour = COLOURS.index(printed)
                if not filled:
                    needs.append(Need(order["id"], j, colour, False, per_field))
                elif len(filled) == 1 and filled[0] != printed:
                    needs.append(Need(order["id"], j, colour, True, per_field))
        return needs

    # --- placing workers ---------------------------------------------------------------------

    def _place(self, view: dict[str, Any], me: dict[str, Any], legal: list[Action]) -> Action:
        best: tuple[float, float] = (-1e9, 0.0)
        choice = legal[0]
        for action in legal:
            key = (self._placement_value(view, me, action[1]), self.rng.random())
            if key > best:
                best, choice = key, action
        return choice

    def _placement_value(self, view: dict[str, Any], me: dict[str, Any], space: str) -> float:
        cost = 1 if space == "bank" else view["board"]["spaces"][space]["workers"] + 1
        return self._space_value(view, me, space) - WORKER_VALUE * (cost - 1)

    def _space_value(self, view: dict[str, Any], me: dict[str, Any], space: str) -> float:
        kind, _sep, value = space.partition("_")
        if space == "bank":
            return 0.4
        if kind == "delivery":
            orders = [o for o in me["orders"] if o["transport"] == value and not o["missing"]]
            return sum(o["vp"] + 2 * len(o["fields"]) for o in orders) + 5
        if kind == "mining":
            plan = self._plan(me, int(value), view)
            return plan.value - 0.5 if plan.value > 0 else -5
        if kind == "money":
            return self._money_value(view, me, int(value))
        if kind == "factory" and value != "draw":
            return self._tile_value(view, me, view["board"]["spaces"][space]["tile"])
        if kind == "order" and value != "draw":
            return self._order_value(view, me, view["board"]["spaces"][space]["card"])
        return 0.0  # the draw-5 spaces: a gamble the bot leaves alone

    def _money_value(self, view: dict[str, Any], me: dict[str, Any], marks: int) -> float:
        short = self._unmet_colours(me)
        wanted = sum(short) > 0 and me["money"] < 8
        return marks / 5 + (marks * 0.6 if wanted else 0) + (1.0 if me["money"] < 4 else 0)

    def _unmet_colours(self, me: dict[str, Any]) -> list[int]:
        """Cubes per colour the orders still lack (asked once per space and tile of a decision)."""
        return self._remembered(me, "unmet", self._count_unmet)[:]

    def _count_unmet(self, me: dict[str, Any]) -> list[int]:
        have = self._coal(me)
        short = [0, 0, 0, 0]
        for need in self._needs(me):
            if need.half:
                continue
            if have[need.colour] > 0:
                have[need.colour] -= 1
            else:
                short[need.colour] += 1
        return short

    def _tile_value(self, view: dict[str, Any], me: dict[str, Any], tile: dict[str, Any] | None) -> float:
        if tile is None or tile["cost"] > me["money"]:
            return -10
        colour = COLOURS.index(tile["colour"])
        useful = min(tile["carts"], self._unmet_colours(me)[colour])
        value = useful * (4.5 + colour) - tile["cost"] * 0.35
        if not useful:
            value = -2
        return value + self._balance_change(me, tile["side"])

    def _balance_change(self, me: dict[str, Any], side: str) -> float:
        light, dark = me["light_tiles"], me["dark_tiles"]
        before = abs(light - dark)
        after = abs(light + (side == "light") - dark - (side == "dark"))
        return 2.0 * (before - after)

    def _order_value(self, view: dict[str, Any], me: dict[str, Any], card: dict[str, Any] | None) -> float:
        if card is None:
            return -10
        open_fields = sum(o["missing"] for o in me["orders"])
        late = view["board"]["shift"] == view["board"]["shifts"] and me["workers"] < 6
        if late or open_fields > 6:
            return -3
        return self._card_value(card, me, view) * 0.5 - 0.5 * open_fields

    # --- draw-5, substitutes -----------------------------------------------------------------

    def _keep_order(self, view: dict[str, Any], me: dict[str, Any], legal: list[Action]) -> Action:
        drawn = view["board"]["drawn"] or []
        best = 0.0
        choice: Action = ("keep_order", None)
        for action in legal:
            if action[1] is not None:
                value = self._order_value(view, me, _card(drawn, action[1]))
                if value > best:
                    best, choice = value, action
        return choice

    def _keep_tile(self, view: dict[str, Any], me: dict[str, Any], legal: list[Action]) -> Action:
        drawn = view["board"]["drawn"] or []
        best = 0.0
        choice: Action = ("keep_tile", None)
        for action in legal:
            if action[1] is not None:
                value = self._tile_value(view, me, _card(drawn, action[1]))
                if value > best:
                    best, choice = value, action
        return choice

    @staticmethod
    def _put_back(legal: list[Action]) -> Action:
        """Under the pile: what the bot passed over is out of the others' reach for long."""
        return next((a for a in legal if a[1] == "bottom"), legal[0])

    def _substitute(self, view: dict[str, Any], me: dict[str, Any], legal: list[Action]) -> Action:
        """A cube of a colour the orders lack; else, in the last shift, an empty cart (it scores
        in the empty-minecart categories); else any cube (coal is worth VP at the end)."""
        short = self._unmet_colours(me)
        cubes = [a for a in legal if a[1] is not None]
        best = max(cubes, key=lambda a: short[COLOURS.index(a[1])], default=None)
        if best is not None and short[COLOURS.index(best[1])]:
            return best
        if best is None or view["board"]["shift"] == view["board"]["shifts"]:
            return ("coal", None)
        return best

    # --- mining ------------------------------------------------------------------------------

    def _mining_step(self, view: dict[str, Any], me: dict[str, Any], legal: list[Action]) -> Action:
        steps = view["board"]["steps_left"]
        fill = self._exact_fill(me, legal)
        if fill is not None:
            return fill
        plan = self._plan(me, steps, view)
        level = LEVELS.index(me["cage_level"])
        targets = sorted({t + 1 for (t, _c), k in plan.loads.items() if k})
        if plan.value > 0 and targets:
            if level in targets:
                colour = next(c for (t, c), k in plan.loads.items() if k and t + 1 == level)
                return ("load", COLOURS[colour])
            return ("cage", LEVELS[max(targets)])
        if level and self._useful_in_cage(me) and ("cage", "surface") in legal:
            return ("cage", "surface")
        substitute = self._substitute_fill(me, legal, steps)
        return substitute if substitute is not None else ("done",)

    def _exact_fill(self, me: dict[str, Any], legal: list[Action]) -> Action | None:
        """A cube of a field's own colour onto the order closest to completion."""
        fills = [a for a in legal if a[0] == "fill"]
        if not fills:
            return None
        missing = {o["id"]: o["missing"] for o in me["orders"]}
        printed = {o["id"]: o["fields"] for o in me["orders"]}
        exact = [a for a in fills if printed[a[2]][a[3]] == a[4] and not _half(me, a[2], a[3])]
        if not exact:
            return None
        return min(exact, key=lambda a: (missing[a[2]], a[1] != "cage"))

    def _useful_in_cage(self, me: dict[str, Any]) -> bool:
        wanted = {COLOURS[n.colour] for n in self._needs(me) if not n.half}
        return any(me["cage"][c] for c in wanted)

    def _substitute_fill(self, me: dict[str, Any], legal: list[Action], steps: int) -> Action | None:
        """Two spare cubes on one field, when that completes an order within the steps left."""
        fills = [a for a in legal if a[0] == "fill"]
        if not fills:
            return None
        spare = sum(me["cage"].values()) * (me["cage_level"] == "surface") + sum(me["storage"].values())
        for order in sorted(me["orders"], key=lambda o: o["missing"]):
            if not order["missing"]:
                continue
            cubes = sum(_cubes_missing(order, j) for j in range(len(order["fields"])))
            if cubes <= min(spare, steps):
                options = [a for a in fills if a[2] == order["id"]]
                if options:
                    return options[0]
        return None

    def _plan(self, me: dict[str, Any], steps: int, view: dict[str, Any]) -> Plan:
        """The best mining run within ``steps``: which cubes to load, then deliver at the surface."""
        needs = sorted((n for n in self._needs(me) if not n.half), key=lambda n: -n.value)  # best paid first
        level = LEVELS.index(me["cage_level"])
        cage = [me["cage"][c] for c in COLOURS]
        storage = [me["storage"][c] for c in COLOURS]
        room = CAGE_CAPACITY - sum(cage)
        wanted = [0, 0, 0, 0]
        for n in needs:
            wanted[n.colour] += 1
        options = []
        for t in range(4):
            avail = me["tunnels"][t]["coal"][COLOURS[t]]
            extra = max(0, wanted[t] - cage[t] - storage[t])
            options.append(range(min(avail, extra, room) + 1))
        best = Plan({}, 0.0, 0)
        for combo in product(*options):
            total = sum(combo)
            if total > room:
                continue
            plan = self._evaluate(combo, level, cage, storage, needs, steps)
            if plan.value > best.value or (plan.value == best.value and plan.steps < best.steps):
                best = plan
        return best

    def _evaluate(
        self, combo: tuple[int, ...], level: int, cage: list[int], storage: list[int], needs: list[Need], steps: int
    ) -> Plan:
        targets = {t + 1 for t in range(4) if combo[t]}
        carried = [cage[c] + combo[c] for c in range(4)]
        moves = len(targets - {level}) + (1 if (targets or level) and sum(carried) else 0)
        if not targets and level == 0:
            moves = 0
        budget = steps - moves - sum(combo)
        if budget < 0:
            return Plan({}, -1.0, 99)
        value = 0.0
        used = 0
        cage_left, store_left = carried[:], storage[:]
        for need in needs:  # best paid first
            if used >= budget:
                break
            c = need.colour
            if cage_left[c]:
                cage_left[c] -= 1
            elif store_left[c]:
                store_left[c] -= 1
            else:
                continue
            used += 1
            value += need.value
        loads = {(t, t): combo[t] for t in range(4) if combo[t]}
        return Plan(loads, value, moves + sum(combo) + used)


def _card(cards: list[dict[str, Any]], ident: int) -> dict[str, Any]:
    return next(c for c in cards if c["id"] == ident)


def _coal_by_colour(me: dict[str, Any]) -> list[int]:
    have = [me["cage"][c] + me["storage"][c] for c in COLOURS]
    for tunnel in me["tunnels"]:
        for i, c in enumerate(COLOURS):
            have[i] += tunnel["coal"][c]
    return have


def _half(me: dict[str, Any], card: int, field: int) -> bool:
    order = next(o for o in me["orders"] if o["id"] == card)
    filled = order["filled"][field]
    return len(filled) == 1 and filled[0] != order["fields"][field]


def _cubes_missing(order: dict[str, Any], j: int) -> int:
    """Substitute cubes a field still needs (0 when it is complete)."""
    filled = order["filled"][j]
    if len(filled) == 2 or (len(filled) == 1 and filled[0] == order["fields"][j]):
        return 0
    return 2 - len(filled)
