"""``stammtisch tournament``: bot kinds against each other on mirrored deals, rotated through the seats;
win rates with intervals, places, margins and openskill ratings (the work is in stammtisch.tournament)."""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from stammtisch.cli.common import (
    CliError,
    add_table_arguments,
    bot_kind_name,
    progress_bar,
    record_path,
    table_options,
)
from stammtisch.i18n import _
from stammtisch.registry import games
from stammtisch.tournament import entrants, play, report, schedule, stats
from stammtisch.tournament.schedule import Plan, TournamentError

RESULT_COLUMNS = 6  # of report.COLUMNS in the first table; the rest (scores, rating, time) in the second


def examples() -> str:
    """Example command lines, for every registered game (the first one also writing and replaying)."""
    tables = [f"{name} --players {spec.default_players}" for name, spec in games().items()]
    lines = [f"{table} --bots heuristic,random --games 300" for table in tables]
    lines += [f"{tables[0]} --bots heuristic,random --games 400 {more}" for more in ("--out results/", "--only 17")]
    return _("examples:") + "".join(f"\n  stammtisch tournament {line}" for line in lines)


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "tournament", help=_("measure bot kinds against each other: rotated seats, mirrored deals, ratings"),
        description=_(
            "Play bot kinds against each other and report, per kind, the win rate with its 95% confidence interval (a "
            "shared win counts 1/k for each of its k winners), the mean place, the mean score margin against the best "
            "other seat, and an openskill rating.\n\n"
            "Line-ups from --bots for N players: exactly N kinds are one line-up as given (kinds may repeat); "
            "fewer than N are one line-up where each kind but the last takes one seat and the last fills the "
            "rest (hard,heuristic for 4 players: hard against three heuristic bots); more than N different "
            "kinds give one line-up for every choice of N of them. Every line-up is played in its N rotations "
            "(each kind in each seat), and deal d uses game seed SEED+d in every rotation and line-up, so seat "
            "advantage and the luck of the deal cancel. --games is rounded up to whole rotations. Game i's bots "
            "get seeds from (SEED, i, seat): --only i plays that game again."),
        epilog=examples(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help=_("the game: {games}").format(games=", ".join(games())))
    parser.add_argument("--players", type=int, required=True, help=_("number of players"))
    parser.add_argument("--bots", required=True, metavar="KIND,KIND,…",
                        help=_("bot kinds, comma-separated, e.g. heuristic,random (line-ups as described above); "
                               "KIND@X is an entrant with its own parameter: a search bot's CPU seconds per decision "
                               "(hard@0.2,hard@1), the noisy bot's temperature (noisy@2)"))
    parser.add_argument("--budget", metavar="KIND=S,…",
                        help=_("CPU seconds per decision of search bot kinds, e.g. hard=1.0,normal=0.2 (default: each "
                               "strength's own); an entrant KIND@S in --bots sets its own, e.g. hard@0.2,hard@1"))
    parser.add_argument("--games", type=int, default=100,
                        help=_("number of games, rounded up to whole rotations (default 100, at most {most})")
                        .format(most=schedule.MAX_GAMES))
    parser.add_argument("--seed", type=int, default=0, help=_("base seed (default 0); deal d uses game seed SEED+d"))
    parser.add_argument("--workers", type=int, default=play.default_workers(),
                        help=_("worker processes (default: every core, here {cores}); the results do not depend "
                               "on it").format(cores=play.default_workers()))
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help=_("run on Dask (pip install 'stammtisch[cluster]'): 'local' starts a cluster of "
                               "--workers processes here, tcp://HOST:PORT uses a running scheduler"))
    parser.add_argument("--game-seconds", type=float, metavar="S",
                        help=_("stop the tournament when one game takes longer than S seconds (default: no limit)"))
    parser.add_argument("--out", metavar="DIR", help=_("write tournament.json (every game's seeds, line-up and "
                                                       "result) and tournament.md into DIR"))
    parser.add_argument("--only", type=int, metavar="INDEX",
                        help=_("play only game INDEX of this tournament and show its seats and result"))
    parser.add_argument("--records", metavar="DIR", help=_("with --only: save that game's record in DIR "
                                                           "(for stammtisch replay)"))
    add_table_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    try:
        plan = make_plan(args)
        if args.only is not None:
            return run_one(args, plan, console)
        check_run_arguments(args)
        started = time.perf_counter()
        with executor(args, plan) as pool, progress_bar(console, plan.game, plan.players, plan.games) as advance:
            results = play.run(plan, pool, workers=args.workers, limit=args.game_seconds, progress=advance)
        seconds = time.perf_counter() - started
    except TournamentError as error:
        raise CliError(str(error)) from None
    kinds = stats.kind_stats(plan, results)
    console.print(*kind_tables(plan, kinds))
    for note in report.notes():
        console.print(note, style="dim", markup=False)
    if args.out:
        written = report.write(Path(args.out), plan, results, kinds, report.Run(args.workers, args.cluster, seconds),
                               command_line(args, plan))
        console.print(_("Wrote {json} and {markdown}").format(json=written[0], markdown=written[1]), markup=False)
    return 0


def make_plan(args: argparse.Namespace) -> Plan:
    try:
        return schedule.plan(args.game, args.players, args.bots.split(","), args.games, args.seed, table_options(args),
                             entrants.budgets(args.budget))
    except ValueError as error:  # TournamentError, an unknown game or a bad table option: each names it
        raise CliError(str(error)) from None


def check_run_arguments(args: argparse.Namespace) -> None:
    if args.workers < 1:
        raise CliError(_("--workers must be at least 1"))
    if args.game_seconds is not None and args.game_seconds <= 0:
        raise CliError(_("--game-seconds must be more than 0"))
    if args.records:
        raise CliError(_("--records saves the record of one game: use it with --only"))


@contextlib.contextmanager
def executor(args: argparse.Namespace, plan: Plan) -> Iterator[Executor | None]:
    if args.cluster:
        with play.dask_executor(args.cluster, args.workers) as pool:
            yield pool
    else:
        with play.local_executor(min(args.workers, plan.games)) as local:
            yield local


def kind_tables(plan: Plan, kinds: list[stats.KindStats]) -> list[Table]:
    """The report's columns in two tables (wins and places; scores, rating and time), so that 80 columns hold
    them in every language."""
    rows = [report.row(entry, bot_kind_name) for entry in kinds]
    style: dict[str, Any] = {"box": box.SIMPLE_HEAD, "collapse_padding": True, "pad_edge": False}
    results = Table(title=_("Per bot kind"), caption=report.describe(plan), **style)
    ratings = Table(title=_("Scores, ratings and thinking time"), **style)
    for index, column in enumerate(report.COLUMNS):
        parts = [results] if index < RESULT_COLUMNS else []
        parts += [ratings] if index == 0 or index >= RESULT_COLUMNS else []
        for table in parts:
            heading = _(column)
            width = max(cell_len(word) for cells in ([heading.split()] + [[cells[index]] for cells in rows])
                        for word in cells)  # the headings wrap between words, the figures not at all
            table.add_column(heading, justify="left" if index == 0 else "right", width=width)
    for cells in rows:
        results.add_row(*cells[:RESULT_COLUMNS])
        ratings.add_row(cells[0], *cells[RESULT_COLUMNS:])
    return [results, ratings]


def run_one(args: argparse.Namespace, plan: Plan, console: Console) -> int:
    """``--only``: one game of the tournament, as the full run plays it."""
    if args.out:
        raise CliError(_("--only plays one game and writes no tournament files: leave out --out"))
    job = plan.job(args.only)
    result, match = play.play(plan, job, args.game_seconds)
    places, margins = stats.places(result.scores, result.winners), stats.margins(result.scores)
    table = Table(title=_("Game {index}: line-up {line_up}, deal {deal} (game seed {seed}), rotation {rotation}")
                  .format(index=job.index, line_up=job.line_up, deal=job.deal, seed=job.game_seed,
                          rotation=job.rotation))
    for index, column in enumerate((_("Seat"), _("Bot"), _("Bot seed"), _("Score"), _("Place"), _("Margin"))):
        table.add_column(column, justify="left" if index == 1 else "right")
    for seat, kind in enumerate(job.kinds):
        table.add_row(str(seat), bot_kind_name(kind), str(job.bot_seeds[seat]), str(result.scores[seat]),
                      f"{places[seat]:g}", f"{margins[seat]:+d}")
    console.print(table)
    if args.records:
        path = record_path(Path(args.records), plan.game, job.game_seed)
        match.record.save(path)
        console.print(_("Record saved to {path}").format(path=path), markup=False)
    return 0


def command_line(args: argparse.Namespace, plan: Plan) -> str:
    """The command that plays this tournament again (for the Markdown report); table options as
    ``--option NAME=JSON``, whichever flags gave them."""
    words = ["stammtisch", "tournament", plan.game, "--players", str(plan.players), "--bots", ",".join(plan.bots),
             "--games", str(args.games), "--seed", str(plan.seed)]
    if plan.budgets:
        words += ["--budget", ",".join(f"{kind}={seconds:g}" for kind, seconds in plan.budgets.items())]
    for name, value in plan.options.items():
        words += ["--option", f"{name}={json.dumps(value)}"]
    return shlex.join(words)
