"""The state of a Goofspiel game: plain slotted data, callable without arguments."""

from __future__ import annotations

from typing import Final

from stammtisch.engine.chance import Chance
from stammtisch.engine.flow import FlowState

CARDS: Final = tuple(range(1, 14))  # one suit, ace (1) to king (13); the prizes are the same values
NO_BID: Final = 0
BID: Final = "bid"
OVER: Final = "over"


class State(FlowState):
    __slots__ = ("chance", "phase", "deck", "prize", "hands", "bids", "done", "won", "discarded", "last")

    chance: Chance
    phase: str
    deck: list[int]  # the face-down prizes, the top one last
    prize: int  # the prize bid for now (0 before the first and after the last)
    hands: list[list[int]]  # every seat's cards not yet spent (public: each bid is shown once revealed)
    bids: list[int]  # each seat's sealed bid for this prize (NO_BID: none yet): a secret until revealed
    done: list[bool]  # who has bid for this prize (engine/sealed.py)
    won: list[list[int]]  # the prizes each seat took
    discarded: list[int]  # the prizes lost to a tie at the top
    last: list[int]  # the bids revealed for the previous prize

    @classmethod
    def new(cls, chance: Chance, deck: list[int], players: int) -> State:
        s = cls()
        s.chance, s.phase, s.deck, s.prize = chance, BID, deck, 0
        s.hands = [list(CARDS) for _ in range(players)]
        s.bids, s.done = [NO_BID] * players, [True] * players
        s.won, s.discarded, s.last = [[] for _ in range(players)], [], []
        return s

    def copy(self) -> State:
        s = State()
        s.chance, s.phase, s.deck, s.prize = self.chance.copy(), self.phase, list(self.deck), self.prize
        s.hands = [list(hand) for hand in self.hands]
        s.bids, s.done = list(self.bids), list(self.done)
        s.won, s.discarded, s.last = [list(w) for w in self.won], list(self.discarded), list(self.last)
        return s

    def current_phase(self) -> str:
        return self.phase

    def acting_seat(self) -> int:
        raise NotImplementedError  # every decision is sealed: the flow asks who has not bid

    def set_phase(self, name: str) -> None:
        self.phase = name
