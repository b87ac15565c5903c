"""What a seat may know: the prize, every hand (each bid is shown once revealed), who has bid, the
prizes won and discarded, the last bids; its own sealed bid, never another's; the deck only as a count."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stammtisch.engine.protocol import Seat
from stammtisch.engine.shape import ONE_PER_SEAT, Flag, Int, Maybe, Record, Seq, envelope_shape, phase_names
from stammtisch.engine.view import envelope
from stammtisch_goofspiel.state import CARDS, NO_BID, State

if TYPE_CHECKING:
    from stammtisch_goofspiel.rules import Goofspiel


def build_view(game: Goofspiel, s: State, reader: Seat | None) -> dict[str, Any]:
    seats = [{"hand": list(hand), "bid": _own_bid(s, seat, reader), "has_bid": s.done[seat] and s.prize != 0,
              "won": list(s.won[seat]), "points": sum(s.won[seat])} for seat, hand in enumerate(s.hands)]
    board = {"prize": s.prize or None, "deck": len(s.deck), "seats": seats, "discarded": list(s.discarded),
             "last": list(s.last)}
    decision = {"prize": s.prize} if s.prize else None
    return envelope(game, s, reader, phase=s.phase, decision=decision, board=board)


def _own_bid(s: State, seat: Seat, reader: Seat | None) -> int | None:
    return s.bids[seat] if seat == reader and s.bids[seat] != NO_BID else None


def observation_shape(game: Goofspiel) -> Record:
    """Every view at this table, each list with the room the rules give it."""
    cards = len(CARDS)
    card_list = Seq(Int(), cards, "thirteen cards of one suit")
    seat = Record({"hand": card_list, "bid": Maybe(Int()), "has_bid": Flag(), "won": card_list, "points": Int()})
    board = Record({"prize": Maybe(Int()), "deck": Int(), "seats": Seq(seat, game.num_players, ONE_PER_SEAT),
                    "discarded": Seq(Int(), cards, "thirteen prizes"),
                    "last": Seq(Int(), game.num_players, ONE_PER_SEAT)})
    return envelope_shape(game, phases=phase_names(game.flow), decision=Record({"prize": Int()}), board=board,
                          final_detail=Record({}))


def rounds(game: Goofspiel) -> int:
    return len(CARDS)


def round_of(game: Goofspiel, s: State) -> int:
    """The number of the prize bid for (the last one once the game is over)."""
    return len(CARDS) - len(s.deck)
