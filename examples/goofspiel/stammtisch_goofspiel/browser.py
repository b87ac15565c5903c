"""The texts Goofspiel's browser module (static/goofspiel.js) shows, as msgids (t("…"))."""

from __future__ import annotations

from stammtisch.i18n import N_

TEXTS = (
    N_("Prize"),
    N_("{left} prizes face down"),
    N_("No prize turned up"),
    N_("Hand"),
    N_("Has bid"),
    N_("Thinking"),
    N_("Your bid: {card}"),
    N_("Prizes won: {points} points"),
    N_("Last bids"),
    N_("Bid {card}"),
)
