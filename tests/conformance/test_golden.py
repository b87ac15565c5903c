"""The flow refactoring of issue #10 changes no behaviour: seeded random games give the same legal
actions, events and views at every step as before it (tests/conformance/golden.py)."""

from __future__ import annotations

import json

import pytest

from tests.conformance.golden import CASES, DIGESTS, play


@pytest.mark.parametrize(("name", "cls", "players", "options", "seeds"), CASES, ids=[c[0] for c in CASES])
def test_random_game_matches_the_golden_master(name: str, cls: type, players: int, options: dict,
                                                seeds: tuple[int, ...]) -> None:
    # issue #10 "Declared flow": behaviour must not change
    stored = json.loads(DIGESTS.read_text())
    assert play(cls(players, options), seeds) == stored[name], f"{name}: the game now plays differently"
