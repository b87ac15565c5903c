"""The flow refactoring of issue #10 changes no behaviour: seeded random games give the same legal
actions, events and views at every step as before it (tests/conformance/golden.py); each game
supplies its cases and digests (``GOLDEN``, tests/conformance/hooks.py)."""

from __future__ import annotations

from typing import Any

import pytest

from stammtisch.registry import make_game
from tests.conformance.golden import play
from tests.conformance.hooks import golden_cases

CASES = golden_cases()


@pytest.mark.parametrize(("name", "case", "players", "options", "seeds", "digest"), CASES,
                         ids=[c[1] for c in CASES])
def test_random_game_matches_the_golden_master(name: str, case: str, players: int, options: dict[str, Any],
                                                seeds: tuple[int, ...], digest: str) -> None:
    # issue #10 "Declared flow": behaviour must not change
    assert play(make_game(name, players, options), seeds) == digest, f"{case}: the game now plays differently"
