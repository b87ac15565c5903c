"""Reference bots that only tournaments seat (never the lobby, ``play`` or the API, which offer a
game's own kinds from its spec): opponents for measuring the game's own bots.

``noisy`` is the game's heuristic bot playing a softmax over its own preferences (bots/noisy.py): an
opponent the search bots' heuristic playouts cannot predict.

``openspiel-ismcts`` is OpenSpiel's information-set MCTS with the game's heuristic bot as its rollout
policy, at the CPU time per decision of our hard bot (research/openspiel.py; needs ``pip install
'stammtisch[research]'``).  Like every search bot it decides in states resampled from its seat's
knowledge (``bots.base.decide``), and OpenSpiel resamples again through ``resample_from_infostate``
(``Game.resample``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from importlib import import_module
from typing import Any, cast

from stammtisch.bots.base import Bot, SearchBot
from stammtisch.bots.noisy import NoisyBot, Preferring
from stammtisch.i18n import _
from stammtisch.registry import GameSpec

OUTSIDE: dict[str, tuple[str, str]] = {  # kind -> ("module:Class" taking a seed, the extra it needs)
    "openspiel-ismcts": ("stammtisch.research.openspiel:HardTimedISMCTSBot", "research"),
}


OPPONENT_TEMPERATURE = 0.5  # hard-opponents' model of the other seats: the noisy heuristic at this temperature


def _noisy(spec: GameSpec, seed: int) -> Bot:
    heuristic = spec.bot("heuristic", seed)
    return NoisyBot(cast(Preferring, heuristic), seed)


def _hard_variant(**changes: Any) -> Callable[[GameSpec, int], SearchBot]:
    """The hard bot with other settings (issue 27 item 4's candidates, measured against ``hard``)."""
    from stammtisch.bots.strengths import HardBot

    def make(spec: GameSpec, seed: int) -> SearchBot:
        return HardBot(seed, dataclasses.replace(HardBot.settings, **changes))

    return make


OURS: dict[str, Callable[[GameSpec, int], Bot | SearchBot]] = {
    "noisy": _noisy,
    "hard-learned": _hard_variant(judge="learned"),  # the learned judge at the cut-off (bots/learned.py)
    "hard-opponents": _hard_variant(opponents=OPPONENT_TEMPERATURE),  # noisy other seats in the playouts
    "hard-both": _hard_variant(judge="learned", opponents=OPPONENT_TEMPERATURE),
    "hard-game-judge": _hard_variant(judge="game"),  # the hard bot before issue 27 item 4 (the baseline)
    # what a larger budget could buy (docs/performance.md, "What a larger budget buys"): depth or breadth
    "hard-to-end": _hard_variant(rounds=None),  # playouts to the game's end, judged by its real scores
    "hard-wide": _hard_variant(candidates_by_budget=(), candidates=8),  # 8 favourites at every budget
}


class MissingExtra(ImportError):
    """An outside bot whose project is not installed; the message names the extra to install."""


def kinds() -> tuple[str, ...]:
    return (*OURS, *OUTSIDE)


def bot(spec: GameSpec, kind: str, seed: int) -> Bot | SearchBot:
    """The bot of ``kind``: a reference one by its name here, else the game's own (``GameSpec.bot``)."""
    if kind in OURS:
        return OURS[kind](spec, seed)
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
