"""Declared table options (engine/options.py): every option has a type and a range, errors name the
option in the reader's language, and every table the schema accepts can be played to its end
(issue #9, "a table that cannot be played must never be created")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stammtisch import i18n
from stammtisch.engine.options import Option, OptionError, check_options, server_files
from stammtisch.engine.step import step
from stammtisch.registry import game_class, games, make_game


def test_every_option_is_declared_with_a_label_spec_and_valid_default() -> None:
    for name in games():
        cls = game_class(name)  # a game may declare none
        for option in cls.option_schema:
            assert option.label and option.spec, option.name
            assert option.kind in (bool, int, str, list), option.name
            if option.kind is int and option.choices is None:
                assert option.low is not None and option.high is not None, option.name  # a range, always
            default = check_options([option], {})[option.name]
            if default is not None:
                assert option.check(default) == default, option.name
        defaults = cls(cls.min_players).options
        assert set(defaults) == {o.name for o in cls.option_schema}


@pytest.mark.parametrize("value", [1.0, True, "3", 2**64, -1, 1001, None, [3]])
def test_a_number_outside_its_range_is_refused_by_name(value: Any) -> None:
    option = Option("win_threshold", int, 50, "Votes needed to win a state", "C-17", low=1, high=1000)
    with pytest.raises(OptionError, match="win_threshold") as error:
        option.check(value)
    assert error.value.option == "win_threshold"


def test_an_option_given_by_its_former_name_counts_as_given_by_its_name() -> None:
    # issue 28: a renamed option (Die Macher's data_file, now edition) still reads records written before
    edition = Option("edition", str, None, "Edition data file", "M-01", nullable=True, server_file=True,
                     formerly=("data_file",))
    assert check_options([edition], {"data_file": "a.json"}) == {"edition": "a.json"}
    assert check_options([edition], {"data_file": "a.json", "edition": "b.json"}) == {"edition": "b.json"}
    assert server_files([edition]) == {"edition", "data_file"}  # refused from the network by either name
    with pytest.raises(OptionError, match="data_files"):
        check_options([edition], {"data_files": "a.json"})


def test_errors_are_translated_and_name_the_option() -> None:
    schema = [Option("money_unit", int, 1000, "Smallest bid step in euros", "G-17", choices=(100, 500, 1000))]
    with i18n.using_language("de"), pytest.raises(OptionError) as error:
        check_options(schema, {"money_unit": 2**62})
    assert "Tischoption money_unit" in str(error.value)
    with i18n.using_language("pl"), pytest.raises(OptionError) as error:
        check_options(schema, {"money_units": 1})
    assert "nieznana opcja stołu" in str(error.value) and "money_units" in str(error.value)


@pytest.mark.parametrize(("game", "players", "options", "name"), [
    ("glueckauf", 2, {"start_player": 1.0}, "start_player"),  # issue #9: stalled at move 0
    ("glueckauf", 2, {"start_player": 2}, "start_player"),
    ("diemacher", 3, {"base_floor": -(2**40), "donation_accept_base_loss": [2**40] * 3}, "donation_accept_base_loss"),
    ("diemacher", 3, {"base_floor": -(2**40)}, "base_floor"),
    ("diemacher", 3, {"money_unit": 2**62, "overbid_mode": "honour_system_with_penalty"}, "money_unit"),
    ("diemacher", 3, {"parties": ["SPD", "SPD", "CDU"]}, "parties"),
    ("diemacher", 3, {"parties": ["SPD", "CDU", "CSU"]}, "parties"),
])
def test_games_refuse_tables_that_cannot_be_played(game: str, players: int, options: dict[str, Any],
                                                   name: str) -> None:
    with pytest.raises(OptionError, match=name):
        make_game(game, players, options)


def values(option: Option, players: int) -> st.SearchStrategy[Any]:
    """Every value the option's declaration accepts."""
    if option.name == "parties":
        return st.permutations(list(option.choices or ())).map(lambda p: p[:players]) | st.none()
    if option.name == "start_player":
        return st.integers(0, players - 1) | st.none()
    if option.kind is list:
        return st.lists(st.integers(option.low, option.high), min_size=option.length, max_size=option.length)
    if option.choices is not None:
        found: st.SearchStrategy[Any] = st.sampled_from(option.choices)
    elif option.kind is bool:
        found = st.booleans()
    else:
        found = st.integers(option.low, option.high)
    return found | st.none() if option.nullable else found


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(games())))
    cls = game_class(name)
    players = draw(st.integers(cls.min_players, cls.max_players))
    offered = [o for o in cls.option_schema if not o.server_file]
    chosen = draw(st.lists(st.sampled_from(offered), unique_by=lambda o: o.name)) if offered else []
    return name, players, {o.name: draw(values(o, players)) for o in chosen}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**31))
def test_every_accepted_table_plays_to_its_end(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    name, players, options = table
    game = make_game(name, players, options)
    state, _ = game.new_state(seed)
    rng = random.Random(seed)
    for _move in range(20_000):
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        assert legal, (name, players, options, seat)
        step(game, state, seat, rng.choice(legal))
    assert game.is_over(state)
    game.view(state, None)
