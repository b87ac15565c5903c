"""Setup H (die-macher.md §3.H): the sealed program draft, the program, its completion after the
draft exception, and the one card kept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine import sealed
from stammtisch.engine.flow import NEXT, SEALED, Phase
from stammtisch.engine.protocol import Action, Event, Seat
from stammtisch.games.diemacher.board import draw_program
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State, card_kinds, topic
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

PROGRAM_CARD_ACTIONS: Final = tuple(("program_card", card) for card in range(CARD_TYPES))  # made once


def open_sealed(state: State, who: list[int] | None = None) -> None:
    """Every seat of ``who`` (default: all) decides at once; nothing is sealed yet."""
    state.done = sealed.open_decision(state.seats, who)
    for player in state.players:
        player.secret = []


# --- draft ---------------------------------------------------------------------------------


def enter_draft(game: DieMacher, state: State, events: list[Event]) -> None:
    open_sealed(state)
    for seat in range(state.seats):
        events.append(Event("draft_hand", {"seat": seat, "cards": sorted(state.draft_hands[seat])}, (seat,)))


def legal_draft(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return [("draft_pick", card) for card in sorted(set(state.draft_hands[seat]))]


def allows_draft(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_draft``'s list, without building it (the strict step)."""
    return len(action) == 2 and type(action[1]) is int and action[1] in state.draft_hands[seat]


def draft_pick(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    state.players[seat].secret = [action[1]]
    sealed.commit(state.done, seat, "draft_pick", events)


def reveal_draft_picks(game: DieMacher, state: State, events: list[Event]) -> str:
    n = state.seats
    passed: list[list[int]] = [[] for _ in range(n)]
    for seat, player in enumerate(state.players):
        hand = state.draft_hands[seat]
        hand.remove(player.secret[0])
        player.hand.append(player.secret[0])
        passed[(seat + 1) % n] = hand  # pass the rest to the left (clockwise)
    state.draft_hands = passed
    picks = len(state.players[0].hand)
    events.append(Event("draft_passed", {"picks": picks}))
    if picks < 4:
        return "draft"
    for seat, player in enumerate(state.players):  # after the 4th pick the last 3 are passed on [C-20]
        player.hand.extend(passed[seat])
        events.append(Event("draft_received", {"seat": seat, "cards": sorted(passed[seat])}, (seat,)))
    state.draft_hands = []
    return NEXT


# --- program -------------------------------------------------------------------------------


def enter_all(game: DieMacher, state: State, events: list[Event]) -> None:
    open_sealed(state)


def legal_program_card(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    player = state.players[seat]
    return [PROGRAM_CARD_ACTIONS[card] for card in card_kinds(player.hand)
            if not has_topic(player.program, card) and not has_topic(player.secret, card)]


def allows_program_card(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_program_card``'s list, without building it (the strict step)."""
    card = action[1] if len(action) == 2 else None
    if type(card) is not int or not 0 <= card < CARD_TYPES:
        return False
    player = state.players[seat]
    return card in player.hand and not has_topic(player.program, card) and not has_topic(player.secret, card)


def has_topic(cards: list[int], card: int) -> bool:
    card_topic = topic(card)
    for other in cards:  # noqa: SIM110 (pure Python: any() over a generator costs more, once per card)
        if topic(other) == card_topic:
            return True
    return False


def program_card(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    player.hand.remove(action[1])
    player.secret.append(action[1])
    if len(player.program) + len(player.secret) == 5 or not legal_program_card(game, state, seat):
        sealed.commit(state.done, seat, "program", events)


def reveal_programs(game: DieMacher, state: State, events: list[Event]) -> str:
    short = False
    for seat, player in enumerate(state.players):
        player.program = player.secret
        player.secret = []
        events.append(Event("program_revealed", {"seat": seat, "program": list(player.program)}))
    for seat, player in enumerate(state.players):
        if len(player.program) < 5:  # draft exception (die-macher.md §3.H.5)
            short = True
            shown = sorted(player.hand)
            state.program_discard.extend(player.hand)
            player.hand = [card for card in (draw_program(state, events) for _ in shown) if card != NOBODY]
            events.append(Event("program_exception", {"seat": seat, "discarded": shown}))
            _ensure_completable(state, seat, events)
    return "program_more" if short else "keep"


def _ensure_completable(state: State, seat: Seat, events: list[Event]) -> None:
    """G-12: while the new cards cannot complete the program, discard the unusable ones and draw
    again — as long as the program deck and its discard pile still hold a topic the player lacks.
    When they hold none (the missing topics are all in other hands and programs), drawing again
    could never help: the player keeps the cards they have and the program stays short
    (docs/rules-notes.md)."""
    player = state.players[seat]
    while True:
        used = {topic(c) for c in player.program}
        new_topics = {topic(c) for c in player.hand} - used
        unusable = [c for c in player.hand if topic(c) in used] or _repeated_topics(player.hand)
        still_to_find = {topic(c) for c in (*state.program_deck, *state.program_discard)} - used - new_topics
        if len(new_topics) >= 5 - len(player.program) or not unusable or not still_to_find:
            events.append(Event("draft_received", {"seat": seat, "cards": sorted(player.hand)}, (seat,)))
            return
        for card in unusable:
            player.hand.remove(card)
            state.program_discard.append(card)
        events.append(Event("program_exception", {"seat": seat, "discarded": sorted(unusable)}))
        drawn = (draw_program(state, events) for _ in unusable)
        player.hand.extend(card for card in drawn if card != NOBODY)


def _repeated_topics(cards: list[int]) -> list[int]:
    """Every card whose topic already occurred earlier in ``cards``."""
    seen: set[int] = set()
    repeated = []
    for card in cards:
        if topic(card) in seen:
            repeated.append(card)
        seen.add(topic(card))
    return repeated


def enter_program_more(game: DieMacher, state: State, events: list[Event]) -> None:
    # A short program whose hand holds no new topic (G-12: no draw could give one) has nothing to choose.
    open_sealed(state, [seat for seat, player in enumerate(state.players)
                        if len(player.program) < 5 and legal_program_card(game, state, seat)])


def reveal_program_completions(game: DieMacher, state: State, events: list[Event]) -> str:
    for seat, player in enumerate(state.players):
        if player.secret:
            player.program += player.secret
            player.secret = []
            events.append(Event("program_revealed", {"seat": seat, "program": list(player.program)}))
    return NEXT


# --- keep one card -------------------------------------------------------------------------


def legal_keep(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    return [("keep", card) for card in sorted(set(state.players[seat].hand))]


def keep(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    state.players[seat].secret = [action[1]]
    sealed.commit(state.done, seat, "keep", events)


def reveal_kept_cards(game: DieMacher, state: State, events: list[Event]) -> str:
    for seat, player in enumerate(state.players):
        kept = player.secret[0]
        player.hand.remove(kept)
        discarded = player.hand
        state.program_discard.extend(discarded)
        player.hand = [kept]
        events.append(Event("program_cards_discarded", {"seat": seat, "cards": sorted(discarded)}))
    return NEXT


DRAFT = Phase("draft", N_("Program draft"), SEALED, track="setup", enter=enter_draft, legal=legal_draft,
              allows=allows_draft, moves={"draft_pick": draft_pick}, reveal=reveal_draft_picks, next="program")
PROGRAM = Phase("program", N_("Choose your program"), SEALED, track="setup", enter=enter_all, legal=legal_program_card,
                allows=allows_program_card, moves={"program_card": program_card}, reveal=reveal_programs, next="keep")
PROGRAM_MORE = Phase("program_more", N_("Complete your program"), SEALED, track="setup", enter=enter_program_more,
                     legal=legal_program_card, allows=allows_program_card, moves={"program_card": program_card},
                     reveal=reveal_program_completions, next="keep")
KEEP = Phase("keep", N_("Keep one card"), SEALED, track="setup", enter=enter_all, legal=legal_keep,
             moves={"keep": keep}, reveal=reveal_kept_cards, next="start")
