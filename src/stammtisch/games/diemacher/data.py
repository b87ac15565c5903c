"""Die Macher component data: one JSON file per edition, validated at load.

Several printed values are not in any rulebook; the packaged file marks them *reconstructed*.
Players who own the game can load their own file with the printed values (``--data FILE``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

POLITICIAN_ACTIONS = {
    "DOUBLE", "BUYOUT", "OTHERS_TREND-1", "TREND+1", "TREND+3", "TREND+4",
    "VOTES+3", "VOTES+5", "VOTES+8", "VOTES+10", "VOTES+12", "BASE+5", "PROGRAM", "FREE_POLL",
}  # fmt: skip
START_SYMBOLS = ("R", "T", "M", "V")
PARTY_IDS = ("CDU", "SPD", "FDP", "GRUENE", "LINKE")


class DataFileError(ValueError):
    """A data file that cannot be used; the message names the entry at fault."""


@dataclass(frozen=True, slots=True)
class StateCard:
    id: str
    name: str
    small: bool
    max_vp: int
    vp_table: tuple[tuple[int, int], ...]  # (at least this many votes, VP), ascending
    provenance: str

    def vp_for(self, votes: int) -> int:
        points = 0
        for threshold, vp in self.vp_table:
            if votes < threshold:
                break
            points = vp
        return points


@dataclass(frozen=True, slots=True)
class PollCard:
    id: str
    back: str  # the party whose +2 shows on the back
    delta: dict[str, int]
    provenance: str


@dataclass(frozen=True, slots=True)
class Politician:
    id: str
    cost: int
    long_game_only: bool
    main: str
    secondary: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Donation:
    value: int
    accept_base: int
    reject_base: int


@dataclass(frozen=True, slots=True)
class Party:
    id: str
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Edition:
    name: str
    topics: tuple[str, ...]
    parties: tuple[Party, ...]
    start_money: int
    start_party_base: int
    trend_range: tuple[int, int]
    rally_cubes: int
    rally_cap: int
    rally_costs: tuple[int, ...]
    media_marker_cost: int
    buyout_payment: int
    media_markers: dict[int, int]  # elections in the game -> markers per party
    program_display_size: dict[int, int]
    awards: dict[str, int]
    min_votes_to_score: int
    money_vp: tuple[int, ...]
    donations: tuple[Donation, ...]
    politicians: tuple[Politician, ...]
    media_presence: tuple[int, ...]  # VP of spots 1..7
    media_presence_provenance: tuple[str, ...]
    start_blocks: tuple[tuple[str, ...], ...]
    start_block_provenance: tuple[str, ...]
    states: tuple[StateCard, ...]
    polls: tuple[PollCard, ...]

    def party_index(self, party_id: str) -> int:
        return next(i for i, p in enumerate(self.parties) if p.id == party_id)

    def reconstructed(self) -> list[str]:
        """Names of the components whose values are reconstructed, for help texts."""
        found = [f"state {s.name}" for s in self.states if "reconstructed" in s.provenance]
        found += [f"poll card {p.id}" for p in self.polls if "reconstructed" in p.provenance]
        found += [f"media-presence spot {i}" for i, p in enumerate(self.media_presence_provenance, 1)
                  if "reconstructed" in p]
        found += [f"start block {i}" for i, p in enumerate(self.start_block_provenance, 1) if "reconstructed" in p]
        return found


PACKAGED_EDITION = "edition.json"  # in data/: the 2019 edition (as each game names its own)


def load_edition(path: Path | str | None = None) -> Edition:
    """Load and validate an edition file; by default the packaged 2019 edition."""
    if path is None:
        text = resources.files("stammtisch.games.diemacher").joinpath("data", PACKAGED_EDITION).read_text("utf-8")
        source = PACKAGED_EDITION
    else:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as error:
            raise DataFileError(f"cannot read data file {path}: {error.strerror}") from None
        source = str(path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataFileError(f"{source}: not valid JSON (line {error.lineno}: {error.msg})") from None
    try:
        return _parse(raw)
    except DataFileError as error:
        raise DataFileError(f"{source}: {error}") from None


def _need(raw: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(raw, dict) or key not in raw:
        raise DataFileError(f"{where}: missing '{key}'")
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise DataFileError(f"{where}.{key}: expected {names}, got {value!r}")
    return value


def _parse(raw: Any) -> Edition:
    if not isinstance(raw, dict):
        raise DataFileError("the file must hold a JSON object")
    topics = tuple(_need(raw, "topics", list, "edition"))
    if len(topics) != 7 or len(set(topics)) != 7:
        raise DataFileError("topics: expected 7 distinct topics")
    parties = tuple(_parse_party(p, i) for i, p in enumerate(_need(raw, "parties", list, "edition")))
    if tuple(p.id for p in parties) != PARTY_IDS:
        raise DataFileError(f"parties: expected the five parties {', '.join(PARTY_IDS)} in this order")
    trend = _need(raw, "trend_range", list, "edition")
    if len(trend) != 2 or not all(isinstance(t, int) for t in trend) or not trend[0] < 0 < trend[1]:
        raise DataFileError(f"trend_range: expected [negative minimum, positive maximum], got {trend!r}")
    rally_costs = tuple(_positive_ints(_need(raw, "rally_costs", list, "edition"), "rally_costs"))
    rally_cap = _need(raw, "rally_cap_per_state", int, "edition")
    if len(rally_costs) != rally_cap:
        raise DataFileError(f"rally_costs: expected one cost for each of 1..{rally_cap} rallies")
    states = tuple(_parse_state(s, i) for i, s in enumerate(_need(raw, "states", list, "edition")))
    _check_states(states)
    polls = tuple(_parse_poll(p, i) for i, p in enumerate(_need(raw, "poll_cards", list, "edition")))
    if len(polls) != 10:
        raise DataFileError(f"poll_cards: expected 10 cards, found {len(polls)}")
    presence = _need(raw, "media_presence", list, "edition")
    if len(presence) != 7:
        raise DataFileError(f"media_presence: expected 7 spots, found {len(presence)}")
    blocks = _need(raw, "start_blocks", list, "edition")
    if len(blocks) != 5:
        raise DataFileError(f"start_blocks: expected 5 blocks, found {len(blocks)}")
    return Edition(
        name=_need(raw, "edition", str, "edition"),
        topics=topics,
        parties=parties,
        start_money=_need(raw, "start_money", int, "edition"),
        start_party_base=_need(raw, "start_party_base", int, "edition"),
        trend_range=(trend[0], trend[1]),
        rally_cubes=_need(raw, "rally_cubes", int, "edition"),
        rally_cap=rally_cap,
        rally_costs=rally_costs,
        media_marker_cost=_need(raw, "media_marker_cost", int, "edition"),
        buyout_payment=_need(raw, "buyout_payment", int, "edition"),
        media_markers=_int_keys(_need(raw, "media_markers", dict, "edition"), "media_markers", {"4", "7"}),
        program_display_size=_int_keys(
            _need(raw, "program_display_size", dict, "edition"), "program_display_size", {"3", "4", "5"}
        ),
        awards=_parse_awards(_need(raw, "election_awards", dict, "edition")),
        min_votes_to_score=_need(raw, "min_votes_to_score", int, "edition"),
        money_vp=tuple(_positive_ints(_need(raw, "money_vp", list, "edition"), "money_vp")),
        donations=tuple(_parse_donation(d, i) for i, d in enumerate(_need(raw, "donations", list, "edition"))),
        politicians=_parse_politicians(_need(raw, "politicians", list, "edition")),
        media_presence=tuple(_need(p, "vp", int, f"media_presence[{i}]") for i, p in enumerate(presence)),
        media_presence_provenance=tuple(
            _need(p, "provenance", str, f"media_presence[{i}]") for i, p in enumerate(presence)
        ),
        start_blocks=tuple(_parse_block(b, i) for i, b in enumerate(blocks)),
        start_block_provenance=tuple(_need(b, "provenance", str, f"start_blocks[{i}]") for i, b in enumerate(blocks)),
        states=states,
        polls=polls,
    )


def _positive_ints(values: list[Any], where: str) -> list[int]:
    for i, v in enumerate(values):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise DataFileError(f"{where}[{i}]: expected a positive whole number, got {v!r}")
    return values


def _int_keys(mapping: dict[str, Any], where: str, keys: set[str]) -> dict[int, int]:
    if set(mapping) != keys:
        raise DataFileError(f"{where}: expected the keys {', '.join(sorted(keys))}")
    for key, value in mapping.items():
        if not isinstance(value, int) or value <= 0:
            raise DataFileError(f"{where}.{key}: expected a positive whole number, got {value!r}")
    return {int(k): v for k, v in mapping.items()}


def _parse_awards(raw: dict[str, Any]) -> dict[str, int]:
    for key in ("sole", "several", "coalition", "no_coalition"):
        _need(raw, key, int, "election_awards")
    return {k: int(v) for k, v in raw.items()}


def _parse_party(raw: Any, i: int) -> Party:
    where = f"parties[{i}]"
    return Party(_need(raw, "id", str, where), _need(raw, "name", str, where), _need(raw, "colour", str, where))


def _parse_state(raw: Any, i: int) -> StateCard:
    where = f"states[{i}]"
    sid = _need(raw, "id", str, where)
    where = f"states[{i}] ({sid})"
    size = _need(raw, "size", str, where)
    if size not in ("small", "large"):
        raise DataFileError(f"{where}.size: expected 'small' or 'large', got {size!r}")
    table = _need(raw, "vp_table", list, where)
    rows: list[tuple[int, int]] = []
    for j, row in enumerate(table):
        if not (isinstance(row, list) and len(row) == 2 and all(isinstance(x, int) and x >= 0 for x in row)):
            raise DataFileError(f"{where}.vp_table[{j}]: expected [votes, VP], got {row!r}")
        if rows and (row[0] <= rows[-1][0] or row[1] < rows[-1][1]):
            raise DataFileError(f"{where}.vp_table[{j}]: votes must rise and VP must not fall")
        rows.append((row[0], row[1]))
    max_vp = _need(raw, "max_vp", int, where)
    if not rows or rows[-1][1] != max_vp:
        raise DataFileError(f"{where}.vp_table: the last row must give the maximum {max_vp} VP")
    return StateCard(sid, _need(raw, "name", str, where), size == "small", max_vp, tuple(rows),
                     _need(raw, "provenance", str, where))


def _check_states(states: tuple[StateCard, ...]) -> None:
    if len(states) != 16:
        raise DataFileError(f"states: expected 16 state cards, found {len(states)}")
    small = sum(s.small for s in states)
    if small != 8:
        raise DataFileError(f"states: expected 8 small and 8 large states, found {small} small")
    ids = [s.id for s in states]
    duplicate = next((x for x in ids if ids.count(x) > 1), None)
    if duplicate:
        raise DataFileError(f"states: the id {duplicate!r} is used twice")


def _parse_poll(raw: Any, i: int) -> PollCard:
    where = f"poll_cards[{i}]"
    pid = _need(raw, "id", str, where)
    where = f"poll_cards[{i}] ({pid})"
    delta = _need(raw, "delta", dict, where)
    if set(delta) != set(PARTY_IDS) or not all(isinstance(v, int) for v in delta.values()):
        raise DataFileError(f"{where}.delta: expected a whole number for each of {', '.join(PARTY_IDS)}")
    back = _need(raw, "back", str, where)
    if back not in PARTY_IDS or delta[back] != 2:
        raise DataFileError(f"{where}.back: must name the party that gains +2 on the front")
    return PollCard(pid, back, dict(delta), _need(raw, "provenance", str, where))


def _parse_donation(raw: Any, i: int) -> Donation:
    where = f"donations[{i}]"
    return Donation(_need(raw, "value", int, where), _need(raw, "accept_base", int, where),
                    _need(raw, "reject_base", int, where))


def _parse_politicians(raw: list[Any]) -> tuple[Politician, ...]:
    result = []
    for i, p in enumerate(raw):
        where = f"politicians[{i}]"
        pid = _need(p, "id", str, where)
        where = f"politicians[{i}] ({pid})"
        actions = [_need(p, "main", str, where), *_need(p, "secondary", list, where)]
        unknown = [a for a in actions if a not in POLITICIAN_ACTIONS]
        if unknown:
            raise DataFileError(f"{where}: unknown action {unknown[0]!r}")
        result.append(Politician(pid, _need(p, "cost", int, where), _need(p, "long_game_only", bool, where),
                                 actions[0], tuple(actions[1:])))
    if sum(not p.long_game_only for p in result) != 5 or len(result) != 8:
        raise DataFileError("politicians: expected 8 politicians, 5 of them in the small cabinet")
    return tuple(result)


def _parse_block(raw: Any, i: int) -> tuple[str, ...]:
    where = f"start_blocks[{i}]"
    spots = _need(raw, "spots", list, where)
    if len(spots) != 5 or any(s not in START_SYMBOLS for s in spots):
        raise DataFileError(f"{where}.spots: expected 5 symbols from {', '.join(START_SYMBOLS)}")
    if any(spots.count(s) > 4 for s in spots):
        raise DataFileError(f"{where}.spots: a symbol may appear at most 4 times (one state each)")
    return tuple(spots)
