"""``stammtisch replay``: step through a recorded game as one seat (or a spectator) saw it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from stammtisch.cli.common import CliError, Texts, build_game
from stammtisch.cli.render import final_renderer, view_renderer
from stammtisch.engine.match import replay
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.record import CorruptRecord, Record, parse_record
from stammtisch.i18n import _


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "replay", help=_("step through a recorded game"),
        description=_("Replay a game record move by move, showing each move and its events as the chosen seat "
                      "saw them (default: a spectator, who sees public events only) and the table after each "
                      "move. Enter advances one move, a number advances that many, q quits."),
    )
    parser.add_argument("file", help=_("a .jsonl game record"))
    parser.add_argument("--seat", type=int, help=_("watch as this seat, counted from 0 (default: spectator)"))
    parser.add_argument("--all", action="store_true", help=_("print every move and event without prompting"))
    parser.add_argument("--reveal", action="store_true",
                        help=_("also name every seat's chosen action, secret ones included"))
    parser.set_defaults(run=run)


def load(path: str) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(_("cannot read {path}: {error}").format(path=path, error=error)) from None
    try:
        return parse_record(text)
    except CorruptRecord as error:
        raise CliError(_("corrupt record {path}: {error}").format(path=path, error=error)) from None


def run(args: argparse.Namespace, console: Console) -> int:
    record = load(args.file)
    header = record.header
    if args.seat is not None and not 0 <= args.seat < header.players:
        raise CliError(_("--seat must be a seat from 0 to {last}, not {seat}").format(
            last=header.players - 1, seat=args.seat))
    viewer = Viewer(console, args, Texts(header.game, header.names or None))
    watcher = (_("seat {seat}").format(seat=args.seat) if args.seat is not None else _("a spectator"))
    console.print(Text.assemble((header.game, "bold"), ", ", _(
        "{players} players, seed {seed}, {moves} moves; watching as {watcher}").format(
        players=header.players, seed=header.seed, moves=len(record.moves), watcher=watcher)))
    try:
        viewer.watch(record)
    except CorruptRecord as error:
        raise CliError(_("corrupt record {path}: {error}").format(path=args.file, error=error)) from None
    return 0


class Viewer:
    def __init__(self, console: Console, args: argparse.Namespace, texts: Texts) -> None:
        self.console = console
        self.seat: Seat | None = args.seat
        self.stepping = not args.all
        self.reveal = args.reveal
        self.texts = texts
        self.game: Game[Any] | None = None
        self.skip = 0
        self.mover_views: dict[Seat, dict[str, Any]] = {}
        self.described: dict[str, Any] = {}

    def factory(self, name: str, players: int, options: dict[str, Any]) -> Game[Any]:
        self.game = build_game(name, players, options)
        self.described = self.game.describe()
        return self.game

    @property
    def game_name(self) -> str:
        return self.game.name if self.game is not None else ""

    def watch(self, record: Record) -> None:
        before: dict[str, Any] = {}
        view: dict[str, Any] = {}
        for number, (match, seat, action, events) in enumerate(replay(record, self.factory)):
            view = match.view(self.seat)
            if seat is not None and action is not None:
                self.show_move(number, seat, action, before)
            self.show_events(events, view)
            if self.stepping and not self.pause(view):
                return
            before = match.view(self.seat)
            if self.reveal:
                self.mover_views = {s: match.view(s) for s in match.to_act()}
        self.show_end(view)

    def show_move(self, number: int, seat: Seat, action: Action, before: dict[str, Any]) -> None:
        who = self.seat_name(seat, before)
        if seat == self.seat:
            text = _("Move {number}: {who} (you): {action}").format(
                number=number, who=who, action=self.texts.action(action, before))
        elif self.reveal:
            text = _("Move {number}: {who}: {action}").format(
                number=number, who=who, action=self.texts.action(action, self.mover_views.get(seat, before)))
        else:
            text = _("Move {number}: {who} acts").format(number=number, who=who)
        self.console.print(Text(text, style="bold"))

    def seat_name(self, seat: Seat, view: dict[str, Any]) -> str:
        seats = view["board"].get("seats")
        if isinstance(seats, list) and seat < len(seats) and isinstance(seats[seat], dict):
            name = seats[seat].get("party_name") or seats[seat].get("name")
            if name:
                return _("seat {seat} ({name})").format(seat=seat, name=name)
        return _("seat {seat}").format(seat=seat)

    def show_events(self, events: list[Event], view: dict[str, Any]) -> None:
        for event in events:
            if event.visible_to(self.seat):
                text = self.texts.event(event, view)
                if text:
                    self.console.print(Text("  • ") + Text(text))

    def pause(self, view: dict[str, Any]) -> bool:
        """Show the table and wait; False when the user quits."""
        if self.skip > 0:
            self.skip -= 1
            return True
        self.console.print(view_renderer(self.game_name)(view, self.described))
        self.console.print(Text(_("Enter: next move · a number: skip ahead that many moves · q: quit"), style="dim")
                           + Text(" "), end="")
        answer = sys.stdin.readline()
        if not answer or answer.strip().lower() in ("q", "quit"):
            self.console.print()
            return False
        if answer.strip().isdigit():
            self.skip = int(answer.strip()) - 1
        return True

    def show_end(self, view: dict[str, Any]) -> None:
        self.console.print(Rule(_("End of the record")))
        if not self.stepping:
            self.console.print(view_renderer(self.game_name)(view, self.described))
        final = final_renderer(self.game_name)(view, self.described)
        if final is not None:
            self.console.print(final)
