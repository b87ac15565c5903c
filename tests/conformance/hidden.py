"""What one seat cannot know, independently of the games' own samplers (issue #10, issue 27 item 1).

Two levels, per game:

- **secrets** (``hidden_places``, ``scramble_*_secrets``): what the seat cannot know even with
  perfect recall of the public events it was shown: decks, others' hands, face-down cards, others'
  sealed choices, the generator.  A sample may differ from the true state only there (the places,
  as dotted snapshot paths), and a state whose secrets were changed gives the same sample.
- **unseen** (``scramble_*``): the secrets plus what the view does not show although the public
  record does (another party's money and donation cards left in Die Macher, HI-01/HI-10; another
  seat's delivered cards in Glück Auf): the view non-interference check (a seat's view does not
  change when only what it cannot see does).
"""

from __future__ import annotations

import random
from typing import Any

NOBODY = -1
DRAWING = ("keep_tile", "return_tiles", "keep_order", "return_orders")
# Secrets a sampler starts afresh rather than draws: another seat's return of its draw-5 hand in
# progress (which items it put back, in which order, on which side; games/glueckauf/resample.py).
STARTED_AFRESH = frozenset({"other_returned"})
# Program cards chosen in these phases leave the hand for the sealed choice.
MOVED_TO_SECRET = ("program", "program_more")


# ------------------------------------------------------------------ Die Macher


def diemacher_hidden_places(game: Any, state: Any, seat: int) -> dict[str, list[str]]:
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


def diemacher_unordered(state: Any) -> list[str]:
    """Lists whose order no rule reads and no view shows: hands (a hand is a set of cards)."""
    hands = [f"players.{s}.hand" for s in range(state.seats)]
    return hands + [f"draft_hands.{s}" for s in range(len(state.draft_hands))]


def _row_shown(game: Any, state: Any, pos: int) -> bool:
    boards = game.from_election(state)
    return (state.phase == "politicians" and state.step != "reveal" and state.cursor < len(boards)
            and boards[state.cursor] == pos)


def scramble_diemacher_secrets(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
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


def scramble_diemacher(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Die Macher, what the view hides: the secrets, others' money (unless open, HI-01) and which of
    their donation cards are left (HI-10)."""
    other = scramble_diemacher_secrets(game, state, seat, rng)
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


# ------------------------------------------------------------------ Glück Auf


def glueckauf_hidden_places(game: Any, state: Any, seat: int) -> dict[str, list[str]]:
    """The secrets of a Glück Auf state from ``seat`` (glueck-auf.md; view.py), as snapshot paths."""
    places = {"chance": ["chance"], "tile_stack": ["tile_stack"], "order_deck": ["order_deck"]}
    if state.phase in DRAWING and state.current != seat:
        places["other_drawn"] = ["drawn"]
        places["other_returned"] = ["returned", "return_to"]  # which items, in which order, which side
    return places


def glueckauf_unordered(state: Any) -> list[str]:
    """Lists whose order no rule reads and no view shows: a pit's tiles (they count by colour and side)."""
    return [f"players.{s}.tiles" for s in range(len(state.players))]


def scramble_glueckauf_secrets(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Glück Auf: the tile stack, the order deck, another seat's draw-5 hand and the order it puts
    it back in, the generator (glueck-auf.md; view.py)."""
    from stammtisch.games.glueckauf.state import KEEP_TILE, RETURN_ORDERS, RETURN_TILES

    other = state.copy()
    other.chance.seed += 1
    drawing = other.current if other.phase in DRAWING else None
    tiles_known = drawing == seat and other.phase == RETURN_TILES
    orders_known = drawing == seat and other.phase == RETURN_ORDERS
    if not tiles_known:
        rng.shuffle(other.tile_stack)
    if not orders_known:
        rng.shuffle(other.order_deck)
    if drawing is not None and drawing != seat:
        pile = other.tile_stack if other.phase in (KEEP_TILE, RETURN_TILES) else other.order_deck
        if pile and other.drawn:
            other.drawn[0], pile[0] = pile[0], other.drawn[0]
            other.drawn.sort()
        other.returned.reverse()
        if other.returned:
            other.return_to = "bottom" if other.return_to == "top" else "top"
    return other


def scramble_glueckauf(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Glück Auf, what the view hides: the secrets and others' delivered cards unless open."""
    from stammtisch.games.glueckauf.state import OVER, RETURN_ORDERS

    other = scramble_glueckauf_secrets(game, state, seat, rng)
    orders_known = other.current == seat and other.phase == RETURN_ORDERS
    if not game.options["open_delivered"] and other.phase != OVER and not orders_known:
        for index, p in enumerate(other.players):
            if index != seat and p.delivered and other.order_deck:
                p.delivered[0], other.order_deck[0] = other.order_deck[0], p.delivered[0]
    return other
