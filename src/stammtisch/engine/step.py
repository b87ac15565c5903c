"""The one strict door through which every action enters a state."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Action, Event, Game, IllegalAction, Seat
from stammtisch.i18n import _


def step(game: Game[Any], state: Any, seat: Seat, action: Action) -> list[Event]:
    """Apply ``action`` for ``seat`` if the rules allow it; otherwise raise and change nothing."""
    if game.is_over(state):
        raise IllegalAction(_("the game is over"))
    if seat not in game.to_act(state):
        waiting = ", ".join(str(s) for s in game.to_act(state))
        raise IllegalAction(_("seat {seat} is not to act now (waiting for seats {seats})").format(
            seat=seat, seats=waiting))
    legal = game.legal_actions(state, seat)
    if action not in legal or not any(_identical(action, candidate) for candidate in legal if candidate == action):
        kinds = sorted({a[0] for a in legal})
        raise IllegalAction(_("{action} is not legal now; legal kinds: {kinds}").format(
            action=repr(action), kinds=", ".join(kinds)))
    return game.apply(state, seat, action)


def _identical(a: object, b: object) -> bool:
    """Equal and of the same types all the way down: True is not 1, 1.0 is not 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b, strict=True))
    return a == b
