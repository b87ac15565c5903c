"""Which games a tournament plays: line-ups, their rotations through the seats, and every seed.

A ``--bots`` list of kinds becomes line-ups for N seats like this:

- exactly N kinds: one line-up, as given (kinds may repeat: ``hard,heuristic,heuristic,heuristic``);
- fewer than N: one line-up; each kind but the last takes one seat and the last fills the others
  (``hard,heuristic`` for 4 seats is ``hard,heuristic,heuristic,heuristic``);
- more than N (all different): one line-up for every choice of N of them, in list order
  (``easy,heuristic,normal,hard`` for 3 seats gives 4 line-ups).

Every line-up is played in its N cyclic rotations: rotation r seats the line-up's kind i in seat
(i + r) mod N, so every kind sits in every seat equally often.  Deal d is played with game seed
``seed + d`` in every rotation of every line-up (mirrored seeds): seat advantage and the luck of
the deal cancel.  Games are numbered line-up by line-up, deal by deal, rotation by rotation; the bots
of game i get the seeds ``bot_seed(seed, i, seat)``, so one game is reproduced from the tournament's
arguments and its number alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from stammtisch.bots.base import bot_seed
from stammtisch.i18n import _
from stammtisch.registry import GameSpec, game_spec
from stammtisch.tournament import entrants, outside

MAX_GAMES = 20_000  # one tournament; longer measurements are several tournaments with other seeds


class TournamentError(ValueError):
    """Arguments that make no tournament; the message says which and why, in the reader's language."""


@dataclass(frozen=True)
class GameJob:
    """One game of a tournament: everything a worker needs to play it (picklable)."""

    index: int
    line_up: int
    deal: int
    rotation: int
    game_seed: int
    kinds: tuple[str, ...]  # by seat
    bot_seeds: tuple[int, ...]  # by seat


@dataclass(frozen=True)
class Plan:
    """A tournament's games; made by ``plan``, which checks the arguments."""

    game: str
    players: int
    bots: tuple[str, ...]  # as asked for
    line_ups: tuple[tuple[str, ...], ...]
    games_asked: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    budgets: Mapping[str, float] = field(default_factory=dict)  # kind -> CPU seconds per decision (--budget)

    @property
    def deals(self) -> int:
        """Deals per line-up: enough for ``games_asked`` games, rounded up to whole rotations."""
        return math.ceil(self.games_asked / (len(self.line_ups) * self.players))

    @property
    def games(self) -> int:
        return len(self.line_ups) * self.deals * self.players

    def job(self, index: int) -> GameJob:
        if not 0 <= index < self.games:
            raise TournamentError(_("game {index} is not in this tournament; its games are 0–{last}").format(
                index=index, last=self.games - 1))
        line_up, rest = divmod(index, self.deals * self.players)
        deal, rotation = divmod(rest, self.players)
        kinds = rotated(self.line_ups[line_up], rotation)
        return GameJob(index, line_up, deal, rotation, self.seed + deal, kinds,
                       tuple(bot_seed(self.seed, index, seat) for seat in range(self.players)))

    def jobs(self) -> list[GameJob]:
        return [self.job(index) for index in range(self.games)]

    def kinds(self) -> list[str]:
        """Every kind that plays, in the order first named."""
        return list(dict.fromkeys(kind for line_up in self.line_ups for kind in line_up))


def plan(game: str, players: int, bots: Sequence[str], games: int, seed: int = 0,
         options: Mapping[str, Any] | None = None, budgets: Mapping[str, float] | None = None) -> Plan:
    """The tournament these arguments ask for; TournamentError (or the registry's ValueError) if none."""
    spec = game_spec(game)
    if not spec.min_players <= players <= spec.max_players:
        raise TournamentError(_("{game} is played by {low}–{high} players, not {players}").format(
            game=game, low=spec.min_players, high=spec.max_players, players=players))
    spec.make(players, options)  # the table options are checked here (ValueError naming the option)
    kinds = tuple(kind.strip() for kind in bots)
    check_kinds(spec, kinds, budgets or {})
    found = Plan(game, players, kinds, line_ups(kinds, players), games, seed, dict(options or {}), dict(budgets or {}))
    if not 1 <= games <= MAX_GAMES or found.games > MAX_GAMES:
        raise TournamentError(_("a tournament plays 1–{most} games; {games} asked for, {played} with whole "
                                "rotations").format(most=MAX_GAMES, games=games, played=found.games))
    return found


def check_kinds(spec: GameSpec, names: Sequence[str], budgets: Mapping[str, float] | None = None) -> None:
    """The entrants (``KIND`` or ``KIND@X``, tournament/entrants.py) and budgets name bots that can play."""
    if not names or "" in names:
        raise TournamentError(_("--bots needs a comma-separated list of bot kinds, e.g. heuristic,random"))
    known = (*spec.bot_kinds(), *outside.kinds())
    try:
        for name in names:
            kind = entrants.split(name)[0]
            if kind not in known:
                raise TournamentError(_("unknown bot kind {kind!r}; choose one of {choices}").format(
                    kind=kind, choices=", ".join(known)))
            outside.bot(spec, kind, 0)  # an outside bot's project may not be installed
        entrants.check(spec, list(names), budgets or {})
    except (outside.MissingExtra, entrants.EntrantError) as error:
        raise TournamentError(str(error)) from None


def line_ups(kinds: Sequence[str], players: int) -> tuple[tuple[str, ...], ...]:
    if len(kinds) <= players:
        return ((*kinds[:-1], *[kinds[-1]] * (players - len(kinds) + 1)),)
    if len(set(kinds)) < len(kinds):
        raise TournamentError(_("more bot kinds than seats: each kind may be named only once, so that every "
                                "line-up of {players} of them can be played").format(players=players))
    return tuple(combinations(kinds, players))


def rotated(line_up: Sequence[str], rotation: int) -> tuple[str, ...]:
    """Seat by seat: the line-up's kind i sits in seat (i + rotation) mod N."""
    n = len(line_up)
    return tuple(line_up[(seat - rotation) % n] for seat in range(n))
