"""Shared pieces of the CLI commands: errors, table options, bots, seeds, record paths, texts."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from stammtisch.bots.base import Bot
from stammtisch.bots.base import bot_seed as bot_seed  # play and simulate import it from here
from stammtisch.engine.options import Option
from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.i18n import _
from stammtisch.registry import GameSpec, UnknownGame, game_spec, games


class CliError(Exception):
    """A user mistake or an unusable input: printed as one line, exit code 2, no traceback."""


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``NAME=VALUE`` pairs; values are JSON when they parse as JSON, else plain strings."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise CliError(_("--option expects NAME=VALUE, not {pair!r}").format(pair=pair))
        options[name.strip()] = _option_value(text)
    return options


def game_titles() -> str:
    """The registered games' titles in the reader's language, for help texts."""
    return ", ".join(_(spec.title) for spec in games().values())


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The table options of ``play`` and ``simulate``, from the games' option schemas: ``--option
    NAME=VALUE`` for any of them, ``--data`` for the option that names a data file, and a flag of its
    own (``--elections 7``, ``--open-money``) for each option a game shows in its table form."""
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help=_("table option, e.g. open_money=true (value read as JSON when it parses); repeatable"))
    parser.add_argument("--data", metavar="FILE",
                        help=_("component data file (the game's option that names a file)"))
    group = parser.add_argument_group(_("table options of the games (also: --option NAME=VALUE)"))
    for name, declared in flag_options().items():
        helps = "; ".join(_option_help(spec, option) for spec, option in declared)
        boolean = all(option.kind is bool for _spec, option in declared)
        try:
            group.add_argument("--" + name.replace("_", "-"), dest=FLAG_PREFIX + name, metavar="VALUE",
                               type=_option_value, nargs="?" if boolean else None, const=True if boolean else None,
                               help=helps)
        except argparse.ArgumentError:  # the command has an argument of that name: --option still sets it
            continue


FLAG_PREFIX = "table_option_"


def flag_options() -> dict[str, list[tuple[GameSpec, Option]]]:
    """The options offered as flags of their own: those the games show in their table forms, by name."""
    found: dict[str, list[tuple[GameSpec, Option]]] = {}
    for spec in games().values():
        for option in spec.options:
            if option.lobby and not option.server_file:
                found.setdefault(option.name, []).append((spec, option))
    return found


def _option_help(spec: GameSpec, option: Option) -> str:
    default = json.dumps(option.default)
    if option.choices is not None:
        return _("{game}: {label}, one of {choices} (default {default})").format(
            game=_(spec.title), label=_(option.label), choices=", ".join(json.dumps(c) for c in option.choices),
            default=default)
    return _("{game}: {label} (default {default})").format(game=_(spec.title), label=_(option.label),
                                                          default=default)


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    options = parse_options(args.option)
    declared = {option.name for option in spec_of(args.game).options}
    for name in flag_options():
        value = getattr(args, FLAG_PREFIX + name, None)
        if value is None:
            continue
        if name not in declared:
            raise CliError(_("{game} has no table option {name}").format(game=args.game, name=name))
        options[name] = value
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
             "hard": _("hard"), "noisy": _("noisy")}
    base, mark, parameter = kind.partition("@")  # a tournament's entrant: hard@0.2 (tournament/entrants.py)
    return names.get(base, base) + mark + parameter


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


@contextlib.contextmanager
def progress_bar(console: Console, game: str, players: int, total: int) -> Iterator[Callable[[int], None]]:
    """A bar of games played (only on a terminal); call the yielded function with each number done."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(_("{game}, {players} players").format(game=game, players=players), total=total)
        yield lambda done: progress.advance(task, done)


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
    """A game's sentences for one reader, with the players' names (registry.py, GameText)."""

    def __init__(self, game: str, names: list[str] | None = None) -> None:
        self.names = names
        self.text = spec_of(game).texts()

    def event(self, event: Event, view: dict[str, Any]) -> str:
        return self.text.describe_event(event, view, self.names)

    def action(self, action: Action, view: dict[str, Any]) -> str:
        return self.text.describe_action(action, view, self.names)
