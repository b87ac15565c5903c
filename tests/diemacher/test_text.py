"""Every event and action of Die Macher reads as a sentence (issue 2: events as readable lines)."""

from __future__ import annotations

import random

from stammtisch.engine.protocol import Event
from stammtisch.engine.step import step
from stammtisch.games.diemacher import text
from stammtisch.games.diemacher.rules import DieMacher


def test_the_conversion_sentence_of_the_issue() -> None:
    game = DieMacher(3, {"parties": ["SPD", "CDU", "FDP"]})
    state, _ = game.new_state(1)
    state.boards[1].card = next(i for i, s in enumerate(game.edition.states) if s.id == "NDS")
    event = Event("rallies_converted", {"seat": 0, "board": 1, "rallies": 8, "trend": 4, "base": 12, "matches": 3,
                                        "mult": 3, "votes": 36, "total": 40})
    sentence = text.describe_event(event, game.view(state, 0), None)
    assert sentence == "SPD converts 8 rallies in Niedersachsen: (8 + 4) × 3 = 36 votes"


def test_every_event_and_action_has_a_sentence() -> None:
    seen_events: set[str] = set()
    seen_actions: set[str] = set()
    options = [{}, {"coalition_mode": "candidate_may_decline", "p6_pay_order": "simultaneous"},
               {"coalition_mode": "strongest_chooses_any_feasible"}]
    for seed in range(18):
        game = DieMacher(3 + seed % 3, {"elections": 7 if seed % 2 else 4, **options[seed % 3]})
        state, events = game.new_state(seed)
        rng = random.Random(seed)
        while True:
            view = game.view(state, 0)
            for event in events:
                assert event.kind in text._EVENTS, event.kind
                seen_events.add(event.kind)
                text.describe_event(event, view, None)
            if game.is_over(state):
                break
            seat = rng.choice(game.to_act(state))
            legal = game.legal_actions(state, seat)
            seat_view = game.view(state, seat)
            for action in legal:
                assert action[0] in text._ACTIONS, action[0]
                seen_actions.add(action[0])
                assert text.describe_action(action, seat_view, None)
            events = step(game, state, seat, rng.choice(legal))
    assert {"election", "rallies_converted", "politician_action", "poll_published"} <= seen_events
    assert {"bid", "rallies", "place", "pay", "shift", "poll_bid", "convert", "donation"} <= seen_actions


def test_the_printed_phase_track_holds_every_phase_of_the_flow() -> None:
    """die-macher.md §3: every phase sits on one slot of the printed track, as its Phase declares; the
    track a client draws (describe) is built from those declarations, slots in printed order."""
    from stammtisch.games.diemacher.phases import FLOW
    from stammtisch.games.diemacher.view import TRACK

    game = DieMacher(3)
    assert all(phase.track in TRACK for phase in FLOW.phases.values())
    track = game.describe()["board"]["track"]
    assert [slot["slot"] for slot in track] == list(TRACK)
    assert [name for slot in track for name in slot["phases"]] == list(FLOW.phases)
    by_slot = {slot["slot"]: slot for slot in track}
    assert by_slot["5"] == {"slot": "5", "label": "5 Send Shadow Cabinet", "phases": ["cabinet"]}
    assert by_slot["9d"]["phases"] == [] and by_slot["9d"]["label"] == "9d Prepare for the next Game Round"
