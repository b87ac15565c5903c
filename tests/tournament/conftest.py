from __future__ import annotations

import dataclasses

import pytest

from stammtisch import registry
from stammtisch.tournament import play, schedule


@pytest.fixture
def three_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glück Auf with a third bot kind, ``lazy`` (one more random bot), for line-ups of a longer list."""
    spec = registry.game_spec("glueckauf")
    wider = dataclasses.replace(spec, bots={**spec.bots, "lazy": "stammtisch.bots.base:RandomBot"})

    def found(name: str) -> registry.GameSpec:
        return wider if name == "glueckauf" else registry.game_spec(name)

    monkeypatch.setattr(schedule, "game_spec", found)
    monkeypatch.setattr(play, "game_spec", found)
