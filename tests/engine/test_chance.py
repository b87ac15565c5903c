"""Chance (engine/chance.py) draws exactly as Python's ``random.Random`` does for the same seed: its
shuffle and choice are spelled out (so the compiled build runs them natively), and every game's
course depends on them staying equal (tests/conformance's golden digests)."""

from __future__ import annotations

import random

import pytest

from stammtisch.engine.chance import Chance


@pytest.mark.parametrize("seed", [0, 1, 7, 2**62 + 5])
def test_shuffle_and_choice_draw_as_random_does(seed: int) -> None:
    chance = Chance(seed)
    for draw in range(1, 60):
        items = list(range(draw % 40))
        expected = items[:]
        random.Random(seed * 1_000_003 + draw).shuffle(expected)
        if draw % 3 == 0 and items:
            assert chance.choice(items) == random.Random(seed * 1_000_003 + draw).choice(items)
        else:
            chance.shuffle(items)
            assert items == expected
    assert chance.draws == 59


def test_choice_of_nothing_is_an_error_and_still_counts_the_draw() -> None:
    chance = Chance(3)
    with pytest.raises(IndexError):
        chance.choice([])
    assert chance.draws == 1
