"""Goofspiel in the terminal: the prize, every hand and the prizes won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table

from stammtisch.i18n import _


def render_view(view: Mapping[str, Any], described: Mapping[str, Any]) -> Table:
    board = view["board"]
    prize = board["prize"]
    title = _("Prize: {prize}, {left} face down").format(prize=prize if prize else "–", left=board["deck"])
    table = Table(title=title)
    for column in (_("Player"), _("Hand"), _("Bid"), _("Prizes"), _("Points")):
        table.add_column(column)
    for seat, row in enumerate(board["seats"]):
        bid = str(row["bid"]) if row["bid"] is not None else (_("sealed") if row["has_bid"] else "")
        table.add_row(_("Player {number}").format(number=seat + 1), " ".join(map(str, row["hand"])), bid,
                      " ".join(map(str, row["won"])), str(row["points"]))
    return table


def render_final(view: Mapping[str, Any], described: Mapping[str, Any]) -> Table | None:
    return None  # the board shows the prizes and points: the frame's final scores need no more
