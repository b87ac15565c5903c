"""Changing what one seat cannot see, independently of the games' own samplers: the second state
of the resample property "equal views give equal samples" (issue #10), and the view
non-interference check (a seat's view does not change when only others' secrets do)."""

from __future__ import annotations

import random
from typing import Any

NOBODY = -1


def scramble_diemacher(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Die Macher: decks, others' hands, draft hands and donation cards, face-down opinions,
    politicians and poll cards, the future states, others' hidden money and sealed bids
    (die-macher.md §13)."""
    other = state.copy()
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


def _scramble_diemacher_seat(game: Any, state: Any, s: int, rng: random.Random) -> None:
    player = state.players[s]
    if not game.options["open_money"] and not game.is_over(state):  # money is shown at the end (HI-01)
        player.money += 1000
    if player.hand and state.program_deck and state.phase != "keep":  # the kept card must stay in the hand
        i = rng.randrange(len(player.hand))
        player.hand[i], state.program_deck[0] = state.program_deck[0], player.hand[i]
    if state.phase == "bid" and player.secret:
        player.secret = [0]
    if state.draft_hands and state.program_deck:
        picked = player.secret[0] if player.secret else None
        free = [i for i, c in enumerate(state.draft_hands[s]) if c != picked]
        if free:
            i = rng.choice(free)
            state.draft_hands[s][i], state.program_deck[0] = state.program_deck[0], state.draft_hands[s][i]
    if 0 < len(player.donations) < 3:  # the remaining donation cards lie face down (HI-10)
        player.donations = sorted(rng.sample(range(3), len(player.donations)))
    face_down = [placed for pos, board in enumerate(state.boards) for placed in board.row
                 if placed.seat == s and not _row_shown(game, state, pos)]
    if face_down and player.politicians:
        placed = rng.choice(face_down)
        i = rng.randrange(len(player.politicians))
        placed.politician, player.politicians[i] = player.politicians[i], placed.politician
        player.politicians.sort()


def _row_shown(game: Any, state: Any, pos: int) -> bool:
    boards = game.from_election(state)
    return (state.phase == "politicians" and state.step != "reveal" and state.cursor < len(boards)
            and boards[state.cursor] == pos)


def scramble_glueckauf(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Glück Auf: the tile stack, the order deck, another seat's draw-5 hand and the order it
    puts it back in, others' delivered cards unless open (glueck-auf.md; view.py)."""
    from stammtisch.games.glueckauf.state import KEEP_ORDER, KEEP_TILE, OVER, RETURN_ORDERS, RETURN_TILES

    other = state.copy()
    other.chance.seed += 1
    drawing = other.current if other.phase in (KEEP_TILE, RETURN_TILES, KEEP_ORDER, RETURN_ORDERS) else None
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
    if not game.options["open_delivered"] and other.phase != OVER and not orders_known:
        for index, p in enumerate(other.players):
            if index != seat and p.delivered and other.order_deck:
                p.delivered[0], other.order_deck[0] = other.order_deck[0], p.delivered[0]
    return other
