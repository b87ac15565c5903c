"""Readable sentences (through ``_`` for translation) for Glück Auf events and actions.

Words that vary (colours, transports, spaces) are tables of English literals marked with
``N_`` and translated where they are used.  Sentences whose grammar depends on the word (which
pile, which side, from where) are whole sentences per case, so that every language can inflect.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stammtisch.engine.protocol import Action, Event
from stammtisch.games.glueckauf.phases import FLOW
from stammtisch.games.glueckauf.phases.orders import delivers
from stammtisch.games.glueckauf.phases.placement import workers_needed
from stammtisch.i18n import N_, _, _n

Params = Mapping[str, Any]

COLOUR_NAMES = {"yellow": N_("yellow"), "brown": N_("brown"), "grey": N_("grey"), "black": N_("black")}
TRANSPORT_NAMES = {"handcart": N_("handcart"), "wagon": N_("horse wagon"), "lorry": N_("lorry"), "train": N_("train")}
SIDE_NAMES = {"light": N_("light side"), "dark": N_("dark side")}
DELIVERY_SPACES = {
    "handcart": N_("the handcart delivery"), "wagon": N_("the horse wagon delivery"),
    "lorry": N_("the lorry delivery"), "train": N_("the train delivery"),
}  # fmt: skip
CATEGORY_NAMES = {
    "yellow_fields": N_("yellow order fields"), "brown_fields": N_("brown order fields"),
    "grey_fields": N_("grey order fields"), "black_fields": N_("black order fields"),
    "handcart_fields": N_("handcart order fields"), "wagon_fields": N_("horse wagon order fields"),
    "lorry_fields": N_("lorry order fields"), "train_fields": N_("train order fields"),
    "empty_yellow_carts": N_("empty yellow minecarts"), "empty_brown_carts": N_("empty brown minecarts"),
    "empty_grey_carts": N_("empty grey minecarts"), "empty_black_carts": N_("empty black minecarts"),
}  # fmt: skip


PHASE_NAMES = FLOW.labels()  # the labels declared with the phases


def phase_name(phase: str) -> str:
    return _(PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase


def _word(name: str, table: Mapping[str, str] | None = None) -> str:
    """A colour or transport (or a word of ``table``), translated; unknown words as they are."""
    if table is None:
        table = COLOUR_NAMES if name in COLOUR_NAMES else TRANSPORT_NAMES
    return _(table[name]) if name in table else name


def space_name(space: str) -> str:
    kind, _sep, value = space.partition("_")
    if space == "bank":
        return _("the bank (1 Mark)")
    if space == "factory_draw":
        return _("the factory's draw-5 space")
    if space == "order_draw":
        return _("the new orders' draw-5 space")
    if kind == "delivery" and value in DELIVERY_SPACES:
        return _(DELIVERY_SPACES[value])
    names = {
        "factory": lambda: _("factory space {number}").format(number=value),
        "mining": lambda: _("the {steps}-step pit").format(steps=value),
        "money": lambda: _("the {marks}-Mark space").format(marks=value),
        "order": lambda: _("order space {number}").format(number=value),
    }
    template = names.get(kind)
    return template() if template else space


def category_name(category: str) -> str:
    return _(CATEGORY_NAMES[category]) if category in CATEGORY_NAMES else category.replace("_", " ")


def _player(seat: Any, names: Sequence[str] | None) -> str:
    if isinstance(seat, int) and names and 0 <= seat < len(names):
        return names[seat]
    return _("Player {number}").format(number=seat + 1 if isinstance(seat, int) else "?")


def _orders(count: int) -> str:
    return _n("{count} order", "{count} orders", count).format(count=count)


def _to_level(level: str) -> str:
    """``Move the cage to …`` as one sentence per level."""
    if level == "surface":
        return _("Move the cage to the surface")
    return _("Move the cage to the {colour} tunnel").format(colour=_word(level))


def _cage_moved(p: Params, who: str) -> str:
    if p["to"] == "surface":
        return _("{who} moves the cage to the surface").format(who=who)
    return _("{who} moves the cage to the {colour} tunnel").format(who=who, colour=_word(p["to"]))


def _returned(p: Params, who: str) -> str:
    count, top = p["count"], p["where"] == "top"
    if p["what"] == "tiles":
        text = (_n("{who} returns {count} tunnel tile to the top of the stack",
                   "{who} returns {count} tunnel tiles to the top of the stack", count) if top
                else _n("{who} returns {count} tunnel tile to the bottom of the stack",
                        "{who} returns {count} tunnel tiles to the bottom of the stack", count))
    else:
        text = (_n("{who} returns {count} order card to the top of the deck",
                   "{who} returns {count} order cards to the top of the deck", count) if top
                else _n("{who} returns {count} order card to the bottom of the deck",
                        "{who} returns {count} order cards to the bottom of the deck", count))
    return text.format(who=who, count=count)


def _field_filled(p: Params, who: str) -> str:
    text = (_("{who} puts a {colour} cube from the cage on order card {card}") if p["from"] == "cage"
            else _("{who} puts a {colour} cube from storage on order card {card}"))
    return text.format(who=who, colour=_word(p["colour"]), card=p["card"])


def _placed(p: Params, who: str) -> str:
    n, displaced = p["workers"], p["displaced"]
    text = (_n("{who} places {n} worker on {space}, sending {d} to the canteen",
               "{who} places {n} workers on {space}, sending {d} to the canteen", n) if displaced
            else _n("{who} places {n} worker on {space}", "{who} places {n} workers on {space}", n))
    return text.format(who=who, n=n, space=space_name(p["space"]), d=displaced)


_EVENTS: dict[str, Callable[[Params, str], str]] = {
    "setup": lambda p, who: _("{players} players; {who} starts").format(players=p["players"], who=who),
    "drafted": lambda p, who: _("{who} drafts order card {card}").format(who=who, card=p["card"]),
    "shift_starts": lambda p, who: _("Shift {shift} begins; {who} starts").format(shift=p["shift"], who=who),
    "placed": _placed,
    "marks": lambda p, who: _n("{who} takes {marks} Mark", "{who} takes {marks} Marks", p["marks"]).format(
        who=who, marks=p["marks"]
    ),
    "order_taken": lambda p, who: _("{who} takes order card {card}").format(who=who, card=p["card"]),
    "drew_tiles": lambda p, who: _n(
        "{who} draws {count} tunnel tile", "{who} draws {count} tunnel tiles", p["count"]
    ).format(who=who, count=p["count"]),
    "drew_orders": lambda p, who: _n(
        "{who} draws {count} order card", "{who} draws {count} order cards", p["count"]
    ).format(who=who, count=p["count"]),
    "drawn_tiles": lambda p, who: _("{who} sees tunnel tiles {ids}").format(who=who, ids=_ids(p["ids"])),
    "drawn_orders": lambda p, who: _("{who} sees order cards {ids}").format(who=who, ids=_ids(p["ids"])),
    "tile_bought": lambda p, who: _n(
        "{who} buys a {colour} tunnel tile ({side}) with {carts} minecart for {cost} Marks",
        "{who} buys a {colour} tunnel tile ({side}) with {carts} minecarts for {cost} Marks",
        p["carts"],
    ).format(
        who=who, colour=_word(p["colour"]), side=_word(p["side"], SIDE_NAMES), carts=p["carts"], cost=p["cost"]
    ),
    "substitute_coal": lambda p, who: _("{who} puts a {colour} cube on a new minecart in the {tunnel} tunnel").format(
        who=who, colour=_word(p["colour"]), tunnel=_word(p["tunnel"])
    ),
    "cart_left_empty": lambda p, who: _("{who} leaves a new minecart in the {tunnel} tunnel empty").format(
        who=who, tunnel=_word(p["tunnel"])
    ),
    "kept_nothing": lambda p, who: (
        _("{who} keeps no tunnel tile") if p["what"] == "tile" else _("{who} keeps no order card")
    ).format(who=who),
    "returned": _returned,
    "delivered": lambda p, who: _("{who} delivers {orders} by {transport}: {vp} points").format(
        who=who, orders=_orders(len(p["cards"])), transport=_word(p["transport"]), vp=p["vp"]
    ),
    "cage_moved": _cage_moved,
    "coal_loaded": lambda p, who: _("{who} loads a {colour} cube into the cage").format(
        who=who, colour=_word(p["colour"])
    ),
    "coal_stored": lambda p, who: _("{who} puts a {colour} cube into storage").format(
        who=who, colour=_word(p["colour"])
    ),
    "field_filled": _field_filled,
    "mining_ends": lambda p, who: _n(
        "{who} ends mining ({n} step unused)", "{who} ends mining ({n} steps unused)", p["steps_unused"]
    ).format(who=who, n=p["steps_unused"]),
    "refilled": lambda p, who: (
        _("New tunnel tile on factory space {slot}") if p["what"] == "factory"
        else _("New order card on order space {slot}")
    ).format(slot=p["slot"]),
    "not_refilled": lambda p, who: (
        _("Factory space {slot} stays empty: the stack is empty") if p["what"] == "factory"
        else _("Order space {slot} stays empty: the deck is empty")
    ).format(slot=p["slot"]),
    "shift_ends": lambda p, who: _("Shift {shift} ends: scoring").format(shift=p["shift"]),
    "delivered_revealed": lambda p, who: _("{who} reveals {orders} delivered").format(
        who=who, orders=_orders(len(p["cards"]))
    ),
    "final_scoring": lambda p, who: _(
        "{who}: {marks} VP for Marks, {coal} VP for coal, {orders} VP for outstanding orders, {balance} VP for balance"
    ).format(who=who, marks=p["marks_vp"], coal=p["coal_vp"], orders=p["outstanding_vp"], balance=p["balance_vp"]),
}  # fmt: skip


def _ids(ids: Sequence[int]) -> str:
    return ", ".join(str(i) for i in ids)


def describe_event(event: Event, view: Mapping[str, Any] | None, names: Sequence[str] | None) -> str:
    """The event in the reader's language; players are called by ``names`` (seat order)."""
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
    category = category_name(params["category"])
    if not awards:
        return _("{category}: nobody scores").format(category=category)
    return _("{category}: {awards} VP").format(category=category, awards=", ".join(awards))


def _fill(action: Action) -> str:
    _kind, source, card, field, colour = action
    text = (_("Put a {colour} cube from the cage on field {field} of order card {card}") if source == "cage"
            else _("Put a {colour} cube from storage on field {field} of order card {card}"))
    return text.format(colour=_word(colour), field=field + 1, card=card)


_ACTIONS: dict[str, Callable[[Action], str]] = {
    "fill": _fill,
    "draft": lambda a: _("Draft order card {card}").format(card=a[1]),
    "place": lambda a: _("Place on {space}").format(space=space_name(a[1])),
    "cage": lambda a: _to_level(a[1]),
    "load": lambda a: _("Load a {colour} cube into the cage").format(colour=_word(a[1])),
    "store": lambda a: _("Put a {colour} cube into storage").format(colour=_word(a[1])),
    "done": lambda a: _("End mining"),
    "confirm": lambda a: _("Confirm the turn"),
    "coal": lambda a: (
        _("Leave the new minecart empty") if a[1] is None
        else _("Put a {colour} cube on the new minecart").format(colour=_word(a[1]))
    ),
    "keep_tile": lambda a: (
        _("Keep no tunnel tile") if a[1] is None else _("Buy tunnel tile {tile}").format(tile=a[1])
    ),
    "keep_order": lambda a: (
        _("Keep no order card") if a[1] is None else _("Keep order card {card}").format(card=a[1])
    ),
    "return_tiles": lambda a: (
        _("Put tunnel tile {tile} on top of the stack") if a[1] == "top"
        else _("Put tunnel tile {tile} under the stack")
    ).format(tile=a[2]),
    "return_orders": lambda a: (
        _("Put order card {card} on top of the deck") if a[1] == "top"
        else _("Put order card {card} under the deck")
    ).format(card=a[2]),
}  # fmt: skip


def describe_action(action: Action, view: Mapping[str, Any] | None, names: Sequence[str] | None) -> str:
    """The action as a choice; with the chooser's view, with what it costs and brings (issue 25 defect 3):
    the workers it takes, a tile's price, an order's transport and VP, a delivery's VP, the work steps."""
    priced = _PRICED.get(action[0])
    if view is not None and priced is not None and view.get("seat") is not None:
        return priced(action, view)
    render = _ACTIONS.get(action[0])
    return render(action) if render else repr(action)


def _marks(amount: int) -> str:
    return _n("{amount} Mark", "{amount} Marks", amount).format(amount=amount)


def _tile(tile: Mapping[str, Any]) -> dict[str, Any]:
    return {"colour": _word(tile["colour"]), "carts": tile["carts"], "price": _marks(tile["cost"])}


def _card(card: Mapping[str, Any]) -> dict[str, Any]:
    return {"card": card["id"], "transport": _word(card["transport"]), "vp": card["vp"]}


def _place(action: Action, view: Mapping[str, Any]) -> str:
    """Placing workers: how many, and what a factory, order or delivery space brings."""
    space_id = action[1]
    space = view["board"]["spaces"][space_id]
    n = workers_needed(0 if space_id == "bank" else space["workers"])
    fields = {"n": n, "space": space_name(space_id)}
    kind = space_id.rpartition("_")[0]
    if kind == "factory" and space.get("tile"):
        return _n("Place {n} worker on {space}: a {colour} tunnel tile, minecarts: {carts}, price {price}",
                  "Place {n} workers on {space}: a {colour} tunnel tile, minecarts: {carts}, price {price}",
                  n).format(**fields, **_tile(space["tile"]))
    if kind == "order" and space.get("card"):
        return _n("Place {n} worker on {space}: order card {card}, {transport}, {vp} VP",
                  "Place {n} workers on {space}: order card {card}, {transport}, {vp} VP", n).format(
            **fields, **_card(space["card"]))
    if kind == "delivery":
        transport = space_id.partition("_")[2]
        ready = [o for o in view["board"]["seats"][view["seat"]]["orders"]
                 if delivers(o["missing"], o["transport"], transport)]
        return _n("Place {n} worker on {space}: deliver {orders} for {vp} VP",
                  "Place {n} workers on {space}: deliver {orders} for {vp} VP", n).format(
            **fields, orders=_orders(len(ready)), vp=sum(o["vp"] for o in ready))
    return _n("Place {n} worker on {space}", "Place {n} workers on {space}", n).format(**fields)


def _step(action: Action, view: Mapping[str, Any]) -> str:
    """A mining step: each takes one of the work steps left."""
    left = view["board"]["steps_left"]
    return _n("{step} (1 of {n} work step left)", "{step} (1 of {n} work steps left)", left).format(
        step=_ACTIONS[action[0]](action), n=left)


def _drawn(action: Action, view: Mapping[str, Any]) -> Mapping[str, Any]:
    return next(item for item in view["board"]["drawn"] if item["id"] == action[1])


_PRICED: dict[str, Callable[[Action, Mapping[str, Any]], str]] = {
    "place": _place,
    "cage": _step, "load": _step, "store": _step, "fill": _step,
    "done": lambda a, v: _n("End mining ({n} work step unused)", "End mining ({n} work steps unused)",
                            v["board"]["steps_left"]).format(n=v["board"]["steps_left"]),
    "keep_tile": lambda a, v: _ACTIONS["keep_tile"](a) if a[1] is None else _(
        "Buy tunnel tile {tile}: {colour}, minecarts: {carts}, price {price}").format(tile=a[1], **_tile(_drawn(a, v))),
    "keep_order": lambda a, v: _ACTIONS["keep_order"](a) if a[1] is None else _(
        "Keep order card {card}: {transport}, {vp} VP").format(**_card(_drawn(a, v))),
    "draft": lambda a, v: _("Draft order card {card}: {transport}, {vp} VP").format(
        **_card(next(card for card in v["board"]["draft"] if card["id"] == a[1]))),
}  # fmt: skip


# Hints (bots/hints.py): what the hinted move does to the reader's orders and to a shift-scoring category, from the
# reader's view only — other players' delivered piles count only where the view shows them (open_delivered).

def explain_action(action: Action, view: Mapping[str, Any], names: Sequence[str] | None) -> str | None:
    """A checkable fact about ``action`` for the reader of ``view``, or None where there is none to tell."""
    if view.get("seat") is None:
        return None
    if action[0] == "place" and action[1].startswith("delivery_"):
        return _delivery(action[1].partition("_")[2], view, names)
    if action[0] == "fill":
        return _filled(action, view)
    if action[0] == "cage":
        return _cage_goes(action[1], view)
    if action[0] == "load":
        return _loaded(action[1], view)
    return None


def _delivery(transport: str, view: Mapping[str, Any], names: Sequence[str] | None) -> str | None:
    """The orders a delivery fulfils and the transport's order fields (a shift-scoring category) it adds."""
    seats, seat = view["board"]["seats"], view["seat"]
    ready = [o for o in seats[seat]["orders"] if delivers(o["missing"], o["transport"], transport)]
    if not ready:
        return None
    before = _transport_fields(seats[seat]["delivered"], transport)
    fields = {"cards": ", ".join(str(o["id"]) for o in ready), "vp": sum(o["vp"] for o in ready),
              "category": category_name(f"{transport}_fields"), "before": before,
              "after": before + sum(len(o["fields"]) for o in ready)}
    shown = [(s, _transport_fields(p["delivered"], transport)) for s, p in enumerate(seats)
             if s != seat and p["delivered"] is not None]
    if not shown:
        return _n("Fulfils order card {cards} for {vp} VP; your {category}: {before} → {after}",
                  "Fulfils order cards {cards} for {vp} VP; your {category}: {before} → {after}",
                  len(ready)).format(**fields)
    other, theirs = max(shown, key=lambda found: (found[1], -found[0]))
    return _n("Fulfils order card {cards} for {vp} VP; your {category}: {before} → {after}, {player} has {theirs}",
              "Fulfils order cards {cards} for {vp} VP; your {category}: {before} → {after}, {player} has {theirs}",
              len(ready)).format(**fields, player=_player(other, names), theirs=theirs)


def _transport_fields(delivered: Sequence[Mapping[str, Any]], transport: str) -> int:
    return sum(len(card["fields"]) for card in delivered if card["transport"] == transport)


def _filled(action: Action, view: Mapping[str, Any]) -> str:
    """What a cube put on an order field leaves to do: a substitute's second cube, the fields still to fill,
    or the delivery the completed order is ready for."""
    _kind, _source, card, field, colour = action
    order = next(o for o in view["board"]["seats"][view["seat"]]["orders"] if o["id"] == card)
    cubes = (*order["filled"][field], colour)  # the view names colours; board.is_complete takes numbers
    if not (len(cubes) == 2 or cubes == (order["fields"][field],)):
        return _n("Order card {card}: a second cube completes this field; {left} field still to fill",
                  "Order card {card}: a second cube completes this field; {left} fields still to fill",
                  order["missing"]).format(card=card, left=order["missing"])
    left = order["missing"] - 1
    if not left:
        return _("Completes order card {card}: ready for {space}, {vp} VP").format(
            card=card, space=_(DELIVERY_SPACES[order["transport"]]), vp=order["vp"])
    return _n("Order card {card}: {left} field still to fill after this",
              "Order card {card}: {left} fields still to fill after this", left).format(card=card, left=left)


def _cage_goes(level: str, view: Mapping[str, Any]) -> str:
    """The coal the cage can take where it goes: the tunnel's cubes, or at the surface the cage's own."""
    me = view["board"]["seats"][view["seat"]]
    if level == "surface":
        cubes = sum(me["cage"].values())
        return _n("The cage brings {cubes} cube to the surface", "The cage brings {cubes} cubes to the surface",
                  cubes).format(cubes=cubes)
    cubes = sum(next(t for t in me["tunnels"] if t["colour"] == level)["coal"].values())
    return _n("Your {colour} tunnel holds {cubes} cube", "Your {colour} tunnel holds {cubes} cubes", cubes).format(
        colour=_word(level), cubes=cubes)


def _loaded(colour: str, view: Mapping[str, Any]) -> str:
    """A cube loaded into the cage: the cage's cubes of its colour, and the empty fields of that colour waiting."""
    me = view["board"]["seats"][view["seat"]]
    waiting = sum(1 for o in me["orders"] for printed, filled in zip(o["fields"], o["filled"], strict=True)
                  if printed == colour and not filled)
    return _("Cage: {colour} cubes {before} → {after}; empty {colour} fields on your orders: {fields}").format(
        colour=_word(colour), before=me["cage"][colour], after=me["cage"][colour] + 1, fields=waiting)
