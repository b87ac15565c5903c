"""Mining (glueck-auf.md, "Mining spaces"): as many work steps as the space gives, each moving the
cage, loading a cube, storing one at the surface or filling an order field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import SEQUENTIAL, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.glueckauf.board import COLOUR_INDEX, LEVEL_INDEX, LEVELS, accepts, is_complete
from stammtisch.games.glueckauf.data import COLOURS
from stammtisch.games.glueckauf.phases.shift import end_turn, tally
from stammtisch.games.glueckauf.state import MINING, Field, Player, State, make_order
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

DONE: Final[Action] = ("done",)
CAGE_TO: Final = tuple(("cage", name) for name in LEVELS)
# Where a step starts from, by the cage's level: done, or the cage to any other level.
DONE_OR_CAGE: Final = tuple((DONE, *CAGE_TO[:level], *CAGE_TO[level + 1 :]) for level in range(len(LEVELS)))
LOAD: Final = tuple(("load", name) for name in COLOURS)
STORE: Final = tuple(("store", name) for name in COLOURS)

# A mining step's events (made on every move: engine.protocol.EventKind).
CAGE_MOVED: Final = EventKind("cage_moved", "seat", "from", "to")
COAL_LOADED: Final = EventKind("coal_loaded", "seat", "colour", "level")
COAL_STORED: Final = EventKind("coal_stored", "seat", "colour")
FIELD_FILLED: Final = EventKind("field_filled", "seat", "card", "field", "from", "colour", "order_complete")
MINING_ENDS: Final = EventKind("mining_ends", "seat", "steps_unused")


def legal(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    p = state.players[seat]
    level = p.cage_level
    legal = list(DONE_OR_CAGE[level])
    cage = p.cage
    in_cage = cage[0] + cage[1] + cage[2] + cage[3]
    # Loops rather than generators: compiled, a generator is an object made on every call.
    if level:
        if in_cage < game.cage_capacity:
            base = (level - 1) * 4
            coal = p.coal
            for c in range(4):
                if coal[base + c]:
                    legal.append(LOAD[c])
    elif in_cage:
        for c in range(4):
            if cage[c]:
                legal.append(STORE[c])
    sources = []
    if level == 0 and in_cage:
        sources.append((0, cage))
    storage = p.storage
    if storage[0] or storage[1] or storage[2] or storage[3]:
        sources.append((1, storage))
    if sources and p.orders:
        _legal_fills(game, p, sources, legal)
    return legal


def allows(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    kind: str = action[0]  # a str: the engine checked it names a move
    if kind == "done":
        return len(action) == 1
    p = state.players[seat]
    if kind == "fill":
        return _allows_fill(game, p, action)
    name = action[1] if len(action) == 2 else None
    if type(name) is not str:
        return False
    level = p.cage_level
    if kind == "cage":
        return LEVEL_INDEX.get(name, level) != level
    c = COLOUR_INDEX.get(name)
    if c is None:
        return False
    cage = p.cage
    if kind == "load":
        in_cage = cage[0] + cage[1] + cage[2] + cage[3]
        return level > 0 and in_cage < game.cage_capacity and p.coal[(level - 1) * 4 + c] > 0
    return level == 0 and cage[c] > 0  # store


def _allows_fill(game: GlueckAuf, p: Player, action: Action) -> bool:
    """Whether a fill is in ``_legal_fills``'s list: a cube of the colour in the source, and the field
    the first of its card's identical fields that takes it."""
    if len(action) != 5:
        return False
    _, source, card_id, j, colour = action
    if type(source) is not str or type(card_id) is not int or type(j) is not int or type(colour) is not str:
        return False
    c = COLOUR_INDEX.get(colour)
    if c is None:
        return False
    if source == "cage":
        if p.cage_level != 0 or not p.cage[c]:
            return False
    elif source != "storage" or not p.storage[c]:
        return False
    for order in p.orders:
        if order.card == card_id and order.missing and 0 <= j < len(order.fields):
            printed, fields = game.card_fields[card_id], order.fields
            if accepts(printed[j], fields[j]) and not _same_field_before(printed, fields, j):
                return True
    return False


def _same_field_before(printed: tuple[int, ...], fields: tuple[Field, ...], j: int) -> bool:
    for i in range(j):  # noqa: SIM110 (pure Python: any() over a generator costs more)
        if printed[i] == printed[j] and fields[i] == fields[j]:
            return True
    return False


def _legal_fills(game: GlueckAuf, p: Player, sources: list[tuple[int, list[int]]], legal: list[Action]) -> None:
    for order in p.orders:
        if not order.missing:
            continue
        card_id, fields = order.card, order.fields
        printed = game.card_fields[card_id]
        seen: list[tuple[int, Field]] = []
        for j, field in enumerate(fields):
            if not accepts(printed[j], field):
                continue
            key = (printed[j], field)
            if key in seen:
                continue  # an identical field of the same card: the same choice
            seen.append(key)
            for src, cubes in sources:
                actions = game.fill_actions[src][card_id][j]
                for c in range(4):
                    if cubes[c]:
                        legal.append(actions[c])


def move_cage(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    p = state.players[seat]
    events.append(CAGE_MOVED.event(seat, LEVELS[p.cage_level], action[1]))
    p.cage_level = LEVEL_INDEX[action[1]]
    _step_taken(game, state, events)


def load(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    p = state.players[seat]
    colour = COLOUR_INDEX[action[1]]
    p.coal[(p.cage_level - 1) * 4 + colour] -= 1
    p.cage[colour] += 1
    events.append(COAL_LOADED.event(seat, action[1], LEVELS[p.cage_level]))
    _step_taken(game, state, events)


def store(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    p = state.players[seat]
    colour = COLOUR_INDEX[action[1]]
    p.cage[colour] -= 1
    p.storage[colour] += 1
    events.append(COAL_STORED.event(seat, action[1]))
    _step_taken(game, state, events)


def fill(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    _, source, card_id, j, colour_name = action
    card_id, j = int(card_id), int(j)
    p = state.players[seat]
    colour = COLOUR_INDEX[colour_name]
    (p.cage if source == "cage" else p.storage)[colour] -= 1
    printed = game.card_fields[card_id]
    for i, order in enumerate(p.orders):
        if order.card == card_id:
            fields, missing = order.fields, order.missing
            field = (*fields[j], colour)
            if is_complete(printed[j], field):
                missing -= 1
            if len(field) == 2:
                tally(state, "substituted_fields")
            p.orders[i] = make_order(card_id, (*fields[:j], field, *fields[j + 1 :]), missing)
            events.append(FIELD_FILLED.event(seat, card_id, j, source, colour_name, missing == 0))
            break
    _step_taken(game, state, events)


def _step_taken(game: GlueckAuf, state: State, events: list[Event]) -> None:
    state.steps_left -= 1
    if state.steps_left == 0:
        end_turn(game, state, events)


def done(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    events.append(MINING_ENDS.event(seat, state.steps_left))
    end_turn(game, state, events)


MINING_PHASE = Phase(MINING, N_("Mining"), SEQUENTIAL, legal=legal, allows=allows,
                     moves={"cage": move_cage, "load": load, "store": store, "fill": fill, "done": done})
