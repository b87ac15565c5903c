"""A learned judge: each seat's final score fitted from self-play games (issue 27 item 4; docs/bots.md).

The game's judge (``games/<g>/judge.py``) estimates the final scores at a playout's cut-off by
rules of thumb.  The learned judge estimates them by a linear model per table size and stage (the
shift or round that has just begun), over features that each game's judge module reads from one
seat's **view** (``features(game, view)``): the seat's own entry and the public board, never
another seat's hidden cards.  In a search the view is that of a determinization the search drew
itself from its seat's knowledge, like everything the playouts see.

The weights are fitted by ``tools/train-judge`` (ridge regression with numpy) on games that noisy
heuristic bots play through the research adapter's table (``research/table.py``): at the first
position of every stage each seat's features are recorded with its final score.  They ship as
``games/<g>/data/learned-judge.json``; a table size or stage the file has no weights for is judged
by the game's own judge.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import import_module, resources
from typing import Any, cast

from stammtisch.bots.judges import Judge
from stammtisch.bots.noisy import NoisyBot, Preferring
from stammtisch.engine.protocol import Game

DATA = "learned-judge.json"
FORMAT = 1

Features = Callable[[Game[Any], dict[str, Any]], list[float]]


def game_module(name: str) -> Any:
    """``games/<name>/judge.py``: its ``JUDGE``, ``features`` and ``FEATURES`` (their names)."""
    return import_module(f"stammtisch.games.{name}.judge")


class LearnedJudge:
    """The fitted model's estimate where it has weights for the table and stage, else ``base``'s."""

    def __init__(self, base: Judge, features: Features, weights: dict[int, dict[int, list[float]]]) -> None:
        self.base = base
        self.features = features
        self.weights = weights  # players -> stage -> [intercept, one weight per feature]

    def stage(self, state: Any) -> int:
        return self.base.stage(state)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        weights = self.weights.get(game.num_players, {}).get(self.stage(state))
        if weights is None:
            return self.base.estimate(game, state)
        views = game.views(state, range(game.num_players))  # built together: their public part once
        return [predict(weights, self.features(game, views[seat])) for seat in range(game.num_players)]


def predict(weights: list[float], features: list[float]) -> float:
    # The builtin sum of a list, as in the pure build: mypyc makes sum() of a generator a plain loop,
    # and from Python 3.12 on the builtin sums floats with compensation (the builds would differ).
    return weights[0] + sum([w * x for w, x in zip(weights[1:], features, strict=True)])


@cache
def learned_judge(name: str) -> LearnedJudge | None:
    """The game's learned judge from its shipped weights; None if the game ships none."""
    module = game_module(name)
    source = resources.files(f"stammtisch.games.{name}") / "data" / DATA
    if not source.is_file():
        return None
    model = json.loads(source.read_text(encoding="utf-8"))
    if model["format"] != FORMAT or model["features"] != list(module.FEATURES):
        raise ValueError(f"{name}'s {DATA} was fitted to other features: run tools/train-judge {name}")
    weights = {int(players): {int(stage): list(w) for stage, w in stages.items()}
               for players, stages in model["weights"].items()}
    return LearnedJudge(module.JUDGE, module.features, weights)


# ---------------------------------------------------------------- training (tools/train-judge)


@dataclass(frozen=True, slots=True)
class Record:
    """One seat at the first position of a stage, with the score it ended the game with."""

    players: int
    stage: int
    features: list[float]
    final: float
    deal: int = 0  # the game's seed


def self_play(name: str, players: int, games: int, seed: int, temperature: float) -> Iterator[Record]:
    """Records of ``games`` games of noisy heuristic bots (``bots/noisy.py``) at the research
    adapter's table; game ``i`` is dealt from seed ``seed + i``."""
    from stammtisch.research.table import Table

    module = game_module(name)
    for i in range(games):
        table = Table(name, players)
        game = table.game
        rng = random.Random(seed + i)
        bots = [NoisyBot(cast(Preferring, table.spec.bot("heuristic", rng.getrandbits(32))), rng.getrandbits(32),
                         temperature) for _ in range(players)]
        state, _events = game.new_state(seed + i)
        seen: list[tuple[int, list[list[float]]]] = []
        stage = module.JUDGE.stage(state)
        while not game.is_over(state):
            if module.JUDGE.stage(state) != stage:
                stage = module.JUDGE.stage(state)
                seen.append((stage, [module.features(game, game.view(state, s)) for s in range(players)]))
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            game.apply(state, seat, bots[seat].choose(game.view(state, seat), legal))
        final = table.returns(state)
        for stage, rows in seen:
            for s, row in enumerate(rows):
                yield Record(players, stage, row, final[s], seed + i)


def fit(records: list[Record], ridge: float) -> dict[int, dict[int, list[float]]]:
    """Ridge regression of the final score on the features, one model per table size and stage
    (the intercept is not shrunk); features are scaled to unit spread while fitting.  Needs numpy
    (``pip install 'stammtisch[research]'``); the judge itself does not."""
    import numpy as np

    groups: dict[tuple[int, int], list[Record]] = {}
    for record in records:
        groups.setdefault((record.players, record.stage), []).append(record)
    weights: dict[int, dict[int, list[float]]] = {}
    for (players, stage), group in sorted(groups.items()):
        x = np.array([r.features for r in group], dtype=float)
        y = np.array([r.final for r in group], dtype=float)
        mean, spread = x.mean(axis=0), x.std(axis=0)
        spread[spread == 0] = 1.0
        z = (x - mean) / spread
        coef = np.linalg.solve(z.T @ z + ridge * len(y) * np.eye(z.shape[1]), z.T @ (y - y.mean()))
        slopes = coef / spread
        intercept = y.mean() - float(slopes @ mean)
        weights.setdefault(players, {})[stage] = [round(float(w), 6) for w in (intercept, *slopes)]
    return weights


def explained(weights: dict[int, dict[int, list[float]]], records: list[Record]) -> dict[str, float]:
    """Mean absolute error of the model on ``records`` (held-out games), per table and stage."""
    errors: dict[str, list[float]] = {}
    for r in records:
        w = weights.get(r.players, {}).get(r.stage)
        if w is not None:
            errors.setdefault(f"{r.players}p stage {r.stage}", []).append(abs(predict(w, r.features) - r.final))
    return {key: round(sum(e) / len(e), 2) for key, e in sorted(errors.items())}


def leaders(estimates: Callable[[Record], float], records: list[Record]) -> dict[str, float]:
    """How often the seat an estimate puts first is a final winner (ties in either: shared), per
    table and stage: what a search's win share reads of a judge."""
    tables: dict[tuple[int, int, int], list[Record]] = {}
    for r in records:
        tables.setdefault((r.players, r.stage, r.deal), []).append(r)
    hits: dict[str, list[float]] = {}
    for (players, stage, _deal), seats in sorted(tables.items()):
        guessed = [estimates(r) for r in seats]
        first = [i for i, g in enumerate(guessed) if g == max(guessed)]
        best = max(r.final for r in seats)
        share = sum(1 for i in first if seats[i].final == best) / len(first)
        hits.setdefault(f"{players}p stage {stage}", []).append(share)
    return {key: round(sum(h) / len(h), 3) for key, h in hits.items()}


def document(name: str, weights: dict[int, dict[int, list[float]]], how: dict[str, Any]) -> dict[str, Any]:
    """The data file's contents: format, feature names, how it was trained, the weights."""
    return {"format": FORMAT, "game": name, "features": list(game_module(name).FEATURES), "trained": how,
            "weights": {str(p): {str(s): w for s, w in stages.items()} for p, stages in weights.items()}}

