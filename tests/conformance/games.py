"""The games the conformance suite runs, with what it needs of each: the tables to play (every
player count with several option sets), the game's invariants and a way to change what one seat
cannot see.  The games come from the registry (registry.py); each needs its entries here."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from test_properties import check_conservation as glueckauf_conservation  # tests/glueckauf (see conftest.py)

from stammtisch.engine.protocol import Game
from stammtisch.registry import game_class, games, make_game
from tests.conformance.hidden import (
    diemacher_hidden_places,
    diemacher_unordered,
    glueckauf_hidden_places,
    glueckauf_unordered,
    scramble_diemacher,
    scramble_diemacher_secrets,
    scramble_glueckauf,
    scramble_glueckauf_secrets,
)
from tests.diemacher.test_properties import check_invariants as diemacher_invariants

GAMES = tuple(games())

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "diemacher": [
        {},
        {"elections": 7},
        {"overbid_mode": "honour_system_with_penalty", "p6_pay_order": "simultaneous", "open_money": True,
         "coalition_mode": "candidate_may_decline", "poll_no_bid": "stays_on_top"},
    ],
    "glueckauf": [
        {},
        {"open_delivered": True, "count_printed_carts": False},
    ],
}


INVARIANTS: dict[str, Callable[[Any, Any], None]] = {
    "diemacher": diemacher_invariants,
    "glueckauf": glueckauf_conservation,  # glueck-auf.md Components
}

# Change what a seat's view does not show (its secrets and what only the public record shows) ...
SCRAMBLERS: dict[str, Callable[[Any, Any, int, random.Random], Any]] = {
    "diemacher": scramble_diemacher,
    "glueckauf": scramble_glueckauf,
}
# ... and only what the seat cannot know even from the public record: its secrets.
SECRET_SCRAMBLERS: dict[str, Callable[[Any, Any, int, random.Random], Any]] = {
    "diemacher": scramble_diemacher_secrets,
    "glueckauf": scramble_glueckauf_secrets,
}


def tables() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) for every player count and option set of every game."""
    result = []
    for name in GAMES:
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            result += [(name, players, options) for options in OPTION_SETS[name]]
    return result


def table_id(table: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = table
    return f"{name}-{players}-{'+'.join(sorted(options)) or 'defaults'}"


def new_table(table: tuple[str, int, dict[str, Any]]) -> Game[Any]:
    name, players, options = table
    return make_game(name, players, options)


def play_to(game: Game[Any], seed: int, moves: int) -> Any:
    """The state after up to ``moves`` uniformly random legal moves (fewer if the game ends)."""
    state, _ = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def snapshot_places(game: Game[Any], state: Any) -> dict[str, Any]:
    """Every leaf of a state's snapshot by its dotted path (``players.2.hand.0``), with each list's
    length under ``PATH.#``."""
    places: dict[str, Any] = {}
    _flatten(game.to_json(state)["state"], "", places)
    return places


def _flatten(node: Any, path: str, places: dict[str, Any]) -> None:
    if isinstance(node, dict) and "fields" in node:
        for name, value in node["fields"].items():
            _flatten(value, f"{path}.{name}" if path else name, places)
        return
    if isinstance(node, dict) and node.get("@") == "tuple":
        node = node["items"]
    if isinstance(node, list):
        places[f"{path}.#"] = len(node)
        for i, value in enumerate(node):
            _flatten(value, f"{path}.{i}", places)
        return
    places[path] = json.dumps(node, sort_keys=True) if isinstance(node, dict) else node


def under(path: str, prefixes: list[str]) -> bool:
    return any(path == p or path.startswith(p + ".") for p in prefixes)


def hidden_parts(game: Game[Any], state: Any, seat: int) -> dict[str, Any]:
    """The values of each secret of ``state`` from ``seat`` (HIDDEN_PLACES), by name."""
    places = snapshot_places(game, state)
    return {name: sorted((path, value) for path, value in places.items() if under(path, prefixes))
            for name, prefixes in HIDDEN_PLACES[game.name](game, state, seat).items()}


def public_places(game: Game[Any], state: Any, seat: int) -> dict[str, Any]:
    """The snapshot places of ``state`` outside the secrets of ``seat``, the lists whose order does
    not matter as sorted lists: where a sample of the seat's knowledge must equal the true state."""
    places = snapshot_places(game, state)
    hidden = [path for paths in HIDDEN_PLACES[game.name](game, state, seat).values() for path in paths]
    public = {path: value for path, value in places.items() if not under(path, hidden)}
    for path in UNORDERED[game.name](state):
        items = [public.pop(place) for place in list(public) if place.rpartition(".")[0] == path
                 and place.rpartition(".")[2].isdigit()]
        if items:
            public[path] = sorted(items)
    return public


# What one seat cannot know, as the places of the snapshot that hold it (tests/conformance/hidden.py).
HIDDEN_PLACES: dict[str, Callable[[Any, Any, int], dict[str, list[str]]]] = {
    "diemacher": diemacher_hidden_places,
    "glueckauf": glueckauf_hidden_places,
}
UNORDERED: dict[str, Callable[[Any], list[str]]] = {
    "diemacher": diemacher_unordered,
    "glueckauf": glueckauf_unordered,
}
