"""Glück Auf component data: one JSON file per edition, validated at load.

Every value carries a provenance mark (``confirmed``, ``BGA`` or ``inferred``, see
``shared/rules/glueck-auf.md``).  Players can load their own file (``load_edition(path)``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

COLOURS = ("yellow", "brown", "grey", "black")
TRANSPORTS = ("handcart", "wagon", "lorry", "train")
SIDES = ("light", "dark")
SPACE_ACTIONS = ("factory", "factory_draw", "mining", "delivery", "money", "bank", "order", "order_draw")
CATEGORY_KINDS = ("colour_fields", "transport_fields", "empty_carts")
PROVENANCE_MARKS = ("confirmed", "BGA", "inferred")
PLAYER_COUNTS = (2, 3, 4)


class DataFileError(ValueError):
    """A data file that cannot be used; the message names the entry at fault."""


@dataclass(frozen=True, slots=True)
class OrderCard:
    id: int
    transport: int  # index into TRANSPORTS
    vp: int
    fields: tuple[int, ...]  # printed colour of each order field, index into COLOURS


@dataclass(frozen=True, slots=True)
class TunnelTile:
    id: int
    colour: int
    carts: int
    light: bool


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    action: str
    value: int | str
    locked_with: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Category:
    id: str
    kind: str
    key: int  # colour or transport index
    first: int
    second: int
    from_shift: int


@dataclass(frozen=True, slots=True)
class Edition:
    name: str
    order_cards: tuple[OrderCard, ...]
    tunnel_tiles: tuple[TunnelTile, ...]
    spaces: tuple[Space, ...]
    categories: tuple[Category, ...]
    coal_per_colour: int
    workers: dict[int, int]
    money: dict[int, int]
    draft_reveal: dict[int, int]
    orders_drafted: int
    leftover_order_space: str
    cage_capacity: int
    shifts: int
    draw_count: int
    tile_cost_per_cart: tuple[int, ...]
    marks_per_vp: int
    coal_per_vp: int
    vp_per_outstanding_order: int
    vp_per_unbalanced_tile: int

    def tile_cost(self, tile: TunnelTile) -> int:
        return self.tile_cost_per_cart[tile.colour] * tile.carts


PACKAGED_EDITION = "edition.json"  # in data/ (as each game names its own)


def load_edition(path: Path | str | None = None) -> Edition:
    """The packaged edition (no path) or a user's file, validated."""
    if path is None:
        return _packaged()
    return _load(Path(path))


@lru_cache(maxsize=1)
def _packaged() -> Edition:
    text = resources.files("stammtisch.games.glueckauf").joinpath("data", PACKAGED_EDITION).read_text("utf-8")
    return parse_edition(text, PACKAGED_EDITION)


def _load(path: Path) -> Edition:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataFileError(f"{path}: cannot read ({error.strerror})") from None
    return parse_edition(text, str(path))


def parse_edition(text: str, where: str = "data file") -> Edition:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataFileError(f"{where}: not JSON (line {error.lineno}: {error.msg})") from None
    try:
        return _edition(_obj(raw, "the file"))
    except DataFileError as error:
        raise DataFileError(f"{where}: {error}") from None


# --- small checkers -------------------------------------------------------------------------


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataFileError(f"{where}: expected an object")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise DataFileError(f"{where}: expected a list")
    return value


def _int(value: Any, where: str, low: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataFileError(f"{where}: expected a whole number, not {value!r}")
    if low is not None and value < low:
        raise DataFileError(f"{where}: must be at least {low}, not {value}")
    return value


def _key(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise DataFileError(f"{where}: missing '{key}'")
    return obj[key]


def _choice(value: Any, options: tuple[str, ...], where: str) -> int:
    if value not in options:
        raise DataFileError(f"{where}: unknown value {value!r} (expected one of {', '.join(options)})")
    return options.index(value)


def _source(obj: dict[str, Any], where: str) -> None:
    source = _key(obj, "source", where)
    if not isinstance(source, str) or not source.startswith(PROVENANCE_MARKS):
        raise DataFileError(f"{where}: source must start with one of {', '.join(PROVENANCE_MARKS)}, not {source!r}")


def _marked(section: dict[str, Any], key: str, where: str) -> Any:
    """A value written as {"value": ..., "source": ...}."""
    entry = _obj(_key(section, key, where), f"{where}.{key}")
    _source(entry, f"{where}.{key}")
    return _key(entry, "value", f"{where}.{key}")


def _per_players(value: Any, where: str) -> dict[int, int]:
    table = _obj(value, where)
    result = {}
    for count in PLAYER_COUNTS:
        result[count] = _int(_key(table, str(count), where), f"{where}[{count}]", 0)
    return result


# --- sections -------------------------------------------------------------------------------


def _edition(raw: dict[str, Any]) -> Edition:
    for key, expected in (("colours", COLOURS), ("transports", TRANSPORTS)):
        if tuple(_list(_key(raw, key, "the file"), key)) != expected:
            raise DataFileError(f"{key}: must be exactly {list(expected)}")
    components = _obj(_key(raw, "components", "the file"), "components")
    setup = _obj(_key(raw, "setup", "the file"), "setup")
    final = _obj(_key(raw, "final_scoring", "the file"), "final_scoring")
    cards = _order_cards(raw, components)
    tiles = _tunnel_tiles(raw, components)
    spaces = _spaces(raw)
    costs = _obj(_marked(raw, "tile_cost_per_cart", "the file"), "tile_cost_per_cart")
    leftover = _marked(setup, "leftover_order_space", "setup")
    if not any(s.id == leftover and s.action == "order" and not s.locked_with for s in spaces):
        raise DataFileError(f"setup.leftover_order_space: {leftover!r} is not an order space open to all counts")
    return Edition(
        name=str(_key(raw, "edition", "the file")),
        order_cards=cards,
        tunnel_tiles=tiles,
        spaces=spaces,
        categories=_categories(raw),
        coal_per_colour=_int(_marked(components, "coal_per_colour", "components"), "components.coal_per_colour", 1),
        workers=_per_players(_marked(setup, "workers", "setup"), "setup.workers"),
        money=_per_players(_marked(setup, "money", "setup"), "setup.money"),
        draft_reveal=_draft_reveal(setup),
        orders_drafted=_int(_marked(setup, "orders_drafted", "setup"), "setup.orders_drafted", 0),
        leftover_order_space=str(leftover),
        cage_capacity=_int(_marked(setup, "cage_capacity", "setup"), "setup.cage_capacity", 1),
        shifts=_int(_marked(setup, "shifts", "setup"), "setup.shifts", 1),
        draw_count=_int(_marked(setup, "draw_count", "setup"), "setup.draw_count", 1),
        tile_cost_per_cart=tuple(
            _int(_key(costs, c, "tile_cost_per_cart"), f"tile_cost_per_cart.{c}", 0) for c in COLOURS
        ),
        marks_per_vp=_int(_marked(final, "marks_per_vp", "final_scoring"), "final_scoring.marks_per_vp", 1),
        coal_per_vp=_int(_marked(final, "coal_per_vp", "final_scoring"), "final_scoring.coal_per_vp", 1),
        vp_per_outstanding_order=_int(
            _marked(final, "vp_per_outstanding_order", "final_scoring"), "final_scoring.vp_per_outstanding_order"
        ),
        vp_per_unbalanced_tile=_int(
            _marked(final, "vp_per_unbalanced_tile", "final_scoring"), "final_scoring.vp_per_unbalanced_tile"
        ),
    )


def _draft_reveal(setup: dict[str, Any]) -> dict[int, int]:
    reveal = _per_players(_marked(setup, "draft_reveal", "setup"), "setup.draft_reveal")
    drafted = _int(_marked(setup, "orders_drafted", "setup"), "setup.orders_drafted", 0)
    for count, shown in reveal.items():
        if shown != drafted * count + 1:
            raise DataFileError(
                f"setup.draft_reveal[{count}]: {shown} cards cannot leave exactly one over "
                f"after {count} players draft {drafted} each"
            )
    return reveal


def _order_cards(raw: dict[str, Any], components: dict[str, Any]) -> tuple[OrderCard, ...]:
    entries = _list(_key(raw, "order_cards", "the file"), "order_cards")
    cards = []
    for index, entry in enumerate(entries):
        where = f"order_cards[{index}]"
        entry = _obj(entry, where)
        card_id = _int(_key(entry, "id", where), f"{where}.id")
        where = f"order card {card_id} (order_cards[{index}])"
        if card_id != index + 1:
            raise DataFileError(f"{where}: ids must run 1, 2, 3, ... in file order (expected {index + 1})")
        _source(entry, where)
        fields = _list(_key(entry, "fields", where), f"{where}.fields")
        if not 1 <= len(fields) <= 4:
            raise DataFileError(f"{where}: an order card has 1 to 4 fields, not {len(fields)}")
        cards.append(
            OrderCard(
                id=card_id,
                transport=_choice(_key(entry, "transport", where), TRANSPORTS, f"{where}.transport"),
                vp=_int(_key(entry, "vp", where), f"{where}.vp", 1),
                fields=tuple(_choice(f, COLOURS, f"{where}.fields") for f in fields),
            )
        )
    _count(len(cards), _marked(components, "order_cards", "components"), "order_cards")
    per_transport = _marked(components, "order_cards_per_transport", "components")
    for t, name in enumerate(TRANSPORTS):
        _count(sum(1 for c in cards if c.transport == t), per_transport, f"order_cards of transport {name}")
    return tuple(cards)


def _tunnel_tiles(raw: dict[str, Any], components: dict[str, Any]) -> tuple[TunnelTile, ...]:
    entries = _list(_key(raw, "tunnel_tiles", "the file"), "tunnel_tiles")
    tiles = []
    for index, entry in enumerate(entries):
        where = f"tunnel_tiles[{index}]"
        entry = _obj(entry, where)
        tile_id = _int(_key(entry, "id", where), f"{where}.id")
        where = f"tunnel tile {tile_id} (tunnel_tiles[{index}])"
        if tile_id != index + 1:
            raise DataFileError(f"{where}: ids must run 1, 2, 3, ... in file order (expected {index + 1})")
        _source(entry, where)
        carts = _int(_key(entry, "carts", where), f"{where}.carts", 1)
        if carts > 2:
            raise DataFileError(f"{where}: a tunnel tile has 1 or 2 minecarts, not {carts}")
        tiles.append(
            TunnelTile(
                id=tile_id,
                colour=_choice(_key(entry, "colour", where), COLOURS, f"{where}.colour"),
                carts=carts,
                light=_choice(_key(entry, "side", where), SIDES, f"{where}.side") == 0,
            )
        )
    _count(len(tiles), _marked(components, "tunnel_tiles", "components"), "tunnel_tiles")
    return tuple(tiles)


def _count(actual: int, declared: Any, what: str) -> None:
    if actual != declared:
        raise DataFileError(f"{what}: {actual} entries, but the components section says {declared}")


REQUIRED_SPACES = {"factory": 8, "factory_draw": 1, "mining": 4, "delivery": 4, "money": 4, "bank": 1,
                   "order": 4, "order_draw": 1}  # fmt: skip


def _spaces(raw: dict[str, Any]) -> tuple[Space, ...]:
    entries = _list(_key(raw, "spaces", "the file"), "spaces")
    spaces: list[Space] = []
    for index, entry in enumerate(entries):
        where = f"spaces[{index}]"
        entry = _obj(entry, where)
        space_id = _key(entry, "id", where)
        if not isinstance(space_id, str) or not space_id:
            raise DataFileError(f"{where}.id: expected a name")
        where = f"space {space_id} (spaces[{index}])"
        if any(s.id == space_id for s in spaces):
            raise DataFileError(f"{where}: the id is used twice")
        _source(entry, where)
        action = SPACE_ACTIONS[_choice(_key(entry, "action", where), SPACE_ACTIONS, f"{where}.action")]
        locks = tuple(_list(_key(entry, "locked_with", where), f"{where}.locked_with"))
        if any(n not in PLAYER_COUNTS for n in locks):
            raise DataFileError(f"{where}.locked_with: player counts are 2, 3, 4, not {list(locks)}")
        spaces.append(Space(space_id, action, _space_value(entry, action, where), locks))
    for action, needed in REQUIRED_SPACES.items():
        found = sum(1 for s in spaces if s.action == action)
        if found != needed:
            raise DataFileError(f"spaces: {found} spaces of action {action}, the board has {needed}")
    return tuple(spaces)


def _space_value(entry: dict[str, Any], action: str, where: str) -> int | str:
    value = _key(entry, "value", where)
    if action == "delivery":
        return TRANSPORTS[_choice(value, TRANSPORTS, f"{where}.value")]
    return _int(value, f"{where}.value", 1)


def _categories(raw: dict[str, Any]) -> tuple[Category, ...]:
    entries = _list(_key(raw, "shift_scoring", "the file"), "shift_scoring")
    categories = []
    for index, entry in enumerate(entries):
        where = f"shift_scoring[{index}]"
        entry = _obj(entry, where)
        where = f"category {entry.get('id', '?')} (shift_scoring[{index}])"
        _source(entry, where)
        kind = CATEGORY_KINDS[_choice(_key(entry, "kind", where), CATEGORY_KINDS, f"{where}.kind")]
        keys = TRANSPORTS if kind == "transport_fields" else COLOURS
        categories.append(
            Category(
                id=str(_key(entry, "id", where)),
                kind=kind,
                key=_choice(_key(entry, "key", where), keys, f"{where}.key"),
                first=_int(_key(entry, "first", where), f"{where}.first", 0),
                second=_int(_key(entry, "second", where), f"{where}.second", 0),
                from_shift=_int(_key(entry, "from_shift", where), f"{where}.from_shift", 1),
            )
        )
    return tuple(categories)
