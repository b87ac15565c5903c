"""Every registered game's declaration (issue #10: "Registry", "One view envelope", "One text
interface"): its spec, its options schema, its describe() and the envelope of every view."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from stammtisch import i18n
from stammtisch.bots.base import decide
from stammtisch.engine.flow import AUTOMATIC, SEALED, SEQUENTIAL, FlowGame
from stammtisch.engine.options import Option, check_options
from stammtisch.engine.view import ENVELOPE
from stammtisch.i18n import using_language
from stammtisch.registry import GameSpec, UnknownGame, game_spec, games
from tests.conformance.games import new_table, play_to, table_id, tables

SPECS = sorted(games())
ROOT = Path(__file__).parents[2]


def test_every_game_folder_is_registered_by_an_entry_point() -> None:
    """pyproject.toml registers each game folder's spec, so an installed copy finds them (registry.py)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["stammtisch.games"]
    folders = {p.parent.name for p in (ROOT / "src/stammtisch/games").glob("*/spec.py")}
    assert declared == {name: f"stammtisch.games.{name}.spec:SPEC" for name in folders}
    assert folders <= set(SPECS)  # and games installed from other distributions (examples/)
    assert {table[0] for table in tables()} == set(SPECS)  # the conformance suite plays every registered game


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess'; choose one of " + ", ".join(SPECS)):
        game_spec("chess")


@pytest.mark.parametrize("name", SPECS)
def test_the_spec_declares_everything(name: str) -> None:
    spec = game_spec(name)
    assert isinstance(spec, GameSpec) and spec.name == name == spec.game.name
    assert spec.min_players <= spec.default_players <= spec.max_players
    text = spec.texts()
    assert callable(text.describe_event) and callable(text.describe_action)
    terminal = spec.terminal_module()
    assert callable(terminal.render_view) and callable(terminal.render_final)
    assert (spec.static_folder() / spec.browser).is_file()
    assert "random" in spec.bot_kinds() and spec.default_bot() in spec.bot_kinds()
    for players, options in spec.bench_tables():
        spec.make(players, options)  # the bench tables are valid tables
    with pytest.raises(ValueError, match="unknown bot kind 'nosuchbot'"):
        spec.bot("nosuchbot", 1)


@pytest.mark.parametrize("name", SPECS)
def test_the_options_schema(name: str) -> None:
    schema = game_spec(name).options
    assert all(isinstance(option, Option) for option in schema)
    names = [option.name for option in schema]
    assert len(names) == len(set(names))
    assert check_options(schema, {}).keys() == set(names)  # every default is a valid value
    with using_language("de"):
        published = [option.to_json() for option in schema]
    json.dumps(published)
    assert all(entry["label"] for entry in published)


@pytest.mark.parametrize("name", SPECS)
def test_bots_choose_legal_actions_from_what_their_seat_knows(name: str) -> None:
    spec = game_spec(name)
    game = spec.make(spec.default_players)
    state = play_to(game, 5, 20)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    for kind in spec.bot_kinds():
        assert decide(spec.bot(kind, 3), game, state, seat, legal) in legal  # views or resampled knowledge


@pytest.mark.parametrize("table", tables(), ids=table_id)
def test_views_share_one_envelope_and_describe_never_changes(table: tuple[str, int, dict[str, Any]]) -> None:
    """engine/view.py: the same top-level keys for every game; describe() constant over a game and JSON."""
    game = new_table(table)
    described = game.describe()
    assert json.loads(json.dumps(described)) == described
    assert {"game", "players", "phases", "board"} <= set(described)
    phases = {phase["name"] for phase in described["phases"]}
    assert all(phase["kind"] in (SEQUENTIAL, SEALED, AUTOMATIC) and phase["label"] for phase in described["phases"])
    state, _ = game.new_state(7)
    rng = random.Random(7)
    seen: set[str] = set()
    while True:
        for seat in [None, *range(game.num_players)]:
            view = game.view(state, seat)
            assert tuple(view) == ENVELOPE
            assert (view["game"], view["seat"], view["players"]) == (game.name, seat, game.num_players)
            assert view["to_act"] == game.to_act(state)
            assert view["phase"] in phases
            seen.add(view["phase"])
            if game.is_over(state):
                assert view["decision"] is None
                assert view["final"]["scores"] == game.scores(state)
                assert view["final"]["winners"] == game.winners(state)
            else:
                assert view["final"] is None
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if rng.random() < 0.05:
            assert game.describe() == described
    assert game.describe() == described
    assert "over" in seen


@pytest.mark.parametrize("name", [name for name in SPECS if issubclass(game_spec(name).game, FlowGame)])
def test_described_phases_are_the_declared_flow(name: str) -> None:
    """issue #10 "Declared flow": the phase track clients show is the flow the game runs, each phase
    with its declared label and kind, in declaration order, then the finished game."""
    spec = game_spec(name)
    game = spec.make(spec.min_players)
    assert isinstance(game, FlowGame)
    with using_language("de"):
        described = game.describe()["phases"]
        labels = {name: i18n._(label) for name, label in game.flow.labels().items()}
    declared = [*game.flow.phases.values()]
    assert [p["name"] for p in described] == [p.name for p in declared] + [game.flow.over]
    assert [p["kind"] for p in described[:-1]] == [p.kind for p in declared]
    assert [p["track"] for p in described[:-1]] == [p.track for p in declared]
    assert {p["name"]: p["label"] for p in described} == labels
