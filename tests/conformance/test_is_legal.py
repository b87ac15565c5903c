"""``game.is_legal`` agrees with the legal list at every table (engine/step.py: the strict step asks it when
no list is given; a flow game's phases may answer it with ``allows``, engine/flow.py, without building the
list).  At every state of random games, for every seat: every legal action is allowed, and near misses
(actions legal elsewhere in the game, numbers off by one, values of another type, lists for tuples,
unknown kinds, the actions of another seat) are allowed exactly when they are in the list with
identical types (``True`` is not ``1``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from stammtisch.engine.protocol import Action, Game, IllegalAction
from stammtisch.engine.step import step
from stammtisch.registry import make_game
from tests.conformance.games import new_table, table_id, tables

TABLES = tables()
SEEDS = (21, 22, 23)
SAMPLE = 6  # legal actions per state whose near misses are tried
ELSEWHERE = 12  # actions legal earlier in the game tried per state


class TupleOfAnotherType(tuple[Any, ...]):
    """A tuple of another type: equal to the legal action, and not identical to it."""


def typed(value: Any) -> Any:
    """``value`` with the type of every part spelt out: equal exactly when identical in types all the way
    down (the test's own statement of what the strict step accepts)."""
    if isinstance(value, tuple | list):
        return (type(value), tuple(typed(item) for item in value))
    return (type(value), value)


def near_misses(action: Action) -> Iterator[Any]:
    """Candidates that differ from ``action`` by a little: one part changed, or its type."""
    yield list(action)
    yield TupleOfAnotherType(action)
    yield action[:-1]
    yield (*action, 0)
    yield (f"{action[0]}_", *action[1:])
    yield action[0]
    for i in range(1, len(action)):
        yield from (action[:i] + (other,) + action[i + 1:] for other in changed(action[i]))


def changed(value: Any) -> Iterator[Any]:
    if type(value) is int:
        yield from (value + 1, value - 1, float(value), str(value))
        if value in (0, 1):
            yield bool(value)
    elif type(value) is bool:
        yield int(value)
        yield not value
    elif type(value) is str:
        yield f"{value}x"
        yield None
    elif type(value) is tuple:
        yield list(value)
        for i in range(len(value)):
            yield from (value[:i] + (other,) + value[i + 1:] for other in changed(value[i]))
    elif value is None:
        yield 0


def check_is_legal(game: Game[Any], state: Any, rng: random.Random, elsewhere: list[Action]) -> None:
    lists = {seat: game.legal_actions(state, seat) for seat in range(game.num_players)}
    every = [action for legal in lists.values() for action in legal]
    for seat, legal in lists.items():
        for action in legal:
            assert game.is_legal(state, seat, action), (seat, action)
            assert game.is_legal(state, seat, tuple(list(action))), (seat, action)  # equal, not the same object
        candidates = [miss for action in rng.sample(every, min(SAMPLE, len(every))) for miss in near_misses(action)]
        candidates += rng.sample(elsewhere, min(ELSEWHERE, len(elsewhere)))
        candidates += every  # the other seats' actions
        candidates += [(), ("no such action",), None, 7]
        listed = [typed(action) for action in legal]
        for candidate in candidates:
            assert game.is_legal(state, seat, candidate) == (typed(candidate) in listed), (seat, candidate, legal)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_is_legal_answers_as_the_legal_list(table: tuple[str, int, dict[str, Any]]) -> None:
    game = new_table(table)
    for seed in SEEDS:
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        seen: dict[Any, Action] = {}
        while not game.is_over(state):
            check_is_legal(game, state, rng, list(seen.values()))
            seat = rng.choice(game.to_act(state))
            legal = game.legal_actions(state, seat)
            seen.update((typed(action), action) for action in legal)
            game.apply(state, seat, rng.choice(legal))
        check_is_legal(game, state, rng, list(seen.values()))  # the finished game allows nothing


def test_a_refused_action_is_worded_from_the_legal_list_and_changes_nothing() -> None:
    game = make_game("glueckauf", 2, {})
    state, _ = game.new_state(3)
    seat = game.to_act(state)[0]
    before = game.to_json(state)
    with pytest.raises(IllegalAction, match=r"\('draft', True\) is not legal now; legal kinds: draft"):
        step(game, state, seat, ("draft", True))
    assert game.to_json(state) == before
