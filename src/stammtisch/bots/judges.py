"""Judging a playout cut off before the end of the game (docs/bots.md, "Playouts and values").

A search with ``Settings.rounds`` plays a playout only until that many rounds (Die Macher) or
shifts (Glück Auf) have ended, then asks the game's judge for an estimate of each seat's final
score.  The judge reads the playout's state, which is a determinization the search drew itself
from its seat's knowledge (``game.resample``), never the true state.
"""

from __future__ import annotations

from typing import Any, Protocol

from stammtisch.engine.protocol import Game


class Judge(Protocol):
    def stage(self, state: Any) -> int:
        """A number that grows by one whenever a round (or shift) ends."""
        ...

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        """Each seat's expected final score, judged from ``state``."""
        ...


class DieMacherJudge:
    """The score so far: votes and wins of the elections held, media presence, party base and the
    money ranking as it stands (``game.scores``), which is where a round's work shows up."""

    def stage(self, state: Any) -> int:
        return int(state.round)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        return [float(v) for v in game.scores(state)]


class GlueckAufJudge:
    """VP so far, plus the final scoring as if the game ended now (Marks, coal, outstanding
    orders, pit balance), plus part of each outstanding order's VP by the share of its fields
    filled (an order half filled is work the final scoring does not see yet)."""

    ORDER_SHARE = 0.6  # of a filled field's share of the order's VP

    def stage(self, state: Any) -> int:
        return int(state.shift)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        from stammtisch.games.glueckauf.scoring import final_breakdown

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


JUDGES: dict[str, Judge] = {"diemacher": DieMacherJudge(), "glueckauf": GlueckAufJudge()}


def judge_for(game: Game[Any]) -> Judge | None:
    return JUDGES.get(game.name)
