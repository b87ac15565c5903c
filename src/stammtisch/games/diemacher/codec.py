"""Die Macher's action table: every action that can ever be legal at a table, in a fixed order.

Money-valued decisions (start bids, open re-bids, poll bids) are one action per whole money
unit up to ``money_bound``, a provable ceiling on any party's money computed from the edition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.engine.codec import money_amounts
from stammtisch.engine.protocol import Action
from stammtisch.games.diemacher.state import CARD_TYPES, Board

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

BOARDS = range(4)
OPINION_SLOTS = range(4)  # a board holds at most four opinions
WITHHELD_POLL_BASE = 3  # party base gained for a poll not published


def money_bound(game: DieMacher) -> int:
    """No party ever holds more (a provable ceiling): start money, every donation, a buy-out
    payment on every board in every round (a "!" action, once per state and round) and, in every
    round that pays money, €1,000 per vote VP of its elections at the largest state's maximum plus
    €1,000 per point of the highest reachable party base.  The base rises only through politicians
    (each acts once: its main action and one secondary), withheld polls (+3; at most one auction
    per board and round, free polls counted with the politicians) and refused donations."""
    ed = game.edition
    rounds = game.last_round
    politician_gain = sum(_gain(p.main) + max(map(_gain, p.secondary), default=0) for p in ed.politicians)
    base = (max(game.options["base_floor"], ed.start_party_base) + politician_gain
            + rounds * len(BOARDS) * WITHHELD_POLL_BASE + sum(max(0, d.reject_base) for d in ed.donations))
    max_vp = max(s.max_vp for s in ed.states)
    income = sum(1000 * (len(game.elections_in(r)) * max_vp + base) for r in range(1, rounds))
    return ed.start_money + sum(d.value for d in ed.donations) + len(BOARDS) * rounds * ed.buyout_payment + income


def _gain(code: str) -> int:
    """Party base an action can bring: BASE+k, or a free poll withheld."""
    if code == "FREE_POLL":
        return WITHHELD_POLL_BASE
    return int(code.split("+")[1]) if code.startswith("BASE+") else 0


def action_table(game: DieMacher) -> list[Action]:
    ed = game.edition
    cards = range(CARD_TYPES)
    unit = game.unit
    ceiling = money_bound(game)
    if game.options["overbid_mode"] == "honour_system_with_penalty":
        ceiling += 10 * unit
    money = money_amounts(unit, ceiling)
    table: list[Action] = [("pass",)]
    table += [("draft_pick", c) for c in cards]
    table += [("program_card", c) for c in cards]
    table += [("keep", c) for c in cards]
    table += [("start_block", b) for b in range(1, len(ed.start_blocks) + 1)]
    table += [("start_state", pos) for pos in BOARDS]
    table += [("bid", x) for x in money]
    table += [("raise", x) for x in money if x > 0]
    table += [("program_pass",), ("draw_and_take",), ("refresh_and_take",)]
    table += [("take", c) for c in cards]
    table += [("swap", out, c) for out in cards for c in cards]
    table += [("swaps_done",)]
    table += [("keep_card", c) for c in cards]
    table += [("buy_media", pos) for pos in BOARDS]
    table += [("rallies", pos, n) for pos in BOARDS for n in range(ed.rally_cap + 1)]
    table += [("place", pos, p) for pos in BOARDS for p in [None, *(x.id for x in ed.politicians)]]
    table += _politician_actions(game)
    table += [("withhold_poll",), ("publish_poll",)]
    table += [("poll_bid", x) for x in money]
    table += [("shift", slot, c) for slot in OPINION_SLOTS for c in cards]
    table += [("convert", pos, k) for pos in BOARDS for k in range(4, ed.rally_cap + 1)]
    table += [("donation", d.value, accept) for d in ed.donations for accept in (True, False)]
    table += [("coalition", True), ("coalition", False)]
    table += [("coalition_partner", seat) for seat in range(game.num_players)]
    return table


def _politician_actions(game: DieMacher) -> list[Action]:
    spots = range(len(Board.new(0, game.num_players).media))
    table: list[Action] = [("pay",), ("decline",), ("skip",)]
    table += [("double", slot) for slot in OPINION_SLOTS]
    table += [("double_remove",)]
    table += [("buyout", spot, place) for spot in spots for place in (False, True)]
    table += [("others_trend",), ("program",), ("free_poll",)]
    amounts: set[tuple[str, int]] = set()
    for politician in game.edition.politicians:
        for code in (politician.main, *politician.secondary):
            kind, _, amount = code.partition("+")
            if kind in ("TREND", "VOTES", "BASE"):
                amounts.add((kind.lower(), int(amount)))
    table += sorted(amounts)
    return table
