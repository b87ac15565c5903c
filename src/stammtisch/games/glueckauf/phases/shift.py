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


def tally(state: State, key: str, n: int = 1) -> None:
    """Count a notable outcome for ``simulate``'s summary."""
    state.stats[key] = state.stats.get(key, 0) + n


def end_turn(game: GlueckAuf, state: State, events: list[Event]) -> None:
    game.enter_phase(state, PLACE, events)
    state.refill = None
    state.steps_left = 0
    n = len(state.players)
    for k in range(1, n + 1):
        seat = (state.current + k) % n
        if state.players[seat].workers:
            state.current = seat
            return
    end_shift(game, state, events)


# The order slots refilled from the face-down deck are shown: a draft's last pick cannot be taken back.
SHIFT_STARTS: Final = EventKind("shift_starts", "shift", "start_player", "order_slots", reveals=True)


def start_shift(game: GlueckAuf, state: State, events: list[Event]) -> None:
    game.enter_phase(state, PLACE, events)
    state.current = state.start_player
    events.append(SHIFT_STARTS.event(state.shift, state.start_player, list(state.order_slots)))


def end_shift(game: GlueckAuf, state: State, events: list[Event]) -> None:
    events.append(Event("shift_ends", {"shift": state.shift}))
    if game.options["open_delivered"] is False:
        for seat, p in enumerate(state.players):
            events.append(Event("delivered_revealed", {"seat": seat, "cards": list(p.delivered)}))
    _shift_scoring(game, state, events)
    if state.shift >= game.edition.shifts:
        _final_scoring(game, state, events)
        return
    state.start_player = next_start_player(game, state)
    state.shift += 1
    for p in state.players:
        p.workers = game.total_workers
        p.canteen = 0
        p.bank = 0
    state.owner = [-1] * len(state.owner)
    state.count = [0] * len(state.count)
    start_shift(game, state, events)


def _shift_scoring(game: GlueckAuf, state: State, events: list[Event]) -> None:
    printed = game.options["count_printed_carts"]
    state.scored = []
    for category in scoring.shift_categories(game.edition, state.shift):
        counts, awards = scoring.score_category(game, state.players, category, printed)
        for seat, p in enumerate(state.players):
            p.vp += awards[seat]
        row = {"shift": state.shift, "category": category.id, "counts": counts, "vp": awards}
        state.scored.append(row)
        events.append(Event("category_scored", dict(row)))


def next_start_player(game: GlueckAuf, state: State) -> int:
    """Most workers on factory spaces; ties go to the tied seat nearest clockwise after
    the previous start player, who cannot keep the marker on a tie."""
    n = len(state.players)
    in_factory = [0] * n
    for spot in game.spots:
        if spot.kind in (FACTORY, FACTORY_DRAW) and state.count[spot.index]:
            in_factory[state.owner[spot.index]] += state.count[spot.index]
    best = max(in_factory)
    previous = state.start_player
    if best == 0:
        return (previous + 1) % n
    tied = [seat for seat in range(n) if in_factory[seat] == best]
    if len(tied) == 1:
        return tied[0]
    return next((previous + k) % n for k in range(1, n) if in_factory[(previous + k) % n] == best)


def _final_scoring(game: GlueckAuf, state: State, events: list[Event]) -> None:
    state.final = []
    for seat, p in enumerate(state.players):
        parts = scoring.final_breakdown(game.edition, p)
        p.vp += parts["total_vp"]
        state.final.append(parts)
        events.append(Event("final_scoring", {"seat": seat, **parts}))
    game.enter_phase(state, OVER, events)
    events.append(Event("game_over", {"vp": game.scores(state), "winners": game.winners(state)}))
