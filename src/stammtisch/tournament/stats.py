"""What a tournament's games say about each bot kind: win rate with a 95 % interval, mean place,
mean score margin and an openskill rating.

- **Wins** are split: a k-way shared win gives each winner 1/k.
- **Places**: the game's winners share first place, the other seats follow by score; seats that
  share places get the mean of those places (a 2-way shared win: 1.5 each).
- **Margin**: a seat's score minus the best score among the other seats (positive only for a sole
  top score).
- **Interval**: a percentile bootstrap over deals: the deals are drawn again with replacement
  (``BOOTSTRAP`` times, a generator seeded from the tournament's seed), each drawn deal bringing
  every game played on it (all line-ups and rotations), and the win rate recomputed; the 2.5th and
  97.5th percentiles are the interval.  Games on one deal are not independent (the rotations of a
  deal share its luck, and a deal one bot plays well it plays well from every seat), so the deal is
  the unit that is resampled.  Fewer than two deals give no interval (0–1).  Wilson's score interval
  over seat-games, which counts them as independent, is kept beside it for comparison.
- **Rating**: openskill's Plackett-Luce model, updated game by game in game order with the places
  as ranks.  A kind in several seats of one game is rated as one copy per seat, and takes the mean
  of its copies' new μ and σ.  ``ordinal`` is μ − 3σ.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean

from openskill.models import PlackettLuce

from stammtisch.tournament.play import GameResult
from stammtisch.tournament.schedule import Plan

Z95 = NormalDist().inv_cdf(0.975)
BOOTSTRAP = 2000  # resamples of the deals


def bootstrap(units: Sequence[tuple[float, int]], rng: random.Random, resamples: int = BOOTSTRAP,
              level: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap interval of sum(wins) / sum(seat-games) over ``units`` (one
    ``(wins, seat-games)`` per independent unit: a deal), drawn again with replacement."""
    if len(units) < 2:
        return 0.0, 1.0
    wins = [w for w, _n in units]
    seats = [n for _w, n in units]
    count = len(units)
    rates = []
    for _resample in range(resamples):
        drawn = rng.choices(range(count), k=count)
        played = sum(seats[i] for i in drawn)
        rates.append(sum(wins[i] for i in drawn) / played if played else 0.0)
    rates.sort()
    tail = (1 - level) / 2
    return rates[int(tail * (resamples - 1))], rates[math.ceil((1 - tail) * (resamples - 1))]


def by_deal(seats: Sequence[tuple[GameResult, int, int]], players: int) -> list[tuple[float, int]]:
    """(wins, seat-games) per deal, from (result, seat, deal) of a kind's seat-games."""
    found: dict[int, list[float]] = {}
    for result, seat, deal in seats:
        unit = found.setdefault(deal, [0.0, 0])
        unit[0] += win_shares(players, result.winners)[seat]
        unit[1] += 1
    return [(wins, int(n)) for wins, n in found.values()]


def rng_of(plan: Plan) -> random.Random:
    """The bootstrap's generator: the same intervals for the same tournament."""
    return random.Random(f"deal bootstrap {plan.seed}")


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (successes may be fractional: split wins)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def win_shares(players: int, winners: Sequence[int]) -> list[float]:
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]


def places(scores: Sequence[int], winners: Sequence[int]) -> list[float]:
    """1 = best; seats that share places get their mean (see the module's docstring)."""
    order = sorted(range(len(scores)), key=lambda seat: (seat not in winners, -scores[seat]))
    result = [0.0] * len(scores)
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and _same_place(order[start], order[end], scores, winners):
            end += 1
        for seat in order[start:end]:
            result[seat] = (start + 1 + end) / 2
        start = end
    return result


def _same_place(a: int, b: int, scores: Sequence[int], winners: Sequence[int]) -> bool:
    return (a in winners) == (b in winners) and (a in winners or scores[a] == scores[b])


def margins(scores: Sequence[int]) -> list[int]:
    return [points - max(p for other, p in enumerate(scores) if other != seat) for seat, points in enumerate(scores)]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class KindStats:
    kind: str
    seat_games: int
    wins: float
    win_low: float  # the bootstrap over deals (above)
    win_high: float
    mean_place: float
    mean_margin: float
    mean_score: float
    rating: Rating
    decisions: int
    thinking: float  # seconds, summed over its decisions
    wilson_low: float = 0.0  # Wilson's interval over seat-games, for comparison
    wilson_high: float = 1.0
    deals: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games


def ratings(plan: Plan, results: Sequence[GameResult]) -> dict[str, Rating]:
    model = PlackettLuce()
    current = {kind: model.rating() for kind in plan.kinds()}
    for result in results:
        kinds = plan.job(result.index).kinds
        teams = [[model.rating(mu=current[kind].mu, sigma=current[kind].sigma)] for kind in kinds]
        rated = model.rate(teams, ranks=places(result.scores, result.winners))
        for kind in set(kinds):
            copies = [team[0] for team, seated in zip(rated, kinds, strict=True) if seated == kind]
            current[kind] = model.rating(mu=fmean(r.mu for r in copies), sigma=fmean(r.sigma for r in copies))
    return {kind: Rating(r.mu, r.sigma) for kind, r in current.items()}


def kind_stats(plan: Plan, results: Sequence[GameResult]) -> list[KindStats]:
    """One entry per kind, in the order the kinds were named; ``results`` in game order."""
    seated: dict[str, list[tuple[GameResult, int, int]]] = {kind: [] for kind in plan.kinds()}
    for result in results:
        job = plan.job(result.index)
        for seat, kind in enumerate(job.kinds):
            seated[kind].append((result, seat, job.game_seed))
    rated = ratings(plan, results)
    rng = rng_of(plan)
    return [_stats(kind, seats, rated[kind], plan.players, rng) for kind, seats in seated.items()]


def _stats(kind: str, seats: list[tuple[GameResult, int, int]], rating: Rating, players: int,
           rng: random.Random) -> KindStats:
    wins = sum(win_shares(players, r.winners)[seat] for r, seat, _deal in seats)
    deals = by_deal(seats, players)
    low, high = bootstrap(deals, rng)
    wilson_low, wilson_high = wilson(wins, len(seats))
    return KindStats(
        kind, len(seats), wins, low, high,
        mean_place=fmean(places(r.scores, r.winners)[seat] for r, seat, _deal in seats),
        mean_margin=fmean(margins(r.scores)[seat] for r, seat, _deal in seats),
        mean_score=fmean(r.scores[seat] for r, seat, _deal in seats),
        rating=rating,
        decisions=sum(r.decisions[seat] for r, seat, _deal in seats),
        thinking=sum(r.thinking[seat] for r, seat, _deal in seats),
        wilson_low=wilson_low, wilson_high=wilson_high, deals=len(deals),
    )
