"""Invariants over many random games of every size and length (die-macher.md §2.4, §13).

Nothing is created or destroyed (56 program, 42 opinion, 10 poll cards, rally cubes, media and
double markers), money never goes negative, trends stay on their scale, replays reproduce the
final state, illegal actions change nothing, and views show nothing a seat may not know."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stammtisch.engine.match import replay
from stammtisch.engine.protocol import IllegalAction
from stammtisch.engine.record import Header, Record, parse_record
from stammtisch.engine.step import step
from stammtisch.games.diemacher.conformance import invariants as check_invariants
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import State
from stammtisch.registry import make_game
from tests.diemacher.helpers import snapshot

CONFIGS = [(players, elections) for players in (3, 4, 5) for elections in (4, 7)]


@pytest.mark.parametrize(("players", "elections"), CONFIGS)
def test_random_games_keep_every_invariant(players: int, elections: int) -> None:
    for seed in range(40):
        game = DieMacher(players, {"elections": elections})
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        check_invariants(game, state)
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            check_invariants(game, state)
        assert len(game.scores(state)) == players


@pytest.mark.parametrize(("players", "elections"), CONFIGS)
def test_many_random_games_end_without_error(players: int, elections: int) -> None:
    games = 250 if elections == 4 else 120
    for seed in range(1000, 1000 + games):
        game = DieMacher(players, {"elections": elections})
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        check_invariants(game, state)
        assert state.elections_held == elections


def random_record(players: int, elections: int, seed: int) -> tuple[Record, State]:
    game = DieMacher(players, {"elections": elections})
    state, _ = game.new_state(seed)
    record = Record(Header("diemacher", players, dict(game.options), seed))
    rng = random.Random(seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        step(game, state, seat, action)
        record.moves.append((seat, action))
    return record, state


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), elections=st.sampled_from([4, 7]), seed=st.integers(0, 2**31))
def test_replay_reproduces_the_final_state(players: int, elections: int, seed: int) -> None:
    record, final = random_record(players, elections, seed)
    text = record.dumps()
    *_, (match, _seat, _action, _events) = replay(parse_record(text), make_game)
    replayed = match.state
    assert snapshot(replayed) == snapshot(final)


ILLEGAL = [("bid", -1000), ("bid", 999999999), ("fly",), ("rallies", 0, 99), ("pass", "x"), ("shift", 0, 99),
           ("place", 0, "chancellor"), ("convert", 0, 3), ("donation", 15000, True), ("draft_pick", 99)]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), stop=st.integers(0, 400), bad=st.sampled_from(ILLEGAL), other_seat=st.booleans())
def test_an_illegal_action_changes_nothing(seed: int, stop: int, bad: tuple[object, ...], other_seat: bool) -> None:
    game = DieMacher(4, {})
    state, _ = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    if game.is_over(state):
        return
    before = snapshot(state)
    acting = game.to_act(state)
    seat = next((s for s in range(4) if s not in acting), acting[0]) if other_seat else acting[0]
    action = game.legal_actions(state, acting[0])[0] if other_seat and seat not in acting else bad
    with pytest.raises(IllegalAction):
        step(game, state, seat, action)
    assert snapshot(state) == before


def hide_differently(state: State, seat: int, rng: random.Random) -> State:
    """A copy that differs from ``state`` only in what ``seat`` cannot see."""
    other = state.copy()
    other.chance.seed += 1
    rng.shuffle(other.program_deck)
    rng.shuffle(other.opinion_deck)
    if len(other.poll_deck) > 2:  # the top card's back is public; the order beneath it is not
        rest = other.poll_deck[:-1]
        rng.shuffle(rest)
        other.poll_deck[:-1] = rest
    for s, player in enumerate(other.players):
        if s == seat:
            continue
        player.money += 1000  # others' money is hidden by default
        if player.hand and other.program_deck and other.phase not in ("keep",):
            i = rng.randrange(len(player.hand))
            player.hand[i], other.program_deck[0] = other.program_deck[0], player.hand[i]
        if other.done and other.phase == "bid" and other.done[s]:
            player.secret = [max(0, player.secret[0] - 1000)]
        if other.phase in ("program", "program_more") and player.secret:
            # a card more or less chosen so far; once committed, the draft exception (DP-S3)
            player.hand.append(player.secret.pop())
        if other.draft_hands and not (other.done[s] and player.secret) and other.program_deck:
            i = rng.randrange(len(other.draft_hands[s]))
            other.draft_hands[s][i], other.program_deck[0] = other.program_deck[0], other.draft_hands[s][i]
        if 0 < len(player.donations) < 3:  # the remaining donation cards lie face down (HI-10)
            player.donations = sorted(rng.sample(range(3), len(player.donations)))
    for board in other.boards:
        for slot, up in enumerate(board.face_up):
            if not up and other.opinion_deck:
                board.opinions[slot], other.opinion_deck[0] = other.opinion_deck[0], board.opinions[slot]
    return other


def check_views_hide(seed: int, stop: int, players: int) -> None:
    game = DieMacher(players, {})
    state, _ = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if game.is_over(state):
            return
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    if game.is_over(state) or state.phase == "keep":
        return  # the kept card is one of the hand's: hands there are not interchangeable with deck cards
    viewer = rng.randrange(players)
    other = hide_differently(state, viewer, rng)
    assert game.view(other, viewer) == game.view(state, viewer)
    assert game.legal_actions(other, viewer) == game.legal_actions(state, viewer)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), stop=st.integers(0, 350), players=st.sampled_from([3, 4, 5]))
def test_views_show_nothing_a_seat_may_not_know(seed: int, stop: int, players: int) -> None:
    check_views_hide(seed, stop, players)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), stop=st.integers(0, 40), players=st.sampled_from([3, 4, 5]))
def test_views_show_nothing_of_the_sealed_setup_choices(seed: int, stop: int, players: int) -> None:
    # die-macher.md DP-S2, DP-S3 (Sim, Hidden until the reveal), HI-03, HI-10; issue #8 item 4
    check_views_hide(seed, stop, players)


def test_the_view_does_show_the_seats_own_secrets() -> None:
    """The leak test above can fail: the same changes applied to the viewer's own hand and money show."""
    game = DieMacher(3, {})
    state, _ = game.new_state(7)
    rng = random.Random(7)
    while state.phase != "media":
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    other = state.copy()
    other.players[0].money += 1000
    assert game.view(other, 0) != game.view(state, 0)
    assert game.view(other, 1) == game.view(state, 1)
    other.players[0].hand = [c ^ 1 for c in other.players[0].hand]
    assert game.view(other, 0)["board"]["seats"][0]["hand"] != game.view(state, 0)["board"]["seats"][0]["hand"]


def test_open_money_shows_everyones_money() -> None:
    # die-macher.md HI-01 config money_visibility / open_money
    game = DieMacher(3, {"open_money": True})
    state, _ = game.new_state(1)
    assert [p["money"] for p in game.view(state, 0)["board"]["seats"]] == [30000] * 3
    hidden = DieMacher(3, {})
    state, _ = hidden.new_state(1)
    assert [p["money"] for p in hidden.view(state, 0)["board"]["seats"]] == [30000, None, None]


def test_sealed_bids_stay_hidden_until_all_have_bid() -> None:
    # die-macher.md HI-11
    game = DieMacher(3, {})
    state, _ = game.new_state(3)
    rng = random.Random(3)
    while state.phase != "bid":
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    events = step(game, state, 1, ("bid", 7000))
    assert all(e.seats is None and "7000" not in repr(e.params) for e in events)
    view = game.view(state, 0)
    assert view["board"]["seats"][1]["committed"] and "7000" not in repr(view)
    assert view["to_act"] == [0, 2]


ALTERNATIVES = [
    {"tiebreak_open_order": "previous_start_player_clockwise", "poll_auction_first": "left_of_start_player",
     "overbid_mode": "honour_system_with_penalty"},
    {"coalition_mode": "strongest_chooses_any_feasible", "p6_pay_order": "simultaneous", "open_money": True},
    {"coalition_mode": "candidate_may_decline", "force_convert_at_cap": True, "swap_out_to": "discard"},
    {"bang_lock_scope": "state_game", "poll_no_bid": "stays_on_top", "poll_apply_other_positive": True,
     "rally_trend_floor_general": False, "money_rank": "dense", "phase2_optional": False,
     "opinion_reshuffle": False},
    {"media_influencer_timing": "after_winner_moves", "no_coalition_winner_media": True,
     "unpublished_poll_public": True, "donation_accept_base_loss": [1, 3, 3], "trend_min": -2, "trend_max": 3},
    {"removed_board_media": "to_box", "buyout_removed_to": "box", "win_threshold": 40, "base_floor": 2},
]


@pytest.mark.parametrize("options", ALTERNATIVES)
def test_table_option_alternatives_play_whole_games(options: dict[str, object]) -> None:
    for seed in range(12):
        game = DieMacher(3 + seed % 3, {"elections": 4 if seed % 2 else 7, **options})
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
            if "buyout_removed_to" not in options:  # with the "box" variants media markers leave the game
                check_invariants(game, state)


def test_program_choice_shows_only_that_a_seat_has_committed() -> None:
    # die-macher.md DP-S3 (Sim, Hidden until the reveal, the exception included), HI-10 (donation
    # cards face down); docs/rules-notes.md "Sealed decisions"; issue #8 item 4
    game = DieMacher(3, {})
    state, _ = game.new_state(1)
    while state.phase != "program":
        seat = game.to_act(state)[0]
        step(game, state, seat, game.legal_actions(state, seat)[0])
    watcher, short = 1, (0, 2)
    state.players[watcher].hand = [0, 2, 4, 6, 8, 10, 12]  # seven topics
    for seat in short:  # four topics: +education ×2, −welfare state ×2, ±genetic engineering, +digitization
        state.players[seat].hand = [0, 0, 9, 9, 4, 5, 2]
    state.program_deck += [11, 13, 7, 1, 12, 5]
    before = game.view(state, watcher)["board"]["seats"][0]
    for card in (0, 9, 4, 2):
        events = step(game, state, 0, ("program_card", card))
        seen = [(e.kind, dict(e.params)) for e in events if e.visible_to(watcher)]
        assert seen in ([], [("sealed_committed", {"seat": 0, "decision": "program"})])
    assert state.done[0], "with four topics the choice ends after four cards"
    for card in (0, 2, 4, 6, 8):
        step(game, state, watcher, ("program_card", card))
    assert game.view(state, watcher)["board"]["seats"][0] == {**before, "committed": True}
    others = game.view(state, watcher)["board"]["seats"][2]
    assert others["donations_left"] == 3 and "donations" not in others
    assert game.view(state, 2)["board"]["seats"][2]["donations"] == [10000, 20000, 30000]
    for card in (0, 9, 4, 2):
        step(game, state, 2, ("program_card", card))
    assert state.phase == "program_more" and len(state.players[0].hand) == 3
    before = game.view(state, watcher)["board"]["seats"][0]
    step(game, state, 0, ("program_card", 12))
    assert state.phase == "program_more"
    assert game.view(state, watcher)["board"]["seats"][0] == {**before, "committed": True}
