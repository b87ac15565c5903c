"""Rates of the game-contract operations on a mid-game state of each game (issue #10).

    PYTHONPATH=src .venv/bin/python tools/measure_contract.py [seconds per figure]

Copies, resamples (for the seat to act), snapshot round-trips (to_json, JSON text and back,
from_json) and codec masks per second, each timed for about a second on one core.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from stammtisch.registry import make_game

TABLES = [("diemacher", 4, {}), ("diemacher", 5, {"elections": 7}), ("glueckauf", 3, {}), ("glueckauf", 4, {})]


def mid_game(name: str, players: int, options: dict[str, Any], seed: int = 7) -> tuple[Any, Any]:
    game = make_game(name, players, options)
    rng = random.Random(seed)
    state, _ = game.new_state(seed)
    length = 0
    probe = game.copy(state)
    while not game.is_over(probe):
        seat = rng.choice(game.to_act(probe))
        game.apply(probe, seat, rng.choice(game.legal_actions(probe, seat)))
        length += 1
    rng = random.Random(seed)
    for _ in range(length // 2):
        seat = rng.choice(game.to_act(state))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return game, state


def rate(work: Callable[[], object], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            work()
        count += 20
    return count / elapsed


def figures(name: str, players: int, options: dict[str, Any], seconds: float) -> list[float]:
    game, state = mid_game(name, players, options)
    seat = game.to_act(state)[0]
    codec = game.action_codec(players, options)
    rng = random.Random(1)
    return [
        rate(lambda: game.copy(state), seconds),
        rate(lambda: game.resample(state, seat, rng), seconds),
        rate(lambda: game.from_json(json.loads(json.dumps(game.to_json(state)))), seconds),
        rate(lambda: codec.mask(state, seat), seconds),
    ]


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print("| Game | Players | Options | Copies/s | Resamples/s | Snapshot round-trips/s | Masks/s |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name, players, options in TABLES:
        rates = figures(name, players, options, seconds)
        shown = ", ".join(f"{k} {v}" for k, v in options.items()) or "defaults"
        print(f"| {name} | {players} | {shown} | " + " | ".join(f"{f:,.0f}" for f in rates) + " |")


if __name__ == "__main__":
    main()
