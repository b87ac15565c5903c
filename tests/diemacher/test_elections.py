"""Step 9b: wins, coalitions and media moves in every election case (die-macher.md §5 9b, C-09, C-17, G-09)."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Event
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import NOBODY, State
from tests.diemacher.helpers import new_game, play_first, program
from tests.diemacher.test_worked_examples import enter, to_round_one

PROGRAMS = {
    "A": program("+education", "+digitization", "+genetic_engineering", "+national_security", "+traffic"),
    "B": program("+education", "+digitization", "+genetic_engineering", "-national_security", "-traffic"),
    "C": program("+education", "-digitization", "-genetic_engineering", "-national_security", "-traffic"),
    "D": program("-education", "-digitization", "-genetic_engineering", "-national_security", "-traffic"),
}


def election(votes: list[int], programs: str = "AAAA", media: list[int] | None = None,
             **options: Any) -> tuple[DieMacher, State, dict[str, Any]]:
    """Round 1's election on board 0 with the given votes (no rallies left to convert)."""
    seats = len(votes)
    game, state = new_game(seats, **options)
    to_round_one(game, state, start=0)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.rallies = [0] * seats
    board = state.boards[0]
    board.votes = list(votes)
    board.media = (media or []) + [NOBODY] * (5 - len(media or []))
    for seat in range(seats):
        state.players[seat].program = list(PROGRAMS[programs[seat]])
    events: list[Event] = enter(game, state, "convert")
    result = next(e for e in events if e.kind == "election").params
    return game, state, dict(result)


def test_sole_majority_scores_12_and_moves_the_winner_and_the_influencer() -> None:
    # die-macher.md 9b.3 (|over| = 1), 9b.4–5
    _game, state, result = election([50, 49, 10, 0], media=[0, 2, 2])
    assert result["outcome"] == "sole" and result["awarded"] == [0]
    assert [p.win_vp[0] for p in state.players] == [12, 0, 0, 0]
    assert sorted(state.media_presence[3]) == [0, 2]


def test_threshold_is_fifty_or_more() -> None:
    # die-macher.md C-17: ≥ 50 (KO's "more than 50" is not adopted)
    _game, _state, result = election([50, 0, 0, 0])
    assert result["outcome"] == "sole"
    _game, _state, result = election([49, 0, 0, 0])
    assert result["outcome"] != "sole"


def test_several_majorities_score_10_each_and_only_the_most_votes_move() -> None:
    # die-macher.md 9b.3 (|over| ≥ 2): +10 for each; the winners are those with the most votes
    _game, state, result = election([60, 55, 0, 0], media=[0, 1])
    assert result["outcome"] == "several"
    assert [p.win_vp[0] for p in state.players] == [10, 10, 0, 0]
    assert state.media_presence[3] == [0]  # nobody influences (1 : 1), and seat 1 is not a winner


def test_several_majorities_tied_for_most_votes_all_move() -> None:
    _game, state, _result = election([55, 55, 0, 0], media=[0, 1])
    assert sorted(state.media_presence[3]) == [0, 1]


def test_coalition_partner_is_the_first_feasible_by_shared_program_cards() -> None:
    # die-macher.md C-09: candidates sorted by shared program cards, then turn order; first feasible is the partner
    _game, state, result = election([30, 15, 25, 10], programs="ADBC", media=[0, 2, 3])
    # Overlap with A: B shares 3, C 1, D 0.  B (seat 2) is feasible: 30 + 25 ≥ 50.
    assert result["outcome"] == "coalition" and result["awarded"] == [0, 2]
    assert [p.win_vp[0] for p in state.players] == [7, 0, 7, 0]
    assert sorted(state.media_presence[3]) == [0, 2]


def test_coalition_skips_the_closest_program_when_it_cannot_reach_fifty() -> None:
    _game, _state, result = election([30, 25, 10, 5], programs="ACBD")
    # B (seat 2, overlap 3) has only 10 votes: 40 < 50; C (seat 1, overlap 1) reaches 55.
    assert result["awarded"] == [0, 1]


def test_coalition_ties_in_shared_cards_go_by_turn_order() -> None:
    _game, _state, result = election([30, 25, 25, 0], programs="ABBD")
    assert result["awarded"] == [0, 1]


def test_strongest_party_tie_goes_to_the_start_player_side() -> None:
    # die-macher.md C-24: the first in turn order among the tied
    _game, _state, result = election([20, 20, 0, 0], programs="ADDD")
    assert result["outcome"] == "no_coalition" and result["awarded"] == [0]


def test_no_coalition_gives_5_and_no_winner_media_move() -> None:
    # die-macher.md 9b.3 (no partner) and G-09: only the media influencer moves
    _game, state, result = election([30, 10, 5, 0], media=[0, 1, 1])
    assert result["outcome"] == "no_coalition"
    assert [p.win_vp[0] for p in state.players] == [5, 0, 0, 0]
    assert state.media_presence[3] == [1]


def test_no_coalition_winner_media_option_moves_the_strongest() -> None:
    # die-macher.md G-09 config no_coalition_winner_media = true
    _game, state, _ = election([30, 10, 5, 0], media=[0, 1, 1], no_coalition_winner_media=True)
    assert sorted(state.media_presence[3]) == [0, 1]


def test_influencer_who_also_won_moves_only_one_marker() -> None:
    # die-macher.md 9b.5: "if m has not moved a marker in step 4"
    _game, state, _ = election([50, 0, 0, 0], media=[0, 0, 1])
    assert state.media_presence[3] == [0]
    assert state.boards[0].media.count(0) == 1 or not state.boards[0].in_play


def test_votes_below_five_score_nothing() -> None:
    # die-macher.md M-01: fewer than 5 votes give 0 VP
    game, state, result = election([4, 5, 0, 0])
    card = game.edition.states[state.boards[0].card]
    assert result["vote_vp"][:2] == [0, card.vp_for(5)]
    assert card.vp_for(5) > 0


def test_removed_board_returns_media_markers_to_their_owners() -> None:
    # die-macher.md C-10: media markers left on a removed board go back to their owners' supplies
    game, state, _ = election([10, 10, 0, 0], media=[2, 3])
    supply = [p.media_supply for p in state.players]
    while state.round == 1:
        seat = game.to_act(state)[0]
        game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert not state.boards[0].in_play
    assert state.players[2].media_supply == supply[2] + 1 and state.players[3].media_supply == supply[3] + 1


def coalition_talks(mode: str) -> tuple[DieMacher, State]:
    """Round 1's election with votes 30/25/20/0 and programs A–D under a coalition mode (C-09)."""
    game, state = new_game(4, coalition_mode=mode)
    to_round_one(game, state, start=0)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.rallies = [0] * 4
    state.boards[0].votes = [30, 25, 20, 0]
    for seat, key in enumerate("ABCD"):
        state.players[seat].program = list(PROGRAMS[key])
    enter(game, state, "convert")
    return game, state


def test_strongest_chooses_any_feasible_partner() -> None:
    # die-macher.md C-09 config coalition_mode = strongest_chooses_any_feasible
    game, state = coalition_talks("strongest_chooses_any_feasible")
    assert state.phase == "election" and game.to_act(state) == [0]
    assert game.legal_actions(state, 0) == [("coalition_partner", 1), ("coalition_partner", 2)]
    events = game.apply(state, 0, ("coalition_partner", 2))
    result = next(e for e in events if e.kind == "election").params
    assert result["outcome"] == "coalition" and result["awarded"] == [0, 2]


def test_candidates_may_decline_in_order_of_candidacy() -> None:
    # die-macher.md C-09 config coalition_mode = candidate_may_decline
    game, state = coalition_talks("candidate_may_decline")
    assert game.to_act(state) == [1]  # B (seat 1) shares 3 cards with A
    game.apply(state, 1, ("coalition", False))
    assert game.to_act(state) == [2]
    events = game.apply(state, 2, ("coalition", False))
    result = next(e for e in events if e.kind == "election").params
    assert result["outcome"] == "no_coalition" and result["awarded"] == [0]
