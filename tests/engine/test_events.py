"""Events (engine/protocol.py): an ``EventKind`` makes the same event as ``Event(kind, params)``, its
parameters made into a mapping only when read.  # issue #13 (cheap moves: events nobody reads)"""

from __future__ import annotations

import pytest

from stammtisch.engine.protocol import Event, EventKind

PLACED = EventKind("placed", "seat", "space", "workers")


def test_an_event_kind_makes_the_event_its_names_and_values_say() -> None:
    made = PLACED.event(2, "mine_3", 1)
    assert made == Event("placed", {"seat": 2, "space": "mine_3", "workers": 1})
    assert made.kind == "placed" and made.seats is None and made.visible_to(0)
    assert list(made.params) == ["seat", "space", "workers"]  # the declared order, as a dict display keeps it
    assert made.to_json() == {"kind": "placed", "params": {"seat": 2, "space": "mine_3", "workers": 1}}
    assert made.params is made.params  # made once, then kept


def test_a_private_event_kind_is_seen_only_by_its_seats() -> None:
    drawn = EventKind("drawn", "seat", "ids").event(1, [4, 7], seats=(1,))
    assert drawn.visible_to(1) and not drawn.visible_to(0) and not drawn.visible_to(None)
    assert drawn == Event("drawn", {"seat": 1, "ids": [4, 7]}, (1,))


def test_an_event_needs_a_value_for_every_name() -> None:
    with pytest.raises(TypeError, match=r"takes 3 values \(seat, space, workers\), not 2"):
        PLACED.event(2, "mine_3")


def test_an_event_without_parameters_has_an_empty_mapping() -> None:
    assert Event("game_over").params == {} and Event("game_over") == Event("game_over", {})
