"""Phase 1 (die-macher.md §6.1): the sealed start-player bid and, on a tie, the open re-bid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine import sealed
from stammtisch.engine.flow import NEXT, SEALED, SEQUENTIAL, STAY, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.phases import auction
from stammtisch.games.diemacher.phases.draft import open_sealed
from stammtisch.games.diemacher.state import NOBODY, Auction, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# The events of the start-player bid, every round (engine.protocol.EventKind); the re-bid's raises and
# passes are auction.START_BID_RAISED and auction.PASSED.
ROUND_STARTED: Final = EventKind("round_started", "round")
START_BIDS_REVEALED: Final = EventKind("start_bids_revealed", "bids")
START_BID_TIE: Final = EventKind("start_bid_tie", "amount", "order")
START_AUCTION_RESTARTED: Final = EventKind("start_auction_restarted", "seats")
START_PLAYER: Final = EventKind("start_player", "seat", "paid")


def begin_round(game: DieMacher, state: State, events: list[Event]) -> None:
    state.round += 1
    state.excluded = [False] * state.seats
    events.append(ROUND_STARTED.event(state.round))
    open_sealed(state)


def legal_bid(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return game.amount_actions("bid", 0, game.bid_ceiling(state, seat))


def allows_bid(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_bid``'s list, without building it (the strict step)."""
    return game.allows_amount(action, "bid", 0, game.bid_ceiling(state, seat))


def sealed_bid(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    state.players[seat].secret = [action[1]]
    sealed.commit(state.done, seat, "start_bid", events)


def reveal_bids(game: DieMacher, state: State, events: list[Event]) -> str:
    bids = [p.secret[0] if p.secret else -1 for p in state.players]
    events.append(START_BIDS_REVEALED.event([b if b >= 0 else None for b in bids]))
    for player in state.players:
        player.secret = []
    overbidders = [seat for seat, bid in enumerate(bids) if bid > state.players[seat].money]
    for seat in overbidders:
        auction.overbid(game, state, seat, bids[seat], events)
    if overbidders:
        return restart_start_auction(game, state, events)
    high = max(bids)
    tied = [seat for seat, bid in enumerate(bids) if bid == high]
    if len(tied) == 1:
        new_start_player(state, tied[0], high, events)
        return NEXT
    n = state.seats
    first = (state.start_player - 1) % n  # right of the previous start player [C-01]
    if game.options["tiebreak_open_order"] == "previous_start_player_clockwise":
        first = state.start_player
    order = [(first + i) % n for i in range(n) if (first + i) % n in tied]
    state.auction = Auction(high, order)
    state.actor = order[0]
    events.append(START_BID_TIE.event(high, order))
    return "rebid"


def restart_start_auction(game: DieMacher, state: State, events: list[Event]) -> str:
    """After an overbid the remaining players must bid again (C-14); nobody left: no change."""
    remaining = [s for s in range(state.seats) if not state.excluded[s]]
    if not remaining:
        new_start_player(state, state.start_player, 0, events)
        game.enter_phase(state, "program_changes", events)
        return STAY
    events.append(START_AUCTION_RESTARTED.event(remaining))
    state.phase = "bid"  # the same phase again, only for the remaining players: no new round
    open_sealed(state, remaining)
    return STAY


def legal_rebid(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return auction.legal(game, state, seat, "raise")


def allows_rebid(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    return auction.allows(game, state, seat, action, "raise")


def rebid(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    if not auction.bid(game, state, seat, action, auction.START_BID_RAISED, events):
        restart_start_auction(game, state, events)


def settle_rebid(game: DieMacher, state: State, events: list[Event]) -> str:
    if auction.next_bidder(game, state, skip_without_bids=False) != NOBODY:
        return WAIT
    assert state.auction is not None
    high, high_seat, order = state.auction.high, state.auction.high_seat, state.auction.order
    winner = high_seat if high_seat != NOBODY else order[-1]  # all passed: the last to pass
    new_start_player(state, winner, high, events)
    return NEXT


def new_start_player(state: State, seat: int, price: int, events: list[Event]) -> None:
    state.players[seat].money -= price
    state.start_player = seat
    events.append(START_PLAYER.event(seat, price))


BID = Phase("bid", N_("1 Determine the Start Player"), SEALED, track="1", enter=begin_round, legal=legal_bid,
            allows=allows_bid,
            moves={"bid": sealed_bid}, reveal=reveal_bids, next="program_changes")
REBID = Phase("rebid", N_("1 Determine the Start Player (tie)"), SEQUENTIAL, track="1", legal=legal_rebid,
              allows=allows_rebid,
              moves={"raise": rebid, "pass": rebid}, settle=settle_rebid, next="program_changes")
