"""Readable English (through ``_`` for translation) for Glück Auf events and actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stammtisch.engine.protocol import Action, Event
from stammtisch.i18n import _

Params = Mapping[str, Any]


def _word(name: str) -> str:
    """Colours, transports, levels and spaces, each translated as a word."""
    words = {
        "yellow": _("yellow"), "brown": _("brown"), "grey": _("grey"), "black": _("black"),
        "handcart": _("handcart"), "wagon": _("horse wagon"), "lorry": _("lorry"), "train": _("train"),
        "surface": _("the surface"), "light": _("light"), "dark": _("dark"),
        "top": _("the top"), "bottom": _("the bottom"), "cage": _("the cage"), "storage": _("storage"),
        "tiles": _("tunnel tiles"), "orders": _("order cards"), "tile": _("tunnel tile"), "order": _("order card"),
        "factory": _("factory"),
    }  # fmt: skip
    return words.get(name, name)


def space_name(space: str) -> str:
    kind, _sep, value = space.partition("_")
    if space == "bank":
        return _("the bank (1 Mark)")
    if space == "factory_draw":
        return _("the factory's draw-5 space")
    if space == "order_draw":
        return _("the new orders' draw-5 space")
    names = {
        "factory": _("factory space {value}"),
        "mining": _("the {value}-step pit"),
        "delivery": _("the {value} delivery"),
        "money": _("the {value}-Mark space"),
        "order": _("order space {value}"),
    }
    template = names.get(kind)
    return template.format(value=_word(value)) if template else space


def _player(seat: Any, names: Sequence[str] | None) -> str:
    if isinstance(seat, int) and names and 0 <= seat < len(names):
        return names[seat]
    return _("Player {number}").format(number=seat + 1 if isinstance(seat, int) else "?")


def _orders(count: int) -> str:
    return _("1 order") if count == 1 else _("{count} orders").format(count=count)


def _level(level: str) -> str:
    return _word(level) if level == "surface" else _("the {colour} tunnel").format(colour=_word(level))


_EVENTS: dict[str, Callable[[Params, str], str]] = {
    "setup": lambda p, who: _("{players} players; {who} starts").format(players=p["players"], who=who),
    "drafted": lambda p, who: _("{who} drafts order card {card}").format(who=who, card=p["card"]),
    "shift_starts": lambda p, who: _("Shift {shift} begins; {who} starts").format(shift=p["shift"], who=who),
    "placed": lambda p, who: (
        _("{who} places {n} worker(s) on {space}, sending {d} to the canteen")
        if p["displaced"]
        else _("{who} places {n} worker(s) on {space}")
    ).format(who=who, n=p["workers"], space=space_name(p["space"]), d=p["displaced"]),
    "marks": lambda p, who: _("{who} takes {marks} Marks").format(who=who, marks=p["marks"]),
    "order_taken": lambda p, who: _("{who} takes order card {card}").format(who=who, card=p["card"]),
    "drew_tiles": lambda p, who: _("{who} draws {count} tunnel tiles").format(who=who, count=p["count"]),
    "drew_orders": lambda p, who: _("{who} draws {count} order cards").format(who=who, count=p["count"]),
    "drawn_tiles": lambda p, who: _("{who} sees tunnel tiles {ids}").format(who=who, ids=_ids(p["ids"])),
    "drawn_orders": lambda p, who: _("{who} sees order cards {ids}").format(who=who, ids=_ids(p["ids"])),
    "tile_bought": lambda p, who: _(
        "{who} buys a {side} {colour} tunnel tile with {carts} minecart(s) for {cost} Marks"
    ).format(who=who, side=_word(p["side"]), colour=_word(p["colour"]), carts=p["carts"], cost=p["cost"]),
    "substitute_coal": lambda p, who: _("{who} puts a {colour} cube on a new {tunnel} minecart").format(
        who=who, colour=_word(p["colour"]), tunnel=_word(p["tunnel"])
    ),
    "kept_nothing": lambda p, who: _("{who} keeps no {what}").format(who=who, what=_word(p["what"])),
    "returned": lambda p, who: _("{who} returns {count} {what} to {where} of the pile").format(
        who=who, count=p["count"], what=_word(p["what"]), where=_word(p["where"])
    ),
    "delivered": lambda p, who: _("{who} delivers {orders} by {transport}: {vp} points").format(
        who=who, orders=_orders(len(p["cards"])), transport=_word(p["transport"]), vp=p["vp"]
    ),
    "cage_moved": lambda p, who: _("{who} moves the cage to {level}").format(who=who, level=_level(p["to"])),
    "coal_loaded": lambda p, who: _("{who} loads a {colour} cube into the cage").format(
        who=who, colour=_word(p["colour"])
    ),
    "coal_stored": lambda p, who: _("{who} puts a {colour} cube into storage").format(
        who=who, colour=_word(p["colour"])
    ),
    "field_filled": lambda p, who: _("{who} puts a {colour} cube from {source} on order card {card}").format(
        who=who, colour=_word(p["colour"]), source=_word(p["from"]), card=p["card"]
    ),
    "mining_ends": lambda p, who: _("{who} ends mining ({n} steps unused)").format(who=who, n=p["steps_unused"]),
    "refilled": lambda p, who: _("New {what} on {what} space {slot}").format(what=_word(p["what"]), slot=p["slot"]),
    "not_refilled": lambda p, who: _("{what} space {slot} stays empty: the pile is empty").format(
        what=_word(p["what"]), slot=p["slot"]
    ),
    "shift_ends": lambda p, who: _("Shift {shift} ends: scoring").format(shift=p["shift"]),
    "delivered_revealed": lambda p, who: _("{who} reveals {orders} delivered").format(
        who=who, orders=_orders(len(p["cards"]))
    ),
    "final_scoring": lambda p, who: _(
        "{who}: {marks} VP for Marks, {coal} VP for coal, {orders} VP for outstanding orders, {balance} VP for balance"
    ).format(who=who, marks=p["marks_vp"], coal=p["coal_vp"], orders=p["outstanding_vp"], balance=p["balance_vp"]),
}


def _ids(ids: Sequence[int]) -> str:
    return ", ".join(str(i) for i in ids)


def describe_event(event: Event, names: Sequence[str] | None = None) -> str:
    params = event.params
    who = _player(params.get("seat", params.get("start_player")), names)
    if event.kind == "category_scored":
        return _category(params, names)
    if event.kind == "game_over":
        winners = ", ".join(_player(seat, names) for seat in params["winners"])
        return _("Game over: {winners} wins").format(winners=winners)
    render = _EVENTS.get(event.kind)
    return render(params, who) if render else event.kind


def _category(params: Params, names: Sequence[str] | None) -> str:
    awards = [f"{_player(seat, names)} {vp}" for seat, vp in enumerate(params["vp"]) if vp]
    category = params["category"].replace("_", " ")
    if not awards:
        return _("{category}: nobody scores").format(category=category)
    return _("{category}: {awards} VP").format(category=category, awards=", ".join(awards))


def describe_action(action: Action) -> str:
    name = action[0]
    if name == "fill":
        _n, source, card, field, colour = action
        return _("Put a {colour} cube from {source} on field {field} of order card {card}").format(
            colour=_word(colour), source=_word(source), field=field + 1, card=card
        )
    texts: dict[str, Callable[[Action], str]] = {
        "draft": lambda a: _("Draft order card {card}").format(card=a[1]),
        "place": lambda a: _("Place on {space}").format(space=space_name(a[1])),
        "cage": lambda a: _("Move the cage to {level}").format(level=_level(a[1])),
        "load": lambda a: _("Load a {colour} cube into the cage").format(colour=_word(a[1])),
        "store": lambda a: _("Put a {colour} cube into storage").format(colour=_word(a[1])),
        "done": lambda a: _("End mining"),
        "confirm": lambda a: _("Confirm the turn"),
        "coal": lambda a: _("Put a {colour} cube on the new minecart").format(colour=_word(a[1])),
        "keep_tile": lambda a: (
            _("Keep no tunnel tile") if a[1] is None else _("Buy tunnel tile {tile}").format(tile=a[1])
        ),
        "keep_order": lambda a: (
            _("Keep no order card") if a[1] is None else _("Keep order card {card}").format(card=a[1])
        ),
        "return_tiles": lambda a: _("Return the tunnel tiles to {where} of the stack").format(where=_word(a[1])),
        "return_orders": lambda a: _("Return the order cards to {where} of the deck").format(where=_word(a[1])),
    }
    render = texts.get(name)
    return render(action) if render else repr(action)
