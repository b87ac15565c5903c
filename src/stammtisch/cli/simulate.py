"""``stammtisch simulate``: many bot-only games, with win rates, score spreads and outcome counts."""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from stammtisch.bots.base import Bot, decide
from stammtisch.cli.common import (
    CliError,
    add_table_arguments,
    bot_kind_name,
    bot_kinds,
    bot_seed,
    build_game,
    make_bot,
    progress_bar,
    spec_of,
    table_options,
)
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Game, IllegalAction
from stammtisch.i18n import _
from stammtisch.registry import games


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate", help=_("play bot-only games and report win rates and scores"),
        description=_("Play K games between bots and report win rates per seat and per bot kind (a shared win "
                      "counts for every tied seat and is also reported separately), score distributions per seat "
                      "and counts of notable outcomes. Runs are reproducible for a given --seed."),
        epilog=_("example:")
        + "\n  stammtisch simulate GAME --players 3 --games 200 --bots heuristic,random,random",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help=_("the game: {games}").format(games=", ".join(games())))
    parser.add_argument("--players", type=int, required=True, help=_("number of players"))
    parser.add_argument("--games", type=int, default=100, help=_("number of games (default 100)"))
    parser.add_argument("--bots", help=_("bot kinds per seat, e.g. heuristic,random,random; one kind applies to all "
                                         "seats (default: heuristic where the game has one, else random)"))
    parser.add_argument("--seed", type=int, default=0, help=_("base seed (default 0); game i uses seed+i"))
    add_table_arguments(parser)
    parser.set_defaults(run=run)


@dataclass
class Tally:
    seats: int
    kinds: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    shared: list[int] = field(default_factory=list)
    scores: list[list[int]] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.wins = [0] * self.seats
        self.shared = [0] * self.seats
        self.scores = [[] for _ in range(self.seats)]

    def add(self, scores: list[int], winners: list[int], summary: dict[str, int]) -> None:
        self.games += 1
        for seat, points in enumerate(scores):
            self.scores[seat].append(points)
        for seat in winners:
            self.wins[seat] += 1
            if len(winners) > 1:
                self.shared[seat] += 1
        self.outcomes.update(summary)


def run(args: argparse.Namespace, console: Console) -> int:
    if args.games < 1:
        raise CliError(_("--games must be at least 1"))
    game = build_game(args.game, args.players, table_options(args))
    kinds = bot_kinds(args.bots, args.game, args.players)
    tally = Tally(args.players, kinds)
    with progress_bar(console, args.game, args.players, args.games) as advance:
        for index in range(args.games):
            bots = [make_bot(args.game, kind, bot_seed(args.seed, index, seat)) for seat, kind in enumerate(kinds)]
            play_one(game, args.seed + index, bots, tally)
            advance(1)
    report(console, args, tally)
    return 0


def play_one(game: Game[Any], seed: int, bots: list[Bot], tally: Tally) -> None:
    match = Match(game, seed)
    while not match.is_over():
        seat = match.to_act()[0]
        action = decide(bots[seat], game, match.state, seat)
        try:
            match.act(seat, action)
        except IllegalAction:
            raise CliError(_("the bot of seat {seat} chose {action}, which is not legal (game seed {seed})").format(
                seat=seat, action=repr(action), seed=seed)) from None
    tally.add(game.scores(match.state), game.winners(match.state), game.summary(match.state))


def report(console: Console, args: argparse.Namespace, tally: Tally) -> None:
    console.print(Text.assemble((args.game, "bold"), ", ", _("{players} players, {games} games, seeds {first}–{last}")
                                .format(players=args.players, games=tally.games, first=args.seed,
                                        last=args.seed + tally.games - 1)))
    console.print(seat_table(tally))
    console.print(kind_table(tally))
    labels = outcome_labels(args.game)
    if tally.outcomes or labels:
        console.print(outcome_table(tally, labels))


def percent(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "—"


def seat_table(tally: Tally) -> Table:
    table = Table(title=_("Per seat (win rate includes shared wins)"))
    for index, column in enumerate((_("Seat"), _("Bot"), _("Wins"), _("Win rate"), _("Shared wins"), _("Mean"),
                                    _("Min"), _("Median"), _("Max"))):
        table.add_column(column, justify="left" if index == 1 else "right")
    for seat in range(tally.seats):
        points = tally.scores[seat]
        table.add_row(str(seat), bot_kind_name(tally.kinds[seat]), str(tally.wins[seat]),
                      percent(tally.wins[seat], tally.games),
                      str(tally.shared[seat]), f"{statistics.fmean(points):.1f}", str(min(points)),
                      f"{statistics.median(points):g}", str(max(points)))
    return table


def kind_table(tally: Tally) -> Table:
    table = Table(title=_("Per bot kind"))
    for index, column in enumerate((_("Bot"), _("Seat-games"), _("Wins"), _("Win rate"), _("Shared wins"),
                                    _("Mean score"))):
        table.add_column(column, justify="left" if index == 0 else "right")
    for kind in dict.fromkeys(tally.kinds):
        seats = [s for s in range(tally.seats) if tally.kinds[s] == kind]
        wins = sum(tally.wins[s] for s in seats)
        seat_games = tally.games * len(seats)
        points = [p for s in seats for p in tally.scores[s]]
        table.add_row(bot_kind_name(kind), str(seat_games), str(wins), percent(wins, seat_games),
                      str(sum(tally.shared[s] for s in seats)), f"{statistics.fmean(points):.1f}")
    return table


def outcome_labels(game: str) -> dict[str, str]:
    """Readable names of a game's outcome kinds (its spec's ``outcomes``), listed even when they never happened."""
    return {str(k): _(str(v)) for k, v in spec_of(game).outcome_labels().items()}


def outcome_table(tally: Tally, labels: dict[str, str]) -> Table:
    table = Table(title=_("Notable outcomes (summed over all games)"))
    table.add_column(_("Outcome"))
    table.add_column(_("Count"), justify="right")
    table.add_column(_("Per game"), justify="right")
    if labels:
        table.add_column(_("Meaning"))
    for name in [*labels, *sorted(set(tally.outcomes) - set(labels))]:
        count = tally.outcomes[name]
        table.add_row(name, str(count), f"{count / tally.games:.2f}", *([labels.get(name, "")] if labels else []))
    return table
