"""Every game through the same checks (issue #10, "Conformance suite"): random full games at every
table, exact replays, independent copies, strict steps, views that ignore others' secrets,
snapshot and codec round-trips."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stammtisch.engine.codec import ActionCodec
from stammtisch.engine.flow import FlowGame
from stammtisch.engine.match import replay
from stammtisch.engine.protocol import Event, Game, IllegalAction
from stammtisch.engine.record import Header, Record, parse_record
from stammtisch.engine.step import step
from stammtisch.registry import make_game
from tests.conformance.games import new_table, table_id, tables
from tests.conformance.hooks import hooks

TABLES = tables()
SEEDS = (11, 12)
CHECK_EVERY = 9  # the costlier checks run at every 9th decision


def events_json(events: list[Event]) -> list[Any]:
    return [(e.kind, e.to_json()["params"], e.seats) for e in events]


def snapshot_text(game: Game[Any], state: Any) -> str:
    return json.dumps(game.to_json(state))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_random_games_keep_the_contract(table: tuple[str, int, dict[str, Any]]) -> None:
    for seed in SEEDS:
        game = new_table(table)
        codec = game.action_codec(game.num_players, table[2])
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        record = Record(Header(game.name, game.num_players, dict(game.options), seed))
        while not game.is_over(state):
            check_decision(game, codec, state)
            if len(record.moves) % CHECK_EVERY == 0:
                check_state(game, codec, state, rng)
            seat = rng.choice(game.to_act(state))
            action = rng.choice(game.legal_actions(state, seat))
            text = snapshot_text(game, state)
            kept = game.copy(state)
            restored = game.from_json(json.loads(text))
            events = step(game, state, seat, action)
            assert snapshot_text(game, kept) == text, "a copy changed with its original"
            # a restored snapshot plays on exactly like the original
            assert events_json(game.apply(restored, seat, action)) == events_json(events)
            assert snapshot_text(game, restored) == snapshot_text(game, state)
            record.moves.append((seat, action))
            hooks(game.name).invariants(game, state)
            stage = game.flow.undeclared_stage(state) if isinstance(game, FlowGame) else None
            assert stage is None, stage  # a phase's declared stages (engine/flow.py, Phase.stages)
        assert len(game.scores(state)) == game.num_players
        check_replay(record, state)


def check_decision(game: Game[Any], codec: ActionCodec, state: Any) -> None:
    """Legal lists are non-empty for the seats to act, empty for the others, and their codes
    decode to the very actions."""
    acting = game.to_act(state)
    assert acting
    for seat in range(game.num_players):
        legal = game.legal_actions(state, seat)
        assert bool(legal) == (seat in acting)
        codes = [codec.encode(action) for action in legal]
        assert [codec.decode(code) for code in codes] == legal
        assert list(codec.mask(state, seat)) == [int(code in codes) for code in range(codec.size)]


def check_state(game: Game[Any], codec: ActionCodec, state: Any, rng: random.Random) -> None:
    before = snapshot_text(game, state)
    # copies are independent: playing on a copy leaves the original as it was
    copy = game.copy(state)
    seat = game.to_act(copy)[0]
    game.apply(copy, seat, game.legal_actions(copy, seat)[0])
    assert snapshot_text(game, state) == before
    # an illegal action (where the action table has one: at the first bid of a game of sealed card bids
    # every card is legal) or a seat not to act raises and changes nothing
    seat = game.to_act(state)[0]
    mask = codec.mask(state, seat)
    illegal_codes = [code for code in range(codec.size) if not mask[code]]
    if illegal_codes:
        with pytest.raises(IllegalAction):
            step(game, state, seat, codec.decode(rng.choice(illegal_codes)))
    waiting = [s for s in range(game.num_players) if s not in game.to_act(state)]
    if waiting:
        with pytest.raises(IllegalAction):
            step(game, state, waiting[0], game.legal_actions(state, seat)[0])
    assert snapshot_text(game, state) == before
    # the views of all readers built together (Game.views, sharing what all see) are the views built alone
    readers = [None, *range(game.num_players)]
    assert game.views(state, readers) == {reader: game.view(state, reader) for reader in readers}
    # a seat's view does not change when only what it cannot see changes
    for viewer in range(game.num_players):
        other = hooks(game.name).scramble(game, state, viewer, rng)
        assert game.view(other, viewer) == game.view(state, viewer)
    assert snapshot_text(game, state) == before


def check_replay(record: Record, final: Any) -> None:
    """The record replays to the very same final state (engine/record.py)."""
    *_, (match, _seat, _action, _events) = replay(parse_record(record.dumps()), make_game)
    replayed = match.state
    game = make_game(record.header.game, record.header.players, record.header.options)
    assert snapshot_text(game, replayed) == snapshot_text(game, final)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_action_table_is_stable_and_unique(table: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = table
    game = new_table(table)
    codec = game.action_codec(players, options)
    assert codec.size == len(set(codec.actions)) > 0
    assert all(codec.encode(codec.decode(code)) == code for code in range(codec.size))
    rebuilt = ActionCodec(make_game(name, players, options), codec.actions)
    assert rebuilt.digest == codec.digest and len(codec.digest) == 16
    changed = ActionCodec(game, codec.actions[:-1])
    assert changed.digest != codec.digest
    for bad in (-1, codec.size, True, "0"):
        with pytest.raises(ValueError):
            codec.decode(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        codec.encode(("no such action",))
    flagged = next(a for a in codec.actions if any(type(x) is int and x in (0, 1) for x in a))
    with pytest.raises(ValueError):  # True is not 1, as in the strict step
        codec.encode(tuple(bool(x) if type(x) is int and x in (0, 1) else x for x in flagged))
