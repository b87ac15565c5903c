"""Golden master of the game flow (issue #10, "Declared flow": behaviour must not change).

Seeded random games are played for each case; at every step the legal actions of every seat to
act, the events and every seat's view (and the spectator's) are folded into one SHA-256 digest per
case.  ``python -m tests.conformance.golden`` rewrites the stored digests: run it only from code
whose behaviour is the reference.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.engine.step import step
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.glueckauf.rules import GlueckAuf

DIGESTS = Path(__file__).with_name("golden_digests.json")
VIEW_EVERY = 1  # views are folded in at every VIEW_EVERY-th step (and the last): the bound on running time
CHEAP_BIDS = ("bid", "raise", "poll_bid")  # mostly the lowest bids, so that ties and auctions happen

# (name, game class, players, options, seeds)
CASES: list[tuple[str, type[Game[Any]], int, dict[str, Any], tuple[int, ...]]] = [
    ("dm-3-default", DieMacher, 3, {}, (1, 101, 201)),
    ("dm-4-default", DieMacher, 4, {}, (2, 102, 202)),
    ("dm-5-default", DieMacher, 5, {}, (3, 103, 203)),
    ("dm-4-seven-elections", DieMacher, 4, {"elections": 7}, (4, 104, 204)),
    ("dm-3-seven-elections", DieMacher, 3, {"elections": 7}, (13, 113, 213)),
    ("dm-5-seven-elections", DieMacher, 5, {"elections": 7}, (5, 105, 205)),
    ("dm-4-strongest-chooses", DieMacher, 4, {"coalition_mode": "strongest_chooses_any_feasible",
                                              "win_threshold": 15}, (6, 106, 206)),
    ("dm-3-candidate-declines", DieMacher, 3, {"coalition_mode": "candidate_may_decline",
                                               "win_threshold": 20}, (7, 107, 207)),
    ("dm-4-honour-overbid", DieMacher, 4, {"overbid_mode": "honour_system_with_penalty"}, (8, 108, 208)),
    ("dm-5-honour-overbid", DieMacher, 5, {"overbid_mode": "honour_system_with_penalty",
                                           "money_unit": 500}, (9, 109, 209)),
    ("dm-4-simultaneous-pay", DieMacher, 4, {"p6_pay_order": "simultaneous", "open_money": True}, (10, 110, 210)),
    ("dm-3-alternatives", DieMacher, 3, {
        "tiebreak_open_order": "previous_start_player_clockwise", "poll_auction_first": "left_of_start_player",
        "bang_lock_scope": "state_game", "removed_board_media": "to_box", "force_convert_at_cap": True,
        "swap_out_to": "discard", "poll_apply_other_positive": True, "phase2_optional": False,
        "poll_no_bid": "stays_on_top", "unpublished_poll_public": True, "rally_trend_floor_general": False,
        "media_influencer_timing": "after_winner_moves", "no_coalition_winner_media": True,
        "poll_reshuffle": False, "opinion_reshuffle": False}, (11, 111, 211)),
    ("dm-4-seven-simultaneous", DieMacher, 4, {"elections": 7, "p6_pay_order": "simultaneous",
                                               "overbid_mode": "honour_system_with_penalty"}, (12, 112, 212)),
    ("ga-2", GlueckAuf, 2, {}, (21, 121, 221)),
    ("ga-3", GlueckAuf, 3, {}, (22, 122, 222)),
    ("ga-4", GlueckAuf, 4, {}, (23, 123, 223)),
    ("ga-2-open-delivered", GlueckAuf, 2, {"open_delivered": True, "count_printed_carts": False,
                                           "start_player": 1}, (24, 124, 224)),
    ("ga-4-start-player", GlueckAuf, 4, {"start_player": 3}, (25, 125, 225)),
]


def _events(events: list[Event]) -> list[Any]:
    return [[e.kind, dict(e.params), None if e.seats is None else list(e.seats)] for e in events]


def choose(rng: random.Random, legal: list[Action]) -> Action:
    """A random kind of action, then a random action of that kind (rare kinds get played too)."""
    kind = rng.choice(sorted({action[0] for action in legal}))
    actions = [action for action in legal if action[0] == kind]
    if kind in CHEAP_BIDS and rng.random() < 0.7:
        actions = actions[:2]
    return rng.choice(actions)


def play(game: Game[Any], seeds: tuple[int, ...]) -> str:
    """The digest of seeded random games (honour-system overbids included)."""
    digest = hashlib.sha256()
    for seed in seeds:
        _play(game, seed, digest)
    return digest.hexdigest()


def _play(game: Game[Any], seed: int, digest: Any) -> None:
    rng = random.Random(seed)
    seats: list[int | None] = [None, *range(game.num_players)]

    def fold(tag: str, data: Any) -> None:
        digest.update(tag.encode())
        digest.update(json.dumps(data, sort_keys=True, default=repr).encode())

    state, events = game.new_state(seed)
    count = 0
    while True:
        fold("events", _events(events))
        over = game.is_over(state)
        if count % VIEW_EVERY == 0 or over:
            for seat in seats:
                fold("view", game.view(state, seat))
        if over:
            fold("scores", game.scores(state))
            return
        to_act = game.to_act(state)
        fold("to_act", to_act)
        legal = {seat: game.legal_actions(state, seat) for seat in to_act}
        fold("legal", [[seat, legal[seat]] for seat in to_act])
        seat = rng.choice(to_act)
        events = step(game, state, seat, choose(rng, legal[seat]))
        count += 1


def digests() -> dict[str, str]:
    return {name: play(cls(n, options), seeds) for name, cls, n, options, seeds in CASES}


if __name__ == "__main__":
    DIGESTS.write_text(json.dumps(digests(), indent=1) + "\n")
    sys.stdout.write(f"wrote {DIGESTS}\n")
