"""Die Macher's encodings: the action table, the shape of the views, and the longest game.

The action table holds every action that can ever be legal at a table, in a fixed order.
Money-valued decisions (start bids, open re-bids, poll bids) are one action per whole money
unit up to ``money_bound``, a provable ceiling on any party's money computed from the edition.

The views' shape (``observation_shape``, engine/shape.py) gives every list the room the rules allow
it, each with the reason; ``most_decisions`` bounds the decisions of a whole game, phase by phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.engine.codec import money_amounts
from stammtisch.engine.protocol import Action
from stammtisch.engine.shape import (
    ONE_PER_SEAT,
    Const,
    Flag,
    Int,
    Maybe,
    Record,
    Seq,
    Text,
    envelope_shape,
    phase_names,
    seat_list,
)
from stammtisch.games.diemacher.data import START_SYMBOLS
from stammtisch.games.diemacher.phases import money, politicians
from stammtisch.games.diemacher.phases.politicians import BANG
from stammtisch.games.diemacher.phases.program import STEP_NAMES
from stammtisch.games.diemacher.scoring import final_scores
from stammtisch.games.diemacher.state import CARD_TYPES, Board

if TYPE_CHECKING:
    from stammtisch.games.diemacher.data import Politician
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
    spots = range(_media_spots(game))
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


# --- the views' shape ---------------------------------------------------------------------------

PROGRAM_SIZE = 5  # a program holds five cards of five topics (die-macher.md §3.H.4)
DRAFT_HAND = 7  # each party drafts from seven cards and ends up with seven (§3.H.1–3)
DRAFT_PICKS = 4  # picks before the last three are passed on (§3.H.2)
PROGRAM_CARDS = CARD_TYPES * 4  # four copies of each card (§2.2: 56 cards)
OPINION_CARDS = CARD_TYPES * 3  # three copies of each card (§2.2: 42 cards)
# What the pending decision's "step" can be: phase 6's steps, phase 9c's donation, the program change's.
STEPS = ("", *politicians.STAGES, money.DONATIONS, *STEP_NAMES)
DECISION_KINDS = ("poll_use", "program_change", "coalition", "auction")


def observation_shape(game: DieMacher) -> Record:
    """Every view at this table (view.py), each list with the room the rules give it."""
    ed, n = game.edition, game.num_players
    elections = 7 if game.long_game else 4
    board = Record({
        "elections": Const(elections),
        "round": Int(),
        "last_round": Const(game.last_round),
        "start_player": Int(),
        "turn_order": seat_list(n),
        "boards": Seq(_state_board(game), len(BOARDS), "four state boards in the ring (§3.B)"),
        "seats": Seq(_party(game, elections), n, ONE_PER_SEAT),
        "program_display": Seq(Maybe(Int()), ed.program_display_size[n], "the display's size at this player "
                                                                             "count (C-06)"),
        "program_deck": Int(),
        "program_discard": Seq(Int(), PROGRAM_CARDS, "each of the 56 program cards once at most (§2.2)"),
        "opinion_display": Seq(Int(), CARD_TYPES, "one opinion card of each kind at most (§3.D)"),
        "opinion_deck": Int(),
        "opinion_discard": Seq(Int(), OPINION_CARDS, "each of the 42 opinion cards once at most (§2.2)"),
        "poll_deck": Int(),
        "poll_top_back": Maybe(Text([p.id for p in ed.parties])),
        "poll_discard": Seq(Maybe(Text([p.id for p in ed.polls])), len(ed.polls),
                            "each poll card once at most (§3.E)"),
        "double_markers": Int(),
        "media_presence": Seq(Record({"vp": Int(), "markers": Seq(Int(), n, "one election's marker of each party "
                                                                              "at most reaches a spot (§5 9b)")}),
                              len(ed.media_presence), "the media-presence track's spots (§2.1)"),
        "future_states": Int(),
        "elections_held": Int(),
        "elected": Seq(Text([s.id for s in ed.states]), elections, "one state per election"),
    })
    state = game.new_state(0)[0]  # the columns of the final table, as the scoring names them
    detail = Record(dict.fromkeys(["total", *final_scores(game, state)[0][1]], Int()))
    return envelope_shape(game, phases=phase_names(game.flow), decision=_decision(game), board=board,
                          final_detail=detail)


def _state_board(game: DieMacher) -> Record:
    ed, n = game.edition, game.num_players
    return Record({
        "state": Text([s.id for s in ed.states]),
        "name": Text([s.name for s in ed.states]),
        "max_vp": Int(),
        "vp_table": Seq(Seq(Int(), 2, "votes and their VP"), max(len(s.vp_table) for s in ed.states),
                        "the longest VP table of the edition's state cards"),
        "in_play": Flag(),
        "ballot_box": Flag(),
        "opinions": Seq(Record({"card": Maybe(Int()), "face_up": Flag(), "doubled": Flag()}), len(OPINION_SLOTS),
                        "a board holds four opinions (§3.D)"),
        "votes": seat_list(n),
        "trend": seat_list(n),
        "rallies": seat_list(n),
        "media": Seq(Maybe(Int()), _media_spots(game), "five media spots per state (§2.4)"),
        "media_influencer": Maybe(Int()),
        "matches": seat_list(n),
        "politicians": Seq(Record({"seat": Int(), "politician": Maybe(Text([p.id for p in ed.politicians])),
                                   "paid": Maybe(Flag())}),
                           n, "a party sends one politician at most to a state (§5 phase 5)"),
        "locked_actions": Seq(Text(BANG), len(BANG), "each \"!\" action locks a state once (C-08)"),
    })


def _party(game: DieMacher, elections: int) -> Record:
    ed, n = game.edition, game.num_players
    poll = Record({
        "id": Text([p.id for p in ed.polls]),
        "back": Text([p.id for p in ed.parties]),
        "delta": Record(dict.fromkeys((p.id for p in ed.parties), Int())),
        "changes": Seq(Seq(Int(), 2, "a seat and its trend change"), n, ONE_PER_SEAT),
    })
    secret = 1 + max(len(block) for block in ed.start_blocks)
    return Record({
        "party": Text([p.id for p in ed.parties]),
        "party_name": Text([p.name for p in ed.parties]),
        "colour": Text([p.colour for p in ed.parties]),
        "party_base": Int(),
        "money": Maybe(Int()),
        "program": Seq(Int(), PROGRAM_SIZE, "a program holds five cards (§3.H.4)"),
        "hand_size": Int(),
        "politicians_left": Int(),
        "donations_left": Int(),
        "media_supply": Int(),
        "rally_supply": Int(),
        "vote_vp": Seq(Int(), elections, "one entry per election (§5 9b)"),
        "win_vp": Seq(Int(), elections, "one entry per election (§5 9b)"),
        "excluded_from_auctions": Flag(),
        "committed": Flag(),
    }, optional={  # the seat's own
        "hand": Seq(Int(), DRAFT_HAND, "seven drafted cards; a program change holds three at most (§3.H, §5 2)"),
        "politicians": Seq(Text([p.id for p in ed.politicians]), len(_politicians(game)),
                           "the party's politicians at this table (§2.1)"),
        "sealed": Seq(Int(), secret, "the largest sealed choice: a start block and its states (§3.J)"),
        "donations": Seq(Int(), len(ed.donations), "the party's donation cards (§3.G)"),
        "draft_hand": Seq(Int(), DRAFT_HAND, "the seven cards a draft starts from (§3.H.1)"),
        "poll_in_hand": poll,
    })


def _decision(game: DieMacher) -> Record:
    ed, n = game.edition, game.num_players
    prices = Record({}, optional={
        "media_marker": Int(),
        "rallies": Seq(Int(), ed.rally_cap + 1, "0 to 8 rallies in a state (§2.4)"),
        "politicians": Record(dict.fromkeys((p.id for p in ed.politicians), Int())),
        "buyout": Int(),
        "trend_floor": Flag(),
        "donations": Seq(Seq(Int(), 3, "a donation's value and the party base taking or refusing it gives"),
                         len(ed.donations), "the edition's donation cards (§3.G)"),
        "start_blocks": Seq(Seq(Text(START_SYMBOLS), max(len(block) for block in ed.start_blocks),
                                "the spots of a start block (§3.J)"),
                            len(ed.start_blocks), "the edition's start blocks (§3.J)"),
    })
    return Record({"phase": Text(phase_names(game.flow)), "step": Text(STEPS), "sealed": Flag()}, optional={
        "kind": Text(DECISION_KINDS),
        "seat": Int(),
        "board": Int(),
        "swaps": Int(),
        "swapped_in": Maybe(Int()),
        "strongest": Int(),
        "candidates": Seq(Int(), n - 1, "the other parties (C-09)"),
        "asked": Int(),
        "high": Maybe(Int()),
        "high_seat": Maybe(Int()),
        "order": seat_list(n),
        "position": Int(),
        "prices": prices,
    })


def _politicians(game: DieMacher) -> list[Politician]:
    return [p for p in game.edition.politicians if game.long_game or not p.long_game_only]


def _media_spots(game: DieMacher) -> int:
    return len(Board.new(0, game.num_players).media)


# --- the longest game ---------------------------------------------------------------------------

PROGRAM_CHANGE_DECISIONS = 5  # a mode, a display card, two swaps (or one and "done"), the card kept (§5 2)
INTERLUDE_DECISIONS = {"PROGRAM": PROGRAM_CHANGE_DECISIONS, "FREE_POLL": 1}  # a politician's change, its poll


def most_decisions(game: DieMacher) -> int:
    """The most decisions a game at this table can take: the set-up's, every round's and every
    politician's, each phase counted at its most (docs/research.md, "The longest game")."""
    n = game.num_players
    rounds = range(1, game.last_round + 1)
    every_round = sum(_round_decisions(game, len(game.elections_in(r))) for r in rounds)
    politicians = n * sum(_politician_decisions(p) for p in _politicians(game))
    donations = n * len(game.edition.donations)  # one card a round, each card once (§5 9c)
    return n * _setup_decisions(game) + every_round + politicians + donations


def _setup_decisions(game: DieMacher) -> int:
    """One seat's: four draft picks, five program cards (with those completing a short program), the
    card kept, a start block and a state for each of its spots (§3.H, §3.J)."""
    return DRAFT_PICKS + PROGRAM_SIZE + 1 + 1 + max(len(block) for block in game.edition.start_blocks)


def _round_decisions(game: DieMacher, elections: int) -> int:
    """Phases 1–5 and 7–9b of one round (phase 6 is counted by politician, 9c by donation card)."""
    n, boards = game.num_players, len(BOARDS)
    honour = game.options["overbid_mode"] == "honour_system_with_penalty"
    # Phase 1: a sealed bid and an open re-bid by each seat; an overbid (honour system, C-14) shuts
    # its seat out and starts both again for the others.
    start_bids = n * (n + 1) if honour else 2 * n
    # Phase 3: every purchase places one of the parties' markers on a free spot; before each, fewer
    # passes than seats (a round of passes ends the phase, §5 3), and that round at the end.
    purchases = min(n * game.edition.media_markers[7 if game.long_game else 4], boards * _media_spots(game))
    media = n * (purchases + 1)
    # Phase 8: each seat bids or passes once per auction (an overbid restarts it without its seat), and
    # the winner publishes or withholds the card.
    auction = n * (n + 1) // 2 if honour else n
    polls = boards * (auction + 1)
    coalition = elections * (n - 1)  # each candidate asked once at most (C-09)
    return (start_bids + n * PROGRAM_CHANGE_DECISIONS + media + n * boards  # 1, 2, 3, 4 (a choice per state)
            + n * boards + boards + polls + n * boards + coalition)  # 5, 7, 8, 9a, 9b


def _politician_decisions(politician: Politician) -> int:
    """Paying (or declining), the main action and a secondary one (or skipping them), and what a
    program change or a free poll asks on top (§5 phase 6)."""
    extra = INTERLUDE_DECISIONS.get(politician.main, 0)
    extra += max((INTERLUDE_DECISIONS.get(code, 0) for code in politician.secondary), default=0)
    return 3 + extra
