"""A tournament's results as JSON (everything, including every game's seeds and line-up) and as a
Markdown table (in the reader's language), and the rows both the Markdown and the terminal show."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stammtisch.engine.record import ENGINE_VERSION
from stammtisch.i18n import N_, _, _n
from stammtisch.tournament.play import GameResult
from stammtisch.tournament.schedule import Plan
from stammtisch.tournament.stats import BOOTSTRAP, KindStats, margins, places

FORMAT = 1
COLUMNS = (N_("Bot"), N_("Seat-games"), N_("Wins"), N_("Win rate"), N_("Interval (95%)"), N_("Mean place"),
           N_("Mean margin"), N_("Mean score"), N_("Rating μ ± σ"), N_("ms per decision"))


@dataclass(frozen=True)
class Run:
    """How the games were run: what may differ between runs of the same tournament."""

    workers: int
    cluster: str | None
    seconds: float


def row(stats: KindStats, name: Callable[[str], str] = str) -> list[str]:
    """The table row of a kind; ``name`` says the kind (the Markdown keeps the ``--bots`` word)."""
    ms = 1000 * stats.thinking / stats.decisions if stats.decisions else 0.0
    return [name(stats.kind), str(stats.seat_games), f"{stats.wins:g}",
            f"{100 * stats.win_rate:.1f}%", f"{100 * stats.win_low:.1f}–{100 * stats.win_high:.1f}%",
            f"{stats.mean_place:.2f}", f"{stats.mean_margin:+.1f}", f"{stats.mean_score:.1f}",
            f"{stats.rating.mu:.1f} ± {stats.rating.sigma:.1f}", f"{ms:.1f}"]


def describe(plan: Plan) -> str:
    """One sentence: the games played, for the table's caption."""
    return _n("{game}, {players} players, {games} game (line-ups × rotations × deals: {line_ups} × {players} × "
              "{deals}), game seeds {first}–{last}",
              "{game}, {players} players, {games} games (line-ups × rotations × deals: {line_ups} × {players} × "
              "{deals}), game seeds {first}–{last}", plan.games).format(
        game=plan.game, players=plan.players, line_ups=len(plan.line_ups), deals=plan.deals, games=plan.games,
        first=plan.seed, last=plan.seed + plan.deals - 1)


def notes() -> list[str]:
    return [_("Wins: a shared win counts 1/k for each of its k winners. Interval: 95% percentile bootstrap over "
              "deals (the games of a deal, all its seatings, are drawn together; {resamples} resamples).").format(
                  resamples=BOOTSTRAP),
            _("Place: winners share first place, the others follow by score. Margin: score minus the best "
              "other seat's score."),
            _("Rating: openskill (Plackett-Luce) over the games in order; a kind in several seats of a game "
              "takes the mean of its seats' new ratings.")]


def markdown(plan: Plan, stats: Sequence[KindStats], command: str) -> str:
    lines = [f"**{describe(plan)}**", "", "```", command, "```", "",
             "| " + " | ".join(_(c) for c in COLUMNS) + " |",
             "|---|" + "---:|" * (len(COLUMNS) - 1)]
    lines += ["| " + " | ".join(row(s)) + " |" for s in stats]
    return "\n".join([*lines, "", *notes(), ""])


def game_entry(plan: Plan, result: GameResult) -> dict[str, Any]:
    job = plan.job(result.index)
    return {"index": job.index, "line_up": job.line_up, "deal": job.deal, "rotation": job.rotation,
            "game_seed": job.game_seed, "kinds": list(job.kinds), "bot_seeds": list(job.bot_seeds),
            "scores": list(result.scores), "winners": list(result.winners),
            "places": places(result.scores, result.winners), "margins": margins(result.scores),
            "decisions": list(result.decisions)}


def kind_entry(stats: KindStats) -> dict[str, Any]:
    return {"kind": stats.kind, "seat_games": stats.seat_games, "deals": stats.deals, "wins": stats.wins,
            "win_rate": stats.win_rate, "win_rate_ci95": [stats.win_low, stats.win_high],
            "win_rate_wilson95": [stats.wilson_low, stats.wilson_high], "mean_place": stats.mean_place,
            "mean_margin_vs_best_other": stats.mean_margin, "mean_score": stats.mean_score,
            "rating": {"model": "openskill PlackettLuce", "mu": stats.rating.mu, "sigma": stats.rating.sigma,
                       "ordinal": stats.rating.ordinal},
            "decisions": stats.decisions}


def to_json(plan: Plan, results: Sequence[GameResult], stats: Sequence[KindStats], run: Run) -> dict[str, Any]:
    """Everything but ``run`` depends only on the tournament's arguments."""
    return {
        "stammtisch_tournament": FORMAT, "engine_version": ENGINE_VERSION,
        "game": plan.game, "players": plan.players, "options": dict(plan.options), "bots": list(plan.bots),
        "seed": plan.seed, "games_asked": plan.games_asked, "games": plan.games, "deals": plan.deals,
        "line_ups": [list(line_up) for line_up in plan.line_ups], "rotations": "cyclic",
        "budgets": dict(plan.budgets),
        "win_rate_ci95": {"method": "percentile bootstrap", "unit": "deal (game seed: all its line-ups and rotations)",
                          "resamples": BOOTSTRAP},
        "kinds": [kind_entry(s) for s in stats],
        "results": [game_entry(plan, r) for r in results],
        "run": {"workers": run.workers, "cluster": run.cluster, "seconds": run.seconds,
                "ms_per_decision": {s.kind: 1000 * s.thinking / s.decisions if s.decisions else 0.0
                                    for s in stats}},
    }


def write(directory: Path, plan: Plan, results: Sequence[GameResult], stats: Sequence[KindStats], run: Run,
          command: str) -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    json_path, markdown_path = directory / "tournament.json", directory / "tournament.md"
    json_path.write_text(json.dumps(to_json(plan, results, stats, run), ensure_ascii=False, indent=1) + "\n",
                         encoding="utf-8")
    markdown_path.write_text(markdown(plan, stats, command), encoding="utf-8")
    return json_path, markdown_path
