"""The heuristic bots' playout views (games/<g>/view.py ``playout_view``; docs/bots.md, "Playouts"):
search playouts ask the heuristic bot from a cheaper part of the seat's view.  It must be a part of
that very view (nothing a seat may not know), and the bot must choose exactly as from the full view."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from stammtisch.registry import game_spec, make_game


def part_of(part: Any, whole: Any) -> bool:
    """Every value of ``part`` is the value at the same place in ``whole`` (dicts may leave keys out)."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and part_of(v, whole[k]) for k, v in part.items())
    if isinstance(part, list):
        return isinstance(whole, list) and len(part) == len(whole) and all(
            part_of(p, w) for p, w in zip(part, whole, strict=True))
    return bool(part == whole and type(part) is type(whole))


def test_part_of_can_fail() -> None:
    assert part_of({"a": [1, {}]}, {"a": [1, {"b": 2}], "c": 3})
    assert not part_of({"a": [1, 2]}, {"a": [1, 3]})
    assert not part_of({"a": {"b": 1}}, {"a": {}})
    assert not part_of([{}], [{}, {}])


@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("diemacher", 4), ("diemacher", 5),
                                               ("glueckauf", 2), ("glueckauf", 3), ("glueckauf", 4)])
def test_playout_view_is_part_of_the_view_and_the_bot_chooses_the_same(name: str, players: int) -> None:
    # Issue 11 (fairness, docs/bots.md): a playout move is decided from the seat's own view only.
    game, spec = make_game(name, players), game_spec(name)
    playout_view = importlib.import_module(f"stammtisch.games.{name}.view").playout_view
    for seed in (1, 2):
        state, _events = game.new_state(seed)
        players_bots = [spec.bot("heuristic", 10 + seat) for seat in range(players)]
        moves = 0
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            full = game.view(state, seat)
            fast = playout_view(game, state, seat)
            assert part_of(fast, full)
            assert all(entry == {} for s, entry in enumerate(fast["board"]["seats"]) if s != seat)
            # Two bots with the same seed: one decides from the full view, one in the sample.
            by_view = spec.bot("heuristic", moves).choose(full, legal)
            in_sample = spec.bot("heuristic", moves).choose_in_sample(game, state, seat, legal)  # type: ignore[attr-defined]
            assert by_view == in_sample
            game.apply(state, seat, players_bots[seat].choose(full, legal))
            moves += 1
        assert moves > 50
