"""Judging a playout cut off before the end of the game (docs/bots.md, "Playouts and values").

A search with ``Settings.rounds`` plays a playout only until that many rounds (or shifts) have ended,
then asks the game's judge (``GameSpec.judge``, in the game's folder: ``games/<g>/judge.py``) for an
estimate of each seat's final score.  The judge reads the playout's state, which is a
determinization the search drew itself from its seat's knowledge (``game.resample``), never the
true state.
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


def judge_for(game: Game[Any]) -> Judge | None:
    """The game's judge, or None if it has none (then playouts run to the end)."""
    from stammtisch.registry import game_spec  # the registry imports bots.base

    return game_spec(game.name).playout_judge()
