"""``stammtisch bench``: random full games, actions, state copies, resamples and views per CPU second
on one core — for the pure-Python and the compiled build in the same run, and optionally against
OpenSpiel's C++ hearts through the same loop."""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

import stammtisch
from stammtisch._build import PURE_ENV
from stammtisch.cli.common import CliError
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Game
from stammtisch.engine.step import step
from stammtisch.i18n import N_, _, using_language
from stammtisch.registry import games as registered

COPY_SHARE = 0.2  # of each configuration's time budget spent on copies, resamples and views (a third each)
BUILDS = ("pure", "compiled")


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "bench", help=_("measure random full games, actions and state copies per second"),
        description=_("For each game and player count, play random full games on one core for about the given "
                      "time and report games, actions, state copies, resamples and views per CPU second (a "
                      "mid-game state), at the tables each game's spec declares. With a current compiled build, "
                      "each table is measured in a pure-Python and a compiled interpreter in turn, and the table "
                      "shows both and their ratio."),
    )
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=_("games to measure (default: {games})").format(games=", ".join(registered())))
    parser.add_argument("--seconds", type=float, default=3.0, help=_("time per configuration (default 3)"))
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the random games (default 0)"))
    parser.add_argument("--markdown", action="store_true", help=_("also print a Markdown table with the machine, "
                                                                  "for docs/performance.md"))
    parser.add_argument("--openspiel-hearts", action="store_true",
                        help=_("also run the same random-game loop on OpenSpiel's C++ hearts and give our actions "
                               "per second as a ratio of it (pip install 'stammtisch[research]')"))
    parser.set_defaults(run=run)


@dataclass
class Rates:
    """One table in one build: counts and CPU seconds of the random games, and per-second rates of
    copies, resamples and views of one mid-game state."""

    build: str
    games: int  # through ``apply``, the loop OpenSpiel's hearts runs too
    actions: int
    seconds: float
    strict_games: int  # through the strict step, which every client's action passes (``Match.act``)
    strict_seconds: float
    copies: float
    resamples: float
    views: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def strict_games_per_second(self) -> float:
        return self.strict_games / self.strict_seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


@dataclass
class Result:
    game: str
    players: int
    options: dict[str, Any]
    builds: dict[str, Rates]  # by build; "compiled" only when a current compiled build exists

    @property
    def setting(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.options.items()) or "—"

    def rows(self, hearts: float | None) -> list[list[str]]:
        """One row per build, then the compiled/pure ratio when both were measured."""
        lead = [self.game, str(self.players), self.setting]
        rows = []
        for build, rates in self.builds.items():
            cells = [figure(getattr(rates, key)) for key in RATES]
            if hearts is not None:
                cells.append(f"{rates.actions_per_second / hearts:.2f}")
            rows.append([*lead, _(build), *cells])
        if len(self.builds) == 2:
            pure, compiled = self.builds["pure"], self.builds["compiled"]
            cells = [f"{getattr(compiled, key) / getattr(pure, key):.2f}×" for key in RATES]
            rows.append([*lead, _("ratio"), *cells, *([""] if hearts is not None else [])])
        return rows


def figure(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


RATES = ("games_per_second", "strict_games_per_second", "actions_per_second", "copies", "resamples", "views")
# The Markdown table (for docs/performance.md) stays English; the terminal table translates these.
COLUMNS = (N_("Game"), N_("Players"), N_("Options"), N_("Build"), N_("Games/s"), N_("Games/s, strict step"),
           N_("Actions/s"), N_("Copies/s"),
           N_("Resamples/s"), N_("Views/s"))
HEARTS_COLUMN = N_("Actions/s ÷ hearts")
N_("pure"), N_("compiled"), N_("ratio")  # the Build column's words


def columns(hearts: bool) -> list[str]:
    return [*COLUMNS, *([HEARTS_COLUMN] if hearts else [])]


def run(args: argparse.Namespace, console: Console) -> int:
    if args.seconds <= 0:
        raise CliError(_("--seconds must be positive"))
    specs = registered()
    names = args.games or list(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        raise CliError(_("unknown game {name!r}; choose one of {choices}").format(name=unknown[0],
                                                                                 choices=", ".join(specs)))
    hearts = hearts_actions_per_second(args.seconds, args.seed) if args.openspiel_hearts else None
    builds = BUILDS if stammtisch.BUILD == "compiled" else ("pure",)
    results: list[Result] = []
    for name in names:
        tables = specs[name].bench_tables()  # declared in the game's spec
        with console.status(_("{game}, {players} players").format(
                game=name, players=", ".join(str(players) for players, _options in tables))):
            # Each game in both builds in turn, so that a busy spell of the machine hits both alike.
            rates = {build: measured_in(build, name, tables, args.seconds, args.seed) for build in builds}
        results += [Result(name, players, options, {build: rates[build][index] for build in builds})
                    for index, (players, options) in enumerate(tables)]
    console.print(rich_table(results, hearts))
    if len(builds) == 1:
        console.print(_("No current compiled build: pure Python only (tools/build-compiled makes one)."),
                      style="dim", markup=False)
    if hearts is not None:
        console.print(_("OpenSpiel's hearts (C++), same loop: {rate} actions/s").format(rate=figure(hearts)),
                      markup=False)
    if args.markdown:
        console.print(markdown(results, args.seconds, hearts), markup=False, highlight=False, soft_wrap=True)
    return 0


def measured_in(build: str, name: str, tables: list[tuple[int, dict[str, Any]]], seconds: float,
                seed: int) -> list[Rates]:
    """A game's tables measured in a fresh interpreter of ``build`` (pure Python: ``STAMMTISCH_PURE=1``)."""
    env = {key: value for key, value in os.environ.items() if key != PURE_ENV}
    if build == "pure":
        env[PURE_ENV] = "1"
    job = json.dumps({"game": name, "tables": tables, "seconds": seconds, "seed": seed})
    done = subprocess.run([sys.executable, "-m", "stammtisch.cli.bench", job], env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise CliError(_("the {build} build failed to measure {game}: {error}").format(
            build=build, game=name, error=done.stderr.strip().splitlines()[-1:] or done.returncode))
    return [Rates(**rates) for rates in json.loads(done.stdout)]


def measure(game: Game[Any], seconds: float, seed: int) -> Rates:
    """Copies, resamples and views of one mid-game state, then random full games for the rest of
    ``seconds`` of CPU time: half through ``apply``, half through the strict step."""
    state = mid_game_state(game, seed)
    seat = game.to_act(state)[0]
    sampler = random.Random(seed)
    share = seconds * COPY_SHARE / 3
    copies = rate(lambda: game.copy(state), share)
    resamples = rate(lambda: game.resample(state, seat, sampler), share)
    views = rate(lambda: game.view(state, seat), share)
    loose, strict = random_games(game, seconds * (1 - COPY_SHARE), seed)
    import stammtisch as loaded

    return Rates(loaded.BUILD, loose.games, loose.actions, loose.seconds, strict.games, strict.seconds, copies,
                 resamples, views)


@dataclass
class Played:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0  # CPU


def random_games(game: Game[Any], seconds: float, seed: int) -> tuple[Played, Played]:
    """Random full games for about ``seconds`` of CPU time, each played twice in turn: through
    ``apply`` (the hearts loop below) and through the strict step (``engine.step``, given the legal
    list the action was chosen from, as ``Match.act`` passes it), with the same choices.  In turn, so
    that both loops share whatever the machine's speed does meanwhile."""
    loose, strict = Played(), Played()
    loose_rng, strict_rng = random.Random(seed), random.Random(seed)
    deadline = time.process_time() + seconds
    while loose.games == 0 or time.process_time() < deadline:
        for played, rng, through_step in ((loose, loose_rng, False), (strict, strict_rng, True)):
            start = time.process_time()
            played.actions += _random_game(game, seed + played.games, rng, through_step)
            played.seconds += time.process_time() - start
            played.games += 1
    return loose, strict


def _random_game(game: Game[Any], seed: int, rng: random.Random, strict: bool) -> int:
    state, _events = game.new_state(seed)
    is_over, to_act, legal_actions, apply = game.is_over, game.to_act, game.legal_actions, game.apply
    choice = rng.choice
    count = 0
    while not is_over(state):
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        if strict:
            step(game, state, seat, choice(legal), legal)
        else:
            apply(state, seat, choice(legal))
        count += 1
    return count


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


def rate(call: Callable[[], object], seconds: float) -> float:
    """Calls of ``call`` per CPU second, for about ``seconds`` (at least 10 calls)."""
    done = 0
    start = time.process_time()
    deadline = start + seconds
    while done == 0 or time.process_time() < deadline:
        for _call in range(10):
            call()
        done += 10
    return done / (time.process_time() - start)


def hearts_actions_per_second(seconds: float, seed: int) -> float:
    """The same random-game loop on OpenSpiel's C++ hearts (chance outcomes drawn as the loop draws
    actions): actions, chance outcomes included, per CPU second."""
    try:
        import pyspiel
    except ImportError:
        raise CliError(_("--openspiel-hearts needs OpenSpiel: pip install 'stammtisch[research]'")) from None
    hearts = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    start = time.process_time()
    deadline = start + seconds
    while actions == 0 or time.process_time() < deadline:
        state = hearts.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, _probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choice(outcomes))
            else:
                state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions / (time.process_time() - start)


def rich_table(results: list[Result], hearts: float | None) -> Table:
    table = Table(title=_("Random full games on one core (per CPU second)"), box=box.SIMPLE_HEAD, padding=(0, 0),
                  show_edge=False)
    for column in columns(hearts is not None):
        table.add_column(_(column), justify="left" if column in ("Game", "Options", "Build") else "right")
    for result in results:
        for cells in result.rows(hearts):
            table.add_row(*cells)
    return table


def markdown(results: list[Result], seconds: float, hearts: float | None) -> str:
    names = columns(hearts is not None)
    lines = [
        f"Machine: {cpu_model()}; Python {platform.python_version()} ({platform.python_implementation()}); "
        f"{date.today().isoformat()}; load average {load_average()}; about {seconds:g} CPU s per configuration "
        "and build, one core.",
        "",
        "| " + " | ".join(names) + " |",
        "|" + "|".join("---" if c in ("Game", "Options", "Build") else "---:" for c in names) + "|",
    ]
    with using_language("en"):
        lines += ["| " + " | ".join(cells) + " |" for result in results for cells in result.rows(hearts)]
    if hearts is not None:
        lines += ["", f"OpenSpiel hearts (C++), the same loop: {figure(hearts)} actions per CPU second."]
    return "\n".join(lines)


def load_average() -> str:
    try:
        return " ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def main(job: str) -> None:
    """A child interpreter's work: a game's tables in the build it loaded, as JSON on stdout."""
    work = json.loads(job)
    spec = registered()[work["game"]]
    print(json.dumps([asdict(measure(spec.make(players, options), work["seconds"], work["seed"]))
                      for players, options in work["tables"]]))


if __name__ == "__main__":
    main(sys.argv[1])
