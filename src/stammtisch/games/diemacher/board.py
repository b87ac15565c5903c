"""Quantities derived from the boards and the small procedures every phase uses:
matches, the media influencer, the reveal procedure, the conversion formula, deck draws."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from stammtisch.engine.protocol import Event, EventKind
from stammtisch.games.diemacher.state import NOBODY, Board, State, topic

# Opinion cards turned up and the program display renewed, every round and on program changes
# (engine.protocol.EventKind).  A deck reshuffled has no parameters: Event(kind).
OPINION_REVEALED: Final = EventKind("opinion_revealed", "board", "slot", "card")
OPINION_DUPLICATE_DISCARDED: Final = EventKind("opinion_duplicate_discarded", "board", "card")
PROGRAM_DISPLAY_RENEWED: Final = EventKind("program_display_renewed", "display")


def matches(board: Board, program: Collection[int]) -> int:
    """Σ over face-up opinions of weight × (+1 same attitude, −1 opposite, 0 topic absent)."""
    total = 0
    for slot, card in enumerate(board.opinions):
        if not board.face_up[slot]:
            continue
        weight = 2 if board.doubled == slot else 1
        if card in program:
            total += weight
        elif card ^ 1 in program:
            total -= weight
    return total


def media_count(board: Board, seat: int) -> int:
    return board.media.count(seat)


def media_influencer(board: Board) -> int:
    """The party with strictly more media markers in the state than every other, else NOBODY."""
    counts: dict[int, int] = {}
    for seat in board.media:
        if seat != NOBODY:
            counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return NOBODY
    best = max(counts.values())
    leaders = [seat for seat, c in counts.items() if c == best]
    return leaders[0] if len(leaders) == 1 else NOBODY


def program_overlap(a: list[int], b: list[int]) -> int:
    return sum(1 for card in a if card in b)


def conversion(k: int, trend: int, match: int, floor: bool = True) -> tuple[int, int, int]:
    """(base, multiplier, votes) for converting k rallies: max(1, k + trend) × max(1, matches); without
    the trend floor (C-04, DieMacher.trend_floor) the base is k + trend and the votes max(0, base) × the
    multiplier.  The conversion itself and the labels of its choices (text.py) both use it."""
    mult = max(1, match)
    if not floor:
        return k + trend, mult, max(0, k + trend) * mult
    base = max(1, k + trend)
    return base, mult, base * mult


def draw_opinion(state: State, reshuffle: bool, events: list[Event]) -> int:
    if not state.opinion_deck and reshuffle and state.opinion_discard:
        state.opinion_deck = state.opinion_discard
        state.opinion_discard = []
        state.chance.shuffle(state.opinion_deck)
        events.append(Event("opinion_deck_reshuffled"))
    return state.opinion_deck.pop() if state.opinion_deck else NOBODY


def reveal_opinion(state: State, pos: int, slot: int, reshuffle: bool, events: list[Event]) -> None:
    """Turn a face-down opinion up; a card whose topic is already face up there is discarded and
    replaced by the top of the deck until the card is legal (die-macher.md §3.D.4).  If no card
    left anywhere can be legal, the slot stays empty."""
    board = state.boards[pos]
    shown = {topic(c) for i, c in enumerate(board.opinions) if board.face_up[i] and i != slot}
    for _attempt in range(len(state.opinion_deck) + len(state.opinion_discard) + 1):
        card = board.opinions[slot]
        if topic(card) not in shown:
            board.face_up[slot] = True
            events.append(OPINION_REVEALED.event(pos, slot, card))
            return
        state.opinion_discard.append(card)
        events.append(OPINION_DUPLICATE_DISCARDED.event(pos, card))
        replacement = draw_opinion(state, reshuffle, events)
        if replacement == NOBODY:
            break
        board.opinions[slot] = replacement
    else:
        state.opinion_discard.append(board.opinions[slot])
    board.opinions.pop(slot)
    board.face_up.pop(slot)
    if board.doubled > slot:
        board.doubled -= 1


def reveal_next(state: State, pos: int, reshuffle: bool, events: list[Event]) -> None:
    board = state.boards[pos]
    for slot, up in enumerate(board.face_up):
        if not up:
            reveal_opinion(state, pos, slot, reshuffle, events)
            return


def draw_program(state: State, events: list[Event]) -> int:
    """Top card of the program deck; an empty deck is reshuffled from the discard pile at once."""
    if not state.program_deck and state.program_discard:
        state.program_deck = state.program_discard
        state.program_discard = []
        state.chance.shuffle(state.program_deck)
        events.append(Event("program_deck_reshuffled"))
    return state.program_deck.pop() if state.program_deck else NOBODY


def refill_program_display(state: State, events: list[Event]) -> None:
    for i, card in enumerate(state.program_display):
        if card == NOBODY:
            state.program_display[i] = draw_program(state, events)


def renew_program_display(state: State, events: list[Event]) -> None:
    state.program_discard.extend(c for c in state.program_display if c != NOBODY)
    state.program_display = [NOBODY] * len(state.program_display)
    refill_program_display(state, events)
    events.append(PROGRAM_DISPLAY_RENEWED.event(list(state.program_display)))


def ensure_poll_deck(state: State, reshuffle: bool, events: list[Event]) -> None:
    """G-01: an empty poll deck is made anew from the shuffled discard pile."""
    if not state.poll_deck and reshuffle and state.poll_discard:
        state.poll_deck = [card for card, _up in state.poll_discard]
        state.poll_discard = []
        state.chance.shuffle(state.poll_deck)
        events.append(Event("poll_deck_reshuffled"))


def draw_poll(state: State, reshuffle: bool, events: list[Event]) -> int:
    ensure_poll_deck(state, reshuffle, events)
    return state.poll_deck.pop() if state.poll_deck else NOBODY


def polls_available(state: State, reshuffle: bool) -> bool:
    return bool(state.poll_deck) or (reshuffle and bool(state.poll_discard))
