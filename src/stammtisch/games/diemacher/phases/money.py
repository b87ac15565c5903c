"""Phase 9c–d (die-macher.md §6.9): income and donations in turn order, then the boards are
cleared, replaced (long game) or removed for the next round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher import scoring
from stammtisch.games.diemacher.board import draw_opinion, renew_program_display, reveal_next
from stammtisch.games.diemacher.phases.rallies import enter_by_seat
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# A donation taken or refused, and the boards of this round's elections leaving or replaced (made
# every round: engine.protocol.EventKind).
DONATION: Final = EventKind("donation", "seat", "value", "accepted", "base")
BOARD_REMOVED: Final = EventKind("board_removed", "board")
STATE_ENTERED: Final = EventKind("state_entered", "board", "state")
# The state's ``step`` while a party decides on its donations (else the empty step: income is paid).
DONATIONS: Final = "donation"


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    donations = state.round <= 3
    while state.turn < state.seats:
        seat = state.turn_seat(state.turn)
        if state.step != DONATIONS:
            scoring.pay_income(game, state, seat, events)
            if donations and state.players[seat].donations:
                state.step = DONATIONS
                state.actor = seat
                return WAIT
        elif donations:
            state.actor = seat
            return WAIT
        state.turn += 1
    state.step = ""
    _prepare_next_round(game, state, events)
    return NEXT


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    donations = game.edition.donations
    return [("donation", donations[d].value, accept) for d in state.players[seat].donations
            for accept in (True, False)]


def allows(game: DieMacher, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal``'s list, without building it (the strict step)."""
    if len(action) != 3 or type(action[1]) is not int or type(action[2]) is not bool:
        return False
    donations = game.edition.donations
    for d in state.players[seat].donations:  # noqa: SIM110 (pure Python: any() over a generator costs more)
        if donations[d].value == action[1]:
            return True
    return False


def base_change(game: DieMacher, index: int, accept: bool) -> int:
    """What taking (a loss, C-03) or refusing donation card ``index`` does to the party base."""
    return -game.options["donation_accept_base_loss"][index] if accept else game.edition.donations[index].reject_base


def donation(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    _, value, accept = action
    player = state.players[seat]
    index = next(i for i, d in enumerate(game.edition.donations) if d.value == value)
    offer = game.edition.donations[index]
    player.donations.remove(index)
    if accept:
        player.money += offer.value
    game.change_base(player, base_change(game, index, accept))
    events.append(DONATION.event(seat, offer.value, accept, player.base))
    state.step = ""
    state.turn += 1


def _prepare_next_round(game: DieMacher, state: State, events: list[Event]) -> None:
    reshuffle = game.options["opinion_reshuffle"]
    entering: list[int] = []
    for pos in game.elections_in(state.round):
        if game.long_game and state.round <= 3:
            _replace_state(game, state, pos, events)
            entering.append(pos)
        else:
            _remove_board(game, state, pos, events)
    for pos in range(4):
        if state.boards[pos].in_play and pos not in entering:
            reveal_next(state, pos, reshuffle, events)
    renew_program_display(state, events)
    if game.long_game and state.round == 3:
        _refill_opinion_display(state, events)


def _clear_board(game: DieMacher, state: State, pos: int) -> None:
    board = state.boards[pos]
    state.opinion_discard.extend(board.opinions)
    if board.doubled != NOBODY:
        state.double_supply += 1
    for seat in board.media:
        if seat != NOBODY and game.options["removed_board_media"] == "to_supply":
            state.players[seat].media_supply += 1
    board.opinions, board.face_up, board.doubled = [], [], NOBODY
    board.media = [NOBODY] * 5


def _remove_board(game: DieMacher, state: State, pos: int, events: list[Event]) -> None:
    _clear_board(game, state, pos)
    state.boards[pos].in_play = False
    events.append(BOARD_REMOVED.event(pos))


def _replace_state(game: DieMacher, state: State, pos: int, events: list[Event]) -> None:
    """Long game, rounds 1–3: a new state takes the elected one's place (die-macher.md §7.3)."""
    _clear_board(game, state, pos)
    card = state.future_states.pop()
    seats = state.seats
    board = state.boards[pos]
    board.card, board.votes, board.trend, board.rallies = card, [0] * seats, [0] * seats, [0] * seats
    board.bang_used = []  # the "!" locks belonged to the state that left (C-08)
    reshuffle = game.options["opinion_reshuffle"]
    dealt = (draw_opinion(state, reshuffle, events) for _ in range(4))
    board.opinions = [c for c in dealt if c != NOBODY]  # no card left: the slot stays empty (cf. G-16)
    board.face_up = [False] * len(board.opinions)
    events.append(STATE_ENTERED.event(pos, game.edition.states[card].id))
    for _reveal in range(3 if state.round == 3 else 2):
        reveal_next(state, pos, reshuffle, events)


def _refill_opinion_display(state: State, events: list[Event]) -> None:
    """Long game, end of round 3: one + and one − of every topic again; the rest reshuffled."""
    pool = state.opinion_deck + state.opinion_discard
    for card in range(CARD_TYPES):
        if not state.opinion_display[card] and card in pool:
            pool.remove(card)
            state.opinion_display[card] = True
    state.opinion_deck, state.opinion_discard = pool, []
    state.chance.shuffle(state.opinion_deck)
    events.append(Event("opinion_display_refilled"))


MONEY = Phase("money", N_("9c Pay Money"), SEQUENTIAL, track="9c", enter=enter_by_seat, legal=legal,
              allows=allows, moves={"donation": donation}, settle=settle, next="bid")
