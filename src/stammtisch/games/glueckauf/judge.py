"""Judging a search playout cut off at the end of a shift (bots/judges.py; docs/bots.md)."""

from __future__ import annotations

from typing import Any, Final

from stammtisch.engine.protocol import Game
from stammtisch.games.glueckauf.scoring import final_breakdown

ORDER_SHARE: Final = 0.6  # of a filled field's share of the order's VP


class ShiftJudge:
    """VP so far, plus the final scoring as if the game ended now (Marks, coal, outstanding
    orders, pit balance), plus part of each outstanding order's VP by the share of its fields
    filled (an order half filled is work the final scoring does not see yet)."""

    def stage(self, state: Any) -> int:
        return int(state.shift)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        edition = game.edition  # type: ignore[attr-defined]
        cards = edition.order_cards
        result = []
        for player in state.players:
            total = player.vp + final_breakdown(edition, player)["total_vp"]
            for order in player.orders:
                filled = len(order.fields) - order.missing
                total += ORDER_SHARE * cards[order.card - 1].vp * filled / len(order.fields)
            result.append(float(total))
        return result


JUDGE = ShiftJudge()


# ---------------------------------------------------------------- the learned judge's features (bots/learned.py)

FEATURES = ("vp", "money", "marks_vp", "coal", "coal_vp", "outstanding", "balance_vp", "order_vp", "filled_vp",
            "missing", "delivered", "tiles", "carts", "shift_estimate")


def features(game: Game[Any], view: dict[str, Any]) -> list[float]:
    """What the learned judge reads of the viewing seat: its own entry of the view (VP, Marks, coal
    wherever it lies, orders and their filled fields, tiles and carts) and the estimate that
    ``ShiftJudge`` would give from the same numbers."""
    edition = game.edition  # type: ignore[attr-defined]
    me = view["board"]["seats"][view["seat"]]
    coal = sum(sum(me[place].values()) for place in ("cage", "storage"))
    coal += sum(sum(tunnel["coal"].values()) for tunnel in me["tunnels"])
    coal += sum(len(field) for order in me["orders"] for field in order["filled"])
    orders = me["orders"]
    order_vp = sum(order["vp"] for order in orders)
    # a list, as bots/learned.py's ``predict`` sums: the builtin sum of floats in both builds
    filled_vp = sum([order["vp"] * (len(order["fields"]) - order["missing"]) / len(order["fields"])
                     for order in orders])
    marks_vp = me["money"] // edition.marks_per_vp
    coal_vp = coal // edition.coal_per_vp
    outstanding = len(orders) * edition.vp_per_outstanding_order
    balance = abs(me["light_tiles"] - me["dark_tiles"]) * edition.vp_per_unbalanced_tile
    estimate = me["vp"] + marks_vp + coal_vp + outstanding + balance + ORDER_SHARE * filled_vp
    return [float(v) for v in (
        me["vp"], me["money"], marks_vp, coal, coal_vp, len(orders), balance, order_vp, filled_vp,
        sum(order["missing"] for order in orders), me["delivered_count"], me["light_tiles"] + me["dark_tiles"],
        sum(tunnel["carts"] for tunnel in me["tunnels"]), estimate)]


BASE_FEATURE = "shift_estimate"  # the feature that is ShiftJudge's own estimate (tools/train-judge compares)
