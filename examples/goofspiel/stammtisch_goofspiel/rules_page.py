"""Goofspiel's short rules page (served at /rules/goofspiel)."""

from __future__ import annotations

from stammtisch.i18n import N_

RULES = (
    (N_("The cards"), (
        N_("Every player holds the thirteen cards of one suit, worth 1 to 13. Thirteen prizes, worth 1 "
           "to 13 as well, lie shuffled face down."),
    )),
    (N_("A round"), (
        N_("The top prize is turned up. Every player bids one card from the hand at once, unseen; then "
           "all bids are shown. The highest bid takes the prize. Bid cards are spent."),
    )),
    (N_("A tie at the top"), (
        N_("If the highest bid is tied, nobody takes the prize: it is discarded."),
    )),
    (N_("The end"), (
        N_("After thirteen rounds the players add up the prizes they took: the most points win."),
    )),
)
