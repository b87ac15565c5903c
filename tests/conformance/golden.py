"""Golden master of the game flow (issue #10, "Declared flow": behaviour must not change).

Seeded random games are played for each case; at every step the legal actions of every seat to
act, the events and every seat's view (and the spectator's) are folded into one SHA-256 digest per
case.  Each game supplies its cases and their digests (``GOLDEN`` in its conformance module,
tests/conformance/hooks.py); ``python -m tests.conformance.golden`` prints every case's digest as this
code plays it: copy one into the game's module only from code whose behaviour is the reference.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.engine.step import step
from stammtisch.registry import make_game
from tests.conformance.hooks import golden_cases, hooks

VIEW_EVERY = 1  # views are folded in at every VIEW_EVERY-th step (and the last): the bound on running time


def _events(events: list[Event]) -> list[Any]:
    return [[e.kind, dict(e.params), None if e.seats is None else list(e.seats)] for e in events]


def choose(rng: random.Random, legal: list[Action], cheap: tuple[str, ...]) -> Action:
    """A random kind of action, then a random action of that kind (rare kinds get played too); of the
    ``cheap`` kinds (the game's ``CHEAP_KINDS``) mostly one of the first two, the lowest bids."""
    kind = rng.choice(sorted({action[0] for action in legal}))
    actions = [action for action in legal if action[0] == kind]
    if kind in cheap and rng.random() < 0.7:
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

    cheap = hooks(game.name).cheap_kinds
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
        events = step(game, state, seat, choose(rng, legal[seat], cheap))
        count += 1


def digests() -> dict[str, str]:
    return {case: play(make_game(name, players, options), seeds)
            for name, case, players, options, seeds, _digest in golden_cases()}


if __name__ == "__main__":
    for case, digest in digests().items():
        sys.stdout.write(f"{case}: {digest}\n")
