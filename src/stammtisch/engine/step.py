"""The one strict door through which every action enters a state."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Action, Event, Game, IllegalAction, Seat
from stammtisch.i18n import _


def step(game: Game[Any], state: Any, seat: Seat, action: Action, legal: list[Action] | None = None) -> list[Event]:
    """Apply ``action`` for ``seat`` if the rules allow it; otherwise raise and change nothing.

    ``legal`` is ``seat``'s legal list in this very state, when the caller already built it (Match
    keeps the one it handed out), so the strict step costs little more than ``apply``."""
    if legal is None:
        legal = game.legal_actions(state, seat)  # empty once the game is over or when seat is not to act
    try:
        found = legal[legal.index(action)]  # one scan in C; then the rare equal-but-not-identical case
    except ValueError:
        raise _refusal(game, state, seat, action, legal) from None
    if not (_identical(action, found) or any(_identical(action, other) for other in legal if other == action)):
        raise _refusal(game, state, seat, action, legal)
    return game.apply(state, seat, action)


def _refusal(game: Game[Any], state: Any, seat: Seat, action: Action, legal: list[Action]) -> IllegalAction:
    if game.is_over(state):
        return IllegalAction(_("the game is over"))
    to_act = game.to_act(state)
    if seat not in to_act:
        waiting = ", ".join(str(s) for s in to_act)
        return IllegalAction(_("seat {seat} is not to act now (waiting for seats {seats})").format(
            seat=seat, seats=waiting))
    kinds = sorted({a[0] for a in legal})
    return IllegalAction(_("{action} is not legal now; legal kinds: {kinds}").format(
        action=repr(action), kinds=", ".join(kinds)))


def _identical(a: object, b: object) -> bool:
    """Equal and of the same types all the way down: True is not 1, 1.0 is not 1."""
    if a is b:  # the usual case: an action taken from the legal list itself
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple) and isinstance(b, tuple):
        # by index: compiled, zip(strict=True) is a call through Python for every action checked
        return len(a) == len(b) and all(_identical(a[i], b[i]) for i in range(len(a)))
    return a == b
