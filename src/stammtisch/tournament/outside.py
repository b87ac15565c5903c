"""Outside bots: reference players from other projects that only tournaments seat (never the lobby,
``play`` or the API, which offer a game's own kinds from its spec).

``openspiel-ismcts`` is OpenSpiel's information-set MCTS with random rollouts at the CPU time per
decision of our hard bot (research/openspiel.py; needs ``pip install 'stammtisch[research]'``).  Like
every search bot it decides in states resampled from its seat's knowledge (``bots.base.decide``),
and OpenSpiel resamples again through ``resample_from_infostate`` (``Game.resample``)."""

from __future__ import annotations

from importlib import import_module

from stammtisch.bots.base import Bot, SearchBot
from stammtisch.i18n import _
from stammtisch.registry import GameSpec

OUTSIDE: dict[str, tuple[str, str]] = {  # kind -> ("module:Class" taking a seed, the extra it needs)
    "openspiel-ismcts": ("stammtisch.research.openspiel:HardTimedISMCTSBot", "research"),
}


class MissingExtra(ImportError):
    """An outside bot whose project is not installed; the message names the extra to install."""


def kinds() -> tuple[str, ...]:
    return tuple(OUTSIDE)


def bot(spec: GameSpec, kind: str, seed: int) -> Bot | SearchBot:
    """The bot of ``kind``: an outside one by its name here, else the game's own (``GameSpec.bot``)."""
    if kind not in OUTSIDE:
        return spec.bot(kind, seed)
    reference, extra = OUTSIDE[kind]
    module, _sep, name = reference.partition(":")
    try:
        found: Bot | SearchBot = getattr(import_module(module), name)(seed)
    except ImportError as error:
        raise MissingExtra(_("the bot {kind} needs pip install 'stammtisch[{extra}]' ({error})").format(
            kind=kind, extra=extra, error=error)) from None
    return found
