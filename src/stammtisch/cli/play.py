"""``stammtisch play``: one human seat against bots, in the terminal."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from stammtisch.bots.base import Bot, decide
from stammtisch.bots.hints import hint, hints_allowed
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
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Action, Event, IllegalAction, Seat
from stammtisch.engine.registry import games
from stammtisch.i18n import _


class Quit(Exception):
    """The human typed q (or stdin ended)."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play", help=_("play one seat against bots in the terminal"),
        description=_("Play one seat against bots. Each time you must decide you see the table as your seat "
                      "sees it and the numbered legal actions: type a number, or q to quit (the record so far "
                      "is kept). Input is read from stdin, so it can be piped."),
        epilog=_("examples:") + "\n  stammtisch play GAME --players 4 --seat 1\n"
               "  stammtisch play GAME --option NAME=VALUE --option NAME=VALUE\n"
               "  printf '1\\n2\\nq\\n' | stammtisch play GAME --seed 7\n"
               "  stammtisch --lang de play GAME --players 3 --auto",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help=_("the game: {games}").format(games=", ".join(games())))
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
    players = args.players or spec_of(args.game).default_players
    game = build_game(args.game, players, table_options(args))
    if not 0 <= args.seat < players:
        raise CliError(_("--seat must be a seat from 0 to {last}, not {seat}").format(last=players - 1, seat=args.seat))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    kinds = bot_kinds(args.bots, args.game, players)
    bots = {seat: make_bot(args.game, kinds[seat], bot_seed(seed, 0, seat))
            for seat in range(players) if seat != args.seat or args.auto}
    names = [seat_name(seat, None if seat not in bots else kinds[seat]) for seat in range(players)]
    session = Session(console, Match(game, seed, names), args.seat, bots, Texts(args.game, names))
    session.path = record_path(records_dir(args.records), args.game, seed)
    who = (_("a {kind} bot plays your seat {seat}").format(kind=bot_kind_name(kinds[args.seat]), seat=args.seat)
           if args.auto else _("you play seat {seat}").format(seat=args.seat))
    console.print(Text.assemble((args.game, "bold"), ", ", _("{players} players, seed {seed}; {who}.").format(
        players=players, seed=seed, who=who)))
    return session.run()


def seat_name(seat: Seat, bot_kind: str | None) -> str:
    """``Player 1 (you)`` or ``Player 2 (heuristic bot)``, as the players are named in texts and the record."""
    if bot_kind is None:
        return _("Player {number} (you)").format(number=seat + 1)
    return _("Player {number} ({kind} bot)").format(number=seat + 1, kind=bot_kind_name(bot_kind))


HINT = 0  # read_choice's answer when the player asks for a hint


def hint_line(number: int, action: str, estimate: Estimate) -> str:
    return _("{number}. {action} — value {value} of 100 over {visits} simulated games").format(
        number=number, action=action, value=round(100 * estimate.value), visits=estimate.visits)


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

    def run(self) -> int:
        self.save()
        self.show_events(self.match.setup_events)
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

    def read_choice(self, count: int, offer_hints: bool = False) -> int:
        """The number chosen, or HINT when the player asks for a hint (only if ``offer_hints``)."""
        while True:
            self.console.print((_("Your choice (1–{count}, h for a hint, q to quit): ") if offer_hints
                                else _("Your choice (1–{count}, q to quit): ")).format(count=count), end="")
            line = sys.stdin.readline()
            if not line:
                self.console.print()
                raise Quit
            answer = line.strip()
            if not sys.stdin.isatty():
                self.console.print(answer, markup=False, highlight=False)
            if answer.lower() in ("q", "quit"):
                raise Quit
            if offer_hints and answer.lower() in ("h", "hint"):
                return HINT
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer)
            self.console.print(Text.assemble((_("{answer!r} is not a choice:").format(answer=answer), "red"), " ",
                                             _("type a number from 1 to {count}, or q to quit.").format(count=count)))

    def finish(self) -> None:
        view = self.match.view(self.human)
        self.console.print(Rule(_("Game over")))
        self.console.print(self.render(view, self.described))
        final = final_renderer(self.match.game.name)(view, self.described)
        if final is not None:
            self.console.print(final)
        self.console.print(_("Record saved to {path}").format(path=self.path), markup=False)
