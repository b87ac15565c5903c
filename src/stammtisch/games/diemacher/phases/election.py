"""Phase 9b (die-macher.md §6.9, §7): the elections of the round, with coalition talks when the
table's coalition mode (C-09) leaves a choice; after the last round, final scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, STAY, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher import scoring
from stammtisch.games.diemacher.state import NOBODY, CoalitionTalks, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

UNDECIDED: Final = -2  # coalition talks still open

# A party's answer in coalition talks (engine.protocol.EventKind): the partner chosen by the
# strongest party ("accepted" None) or a candidate's yes or no ("partner" None).
COALITION_ANSWER: Final = EventKind("coalition_answer", "seat", "strongest", "partner", "accepted")


def enter(game: DieMacher, state: State, events: list[Event]) -> None:
    state.cursor, state.talks = 0, None


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    elections = game.elections_in(state.round)
    while state.cursor < len(elections):
        pos = elections[state.cursor]
        if state.talks is None:
            state.talks = _coalition_talks(game, state, pos)
        talks = state.talks
        if talks is not None and talks.partner == UNDECIDED:
            mode = game.options["coalition_mode"]
            state.actor = talks.strongest if mode == "strongest_chooses_any_feasible" else \
                talks.candidates[talks.asked]
            return WAIT
        scoring.hold_election(game, state, pos, events, talks.partner if talks is not None else None)
        state.talks = None
        state.cursor += 1
    if state.round == game.last_round:
        end_game(game, state, events)
        return STAY
    return NEXT


def _coalition_talks(game: DieMacher, state: State, pos: int) -> CoalitionTalks | None:
    """C-09 alternatives: talks when the table's coalition mode leaves a choice here; None when the
    default rule decides."""
    mode = game.options["coalition_mode"]
    if mode == "priority_first_feasible":
        return None
    votes = state.boards[pos].votes
    if any(v >= game.options["win_threshold"] for v in votes):
        return None
    strongest, candidates = scoring.coalition_candidates(game, state, votes)
    feasible = [q for q in candidates if votes[strongest] + votes[q] >= game.options["win_threshold"]]
    if len(feasible) < (2 if mode == "strongest_chooses_any_feasible" else 1):
        return None
    return CoalitionTalks(UNDECIDED, strongest, feasible)


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    assert state.talks is not None
    if game.options["coalition_mode"] == "strongest_chooses_any_feasible":
        return [("coalition_partner", q) for q in state.talks.candidates]
    return [("coalition", True), ("coalition", False)]


def choose_partner(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.talks is not None
    state.talks.partner = action[1]
    events.append(COALITION_ANSWER.event(seat, state.talks.strongest, action[1], None))


def answer(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    talks = state.talks
    assert talks is not None
    if action[1]:
        talks.partner = seat
    else:
        talks.asked += 1
        if talks.asked == len(talks.candidates):
            talks.partner = NOBODY  # every candidate declined: no coalition
    events.append(COALITION_ANSWER.event(seat, talks.strongest, None, action[1]))


def end_game(game: DieMacher, state: State, events: list[Event]) -> None:
    game.enter_phase(state, game.flow.over, events)
    results = scoring.final_scores(game, state)
    events.append(Event("final_scores", {"scores": [
        {"seat": seat, "total": total, **parts} for seat, (total, parts) in enumerate(results)]}))
    events.append(Event("game_won", {"seats": game.winners(state)}))


ELECTION = Phase("election", N_("9b Determine Effects of the Federal State Election"), SEQUENTIAL, track="9b",
                 enter=enter, legal=legal,
                 moves={"coalition_partner": choose_partner, "coalition": answer}, settle=settle, next="money")
