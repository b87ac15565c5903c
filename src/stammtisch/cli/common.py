"""Shared pieces of the CLI commands: errors, table options, bots, seeds, record paths, texts."""

from __future__ import annotations

import argparse
import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from stammtisch.bots.base import Bot
from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.engine.registry import GameSpec, UnknownGame, game_spec
from stammtisch.i18n import _


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


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """``--elections``, ``--option`` and ``--data``: the table options of ``play`` and ``simulate``."""
    parser.add_argument("--elections", type=int, choices=(4, 7),
                        help=_("Die Macher: 4 elections or the long game of 7"))
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help=_("table option, e.g. open_money=true (value read as JSON when it parses); repeatable"))
    parser.add_argument("--data", metavar="FILE",
                        help=_("component data file (the game's option that names a file)"))


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    options = parse_options(args.option)
    if args.elections is not None:
        options["elections"] = args.elections
    if args.data:
        files = [option.name for option in spec_of(args.game).options if option.server_file]
        if not files:
            raise CliError(_("{game} reads no data file").format(game=args.game))
        options[files[0]] = args.data
    return options


def spec_of(name: str) -> GameSpec:
    try:
        return game_spec(name)
    except UnknownGame as error:
        raise CliError(str(error)) from None


def build_game(name: str, players: int, options: dict[str, Any]) -> Game[Any]:
    spec = spec_of(name)
    try:
        return spec.make(players, options)
    except ValueError as error:
        raise CliError(str(error)) from None


def make_bot(game: str, kind: str, seed: int) -> Bot:
    try:
        return spec_of(game).bot(kind, seed)
    except ValueError as error:
        raise CliError(str(error)) from None


def bot_kind_name(kind: str) -> str:
    """A bot kind as the reader says it (the option values stay English: --bots heuristic)."""
    names = {"heuristic": _("heuristic"), "random": _("random"), "easy": _("easy"), "normal": _("normal"),
             "hard": _("hard")}
    return names.get(kind, kind)


def bot_kinds(choice: str | None, game: str, seats: int) -> list[str]:
    """One kind per seat from ``heuristic,random,...``; a single kind applies to every seat."""
    spec = spec_of(game)
    kinds = [k.strip() for k in choice.split(",")] if choice else [spec.default_bot()]
    if len(kinds) == 1:
        kinds *= seats
    if len(kinds) != seats:
        raise CliError(_("--bots names {count} bots for {seats} seats; give one kind or one per seat").format(
            count=len(kinds), seats=seats))
    for kind in kinds:
        if kind not in spec.bot_kinds():
            raise CliError(_("unknown bot kind {kind!r}; choose one of {choices}").format(
                kind=kind, choices=", ".join(spec.bot_kinds())))
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
    """A game's sentences for one reader, with the players' names (engine/registry.py, GameText)."""

    def __init__(self, game: str, names: list[str] | None = None) -> None:
        self.names = names
        self.text = spec_of(game).texts()

    def event(self, event: Event, view: dict[str, Any]) -> str:
        return self.text.describe_event(event, view, self.names)

    def action(self, action: Action, view: dict[str, Any]) -> str:
        return self.text.describe_action(action, view, self.names)
