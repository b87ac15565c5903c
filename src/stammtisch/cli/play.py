"""``stammtisch play``: one human seat against bots, in the terminal."""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from collections import deque
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from stammtisch.bots.base import Bot, decide
from stammtisch.bots.hints import hint, hints_allowed, percent, why
from stammtisch.bots.ismcts import Estimate
from stammtisch.cli.common import (
    CliError,
    Texts,
    add_table_arguments,
    bot_kind_name,
    bot_kinds,
    bot_seed,
    build_game,
    make_bot,
    record_path,
    records_dir,
    spec_of,
    table_options,
)
from stammtisch.cli.render import final_renderer, view_renderer
from stammtisch.engine.match import Match, replay
from stammtisch.engine.protocol import Action, Event, IllegalAction, Seat
from stammtisch.engine.record import CorruptRecord, parse_record
from stammtisch.i18n import _
from stammtisch.registry import games


class Quit(Exception):
    """The human typed q and confirmed it (or stdin ended)."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play", help=_("play one seat against bots in the terminal"),
        description=_("Play one seat against bots. Each time you must decide you see the table as your seat "
                      "sees it and the numbered legal actions: type a number, or q to quit (the game is saved "
                      "and --resume continues it). Input is read from stdin, so it can be piped."),
        epilog=_("examples:") + "\n  stammtisch play GAME --players 4 --seat 1\n"
               "  stammtisch play GAME --option NAME=VALUE --option NAME=VALUE\n"
               "  printf '1\\n2\\nq\\n' | stammtisch play GAME --seed 7\n"
               "  stammtisch play --resume FILE --seat 0 --bots heuristic\n"
               "  stammtisch --lang de play GAME --players 3 --auto",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", nargs="?", help=_("the game: {games} (with --resume: the record's)").format(
        games=", ".join(games())))
    parser.add_argument("--resume", metavar="FILE",
                        help=_("continue the unfinished game of this record (its game, players, options and seed)"))
    parser.add_argument("--players", type=int, default=None, help=_("number of players (default: {defaults})").format(
        defaults=", ".join(f"{_(spec.title)} {spec.default_players}" for spec in games().values())))
    parser.add_argument("--seat", type=int, default=0, help=_("your seat, counted from 0 (default 0)"))
    parser.add_argument("--bots", help=_("bot kind for the other seats: heuristic, easy, normal, hard or random, "
                                         "or one per seat separated by commas (default: heuristic where the game "
                                         "has one, else random)"))
    parser.add_argument("--seed", type=int, help=_("seed of the game and the bots (default: a fresh random seed)"))
    add_table_arguments(parser)
    parser.add_argument("--records", metavar="DIR",
                        help=_("where to save the game record (default: $STAMMTISCH_HOME/records or "
                               "~/.local/share/stammtisch/records)"))
    parser.add_argument("--auto", action="store_true", help=_("let a bot play your seat too (demos, tests)"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    match, path = resumed(args) if args.resume else new_match(args)
    players = match.game.num_players
    if not 0 <= args.seat < players:
        raise CliError(_("--seat must be a seat from 0 to {last}, not {seat}").format(last=players - 1, seat=args.seat))
    kinds = bot_kinds(args.bots, args.game, players)
    bots = {seat: make_bot(args.game, kinds[seat], bot_seed(match.record.header.seed, 0, seat))
            for seat in range(players) if seat != args.seat or args.auto}
    session = Session(console, match, args.seat, bots, Texts(args.game, match.record.header.names))
    session.path = path
    session.resume = resume_command(path, args.seat, kinds)
    who = (_("a {kind} bot plays Player {number} for you").format(kind=bot_kind_name(kinds[args.seat]),
                                                                   number=args.seat + 1)
           if args.auto else _("you are Player {number}").format(number=args.seat + 1))
    console.print(Text.assemble((_(spec_of(args.game).title), "bold"), ", ", _(
        "{players} players, seed {seed}; {who}.").format(players=players, seed=match.record.header.seed, who=who)))
    if args.resume:
        console.print(_("Resumed after {moves} moves.").format(moves=len(match.record.moves)))
        return session.run([])
    return session.run(match.setup_events)


def new_match(args: argparse.Namespace) -> tuple[Match, Path]:
    """A fresh table from the command line: its match and the path its record is saved to."""
    if args.game is None:
        raise CliError(_("name the game to play ({games}), or --resume a record").format(games=", ".join(games())))
    players = args.players or spec_of(args.game).default_players
    game = build_game(args.game, players, table_options(args))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    kinds = bot_kinds(args.bots, args.game, players)
    names = [seat_name(seat, None if seat == args.seat and not args.auto else kinds[seat]) for seat in range(players)]
    return Match(game, seed, names), record_path(records_dir(args.records), args.game, seed)


def resumed(args: argparse.Namespace) -> tuple[Match, Path]:
    """The match of an unfinished record, replayed move by move; its record goes on in the same file."""
    path = Path(args.resume)
    try:
        record = parse_record(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, CorruptRecord) as error:
        raise CliError(_("cannot resume {path}: {error}").format(path=path, error=error)) from None
    if args.game not in (None, record.header.game):
        raise CliError(_("{path} is a record of {game}, not {other}").format(
            path=path, game=record.header.game, other=args.game))
    args.game = record.header.game
    if args.players is not None or args.seed is not None or table_options(args):
        raise CliError(_("--resume plays on with the record's players, seed and table options: leave out "
                         "--players, --seed and the table options"))
    try:
        steps = replay(record, build_game)
        match = next(steps)[0]
        deque(steps, maxlen=0)  # plays every move of the record on the match
    except CorruptRecord as error:
        raise CliError(_("cannot resume {path}: {error}").format(path=path, error=error)) from None
    if match.is_over():
        raise CliError(_("the game of {path} is over; stammtisch replay shows it").format(path=path))
    return match, path


def resume_command(path: Path, seat: Seat, kinds: list[str]) -> str:
    """The command line that continues this game where it was left."""
    bots = kinds[0] if len(set(kinds)) == 1 else ",".join(kinds)
    return f"stammtisch play --resume {shlex.quote(str(path))} --seat {seat} --bots {bots}"


def seat_name(seat: Seat, bot_kind: str | None) -> str:
    """``Player 1 (you)`` or ``Player 2 (heuristic bot)``, as the players are named in texts and the record."""
    if bot_kind is None:
        return _("Player {number} (you)").format(number=seat + 1)
    return _("Player {number} ({kind} bot)").format(number=seat + 1, kind=bot_kind_name(bot_kind))


HINT = 0  # read_choice's answer when the player asks for a hint


def hint_line(number: int, action: str, estimate: Estimate) -> str:
    return _("{number}. {action} — value {value} of 100 over {visits} simulated games").format(
        number=number, action=action, value=percent(estimate.value), visits=estimate.visits)


class Session:
    """The loop of one played game: bots act at once, the human is asked, everything is recorded."""

    def __init__(self, console: Console, match: Match, human: Seat, bots: dict[Seat, Bot], texts: Texts) -> None:
        self.console = console
        self.match = match
        self.human = human
        self.bots = bots
        self.texts = texts
        self.render = view_renderer(match.game.name)
        self.described = match.game.describe()
        self.path = Path("record.jsonl")
        self.resume = ""  # the command that continues the game after a quit

    def run(self, events: list[Event]) -> int:
        """Play to the end (or until the human quits), after showing ``events`` (the setup's)."""
        self.save()
        self.show_events(events)
        try:
            while not self.match.is_over():
                seat = self.next_seat()
                action = decide(self.bots[seat], self.match.game, self.match.state, seat) \
                    if seat in self.bots else self.ask(seat)
                try:
                    events = self.match.act(seat, action)
                except IllegalAction as error:
                    raise CliError(_("the bot of seat {seat} chose an illegal action ({error}); "
                                     "the record so far is in {path}").format(seat=seat, error=error, path=self.path)
                                   ) from None
                self.save()
                self.show_events(events)
        except (Quit, KeyboardInterrupt):
            self.console.print(_("Game left unfinished after {moves} moves; record saved to {path}").format(
                moves=len(self.match.record.moves), path=self.path), markup=False)
            self.console.print(_("To play on: {command}").format(command=self.resume), markup=False)
            return 0
        self.finish()
        return 0

    def next_seat(self) -> Seat:
        """A bot first when several seats decide at once, so the human sees who has already decided."""
        seats = self.match.to_act()
        return next((s for s in seats if s in self.bots), seats[0])

    def save(self) -> None:
        self.match.record.save(self.path)

    def show_events(self, events: list[Event]) -> None:
        view = self.match.view(self.human)
        for event in events:
            if event.visible_to(self.human):
                text = self.texts.event(event, view)
                if text:
                    self.console.print(Text("• ") + Text(text))

    def ask(self, seat: Seat) -> Action:
        view = self.match.view(seat)
        legal = self.match.legal_actions(seat)
        if len(legal) == 1:  # nothing to decide: no prompt (issue 25 defect 7)
            self.console.print(Text("• ") + Text(_("Your only choice: {action}").format(
                action=self.texts.action(legal[0], view))))
            return legal[0]
        self.console.print(Rule(_("Your decision")))
        self.console.print(self.render(view, self.described))
        choices = [Text(f"{n:>2}. ", style="bold") + Text(self.texts.action(a, view)) for n, a in enumerate(legal, 1)]
        self.console.print(Columns(choices, column_first=True, padding=(0, 3)) if len(choices) > 12
                           else Text("\n").join(choices))
        offer = hints_allowed(self.match.game)
        while (choice := self.read_choice(len(legal), offer)) == HINT:
            self.show_hint(seat, view, legal)
        return legal[choice - 1]

    def show_hint(self, seat: Seat, view: dict[str, Any], legal: list[Action]) -> None:
        """What the hard bot would do here, from the seat's knowledge only."""
        self.console.print(_("The hard bot is thinking…"))
        found = hint(self.match.game, self.match.state, seat, seed=len(self.match.record.moves))
        self.console.print(Text(_("The hard bot would choose:"), style="bold"))
        for estimate in found:
            text = self.texts.action(estimate.action, view)
            self.console.print(Text(hint_line(legal.index(estimate.action) + 1, text, estimate)))
        reason = why(self.match.game.name, view, found, self.texts.names)
        if reason is not None:
            self.console.print(Text.assemble((_("Why:"), "bold"), " ", reason.line()))

    def read_choice(self, count: int, offer_hints: bool = False) -> int:
        """The number chosen, or HINT when the player asks for a hint (only if ``offer_hints``)."""
        while True:
            answer = self.read_line((_("Your choice (1–{count}, h for a hint, q to quit): ") if offer_hints
                                     else _("Your choice (1–{count}, q to quit): ")).format(count=count))
            if answer.lower() in ("q", "quit"):
                self.confirm_quit()
                continue
            if offer_hints and answer.lower() in ("h", "hint"):
                return HINT
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer)
            advice = (_("type a number from 1 to {count}, h for a hint, or q to quit.") if offer_hints
                      else _("type a number from 1 to {count}, or q to quit."))
            self.console.print(Text.assemble((_("{answer!r} is not a choice:").format(answer=answer), "red"), " ",
                                             advice.format(count=count)))

    def confirm_quit(self) -> None:
        """Quit only when q is typed twice: the game is saved and can be resumed (raises Quit)."""
        answer = self.read_line(_("Quit? The game is saved and can be resumed. Type q again to quit, "
                                  "or Enter to play on: "))
        if answer.lower() in ("q", "quit"):
            raise Quit

    def read_line(self, prompt: str) -> str:
        """One answer from stdin, echoed when it is piped; Quit when stdin has ended."""
        self.console.print(prompt, end="", markup=False)
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            raise Quit
        answer = line.strip()
        if not sys.stdin.isatty():
            self.console.print(answer, markup=False, highlight=False)
        return answer

    def finish(self) -> None:
        view = self.match.view(self.human)
        self.console.print(Rule(_("Game over")))
        self.console.print(self.render(view, self.described))
        final = final_renderer(self.match.game.name)(view, self.described)
        if final is not None:
            self.console.print(final)
        self.console.print(_("Record saved to {path}").format(path=self.path), markup=False)
