"""Hints: what the hard bot would do in a seat's place, and why (its best moves with the values its
search estimates).  Offered only at tables with the ``hints`` option (off by default)."""

from __future__ import annotations

from typing import Any

from stammtisch.bots.base import knowledge_of
from stammtisch.bots.ismcts import Estimate, SearchingBot
from stammtisch.engine.options import HINTS
from stammtisch.engine.protocol import Action, Game, Seat

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
