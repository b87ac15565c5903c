"""Goofspiel's sentences, in the reader's language (the game's own catalog, locale/)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.protocol import Action, Event
from stammtisch.i18n import _

View = Mapping[str, Any] | None


def player(seat: Any, names: Sequence[str] | None) -> str:
    if isinstance(seat, int) and names and 0 <= seat < len(names):
        return names[seat]
    return _("Player {number}").format(number=seat + 1 if isinstance(seat, int) else "?")


def describe_event(event: Event, view: View, names: Sequence[str] | None) -> str:
    p = event.params
    if event.kind == "setup":
        return _("Goofspiel for {players} players: {prizes} prizes lie face down.").format(**p)
    if event.kind == "prize_turned":
        return _("The prize turned up is worth {prize} ({left} still face down).").format(**p)
    if event.kind == "sealed_committed":
        return _("{player} has bid.").format(player=player(p["seat"], names))
    if event.kind == "bids_revealed":
        bids = ", ".join(_("{player}: {card}").format(player=player(seat, names), card=card)
                         for seat, card in enumerate(p["bids"]))
        if p["winner"] is None:
            return _("Bids for the {prize}: {bids}; a tie at the top, nobody takes it.").format(
                prize=p["prize"], bids=bids)
        return _("Bids for the {prize}: {bids}; {player} takes it.").format(
            prize=p["prize"], bids=bids, player=player(p["winner"], names))
    return event.kind.replace("_", " ")


def describe_action(action: Action, view: View, names: Sequence[str] | None) -> str:
    if action[0] == "bid":
        return _("Bid {card}").format(card=action[1])
    return repr(action)
