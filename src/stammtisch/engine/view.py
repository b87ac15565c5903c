"""The one view envelope: every game's view has the same top-level keys, its own data under ``board``.

    game      the game's registered name
    seat      the reader's seat (None: a spectator)
    players   how many seats the table has
    to_act    the seats that may act now (several during a sealed decision; empty once over)
    phase     where the game stands, in the game's own words (a phase of its declared flow)
    decision  public facts about the pending decision (who, what, where), or None once over
    final     None until the game is over, then {"scores", "winners", "detail"}: points per seat,
              the winning seats and the game's own final table (one row per seat)
    board     everything else the reader may know, as the game lays it out

What never changes during a game (layout, edition facts, the phase track, labels) is not repeated in
every view: ``Game.describe()`` publishes it once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stammtisch.engine.protocol import Game

ENVELOPE = ("game", "seat", "players", "to_act", "phase", "decision", "final", "board")


def envelope(game: Game[Any], state: Any, seat: int | None, *, phase: str, decision: dict[str, Any] | None,
             board: dict[str, Any], final_detail: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    over = game.is_over(state)
    return {
        "game": game.name,
        "seat": seat,
        "players": game.num_players,
        "to_act": game.to_act(state),
        "phase": phase,
        "decision": None if over else decision,
        "final": {"scores": game.scores(state), "winners": game.winners(state), "detail": final_detail}
        if over else None,
        "board": board,
    }
