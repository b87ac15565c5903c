"""Every event and action of Die Macher reads as a sentence (issue 2: events as readable lines)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stammtisch.engine.protocol import Action, Event
from stammtisch.engine.step import step
from stammtisch.games.diemacher import text
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import State
from stammtisch.games.diemacher.text import money
from tests.diemacher.helpers import random_decisions


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



# Issue 25 defect 3: every choice that costs or earns money, votes, rallies or points names its amount,
# worked out from the chooser's view; each such choice is taken here on a copy of the game and its label
# held against what the rules then did.
PRICED = {"buy_media", "rallies", "place", "pay", "buyout", "convert", "donation", "publish_poll", "bid", "raise",
          "poll_bid"}


def _check_label(game: DieMacher, state: State, seat: int, action: Action, label: str) -> None:
    after = game.copy(state)
    money_before, base_before = state.players[seat].money, state.players[seat].base
    events = step(game, after, seat, action)
    paid = money_before - after.players[seat].money
    kind = action[0]
    if kind == "pay":  # in the sealed order (G-13) the money goes only when every party has decided
        pos = game.from_election(state)[state.cursor]
        placed = next(p for p in state.boards[pos].row if p.seat == seat)
        cost = game.edition.politicians[placed.politician].cost
        assert money(cost) in label and paid in (0, cost), (label, paid)
    elif kind == "place":
        assert action[2] is None or money(game.edition.politicians[game.politician_index[action[2]]].cost) in label
    elif kind in ("buy_media", "rallies", "buyout"):
        assert money(paid) in label if paid else label.startswith("Organize no rallies"), (label, paid)
    elif kind in ("convert", "publish_poll"):
        event = next(e for e in events if e.kind in ("rallies_converted", "poll_published"))
        sentence = text.describe_event(event, game.view(after, seat), None)
        # the label's amounts read as the log's: "(6 − 1) × 3 = 15 votes", "SPD +2, CDU -1"
        assert label.split(": ", 1)[1].removeprefix("trends ") == sentence.split(": ", 1)[1], (label, sentence)
    elif kind == "donation":
        change = after.players[seat].base - base_before
        assert money(action[1]) in label, label
        assert label.endswith(f"party base {'+' if change > 0 else '−'}{abs(change)}") or change == 0, label
    else:  # a bid names what it bids
        assert money(action[1]) in label, label


@pytest.mark.parametrize("options", [{}, {"p6_pay_order": "simultaneous", "rally_trend_floor_general": False,
                                          "poll_apply_other_positive": True, "donation_accept_base_loss": [2, 0, 4]}])
def test_every_priced_choice_names_what_the_rules_then_charge_or_bring(options: dict[str, Any]) -> None:
    seen: set[str] = set()
    for seed in range(4):
        game = DieMacher(3 + seed % 3, {"elections": 7 if seed % 2 else 4, **options})
        state, _events = game.new_state(seed)
        for seat, legal in random_decisions(game, state, random.Random(seed)):
            view = game.view(state, seat)
            for action in legal:
                if action[0] in PRICED:
                    seen.add(action[0])
                    _check_label(game, state, seat, action, text.describe_action(action, view, None))
    assert seen == PRICED
