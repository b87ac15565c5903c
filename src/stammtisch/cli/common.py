"""Shared pieces of the CLI commands: errors, table options, bots, seeds, record paths, texts."""

from __future__ import annotations

import argparse
import inspect
import json
import os
from collections.abc import Callable
from datetime import datetime
from importlib import import_module
from pathlib import Path
from typing import Any

from stammtisch.bots.base import Bot, RandomBot
from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.games import GAMES, make_game
from stammtisch.i18n import _

BOT_KINDS = ("heuristic", "random")


class CliError(Exception):
    """A user mistake or an unusable input: printed as one line, exit code 2, no traceback."""


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``NAME=VALUE`` pairs; values are JSON when they parse as JSON, else plain strings."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise CliError(_("--option expects NAME=VALUE, not {pair!r}").format(pair=pair))
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[name.strip()] = value
    return options


# The option of each game that names its component data file (``--data``).
DATA_OPTION = {"diemacher": "data_file", "glueckauf": "edition"}


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """``--elections``, ``--option`` and ``--data``: the table options of ``play`` and ``simulate``."""
    parser.add_argument("--elections", type=int, choices=(4, 7),
                        help=_("Die Macher: 4 elections or the long game of 7"))
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help=_("table option, e.g. open_money=true (value read as JSON when it parses); repeatable"))
    parser.add_argument("--data", metavar="FILE",
                        help=_("component data file (Die Macher: the data_file option; Glück Auf: edition)"))


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    options = parse_options(args.option)
    if args.elections is not None:
        options["elections"] = args.elections
    if args.data:
        options[DATA_OPTION.get(args.game, "data_file")] = args.data
    return options


def build_game(name: str, players: int, options: dict[str, Any]) -> Game[Any]:
    if name not in GAMES:
        raise CliError(_("unknown game {name!r}; choose one of {choices}").format(name=name, choices=", ".join(GAMES)))
    try:
        return make_game(name, players, options)
    except ValueError as error:
        raise CliError(str(error)) from None


def heuristic_bot_class(game: str) -> type | None:
    """The game's ``bot.HeuristicBot``, or None while the game has none."""
    try:
        module = import_module(f"stammtisch.games.{game}.bot")
    except ModuleNotFoundError as error:
        if error.name and f"stammtisch.games.{game}.bot".startswith(error.name):
            return None
        raise
    found = getattr(module, "HeuristicBot", None)
    return found if isinstance(found, type) else None


def default_bot_kind(game: str) -> str:
    return "heuristic" if heuristic_bot_class(game) else "random"


def make_bot(game: str, kind: str, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        cls = heuristic_bot_class(game)
        if cls is None:
            raise CliError(_("{game} has no heuristic bot yet (no stammtisch.games.{game}.bot.HeuristicBot); "
                             "use --bots random").format(game=game))
        bot: Bot = cls(seed)
        return bot
    raise CliError(unknown_bot_kind(kind))


def unknown_bot_kind(kind: str) -> str:
    return _("unknown bot kind {kind!r}; choose one of {choices}").format(kind=kind, choices=", ".join(BOT_KINDS))


def bot_kind_name(kind: str) -> str:
    """A bot kind as the reader says it (the option values stay English: --bots heuristic)."""
    names = {"heuristic": _("heuristic"), "random": _("random")}
    return names.get(kind, kind)


def bot_kinds(spec: str | None, game: str, seats: int) -> list[str]:
    """One kind per seat from ``heuristic,random,...``; a single kind applies to every seat."""
    kinds = [k.strip() for k in spec.split(",")] if spec else [default_bot_kind(game)]
    if len(kinds) == 1:
        kinds *= seats
    if len(kinds) != seats:
        raise CliError(_("--bots names {count} bots for {seats} seats; give one kind or one per seat").format(
            count=len(kinds), seats=seats))
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise CliError(unknown_bot_kind(kind))
    return kinds


def bot_seed(base: int, game_index: int, seat: int) -> int:
    """Distinct, reproducible seeds per game and seat."""
    return (base * 1_000_003 + game_index) * 64 + seat


def records_dir(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit)
    home = os.environ.get("STAMMTISCH_HOME")
    if home:
        return Path(home) / "records"
    return Path.home() / ".local" / "share" / "stammtisch" / "records"


def record_path(directory: Path, game: str, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = directory / f"{game}-{stamp}-seed{seed}.jsonl"
    number = 2
    while path.exists():
        path = directory / f"{game}-{stamp}-seed{seed}-{number}.jsonl"
        number += 1
    return path


class Texts:
    """A game's ``describe_event``/``describe_action``, whichever arguments they take.

    Die Macher's take (item, view); Glück Auf's take (event, names) or (action) only.
    """

    def __init__(self, game: str, names: list[str] | None = None) -> None:
        self.names = names
        try:
            module = import_module(f"stammtisch.games.{game}.text")
        except ModuleNotFoundError:
            module = None
        self._event = getattr(module, "describe_event", None)
        self._action = getattr(module, "describe_action", None)

    def event(self, event: Event, view: dict[str, Any]) -> str:
        if self._event is None:
            return generic_item(event.kind, dict(event.params))
        return str(self._call(self._event, event, view))

    def action(self, action: Action, view: dict[str, Any]) -> str:
        if self._action is None:
            return generic_item(str(action[0]), list(action[1:]))
        return str(self._call(self._action, action, view))

    def _call(self, describe: Callable[..., Any], item: Any, view: dict[str, Any]) -> Any:
        second = _second_parameter(describe)
        if second is None:
            return describe(item)
        if second == "names":
            return describe(item, self.names)
        try:
            return describe(item, view)
        except TypeError:
            return describe(item)


def _second_parameter(func: Callable[..., Any]) -> str | None:
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return "view"
    return params[1].name if len(params) > 1 else None


def generic_item(kind: str, params: Any) -> str:
    if not params:
        return kind.replace("_", " ")
    return f"{kind.replace('_', ' ')}: {json.dumps(params, ensure_ascii=False)}"
