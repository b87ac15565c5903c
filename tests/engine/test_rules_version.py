"""Records name their game's rules version (GameSpec.rules_version); a record of another version
replays only where these rules declare they replay it exactly, else fails naming both versions
(issue 16: "a record from an older rules version fails clearly" — never a wrong state)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from stammtisch import registry
from stammtisch.engine.match import Match, replay
from stammtisch.engine.record import RulesVersionError, parse_record
from stammtisch.registry import make_game


def played(game: str, players: int, moves: int = 40) -> Match:
    match = Match(make_game(game, players), seed=16)
    rng = random.Random(16)
    for _ in range(moves):
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
    return match


@pytest.mark.parametrize(("game", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_a_record_names_the_rules_version_it_was_played_under(game: str, players: int) -> None:
    match = played(game, players)
    record = parse_record(match.record.dumps())
    assert record.header.rules_version == registry.game_spec(game).rules_version
    assert '"rules_version": 1' in match.record.dumps().splitlines()[0]
    *_, (last, *_rest) = replay(record, make_game)
    assert last.view(0) == match.view(0)


@pytest.mark.parametrize(("game", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_a_record_of_rules_this_release_cannot_replay_fails_naming_both_versions(
        game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = played(game, players).record.dumps()
    newer = dataclasses.replace(registry.game_spec(game), rules_version=2)  # the rules changed since
    monkeypatch.setattr(registry, "game_spec", lambda name: newer)
    with pytest.raises(RulesVersionError, match="rules version 1.*rules version 2"):
        list(replay(parse_record(text), make_game))


def test_a_record_of_a_version_the_rules_declare_they_replay_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    match = played("glueckauf", 2)
    text = match.record.dumps()
    newer = dataclasses.replace(registry.game_spec("glueckauf"), rules_version=2, replays=frozenset({1}))
    monkeypatch.setattr(registry, "game_spec", lambda name: newer)
    *_, (last, *_rest) = replay(parse_record(text), make_game)
    assert last.view(1) == match.view(1)


def test_a_record_written_before_versions_were_named_is_read_as_version_1() -> None:
    lines = played("diemacher", 3, moves=10).record.dumps().splitlines()
    lines[0] = lines[0].replace('"rules_version": 1, ', "")
    record = parse_record("\n".join(lines))
    assert record.header.rules_version == 1
    assert len(list(replay(record, make_game))) == 11
