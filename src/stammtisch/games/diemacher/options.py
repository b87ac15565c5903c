"""Table options of Die Macher: the spec's config flags (die-macher.md §15) with their defaults.

Each option names the conflict or gap it settles, so that a group that reads a rule another
way can choose their reading at the table.
"""

from __future__ import annotations

from typing import Any

from stammtisch.games.diemacher.data import PARTY_IDS
from stammtisch.i18n import N_, _

KIND_NAMES = {int: N_("a whole number"), bool: N_("true or false"), list: N_("a list"), str: N_("a text")}

# name -> (default, allowed values or a type, where the choice comes from)
OPTIONS: dict[str, tuple[Any, Any, str]] = {
    "elections": (4, (4, 7), "4-election game or the 7-election long game"),
    "parties": (None, list, "party of each seat, e.g. ['SPD', 'CDU', 'LINKE']; default: the first N"),
    "data_file": (None, str, "path of a component data file with printed values"),
    "open_money": (False, bool, "HI-01: everybody sees everybody's money"),
    "tiebreak_open_order": ("right_neighbour_clockwise",
                            ("right_neighbour_clockwise", "previous_start_player_clockwise"), "C-01"),
    "poll_auction_first": ("left_of_auctioneer", ("left_of_auctioneer", "left_of_start_player"), "C-02"),
    "donation_accept_base_loss": ([1, 2, 3], list, "C-03"),
    "rally_trend_floor_general": (True, bool, "C-04"),
    "bang_lock_scope": ("state_round", ("state_round", "state_game"), "C-08"),
    "coalition_mode": ("priority_first_feasible",
                       ("priority_first_feasible", "strongest_chooses_any_feasible", "candidate_may_decline"), "C-09"),
    "removed_board_media": ("to_supply", ("to_supply", "to_box"), "C-10"),
    "force_convert_at_cap": (False, bool, "C-11"),
    "swap_out_to": ("hand", ("hand", "discard"), "C-12"),
    "poll_apply_other_positive": (False, bool, "C-13"),
    "overbid_mode": ("forbid", ("forbid", "honour_system_with_penalty"), "C-14"),
    "phase2_optional": (True, bool, "C-15"),
    "win_threshold": (50, int, "C-17"),
    "trend_min": (None, int, "M-05: lowest trend (default from the data file, −3)"),
    "trend_max": (None, int, "M-05: highest trend (default from the data file, +4)"),
    "poll_reshuffle": (True, bool, "G-01"),
    "opinion_reshuffle": (True, bool, "G-02"),
    "poll_no_bid": ("discard", ("discard", "stays_on_top"), "G-03"),
    "buyout_removed_to": ("supply", ("supply", "box"), "G-04"),
    "base_floor": (0, int, "G-05"),
    "money_rank": ("competition", ("competition", "dense"), "G-08"),
    "media_influencer_timing": ("before_moves", ("before_moves", "after_winner_moves"), "G-09"),
    "no_coalition_winner_media": (False, bool, "G-09"),
    "p6_pay_order": ("row", ("row", "simultaneous"), "G-13"),
    "unpublished_poll_public": (False, bool, "G-14"),
    "money_unit": (1000, int, "G-17"),
}


def check_options(options: dict[str, Any], seats: int) -> dict[str, Any]:
    """Fill in defaults; reject unknown names and values outside each option's range."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(_("unknown table option {name}; known: {known}").format(
            name=repr(unknown[0]), known=", ".join(OPTIONS)))
    result = {}
    for name, (default, allowed, _source) in OPTIONS.items():
        value = options.get(name, default)
        if value is not None and not _allowed(value, allowed):
            raise ValueError(_not_allowed(name, value, allowed))
        result[name] = value
    _check_parties(result, seats)
    loss = result["donation_accept_base_loss"]
    if len(loss) != 3 or not all(isinstance(x, int) and x >= 0 for x in loss):
        raise ValueError(_("table option donation_accept_base_loss: expected three whole numbers, e.g. [1, 2, 3]"))
    if result["money_unit"] <= 0:
        raise ValueError(_("table option money_unit: must be positive"))
    return result


def _check_parties(result: dict[str, Any], seats: int) -> None:
    parties = result["parties"] or list(PARTY_IDS[:seats])
    if len(parties) != seats or len(set(parties)) != seats or not set(parties) <= set(PARTY_IDS):
        raise ValueError(_("table option parties: expected {n} different parties from {parties}").format(
            n=seats, parties=", ".join(PARTY_IDS)))
    result["parties"] = list(parties)


def _allowed(value: Any, allowed: Any) -> bool:
    if isinstance(allowed, tuple):
        return value in allowed and type(value) is type(allowed[0])
    if allowed is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, allowed)


def _not_allowed(name: str, value: Any, allowed: Any) -> str:
    if isinstance(allowed, tuple):
        return _("table option {name}: {value} is not allowed; choose one of {choices}").format(
            name=name, value=repr(value), choices=", ".join(repr(a) for a in allowed))
    kind = KIND_NAMES[allowed]
    return _("table option {name}: {value} is not allowed; expected {kind}").format(
        name=name, value=repr(value), kind=_(kind))
