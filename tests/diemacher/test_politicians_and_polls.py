"""Phase 6 politicians and their "!" locks, phase 8 polls, money ranks (die-macher.md §5, §8, C-08, C-13, G-08)."""

from __future__ import annotations

import random

import pytest

from stammtisch.engine.protocol import IllegalAction
from stammtisch.engine.snapshot import situation
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.scoring import money_points
from stammtisch.games.diemacher.state import NOBODY, Placed, State
from tests.diemacher.helpers import act, new_game, play_first, set_opinions
from tests.diemacher.test_worked_examples import enter, to_round_one


def at_politicians(row: list[tuple[int, str]], players: int = 3, **options: object) -> tuple[DieMacher, State]:
    """Phase 6 of round 1 with the given politicians (seat, id) in board 0's row."""
    game, state = new_game(players, elections=7, **options)
    to_round_one(game, state, start=0)
    play_first(game, state, "cabinet")
    for board in state.boards:
        board.row = []
    board = state.boards[0]
    set_opinions(board, ["+education", "-traffic", "-welfare_state", "+digitization"])
    board.trend = [0] * players
    board.row = [Placed(seat, game.politician_index[pid]) for seat, pid in row]
    enter(game, state, "politicians", step="reveal")
    return game, state


def pay_all(game: DieMacher, state: State) -> None:
    while state.step == "pay":
        act(game, state, game.to_act(state)[0], ("pay",))


@pytest.mark.parametrize(("pid", "main", "secondary"), [
    ("backbencher", {"double"}, {"trend", "votes"}),
    ("vice_chancellor", {"trend"}, {"double", "program"}),
    ("spokesperson", {"buyout"}, {"trend", "votes"}),
    ("secretary", {"votes"}, {"buyout", "free_poll"}),
    ("parliamentary_leader", {"others_trend"}, {"program", "free_poll"}),
    ("honorary_chairman", {"votes"}, {"buyout", "double"}),
    ("party_executive", {"votes"}, {"base", "trend"}),
    ("front_runner", {"trend"}, {"votes", "free_poll", "program"}),
])
def test_each_politician_offers_its_main_then_its_secondary_actions(
    pid: str, main: set[str], secondary: set[str]
) -> None:
    # die-macher.md §8 politician catalogue
    game, state = at_politicians([(0, pid)])
    state.boards[0].media[0] = 1  # an opponent marker so that a buy-out is possible
    pay_all(game, state)
    assert {a[0] for a in game.legal_actions(state, 0)} == main | {"skip"}
    act(game, state, 0, ("skip",))
    assert {a[0] for a in game.legal_actions(state, 0)} == secondary | {"skip"}


@pytest.mark.parametrize(("pid", "action", "check"), [
    ("party_executive", ("votes", 10), lambda s: s.boards[0].votes[0] == 10),  # C-19: +10, not IT's +8
    ("front_runner", ("trend", 4), lambda s: s.boards[0].trend[0] == 4),
])
def test_long_game_politicians_values(pid: str, action: tuple[object, ...], check: object) -> None:
    game, state = at_politicians([(0, pid)])
    state = situation(game, state, {"boards.0.votes": [0, 0, 0]})
    pay_all(game, state)
    act(game, state, 0, action)
    assert check(state)  # type: ignore[operator]


def test_front_runner_secondary_gives_12_votes() -> None:
    # die-macher.md C-19: +12 (IT's +8 is an error)
    game, state = at_politicians([(0, "front_runner")])
    state = situation(game, state, {"boards.0.votes": [0, 0, 0]})
    pay_all(game, state)
    act(game, state, 0, ("skip",))
    act(game, state, 0, ("votes", 12))
    assert state.boards[0].votes[0] == 12


def test_costs_are_paid_to_the_bank_and_unaffordable_politicians_are_declined() -> None:
    game, state = at_politicians([(0, "parliamentary_leader"), (1, "secretary")])
    state.players[0].money = 14000  # cannot pay 15,000
    enter(game, state, "politicians", step="reveal")
    assert game.to_act(state) == [1]  # seat 0's politician is declined automatically
    money = state.players[1].money
    act(game, state, 1, ("pay",))
    assert state.players[1].money == money - 8000 and state.players[0].money == 14000


def test_buyout_pays_the_owner_and_may_place_your_own_marker() -> None:
    # die-macher.md C-25, G-04: €5,000 to the owner; the marker returns to its owner's supply
    game, state = at_politicians([(0, "spokesperson")])
    state = situation(game, state, {"boards.0.media": [1, 1, NOBODY, NOBODY, NOBODY]})
    board = state.boards[0]
    pay_all(game, state)
    money0, money1, supply0, supply1 = (state.players[0].money, state.players[1].money,
                                         state.players[0].media_supply, state.players[1].media_supply)
    act(game, state, 0, ("buyout", 1, True))
    assert board.media[:2] == [1, 0]
    assert (state.players[0].money, state.players[1].money) == (money0 - 5000, money1 + 5000)
    assert (state.players[0].media_supply, state.players[1].media_supply) == (supply0 - 1, supply1 + 1)


def test_buyout_lock_blocks_a_second_buyout_in_the_same_state() -> None:
    # die-macher.md C-08: "same action", whichever politician carries it
    game, state = at_politicians([(0, "spokesperson"), (1, "secretary")])
    state = situation(game, state, {"boards.0.media": [2, 2, 0, NOBODY, NOBODY]})
    pay_all(game, state)
    act(game, state, 0, ("buyout", 0, False))
    act(game, state, 0, ("skip",))
    act(game, state, 1, ("votes", 8))
    assert not any(a[0] == "buyout" for a in game.legal_actions(state, 1))


def test_others_trend_lock_and_no_media_protection() -> None:
    # die-macher.md §5 phase 6: −1 to every other party; the media influencer is not protected
    game, state = at_politicians([(0, "parliamentary_leader"), (1, "parliamentary_leader")])
    state = situation(game, state, {"boards.0.media": [1, 1, NOBODY, NOBODY, NOBODY]})
    pay_all(game, state)
    act(game, state, 0, ("others_trend",))
    assert state.boards[0].trend == [0, -1, -1]
    act(game, state, 0, ("skip",))
    assert {a[0] for a in game.legal_actions(state, 1)} == {"skip"}


def test_trend_is_clamped_to_its_scale() -> None:
    # die-macher.md M-05, G-05: trend stays within −3 … +4
    game, state = at_politicians([(0, "front_runner"), (1, "parliamentary_leader")])
    state = situation(game, state, {"boards.0.trend": [2, 0, -3]})
    pay_all(game, state)
    act(game, state, 0, ("trend", 4))
    act(game, state, 0, ("skip",))
    act(game, state, 1, ("others_trend",))
    assert state.boards[0].trend == [3, 0, -3]


def test_double_marker_can_be_removed_and_lock_lasts_the_round() -> None:
    # die-macher.md C-08, G-20: place or remove, once per state per round
    game, state = at_politicians([(0, "backbencher"), (1, "honorary_chairman")])
    state = situation(game, state, {"boards.0.doubled": 1, "double_supply": 3})
    pay_all(game, state)
    assert game.legal_actions(state, 0)[1:] == [("double_remove",)]
    act(game, state, 0, ("double_remove",))
    assert state.boards[0].doubled == NOBODY and state.double_supply == 4
    act(game, state, 0, ("skip",))
    act(game, state, 1, ("skip",))
    assert not any(a[0].startswith("double") for a in game.legal_actions(state, 1))


@pytest.mark.parametrize(("scope", "locked_next_round"), [("state_round", False), ("state_game", True)])
def test_bang_lock_scope(scope: str, locked_next_round: bool) -> None:
    # die-macher.md C-08 config bang_lock_scope
    game, state = at_politicians([(0, "backbencher")], bang_lock_scope=scope)
    pay_all(game, state)
    act(game, state, 0, ("double", 0))
    act(game, state, 0, ("skip",))
    assert ("DOUBLE" in state.boards[1].bang_used or "DOUBLE" in state.boards[0].bang_used) == locked_next_round


def test_publish_only_with_a_positive_own_value() -> None:
    # die-macher.md phase 8 "Using a poll": PUBLISH only if delta[own] > 0
    game, state = at_politicians([(0, "secretary")], parties=["FDP", "SPD", "CDU"])
    state.poll_deck.append(1)  # card A2: FDP −1
    pay_all(game, state)
    act(game, state, 0, ("votes", 8))
    act(game, state, 0, ("free_poll",))
    assert game.legal_actions(state, 0) == [("withhold_poll",)]
    with pytest.raises(IllegalAction):
        act(game, state, 0, ("publish_poll",))
    base = state.players[0].base
    act(game, state, 0, ("withhold_poll",))
    assert state.players[0].base == base + 3
    assert state.poll_discard[-1] == [1, 0]  # face down: its front stays unknown (C-27, G-14)


def test_poll_auction_order_and_one_bid_each() -> None:
    # die-macher.md C-02: left of the auctioneer, clockwise, the auctioneer last; each acts once
    game, state = new_game(4)
    to_round_one(game, state, start=0)
    play_first(game, state, "cabinet")
    state.boards[0].votes = [0, 0, 9, 0]
    enter(game, state, "polls")
    seen = []
    while state.phase == "polls" and state.poll_in_hand == NOBODY and state.cursor == 0:
        seat = game.to_act(state)[0]
        seen.append(seat)
        act(game, state, seat, ("poll_bid", 0) if seat == 3 else ("pass",))
    assert seen == [3, 0, 1, 2]
    assert state.poll_in_hand != NOBODY and state.actor == 3  # a bid of 0 wins


def test_poll_auction_first_option_left_of_start_player() -> None:
    # die-macher.md C-02 config poll_auction_first = left_of_start_player (EN)
    game, state = new_game(4, poll_auction_first="left_of_start_player")
    to_round_one(game, state, start=0)
    play_first(game, state, "cabinet")
    state.boards[0].votes = [0, 9, 0, 0]
    enter(game, state, "polls")
    assert state.auction is not None and state.auction.order == [2, 3, 0, 1]


@pytest.mark.parametrize(("rank", "money", "points"), [
    ("competition", [10, 10, 5, 1], [6, 6, 0, 0]),
    ("competition", [10, 8, 8, 1], [6, 3, 3, 0]),
    ("dense", [10, 10, 5, 1], [6, 6, 3, 0]),
])
def test_money_ranks_with_ties(rank: str, money: list[int], points: list[int]) -> None:
    # die-macher.md §6 and G-08: ties share the rank's full award; competition ranking by default
    game = DieMacher(4, {"money_rank": rank})
    assert money_points(game, money) == points


def test_simultaneous_payment_is_sealed_until_everyone_decided() -> None:
    # die-macher.md G-13 config p6_pay_order = simultaneous
    game, state = at_politicians([(0, "secretary"), (1, "spokesperson")], p6_pay_order="simultaneous")
    assert sorted(game.to_act(state)) == [0, 1]
    money = [p.money for p in state.players]
    act(game, state, 1, ("decline",))
    view = game.view(state, 0)
    assert view["board"]["seats"][1]["committed"]
    assert all(p["paid"] is None for p in view["board"]["boards"][0]["politicians"])
    assert game.to_act(state) == [0]
    events = act(game, state, 0, ("pay",))
    assert [e.kind for e in events][:3] == ["sealed_committed", "politician_paid", "politician_declined"]
    assert [p.money for p in state.players][:2] == [money[0] - 8000, money[1]]
    assert game.to_act(state) == [0]  # the Secretary's main action


def test_honour_system_overbid_in_the_start_auction() -> None:
    # die-macher.md C-14 config overbid_mode = honour_system_with_penalty: all money to the bank,
    # party base −10, out of this phase's auctions; the remaining players must bid again
    game, state = new_game(3, overbid_mode="honour_system_with_penalty")
    play_first(game, state, "bid")
    assert max(a[1] for a in game.legal_actions(state, 0)) == 30000 + 10000
    base = state.players[0].base
    act(game, state, 0, ("bid", 35000))
    act(game, state, 1, ("bid", 2000))
    events = act(game, state, 2, ("bid", 1000))
    assert [e.kind for e in events if e.kind in ("overbid_penalty", "start_auction_restarted")] == [
        "overbid_penalty", "start_auction_restarted"]
    assert state.players[0].money == 0 and state.players[0].base == base - 10
    assert state.phase == "bid" and sorted(game.to_act(state)) == [1, 2]
    act(game, state, 1, ("bid", 0))
    act(game, state, 2, ("bid", 3000))
    assert state.start_player == 2 and state.players[2].money == 30000 - 3000


def test_honour_system_overbid_in_a_poll_auction_restarts_it() -> None:
    # die-macher.md C-14: also in poll auctions
    game, state = new_game(3, overbid_mode="honour_system_with_penalty")
    to_round_one(game, state, start=0)
    play_first(game, state, "cabinet")
    state.boards[0].votes = [0, 0, 9]
    enter(game, state, "polls")
    assert game.to_act(state) == [0]
    act(game, state, 0, ("poll_bid", state.players[0].money + 1000))
    assert state.players[0].money == 0 and state.excluded[0]
    assert state.auction is not None and state.auction.order == [1, 2]
    act(game, state, 1, ("poll_bid", 2000))
    act(game, state, 2, ("pass",))
    assert state.poll_in_hand != NOBODY and state.actor == 1


def test_overbids_are_not_offered_by_default() -> None:
    # die-macher.md C-14 resolution: the engine forbids bids above current money
    game, state = new_game(3)
    play_first(game, state, "bid")
    assert max(a[1] for a in game.legal_actions(state, 0)) == state.players[0].money


def test_a_game_long_bang_lock_ends_with_its_state() -> None:
    # die-macher.md C-08 (the lock belongs to the state), §7.3 step 9d and C-22 (the board is fully
    # reset when a new state enters); issue #8 item 2
    game, state = at_politicians([(0, "backbencher")], bang_lock_scope="state_game")
    pay_all(game, state)
    act(game, state, 0, ("double", 0))
    assert state.boards[0].bang_used == ["DOUBLE"]
    elected = state.boards[0].card
    while state.round == 1:
        seat = game.to_act(state)[0]
        act(game, state, seat, game.legal_actions(state, seat)[0])
    assert state.boards[0].card != elected
    assert state.boards[0].bang_used == []
    assert game.view(state, 0)["board"]["boards"][0]["locked_actions"] == []


def test_the_view_names_the_card_swapped_in_last_which_may_not_go_out_again() -> None:
    # die-macher.md: a program change swaps up to two cards; the card just swapped in stays (it is
    # public, as every program is), so the view must say which one, or equal views would allow
    # different swaps (found by the OpenSpiel adapter's ISMCTS, issue #12).
    rng = random.Random(5)
    for seed in range(40):
        game, state = new_game(3, seed)
        while not game.is_over(state):
            change = state.program_change
            if change is not None and change.step == 2 and change.swaps == 1:
                view = game.view(state, change.seat)
                assert view["decision"]["swapped_in"] == change.swapped_in
                outs = {a[1] for a in game.legal_actions(state, change.seat) if a[0] == "swap"}
                assert change.swapped_in not in outs
                return
            seat = rng.choice(game.to_act(state))
            legal = game.legal_actions(state, seat)
            swaps = [a for a in legal if a[0] in ("swap", "draw_and_take", "take")]
            act(game, state, seat, rng.choice(swaps or legal))
    raise AssertionError("no second swap of a program change in 40 games")


def test_the_reveal_names_each_politician_with_its_party() -> None:
    # die-macher.md §6.6 (politicians revealed board by board); issue #10: named records, not [seat, id] pairs
    from stammtisch.games.diemacher import text

    game, state = at_politicians([(0, "parliamentary_leader"), (1, "secretary")], parties=["SPD", "CDU", "FDP"])
    state.boards[0].card = next(i for i, s in enumerate(game.edition.states) if s.id == "NDS")
    [revealed] = [e for e in enter(game, state, "politicians", step="reveal") if e.kind == "politicians_revealed"]
    assert revealed.params == {"board": 0, "row": [{"seat": 0, "politician": "parliamentary_leader"},
                                                   {"seat": 1, "politician": "secretary"}]}
    assert text.describe_event(revealed, game.view(state, 2), None) == \
        "Politicians in Niedersachsen: SPD Parliamentary leader, CDU/CSU Secretary"
