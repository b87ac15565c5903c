"""Table options of Die Macher: the spec's config flags (die-macher.md §15) with their defaults.

Each option names the conflict or gap it settles, so that a group that reads a rule another
way can choose their reading at the table.  Ranges keep every table playable (docs/rules-notes.md,
"Table option ranges").
"""

from __future__ import annotations

from typing import Any

from stammtisch.engine.options import GUIDE, HINTS, Option, OptionError
from stammtisch.engine.options import check_options as check_declared
from stammtisch.games.diemacher.data import PARTY_IDS
from stammtisch.i18n import N_, _

OPTIONS: tuple[Option, ...] = (
    Option("elections", int, 4, N_("Elections"), "§15", choices=(4, 7),
           hint=N_("4: the base game, 4 rounds with one election each and 5 politicians per player. 7: the long "
                   "game, 5 rounds (the last two with two elections each) and 8 politicians per player.")),
    Option("parties", list, None, N_("Party of each seat"), "§15", choices=PARTY_IDS, nullable=True, lobby=False),
    # path of an edition data file; None: the packaged edition (as Glück Auf's; formerly data_file, still read)
    Option("edition", str, None, N_("Edition data file"), "M-01", nullable=True, lobby=False, server_file=True,
           formerly=("data_file",)),
    Option("open_money", bool, False, N_("Open money: everybody sees everybody's money"), "HI-01",
           hint=N_("Off: each party keeps its money secret, as the rulebook allows. On: every party's money is "
                   "shown to all; the game is the same, since money can be worked out from the public moves.")),
    Option("tiebreak_open_order", str, "right_neighbour_clockwise", N_("Order of a tied open re-bid"), "C-01",
           choices=("right_neighbour_clockwise", "previous_start_player_clockwise"), lobby=False),
    Option("poll_auction_first", str, "left_of_auctioneer", N_("Who bids first in a poll auction"), "C-02",
           choices=("left_of_auctioneer", "left_of_start_player"), lobby=False),
    Option("donation_accept_base_loss", list, (1, 2, 3), N_("Party base lost by accepting a donation"), "C-03",
           low=0, high=5, length=3, lobby=False),
    Option("rally_trend_floor_general", bool, True, N_("The trend floor for rallies holds everywhere"), "C-04",
           lobby=False),
    Option("bang_lock_scope", str, "state_round", N_("How long a locked state stays locked"), "C-08",
           choices=("state_round", "state_game"), lobby=False),
    Option("coalition_mode", str, "priority_first_feasible", N_("How coalitions form"), "C-09",
           choices=("priority_first_feasible", "strongest_chooses_any_feasible", "candidate_may_decline"),
           lobby=False),
    Option("removed_board_media", str, "to_supply", N_("Where media markers of a removed board go"), "C-10",
           choices=("to_supply", "to_box"), lobby=False),
    Option("force_convert_at_cap", bool, False, N_("Rallies at the limit must be converted"), "C-11", lobby=False),
    Option("swap_out_to", str, "hand", N_("Where a program card swapped out goes"), "C-12",
           choices=("hand", "discard"), lobby=False),
    Option("poll_apply_other_positive", bool, False, N_("A poll also raises the other parties"), "C-13",
           lobby=False),
    Option("overbid_mode", str, "forbid", N_("Bids above your money"), "C-14",
           choices=("forbid", "honour_system_with_penalty"), lobby=False),
    Option("phase2_optional", bool, True, N_("Changing the program is optional"), "C-15", lobby=False),
    Option("win_threshold", int, 50, N_("Votes needed to win a state"), "C-17", low=1, high=1000, lobby=False),
    Option("trend_min", int, None, N_("Lowest trend"), "M-05", low=-5, high=-1, nullable=True, lobby=False),
    Option("trend_max", int, None, N_("Highest trend"), "M-05", low=1, high=5, nullable=True, lobby=False),
    Option("poll_reshuffle", bool, True, N_("Reshuffle the poll deck when it runs out"), "G-01", lobby=False),
    Option("opinion_reshuffle", bool, True, N_("Reshuffle the opinion deck when it runs out"), "G-02",
           lobby=False),
    Option("poll_no_bid", str, "discard", N_("A poll card nobody bids on"), "G-03",
           choices=("discard", "stays_on_top"), lobby=False),
    Option("buyout_removed_to", str, "supply", N_("Where a bought-out media marker goes"), "G-04",
           choices=("supply", "box"), lobby=False),
    Option("base_floor", int, 0, N_("Lowest party base"), "G-05", low=0, high=10, lobby=False),
    Option("money_rank", str, "competition", N_("Ranking ties in leftover money"), "G-08",
           choices=("competition", "dense"), lobby=False),
    Option("media_influencer_timing", str, "before_moves", N_("When the media influencer is fixed"), "G-09",
           choices=("before_moves", "after_winner_moves"), lobby=False),
    Option("no_coalition_winner_media", bool, False, N_("Media move for a winner without a coalition"), "G-09",
           lobby=False),
    Option("p6_pay_order", str, "row", N_("Order of paying for politicians"), "G-13",
           choices=("row", "simultaneous"), lobby=False),
    Option("unpublished_poll_public", bool, False, N_("An unpublished poll is shown to all"), "G-14",
           lobby=False),
    Option("money_unit", int, 1000, N_("Smallest bid step in euros"), "G-17", choices=(100, 500, 1000),
           lobby=False),
    HINTS,
    GUIDE,
)


def check_options(options: dict[str, Any], seats: int) -> dict[str, Any]:
    """Fill in defaults; refuse unknown names and values outside each option's range."""
    result = check_declared(OPTIONS, options)
    parties = result["parties"] or list(PARTY_IDS[:seats])
    if len(parties) != seats or len(set(parties)) != seats:
        raise OptionError("parties", _("table option parties: expected {n} different parties from {parties}").format(
            n=seats, parties=", ".join(PARTY_IDS)))
    result["parties"] = list(parties)
    return result
