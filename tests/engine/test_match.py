"""Match as the server uses it (issue #10 "Match everywhere"): commit before apply, packed events, the
undo policy, sealed take-backs, the legal lists kept per seat (issue #13)."""

from __future__ import annotations

import json
import random

import pytest

from stammtisch.engine.match import Match, Move, pack, unpack
from stammtisch.engine.protocol import IllegalAction
from stammtisch.registry import make_game


def sealed_program_phase() -> Match:
    """A Die Macher match at the program choice: every seat steps through it unseen (die-macher.md F-4)."""
    match = Match(make_game("diemacher", 3, {}), seed=1, undo=True, keep_events=True)
    rng = random.Random(1)
    while not (match.state.phase == "program" and match.to_act() == [0, 1, 2]):
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
    return match


def first_unseen_step(match: Match, seat: int) -> tuple[int, ...]:
    """An action of ``seat`` that shows nobody anything and keeps it deciding."""
    for action in match.legal_actions(seat):
        move = match.prepare(seat, action)
        if move.may_take_back and not move.events:
            return action
    raise AssertionError("no unseen step")


def fingerprint(match: Match) -> str:
    return json.dumps([match.game.to_json(match.state), match.record.moves, match.log, match.events],
                      default=lambda b: b.decode())


def test_the_commit_hook_sees_the_checked_move_before_the_state_changes() -> None:
    seen: list[tuple[Move, str]] = []
    match = Match(make_game("glueckauf", 2, {}), seed=4, keep_events=True,
                  commit=lambda move: seen.append((move, fingerprint(match))))
    before = fingerprint(match)
    seat = match.to_act()[0]
    events = match.act(seat, match.legal_actions(seat)[0])
    [(move, at_commit)] = seen
    assert at_commit == before  # nothing in force yet when the hook runs
    assert (move.number, move.seat, move.events) == (1, seat, events)
    assert move.after is match.state and move.before is not match.state
    assert match.log == [(seat, move.action)] and match.events[1] == pack(events)


def test_a_failing_commit_hook_changes_nothing() -> None:
    def refuse(move: Move) -> None:
        raise OSError("the database is gone")

    match = Match(make_game("diemacher", 3, {}), seed=2, undo=True, keep_events=True, commit=refuse)
    before = fingerprint(match)
    for seat in match.to_act():
        with pytest.raises(OSError, match="database"):
            match.act(seat, match.legal_actions(seat)[0])
        assert fingerprint(match) == before and match.version == 0


def test_an_illegal_move_is_refused_before_the_hook() -> None:
    calls: list[Move] = []
    match = Match(make_game("glueckauf", 2, {}), seed=4, commit=calls.append)
    with pytest.raises(IllegalAction):
        match.act(match.to_act()[0], ("no such action",))
    assert calls == [] and match.version == 0


def test_a_move_prepared_for_an_earlier_state_is_refused() -> None:
    match = Match(make_game("diemacher", 3, {}), seed=2, undo=True)
    first = match.prepare(0, match.legal_actions(0)[0])
    match.accept(match.prepare(1, match.legal_actions(1)[0]))
    with pytest.raises(ValueError, match="prepared for another state"):
        match.accept(first)


def test_another_seats_move_ends_the_take_backs() -> None:
    match = sealed_program_phase()
    match.act(0, first_unseen_step(match, 0))
    assert match.can_take_back(0)
    match.act(1, first_unseen_step(match, 1))
    assert not match.can_take_back(0) and match.can_take_back(1)
    with pytest.raises(ValueError, match="no move to take back"):
        match.take_back(0)


def test_a_take_back_of_an_unseen_step_is_hidden_from_those_who_did_not_see_it() -> None:
    match = sealed_program_phase()
    state = fingerprint(match)
    match.act(0, first_unseen_step(match, 0))
    hidden = match.prepare_take_back(0).hidden
    assert hidden == {1, 2, None}
    [undone] = match.take_back(0)
    assert undone.kind == "undo" and undone.seats == (0,)
    assert unpack(match.events[-1], 0) == [{"kind": "undo", "params": {"seat": 0}}]
    assert unpack(match.events[-1], 1) == unpack(match.events[-1], None) == []
    assert match.log[-2:] == [(0, match.log[-2][1]), (0, None)] and match.version == len(match.events) - 1
    restored = json.loads(fingerprint(match))
    assert restored[:2] == json.loads(state)[:2]  # state and record as before the step


def test_packed_events_show_each_reader_only_its_own() -> None:
    match = Match(make_game("diemacher", 3, {}), seed=1, keep_events=True)
    rng = random.Random(1)
    private = 0
    for _ in range(12):
        seat = match.to_act()[0]
        events = match.act(seat, rng.choice(match.legal_actions(seat)))
        for reader in (0, 1, 2, None):
            assert unpack(match.events[-1], reader) == [e.to_json() for e in events if e.visible_to(reader)]
        private += sum(e.seats is not None for e in events)
    assert private > 0 and len(match.events) == match.version + 1


def test_each_seat_keeps_its_own_legal_list() -> None:
    match = Match(make_game("diemacher", 3, {}), seed=1, undo=True)  # the draft: three seats at once
    lists = {seat: match.legal_actions(seat) for seat in (0, 1, 2)}
    for seat in (0, 1, 2):  # the copy handed out cannot widen what is accepted
        lists[seat].append(("draft_pick", 999))
        with pytest.raises(IllegalAction, match="not legal now"):
            match.act(seat, ("draft_pick", 999))
    match.act(2, lists[2][0])  # seat 2's own list, kept beside the others
    assert match.log == [(2, lists[2][0])]
