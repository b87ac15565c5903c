"""A seat's knowledge and a state sampled from it alone (docs/engine.md, "Resampling").

The view holds every public fact (the hands, the prizes won and discarded, who has bid); what a seat
cannot know is the order of the face-down prizes, the other seats' sealed bids and the generator.
A sample deals the prizes nobody has seen in a random order and gives each other seat that has bid
a random card of its hand."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stammtisch.engine.protocol import Seat
from stammtisch.engine.resample import deal, reseeded
from stammtisch_goofspiel.state import BID, CARDS, NO_BID, OVER, State

if TYPE_CHECKING:
    from stammtisch_goofspiel.rules import Goofspiel


def knowledge(game: Goofspiel, state: State, seat: Seat) -> dict[str, Any]:
    return {"view": game.view(state, seat), "record": {}}


def sample(game: Goofspiel, known: dict[str, Any], rng: random.Random) -> State:
    view = known["view"]
    board, reader = view["board"], view["seat"]
    seats = board["seats"]
    s = State()
    s.phase = view["phase"]
    s.prize = board["prize"] or 0
    s.hands = [list(seat["hand"]) for seat in seats]
    s.won = [list(seat["won"]) for seat in seats]
    s.discarded, s.last = list(board["discarded"]), list(board["last"])
    seen = {*s.discarded, *(p for won in s.won for p in won), *([s.prize] if s.prize else [])}
    s.deck = deal([p for p in CARDS if p not in seen], rng, [board["deck"]])[0]
    s.done = [seat["has_bid"] for seat in seats] if s.phase == BID else [True] * len(seats)
    s.bids = [_bid(seat, index, reader, rng) for index, seat in enumerate(seats)]
    if s.phase == OVER:
        s.bids = [NO_BID] * len(seats)
    s.chance = reseeded(rng)
    return s


def _bid(seat: dict[str, Any], index: int, reader: Seat, rng: random.Random) -> int:
    if index == reader:
        return int(seat["bid"] or NO_BID)
    return rng.choice(seat["hand"]) if seat["has_bid"] else NO_BID
