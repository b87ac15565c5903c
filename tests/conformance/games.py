"""The tables the conformance suite plays: every player count of every registered game with each of its
option sets, and the places of a snapshot (tests/conformance/hooks.py has what the suite needs of each
game)."""

from __future__ import annotations

import json
import random
from typing import Any

from stammtisch.engine.protocol import Game
from stammtisch.registry import game_class, games, make_game
from tests.conformance.hooks import hooks

GAMES = tuple(games())


def tables() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) for every player count and option set of every game."""
    result = []
    for name in GAMES:
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            result += [(name, players, options) for options in hooks(name).option_sets]
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
    """The values of each secret of ``state`` from ``seat`` (the game's ``hidden_places``), by name."""
    places = snapshot_places(game, state)
    return {name: sorted((path, value) for path, value in places.items() if under(path, prefixes))
            for name, prefixes in secret_places(game, state, seat).items()}


def secret_places(game: Game[Any], state: Any, seat: int) -> dict[str, list[str]]:
    hidden = hooks(game.name).hidden_places
    return hidden(game, state, seat) if hidden is not None else {}


def public_places(game: Game[Any], state: Any, seat: int) -> dict[str, Any]:
    """The snapshot places of ``state`` outside the secrets of ``seat``, the lists whose order does
    not matter as sorted lists: where a sample of the seat's knowledge must equal the true state."""
    places = snapshot_places(game, state)
    hidden = [path for paths in secret_places(game, state, seat).values() for path in paths]
    public = {path: value for path, value in places.items() if not under(path, hidden)}
    for path in hooks(game.name).unordered(state):
        items = [public.pop(place) for place in list(public) if place.rpartition(".")[0] == path
                 and place.rpartition(".")[2].isdigit()]
        if items:
            public[path] = sorted(items)
    return public

