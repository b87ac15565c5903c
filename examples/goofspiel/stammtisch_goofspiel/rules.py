"""The rules (rules_page.py): one sealed phase, played thirteen times.

Entering ``bid`` turns up the next prize and opens the sealed decision; once every seat has bid,
``reveal`` shows the bids, gives the prize to the one highest bid (a tie at the top discards it) and
enters ``bid`` again, or ends the game when the prizes are spent.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from stammtisch.engine import sealed
from stammtisch.engine.chance import Chance
from stammtisch.engine.codec import ActionCodec, cached_codec
from stammtisch.engine.flow import SEALED, Flow, FlowGame, Phase
from stammtisch.engine.options import Option, check_options
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.engine.shape import Shape
from stammtisch.i18n import N_
from stammtisch_goofspiel.state import BID, CARDS, NO_BID, OVER, State

# Both show what was face down or sealed: a move that causes one cannot be taken back.
PRIZE_TURNED: Final = EventKind("prize_turned", "prize", "left", reveals=True)
BIDS_REVEALED: Final = EventKind("bids_revealed", "prize", "bids", "winner", reveals=True)


def turn_prize(game: Goofspiel, s: State, events: list[Event]) -> None:
    s.prize = s.deck.pop()
    s.bids = [NO_BID] * game.num_players
    s.done = sealed.open_decision(game.num_players)
    events.append(PRIZE_TURNED.event(s.prize, len(s.deck)))


def legal(game: Goofspiel, s: State, seat: Seat) -> list[Action]:
    return [("bid", card) for card in s.hands[seat]]


def bid(game: Goofspiel, s: State, seat: Seat, action: Action, events: list[Event]) -> None:
    s.bids[seat] = action[1]  # the card stays in the hand, so the hands shown tell nobody which it is
    sealed.commit(s.done, seat, BID, events)


def reveal(game: Goofspiel, s: State, events: list[Event]) -> str:
    top = max(s.bids)
    highest = [seat for seat, card in enumerate(s.bids) if card == top]
    winner = highest[0] if len(highest) == 1 else None
    events.append(BIDS_REVEALED.event(s.prize, list(s.bids), winner))
    (s.won[winner] if winner is not None else s.discarded).append(s.prize)
    for seat, card in enumerate(s.bids):
        s.hands[seat].remove(card)
    s.last, s.bids, s.prize = list(s.bids), [NO_BID] * game.num_players, 0
    return BID if s.deck else OVER


BIDDING: Final = Phase(BID, N_("Bid for the prize"), SEALED, enter=turn_prize, legal=legal, moves={"bid": bid},
                       reveal=reveal)
FLOW: Final = Flow((BIDDING,), over=OVER, over_label=N_("Game over"))


class Goofspiel(FlowGame[State]):
    name = "goofspiel"
    min_players = 2
    max_players = 4
    flow = FLOW
    option_schema: ClassVar[tuple[Option, ...]] = ()

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return check_options(self.option_schema, options)

    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        chance = Chance(seed)
        deck = list(CARDS)
        chance.shuffle(deck)
        state = State.new(chance, deck, self.num_players)
        events = [Event("setup", {"players": self.num_players, "prizes": len(deck)})]
        self.flow.start(self, state, events)
        return state, events

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        from stammtisch_goofspiel.view import build_view

        return build_view(self, state, seat)

    def copy(self, state: State) -> State:
        return state.copy()

    def scores(self, state: State) -> list[int]:
        return [sum(won) for won in state.won]

    def knowledge(self, state: State, seat: Seat) -> dict[str, Any]:
        from stammtisch_goofspiel.resample import knowledge

        return knowledge(self, state, seat)

    def sample(self, knowledge: dict[str, Any], rng: random.Random) -> State:
        from stammtisch_goofspiel.resample import sample

        return sample(self, knowledge, rng)

    @classmethod
    def action_codec(cls, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        return cached_codec(cls, num_players, options, lambda game: [("bid", card) for card in CARDS])

    def observation_shape(self) -> Shape:
        from stammtisch_goofspiel.view import observation_shape

        return observation_shape(self)

    def most_decisions(self) -> int:
        return len(CARDS) * self.num_players  # every seat bids once for each prize
