"""Hints that say why (issue 30 item 2): the comparison part, the same for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stammtisch.bots.hints import Why, comparison, percent
from stammtisch.bots.ismcts import Estimate
from stammtisch.engine.step import step
from stammtisch.registry import game_spec, make_game


def test_values_are_given_as_the_browser_rounds_them() -> None:
    # app.js writes Math.round(100 * value): halves go up, where Python's round() would go to the even one
    assert [percent(v) for v in (0.625, 0.6249, 0.015, 1.0, 0.0)] == [63, 62, 2, 100, 0]


def test_the_comparison_names_the_best_and_the_runner_up() -> None:
    found = [Estimate(("a",), 24, 0.611), Estimate(("b",), 24, 0.58), Estimate(("c",), 24, 0.4)]
    assert comparison(found) == "Rated 61 of 100 against 58 for the next best move, over 24 simulated games"
    assert comparison(found[:1]) == "Rated 61 of 100 over 24 simulated games; no other move was compared"
    assert comparison([Estimate(("a",), 1, 0.5)]) == "Rated 50 of 100 over 1 simulated game; no other move was compared"


def test_the_line_puts_the_fact_first() -> None:
    assert Why("Bayern: your votes 3 → 9", "Rated 50 of 100").line() == "Bayern: your votes 3 → 9. Rated 50 of 100"
    assert Why(None, "Rated 50 of 100").line() == "Rated 50 of 100"


def test_a_favourite_kept_against_a_higher_mean_says_the_difference_was_too_close() -> None:
    # docs/bots.md, paired search: the policy's favourite stays first unless another move beats it clearly
    found = [Estimate(("a",), 13, 0.36), Estimate(("b",), 13, 0.60)]
    assert comparison(found) == ("Rated 36 of 100 against 60 for another move, too close over 13 simulated games to "
                                 "give up the bot's favourite")


@pytest.mark.parametrize(("name", "players", "options", "explained"), [
    ("diemacher", 4, {}, {"convert", "rallies", "buy_media"}),
    ("glueckauf", 3, {}, {"place", "fill", "cage", "load"}),
    ("glueckauf", 2, {"open_delivered": True}, {"fill", "cage", "load"}),
])
def test_every_choice_of_a_random_game_is_explained_or_left_alone(name: str, players: int, options: dict[str, Any],
                                                                  explained: set[str]) -> None:
    # every legal action at every decision, from the deciding seat's view: a line or None, never a failure
    game = make_game(name, players, options)
    text = game_spec(name).texts()
    rng = random.Random(5)
    state, _events = game.new_state(5)
    found: set[str] = set()
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        for action in legal:
            fact = text.explain_action(action, view, None)  # type: ignore[attr-defined]
            assert fact is None or (isinstance(fact, str) and fact)
            if fact:
                found.add(action[0])
        step(game, state, seat, rng.choice(legal))
    assert explained <= found
