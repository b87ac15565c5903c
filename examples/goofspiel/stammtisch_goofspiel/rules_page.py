"""Goofspiel's rules page (served at /rules/goofspiel): a section per phase of the flow, with a drawing
of what it changes and a line on the turn summary card."""

from __future__ import annotations

from stammtisch.i18n import N_
from stammtisch.registry import RulesSection
from stammtisch.web.drawing import arrow, rect, sign, svg
from stammtisch_goofspiel.state import BID, OVER

# A face-down prize turned up; three bids face down, then shown: the highest takes the prize.
BIDDING_DRAWING = svg(
    rect(10, 30, 30, 42, "card back"), arrow(44, 51, 62, 51), rect(66, 30, 30, 42), sign(81, 56, "7"),
    rect(120, 10, 24, 34, "card back"), rect(150, 10, 24, 34, "card back"), rect(120, 56, 24, 34), sign(132, 78, "9"),
    rect(150, 56, 24, 34), sign(162, 78, "4"),
)
# The prizes won, added up.
END_DRAWING = svg(
    rect(20, 30, 26, 38), sign(33, 54, "13"), rect(54, 30, 26, 38), sign(67, 54, "7"),
    rect(88, 30, 26, 38), sign(101, 54, "2"), sign(130, 54, "="), sign(165, 56, "22", size=18),
)

RULES = (
    RulesSection(N_("The cards"), (
        N_("Every player holds the thirteen cards of one suit, worth 1 to 13. Thirteen prizes, worth 1 "
           "to 13 as well, lie shuffled face down."),
    )),
    RulesSection(N_("A round"), (
        N_("The top prize is turned up. Every player bids one card from the hand at once, unseen; then "
           "all bids are shown. The highest bid takes the prize. Bid cards are spent."),
    ), phases=(BID,), summary=N_("Turn up a prize; everybody bids one card unseen; the highest bid alone takes it."),
        drawing=BIDDING_DRAWING),
    RulesSection(N_("A tie at the top"), (
        N_("If the highest bid is tied, nobody takes the prize: it is discarded."),
    )),
    RulesSection(N_("The end"), (
        N_("After thirteen rounds the players add up the prizes they took: the most points win."),
    ), phases=(OVER,), summary=N_("After thirteen prizes, the most points win."), drawing=END_DRAWING),
)
