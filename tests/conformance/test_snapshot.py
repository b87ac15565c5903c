"""Snapshots (issue #10): exact round-trips, and a clear error for anything that is not a snapshot
of this table."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from stammtisch.engine.snapshot import SnapshotError, situation
from stammtisch.registry import game_spec, make_game
from tests.conformance.games import GAMES, play_to, snapshot_places


def default_table(name: str) -> Any:
    return make_game(name, game_spec(name).default_players, {})


@pytest.mark.parametrize("name", GAMES)
def test_a_snapshot_plays_on_exactly_like_the_original(name: str) -> None:
    game = default_table(name)
    state = play_to(game, 5, 80)
    restored = game.from_json(json.loads(json.dumps(game.to_json(state))))
    assert restored is not state
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not game.is_over(state):
        seat = rng_a.choice(game.to_act(state))
        assert rng_b.choice(game.to_act(restored)) == seat
        action = rng_a.choice(game.legal_actions(state, seat))
        assert rng_b.choice(game.legal_actions(restored, seat)) == action
        assert [e.to_json() for e in game.apply(state, seat, action)] == \
            [e.to_json() for e in game.apply(restored, seat, action)]
        assert game.view(restored, seat) == game.view(state, seat)
    assert game.to_json(restored) == game.to_json(state)  # the chance generator included


def broken(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


@pytest.mark.parametrize("name", GAMES)
def test_malformed_or_foreign_data_gets_a_clear_error(name: str) -> None:
    game = make_game(name, 3, {})
    data = json.loads(json.dumps(game.to_json(play_to(game, 2, 30))))
    other_game = next(g for g in GAMES if g != name)
    fields = data["state"]["fields"]
    first = next(iter(fields))
    cases = [
        (["a list"], "not a Stammtisch snapshot"),
        (broken(data, ["snapshot"], "chess"), "not a Stammtisch snapshot"),
        (broken(data, ["version"], 99), "version 99"),
        (broken(data, ["game"], other_game), f"a snapshot of '{other_game}'"),
        (broken(data, ["players"], 4), "for 4 players"),
        (broken(data, ["options"], {"nonsense": 1}), "other options"),
        (broken(data, ["state"], KeyError), "no state"),
        (broken(data, ["state", "fields", first], KeyError), f"missing ['{first}']"),
        (broken(data, ["state", "fields", "intruder"], 1), "unexpected ['intruder']"),
        (broken(data, ["state", "@"], "builtins:object"), "not a class of this game's state"),
        (broken(data, ["state", "@"], "stammtisch.engine.snapshot:Nowhere"), "unknown class"),
        (broken(data, ["state", "fields", first], {"x": 1}), "expected a value"),
        (broken(data, ["state", "fields", first], {"@": "dict", "items": [[1]]}), "[key, value] pair"),
    ]
    for bad, message in cases:
        with pytest.raises(SnapshotError, match=re.escape(message)):
            game.from_json(bad)


@pytest.mark.parametrize("name", GAMES)
def test_a_snapshot_taken_before_an_option_was_added_or_renamed_still_loads(name: str) -> None:
    # a snapshot keeps the options as they were: an option added since (Learn to play's ``guide``) is
    # read as its default, an earlier name (Die Macher's ``data_file``, now ``edition``) as the option
    game = default_table(name)
    state = play_to(game, 2, 30)
    data = json.loads(json.dumps(game.to_json(state)))
    defaults = {o.name: o.default for o in game.option_schema}
    older = {k: v for k, v in data["options"].items() if k not in defaults or v != defaults[k]}
    for option in game.option_schema:
        if option.formerly:
            older.pop(option.name, None)
            older[option.formerly[0]] = data["options"][option.name]
    assert game.to_json(game.from_json({**data, "options": older})) == data
    for changed in [o for o in game.option_schema if isinstance(o.default, bool)]:  # a value that differs does not
        flipped = {**data["options"], changed.name: not data["options"][changed.name]}
        with pytest.raises(SnapshotError, match="other options"):
            game.from_json({**data, "options": flipped})


@pytest.mark.parametrize("name", GAMES)
def test_a_situation_changes_only_the_fields_named(name: str) -> None:
    game = default_table(name)
    state = play_to(game, 3, 40)
    places = snapshot_places(game, state)
    # a number of the last seat's (players.N.money, say), else any number outside the generator
    numbers = [path for path, value in places.items() if type(value) is int and not path.endswith(".#")
               and not path.startswith("chance.")]
    path = next((p for p in numbers if p.startswith(f"players.{game.num_players - 1}.")), numbers[0])
    value = places[path] + 7000
    changed = situation(game, state, {path: value})
    assert snapshot_places(game, changed) == {**places, path: value}
    parent, _dot, field = path.rpartition(".")
    lists = [p.removesuffix(".#") for p in places if p.endswith(".#")]
    bad = [f"{parent}.no_such_field" if parent else "no_such_field", f"{lists[0]}.999", f"{lists[0]}.x"]
    for wrong in bad:
        with pytest.raises(SnapshotError, match="no"):
            situation(game, state, {wrong: 1})


def test_a_state_holding_a_foreign_object_cannot_be_snapshotted() -> None:
    game = make_game("glueckauf", 2, {})
    state, _ = game.new_state(1)
    state.stats = {"x": object()}  # type: ignore[dict-item]
    with pytest.raises(SnapshotError, match="not part of this game's state"):
        game.to_json(state)
