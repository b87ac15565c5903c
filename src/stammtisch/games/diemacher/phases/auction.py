"""The open auction, written once: the tied start-player re-bid (phase 1, C-01) and the poll
auctions (phase 8) both let the seats of an order bid in turn, once each, above the highest bid,
with the honour system's overbids (C-14)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.state import NOBODY, Auction, State

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# The events of a bid (made on every move: engine.protocol.EventKind); "passed" is every phase's pass.
PASSED: Final = EventKind("passed", "seat")
POLL_BID: Final = EventKind("poll_bid", "seat", "amount")
START_BID_RAISED: Final = EventKind("start_bid_raised", "seat", "amount")
OVERBID_PENALTY: Final = EventKind("overbid_penalty", "seat", "amount")


def bids(game: DieMacher, state: State, seat: Seat) -> range:
    """The amounts ``seat`` may bid now; none once out of this phase's auctions (C-14)."""
    if state.excluded[seat]:
        return range(0)
    assert state.auction is not None
    return game.money_steps(max(0, state.auction.high + 1), game.bid_ceiling(state, seat))


def legal(game: DieMacher, state: State, seat: Seat, bid_kind: str) -> list[Action]:
    amounts = bids(game, state, seat)
    return [("pass",), *game.amount_actions(bid_kind, amounts.start, amounts.stop - 1)]


def allows(game: DieMacher, state: State, seat: Seat, action: Action, bid_kind: str) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    if action[0] == "pass":
        return len(action) == 1
    amounts = bids(game, state, seat)
    return game.allows_amount(action, bid_kind, amounts.start, amounts.stop - 1)


def next_bidder(game: DieMacher, state: State, skip_without_bids: bool) -> int:
    """The seat to bid now (NOBODY once everyone has had their turn); seats that cannot bid are
    passed over if ``skip_without_bids``."""
    auction = state.auction
    assert auction is not None
    while auction.position < len(auction.order):
        seat = auction.order[auction.position]
        if not skip_without_bids or bids(game, state, seat):
            state.actor = seat
            return seat
        auction.position += 1
    return NOBODY


def bid(game: DieMacher, state: State, seat: Seat, action: Action, kind: EventKind, events: list[Event]) -> bool:
    """A bid (its event of ``kind``: POLL_BID or START_BID_RAISED) or a pass; False if the bid was an overbid
    (the caller restarts the auction)."""
    auction = state.auction
    assert auction is not None
    if action[0] == "pass":
        events.append(PASSED.event(seat))
    elif action[1] > state.players[seat].money:
        overbid(game, state, seat, action[1], events)
        return False
    else:
        auction.high, auction.high_seat = action[1], seat
        events.append(kind.event(seat, action[1]))
    auction.position += 1
    return True


def overbid(game: DieMacher, state: State, seat: int, amount: int, events: list[Event]) -> None:
    """C-14 honour system: all money to the bank, party base −10, out of this phase's auctions."""
    state.players[seat].money = 0
    game.change_base(state.players[seat], -10)
    state.excluded[seat] = True
    events.append(OVERBID_PENALTY.event(seat, amount))


def restart(state: State, high: int) -> list[int]:
    """The seats of the auction that may still bid start again (C-14)."""
    assert state.auction is not None
    order = [s for s in state.auction.order if not state.excluded[s]]
    state.auction = Auction(high, order)
    return order
