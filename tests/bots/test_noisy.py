"""The noisy heuristic (bots/noisy.py): a softmax over the heuristic bot's own preferences, a
reference opponent the search bots' heuristic playouts cannot predict (issue 27 item 3)."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

from stammtisch.bots.base import decide
from stammtisch.bots.noisy import NoisyBot, softmax
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Action
from stammtisch.registry import game_spec, make_game
from stammtisch.tournament import outside

CHI2_3DF_999 = 16.266  # chi-square quantile 0.999 for 3 degrees of freedom (tables)


class Fixed:
    """A heuristic with preferences known in advance, one per legal action."""

    def __init__(self, preferences: list[float]) -> None:
        self.given = preferences

    def preferences(self, view: dict[str, Any], legal: list[Action]) -> list[float]:
        return self.given


def test_softmax_by_hand() -> None:
    # exp(0), exp(-1), exp(-2) over their sum 1.503215: 0.665241, 0.244728, 0.090031.
    assert softmax([2.0, 1.0, 0.0], 1.0) == pytest.approx([0.665241, 0.244728, 0.090031], abs=1e-6)
    assert softmax([2.0, 1.0, 0.0], 2.0)[0] < softmax([2.0, 1.0, 0.0], 1.0)[0]  # hotter: flatter
    assert softmax([0.0, 3.0, 3.0], 0.0) == [0.0, 1.0, 0.0]


def test_the_choices_follow_the_softmax_of_the_preferences() -> None:
    preferences = [2.0, 1.0, 0.0, -1.0]
    legal: list[Action] = [("a",), ("b",), ("c",), ("d",)]
    bot = NoisyBot(Fixed(preferences), seed=2027, temperature=1.5)
    draws = 20_000
    counts = Counter(bot.choose({}, legal) for _draw in range(draws))
    expected = [draws * p for p in softmax(preferences, 1.5)]
    chi2 = sum((counts[action] - e) ** 2 / e for action, e in zip(legal, expected, strict=True))
    assert chi2 < CHI2_3DF_999
    # Not merely the favourite, not uniform: the order of the counts is the order of the preferences.
    assert counts[("a",)] > counts[("b",)] > counts[("c",)] > counts[("d",)] > 0


@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_the_noisy_bot_plays_whole_games_of_legal_actions(name: str, players: int) -> None:
    spec, game = game_spec(name), make_game(name, players)
    bots = [outside.bot(spec, "noisy", seat) for seat in range(players)]
    assert all(isinstance(bot, NoisyBot) for bot in bots)
    match = Match(game, 5)
    moves = 0
    while not match.is_over():
        seat = match.to_act()[0]
        action = decide(bots[seat], game, match.state, seat)
        assert action in game.legal_actions(match.state, seat)
        match.act(seat, action)  # the strict step: raises on an illegal action
        moves += 1
    assert moves > 50


def moves_of(name: str, players: int, seed: int, count: int = 120) -> list[Action]:
    spec, game = game_spec(name), make_game(name, players)
    bots = [outside.bot(spec, "noisy", seed * 10 + seat) for seat in range(players)]
    match = Match(game, 3)
    played = []
    while not match.is_over() and len(played) < count:
        seat = match.to_act()[0]
        action = decide(bots[seat], game, match.state, seat)
        match.act(seat, action)
        played.append(action)
    return played


@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_the_noisy_bot_is_reproducible_from_its_seed(name: str, players: int) -> None:
    assert moves_of(name, players, 1) == moves_of(name, players, 1)
    assert moves_of(name, players, 1) != moves_of(name, players, 2)


@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_the_preferences_are_the_heuristics_own(name: str, players: int) -> None:
    # The heuristic's move is one of those it prefers most, so a cold softmax plays the heuristic.
    spec, game = game_spec(name), make_game(name, players)
    rng = random.Random(11)
    match = Match(game, 9)
    checked = 0
    while not match.is_over() and checked < 150:
        seat = match.to_act()[0]
        legal = game.legal_actions(match.state, seat)
        view = game.view(match.state, seat)
        heuristic = spec.bot("heuristic", 4)
        preferences = heuristic.preferences(view, legal)  # type: ignore[attr-defined]
        assert len(preferences) == len(legal) and all(math.isfinite(p) for p in preferences)
        chosen = heuristic.choose(view, legal)
        if len(legal) > 1:
            assert preferences[legal.index(chosen)] == pytest.approx(max(preferences), abs=2e-3)
            checked += 1
        match.act(seat, legal[rng.randrange(len(legal))])
    assert checked >= 50
