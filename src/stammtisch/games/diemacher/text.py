"""Readable sentences for Die Macher events and actions, in the reader's language.

Everything needs the reader's view for names (parties by seat, states by board), so both
functions take it.  Every phrase goes through ``_`` for translation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stammtisch.engine.protocol import Action, Event
from stammtisch.games.diemacher.board import conversion
from stammtisch.games.diemacher.data import load_edition
from stammtisch.games.diemacher.phases import FLOW
from stammtisch.games.diemacher.phases.start import placing
from stammtisch.i18n import N_, _, _n, format_number

# Tables built at import time hold English literals marked with N_ (extracted, not yet
# translated); every use translates them: _(TOPIC_NAMES[i]).
TOPIC_NAMES = (N_("education"), N_("digitization"), N_("genetic engineering"), N_("national security"),
               N_("welfare state"), N_("environment"), N_("traffic"))
POLITICIAN_NAMES = {
    "backbencher": N_("Backbencher"), "vice_chancellor": N_("Vice-Chancellor"), "spokesperson": N_("Spokesperson"),
    "secretary": N_("Secretary"), "parliamentary_leader": N_("Parliamentary leader"),
    "honorary_chairman": N_("Honorary chairman"), "party_executive": N_("Party executive"),
    "front_runner": N_("Front runner"),
}
PHASE_NAMES = FLOW.labels()  # the labels declared with the phases
SYMBOLS = {"R": N_("+3 rallies"), "T": N_("+1 trend"), "M": N_("+1 media"), "V": N_("+6 votes")}
OUTCOMES = {"sole": N_("absolute majority"), "several": N_("several majorities"), "coalition": N_("coalition"),
            "no_coalition": N_("no coalition")}


def card_name(card: int | None) -> str:
    if card is None:
        return _("face-down card")
    return ("+" if card % 2 == 0 else "−") + _(TOPIC_NAMES[card // 2])


def politician_name(politician: str | None) -> str:
    return _(POLITICIAN_NAMES[politician]) if politician else _("a face-down politician")


def phase_name(phase: str) -> str:
    return _(PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase


def money(amount: int) -> str:
    # TRANSLATORS: an amount of money; {amount} is already written with the language's digit grouping.
    return _("€{amount}").format(amount=format_number(amount))


class Names:
    """Party and state names as the reader's view gives them."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view

    def party(self, seat: int | None) -> str:
        return _("nobody") if seat is None or seat < 0 else str(self.view["board"]["seats"][seat]["party_name"])

    def board(self, pos: int) -> str:
        return str(self.view["board"]["boards"][pos]["name"])


def describe_event(event: Event, view: Mapping[str, Any], names: Sequence[str] | None) -> str:
    """The event as the reader of ``view`` reads it; parties are named by the view, so ``names`` is unused."""
    party_names = Names(view)
    render = _EVENTS.get(event.kind)
    return render(event.params, party_names) if render else event.kind.replace("_", " ")


def _conversion(p: Mapping[str, Any], n: Names) -> str:
    return _n("{party} converts {k} rallies in {state}: ({k} {sign} {trend}) × {mult} = {votes} vote",
              "{party} converts {k} rallies in {state}: ({k} {sign} {trend}) × {mult} = {votes} votes",
              p["votes"]).format(
        party=n.party(p["seat"]), k=p["rallies"], state=n.board(p["board"]), **_formula(p["trend"], p["mult"]),
        votes=p["votes"])


def _formula(trend: int, mult: int) -> dict[str, Any]:
    """The fields of a conversion's formula "({k} {sign} {trend}) × {mult}", as the log writes it."""
    return {"sign": "+" if trend >= 0 else "−", "trend": abs(trend), "mult": mult}


def _election(p: Mapping[str, Any], n: Names) -> str:
    votes = ", ".join(_("{party} {votes} ({points} VP)").format(party=n.party(s), votes=v, points=vp)
                      for s, (v, vp) in enumerate(zip(p["votes"], p["vote_vp"], strict=True)))
    awarded = " + ".join(n.party(s) for s in p["awarded"])
    outcome = OUTCOMES[p["outcome"]]
    text = _("Election {number} in {state}: {votes}. {outcome}: {awarded} +{points} VP.").format(
        number=p["election"], state=n.board(p["board"]), votes=votes, outcome=_(outcome),
        awarded=awarded, points=p["win_vp"])
    if p["media_moved"]:
        text += " " + _("Media presence: {parties}.").format(parties=", ".join(n.party(s) for s in p["media_moved"]))
    return text


def _politician_action(p: Mapping[str, Any], n: Names) -> str:
    who, state = n.party(p["seat"]), n.board(p["board"])
    texts: dict[str, Callable[[], str]] = {
        "double": lambda: _("{party} puts the double marker on {card} in {state}").format(
            party=who, card=card_name(p["card"]), state=state),
        "double_remove": lambda: _("{party} removes the double marker from {card} in {state}").format(
            party=who, card=card_name(p["card"]), state=state),
        "buyout": lambda: _("{party} buys out a media marker of {owner} in {state} for {amount}").format(
            party=who, owner=n.party(p["owner"]), state=state, amount=money(p["payment"])),
        "others_trend": lambda: _("{party} lowers every other party's trend in {state} by 1").format(
            party=who, state=state),
        "trend": lambda: _("{party} raises its trend in {state} by {n}").format(party=who, state=state, n=p["amount"]),
        "votes": lambda: _n("{party} gains {n} vote in {state}", "{party} gains {n} votes in {state}",
                            p["amount"]).format(party=who, state=state, n=p["amount"]),
        "base": lambda: _("{party} raises its party base by {n}").format(party=who, n=p["amount"]),
        "program": lambda: _("{party} changes its party program").format(party=who),
        "free_poll": lambda: _("{party} takes a free poll in {state}").format(party=who, state=state),
    }
    return texts[p["action"]]()


def _trend_changes(changes: Sequence[Sequence[int]], n: Names) -> str:
    return ", ".join(f"{n.party(s)} {d:+d}" for s, d in changes)


def _final(p: Mapping[str, Any], n: Names) -> str:
    rows = [_("{party}: {total} VP (votes {votes}, wins {wins}, media {media}, party base {party_base}, "
              "money {money})").format(party=n.party(s), **row) for s, row in enumerate(p["scores"])]
    return _("Final scores: {rows}").format(rows="; ".join(rows))


def _cards(cards: list[int]) -> str:
    return ", ".join(card_name(c) for c in cards) or _("none")


_EVENTS: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "game_set_up": lambda p, n: _("The game is set up; {party} is the preliminary start player.").format(
        party=n.party(p["preliminary_start_player"])),
    "draft_hand": lambda p, n: _("Your draft hand: {cards}").format(cards=_cards(p["cards"])),
    "draft_passed": lambda p, n: _("Draft pick {k} made; the rest is passed to the left.").format(k=p["picks"]),
    "draft_received": lambda p, n: _("You receive {cards}").format(cards=_cards(p["cards"])),
    "sealed_committed": lambda p, n: _("{party} has decided.").format(party=n.party(p["seat"])),
    "program_revealed": lambda p, n: _("{party}'s program: {cards}").format(
        party=n.party(p["seat"]), cards=_cards(p["program"])),
    "program_exception": lambda p, n: _("{party} shows and discards {cards} and draws again").format(
        party=n.party(p["seat"]), cards=_cards(p["discarded"])),
    "program_cards_discarded": lambda p, n: _("{party} discards {cards}").format(
        party=n.party(p["seat"]), cards=_cards(p["cards"])),
    "start_position_revealed": lambda p, n: _("{party} takes start block {block}: {spots}").format(
        party=n.party(p["seat"]), block=p["block"],
        spots=", ".join(_("{bonus} in {state}").format(bonus=_(SYMBOLS[sym]), state=n.board(pos))
                        for sym, pos in p["spots"])),
    "round_started": lambda p, n: _("Round {round} begins.").format(round=p["round"]),
    "start_bids_revealed": lambda p, n: _("Start bids: {bids}").format(
        bids=", ".join(f"{n.party(s)} {money(b)}" for s, b in enumerate(p["bids"]) if b is not None)),
    "overbid_penalty": lambda p, n: _(
        "{party} bid {amount} without having it: all its money goes to the bank, party base −10, "
        "and it is out of the auctions of this phase").format(party=n.party(p["seat"]), amount=money(p["amount"])),
    "start_auction_restarted": lambda p, n: _("The start player auction begins again without the overbidder."),
    "poll_auction_restarted": lambda p, n: _("The poll auction begins again without the overbidder."),
    "start_bid_tie": lambda p, n: _("Tie at {amount}: {parties} bid again in turn.").format(
        amount=money(p["amount"]), parties=", ".join(n.party(s) for s in p["order"])),
    "start_bid_raised": lambda p, n: _("{party} raises to {amount}").format(
        party=n.party(p["seat"]), amount=money(p["amount"])),
    "passed": lambda p, n: _("{party} passes").format(party=n.party(p["seat"])),
    "start_player": lambda p, n: _("{party} pays {amount} and becomes start player").format(
        party=n.party(p["seat"]), amount=money(p["paid"])),
    "program_unchanged": lambda p, n: _("{party} keeps its program").format(party=n.party(p["seat"])),
    "program_card_drawn": lambda p, n: _("{party} draws a program card").format(party=n.party(p["seat"])),
    "program_card_drawn_secret": lambda p, n: _("You draw {card}").format(card=card_name(p["card"])),
    "program_card_taken": lambda p, n: _("{party} takes {card} from the display").format(
        party=n.party(p["seat"]), card=card_name(p["card"])),
    "program_swapped": lambda p, n: _("{party} puts {card} into its program in place of {old}").format(
        party=n.party(p["seat"]), card=card_name(p["in"]), old=card_name(p["out"])),
    "program_deck_reshuffled": lambda p, n: _("The program discard pile is shuffled into a new deck."),
    "program_display_renewed": lambda p, n: _("New program display: {cards}").format(cards=_cards(p["display"])),
    "media_bought": lambda p, n: _("{party} buys a media marker in {state}").format(
        party=n.party(p["seat"]), state=n.board(p["board"])),
    "rallies_organized": lambda p, n: _n("{party} organizes {k} rally in {state} for {cost}",
                                         "{party} organizes {k} rallies in {state} for {cost}", p["rallies"]).format(
        party=n.party(p["seat"]), k=p["rallies"], state=n.board(p["board"]), cost=money(p["cost"])),
    "politician_placed": lambda p, n: _("{party} sends a politician to {state}").format(
        party=n.party(p["seat"]), state=n.board(p["board"])),
    "politician_placed_secret": lambda p, n: _("Your {politician} goes to {state}").format(
        politician=politician_name(p["politician"]), state=n.board(p["board"])),
    "politicians_revealed": lambda p, n: _("Politicians in {state}: {row}").format(
        state=n.board(p["board"]),
        row=", ".join(f"{n.party(placed['seat'])} {politician_name(placed['politician'])}" for placed in p["row"])),
    "politician_paid": lambda p, n: _("{party} pays {cost} for its {politician}").format(
        party=n.party(p["seat"]), cost=money(p["cost"]), politician=politician_name(p["politician"])),
    "politician_declined": lambda p, n: _("{party} does not pay for its {politician}").format(
        party=n.party(p["seat"]), politician=politician_name(p["politician"])),
    "politician_action": _politician_action,
    "action_skipped": lambda p, n: _("{party} skips an action").format(party=n.party(p["seat"])),
    "poll_taken": lambda p, n: _("{party} takes a poll card").format(party=n.party(p["seat"])),
    "poll_seen": lambda p, n: _("Poll card {poll} shows {deltas}").format(
        poll=p["poll"], deltas=", ".join(f"{party} {d:+d}" for party, d in p["delta"].items())),
    "poll_withheld": lambda p, n: _("{party} does not publish the poll: party base +3").format(
        party=n.party(p["seat"])),
    "poll_published": lambda p, n: _("{party} publishes poll {poll} in {state}: {changes}").format(
        party=n.party(p["seat"]), poll=p["poll"], state=n.board(p["board"]), changes=_trend_changes(p["changes"], n)),
    "poll_auction": lambda p, n: _("Poll auction in {state}, auctioneer {party}").format(
        state=n.board(p["board"]), party=n.party(p["auctioneer"])),
    "poll_bid": lambda p, n: _("{party} bids {amount}").format(party=n.party(p["seat"]), amount=money(p["amount"])),
    "poll_won": lambda p, n: _("{party} wins the poll for {amount}").format(
        party=n.party(p["seat"]), amount=money(p["amount"])),
    "poll_no_bid": lambda p, n: _("Nobody bids for the poll in {state}").format(state=n.board(p["board"])),
    "poll_deck_reshuffled": lambda p, n: _("The poll discard pile is shuffled into a new deck."),
    "opinion_revealed": lambda p, n: _("{card} is revealed in {state}").format(
        card=card_name(p["card"]), state=n.board(p["board"])),
    "opinion_duplicate_discarded": lambda p, n: _("{card} repeats a topic in {state} and is discarded").format(
        card=card_name(p["card"]), state=n.board(p["board"])),
    "opinion_deck_reshuffled": lambda p, n: _("The opinion discard pile is shuffled into a new deck."),
    "opinion_shifted": lambda p, n: _("{party} replaces {old} with {new} in {state}").format(
        party=n.party(p["seat"]), old=card_name(p["old"]), new=card_name(p["new"]), state=n.board(p["board"])),
    "rallies_converted": _conversion,
    "election": _election,
    "income": lambda p, n: _("{party} receives {amount} ({vp} vote VP, party base {base})").format(
        party=n.party(p["seat"]), amount=money(p["amount"]), vp=p["vote_vp"], base=p["base"]),
    "donation": lambda p, n: (_("{party} accepts a donation of {value}: party base {base}") if p["accepted"]
                              else _("{party} rejects a donation of {value}: party base {base}")).format(
        party=n.party(p["seat"]), value=money(p["value"]), base=p["base"]),
    "board_removed": lambda p, n: _("{state} leaves the game.").format(state=n.board(p["board"])),
    "state_entered": lambda p, n: _("A new state enters the game in place of the last election.").format(),
    "opinion_display_refilled": lambda p, n: _("The opinion display is refilled."),
    "final_scores": _final,
    "coalition_answer": lambda p, n: (
        _("{party} chooses {partner} as coalition partner").format(party=n.party(p["strongest"]),
                                                                   partner=n.party(p["partner"]))
        if p["partner"] is not None else
        (_("{party} agrees to a coalition with {strongest}") if p["accepted"]
         else _("{party} declines a coalition with {strongest}")).format(party=n.party(p["seat"]),
                                                                          strongest=n.party(p["strongest"]))),
    "game_won": lambda p, n: _("{parties} wins!").format(parties=" & ".join(n.party(s) for s in p["seats"])),
}


def describe_action(action: Action, view: Mapping[str, Any], names: Sequence[str] | None) -> str:
    render = _ACTIONS.get(action[0])
    return render(action, Names(view), view) if render else " ".join(str(x) for x in action)


_ACTIONS: dict[str, Callable[[Action, Names, Mapping[str, Any]], str]] = {
    "draft_pick": lambda a, n, v: _("Pick {card}").format(card=card_name(a[1])),
    "program_card": lambda a, n, v: _("Put {card} into your program").format(card=card_name(a[1])),
    "keep": lambda a, n, v: _("Keep {card}").format(card=card_name(a[1])),
    "keep_card": lambda a, n, v: _("Keep {card}, discard the rest").format(card=card_name(a[1])),
    "start_block": lambda a, n, v: _("Start block {block}").format(block=a[1]),
    "start_state": lambda a, n, v: _("{bonus} in {state}").format(
        bonus=_(SYMBOLS[placing(_prices(v)["start_blocks"], _own(v)["sealed"])]), state=n.board(a[1])),
    "bid": lambda a, n, v: _("Bid {amount}").format(amount=money(a[1])),
    "raise": lambda a, n, v: _("Raise to {amount}").format(amount=money(a[1])),
    # phase 7: the one choice that changes no opinion (issue 25 defect 5)
    "pass": lambda a, n, v: _("Change no opinion") if v["phase"] == "media_shift" else _("Pass"),
    "program_pass": lambda a, n, v: _("Keep the program as it is"),
    "draw_and_take": lambda a, n, v: _("Draw a card, then take one from the display"),
    "refresh_and_take": lambda a, n, v: _("Renew the display, then take one"),
    "take": lambda a, n, v: _("Take {card}").format(card=card_name(a[1])),
    "swap": lambda a, n, v: _("Swap {old} for {new}").format(old=card_name(a[1]), new=card_name(a[2])),
    "swaps_done": lambda a, n, v: _("No more swaps"),
    "buy_media": lambda a, n, v: _("Buy a media marker in {state} ({cost})").format(
        state=n.board(a[1]), cost=money(_prices(v)["media_marker"])),
    "rallies": lambda a, n, v: _rallies(a[2], n.board(a[1]), _prices(v)["rallies"][a[2]]),
    "place": lambda a, n, v: (_("Send {politician} to {state} (its actions cost {cost})").format(
        politician=politician_name(a[2]), state=n.board(a[1]), cost=money(_prices(v)["politicians"][a[2]]))
        if a[2] is not None else _("No politician to {state}").format(state=n.board(a[1]))),
    "pay": lambda a, n, v: _("Pay {cost} for your {politician}").format(
        cost=money(_prices(v)["politicians"][_own_politician(v)]), politician=politician_name(_own_politician(v))),
    "decline": lambda a, n, v: _("Do not pay for your {politician}").format(
        politician=politician_name(_own_politician(v))),
    "skip": lambda a, n, v: _("Skip this action"),
    "double": lambda a, n, v: _("Double marker on {card}").format(
        card=card_name(v["board"]["boards"][v["decision"]["board"]]["opinions"][a[1]]["card"])),
    "double_remove": lambda a, n, v: _("Remove the double marker"),
    "buyout": lambda a, n, v: (_("Buy out {party}'s media marker for {amount} and place your own") if a[2]
                               else _("Buy out {party}'s media marker for {amount}")).format(
        party=n.party(v["board"]["boards"][v["decision"]["board"]]["media"][a[1]]),
        amount=money(_prices(v)["buyout"])),
    "others_trend": lambda a, n, v: _("Lower every other party's trend by 1"),
    "trend": lambda a, n, v: _("Trend +{n}").format(n=a[1]),
    "votes": lambda a, n, v: _n("+{n} vote", "+{n} votes", a[1]).format(n=a[1]),
    "base": lambda a, n, v: _("Party base +{n}").format(n=a[1]),
    "program": lambda a, n, v: _("Change your party program"),
    "free_poll": lambda a, n, v: _("Take a free poll"),
    "publish_poll": lambda a, n, v: _("Publish the poll in {state}: trends {changes}").format(
        state=n.board(v["decision"]["board"]), changes=_trend_changes(_own(v)["poll_in_hand"]["changes"], n)),
    "withhold_poll": lambda a, n, v: _("Do not publish (party base +3)"),
    "poll_bid": lambda a, n, v: _("Bid {amount}").format(amount=money(a[1])),
    "shift": lambda a, n, v: _("Replace {old} with {new}").format(
        old=card_name(v["board"]["boards"][v["decision"]["board"]]["opinions"][a[1]]["card"]), new=card_name(a[2])),
    "convert": lambda a, n, v: _convert(a[1], a[2], n, v),
    "coalition": lambda a, n, v: _("Join the coalition") if a[1] else _("Decline the coalition"),
    "coalition_partner": lambda a, n, v: _("Form a coalition with {party}").format(party=n.party(a[1])),
    "donation": lambda a, n, v: _donation(a[1], a[2], _prices(v)["donations"]),
}


# The amounts on the choices (issue 25 defect 3) come from the reader's view: the prices the rules worked
# out for the pending decision (view.py, ``decision.prices``), the board, and the reader's own secrets.

def _prices(view: Mapping[str, Any]) -> Mapping[str, Any]:
    prices: Mapping[str, Any] = view["decision"]["prices"]
    return prices


def _own(view: Mapping[str, Any]) -> Mapping[str, Any]:
    own: Mapping[str, Any] = view["board"]["seats"][view["seat"]]
    return own


def _own_politician(view: Mapping[str, Any]) -> str:
    """The reader's politician in the state being decided on (a party sends at most one to a state)."""
    row = view["board"]["boards"][view["decision"]["board"]]["politicians"]
    return str(next(p["politician"] for p in row if p["seat"] == view["seat"] and p["paid"] is None))


def _rallies(k: int, state: str, cost: int) -> str:
    if not k:
        return _("Organize no rallies in {state}").format(state=state)
    return _n("Organize {k} rally in {state} for {cost}", "Organize {k} rallies in {state} for {cost}", k).format(
        k=k, state=state, cost=money(cost))


def _convert(pos: int, k: int, n: Names, view: Mapping[str, Any]) -> str:
    """The votes converting ``k`` rallies brings, written as the log will write it."""
    board, seat = view["board"]["boards"][pos], view["seat"]
    trend = board["trend"][seat]
    _base, mult, votes = conversion(k, trend, board["matches"][seat], _prices(view)["trend_floor"])
    return _n("Convert {k} rallies in {state}: ({k} {sign} {trend}) × {mult} = {votes} vote",
              "Convert {k} rallies in {state}: ({k} {sign} {trend}) × {mult} = {votes} votes", votes).format(
        k=k, state=n.board(pos), votes=votes, **_formula(trend, mult))


def _donation(value: int, accept: bool, offers: Sequence[Sequence[int]]) -> str:
    _value, if_accepted, if_rejected = next(offer for offer in offers if offer[0] == value)
    text = _("Accept the {value} donation: party base {change}") if accept else \
        _("Reject the {value} donation: party base {change}")
    return text.format(value=money(value), change=_signed(if_accepted if accept else if_rejected))


def _signed(number: int) -> str:
    """A change as the board writes it: +3, −1 (a minus sign, not a hyphen), 0."""
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


# The 16 states by their ids for the browser's map of the states (issue 14): by their German names in every
# language, as the boards, the log and the rulebooks name them (issue 25 defect 6).
STATE_NAMES = {state.id: state.name for state in load_edition().states}


# Hints (bots/hints.py): what the hinted move changes in its state, from the asking seat's view only — numbers the
# player can check on the board.  Votes, rallies and media markers on the boards are public.

def explain_action(action: Action, view: Mapping[str, Any], names: Sequence[str] | None) -> str | None:
    """A checkable fact about ``action`` for the reader of ``view``, or None where there is none to tell."""
    explain = _EXPLAIN.get(action[0])
    return explain(action, Names(view), view) if explain else None


def _leader(counts: Sequence[int], seat: int) -> tuple[int, int]:
    """The other party with the most of ``counts`` (the first in seat order on a tie), and its count."""
    other = max((s for s in range(len(counts)) if s != seat), key=lambda s: (counts[s], -s))
    return other, counts[other]


def _votes_after(pos: int, gain: int, n: Names, view: Mapping[str, Any]) -> str:
    votes, seat = view["board"]["boards"][pos]["votes"], view["seat"]
    before = votes[seat]
    after = before + gain
    other, theirs = _leader(votes, seat)
    fields = {"state": n.board(pos), "before": before, "after": after, "party": n.party(other), "theirs": theirs,
              "margin": abs(after - theirs)}
    if after > theirs:
        return _("{state}: your votes {before} → {after}, {party} has {theirs} (you lead by {margin})").format(**fields)
    if after < theirs:
        return _("{state}: your votes {before} → {after}, {party} has {theirs} (you trail by {margin})").format(
            **fields)
    return _("{state}: your votes {before} → {after}, level with {party} ({theirs})").format(**fields)


def _converted_votes(action: Action, n: Names, view: Mapping[str, Any]) -> str:
    pos, k = action[1], action[2]
    board, seat = view["board"]["boards"][pos], view["seat"]
    _base, _mult, votes = conversion(k, board["trend"][seat], board["matches"][seat], _prices(view)["trend_floor"])
    return _votes_after(pos, votes, n, view)


def _counted(key: str, text: str) -> Callable[[Action, Names, Mapping[str, Any]], str | None]:
    """A fact on the pieces of one kind (``key`` in the board's row) that the move adds in a state."""
    def explain(action: Action, n: Names, view: Mapping[str, Any]) -> str | None:
        pos, seat = action[1], view["seat"]
        added = action[2] if key == "rallies" else 1
        if not added:
            return None
        row = view["board"]["boards"][pos][key]
        counts = [sum(1 for s in row if s == party) for party in range(len(view["board"]["seats"]))] \
            if key == "media" else list(row)
        other, theirs = _leader(counts, seat)
        return _(text).format(state=n.board(pos), before=counts[seat], after=counts[seat] + added,
                              party=n.party(other), theirs=theirs)
    return explain


_EXPLAIN: dict[str, Callable[[Action, Names, Mapping[str, Any]], str | None]] = {
    "convert": _converted_votes,
    "votes": lambda a, n, v: _votes_after(v["decision"]["board"], a[1], n, v) if "board" in v["decision"] else None,
    "rallies": _counted("rallies", N_("{state}: your rallies {before} → {after}; {party} has {theirs}")),
    "buy_media": _counted("media", N_("{state}: your media markers {before} → {after}; {party} has {theirs}")),
}
