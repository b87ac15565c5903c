"""Phase 7 (die-macher.md §6.7): the media influencer of each board may swap one opinion card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.board import media_influencer
from stammtisch.games.diemacher.phases.auction import PASSED
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State, topic
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# An opinion card swapped by the media influencer (made on every move: engine.protocol.EventKind).
OPINION_SHIFTED: Final = EventKind("opinion_shifted", "seat", "board", "old", "new")


def enter_by_board(game: DieMacher, state: State, events: list[Event]) -> None:
    state.cursor = 0


def shift_options(state: State, pos: int) -> list[Action]:
    board = state.boards[pos]
    opinions, face_up, display = board.opinions, board.face_up, state.opinion_display
    shown = [0] * (topic(CARD_TYPES - 1) + 1)  # face-up opinions per topic
    for slot in range(len(opinions)):
        if face_up[slot]:
            shown[topic(opinions[slot])] += 1
    options: list[Action] = []
    for slot in range(len(opinions)):
        if not face_up[slot] or slot == board.doubled:
            continue
        # Only the other face-up opinions count: the display's copy of this very card is legal (C-32).
        own = topic(opinions[slot])
        for new in range(CARD_TYPES):
            if display[new]:
                new_topic = topic(new)
                if shown[new_topic] == (1 if new_topic == own else 0):
                    options.append(("shift", slot, new))
    return options


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step): the tests of
    ``shift_options`` for the one slot and card named."""
    if action[0] == "pass":
        return len(action) == 1
    slot, new = (action[1], action[2]) if len(action) == 3 else (None, None)
    if type(slot) is not int or type(new) is not int or not 0 <= new < CARD_TYPES:
        return False
    board = state.boards[game.from_election(state)[state.cursor]]
    opinions, face_up = board.opinions, board.face_up
    if not 0 <= slot < len(opinions) or not face_up[slot] or slot == board.doubled or not state.opinion_display[new]:
        return False
    new_topic = topic(new)
    shown = 0  # face-up opinions of the new card's topic
    for other in range(len(opinions)):
        if face_up[other] and topic(opinions[other]) == new_topic:
            shown += 1
    return shown == (1 if new_topic == topic(opinions[slot]) else 0)


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    boards = game.from_election(state)
    while state.cursor < len(boards):
        influencer = media_influencer(state.boards[boards[state.cursor]])
        if influencer != NOBODY and shift_options(state, boards[state.cursor]):
            state.actor = influencer
            return WAIT
        state.cursor += 1
    return NEXT


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return [("pass",)] + shift_options(state, game.from_election(state)[state.cursor])


def shift(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    pos = game.from_election(state)[state.cursor]
    board = state.boards[pos]
    _, slot, new = action
    old = board.opinions[slot]
    state.opinion_discard.append(old)
    board.opinions[slot] = new
    state.opinion_display[new] = False
    events.append(OPINION_SHIFTED.event(seat, pos, old, new))
    state.cursor += 1


def pass_(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    events.append(PASSED.event(seat))
    state.cursor += 1


MEDIA_SHIFT = Phase("media_shift", N_("7 Media Influence"), SEQUENTIAL, track="7", enter=enter_by_board, legal=legal,
                    allows=allows, moves={"shift": shift, "pass": pass_}, settle=settle, next="polls")
