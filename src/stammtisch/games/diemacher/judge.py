"""Judging a search playout cut off at the end of a round (bots/judges.py; docs/bots.md)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Game


class RoundJudge:
    """The score so far: votes and wins of the elections held, media presence, party base and the
    money ranking as it stands (``game.scores``), which is where a round's work shows up."""

    def stage(self, state: Any) -> int:
        return int(state.round)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        return [float(v) for v in game.scores(state)]


JUDGE = RoundJudge()
