"""The legal lists made without sets, sorts or fresh tuples (issue 29) against their plain definitions,
in every decision of random games: the program change's swaps (die-macher.md §6.2: a program holds each
topic once), the media shifts (§6.7, C-32: only the other face-up opinions count) and the bids (amounts in
whole money units up to the bid ceiling), and the helpers behind them."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from stammtisch.engine.protocol import Action
from stammtisch.games.diemacher.phases import media_shift, program
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State, card_kinds, topic
from tests.diemacher.helpers import new_game, random_decisions


def plain_swaps(state: State, seat: int) -> list[Action]:
    """§6.2's swaps as first written: a hand card may come in for ``out`` unless another program card has its topic."""
    change, player = state.program_change, state.players[seat]
    assert change is not None
    swaps: list[Action] = [("swaps_done",)]
    for out in player.program:
        if out == change.swapped_in:
            continue
        rest = {topic(c) for c in player.program if c != out}
        swaps += [("swap", out, card) for card in sorted(set(player.hand)) if topic(card) not in rest]
    return swaps


def plain_shifts(state: State, pos: int) -> list[Action]:
    board = state.boards[pos]
    options: list[Action] = []
    for slot in range(len(board.opinions)):
        if not board.face_up[slot] or slot == board.doubled:
            continue
        others = {topic(c) for i, c in enumerate(board.opinions) if board.face_up[i] and i != slot}
        options += [("shift", slot, new) for new in range(CARD_TYPES)
                    if state.opinion_display[new] and topic(new) not in others]
    return options


def test_legal_lists_match_their_plain_definitions() -> None:
    checked = {"swap": 0, "shift": 0, "bid": 0}
    for seed in range(1, 9):
        game, state = new_game(players=3 + seed % 3, seed=seed)
        for seat, legal in random_decisions(game, state, random.Random(seed)):
            change = state.program_change
            if change is not None and change.step == program.SWAP:  # the interlude of phase 2 or a politician
                assert legal == plain_swaps(state, seat)  # die-macher.md §6.2
                checked["swap"] += 1
            elif state.phase == "media_shift":
                pos = game.from_election(state)[state.cursor]
                assert legal == [("pass",), *plain_shifts(state, pos)]  # die-macher.md §6.7, C-32
                assert media_shift.shift_options(state, pos) == plain_shifts(state, pos)
                checked["shift"] += 1
            elif state.phase == "bid":
                ceiling = game.bid_ceiling(state, seat)
                assert legal == [("bid", x) for x in game.money_steps(0, ceiling)]
                checked["bid"] += 1
    assert all(checked.values()), checked  # every kind of list was met


@given(st.lists(st.sampled_from([NOBODY, *range(CARD_TYPES)]), max_size=12))
def test_card_kinds_is_the_sorted_set(cards: list[int]) -> None:
    assert card_kinds(cards) == sorted(set(cards) - {NOBODY})


@given(st.integers(0, 200), st.integers(-5, 200), st.sampled_from(["bid", "raise", "poll_bid"]))
def test_amount_actions_are_the_money_steps(low: int, high: int, kind: str) -> None:
    game = DieMacher(4, {})
    first = game.amount_actions(kind, low, high)
    assert first == [(kind, amount) for amount in game.money_steps(low, high)]
    assert game.amount_actions(kind, low, high) == first  # and again, from the tuples made before


def test_turn_seat_is_the_turn_order() -> None:
    game, state = new_game(players=5, seed=3)
    for start in range(5):
        state.start_player = start
        assert [state.turn_seat(turn) for turn in range(5)] == state.turn_order()
