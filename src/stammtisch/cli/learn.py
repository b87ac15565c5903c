"""``stammtisch learn``: a game's guided first game in the terminal (stammtisch/guide.py).

The newcomer plays seat 1 against the guide's bots from its fixed deal; each phase, the first time it comes
up, opens with its explanation and names the pieces of the board it talks about. The game is saved after
every move to one record per game (``learn-GAME.jsonl``); the same command resumes it at the same step (the
steps follow from the moves), ``--new`` starts again."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from stammtisch.cli.common import CliError, Texts, build_game, make_bot, records_dir, spec_of
from stammtisch.cli.play import Session, seat_name
from stammtisch.engine.match import Match, replay
from stammtisch.engine.protocol import Event
from stammtisch.engine.record import CorruptRecord, parse_record
from stammtisch.guide import NEWCOMER, Guide, Progress, Reached, step_json
from stammtisch.i18n import _
from stammtisch.registry import games


def add_parser(commands: Any) -> None:
    learning = [name for name, spec in games().items() if spec.guide]
    parser = commands.add_parser(
        "learn", help=_("learn a game: a guided first game against bots in the terminal"),
        description=_("A guided first game against bots, from a fixed deal: every phase is explained the first "
                      "time it comes up, and you make every decision yourself. The game is saved after every "
                      "move; the same command resumes it."),
        epilog=_("examples:") + "\n  stammtisch learn diemacher\n  stammtisch --lang de learn glueckauf --new",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=learning, help=_("the game to learn: {games}").format(
        games=", ".join(learning)))
    parser.add_argument("--new", action="store_true", help=_("start the guided game again from its beginning"))
    parser.add_argument("--records", metavar="DIR",
                        help=_("where to save the game record (default: $STAMMTISCH_HOME/records or "
                               "~/.local/share/stammtisch/records)"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    guide: Guide | None = spec_of(args.game).guide_script()
    if guide is None:
        raise CliError(_("{game} has no guided first game").format(game=args.game))
    path = records_dir(args.records) / f"learn-{args.game}.jsonl"
    bots = {seat: make_bot(args.game, guide.bots, guide.seed + seat) for seat in range(1, guide.players)}
    progress = Progress(guide)
    resumed = resume(path, progress) if path.exists() and not args.new else None
    if resumed is not None:
        match = resumed
        events: list[Event] = []
    else:
        progress = Progress(guide)
        names = [seat_name(seat, None if seat == NEWCOMER else guide.bots) for seat in range(guide.players)]
        match = Match(build_game(args.game, guide.players, guide.table_options()), guide.seed, names)
        events = match.setup_events
    session = GuidedSession(console, match, NEWCOMER, bots, Texts(args.game, match.record.header.names))
    session.progress, session.path = progress, path
    if resumed is not None:
        session.followed = len(match.record.moves)
    session.resume = f"stammtisch learn {args.game}"
    console.print(Text.assemble((_("Learn to play {game}").format(game=_(spec_of(args.game).title)), "bold"), " — ",
                                _("you are Player {number}").format(number=NEWCOMER + 1)))
    if resumed:
        console.print(_("Resumed after {moves} moves.").format(moves=len(match.record.moves)))
        session.show_steps(progress.active())
    return session.run(events)


def resume(path: Path, progress: Progress) -> Match | None:
    """The unfinished guided game of ``path``, replayed with the guide following it; None if it is over."""
    try:
        record = parse_record(path.read_text(encoding="utf-8"))
        steps = replay(record, build_game)
        match: Match | None = None
        for entry, (match, seat, _action, events) in enumerate(steps):
            progress.follow(match.game, match.state, events, entry, seat)
    except (OSError, UnicodeDecodeError, CorruptRecord) as error:
        raise CliError(_("cannot resume {path}: {error}").format(path=path, error=error)) from None
    return None if match is None or match.is_over() else match


class GuidedSession(Session):
    """A played game whose guide speaks up when a step is reached (after the move's events)."""

    progress: Progress
    followed = -1  # the moves the guide has followed (-1: not even the setup)

    def show_events(self, events: list[Event]) -> None:
        super().show_events(events)
        moves = self.match.record.moves
        if len(moves) == self.followed:  # nothing new (a resumed game's first call)
            return
        self.followed = len(moves)
        before = len(self.progress.reached)
        self.progress.follow(self.match.game, self.match.state, events, len(moves), moves[-1][0] if moves else None)
        self.show_steps(self.progress.reached[before:])

    def show_steps(self, reached: list[Reached]) -> None:
        view = self.match.view(self.human)
        for step in reached:
            shown = step_json(self.progress.guide, step, self.progress.number(step), view, self.texts.names)
            body = Text("\n").join(Text(sentence) for sentence in shown["sentences"])
            if shown["why"]:
                body.append("\n")
                body.append(Text.assemble((_("Why:"), "bold"), " ", shown["why"]))
            if shown["points"]:
                body.append("\n")
                body.append(Text.assemble((_("Look at:"), "bold"), " ",
                                          "; ".join(point["piece"] for point in shown["points"])))
            title = _("Step {number}").format(number=shown["number"])
            self.console.print(Panel(body, title=f"{_('Learn to play')} · {title}: {shown['heading']}",
                                     title_align="left"))
