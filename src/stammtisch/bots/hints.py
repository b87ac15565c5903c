"""Hints: what the hard bot would do in a seat's place, and why (its best moves with the values its
search estimates, and a fact about the best move that the player can check on the board).  Offered
only at tables with the ``hints`` option (off by default)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stammtisch.bots.base import knowledge_of
from stammtisch.bots.ismcts import Estimate, SearchingBot
from stammtisch.engine.options import HINTS
from stammtisch.engine.protocol import Action, Game, Seat
from stammtisch.i18n import _n

HINT_KIND = "hard"  # the bot kind whose view a hint gives


def hints_allowed(game: Game[Any]) -> bool:
    return bool(game.options.get(HINTS.name))


def hint_from_knowledge(game: Game[Any], knowledge: Any, seat: Seat, legal: list[Action], seed: int,
                        top: int = 3) -> list[Estimate]:
    """The hard bot's ``top`` moves from a sample of the seat's knowledge, best first."""
    from stammtisch.registry import game_spec

    bot = game_spec(game.name).bot(HINT_KIND, seed)
    if not isinstance(bot, SearchingBot):
        raise TypeError(f"the {HINT_KIND} bot of {game.name} gives no hints")
    return bot.hint(game, knowledge, seat, legal, top)


def hint(game: Game[Any], state: Any, seat: Seat, seed: int, top: int = 3) -> list[Estimate]:
    """The hard bot's ``top`` moves for ``seat`` in ``state`` (it reads only the seat's knowledge)."""
    return hint_from_knowledge(game, knowledge_of(game, state, seat), seat, game.legal_actions(state, seat), seed,
                               top)


@dataclass(frozen=True, slots=True)
class Why:
    """Why the hint's first move, in the current language: ``fact``, what the move changes on the board
    as the seat's view shows it (None where the game has nothing to say about such a move), and
    ``compare``, how the search rated it against the next best move it compared."""

    fact: str | None
    compare: str

    def line(self) -> str:
        return self.compare if self.fact is None else f"{self.fact}. {self.compare}"


def percent(value: float) -> int:
    """An estimate in 0–100 as the texts give it, halves rounded up as the browser's ``Math.round`` does."""
    return math.floor(100 * value + 0.5)


def comparison(found: Sequence[Estimate]) -> str:
    """The search's estimate of the best move against the runner-up's (values 0–100, docs/bots.md)."""
    best = found[0]
    value = percent(best.value)
    if len(found) < 2:
        return _n("Rated {value} of 100 over {visits} simulated game; no other move was compared",
                  "Rated {value} of 100 over {visits} simulated games; no other move was compared",
                  best.visits).format(value=value, visits=best.visits)
    other = percent(found[1].value)
    if found[1].value > best.value:  # the paired search keeps its favourite unless another move is clearly better
        return _n("Rated {value} of 100 against {other} for another move, too close over {visits} simulated game to "
                  "give up the bot's favourite",
                  "Rated {value} of 100 against {other} for another move, too close over {visits} simulated games to "
                  "give up the bot's favourite", best.visits).format(
            value=value, other=other, visits=best.visits)
    return _n("Rated {value} of 100 against {other} for the next best move, over {visits} simulated game",
              "Rated {value} of 100 against {other} for the next best move, over {visits} simulated games",
              best.visits).format(value=value, other=other, visits=best.visits)


def why(game_name: str, view: Mapping[str, Any], found: Sequence[Estimate],
        names: Sequence[str] | None = None) -> Why | None:
    """The reason for the hint ``found`` (best first), from the asking seat's ``view`` only: the game's
    text module explains the move (``explain_action(action, view, names)``, None when it has no fact)."""
    from stammtisch.registry import game_spec

    if not found:
        return None
    explain = getattr(game_spec(game_name).texts(), "explain_action", None)
    fact = explain(found[0].action, view, names) if explain is not None else None
    return Why(fact, comparison(found))
