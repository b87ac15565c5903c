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
        s = State()
        s.round, s.phase, s.start_player = 0, "setup", 0
        s.boards, s.players, s.chance = [], [], Chance(0)
        s.program_deck, s.program_discard, s.program_display = [], [], []
        s.opinion_deck, s.opinion_discard, s.opinion_display = [], [], [True] * CARD_TYPES
        s.poll_deck, s.poll_discard, s.double_supply = [], [], 4
        s.media_presence, s.future_states, s.elections_held = [[] for _ in range(7)], [], 0
        s.elected = []
        s.actor, s.done, s.turn, s.cursor, s.row_cursor = NOBODY, [], 0, 0, 0
        s.step, s.passes, s.auction, s.talks = "", 0, None, None
        s.poll_in_hand, s.program_change, s.draft_hands = NOBODY, None, []
        s.outcomes, s.excluded = {}, []
        return s

    def copy(self) -> State:
        s = State()
        s.round, s.phase = self.round, self.phase
        s.start_player = self.start_player
        s.boards = [b.copy() for b in self.boards]
        s.players = [p.copy() for p in self.players]
        s.chance = self.chance.copy()
        s.program_deck, s.program_discard = self.program_deck[:], self.program_discard[:]
        s.program_display = self.program_display[:]
        s.opinion_deck, s.opinion_discard = self.opinion_deck[:], self.opinion_discard[:]
        s.opinion_display = self.opinion_display[:]
        s.poll_deck = self.poll_deck[:]
        s.poll_discard = [x[:] for x in self.poll_discard]
        s.double_supply = self.double_supply
        s.media_presence = [x[:] for x in self.media_presence]
        s.future_states = self.future_states[:]
        s.elections_held = self.elections_held
        s.elected = self.elected[:]
        s.actor, s.done, s.turn, s.cursor = self.actor, self.done[:], self.turn, self.cursor
        s.row_cursor, s.step, s.passes = self.row_cursor, self.step, self.passes
        s.auction = None if self.auction is None else self.auction.copy()
        s.talks = None if self.talks is None else self.talks.copy()
        s.poll_in_hand = self.poll_in_hand
        s.program_change = None if self.program_change is None else self.program_change.copy()
        s.draft_hands = [h[:] for h in self.draft_hands]
        s.outcomes = dict(self.outcomes)
        s.excluded = self.excluded[:]
        return s

    @property
    def seats(self) -> int:
        return len(self.players)

    def turn_order(self) -> list[int]:
        n = len(self.players)
        return [(self.start_player + i) % n for i in range(n)]
