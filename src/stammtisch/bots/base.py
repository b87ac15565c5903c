"""The bot interfaces, the one call every loop uses to ask a bot, and the random bot."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from stammtisch.engine.protocol import Action, Game, Seat


class Bot(Protocol):
    """Decides from the seat's view and legal actions."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


@runtime_checkable
class SearchBot(Protocol):
    """Decides by searching states that agree with what its seat knows (``knowledge`` is a sample
    from ``game.resample``, never the true state); it may resample it again as often as it likes."""

    def choose_in(self, game: Game[Any], knowledge: Any, seat: Seat, legal: list[Action]) -> Action: ...


def decide(bot: Bot | SearchBot, game: Game[Any], state: Any, seat: Seat, legal: list[Action] | None = None) -> Action:
    """Ask ``bot`` for ``seat``'s move in ``state``: a view bot gets the seat's view; a search bot a
    state resampled from the seat's knowledge (a fixed seed: equal knowledge gives an equal sample)."""
    legal = game.legal_actions(state, seat) if legal is None else legal
    if isinstance(bot, SearchBot):
        return bot.choose_in(game, knowledge_of(game, state, seat), seat, legal)
    return bot.choose(game.view(state, seat), legal)


def knowledge_of(game: Game[Any], state: Any, seat: Seat) -> Any:
    """A state resampled from what ``seat`` knows, with a fixed seed: equal knowledge, equal sample."""
    return game.resample(state, seat, random.Random(0))


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def bot_seed(base: int, game_index: int, seat: int) -> int:
    """Distinct, reproducible seeds per game and seat (``play``, ``simulate``, ``tournament``)."""
    return (base * 1_000_003 + game_index) * 64 + seat
