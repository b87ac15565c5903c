"""The one strict door through which every action enters a state."""

from __future__ import annotations

from typing import Any, cast

from stammtisch.engine.protocol import Action, Event, Game, IllegalAction, Seat, listed
from stammtisch.i18n import _


def step(game: Game[Any], state: Any, seat: Seat, action: object, legal: list[Action] | None = None) -> list[Event]:
    """Apply ``action`` for ``seat`` if the rules allow it; otherwise raise and change nothing.

    Allowed means: in ``seat``'s legal list and identical to its entry in types all the way down
    (``True`` is not ``1``).  ``legal`` is that list in this very state, when the caller already
    built it (Match keeps the one it handed out); without it the game answers ``is_legal``, which
    a flow game's phases may answer without building the list (engine/flow.py, ``allows``).  Either
    way the strict step costs little more than ``apply``; only a refusal builds the list, to say why.
    Anything else than an action (a list, a string) is refused like any action not legal now."""
    if not (game.is_legal(state, seat, action) if legal is None else listed(action, legal)):
        raise _refusal(game, state, seat, action, game.legal_actions(state, seat) if legal is None else legal)
    return game.apply(state, seat, cast(Action, action))  # allowed: a tuple


def _refusal(game: Game[Any], state: Any, seat: Seat, action: object, legal: list[Action]) -> IllegalAction:
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
