"""Game records as JSON lines: a header (game, players, options, seed, engine version), then
one line per action.  Replaying a record reproduces every state exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from stammtisch.engine.protocol import Action, Seat
from stammtisch.files import write_private

ENGINE_VERSION = "1"


class CorruptRecord(ValueError):
    """A record that cannot be read or replayed; the message names the line."""


class RulesVersionError(CorruptRecord):
    """A record played under rules this release cannot replay exactly; the message names both versions."""


def action_to_json(action: Action) -> list[Any]:
    return [action_to_json(x) if isinstance(x, tuple) else x for x in action]


def action_from_json(data: Any) -> Action:
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"an action is a list starting with its name, not {data!r}")
    return tuple(_tuplify(x) for x in data)


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(y) for y in x) if isinstance(x, list) else x


@dataclass
class Header:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    names: list[str] = field(default_factory=list)
    engine_version: str = ENGINE_VERSION
    rules_version: int = 1  # the game's rules (GameSpec.rules_version); records before it was named: 1

    def to_json(self) -> dict[str, Any]:
        return {
            "record": "stammtisch",
            "engine_version": self.engine_version,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "names": self.names,
        }


@dataclass
class Record:
    header: Header
    moves: list[tuple[Seat, Action]] = field(default_factory=list)
    # Moves a stand-in made for an absent player (index in moves → the stand-in's bot kind); issue 15.
    standins: dict[int, str] = field(default_factory=dict)

    def dumps(self) -> str:
        lines = [json.dumps(self.header.to_json(), ensure_ascii=False)]
        for n, (s, a) in enumerate(self.moves):
            line: dict[str, Any] = {"seat": s, "action": action_to_json(a)}
            if n in self.standins:
                line["standin"] = self.standins[n]
            lines.append(json.dumps(line))
        return "\n".join(lines) + "\n"

    def save(self, path: Path) -> None:
        write_private(path, self.dumps())


def parse_record(stream: TextIO | str) -> Record:
    text = stream if isinstance(stream, str) else stream.read()
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise CorruptRecord("the record is empty")
    header = _parse_header(*lines[0])
    record = Record(header)
    for number, line in lines[1:]:
        try:
            data = json.loads(line)
            seat, action = data["seat"], action_from_json(data["action"])
            if not isinstance(seat, int):
                raise ValueError("seat is not a number")
        except (ValueError, KeyError, TypeError) as error:
            raise CorruptRecord(f"line {number}: not a move ({error})") from None
        if isinstance(data.get("standin"), str):
            record.standins[len(record.moves)] = data["standin"]
        record.moves.append((seat, action))
    return record


def _parse_header(number: int, line: str) -> Header:
    try:
        data = json.loads(line)
        if data.get("record") != "stammtisch":
            raise ValueError("not a Stammtisch record")
        return Header(
            game=str(data["game"]),
            players=int(data["players"]),
            options=dict(data.get("options") or {}),
            seed=int(data["seed"]),
            names=list(data.get("names") or []),
            engine_version=str(data.get("engine_version", "?")),
            rules_version=int(data.get("rules_version", 1)),
        )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise CorruptRecord(f"line {number}: not a record header ({error})") from None


def rules_version(game: str) -> int:
    """The rules version this release plays ``game`` by (1 for a game no spec declares)."""
    from stammtisch.registry import UnknownGame, game_spec

    try:
        return game_spec(game).rules_version
    except UnknownGame:
        return 1


def check_rules(header: Header) -> None:
    """RulesVersionError unless this release replays the record's rules version exactly (a record of
    other rules would otherwise fail at some move, or worse, replay into a state that never was)."""
    from stammtisch.registry import UnknownGame, game_spec

    try:
        spec = game_spec(header.game)
    except UnknownGame:
        return  # the game factory reports it
    if not spec.can_replay(header.rules_version):
        raise RulesVersionError(
            f"this {header.game} record was played under rules version {header.rules_version}, and this "
            f"Stammtisch plays rules version {spec.rules_version}, which cannot replay it exactly: replay it "
            f"with a release of rules version {header.rules_version}")
