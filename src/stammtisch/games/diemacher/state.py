"""The state of a game of Die Macher as plain data, cheap to copy.

Program and opinion cards are small integers: ``topic * 2 + attitude`` where attitude 0 is
"+" and 1 is "−"; so ``card // 2`` is the topic and ``card ^ 1`` the opposite attitude.
Seats are 0..N−1 clockwise; boards are ring positions 0..3 clockwise, board 0 holding the
first election.  ``NOBODY`` (−1) marks an empty media spot or a missing card.
"""

from __future__ import annotations

from dataclasses import dataclass

from stammtisch.engine.chance import Chance

NOBODY = -1
TOPICS = 7
CARD_TYPES = 14


def topic(card: int) -> int:
    return card >> 1


@dataclass(slots=True)
class Placed:
    """A politician in a board's row: sent face down in phase 5, revealed and paid for in phase 6."""

    seat: int
    politician: int  # index into Edition.politicians
    paid: bool | None = None  # None until its owner pays or declines

    def copy(self) -> Placed:
        return Placed(self.seat, self.politician, self.paid)


class Board:
    """One state board of the ring, with the state card currently on it."""

    __slots__ = ("card", "in_play", "opinions", "face_up", "doubled", "votes", "trend", "rallies", "media",
                 "row", "bang_used")

    def __init__(self, card: int, seats: int) -> None:
        self.card = card  # index into Edition.states
        self.in_play = True
        self.opinions: list[int] = []
        self.face_up: list[bool] = []
        self.doubled = NOBODY  # slot of the opinion carrying the double marker
        self.votes = [0] * seats
        self.trend = [0] * seats
        self.rallies = [0] * seats
        self.media = [NOBODY] * 5
        self.row: list[Placed] = []  # in the order the politicians were sent
        self.bang_used: list[str] = []

    def copy(self) -> Board:
        b = Board.__new__(Board)
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

    def __init__(self, party: int, money: int, base: int, politicians: list[int], media: int, rallies: int) -> None:
        self.party = party  # index into Edition.parties
        self.money = money
        self.base = base
        self.program: list[int] = []
        self.hand: list[int] = []
        self.politicians = politicians  # indices into Edition.politicians still available
        self.donations = [0, 1, 2]  # indices into Edition.donations not yet used
        self.media_supply = media
        self.rally_supply = rallies
        self.vote_vp: list[int] = []  # per election, in election order
        self.win_vp: list[int] = []
        # A sealed decision in progress (draft pick, program, bid, start block): hidden until revealed.
        self.secret: list[int] = []

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.party, p.money, p.base = self.party, self.money, self.base
        p.program, p.hand, p.politicians = self.program[:], self.hand[:], self.politicians[:]
        p.donations, p.media_supply, p.rally_supply = self.donations[:], self.media_supply, self.rally_supply
        p.vote_vp, p.win_vp, p.secret = self.vote_vp[:], self.win_vp[:], self.secret[:]
        return p


class Auction:
    """An open auction (start player tie C-01, poll auctions §6.8): the seats of ``order`` bid in
    turn, once each, above ``high``; ``position`` is the next bidder's index in ``order``."""

    __slots__ = ("high", "high_seat", "position", "order")

    def __init__(self, high: int, order: list[int]) -> None:
        self.high = high  # −1: no bid yet
        self.high_seat = NOBODY
        self.position = 0
        self.order = order

    def copy(self) -> Auction:
        a = Auction(self.high, self.order[:])
        a.high_seat, a.position = self.high_seat, self.position
        return a


class CoalitionTalks:
    """C-09 alternatives: the strongest party's coalition, still undecided while ``partner`` is
    UNDECIDED; ``asked`` indexes the candidate asked now."""

    __slots__ = ("partner", "asked", "strongest", "candidates")

    def __init__(self, partner: int, strongest: int, candidates: list[int]) -> None:
        self.partner = partner
        self.asked = 0
        self.strongest = strongest
        self.candidates = candidates

    def copy(self) -> CoalitionTalks:
        c = CoalitionTalks(self.partner, self.strongest, self.candidates[:])
        c.asked = self.asked
        return c


class ProgramChange:
    """A program change in progress (phase 2 or the PROGRAM politician action)."""

    __slots__ = ("seat", "step", "swaps", "origin", "swapped_in")

    def __init__(self, seat: int, step: int, origin: int) -> None:
        self.seat = seat
        self.step = step  # MODE, TAKE, SWAP or KEEP (phases/program.py)
        self.swaps = 0
        self.origin = origin  # FROM_PHASE_2 or FROM_POLITICIAN
        self.swapped_in = NOBODY  # the card swapped in last: it cannot go out again

    def copy(self) -> ProgramChange:
        c = ProgramChange(self.seat, self.step, self.origin)
        c.swaps, c.swapped_in = self.swaps, self.swapped_in
        return c


class State:
    """The whole table.  Flow fields say which decision is pending and whose it is."""

    __slots__ = (
        "round", "phase", "start_player", "boards", "players", "chance",
        "program_deck", "program_discard", "program_display", "opinion_deck", "opinion_discard",
        "opinion_display", "poll_deck", "poll_discard", "double_supply", "media_presence", "future_states",
        "elections_held", "elected", "actor", "done", "turn", "cursor", "row_cursor", "step", "passes", "auction",
        "talks", "poll_in_hand", "program_change", "draft_hands", "outcomes", "excluded",
    )  # fmt: skip

    def __init__(self) -> None:
        self.round = 0
        self.phase = "setup"
        self.start_player = 0
        self.boards: list[Board] = []
        self.players: list[Player] = []
        self.chance = Chance(0)
        self.program_deck: list[int] = []
        self.program_discard: list[int] = []
        self.program_display: list[int] = []
        self.opinion_deck: list[int] = []
        self.opinion_discard: list[int] = []
        self.opinion_display = [True] * CARD_TYPES
        self.poll_deck: list[int] = []
        self.poll_discard: list[list[int]] = []  # [card, 1 if face up]
        self.double_supply = 4
        self.media_presence: list[list[int]] = [[] for _ in range(7)]
        self.future_states: list[int] = []
        self.elections_held = 0
        self.elected: list[int] = []  # the state cards elected so far, in election order (public)
        # Flow.
        self.actor = NOBODY  # the seat whose decision it is (sequential decisions)
        self.done: list[bool] = []  # sealed decisions: who has committed
        self.turn = 0  # index into turn order
        self.cursor = 0  # index into the phase's list of boards
        self.row_cursor = 0  # index into a board's politician row
        self.step = ""  # sub-step of the phase (politicians: reveal, pay, sealed_pay, main, secondary, after)
        self.passes = 0
        self.auction: Auction | None = None  # the open auction running
        self.talks: CoalitionTalks | None = None  # coalition talks of the election running
        self.poll_in_hand = NOBODY  # a poll card drawn by the actor, awaiting publish or not
        self.program_change: ProgramChange | None = None  # while a program change runs
        self.draft_hands: list[list[int]] = []
        self.outcomes: dict[str, int] = {}
        self.excluded: list[bool] = []  # honour-system overbidders, out of this phase's auctions (C-14)

    def copy(self) -> State:
        s = State.__new__(State)
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
