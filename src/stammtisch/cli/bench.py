"""``stammtisch bench``: random full games, actions and state copies per second on one core."""

from __future__ import annotations

import argparse
import platform
import random
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from stammtisch.cli.common import CliError
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Game
from stammtisch.engine.registry import games as registered
from stammtisch.i18n import N_, _

COPY_SHARE = 0.2  # of each configuration's time budget spent timing state copies


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "bench", help=_("measure random full games, actions and state copies per second"),
        description=_("For each game and player count, play random full games on one core for about the given "
                      "time and report games per second, actions per second and state copies per second "
                      "(a mid-game state), at the tables each game's spec declares."),
    )
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=_("games to measure (default: {games})").format(games=", ".join(registered())))
    parser.add_argument("--seconds", type=float, default=3.0, help=_("time per configuration (default 3)"))
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the random games (default 0)"))
    parser.add_argument("--markdown", action="store_true", help=_("also print a Markdown table with the machine, "
                                                                  "for docs/performance.md"))
    parser.set_defaults(run=run)


@dataclass
class Result:
    game: str
    players: int
    options: dict[str, Any]
    games: int
    actions: int
    seconds: float
    copies_per_second: float

    @property
    def setting(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.options.items()) or "—"

    def row(self) -> list[str]:
        return [self.game, str(self.players), self.setting, str(self.games), f"{self.games / self.seconds:,.1f}",
                f"{self.actions / self.seconds:,.0f}", f"{self.actions / max(self.games, 1):,.0f}",
                f"{self.copies_per_second:,.0f}"]


# The Markdown table (for docs/performance.md) stays English; the terminal table translates these.
COLUMNS = (N_("Game"), N_("Players"), N_("Options"), N_("Games"), N_("Games/s"), N_("Actions/s"), N_("Actions/game"),
           N_("Copies/s"))


def run(args: argparse.Namespace, console: Console) -> int:
    if args.seconds <= 0:
        raise CliError(_("--seconds must be positive"))
    specs = registered()
    names = args.games or list(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        raise CliError(_("unknown game {name!r}; choose one of {choices}").format(name=unknown[0],
                                                                                 choices=", ".join(specs)))
    results: list[Result] = []
    for name in names:
        for players, options in specs[name].bench_tables():  # declared in the game's spec
            with console.status(_("{game}, {players} players").format(game=name, players=players)
                                + (f" {options}" if options else "")):
                results.append(measure(name, specs[name].make(players, options), options, args.seconds, args.seed))
    console.print(rich_table(results))
    if args.markdown:
        console.print(markdown(results, args.seconds), markup=False, highlight=False, soft_wrap=True)
    return 0


def measure(name: str, game: Game[Any], options: dict[str, Any], seconds: float, seed: int) -> Result:
    copies = copies_per_second(game, mid_game_state(game, seed), seconds * COPY_SHARE)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds * (1 - COPY_SHARE)
    while games == 0 or time.perf_counter() < deadline:
        _state, length = play_random(game, seed + games, rng, keep_at=None)
        games += 1
        actions += length
    return Result(name, game.num_players, options, games, actions, time.perf_counter() - start, copies)


def mid_game_state(game: Game[Any], seed: int) -> Any:
    _state, length = play_random(game, seed, random.Random(seed), keep_at=None)
    state, _count = play_random(game, seed, random.Random(seed), keep_at=length // 2)
    return state


def play_random(game: Game[Any], seed: int, rng: random.Random, keep_at: int | None) -> tuple[Any, int]:
    """A random full game (or its state after ``keep_at`` actions) and the number of actions played."""
    match = Match(game, seed)
    state, act, choice = match.state, match.act, rng.choice
    is_over, to_act, legal_actions = game.is_over, game.to_act, game.legal_actions
    count = 0
    while not is_over(state) and count != keep_at:
        seat = to_act(state)[0]
        act(seat, choice(legal_actions(state, seat)), checked=False)  # chosen from the legal list
        count += 1
    return state, count


def copies_per_second(game: Game[Any], state: Any, seconds: float) -> float:
    copies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while copies == 0 or time.perf_counter() < deadline:
        for _copy in range(100):
            game.copy(state)
        copies += 100
    return copies / (time.perf_counter() - start)


def rich_table(results: list[Result]) -> Table:
    table = Table(title=_("Random full games on one core"), box=box.SIMPLE_HEAD, padding=(0, 0), show_edge=False)
    for column in COLUMNS:
        table.add_column(_(column), justify="left" if column in ("Game", "Options") else "right")
    for result in results:
        table.add_row(*result.row())
    return table


def markdown(results: list[Result], seconds: float) -> str:
    lines = [
        f"Machine: {cpu_model()}; Python {platform.python_version()} ({platform.python_implementation()}); "
        f"{date.today().isoformat()}; about {seconds:g} s per configuration, one core.",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "|".join("---" if c in ("Game", "Options") else "---:" for c in COLUMNS) + "|",
    ]
    lines += ["| " + " | ".join(result.row()) + " |" for result in results]
    return "\n".join(lines)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"
