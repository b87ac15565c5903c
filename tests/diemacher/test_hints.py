"""Hints that say why (issue 30 item 2): the fact about the hinted move matches the position."""

from __future__ import annotations

import random

from stammtisch.bots.hints import why
from stammtisch.bots.ismcts import Estimate
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import NOBODY, State
from tests.diemacher.helpers import act, new_game, play_first, program, set_opinions
from tests.diemacher.test_worked_examples import ANGIE, MARION, NICOLE, enter, state_index, to_round_one

PARTIES = ["SPD", "LINKE", "CDU"]


def niedersachsen_conversion(votes: list[int]) -> tuple[DieMacher, State]:
    """die-macher.md F-12's position: converting Marion's 8 rallies in Niedersachsen gives (8 + 4) × 3 = 36 votes."""
    game, state = new_game(3, parties=PARTIES)
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.rallies = [0, 0, 0]
    nds = state.boards[1]
    nds.card = state_index(game, "NDS")
    set_opinions(nds, ["+education", "+digitization", "+traffic", "-environment"], doubled=1)
    state.players[MARION].program = program("+education", "+digitization", "+genetic_engineering",
                                            "+national_security", "+welfare_state")
    nds.rallies[MARION], nds.trend[MARION] = 8, 4
    state.players[MARION].rally_supply = 12
    nds.votes = votes
    enter(game, state, "convert", cursor=game.relocation_order(state).index(1))
    assert game.to_act(state) == [MARION]
    return game, state


def fact(game: DieMacher, state: State, action: tuple[object, ...]) -> str | None:
    reason = why(game.name, game.view(state, MARION), [Estimate(action, 40, 0.5)])
    assert reason is not None
    return reason.fact


def test_converting_rallies_names_the_votes_and_the_lead_it_gives() -> None:
    # die-macher.md F-12 (the conversion's 36 votes): 10 → 46 against the CDU's 30, a lead of 16.
    game, state = niedersachsen_conversion([10, 20, 30])
    assert fact(game, state, ("convert", 1, 8)) == "Niedersachsen: your votes 10 → 46, CDU/CSU has 30 (you lead by 16)"
    act(game, state, MARION, ("convert", 1, 8))
    assert state.boards[1].votes[MARION] == 46  # what the hint said, checked on the board


def test_a_conversion_that_still_trails_says_by_how_much() -> None:
    game, state = niedersachsen_conversion([0, 50, 40])
    assert fact(game, state, ("convert", 1, 8)) == (
        "Niedersachsen: your votes 0 → 36, Die Linke has 50 (you trail by 14)")


def test_a_conversion_that_draws_level_names_the_party() -> None:
    game, state = niedersachsen_conversion([4, 40, 12])
    assert fact(game, state, ("convert", 1, 8)) == "Niedersachsen: your votes 4 → 40, level with Die Linke (40)"


def test_rallies_and_media_markers_count_the_pieces_in_the_state() -> None:
    # die-macher.md phase 4 (rallies) and phase 3 (media markers): the player's pieces before and after.
    game, state = new_game(3, parties=PARTIES)
    to_round_one(game, state)
    board = state.boards[0]
    board.rallies = [2, 5, 3]
    board.card = state_index(game, "BY")
    board.media = [NICOLE, NICOLE, ANGIE, NOBODY, NOBODY]
    assert fact(game, state, ("rallies", 0, 3)) == "Bayern: your rallies 2 → 5; Die Linke has 5"
    assert fact(game, state, ("buy_media", 0)) == "Bayern: your media markers 0 → 1; CDU/CSU has 2"
    assert fact(game, state, ("rallies", 0, 0)) is None  # no rallies: nothing changes there


def test_a_move_the_game_cannot_explain_gets_only_the_comparison() -> None:
    game, state = niedersachsen_conversion([10, 20, 30])
    reason = why(game.name, game.view(state, MARION), [Estimate(("pass",), 12, 0.4)])
    assert reason is not None and reason.fact is None
    assert reason.line() == "Rated 40 of 100 over 12 simulated games; no other move was compared"


def test_a_politicians_votes_are_counted_in_the_state_it_acts_in() -> None:
    # die-macher.md phase 6: a politician's VOTES+n action adds n votes in the state it was sent to.
    game, state = new_game(3, parties=PARTIES)
    to_round_one(game, state)
    rng = random.Random(3)
    while True:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if any(a[0] == "votes" for a in legal):
            break
        act(game, state, seat, rng.choice(legal))
    action = next(a for a in legal if a[0] == "votes")
    view = game.view(state, seat)
    pos = view["decision"]["board"]
    before = state.boards[pos].votes[seat]
    reason = why(game.name, view, [Estimate(action, 40, 0.5)])
    assert reason is not None and reason.fact is not None
    assert reason.fact.startswith(f"{view['board']['boards'][pos]['name']}: your votes {before} → {before + action[1]}")
    act(game, state, seat, action)
    assert state.boards[pos].votes[seat] == before + action[1]
