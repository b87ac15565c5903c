"""Phase 8 (die-macher.md §6.8): a poll auction per board; the poll card won (or drawn by the
FREE_POLL politician action) is published or withheld in an interlude."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, STAY, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.board import draw_poll, ensure_poll_deck, media_influencer, polls_available
from stammtisch.games.diemacher.phases import auction
from stammtisch.games.diemacher.state import NOBODY, Auction, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# The events of a poll auction and of the poll card won (made on every move: engine.protocol.EventKind);
# its bids and passes are auction.POLL_BID and auction.PASSED.
POLL_AUCTION: Final = EventKind("poll_auction", "board", "auctioneer", "order", "back")
POLL_AUCTION_RESTARTED: Final = EventKind("poll_auction_restarted", "seats")
POLL_NO_BID: Final = EventKind("poll_no_bid", "board")
POLL_WON: Final = EventKind("poll_won", "seat", "amount")
POLL_TAKEN: Final = EventKind("poll_taken", "seat")
POLL_SEEN: Final = EventKind("poll_seen", "seat", "poll", "delta")
POLL_WITHHELD: Final = EventKind("poll_withheld", "seat", "poll")
POLL_PUBLISHED: Final = EventKind("poll_published", "seat", "board", "poll", "changes", "protected")


def enter(game: DieMacher, state: State, events: list[Event]) -> None:
    state.cursor, state.auction = 0, None
    state.excluded = [False] * state.seats


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    boards = game.from_election(state)
    while state.cursor < len(boards):
        if state.auction is None:
            if not polls_available(state, game.options["poll_reshuffle"]):
                state.cursor += 1
                continue
            _open_auction(game, state, boards[state.cursor], events)
        if auction.next_bidder(game, state, skip_without_bids=True) != NOBODY:
            return WAIT
        _close_auction(game, state, events)
        if state.poll_in_hand != NOBODY:
            return STAY
    return NEXT


def _open_auction(game: DieMacher, state: State, pos: int, events: list[Event]) -> None:
    board, n = state.boards[pos], state.seats
    most = max(board.votes)
    auctioneer = game.first_in_turn_order(state, [s for s in range(n) if board.votes[s] == most])
    if game.options["poll_auction_first"] == "left_of_start_player":
        order = [s for s in state.turn_order()[1:] + state.turn_order()[:1] if s != auctioneer] + [auctioneer]
    else:
        order = [(auctioneer + i) % n for i in range(1, n + 1)]
    state.auction = Auction(-1, order)
    ensure_poll_deck(state, game.options["poll_reshuffle"], events)
    back = game.edition.polls[state.poll_deck[-1]].back if state.poll_deck else None
    events.append(POLL_AUCTION.event(pos, auctioneer, order, back))


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return auction.legal(game, state, seat, "poll_bid")


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    return auction.allows(game, state, seat, action, "poll_bid")


def poll_bid(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    if not auction.bid(game, state, seat, action, auction.POLL_BID, events):
        order = auction.restart(state, -1)  # the remaining players must restart (C-14)
        events.append(POLL_AUCTION_RESTARTED.event(order))


def _close_auction(game: DieMacher, state: State, events: list[Event]) -> None:
    assert state.auction is not None
    high, winner = state.auction.high, state.auction.high_seat
    state.auction = None
    if winner == NOBODY:
        if game.options["poll_no_bid"] == "discard":
            card = draw_poll(state, game.options["poll_reshuffle"], events)
            state.poll_discard.append([card, 0])
        events.append(POLL_NO_BID.event(game.poll_board(state)))
        state.cursor += 1
        return
    state.players[winner].money -= high
    events.append(POLL_WON.event(winner, high))
    take_poll(game, state, winner, events)  # the cursor moves on once the poll is used


# --- the poll card in hand: publish or withhold ----------------------------------------------


def take_poll(game: DieMacher, state: State, seat: int, events: list[Event]) -> None:
    card = draw_poll(state, game.options["poll_reshuffle"], events)
    state.poll_in_hand = card
    state.actor = seat
    events.append(POLL_TAKEN.event(seat))
    poll = game.edition.polls[card]
    events.append(POLL_SEEN.event(seat, poll.id, dict(poll.delta), seats=(seat,)))


def holding(state: State) -> bool:
    return state.poll_in_hand != NOBODY


def legal_use(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    actions: list[Action] = [("withhold_poll",)]
    if game.poll_delta(state.poll_in_hand, seat) > 0:
        actions.append(("publish_poll",))
    return actions


def withhold(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    card = _use(state)
    game.change_base(state.players[seat], 3)
    public = game.options["unpublished_poll_public"]
    state.poll_discard.append([card, int(public)])
    shown = game.edition.polls[card].id if public else None
    events.append(POLL_WITHHELD.event(seat, shown))


def trend_changes(game: DieMacher, state: State, seat: int, card: int) -> list[list[int]]:
    """[seat, change] of every party whose trend poll ``card`` changes when ``seat`` publishes it now: its
    own, every minus but the media influencer's, and (C-13) the others' plus.  Publishing and the label of
    the choice (the card's holder sees it in its view) both use it."""
    influencer = media_influencer(state.boards[game.poll_board(state)])
    changes = []
    for other in range(state.seats):
        delta = game.poll_delta(card, other)
        if other == seat or (delta < 0 and other != influencer) or (
                delta > 0 and game.options["poll_apply_other_positive"]):
            changes.append([other, delta])
    return changes


def publish(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    pos = game.poll_board(state)
    board = state.boards[pos]
    changes = trend_changes(game, state, seat, state.poll_in_hand)
    card = _use(state)
    for other, delta in changes:
        board.trend[other] = game.clamp_trend(board.trend[other] + delta)
    influencer = media_influencer(board)
    state.poll_discard.append([card, 1])
    events.append(POLL_PUBLISHED.event(seat, pos, game.edition.polls[card].id, changes,
                                       influencer if influencer != seat else NOBODY))


def _use(state: State) -> int:
    card, state.poll_in_hand = state.poll_in_hand, NOBODY
    if state.phase == "polls":
        state.cursor += 1
    return card


POLLS = Phase("polls", N_("8 Auctioning off of Polls"), SEQUENTIAL, track="8", enter=enter, legal=legal, allows=allows,
              moves={"poll_bid": poll_bid, "pass": poll_bid}, settle=settle, next="convert")
POLL_USE = Phase("poll_use", N_("8 Auctioning off of Polls"), SEQUENTIAL, active=holding,
                 during=("polls", "politicians"), legal=legal_use,
                 moves={"withhold_poll": withhold, "publish_poll": publish})
