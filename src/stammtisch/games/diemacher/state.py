"""The state of a game of Die Macher as plain data, cheap to copy.

Program and opinion cards are small integers: ``topic * 2 + attitude`` where attitude 0 is
"+" and 1 is "−"; so ``card // 2`` is the topic and ``card ^ 1`` the opposite attitude.
Seats are 0..N−1 clockwise; boards are ring positions 0..3 clockwise, board 0 holding the
first election.  ``NOBODY`` (−1) marks an empty media spot or a missing card.

The classes are compiled (mypyc native classes: no ``Cls.__new__`` without ``__init__``), so each
can be called without arguments: ``Board()``, ``Player()`` and ``State()`` are blank, every field
set afterwards by their ``copy()``, their ``new`` (a fresh one for the set-up) or a snapshot; the
small records take defaults.  Fields are declared in the class body in ``__slots__`` order (the
order snapshots list them in, in both builds).
"""

from __future__ import annotations

from typing import Final

from stammtisch.engine.chance import Chance
from stammtisch.engine.flow import FlowState

NOBODY: Final = -1
TOPICS: Final = 7
CARD_TYPES: Final = 14


def topic(card: int) -> int:
    return card >> 1


def card_kinds(cards: list[int]) -> list[int]:
    """``sorted(set(cards))`` for program or opinion cards (NOBODY left out), without a set or a sort."""
    held = 0
    for card in cards:
        if card != NOBODY:
            held |= 1 << card
    return [card for card in range(CARD_TYPES) if held >> card & 1]


class Placed:
    """A politician in a board's row: sent face down in phase 5, revealed and paid for in phase 6."""

    __slots__ = ("seat", "politician", "paid")

    def __init__(self, seat: int = NOBODY, politician: int = NOBODY, paid: bool | None = None) -> None:
        self.seat = seat
        self.politician = politician  # index into Edition.politicians
        self.paid = paid  # None until its owner pays or declines

    def copy(self) -> Placed:
        return Placed(self.seat, self.politician, self.paid)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Placed) and (self.seat, self.politician, self.paid) == (
            other.seat, other.politician, other.paid)

    def __repr__(self) -> str:
        return f"Placed(seat={self.seat!r}, politician={self.politician!r}, paid={self.paid!r})"


class Board:
    """One state board of the ring, with the state card currently on it."""

    __slots__ = ("card", "in_play", "opinions", "face_up", "doubled", "votes", "trend", "rallies", "media",
                 "row", "bang_used")

    card: int  # index into Edition.states
    in_play: bool
    opinions: list[int]
    face_up: list[bool]
    doubled: int  # slot of the opinion carrying the double marker
    votes: list[int]
    trend: list[int]
    rallies: list[int]
    media: list[int]
    row: list[Placed]  # in the order the politicians were sent
    bang_used: list[str]

    @classmethod
    def new(cls, card: int, seats: int) -> Board:
        b = Board()
        b.card = card
        b.in_play = True
        b.opinions = []
        b.face_up = []
        b.doubled = NOBODY
        b.votes = [0] * seats
        b.trend = [0] * seats
        b.rallies = [0] * seats
        b.media = [NOBODY] * 5
        b.row = []
        b.bang_used = []
        return b

    def copy(self) -> Board:
        b = Board()
        b.card, b.in_play, b.doubled = self.card, self.in_play, self.doubled
        b.opinions, b.face_up = self.opinions[:], self.face_up[:]
        b.votes, b.trend, b.rallies, b.media = self.votes[:], self.trend[:], self.rallies[:], self.media[:]
        b.row = [placed.copy() for placed in self.row]
        b.bang_used = self.bang_used[:]
        return b

    def face_up_cards(self) -> list[int]:
        return [c for c, up in zip(self.opinions, self.face_up, strict=True) if up]


class Player:
    """One seat and its party."""

    __slots__ = ("party", "money", "base", "program", "hand", "politicians", "donations", "media_supply",
                 "rally_supply", "vote_vp", "win_vp", "secret")

    party: int  # index into Edition.parties
    money: int
    base: int
    program: list[int]
    hand: list[int]
    politicians: list[int]  # indices into Edition.politicians still available
    donations: list[int]  # indices into Edition.donations not yet used
    media_supply: int
    rally_supply: int
    vote_vp: list[int]  # per election, in election order
    win_vp: list[int]
    # A sealed decision in progress (draft pick, program, bid, start block): hidden until revealed.
    secret: list[int]

    @classmethod
    def new(cls, party: int, money: int, base: int, politicians: list[int], media: int, rallies: int) -> Player:
        p = Player()
        p.party, p.money, p.base = party, money, base
        p.program, p.hand, p.politicians = [], [], politicians
        p.donations, p.media_supply, p.rally_supply = [0, 1, 2], media, rallies
        p.vote_vp, p.win_vp, p.secret = [], [], []
        return p

    def copy(self) -> Player:
        p = Player()
        p.party, p.money, p.base = self.party, self.money, self.base
        p.program, p.hand, p.politicians = self.program[:], self.hand[:], self.politicians[:]
        p.donations, p.media_supply, p.rally_supply = self.donations[:], self.media_supply, self.rally_supply
        p.vote_vp, p.win_vp, p.secret = self.vote_vp[:], self.win_vp[:], self.secret[:]
        return p


class Auction:
    """An open auction (start player tie C-01, poll auctions §6.8): the seats of ``order`` bid in
    turn, once each, above ``high``; ``position`` is the next bidder's index in ``order``."""

    __slots__ = ("high", "high_seat", "position", "order")

    def __init__(self, high: int = -1, order: list[int] | None = None, high_seat: int = NOBODY,
                 position: int = 0) -> None:
        self.high = high  # −1: no bid yet
        self.high_seat = high_seat
        self.position = position
        self.order: list[int] = [] if order is None else order

    def copy(self) -> Auction:
        return Auction(self.high, self.order[:], self.high_seat, self.position)


class CoalitionTalks:
    """C-09 alternatives: the strongest party's coalition, still undecided while ``partner`` is
    UNDECIDED; ``asked`` indexes the candidate asked now."""

    __slots__ = ("partner", "asked", "strongest", "candidates")

    def __init__(self, partner: int = NOBODY, strongest: int = NOBODY, candidates: list[int] | None = None,
                 asked: int = 0) -> None:
        self.partner = partner
        self.asked = asked
        self.strongest = strongest
        self.candidates: list[int] = [] if candidates is None else candidates

    def copy(self) -> CoalitionTalks:
        return CoalitionTalks(self.partner, self.strongest, self.candidates[:], self.asked)


class ProgramChange:
    """A program change in progress (phase 2 or the PROGRAM politician action)."""

    __slots__ = ("seat", "step", "swaps", "origin", "swapped_in")

    def __init__(self, seat: int = NOBODY, step: int = 0, origin: int = 0, swaps: int = 0,
                 swapped_in: int = NOBODY) -> None:
        self.seat = seat
        self.step = step  # MODE, TAKE, SWAP or KEEP (phases/program.py)
        self.swaps = swaps
        self.origin = origin  # FROM_PHASE_2 or FROM_POLITICIAN
        self.swapped_in = swapped_in  # the card swapped in last: it cannot go out again

    def copy(self) -> ProgramChange:
        return ProgramChange(self.seat, self.step, self.origin, self.swaps, self.swapped_in)


class State(FlowState):
    """The whole table.  Flow fields say which decision is pending and whose it is."""

    __slots__ = (
        "round", "phase", "start_player", "boards", "players", "chance",
        "program_deck", "program_discard", "program_display", "opinion_deck", "opinion_discard",
        "opinion_display", "poll_deck", "poll_discard", "double_supply", "media_presence", "future_states",
        "elections_held", "elected", "actor", "done", "turn", "cursor", "row_cursor", "step", "passes", "auction",
        "talks", "poll_in_hand", "program_change", "draft_hands", "outcomes", "excluded",
    )  # fmt: skip

    round: int
    phase: str
    start_player: int
    boards: list[Board]
    players: list[Player]
    chance: Chance
    program_deck: list[int]
    program_discard: list[int]
    program_display: list[int]
    opinion_deck: list[int]
    opinion_discard: list[int]
    opinion_display: list[bool]
    poll_deck: list[int]
    poll_discard: list[list[int]]  # [card, 1 if face up]
    double_supply: int
    media_presence: list[list[int]]
    future_states: list[int]
    elections_held: int
    elected: list[int]  # the state cards elected so far, in election order (public)
    # Flow.
    actor: int  # the seat whose decision it is (sequential decisions)
    done: list[bool]  # sealed decisions: who has committed
    turn: int  # index into turn order
    cursor: int  # index into the phase's list of boards
    row_cursor: int  # index into a board's politician row
    step: str  # sub-step of the phase (politicians: reveal, pay, sealed_pay, main, secondary, after)
    passes: int
    auction: Auction | None  # the open auction running
    talks: CoalitionTalks | None  # coalition talks of the election running
    poll_in_hand: int  # a poll card drawn by the actor, awaiting publish or not
    program_change: ProgramChange | None  # while a program change runs
    draft_hands: list[list[int]]
    outcomes: dict[str, int]
    excluded: list[bool]  # honour-system overbidders, out of this phase's auctions (C-14)

    def current_phase(self) -> str:
        return self.phase

    def acting_seat(self) -> int:
        return self.actor

    def set_phase(self, name: str) -> None:
        self.phase = name

    @classmethod
    def new(cls) -> State:
        """A table before the set-up (setup.py fills it in)."""
        state = State()
        state.round, state.phase, state.start_player = 0, "setup", 0
        state.boards, state.players, state.chance = [], [], Chance(0)
        state.program_deck, state.program_discard, state.program_display = [], [], []
        state.opinion_deck, state.opinion_discard, state.opinion_display = [], [], [True] * CARD_TYPES
        state.poll_deck, state.poll_discard, state.double_supply = [], [], 4
        state.media_presence, state.future_states, state.elections_held = [[] for _ in range(7)], [], 0
        state.elected = []
        state.actor, state.done, state.turn, state.cursor, state.row_cursor = NOBODY, [], 0, 0, 0
        state.step, state.passes, state.auction, state.talks = "", 0, None, None
        state.poll_in_hand, state.program_change, state.draft_hands = NOBODY, None, []
        state.outcomes, state.excluded = {}, []
        return state

    def copy(self) -> State:
        state = State()
        state.round, state.phase = self.round, self.phase
        state.start_player = self.start_player
        state.boards = [b.copy() for b in self.boards]
        state.players = [p.copy() for p in self.players]
        state.chance = self.chance.copy()
        state.program_deck, state.program_discard = self.program_deck[:], self.program_discard[:]
        state.program_display = self.program_display[:]
        state.opinion_deck, state.opinion_discard = self.opinion_deck[:], self.opinion_discard[:]
        state.opinion_display = self.opinion_display[:]
        state.poll_deck = self.poll_deck[:]
        state.poll_discard = [x[:] for x in self.poll_discard]
        state.double_supply = self.double_supply
        state.media_presence = [x[:] for x in self.media_presence]
        state.future_states = self.future_states[:]
        state.elections_held = self.elections_held
        state.elected = self.elected[:]
        state.actor, state.done, state.turn, state.cursor = self.actor, self.done[:], self.turn, self.cursor
        state.row_cursor, state.step, state.passes = self.row_cursor, self.step, self.passes
        state.auction = None if self.auction is None else self.auction.copy()
        state.talks = None if self.talks is None else self.talks.copy()
        state.poll_in_hand = self.poll_in_hand
        state.program_change = None if self.program_change is None else self.program_change.copy()
        state.draft_hands = [h[:] for h in self.draft_hands]
        state.outcomes = dict(self.outcomes)
        state.excluded = self.excluded[:]
        return state

    @property
    def seats(self) -> int:
        return len(self.players)

    def turn_order(self) -> list[int]:
        n = len(self.players)
        return [(self.start_player + i) % n for i in range(n)]

    def turn_seat(self, turn: int) -> int:
        """``turn_order()[turn]`` for ``0 <= turn < seats``, without making the list."""
        return (self.start_player + turn) % len(self.players)
