"""Phase 2 (die-macher.md §6.2): party program changes, in turn order; the same change runs as an
interlude when a politician's PROGRAM action asks for it (§6.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import AUTOMATIC, NEXT, SEQUENTIAL, STAY, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat, listed
from stammtisch.games.diemacher.board import draw_program, refill_program_display, renew_program_display
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, ProgramChange, State, card_kinds, topic
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# The steps of a change: choose a mode, take a display card, swap, keep one.
MODE: Final = 0
TAKE: Final = 1
SWAP: Final = 2
KEEP: Final = 3
STEP_NAMES: Final = ("mode", "take", "swap", "keep")
FROM_PHASE_2: Final = 0
FROM_POLITICIAN: Final = 1

# The actions naming cards, each made once (legal lists are asked for on every move).
TAKE_ACTIONS: Final = tuple(("take", card) for card in range(CARD_TYPES))
KEEP_ACTIONS: Final = tuple(("keep_card", card) for card in range(CARD_TYPES))
SWAP_ACTIONS: Final = tuple(tuple(("swap", out, card) for card in range(CARD_TYPES)) for out in range(CARD_TYPES))

# The events of a change (made on every move: engine.protocol.EventKind); only its party sees the
# card drawn.
PROGRAM_UNCHANGED: Final = EventKind("program_unchanged", "seat")
PROGRAM_CARD_DRAWN: Final = EventKind("program_card_drawn", "seat")
PROGRAM_CARD_DRAWN_SECRET: Final = EventKind("program_card_drawn_secret", "seat", "card")
PROGRAM_CARD_TAKEN: Final = EventKind("program_card_taken", "seat", "card")
PROGRAM_SWAPPED: Final = EventKind("program_swapped", "seat", "out", "in")
PROGRAM_CARDS_DISCARDED: Final = EventKind("program_cards_discarded", "seat", "cards")


def enter_program_changes(game: DieMacher, state: State, events: list[Event]) -> None:
    state.turn, state.program_change = 0, None


def settle_program_changes(game: DieMacher, state: State, events: list[Event]) -> str:
    if state.turn >= state.seats:
        return NEXT
    state.actor = state.turn_seat(state.turn)
    begin(state, state.actor, FROM_PHASE_2)
    return STAY


def begin(state: State, seat: int, origin: int) -> None:
    state.program_change = ProgramChange(seat, MODE, origin)


def active(state: State) -> bool:
    return state.program_change is not None


def settle_change(game: DieMacher, state: State, events: list[Event]) -> str:
    change = state.program_change
    assert change is not None
    state.actor = change.seat
    player = state.players[change.seat]
    if change.step == SWAP and (change.swaps == 2 or not player.hand):
        change.step = KEEP
    if change.step == KEEP and len(player.hand) <= 1:
        refill_program_display(state, events)
        state.program_change = None
        if change.origin == FROM_PHASE_2:
            state.turn += 1
        return NEXT
    return WAIT


def legal_change(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    change = state.program_change
    assert change is not None
    player = state.players[seat]
    if change.step == MODE:
        modes: list[Action] = []
        if game.options["phase2_optional"] or change.origin == FROM_POLITICIAN:
            modes.append(("program_pass",))
        if any(c != NOBODY for c in state.program_display):
            modes.append(("draw_and_take",))
        if state.program_deck or state.program_discard:
            modes.append(("refresh_and_take",))
        return modes or [("program_pass",)]
    if change.step == TAKE:
        return [TAKE_ACTIONS[card] for card in card_kinds(state.program_display)]
    if change.step == SWAP:
        swaps: list[Action] = [("swaps_done",)]
        hand = card_kinds(player.hand)
        for out in player.program:
            if out != change.swapped_in:
                swaps += [SWAP_ACTIONS[out][card] for card in hand if not same_topic_kept(player.program, out, card)]
        return swaps
    return [KEEP_ACTIONS[card] for card in card_kinds(player.hand)]


def allows_change(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_change``'s list, without building it (the strict step); the
    first step's few modes are looked up in the list."""
    change = state.program_change
    assert change is not None
    if change.step == MODE:
        return listed(action, legal_change(game, state, seat))
    if change.step == SWAP and action[0] == "swaps_done":
        return len(action) == 1
    card = action[-1]
    if type(card) is not int or not 0 <= card < CARD_TYPES:
        return False
    player = state.players[seat]
    if change.step == TAKE:
        return action[0] == "take" and len(action) == 2 and card in state.program_display
    if change.step == KEEP:
        return action[0] == "keep_card" and len(action) == 2 and card in player.hand
    out = action[1] if action[0] == "swap" and len(action) == 3 else None
    return (type(out) is int and out != change.swapped_in and out in player.program and card in player.hand
            and not same_topic_kept(player.program, out, card))


def same_topic_kept(program: list[int], out: int, card: int) -> bool:
    """Whether a program card other than ``out`` has ``card``'s topic (a program holds each topic once)."""
    card_topic = topic(card)
    for kept in program:  # noqa: SIM110 (pure Python: any() over a generator costs more, once per card)
        if kept != out and topic(kept) == card_topic:
            return True
    return False


def program_pass(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.program_change is not None
    events.append(PROGRAM_UNCHANGED.event(seat))
    state.program_change.step = KEEP


def draw_and_take(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.program_change is not None
    card = draw_program(state, events)
    if card != NOBODY:
        state.players[seat].hand.append(card)
        events.append(PROGRAM_CARD_DRAWN.event(seat))
        events.append(PROGRAM_CARD_DRAWN_SECRET.event(seat, card, seats=(seat,)))
    state.program_change.step = TAKE


def refresh_and_take(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.program_change is not None
    renew_program_display(state, events)
    state.program_change.step = TAKE if any(c != NOBODY for c in state.program_display) else SWAP


def take(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.program_change is not None
    state.program_display[state.program_display.index(action[1])] = NOBODY
    state.players[seat].hand.append(action[1])
    events.append(PROGRAM_CARD_TAKEN.event(seat, action[1]))
    state.program_change.step = SWAP


def swap(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    change = state.program_change
    assert change is not None
    player = state.players[seat]
    out, card = action[1], action[2]
    player.program[player.program.index(out)] = card
    player.hand.remove(card)
    if game.options["swap_out_to"] == "hand":
        player.hand.append(out)
    else:
        state.program_discard.append(out)
    change.swaps += 1
    change.swapped_in = card
    events.append(PROGRAM_SWAPPED.event(seat, out, card))


def swaps_done(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.program_change is not None
    state.program_change.step = KEEP


def keep_card(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    player.hand.remove(action[1])
    state.program_discard.extend(player.hand)
    events.append(PROGRAM_CARDS_DISCARDED.event(seat, sorted(player.hand)))
    player.hand = [action[1]]


PROGRAM_CHANGES = Phase("program_changes", N_("2 Changes to the Party Programs"), AUTOMATIC, track="2",
                        enter=enter_program_changes, settle=settle_program_changes, next="media")
PROGRAM_CHANGE = Phase("program_change", N_("2 Changes to the Party Programs"), SEQUENTIAL, active=active,
                       during=("program_changes", "politicians"),
                       legal=legal_change, allows=allows_change, settle=settle_change,
                       moves={"program_pass": program_pass, "draw_and_take": draw_and_take,
                              "refresh_and_take": refresh_and_take, "take": take, "swap": swap,
                              "swaps_done": swaps_done, "keep_card": keep_card})
