"""Resampling what one seat cannot see (die-macher.md §13): a full state built from the seat's
knowledge alone, every hidden part drawn at random within the rules.

Blind by construction: ``Game.resample`` takes the seat's **knowledge** (``knowledge``: its view and
the public record below, plain JSON-ready data), and ``sample`` builds a fresh state from that data
alone; it never sees the true state.  Every field of the sample is filled from the knowledge or
drawn, so a field the knowledge does not carry cannot reach a sample (a field nobody fills stays
unset and the first rule that reads it fails).

The **public record** holds what every seat learns from the public events but the view does not
show (a seat with perfect recall knows it; tests/conformance/test_resample.py derives each entry
from the events a seat was shown):

- every party's money (HI-01: start money, bids, costs, income and donations are all public);
- the politicians each party has used (HI-09: each was revealed before it left the board);
- the donation cards each party has used (HI-10: its effect showed which);
- where the flow stands: whose decision, which board, which politician of the row, passes in a
  row, the open auction, coalition talks or program change, who committed to a sealed decision
  and who is out of the auctions; and the count of each election outcome so far.

Drawn at random (the multiset of items the seat cannot see, sorted, shuffled with ``rng`` and dealt
into the hidden places, whose sizes are public):

- Program cards: other hands, other draft hands and the deck (the display, the discard pile and
  every revealed program are public).
- Opinions: face-down opinions on the boards and the deck.
- Poll cards: the deck (its top card keeps the back the seat sees, HI-07), face-down discards and
  a poll card another seat holds.
- Politicians: another party's hand and its face-down politicians on the boards, from its cabinet
  less the ones it has used and the ones face up.
- Long game: the future state cards, from the cards neither on a board nor elected (§7.1, §7.3).
- Sealed decisions of others (draft pick, program, kept card, bid, start block, sealed payment):
  a committed party decides again at random among its legal actions; an uncommitted one has not
  chosen yet.
- The chance generator is reseeded from ``rng``: future draws are unknown.

What only the seat itself remembers beyond its view is not used: the cards it passed in the draft,
a poll card it withheld.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stammtisch.engine.chance import Chance
from stammtisch.engine.resample import ResampleError, deal, reseeded
from stammtisch.games.diemacher.state import (
    CARD_TYPES,
    NOBODY,
    Auction,
    Board,
    CoalitionTalks,
    Placed,
    Player,
    ProgramChange,
    State,
    topic,
)

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

PROGRAM_COPIES = 4
OPINION_COPIES = 3
MOVED_TO_SECRET = ("program", "program_more")  # phases whose sealed choice takes cards out of the hand
Knowledge = dict[str, Any]


# ------------------------------------------------------------------ what the seat knows


def knowledge(game: DieMacher, state: State, seat: int) -> Knowledge:
    """Everything ``seat`` knows, as data: its view and the public record."""
    return {"view": game.view(state, seat), "record": public_record(game, state)}


def public_record(game: DieMacher, state: State) -> dict[str, Any]:
    """What the public events have shown every seat beyond its view (the module's docstring)."""
    cabinet = _cabinet(game)
    return {
        "money": [p.money for p in state.players],
        "politicians_used": [_politicians_used(game, state, s, cabinet) for s in range(state.seats)],
        "donations_used": [[d.value for i, d in enumerate(game.edition.donations) if i not in p.donations]
                           for p in state.players],
        "flow": _flow(state),
        "outcomes": dict(state.outcomes),
    }


def _cabinet(game: DieMacher) -> list[int]:
    """Every party's politicians at the start (the same fixed set, HI-09)."""
    return [i for i, p in enumerate(game.edition.politicians) if game.long_game or not p.long_game_only]


def _politicians_used(game: DieMacher, state: State, seat: int, cabinet: list[int]) -> list[str]:
    """The party's politicians that were revealed and have left the boards (in the cabinet's order)."""
    kept = set(state.players[seat].politicians)
    kept.update(placed.politician for board in state.boards for placed in board.row if placed.seat == seat)
    return [game.edition.politicians[i].id for i in cabinet if i not in kept]


def _flow(state: State) -> dict[str, Any]:
    auction, talks, change = state.auction, state.talks, state.program_change
    return {
        "actor": state.actor, "done": list(state.done), "turn": state.turn, "cursor": state.cursor,
        "row_cursor": state.row_cursor, "step": state.step, "passes": state.passes,
        "excluded": list(state.excluded),
        # the seats whose commitment to the open sealed decision was announced
        "committed": [s for s, p in enumerate(state.players) if state.done and state.done[s] and p.secret],
        "poll_held": state.poll_in_hand != NOBODY,  # a poll card was taken and not yet used
        "auction": None if auction is None else [auction.high, auction.order[:], auction.high_seat, auction.position],
        "talks": None if talks is None else [talks.partner, talks.strongest, talks.candidates[:], talks.asked],
        "program_change": None if change is None else [change.seat, change.step, change.origin, change.swaps,
                                                       change.swapped_in],
    }  # fmt: skip


# ------------------------------------------------------------------ a state from that knowledge


def sample(game: DieMacher, known: Knowledge, rng: random.Random) -> State:
    """A full state that agrees with ``known``, its hidden parts drawn with ``rng``."""
    return Sampler(game, known)(rng)


Deal = Callable[[State, random.Random], None]


class Sampler:
    """The samples of one knowledge: what it shows is read once into a state without its hidden
    parts, and the items each hidden part is dealt from are gathered once; each sample is a copy of
    that state with the chance reseeded and the hidden parts dealt (in the order below)."""

    def __init__(self, game: DieMacher, known: Knowledge) -> None:
        view, record = known["view"], known["record"]
        self.shown = state = _shown(game, known)
        self.deals: list[Deal] = [
            _program_cards(state, view),
            _opinions(state, view["board"]["opinion_deck"]),
            _polls(game, state, view, record["flow"]["poll_held"]),
            _politicians(game, state, view, record["politicians_used"]),
            _future_states(game, state, view["board"]["future_states"]),
            _sealed_decisions(game, [o for o in record["flow"]["committed"] if o != view["seat"]]),
        ]

    def __call__(self, rng: random.Random) -> State:
        state = self.shown.copy()
        state.chance = reseeded(rng)
        for dealt in self.deals:
            dealt(state, rng)
        return state


def _shown(game: DieMacher, known: Knowledge) -> State:
    """Everything of a sample that ``known`` shows; its hidden parts are dealt by the ``Sampler``."""
    view, record = known["view"], known["record"]
    board = view["board"]
    seat: int = view["seat"]
    state = State()
    state.round, state.phase, state.start_player = board["round"], view["phase"], board["start_player"]
    state.chance = Chance(0)  # replaced in every sample
    state.boards = _boards(game, board["boards"])
    state.players = [_player(game, shown, other, record, own=other == seat)
                     for other, shown in enumerate(board["seats"])]
    state.program_display = [NOBODY if c is None else c for c in board["program_display"]]
    state.program_discard = list(board["program_discard"])
    state.opinion_display = [c in board["opinion_display"] for c in range(CARD_TYPES)]
    state.opinion_discard = list(board["opinion_discard"])
    state.double_supply = board["double_markers"]
    state.media_presence = [list(spot["markers"]) for spot in board["media_presence"]]
    state.elections_held = board["elections_held"]
    state.elected = [_state_cards(game)[state_id] for state_id in board["elected"]]
    state.outcomes = dict(record["outcomes"])
    _set_flow(state, record["flow"])
    own = board["seats"][seat]
    state.draft_hands = [list(own["draft_hand"]) if other == seat else [] for other in range(state.seats)] \
        if "draft_hand" in own else []
    state.program_deck, state.opinion_deck, state.poll_deck = [], [], []
    state.poll_discard, state.future_states = [], []
    return state


def _boards(game: DieMacher, shown_boards: list[dict[str, Any]]) -> list[Board]:
    """The four boards as the view shows them; face-down opinions and politicians are dealt later."""
    states = _state_cards(game)
    boards = []
    for shown in shown_boards:
        b = Board()
        b.card, b.in_play = states[shown["state"]], shown["in_play"]
        opinions = shown["opinions"]
        b.opinions = [NOBODY if o["card"] is None else o["card"] for o in opinions]
        b.face_up = [o["face_up"] for o in opinions]
        b.doubled = next((i for i, o in enumerate(opinions) if o["doubled"]), NOBODY)
        b.votes, b.trend, b.rallies = list(shown["votes"]), list(shown["trend"]), list(shown["rallies"])
        b.media = [NOBODY if m is None else m for m in shown["media"]]
        b.row = [Placed(p["seat"], NOBODY if p["politician"] is None else game.politician_index[p["politician"]],
                        p["paid"]) for p in shown["politicians"]]
        b.bang_used = list(shown["locked_actions"])
        boards.append(b)
    return boards


def _state_cards(game: DieMacher) -> dict[str, int]:
    """Each state card's index by its id."""
    return {card.id: i for i, card in enumerate(game.edition.states)}


def _player(game: DieMacher, shown: dict[str, Any], seat: int, record: dict[str, Any], own: bool) -> Player:
    """A party as its view entry and the record show it; another party's hand and politicians in
    hand are dealt later."""
    edition = game.edition
    p = Player()
    p.party, p.money, p.base = edition.party_index(shown["party"]), record["money"][seat], shown["party_base"]
    p.program = list(shown["program"])
    p.hand = list(shown["hand"]) if own else []
    p.politicians = [game.politician_index[i] for i in shown["politicians"]] if own else []
    used = record["donations_used"][seat]
    p.donations = [i for i, d in enumerate(edition.donations) if d.value not in used]
    p.media_supply, p.rally_supply = shown["media_supply"], shown["rally_supply"]
    p.vote_vp, p.win_vp = list(shown["vote_vp"]), list(shown["win_vp"])
    p.secret = list(shown["sealed"]) if own else []
    return p


def _set_flow(state: State, flow: dict[str, Any]) -> None:
    state.actor, state.done, state.turn, state.cursor = flow["actor"], list(flow["done"]), flow["turn"], flow["cursor"]
    state.row_cursor, state.step, state.passes = flow["row_cursor"], flow["step"], flow["passes"]
    state.excluded = list(flow["excluded"])
    state.poll_in_hand = NOBODY  # dealt with the poll cards
    auction, talks, change = flow["auction"], flow["talks"], flow["program_change"]
    state.auction = None if auction is None else Auction(auction[0], list(auction[1]), auction[2], auction[3])
    state.talks = None if talks is None else CoalitionTalks(talks[0], talks[1], list(talks[2]), talks[3])
    state.program_change = None if change is None else ProgramChange(change[0], change[1], change[2], change[3],
                                                                     change[4])


def _minus(full: Counter[int], seen: list[int]) -> list[int]:
    rest = full.copy()
    rest.subtract(seen)
    if any(n < 0 for n in rest.values()):
        raise ResampleError("more cards seen than exist")
    return list(rest.elements())


def _program_cards(state: State, view: dict[str, Any]) -> Deal:
    """Other hands, other draft hands and the deck, from the program cards the seat cannot see."""
    seat: int = view["seat"]
    board = view["board"]
    me = state.players[seat]
    seen = [c for c in state.program_display if c != NOBODY] + state.program_discard + me.hand
    for player in state.players:
        seen += player.program
    if state.phase in MOVED_TO_SECRET:
        seen += me.secret
    if state.draft_hands:
        seen += state.draft_hands[seat]
    pool = sorted(_minus(Counter({c: PROGRAM_COPIES for c in range(CARD_TYPES)}), seen))
    others = [o for o in range(state.seats) if o != seat]
    draft_size = len(state.draft_hands[seat]) if state.draft_hands else 0  # every draft hand is as big
    hand_sizes = [board["seats"][o]["hand_size"] for o in others]  # cards chosen for the program included
    sizes = [board["program_deck"]] + hand_sizes + [draft_size] * (len(others) if state.draft_hands else 0)
    programs = [state.players[o].program for o in others]  # public: the same in every sample
    short = state.phase == "program_more"

    def dealt(state: State, rng: random.Random) -> None:
        for _attempt in range(10_000):
            parts = deal(pool, rng, sizes)
            if not short or all(_completable(program, hand)
                                for program, hand in zip(programs, parts[1:1 + len(others)], strict=True)):
                break
        else:
            raise ResampleError("no hands complete the short programs")
        state.program_deck = parts[0]
        for i, other in enumerate(others):
            state.players[other].hand = parts[1 + i]
            if state.draft_hands:
                state.draft_hands[other] = parts[1 + len(others) + i]

    return dealt


def _completable(program: list[int], hand: list[int]) -> bool:
    """G-12: after the draft exception a hand always holds enough new topics to complete the program."""
    used = {topic(c) for c in program}
    return len({topic(c) for c in hand} - used) >= 5 - len(program)


def _opinions(state: State, deck_size: int) -> Deal:
    seen = state.opinion_discard + [c for c in range(CARD_TYPES) if state.opinion_display[c]]
    hidden: list[tuple[int, int]] = []
    for pos, board in enumerate(state.boards):
        for slot, up in enumerate(board.face_up):
            if up:
                seen.append(board.opinions[slot])
            else:
                hidden.append((pos, slot))
    pool = sorted(_minus(Counter({c: OPINION_COPIES for c in range(CARD_TYPES)}), seen))

    def dealt(state: State, rng: random.Random) -> None:
        deck, face_down = deal(pool, rng, [deck_size, len(hidden)])
        state.opinion_deck = deck
        for (pos, slot), card in zip(hidden, face_down, strict=True):
            state.boards[pos].opinions[slot] = card

    return dealt


def _polls(game: DieMacher, state: State, view: dict[str, Any], held: bool) -> Deal:
    board = view["board"]
    polls = {card.id: i for i, card in enumerate(game.edition.polls)}
    discard = [None if poll_id is None else polls[poll_id] for poll_id in board["poll_discard"]]
    seen = [card for card in discard if card is not None]
    own_poll = board["seats"][view["seat"]].get("poll_in_hand")
    if own_poll is not None:
        state.poll_in_hand = polls[own_poll["id"]]
        seen.append(state.poll_in_hand)
    unseen = sorted(_minus(Counter(range(len(game.edition.polls))), seen))
    back = board["poll_top_back"]  # the back of the top card is public (HI-07)
    backed = None if back is None else [c for c in unseen if game.edition.polls[c].back == back]
    face_down = [i for i, card in enumerate(discard) if card is None]
    hidden_held = held and own_poll is None
    sizes = [board["poll_deck"] - (backed is not None), len(face_down), int(hidden_held)]

    def dealt(state: State, rng: random.Random) -> None:
        pool, top = unseen, []
        if backed is not None:
            top = [rng.choice(backed)]
            pool = unseen[:]
            pool.remove(top[0])
        deck, discards, hand = deal(pool, rng, sizes)
        state.poll_deck = deck + top
        state.poll_discard = [[NOBODY, 0] if card is None else [card, 1] for card in discard]
        for i, card in zip(face_down, discards, strict=True):
            state.poll_discard[i][0] = card
        if hidden_held:
            state.poll_in_hand = hand[0]

    return dealt


def _politicians(game: DieMacher, state: State, view: dict[str, Any], used: list[list[str]]) -> Deal:
    """Another party's politicians in hand and face down on the boards: its cabinet less the ones it
    has used (HI-09) and the ones face up."""
    cabinet = _cabinet(game)
    parties: list[tuple[int, list[int], int, list[tuple[int, int]]]] = []
    for other, shown in enumerate(view["board"]["seats"]):
        if other == view["seat"]:
            continue
        gone = {game.politician_index[i] for i in used[other]}
        mine = [(pos, at, placed) for pos, board in enumerate(state.boards) for at, placed in enumerate(board.row)
                if placed.seat == other]
        gone.update(placed.politician for _, _, placed in mine if placed.politician != NOBODY)
        hidden = [(pos, at) for pos, at, placed in mine if placed.politician == NOBODY]
        pool = [p for p in cabinet if p not in gone]
        left = shown["politicians_left"]
        if len(pool) != left + len(hidden):
            raise ResampleError(f"{len(pool)} politicians for {left} in hand and {len(hidden)} face down")
        parties.append((other, pool, left, hidden))

    def dealt(state: State, rng: random.Random) -> None:
        for other, pool, left, hidden in parties:
            drawn = rng.sample(pool, len(pool))
            state.players[other].politicians = sorted(drawn[:left])
            for (pos, at), politician in zip(hidden, drawn[left:], strict=True):
                state.boards[pos].row[at].politician = politician

    return dealt


def _future_states(game: DieMacher, state: State, size: int) -> Deal:
    """Long game: the stack of states to come, from the cards neither on a board nor elected."""
    out = {board.card for board in state.boards} | set(state.elected)
    pool = [i for i in range(len(game.edition.states)) if i not in out]

    def dealt(state: State, rng: random.Random) -> None:
        state.future_states = rng.sample(pool, size)

    return dealt


def _sealed_decisions(game: DieMacher, deciding: list[int]) -> Deal:
    """Others' committed sealed choices are made again at random from their sampled hands and money."""

    def dealt(state: State, rng: random.Random) -> None:
        for other in deciding:
            state.players[other].secret = []
            state.done[other] = False
            while other in game.to_act(state):
                game.apply(state, other, rng.choice(game.legal_actions(state, other)))

    return dealt
