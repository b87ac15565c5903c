"""The packaged edition file and the validation of user data files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from stammtisch.games.glueckauf.data import DataFileError, load_edition, parse_edition

PACKAGED = Path(__file__).parents[2] / "src/stammtisch/games/glueckauf/data/edition.json"


def raw() -> dict[str, Any]:
    return json.loads(PACKAGED.read_text(encoding="utf-8"))


def test_order_cards_match_the_spec_checks() -> None:
    ed = load_edition()
    assert len(ed.order_cards) == 44
    for transport in range(4):
        deck = [c for c in ed.order_cards if c.transport == transport]
        assert len(deck) == 11
        assert sum(len(c.fields) for c in deck) == 22
        assert sum(c.vp for c in deck) == 64
    colours = Counter(f for c in ed.order_cards for f in c.fields)
    assert colours == {0: 22, 1: 22, 2: 22, 3: 22}
    handcart = Counter(f for c in ed.order_cards if c.transport == 0 for f in c.fields)
    assert handcart == {0: 4, 1: 7, 2: 7, 3: 4}
    wagon = Counter(f for c in ed.order_cards if c.transport == 1 for f in c.fields)
    assert wagon == {0: 7, 1: 4, 2: 4, 3: 7}


def test_tunnel_tiles_are_16_kinds_three_times() -> None:
    ed = load_edition()
    assert len(ed.tunnel_tiles) == 48
    kinds = Counter((t.colour, t.carts, t.light) for t in ed.tunnel_tiles)
    assert len(kinds) == 16 and set(kinds.values()) == {3}
    assert sum(t.carts for t in ed.tunnel_tiles) == 72
    assert sorted({ed.tile_cost(t) for t in ed.tunnel_tiles}) == [1, 2, 3, 4, 6, 8]


@pytest.mark.parametrize(("players", "locked"), [(2, 7), (3, 3), (4, 0)])
def test_locks_per_player_count(players: int, locked: int) -> None:
    ed = load_edition()
    assert sum(1 for s in ed.spaces if players in s.locked_with) == locked
    open_spaces = [s for s in ed.spaces if players not in s.locked_with and s.action != "bank"]
    assert len(open_spaces) == 26 - locked


def test_every_entry_has_a_provenance_mark() -> None:
    data = raw()
    for section in ("order_cards", "tunnel_tiles", "spaces", "shift_scoring"):
        for entry in data[section]:
            assert entry["source"].split(":")[0] in ("confirmed", "BGA", "inferred")


def test_a_user_file_loads_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    data = raw()
    data["order_cards"][0]["vp"] = 3
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_edition(path).order_cards[0].vp == 3
    assert load_edition(str(path)).order_cards[0].vp == 3


def broken(change: Any) -> str:
    data = raw()
    change(data)
    with pytest.raises(DataFileError) as info:
        parse_edition(json.dumps(data), "test.json")
    return str(info.value)


def test_bad_colour_names_the_card() -> None:
    message = broken(lambda d: d["order_cards"][4].__setitem__("fields", ["purple"]))
    assert "order card 5" in message and "purple" in message


def test_missing_card_is_counted() -> None:
    message = broken(lambda d: d["order_cards"].pop())
    assert "order_cards" in message and "44" in message


def test_wrong_card_ids() -> None:
    message = broken(lambda d: d["order_cards"][2].__setitem__("id", 7))
    assert "order card 7" in message


def test_unknown_provenance_mark() -> None:
    message = broken(lambda d: d["tunnel_tiles"][10].__setitem__("source", "guessed"))
    assert "tunnel tile 11" in message and "source" in message


def test_three_carts_on_a_tile() -> None:
    assert "tunnel tile 1 " in broken(lambda d: d["tunnel_tiles"][0].__setitem__("carts", 3))


def test_unknown_side() -> None:
    assert "side" in broken(lambda d: d["tunnel_tiles"][0].__setitem__("side", "grey"))


def test_duplicate_space() -> None:
    message = broken(lambda d: d["spaces"][1].__setitem__("id", "factory_1"))
    assert "space factory_1" in message and "twice" in message


def test_missing_mining_space() -> None:
    assert "mining" in broken(
        lambda d: d["spaces"].__setitem__(slice(None), [s for s in d["spaces"] if s["id"] != "mining_6"])
    )


def test_bad_lock_count() -> None:
    assert "locked_with" in broken(lambda d: d["spaces"][0].__setitem__("locked_with", [5]))


def test_missing_vp() -> None:
    message = broken(lambda d: d["order_cards"][0].pop("vp"))
    assert "order card 1" in message and "vp" in message


def test_draft_reveal_must_leave_one_card() -> None:
    message = broken(lambda d: d["setup"]["draft_reveal"]["value"].__setitem__("3", 9))
    assert "draft_reveal[3]" in message


def test_leftover_space_must_be_an_open_order_space() -> None:
    assert "leftover" in broken(lambda d: d["setup"]["leftover_order_space"].__setitem__("value", "order_1"))


def test_category_kind() -> None:
    assert "category yellow_fields" in broken(lambda d: d["shift_scoring"][0].__setitem__("kind", "money"))


def test_not_json() -> None:
    with pytest.raises(DataFileError, match="not JSON"):
        parse_edition("{", "x.json")


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot read"):
        load_edition(tmp_path / "missing.json")
