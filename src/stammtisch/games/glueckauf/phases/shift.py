"""The end of a turn, of a shift and of the game (glueck-auf.md, "Shift end" and "Game end"): the
next seat with workers places, or the shift is scored and the next one begins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.protocol import Event, EventKind
from stammtisch.games.glueckauf import scoring
from stammtisch.games.glueckauf.board import FACTORY, FACTORY_DRAW
from stammtisch.games.glueckauf.state import OVER, PLACE, State

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf


def tally(s: State, key: str, n: int = 1) -> None:
    """Count a notable outcome for ``simulate``'s summary."""
    s.stats[key] = s.stats.get(key, 0) + n


def end_turn(game: GlueckAuf, s: State, events: list[Event]) -> None:
    s.phase = PLACE
    s.refill = None
    s.steps_left = 0
    n = len(s.players)
    for k in range(1, n + 1):
        seat = (s.current + k) % n
        if s.players[seat].workers:
            s.current = seat
            return
    end_shift(game, s, events)


# The order slots refilled from the face-down deck are shown: a draft's last pick cannot be taken back.
SHIFT_STARTS: Final = EventKind("shift_starts", "shift", "start_player", "order_slots", reveals=True)


def start_shift(s: State, events: list[Event]) -> None:
    s.phase = PLACE
    s.current = s.start_player
    events.append(SHIFT_STARTS.event(s.shift, s.start_player, list(s.order_slots)))


def end_shift(game: GlueckAuf, s: State, events: list[Event]) -> None:
    events.append(Event("shift_ends", {"shift": s.shift}))
    if game.options["open_delivered"] is False:
        for seat, p in enumerate(s.players):
            events.append(Event("delivered_revealed", {"seat": seat, "cards": list(p.delivered)}))
    _shift_scoring(game, s, events)
    if s.shift >= game.edition.shifts:
        _final_scoring(game, s, events)
        return
    s.start_player = next_start_player(game, s)
    s.shift += 1
    for p in s.players:
        p.workers = game.total_workers
        p.canteen = 0
        p.bank = 0
    s.owner = [-1] * len(s.owner)
    s.count = [0] * len(s.count)
    start_shift(s, events)


def _shift_scoring(game: GlueckAuf, s: State, events: list[Event]) -> None:
    printed = game.options["count_printed_carts"]
    s.scored = []
    for category in scoring.shift_categories(game.edition, s.shift):
        counts, awards = scoring.score_category(game, s.players, category, printed)
        for seat, p in enumerate(s.players):
            p.vp += awards[seat]
        row = {"shift": s.shift, "category": category.id, "counts": counts, "vp": awards}
        s.scored.append(row)
        events.append(Event("category_scored", dict(row)))


def next_start_player(game: GlueckAuf, s: State) -> int:
    """Most workers on factory spaces; ties go to the tied seat nearest clockwise after
    the previous start player, who cannot keep the marker on a tie."""
    n = len(s.players)
    in_factory = [0] * n
    for spot in game.spots:
        if spot.kind in (FACTORY, FACTORY_DRAW) and s.count[spot.index]:
            in_factory[s.owner[spot.index]] += s.count[spot.index]
    best = max(in_factory)
    previous = s.start_player
    if best == 0:
        return (previous + 1) % n
    tied = [seat for seat in range(n) if in_factory[seat] == best]
    if len(tied) == 1:
        return tied[0]
    return next((previous + k) % n for k in range(1, n) if in_factory[(previous + k) % n] == best)


def _final_scoring(game: GlueckAuf, s: State, events: list[Event]) -> None:
    s.final = []
    for seat, p in enumerate(s.players):
        parts = scoring.final_breakdown(game.edition, p)
        p.vp += parts["total_vp"]
        s.final.append(parts)
        events.append(Event("final_scoring", {"seat": seat, **parts}))
    s.phase = OVER
    events.append(Event("game_over", {"vp": game.scores(s), "winners": game.winners(s)}))
