"""What the conformance suite needs of Die Macher beyond the protocol (tests/conformance/hooks.py reads it
through the registry; docs/adding-a-game.md, "Conformance hooks"): the option sets to play, the
invariants, what one seat cannot know (its secrets as snapshot places, and scramblers that change
only them) and the golden master's cases with their digests.

Two levels of what a seat cannot know (issue #10, issue 27 item 1):

- **secrets** (``hidden_places``, ``scramble_secrets``): what the seat cannot know even with perfect
  recall of the public events it was shown: decks, others' hands, face-down cards, others' sealed
  choices, the generator.  A sample may differ from the true state only there (the places, as dotted
  snapshot paths), and a state whose secrets were changed gives the same sample.
- **unseen** (``scramble``): the secrets plus what the view does not show although the public record
  does (another party's money and donation cards left, HI-01/HI-10): the view non-interference check.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from stammtisch.games.diemacher.phases.politicians import REVEAL
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"elections": 7},
    {"overbid_mode": "honour_system_with_penalty", "p6_pay_order": "simultaneous", "open_money": True,
     "coalition_mode": "candidate_may_decline", "poll_no_bid": "stays_on_top"},
]
# Program cards chosen in these phases leave the hand for the sealed choice.
MOVED_TO_SECRET = ("program", "program_more")
# Secrets every sampler must draw anew somewhere in random games (tests/conformance/test_resample.py).
SECRETS = frozenset({"chance", "other_hands", "other_sealed", "face_down_opinions"})
# Sealed decisions random games must meet (and the scrambler make again differently).
SEALED_MET = frozenset({"draft", "program", "keep", "start", "bid"})
# The golden master's random player mostly bids low in these kinds, so that ties and auctions happen.
CHEAP_KINDS = ("bid", "raise", "poll_bid")


def invariants(game: DieMacher, state: State) -> None:
    programs: Counter[int] = Counter(state.program_deck + state.program_discard)
    programs.update(c for c in state.program_display if c != NOBODY)
    for seat, player in enumerate(state.players):
        programs.update(player.program + player.hand)
        if state.phase in ("program", "program_more"):
            programs.update(player.secret)  # chosen cards left the hand but are not revealed yet
        if state.draft_hands:
            programs.update(state.draft_hands[seat])
    assert programs == Counter({card: 4 for card in range(CARD_TYPES)}), "56 program cards"

    opinions: Counter[int] = Counter(state.opinion_deck + state.opinion_discard)
    opinions.update(c for c in range(CARD_TYPES) if state.opinion_display[c])
    for board in state.boards:
        opinions.update(board.opinions)
    assert opinions == Counter({card: 3 for card in range(CARD_TYPES)}), "42 opinion cards"

    polls = state.poll_deck + [c for c, _ in state.poll_discard]
    polls += [state.poll_in_hand] if state.poll_in_hand != NOBODY else []
    assert sorted(polls) == list(range(10)), "10 poll cards"

    markers = 5 if game.long_game else 4
    for seat, player in enumerate(state.players):
        assert player.money >= 0
        assert player.rally_supply + sum(b.rallies[seat] for b in state.boards) == 20
        on_boards = sum(b.media.count(seat) for b in state.boards)
        assert player.media_supply + on_boards + sum(m.count(seat) for m in state.media_presence) == markers
    doubled = sum(1 for b in state.boards if b.doubled != NOBODY)
    assert state.double_supply + doubled == 4
    for board in state.boards:
        assert all(game.trend_min <= t <= game.trend_max for t in board.trend)
        assert all(0 <= r <= 8 for r in board.rallies)
        assert board.doubled == NOBODY or board.face_up[board.doubled]


def hidden_places(game: Any, state: Any, seat: int) -> dict[str, list[str]]:
    """The secrets of a Die Macher state from ``seat`` (die-macher.md §13), as snapshot paths."""
    others = [s for s in range(state.seats) if s != seat]
    places: dict[str, list[str]] = {
        "chance": ["chance"],
        "program_deck": ["program_deck"],
        "opinion_deck": ["opinion_deck"],
        "poll_deck": ["poll_deck"],  # its size and top card's back are in the view
        "face_down_opinions": [f"boards.{b}.opinions.{i}" for b, board in enumerate(state.boards)
                               for i, up in enumerate(board.face_up) if not up],
        "face_down_polls": [f"poll_discard.{i}.0" for i, (_card, up) in enumerate(state.poll_discard) if not up],
        "other_hands": [f"players.{s}.hand" for s in others],
        "other_draft_hands": [f"draft_hands.{s}" for s in others if state.draft_hands],
        # which of its politicians a party holds and which lie face down where
        "other_politicians": [f"players.{s}.politicians" for s in others] + [
            f"boards.{b}.row.{i}.politician" for b, board in enumerate(state.boards)
            for i, placed in enumerate(board.row) if placed.seat != seat and not _row_shown(game, state, b)],
        "other_sealed": [f"players.{s}.secret" for s in others],
    }
    if state.poll_in_hand != NOBODY and state.actor != seat:
        places["other_poll_in_hand"] = ["poll_in_hand"]
    if game.long_game:
        places["future_states"] = ["future_states"]
    return {name: paths for name, paths in places.items() if paths}


def unordered(state: Any) -> list[str]:
    """Lists whose order no rule reads and no view shows: hands (a hand is a set of cards)."""
    hands = [f"players.{s}.hand" for s in range(state.seats)]
    return hands + [f"draft_hands.{s}" for s in range(len(state.draft_hands))]


def _row_shown(game: Any, state: Any, pos: int) -> bool:
    boards = game.from_election(state)
    return (state.phase == "politicians" and state.step != REVEAL and state.cursor < len(boards)
            and boards[state.cursor] == pos)


def scramble_secrets(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Die Macher: decks, others' hands and draft hands, face-down opinions, politicians and poll
    cards, the future states, others' sealed choices (each committed one made again differently),
    the generator (die-macher.md §13)."""
    other = state.copy()
    if game.sealed(other):  # first, while the hands still allow every choice the rules allowed
        for s in committed(other):
            if s != seat:
                other = _decide_again(game, other, s, rng)
    other.chance.seed += 1
    rng.shuffle(other.program_deck)
    rng.shuffle(other.opinion_deck)
    rng.shuffle(other.future_states)
    if len(other.poll_deck) > 2:  # the top card's back is public; the order beneath it is not
        rest = other.poll_deck[:-1]
        rng.shuffle(rest)
        other.poll_deck[:-1] = rest
    if len(other.poll_deck) > 1:
        for entry in other.poll_discard:
            if not entry[1]:
                entry[0], other.poll_deck[0] = other.poll_deck[0], entry[0]
        if other.poll_in_hand != NOBODY and other.actor != seat:
            other.poll_in_hand, other.poll_deck[0] = other.poll_deck[0], other.poll_in_hand
    for s in range(len(other.players)):
        if s != seat:
            _scramble_diemacher_seat(game, other, s, rng)
    for board in other.boards:
        for slot, up in enumerate(board.face_up):
            if not up and other.opinion_deck:
                board.opinions[slot], other.opinion_deck[0] = other.opinion_deck[0], board.opinions[slot]
    return other


def scramble(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Die Macher, what the view hides: the secrets, others' money (unless open, HI-01) and which of
    their donation cards are left (HI-10)."""
    other = scramble_secrets(game, state, seat, rng)
    for s, player in enumerate(other.players):
        if s == seat:
            continue
        if not game.options["open_money"] and not game.is_over(other):  # money is shown at the end (HI-01)
            player.money += 1000
        if 0 < len(player.donations) < 3:  # the remaining donation cards lie face down (HI-10)
            player.donations = sorted(rng.sample(range(3), len(player.donations)))
    return other


def _scramble_diemacher_seat(game: Any, state: Any, s: int, rng: random.Random) -> None:
    player = state.players[s]
    if player.hand and state.program_deck and state.phase != "keep":  # the kept card must stay in the hand
        i = rng.randrange(len(player.hand))
        player.hand[i], state.program_deck[0] = state.program_deck[0], player.hand[i]
    if state.draft_hands and state.program_deck:
        picked = player.secret[0] if player.secret else None
        free = [i for i, c in enumerate(state.draft_hands[s]) if c != picked]
        if free:
            i = rng.choice(free)
            state.draft_hands[s][i], state.program_deck[0] = state.program_deck[0], state.draft_hands[s][i]
    face_down = [placed for pos, board in enumerate(state.boards) for placed in board.row
                 if placed.seat == s and not _row_shown(game, state, pos)]
    if face_down and player.politicians:
        placed = rng.choice(face_down)
        i = rng.randrange(len(player.politicians))
        placed.politician, player.politicians[i] = player.politicians[i], placed.politician
        player.politicians.sort()


def committed(state: Any) -> list[int]:
    """The seats committed to the open sealed decision (their choice lies in ``secret``)."""
    return [s for s, player in enumerate(state.players) if state.done and state.done[s] and player.secret]


def _undecided(game: Any, state: Any, s: int) -> Any:
    """A copy of ``state`` in which ``s`` has not made its sealed choice yet."""
    other = state.copy()
    player = other.players[s]
    if other.phase in MOVED_TO_SECRET:
        player.hand += player.secret
    player.secret = []
    other.done[s] = False
    return other


def choices(game: Any, state: Any, s: int, enough: int = 2) -> set[tuple[int, ...]]:
    """Sealed choices ``s`` could have committed instead (as sorted secrets), up to ``enough``."""
    found: set[tuple[int, ...]] = set()

    def explore(current: Any) -> None:
        if s not in game.to_act(current):
            found.add(tuple(sorted(current.players[s].secret)))
            return
        for action in game.legal_actions(current, s):
            if len(found) >= enough:
                return
            after = current.copy()
            game.apply(after, s, action)
            explore(after)

    explore(_undecided(game, state, s))
    return found


def _decide_again(game: Any, state: Any, s: int, rng: random.Random) -> Any:
    """The state with ``s``'s committed sealed choice made again, differently where another choice is
    legal (by the rules: a pick from its draft hand, other program cards, another kept card, bid,
    start block or payment)."""
    for _attempt in range(20):
        other = _undecided(game, state, s)
        while s in game.to_act(other):
            game.apply(other, s, rng.choice(game.legal_actions(other, s)))
        if sorted(other.players[s].secret) != sorted(state.players[s].secret):
            return other
    return state


def secret(state: Any, seat: int) -> list[int]:
    """The sealed choice ``seat`` committed (sorted)."""
    return sorted(state.players[seat].secret)


# The golden master (tests/conformance/golden.py): (case, players, options, seeds, digest); a digest
# changes only with the rules (bump the spec's rules_version then).
GOLDEN: list[tuple[str, int, dict[str, Any], tuple[int, ...], str]] = [
    ('dm-3-default', 3, {},
     (1, 101, 201), '2e306c1ee3a1f9c1660657314e35bf20c4384490306e780fab353140d84f6cda'),
    ('dm-4-default', 4, {},
     (2, 102, 202), '4607650c5ff6706e2f6f1d23b9c7ec712e894739ff740eebc76223c04976376b'),
    ('dm-5-default', 5, {},
     (3, 103, 203), 'b173bee8c8bccd785281376348a3807383343da63769849784425297f4091e4d'),
    ('dm-4-seven-elections', 4, {'elections': 7},
     (4, 104, 204), 'b82cd4a796ef2350622a37df53863fc8e2e12ba940d21908810d58b8506d12ea'),
    ('dm-3-seven-elections', 3, {'elections': 7},
     (13, 113, 213), '2f233af00baeab8bedd3e1030d6295c3ed2b98142c05952aec671940c792bc68'),
    ('dm-5-seven-elections', 5, {'elections': 7},
     (5, 105, 205), 'b084db34ea0592f795f86eda8f6f4f8059cadf694b526db9b1e52c2a556322d7'),
    ('dm-4-strongest-chooses', 4, {'coalition_mode': 'strongest_chooses_any_feasible', 'win_threshold': 15},
     (6, 106, 206), '5f841bd5a2990a78c48544e7cfd02956c5ed2a119e7492b68d523905310d0492'),
    ('dm-3-candidate-declines', 3, {'coalition_mode': 'candidate_may_decline', 'win_threshold': 20},
     (7, 107, 207), '56be3f0f495ccab8b5d28038086b1aa15a3064f18d4664c674ad101b232b1819'),
    ('dm-4-honour-overbid', 4, {'overbid_mode': 'honour_system_with_penalty'},
     (8, 108, 208), '73ccaef575310038b9971e3e0fa616e80ffc333b99dc12cd32594ff3acbe0878'),
    ('dm-5-honour-overbid', 5, {'overbid_mode': 'honour_system_with_penalty', 'money_unit': 500},
     (9, 109, 209), 'c8c73cea25e8a5627dc24af9ba462daddcc0e3fc725038e892e7d529101fc2bc'),
    ('dm-4-simultaneous-pay', 4, {'p6_pay_order': 'simultaneous', 'open_money': True},
     (10, 110, 210), '662103df4d46f23375bf34c6768e8f7656086c57694a965e4d1fd67c857f3674'),
    ('dm-3-alternatives', 3,
     {'tiebreak_open_order': 'previous_start_player_clockwise',
      'poll_auction_first': 'left_of_start_player',
      'bang_lock_scope': 'state_game',
      'removed_board_media': 'to_box',
      'force_convert_at_cap': True,
      'swap_out_to': 'discard',
      'poll_apply_other_positive': True,
      'phase2_optional': False,
      'poll_no_bid': 'stays_on_top',
      'unpublished_poll_public': True,
      'rally_trend_floor_general': False,
      'media_influencer_timing': 'after_winner_moves',
      'no_coalition_winner_media': True,
      'poll_reshuffle': False,
      'opinion_reshuffle': False},
     (11, 111, 211), '6a6785015a9e3ddaf1a1913dfd48fd2f0ae64e4a3216af72b9228c14f7b562c3'),
    ('dm-4-seven-simultaneous', 4,
     {'elections': 7, 'p6_pay_order': 'simultaneous', 'overbid_mode': 'honour_system_with_penalty'},
     (12, 112, 212), 'b73fbd374789c37308263324ca6355c2d2d2a58e29f0c63700988282912bcc4c'),
]
