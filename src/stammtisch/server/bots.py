"""Bots seated at a server table: the kinds the game's spec offers (the random bot always)."""

from __future__ import annotations

from stammtisch.bots.base import Bot
from stammtisch.registry import game_spec


def bot_kinds(game: str) -> tuple[str, ...]:
    return game_spec(game).bot_kinds()


def make_bot(game: str, kind: str, seed: int) -> Bot:
    return game_spec(game).bot(kind, seed)


def default_bot_kind(game: str) -> str:
    """The kind that stands in when a search bot cannot decide in time (the heuristic one)."""
    return game_spec(game).default_bot()
