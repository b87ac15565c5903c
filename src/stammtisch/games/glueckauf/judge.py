"""Judging a search playout cut off at the end of a shift (bots/judges.py; docs/bots.md)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Game
from stammtisch.games.glueckauf.scoring import final_breakdown


class ShiftJudge:
    """VP so far, plus the final scoring as if the game ended now (Marks, coal, outstanding
    orders, pit balance), plus part of each outstanding order's VP by the share of its fields
    filled (an order half filled is work the final scoring does not see yet)."""

    ORDER_SHARE = 0.6  # of a filled field's share of the order's VP

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
                total += self.ORDER_SHARE * cards[order.card - 1].vp * filled / len(order.fields)
            result.append(float(total))
        return result


JUDGE = ShiftJudge()
