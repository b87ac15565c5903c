"""The games the conformance suite runs, with what it needs of each: the tables to play (every
player count with several option sets), the game's invariants and a way to change what one seat
cannot see.  The games come from the registry (engine/registry.py); each needs its entries here."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from test_properties import check_conservation as glueckauf_conservation  # tests/glueckauf (see conftest.py)

from stammtisch.engine.protocol import Game
from stammtisch.engine.registry import games
from stammtisch.games import game_class, make_game
from tests.conformance.hidden import scramble_diemacher, scramble_glueckauf
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

SCRAMBLERS: dict[str, Callable[[Any, Any, int, random.Random], Any]] = {
    "diemacher": scramble_diemacher,
    "glueckauf": scramble_glueckauf,
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


def _diemacher_parts(game: Any, state: Any, seat: int) -> dict[str, Any]:
    others = [s for s in range(game.num_players) if s != seat]
    parts = {
        "program_deck": state.program_deck,
        "opinion_deck": state.opinion_deck,
        "face_down_opinions": [[c for c, up in zip(b.opinions, b.face_up, strict=True) if not up]
                               for b in state.boards],
        "poll_deck": state.poll_deck,
        "other_hands": [sorted(state.players[s].hand) for s in others],
        "other_draft_hands": [sorted(h) for s, h in enumerate(state.draft_hands) if s != seat],
        "other_politicians": [(state.players[s].politicians, [p for b in state.boards for p in b.row if p.seat == s])
                              for s in others],
        "other_donations": [state.players[s].donations for s in others],
    }
    if not game.options["open_money"]:
        parts["other_money"] = [state.players[s].money for s in others]
    if game.long_game:
        parts["future_states"] = state.future_states
    return parts


def _glueckauf_parts(game: Any, state: Any, seat: int) -> dict[str, Any]:
    parts = {"tile_stack": state.tile_stack, "order_deck": state.order_deck,
             "other_drawn": state.drawn if state.current != seat else None}
    if not game.options["open_delivered"]:
        parts["other_delivered"] = [p.delivered for s, p in enumerate(state.players) if s != seat]
    return parts


# The hidden parts of a state as seen from a seat: each must vary across samples somewhere in a game.
HIDDEN_PARTS: dict[str, Callable[[Any, Any, int], dict[str, Any]]] = {
    "diemacher": _diemacher_parts,
    "glueckauf": _glueckauf_parts,
}
