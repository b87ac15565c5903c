"""The engine's strict step and its records, on a real game."""

from __future__ import annotations

import pytest

from stammtisch.engine.match import Match, replay
from stammtisch.engine.protocol import IllegalAction
from stammtisch.engine.record import CorruptRecord, parse_record
from stammtisch.engine.step import step
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.registry import make_game


def test_values_of_another_type_are_not_legal() -> None:
    game = DieMacher(3, {})
    state, _ = game.new_state(1)
    seat = game.to_act(state)[0]
    card = game.legal_actions(state, seat)[0][1]
    with pytest.raises(IllegalAction):
        step(game, state, seat, ("draft_pick", float(card)))
    step(game, state, seat, ("draft_pick", card))


@pytest.mark.parametrize("given_the_list", [False, True])
def test_a_list_for_a_tuple_is_refused_like_any_illegal_action(given_the_list: bool) -> None:
    # the bare strict step asks game.is_legal (a phase's allows); given the list, it searches it
    game = DieMacher(3, {})
    state, _ = game.new_state(1)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    before = game.to_json(state)
    with pytest.raises(IllegalAction, match=r"\['draft_pick', \d+\] is not legal now; legal kinds: draft_pick"):
        step(game, state, seat, list(legal[0]), legal if given_the_list else None)
    assert game.to_json(state) == before


def test_not_your_turn_names_who_is_to_act() -> None:
    game = DieMacher(3, {})
    state, _ = game.new_state(1)
    step(game, state, 0, game.legal_actions(state, 0)[0])
    with pytest.raises(IllegalAction, match="not to act"):
        step(game, state, 0, game.legal_actions(state, 1)[0])


def test_a_finished_game_refuses_every_action() -> None:
    game = make_game("glueckauf", 2, {})
    match = Match(game, seed=3)
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, match.legal_actions(seat)[0])
    with pytest.raises(IllegalAction, match="the game is over"):
        step(game, match.state, 0, ("confirm",))


def test_match_checks_against_the_list_it_handed_out_not_the_callers_copy() -> None:
    match = Match(DieMacher(3, {}), seed=1)
    offered = match.legal_actions(0)
    offered.append(("draft_pick", 999))  # the caller's copy; seat 0's legal list is unchanged
    with pytest.raises(IllegalAction, match="not legal now"):
        match.act(0, ("draft_pick", 999))
    assert match.record.moves == []


def test_a_list_handed_out_serves_only_its_seat_and_only_until_the_next_move() -> None:
    match = Match(DieMacher(3, {}), seed=1)  # the draft: all three seats pick at once, unseen
    offered = match.legal_actions(0)
    others = match.game.legal_actions(match.state, 1)
    with pytest.raises(IllegalAction, match="not legal now"):
        match.act(1, next(a for a in offered if a not in others))  # seat 0's card, not seat 1's
    match.legal_actions(0)
    match.act(0, offered[0])
    with pytest.raises(IllegalAction, match="not to act"):  # seat 0 has picked: its old list is gone
        match.act(0, offered[1])


def test_match_record_round_trips_and_replays() -> None:
    match = Match(make_game("diemacher", 3, {"elections": 4}), seed=9, names=["Ann", "Ben", "Cem"])
    for _ in range(60):
        seat = match.to_act()[0]
        match.act(seat, match.legal_actions(seat)[-1])
    record = parse_record(match.record.dumps())
    assert record.header.names == ["Ann", "Ben", "Cem"] and record.moves == match.record.moves
    *_, (match, _seat, _action, _events) = replay(record, make_game)
    state = match.state
    assert match.game.view(state, 0) == match.view(0)


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ('{"record": "other"}\n', "line 1"),
    ('{"record": "stammtisch", "game": "diemacher", "players": 3, "seed": 1, "engine_version": "1"}\n{"seat": 0}\n',
     "line 2"),
])
def test_corrupt_records_name_the_line(text: str, message: str) -> None:
    with pytest.raises(CorruptRecord, match=message):
        parse_record(text)


def test_a_record_with_an_illegal_move_fails_at_that_line() -> None:
    header = '{"record": "stammtisch", "game": "diemacher", "players": 3, "seed": 1, "engine_version": "1"}'
    record = parse_record(header + '\n{"seat": 0, "action": ["bid", 5]}\n')
    with pytest.raises(CorruptRecord, match="line 2"):
        list(replay(record, make_game))
