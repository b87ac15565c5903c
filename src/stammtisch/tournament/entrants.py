"""A tournament's entrants: the names in ``--bots``, each a bot kind with an optional parameter.

- ``KIND``: the kind as it is (the game's own kinds, and the tournament-only ones of
  ``tournament/outside.py``: ``noisy``, ``openspiel-ismcts``);
- ``KIND@X``: the kind with its parameter set to X, so one tournament can seat the same bot
  twice (a budget ladder: ``hard@0.2,hard@1``).  A search bot's parameter is its budget, CPU
  seconds of one core per decision; the noisy heuristic's is its temperature.

``--budget KIND=S,…`` sets the budget of every entrant of a search kind that names none itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Protocol, cast

from stammtisch.bots.base import Bot, SearchBot
from stammtisch.i18n import _
from stammtisch.registry import GameSpec
from stammtisch.tournament import outside

MARK = "@"
BUDGET = "seconds"  # the parameter of the bots that ``--budget`` sets


class EntrantError(ValueError):
    """A name or budget that names no entrant; the message says why, in the reader's language."""


def split(name: str) -> tuple[str, float | None]:
    """``hard@0.2`` -> ("hard", 0.2); ``hard`` -> ("hard", None)."""
    kind, mark, value = name.partition(MARK)
    if not mark:
        return name, None
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number <= 0:
        raise EntrantError(_("{name}: the value after @ must be a number above 0").format(name=name))
    return kind, number


def budgets(text: str | None) -> dict[str, float]:
    """``hard=1.0,normal=0.2`` as a mapping of kinds to seconds."""
    found: dict[str, float] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        kind, equals, value = item.partition("=")
        try:
            seconds = float(value) if equals else math.nan
        except ValueError:
            seconds = math.nan
        if not math.isfinite(seconds) or seconds <= 0 or MARK in kind:
            raise EntrantError(_("--budget takes KIND=SECONDS,…, e.g. hard=1.0,normal=0.2 (seconds above 0), "
                                 "not {item!r}").format(item=item))
        found[kind.strip()] = seconds
    return found


class Tunable(Protocol):
    """A bot with a parameter that ``KIND@X`` sets (search bots: "seconds"; the noisy bot: "temperature")."""

    parameter: str

    def tune(self, value: float) -> None: ...


def parameter(bot: Any) -> str | None:
    """What ``KIND@X`` sets on ``bot``, None if it takes nothing."""
    found = getattr(bot, "parameter", None)
    return found if isinstance(found, str) and callable(getattr(bot, "tune", None)) else None


def make(spec: GameSpec, name: str, seed: int, budget: Mapping[str, float] | None = None) -> Bot | SearchBot:
    """The bot of entrant ``name`` with seed ``seed``, its parameter set from the name or ``budget``."""
    kind, value = split(name)
    bot = outside.bot(spec, kind, seed)
    if value is None and budget and kind in budget:
        value = budget[kind]
    if value is not None:
        if parameter(bot) is None:
            raise EntrantError(_("the bot {kind} takes no budget or temperature: {name}").format(kind=kind, name=name))
        cast(Tunable, bot).tune(value)
    return bot


def check(spec: GameSpec, names: list[str], budget: Mapping[str, float]) -> None:
    """EntrantError for a parameter or budget that a tournament cannot give (the kinds are known:
    ``schedule.check_kinds`` checked them)."""
    for name in names:
        make(spec, name, 0)
    kinds = {split(name)[0] for name in names}
    for kind in budget:
        if kind not in kinds:
            raise EntrantError(_("--budget names {kind}, which does not play").format(kind=kind))
        if parameter(outside.bot(spec, kind, 0)) != BUDGET:
            raise EntrantError(_("--budget sets the time of search bots; {kind} does not search").format(kind=kind))
