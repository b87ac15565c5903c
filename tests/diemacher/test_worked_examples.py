"""The rulebook's worked examples, die-macher.md §11.4 F-1 … F-15.

Names follow the English rulebook: Marion plays the SPD, Angie the Linke, Nicole the CDU."""

from __future__ import annotations

import pytest

from stammtisch.engine.protocol import Event, IllegalAction
from stammtisch.games.diemacher.board import reveal_opinion
from stammtisch.games.diemacher.phases.program import MODE
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import NOBODY, Placed, State
from tests.diemacher.helpers import act, card, new_game, play_first, program, set_opinions

MARION, ANGIE, NICOLE, FDP_SEAT = 0, 1, 2, 3


def state_index(game: DieMacher, short: str) -> int:
    return next(i for i, s in enumerate(game.edition.states) if s.id == short)


def politician(game: DieMacher, pid: str) -> int:
    return game.politician_index[pid]


def to_round_one(game: DieMacher, state: State, start: int = MARION) -> None:
    """Finish setup with first choices, then make ``start`` the start player with a €1,000 bid."""
    play_first(game, state, "bid")
    for seat in range(state.seats):
        act(game, state, seat, ("bid", 1000 if seat == start else 0))
    assert state.start_player == start


def enter(game: DieMacher, state: State, phase: str, cursor: int = 0, step: str = "") -> list[Event]:
    """Put the flow at the start of ``phase`` (after the test arranged the boards)."""
    state.phase, state.turn, state.cursor, state.passes, state.step = phase, 0, cursor, 0, step
    state.auction, state.talks, state.program_change, state.row_cursor = None, None, None, 0
    events: list[Event] = []
    game.flow.advance(game, state, events)
    return events


def test_f1_start_bid_tie_preliminary_start_player_raises_first() -> None:
    # die-macher.md F-1, C-01: Marion (preliminary start player) and Angie tie at €3,000.
    game, state = new_game(3, parties=["SPD", "LINKE", "CDU"])
    play_first(game, state, "bid")
    state.start_player = MARION  # the preliminary start player; her right neighbour (Nicole) is not tied
    money_before = [p.money for p in state.players]
    act(game, state, MARION, ("bid", 3000))
    act(game, state, NICOLE, ("bid", 1000))
    act(game, state, ANGIE, ("bid", 3000))
    assert state.phase == "rebid" and game.to_act(state) == [MARION]
    act(game, state, MARION, ("raise", 4000))
    assert game.to_act(state) == [ANGIE]
    with pytest.raises(IllegalAction):
        act(game, state, ANGIE, ("raise", 4000))  # a raise must beat the current high bid
    act(game, state, ANGIE, ("pass",))
    assert state.start_player == MARION
    assert [p.money for p in state.players] == [money_before[0] - 4000, money_before[1], money_before[2]]


def test_f1_right_neighbour_opens_when_tied() -> None:
    # die-macher.md C-01: the order starts at the previous start player's right-hand neighbour.
    game, state = new_game(3)
    play_first(game, state, "bid")
    state.start_player = 0
    for seat in range(3):
        act(game, state, seat, ("bid", 2000 if seat in (0, 2) else 0))
    assert game.to_act(state) == [2]  # seat 2 sits to the right of seat 0
    act(game, state, 2, ("pass",))
    act(game, state, 0, ("pass",))
    assert state.start_player == 0  # all passed: the last to pass pays the tied amount
    assert state.players[0].money == 30000 - 2000


def test_f1_polish_order_option_starts_with_previous_start_player() -> None:
    # die-macher.md C-01 config tiebreak_open_order = previous_start_player_clockwise (PL)
    game, state = new_game(3, tiebreak_open_order="previous_start_player_clockwise")
    play_first(game, state, "bid")
    state.start_player = 0
    for seat in range(3):
        act(game, state, seat, ("bid", 2000 if seat in (0, 2) else 0))
    assert game.to_act(state) == [0]


def test_f2_revealed_duplicate_topic_is_replaced() -> None:
    # die-macher.md F-2: +education and −traffic face up in Niedersachsen; a second +education is revealed.
    game, state = new_game(3)
    board = state.boards[0]
    board.card = state_index(game, "NDS")
    board.opinions = program("+education", "-traffic", "+education", "+environment")
    board.face_up = [True, True, False, False]
    state.opinion_deck.append(card("-welfare_state"))
    events: list[Event] = []
    reveal_opinion(state, 0, 2, True, events)
    assert board.opinions[2] == card("-welfare_state") and board.face_up[2]
    assert state.opinion_discard[-1] == card("+education")


def test_f3_draft_exception_lays_out_four_and_completes_with_new_cards() -> None:
    # die-macher.md F-3 (§3.H.5): 7 cards with only 4 topics.
    game, state = new_game(3)
    play_first(game, state, "program")
    state.players[0].hand = program("+education", "+education", "-welfare_state", "-welfare_state",
                                    "+genetic_engineering", "-genetic_engineering", "+digitization")
    for seat in (1, 2):
        state.players[seat].hand = program("+education", "+digitization", "+genetic_engineering",
                                           "+national_security", "+welfare_state", "+environment", "+traffic")
    state.program_deck += program("-education", "+traffic", "-genetic_engineering")
    for name in ("+education", "-welfare_state", "+genetic_engineering", "+digitization"):
        act(game, state, 0, ("program_card", card(name)))
    assert state.done[0], "with four topics the layout ends after four cards"
    for seat in (1, 2):
        for name in ("+education", "+digitization", "+genetic_engineering", "+national_security", "+traffic"):
            act(game, state, seat, ("program_card", card(name)))
    assert state.phase == "program_more" and game.to_act(state) == [0]
    assert sorted(state.players[0].hand) == sorted(program("-education", "+traffic", "-genetic_engineering"))
    assert game.legal_actions(state, 0) == [("program_card", card("+traffic"))]
    act(game, state, 0, ("program_card", card("+traffic")))
    assert state.phase == "keep"
    act(game, state, 0, ("keep", card("-education")))
    for seat in (1, 2):
        act(game, state, seat, game.legal_actions(state, seat)[0])
    assert state.players[0].hand == [card("-education")]
    assert card("-genetic_engineering") in state.program_discard
    assert len(state.players[0].program) == 5


def test_f4_start_block_three() -> None:
    # die-macher.md F-4, C-16: rallies NDS and BB, trend NDS and BB, +6 votes NDS; trend +1, not +2.
    game, state = new_game(3)
    play_first(game, state, "start")
    nds, bb = 0, 1
    act(game, state, 0, ("start_block", 3))  # R R T T V
    act(game, state, 0, ("start_state", nds))
    with pytest.raises(IllegalAction):
        act(game, state, 0, ("start_state", nds))  # a repeated symbol needs a different state
    act(game, state, 0, ("start_state", bb))
    act(game, state, 0, ("start_state", nds))
    act(game, state, 0, ("start_state", bb))
    act(game, state, 0, ("start_state", nds))
    assert state.boards[nds].rallies[0] == 0, "nothing happens before everyone has chosen"
    for seat in (1, 2):
        while not state.done[seat]:
            act(game, state, seat, game.legal_actions(state, seat)[0])
    assert (state.boards[nds].rallies[0], state.boards[bb].rallies[0]) == (3, 3)
    assert (state.boards[nds].trend[0], state.boards[bb].trend[0]) == (1, 1)
    assert state.boards[nds].votes[0] == 6 and state.boards[bb].votes[0] == 0
    assert state.players[0].rally_supply == 20 - 6
    assert state.phase == "bid" and state.round == 1


def test_f5_swapped_out_card_goes_to_the_hand() -> None:
    # die-macher.md F-5, C-12: the replaced program card goes to the hand and may be kept.
    game, state = new_game(3, parties=["SPD", "LINKE", "CDU"])
    to_round_one(game, state)
    marion = state.players[MARION]
    marion.program = program("+traffic", "+education", "+digitization", "-national_security", "+genetic_engineering")
    marion.hand = program("-welfare_state")
    state.program_display[0] = card("-traffic")
    state.program_deck.append(card("+environment"))  # the blind draw
    assert state.program_change is not None
    assert (state.program_change.seat, state.program_change.step) == (MARION, MODE)
    act(game, state, MARION, ("draw_and_take",))
    act(game, state, MARION, ("take", card("-traffic")))
    act(game, state, MARION, ("swap", card("+traffic"), card("-traffic")))
    assert sorted(marion.hand) == sorted(program("-welfare_state", "+environment", "+traffic"))
    act(game, state, MARION, ("swaps_done",))
    act(game, state, MARION, ("keep_card", card("+environment")))
    assert marion.hand == [card("+environment")]
    assert card("-traffic") in marion.program
    assert state.program_discard[-2:] == sorted(program("-welfare_state", "+traffic"))
    assert NOBODY not in state.program_display, "the display is refilled before the next player"


def test_f5_korean_option_discards_the_swapped_out_card() -> None:
    # die-macher.md C-12 config swap_out_to = discard (KO)
    game, state = new_game(3, swap_out_to="discard")
    to_round_one(game, state)
    marion = state.players[MARION]
    marion.program = program("+traffic", "+education", "+digitization", "-national_security", "+genetic_engineering")
    marion.hand = program("-traffic")
    act(game, state, MARION, ("draw_and_take",))
    act(game, state, MARION, ("take", state.program_display[0]))
    act(game, state, MARION, ("swap", card("+traffic"), card("-traffic")))
    assert card("+traffic") not in marion.hand and state.program_discard[-1] == card("+traffic")


def test_f6_media_spots_fill_up() -> None:
    # die-macher.md F-6: Marion, then Angie, buy a marker in Niedersachsen; its five spots are full.
    game, state = new_game(3)
    to_round_one(game, state)
    play_first(game, state, "media")
    nds = state.boards[0]
    nds.media = [NICOLE, NICOLE, NICOLE, NOBODY, NOBODY]
    enter(game, state, "media")
    assert game.to_act(state) == [MARION]
    act(game, state, MARION, ("buy_media", 0))
    act(game, state, ANGIE, ("buy_media", 0))
    assert NOBODY not in nds.media
    assert ("buy_media", 0) not in game.legal_actions(state, NICOLE)
    assert state.players[MARION].money == 30000 - 1000 - 5000


def test_f7_rally_costs_per_state_and_the_cap_of_eight() -> None:
    # die-macher.md F-7: 3 rallies in NDS and 2 in BB cost 3,000 + 2,000; NDS reaches the cap of 8.
    game, state = new_game(3)
    to_round_one(game, state)
    play_first(game, state, "rallies")
    for board in state.boards:
        board.rallies = [0, 0, 0]
    state.boards[0].rallies[MARION] = 5
    state.players[MARION].rally_supply = 15
    enter(game, state, "rallies")
    assert game.to_act(state) == [MARION]
    assert max(a[2] for a in game.legal_actions(state, MARION)) == 3
    money = state.players[MARION].money
    act(game, state, MARION, ("rallies", 0, 3))
    act(game, state, MARION, ("rallies", 1, 2))
    assert state.players[MARION].money == money - 5000
    assert state.boards[0].rallies[MARION] == 8 and state.boards[1].rallies[MARION] == 2


def test_f8_secretary_with_a_published_free_poll() -> None:
    # die-macher.md F-8: Angie's Secretary in BB: pay 8,000; +8 votes; free poll: own +1, SPD −1, Greens absent.
    game, state = new_game(3, parties=["SPD", "LINKE", "CDU"])
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.row = []
    bb = 1
    state.boards[bb].row = [Placed(ANGIE, politician(game, "secretary"))]
    state.poll_deck.append(0)  # card A1: CDU +2, SPD −1, FDP 0, Greens −2, Linke +1
    trends = list(state.boards[bb].trend)
    votes, money = state.boards[bb].votes[ANGIE], state.players[ANGIE].money
    enter(game, state, "politicians", cursor=game.from_election(state).index(bb), step="reveal")
    act(game, state, ANGIE, ("pay",))
    act(game, state, ANGIE, ("votes", 8))
    act(game, state, ANGIE, ("free_poll",))
    assert game.legal_actions(state, ANGIE) == [("withhold_poll",), ("publish_poll",)]
    act(game, state, ANGIE, ("publish_poll",))
    assert state.players[ANGIE].money == money - 8000
    assert state.boards[bb].votes[ANGIE] == votes + 8
    new = state.boards[bb].trend
    assert (new[ANGIE] - trends[ANGIE], new[MARION] - trends[MARION], new[NICOLE] - trends[NICOLE]) == (1, -1, 0)


def test_f9_double_marker_locks_the_vice_chancellor_into_program_change() -> None:
    # die-macher.md F-9, C-08: Backbencher then Vice-Chancellor in NDS; the second DOUBLE is locked.
    game, state = new_game(3, parties=["SPD", "LINKE", "CDU"])
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.row = []
    nds = state.boards[0]
    set_opinions(nds, ["+education", "-traffic", "-welfare_state", "+digitization"])
    nds.trend = [0, 0, 0]
    nds.row = [Placed(MARION, politician(game, "backbencher")), Placed(ANGIE, politician(game, "vice_chancellor"))]
    marion_money, angie_money = state.players[MARION].money, state.players[ANGIE].money
    enter(game, state, "politicians", step="reveal")
    act(game, state, MARION, ("pay",))
    act(game, state, ANGIE, ("pay",))
    act(game, state, MARION, ("double", 2))
    act(game, state, MARION, ("trend", 1))
    assert nds.doubled == 2 and state.double_supply == 3
    act(game, state, ANGIE, ("trend", 1))
    legal = game.legal_actions(state, ANGIE)
    assert not any(a[0] in ("double", "double_remove") for a in legal)
    assert ("program",) in legal
    act(game, state, ANGIE, ("program",))
    assert state.program_change is not None and state.program_change.seat == ANGIE
    assert (state.players[MARION].money, state.players[ANGIE].money) == (marion_money - 3000, angie_money - 5000)
    assert (nds.trend[MARION], nds.trend[ANGIE]) == (1, 1)


def test_f10_media_shift_cannot_touch_the_doubled_card() -> None:
    # die-macher.md F-10: Angie influences the media in NDS; −welfare is doubled.
    game, state = new_game(3, parties=["SPD", "LINKE", "CDU"])
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    nds = state.boards[0]
    set_opinions(nds, ["+education", "-traffic", "-welfare_state", "+digitization"], doubled=2)
    nds.media = [ANGIE, ANGIE, MARION, NOBODY, NOBODY]
    for board in state.boards[1:]:
        board.media = [NOBODY] * 5
    state.opinion_display[card("+environment")] = True
    enter(game, state, "media_shift")
    assert game.to_act(state) == [ANGIE]
    legal = game.legal_actions(state, ANGIE)
    assert not any(a[0] == "shift" and a[1] == 2 for a in legal)
    act(game, state, ANGIE, ("shift", 1, card("+environment")))
    assert nds.opinions[1] == card("+environment")
    assert state.opinion_discard[-1] == card("-traffic")
    assert not state.opinion_display[card("+environment")]


def test_media_shift_may_take_the_identical_display_card() -> None:
    # die-macher.md §5 phase 7.2, DP-7, C-32: only the topics of the state's *other* face-up
    # opinions are forbidden, so the display's copy of the replaced card itself is legal; issue #8 item 3
    game, state = new_game(3, parties=["SPD", "LINKE", "CDU"])
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    nds = state.boards[0]
    set_opinions(nds, ["+education", "-traffic", "-welfare_state", "+digitization"])
    nds.media = [ANGIE, ANGIE, MARION, NOBODY, NOBODY]
    for board in state.boards[1:]:
        board.media = [NOBODY] * 5
    state.opinion_display = [False] * 14
    state.opinion_display[card("-traffic")] = True
    discard = len(state.opinion_discard)
    enter(game, state, "media_shift")
    assert game.legal_actions(state, ANGIE) == [("pass",), ("shift", 1, card("-traffic"))]
    act(game, state, ANGIE, ("shift", 1, card("-traffic")))
    assert nds.opinions == program("+education", "-traffic", "-welfare_state", "+digitization")
    assert state.opinion_discard[discard:] == [card("-traffic")]
    assert not any(state.opinion_display)


def test_f11_published_poll_spares_the_media_influencer() -> None:
    # die-macher.md F-11, C-13: Nicole (CDU) bids €4,000 and publishes; Linke influences the media there.
    game, state = new_game(4, parties=["SPD", "LINKE", "CDU", "FDP"])
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    board = state.boards[0]
    board.media = [ANGIE, ANGIE, NOBODY, NOBODY, NOBODY]
    board.votes = [10, 0, 0, 0]
    board.trend = [0, 0, 0, 0]
    state.poll_deck.append(5)  # card B1: CDU +2, SPD 0, FDP −2, Greens +1, Linke −1
    money = state.players[NICOLE].money
    enter(game, state, "polls")
    while state.poll_in_hand == NOBODY:
        seat = game.to_act(state)[0]
        act(game, state, seat, ("poll_bid", 4000) if seat == NICOLE else ("pass",))
    act(game, state, NICOLE, ("publish_poll",))
    assert state.players[NICOLE].money == money - 4000
    assert board.trend == [0, 0, 2, -2]  # SPD 0, Linke protected, CDU +2, FDP −2


def test_f12_conversion_with_maximum_trend_and_a_doubled_match() -> None:
    # die-macher.md F-12: 8 rallies, trend +4, 2 matching topics one doubled: (8 + 4) × 3 = 36 votes.
    game, state = new_game(3)
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.rallies = [0, 0, 0]
    nds = state.boards[1]
    set_opinions(nds, ["+education", "+digitization", "+traffic", "-environment"], doubled=1)
    state.players[MARION].program = program("+education", "+digitization", "+genetic_engineering",
                                            "+national_security", "+welfare_state")
    nds.rallies[MARION], nds.trend[MARION] = 8, 4
    state.players[MARION].rally_supply = 12
    votes = nds.votes[MARION]
    enter(game, state, "convert", cursor=game.relocation_order(state).index(1))
    assert game.to_act(state) == [MARION]
    events = act(game, state, MARION, ("convert", 1, 8))
    assert nds.votes[MARION] == votes + 36 and nds.rallies[MARION] == 0
    assert state.players[MARION].rally_supply == 20
    converted = next(e for e in events if e.kind == "rallies_converted")
    assert (converted.params["base"], converted.params["mult"], converted.params["votes"]) == (12, 3, 36)


def brandenburg_election() -> tuple[DieMacher, State, list[Event]]:
    """die-macher.md F-13/F-14: Brandenburg votes in round 1 with the EN example's numbers."""
    game, state = new_game(4, parties=["SPD", "LINKE", "CDU", "FDP"])
    to_round_one(game, state)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.rallies = [0, 0, 0, 0]
    bb = state.boards[0]
    bb.card = state_index(game, "BB")
    # Face-up A, B, C and D (doubled): Linke matches all (5), SPD A B C (3), CDU A B (2), FDP opposes A B (−2).
    set_opinions(bb, ["+education", "+digitization", "+genetic_engineering", "+national_security"], doubled=3)
    state.players[ANGIE].program = program("+education", "+digitization", "+genetic_engineering",
                                           "+national_security", "+traffic")
    state.players[MARION].program = program("+education", "+digitization", "+genetic_engineering",
                                            "+traffic", "+environment")
    state.players[NICOLE].program = program("+education", "+digitization", "-traffic", "+environment",
                                            "+welfare_state")
    state.players[FDP_SEAT].program = program("-education", "-digitization", "+traffic", "+environment",
                                              "+welfare_state")
    bb.votes = [13, 32, 15, 2]
    bb.rallies = [5, 4, 6, 1]
    bb.trend = [2, 0, -2, -3]
    bb.media = [NICOLE, NICOLE, ANGIE, NOBODY, NOBODY]
    state.players[MARION].base = 12
    events = enter(game, state, "convert", cursor=game.relocation_order(state).index(0))
    return game, state, events


def test_f13_brandenburg_conversions() -> None:
    # die-macher.md F-13 (and C-04/C-05 floors): FDP (1 − 3)→1 × 1; CDU 4 × 2; SPD 7 × 3; Linke 4 × 5.
    _game, state, events = brandenburg_election()
    conversions = {e.params["seat"]: e.params for e in events if e.kind == "rallies_converted"}
    assert conversions[FDP_SEAT]["matches"] == -2 and conversions[FDP_SEAT]["votes"] == 1
    assert (conversions[NICOLE]["base"], conversions[NICOLE]["mult"]) == (4, 2)
    assert (conversions[MARION]["base"], conversions[MARION]["mult"]) == (7, 3)
    assert (conversions[ANGIE]["base"], conversions[ANGIE]["mult"]) == (4, 5)
    election = next(e for e in events if e.kind == "election")
    assert election.params["votes"] == [34, 52, 23, 3]


def test_f14_brandenburg_results_and_media_presence() -> None:
    # die-macher.md F-14: VP CDU 13, SPD 16, Linke 21, FDP 0; Linke alone ≥ 50: +12; Linke and CDU to spot "10".
    game, state, events = brandenburg_election()
    election = next(e for e in events if e.kind == "election")
    assert election.params["vote_vp"] == [16, 21, 13, 0]
    assert election.params["outcome"] == "sole" and election.params["awarded"] == [ANGIE]
    assert state.players[ANGIE].win_vp == [12]
    spot = state.media_presence[3]
    assert game.edition.media_presence[3] == 10
    assert sorted(spot) == sorted([ANGIE, NICOLE])


def test_f15_money_and_an_accepted_donation() -> None:
    # die-macher.md F-15, C-03: 16 VP → €16,000; base 12 → €12,000; accepting €20,000 lowers the base 12 → 10.
    game, state, events = brandenburg_election()
    income = next(e for e in events if e.kind == "income" and e.params["seat"] == MARION)
    assert (income.params["vote_vp"], income.params["base"], income.params["amount"]) == (16, 12, 28000)
    money = state.players[MARION].money - 28000
    while game.to_act(state) != [MARION]:
        seat = game.to_act(state)[0]
        act(game, state, seat, game.legal_actions(state, seat)[0])
    act(game, state, MARION, ("donation", 20000, True))
    assert state.players[MARION].money == money + 16000 + 12000 + 20000
    assert state.players[MARION].base == 10
