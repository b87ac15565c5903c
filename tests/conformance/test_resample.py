"""Resampling hidden information (issue #10): a sample gives the seat the same view; equal views
give equal samples (the sampler reads nothing hidden); hidden parts vary; a sample is a legal
state that plays on to the end, conserving every piece."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stammtisch.engine.protocol import Game
from stammtisch.engine.step import step
from tests.conformance.games import HIDDEN_PARTS, INVARIANTS, SCRAMBLERS, new_table, play_to, table_id, tables

TABLES = tables()


def snap(game: Game[Any], state: Any) -> str:
    return json.dumps(game.to_json(state))


@settings(max_examples=60, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**31), moves=st.integers(0, 500),
       pick=st.integers(0, 4), a=st.integers(0, 2**31), b=st.integers(0, 2**31))
def test_a_sample_agrees_with_the_seat_and_reads_nothing_hidden(
        table: tuple[str, int, dict[str, Any]], seed: int, moves: int, pick: int, a: int, b: int) -> None:
    game = new_table(table)
    state = play_to(game, seed, moves)
    seat = pick % game.num_players
    before = snap(game, state)
    sample = game.resample(state, seat, random.Random(a))
    assert snap(game, state) == before, "resampling changed the original"
    # (1) the seat sees exactly what it saw
    assert game.view(sample, seat) == game.view(state, seat)
    # ... and its view decides its choices: the same legal actions in the sample
    assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
    # (2) a state that differs only in what the seat cannot see gives the same sample ...
    other = SCRAMBLERS[game.name](game, state, seat, random.Random(b))
    assert game.view(other, seat) == game.view(state, seat)
    assert snap(game, game.resample(other, seat, random.Random(a))) == snap(game, sample)
    # ... and so does another sample (whatever the sampler itself varies, it does not read)
    third = game.resample(state, seat, random.Random(b))
    assert snap(game, game.resample(third, seat, random.Random(a))) == snap(game, sample)
    # (4) the sample is a legal state: random legal play reaches the end, conserving every piece
    rng = random.Random(b)
    INVARIANTS[game.name](game, sample)
    while not game.is_over(sample):
        actor = rng.choice(game.to_act(sample))
        step(game, sample, actor, rng.choice(game.legal_actions(sample, actor)))
        INVARIANTS[game.name](game, sample)


VARIETY_TABLES = [t for t in TABLES if (t[1], t[2]) in ((3, {}), (4, {"elections": 7}), (2, {}), (4, {}))]


@pytest.mark.parametrize("table", VARIETY_TABLES, ids=table_id)
def test_every_hidden_part_varies_across_samples(table: tuple[str, int, dict[str, Any]]) -> None:
    # (3) the sampler draws every hidden part anew (somewhere in some game each part has choices:
    # random play delivers Glück Auf orders only now and then, so up to 40 games are played)
    game = new_table(table)
    parts = HIDDEN_PARTS[game.name]
    varied: set[str] = set()
    names: set[str] = {"none yet"}
    for seed in range(40):
        if varied == names:
            break
        names.discard("none yet")
        state, _ = game.new_state(seed)
        rng = random.Random(seed)
        moves = 0
        while not game.is_over(state):
            if moves % 7 == 0:
                seat = moves % game.num_players
                samples = [parts(game, game.resample(state, seat, random.Random(k)), seat) for k in range(6)]
                names |= set(samples[0])
                varied |= {name for name in samples[0] if len({repr(s[name]) for s in samples}) > 1}
            actor = rng.choice(game.to_act(state))
            step(game, state, actor, rng.choice(game.legal_actions(state, actor)))
            moves += 1
    assert varied == names
