"""The draw-5 spaces (factory and order): the drawer sees the items, keeps at most one and puts
the rest back face down, on top of or under the pile, in an order only the drawer knows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.protocol import Action, Event, Seat
from stammtisch.games.glueckauf.phases.shift import tally
from stammtisch.games.glueckauf.state import RETURN_TILES, State

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

RETURN_SIDES: Final = ("top", "bottom")


def draw(game: GlueckAuf, state: State, seat: int, pile: list[int], what: str, events: list[Event]) -> None:
    n = min(game.edition.draw_count, len(pile))
    state.drawn = sorted(pile.pop() for _ in range(n))  # a hand, not a pile: no order to learn
    tally(state, f"draw_{what}")
    events.append(Event(f"drew_{what}", {"seat": seat, "count": n}))
    events.append(Event(f"drawn_{what}", {"seat": seat, "ids": list(state.drawn)}, (seat,)))


def legal_return(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    """The next drawn item to put back; the side is chosen with the first one."""
    kind = "return_tiles" if state.phase == RETURN_TILES else "return_orders"
    sides = RETURN_SIDES if state.return_to is None else (state.return_to,)
    return [(kind, where, item) for where in sides for item in sorted(state.drawn)]


def allows_return(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_return``'s list, without building it (the strict step)."""
    if len(action) != 3 or type(action[1]) is not str or type(action[2]) is not int:
        return False
    where = action[1]
    side = where in RETURN_SIDES if state.return_to is None else where == state.return_to
    return side and action[2] in state.drawn


def return_one(state: State, seat: int, pile: list[int], action: Action, what: str, events: list[Event]) -> bool:
    """Put one drawn item face down on top of or under the pile (the last one follows by
    itself); True once the hand is empty.  Only the drawer knows the order."""
    where = str(action[1])
    state.return_to = where
    _put_back(state, pile, where, int(action[2]))
    if len(state.drawn) == 1:
        _put_back(state, pile, where, state.drawn[0])
    if state.drawn:
        return False
    events.append(Event("returned", {"seat": seat, "what": what, "count": len(state.returned), "where": where}))
    state.return_to = None
    state.returned = []
    return True


def _put_back(state: State, pile: list[int], where: str, item: int) -> None:
    state.drawn.remove(item)
    state.returned.append(item)
    if where == "top":
        pile.append(item)
    else:
        pile.insert(0, item)
