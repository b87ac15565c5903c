"""Bots seated at a server table: the random bot or the game's heuristic bot, choosing from views."""

from __future__ import annotations

from importlib import import_module

from stammtisch.bots.base import Bot, RandomBot

BOT_KINDS = ("heuristic", "random")


def bot_kinds(game: str) -> tuple[str, ...]:
    return BOT_KINDS if _heuristic(game) is not None else ("random",)


def make_bot(game: str, kind: str, seed: int) -> Bot:
    if kind == "heuristic":
        cls = _heuristic(game)
        if cls is not None:
            bot: Bot = cls(seed)
            return bot
    if kind in BOT_KINDS:
        return RandomBot(seed)
    raise ValueError(f"unknown bot kind {kind!r}; choose one of {', '.join(bot_kinds(game))}")


def _heuristic(game: str) -> type | None:
    try:
        module = import_module(f"stammtisch.games.{game}.bot")
    except ModuleNotFoundError:
        return None
    found = getattr(module, "HeuristicBot", None)
    return found if isinstance(found, type) else None
