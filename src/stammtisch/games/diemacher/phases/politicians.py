"""Phase 6 (die-macher.md §6.6): politicians revealed board by board, paid for (in row order or,
G-13 alternative, sealed and simultaneous) and their actions carried out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from stammtisch.engine import sealed
from stammtisch.engine.flow import NEXT, SEQUENTIAL, WAIT, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.diemacher.board import polls_available
from stammtisch.games.diemacher.phases import program
from stammtisch.games.diemacher.phases.polls import take_poll
from stammtisch.games.diemacher.state import NOBODY, Board, Placed, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.diemacher.rules import DieMacher

# The stages of phase 6, in order (the state's ``step``): a board's politicians revealed, paid for one
# by one (or, G-13 alternative, sealed and at once), then each paid politician's main action, its
# secondary ones, and after them the next politician (declared: engine/flow.py, Phase.stages).
REVEAL: Final = "reveal"
PAY: Final = "pay"
SEALED_PAY: Final = "sealed_pay"
MAIN: Final = "main"
SECONDARY: Final = "secondary"
AFTER: Final = "after"
STAGES: Final = (REVEAL, PAY, SEALED_PAY, MAIN, SECONDARY, AFTER)

BANG: Final = ("DOUBLE", "BUYOUT", "OTHERS_TREND-1")
EFFECTS: Final = ("double", "double_remove", "buyout", "others_trend", "trend", "votes", "base", "program", "free_poll")

# The events of a board's politicians (made on every move: engine.protocol.EventKind); a politician
# its party cannot afford is declined with "unaffordable".  The actions' "politician_action" events
# differ by action and stay Event(kind, params).
POLITICIANS_REVEALED: Final = EventKind("politicians_revealed", "board", "row")
POLITICIAN_UNAFFORDABLE: Final = EventKind("politician_declined", "seat", "board", "unaffordable", "politician")
POLITICIAN_DECLINED: Final = EventKind("politician_declined", "seat", "board", "politician")
POLITICIAN_PAID: Final = EventKind("politician_paid", "seat", "board", "politician", "cost")
ACTION_SKIPPED: Final = EventKind("action_skipped", "seat", "board")


def enter(game: DieMacher, state: State, events: list[Event]) -> None:
    state.cursor, state.step = 0, REVEAL


def to_act(game: DieMacher, state: State) -> list[Seat]:
    return sealed.waiting(state.done) if state.step == SEALED_PAY else [state.actor]


def settle(game: DieMacher, state: State, events: list[Event]) -> str:
    boards = game.from_election(state)
    while state.cursor < len(boards):
        pos = boards[state.cursor]
        board = state.boards[pos]
        if state.step == REVEAL:
            if board.row:
                row = [{"seat": p.seat, "politician": game.edition.politicians[p.politician].id} for p in board.row]
                events.append(POLITICIANS_REVEALED.event(pos, row))
            state.step, state.row_cursor = PAY, 0
        if state.step == PAY and game.options["p6_pay_order"] == "simultaneous":
            _open_sealed_payment(game, state, board, pos, events)
        if state.step == SEALED_PAY:
            if sealed.waiting(state.done):
                return WAIT
            _reveal_payments(game, state, board, pos, events)
        if state.step == PAY:
            if _next_payer(game, state, board, pos, events):
                return WAIT
            state.step, state.row_cursor = MAIN, 0
        if _next_politician_decision(state, board):
            return WAIT
        board.row = []  # every politician of the state goes to the box
        state.cursor, state.step = state.cursor + 1, REVEAL
    if game.options["bang_lock_scope"] == "state_round":
        for board in state.boards:
            board.bang_used = []
    return NEXT


def _next_payer(game: DieMacher, state: State, board: Board, pos: int, events: list[Event]) -> bool:
    while state.row_cursor < len(board.row):
        placed = board.row[state.row_cursor]
        if placed.paid is None:
            politician = game.edition.politicians[placed.politician]
            if state.players[placed.seat].money >= politician.cost:
                state.actor = placed.seat
                return True
            placed.paid = False
            events.append(POLITICIAN_UNAFFORDABLE.event(placed.seat, pos, True, politician.id))
        state.row_cursor += 1
    return False


def _open_sealed_payment(game: DieMacher, state: State, board: Board, pos: int, events: list[Event]) -> None:
    """G-13 alternative: every owner decides to pay or decline at once, unseen by the others."""
    state.done = [True] * state.seats
    for placed in board.row:
        seat, politician = placed.seat, game.edition.politicians[placed.politician]
        if state.players[seat].money >= politician.cost:
            state.done[seat] = False
            state.players[seat].secret = []
        else:
            placed.paid = False
            events.append(POLITICIAN_UNAFFORDABLE.event(seat, pos, True, politician.id))
    state.step = SEALED_PAY


def _reveal_payments(game: DieMacher, state: State, board: Board, pos: int, events: list[Event]) -> None:
    for placed in board.row:
        if placed.paid is None:
            _pay_or_decline(game, state, placed, pos, state.players[placed.seat].secret == [1], events)
            state.players[placed.seat].secret = []
    state.done = []
    state.step, state.row_cursor = MAIN, 0


def _pay_or_decline(game: DieMacher, state: State, placed: Placed, pos: int, pay: bool,
                    events: list[Event]) -> None:
    seat, politician = placed.seat, game.edition.politicians[placed.politician]
    placed.paid = pay
    if pay:
        state.players[seat].money -= politician.cost
        events.append(POLITICIAN_PAID.event(seat, pos, politician.id, politician.cost))
    else:
        events.append(POLITICIAN_DECLINED.event(seat, pos, politician.id))


def _next_politician_decision(state: State, board: Board) -> bool:
    while state.row_cursor < len(board.row):
        placed = board.row[state.row_cursor]
        if placed.paid and state.step in (MAIN, SECONDARY):
            state.actor = placed.seat
            return True
        state.row_cursor += 1
        state.step = MAIN
    return False


def legal(game: DieMacher, state: State, seat: Seat) -> list[Action]:
    if state.step in (PAY, SEALED_PAY):
        return [("pay",), ("decline",)]
    pos = game.from_election(state)[state.cursor]
    politician = game.edition.politicians[state.boards[pos].row[state.row_cursor].politician]
    codes = [politician.main] if state.step == MAIN else list(politician.secondary)
    actions: list[Action] = [("skip",)]
    for code in codes:
        actions += _action_options(game, state, seat, pos, code)
    return actions


def _action_options(game: DieMacher, state: State, seat: int, pos: int, code: str) -> list[Action]:
    board, player = state.boards[pos], state.players[seat]
    if code in BANG and code in board.bang_used:
        return []
    if code == "DOUBLE":
        if board.doubled != NOBODY:
            return [("double_remove",)]
        if not state.double_supply:
            return []
        return [("double", slot) for slot, up in enumerate(board.face_up) if up]
    if code == "BUYOUT":
        if player.money < game.edition.buyout_payment:
            return []
        spots = [i for i, owner in enumerate(board.media) if owner not in (NOBODY, seat)]
        places = (False, True) if player.media_supply else (False,)
        return [("buyout", spot, place) for spot in spots for place in places]
    if code == "OTHERS_TREND-1":
        return [("others_trend",)]
    if code == "PROGRAM":
        return [("program",)]
    if code == "FREE_POLL":
        return [("free_poll",)] if polls_available(state, game.options["poll_reshuffle"]) else []
    kind, amount = code.split("+")
    return [({"TREND": "trend", "VOTES": "votes", "BASE": "base"}[kind], int(amount))]


def pay(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    if state.step == SEALED_PAY:
        state.players[seat].secret = [int(action[0] == "pay")]
        sealed.commit(state.done, seat, "pay_politician", events)
        return
    pos = game.from_election(state)[state.cursor]
    _pay_or_decline(game, state, state.boards[pos].row[state.row_cursor], pos, action[0] == "pay", events)
    state.row_cursor += 1


def skip(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    events.append(ACTION_SKIPPED.event(seat, game.from_election(state)[state.cursor]))
    state.step = SECONDARY if state.step == MAIN else AFTER


def effect(game: DieMacher, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    pos = game.from_election(state)[state.cursor]
    board, player = state.boards[pos], state.players[seat]
    kind = action[0]
    params: dict[str, Any] = {"seat": seat, "board": pos, "action": kind}
    if kind == "double":
        board.doubled = action[1]
        state.double_supply -= 1
        board.bang_used.append("DOUBLE")
        params["card"] = board.opinions[action[1]]
    elif kind == "double_remove":
        params["card"] = board.opinions[board.doubled]
        board.doubled = NOBODY
        state.double_supply += 1
        board.bang_used.append("DOUBLE")
    elif kind == "buyout":
        owner = board.media[action[1]]
        player.money -= game.edition.buyout_payment
        state.players[owner].money += game.edition.buyout_payment
        if game.options["buyout_removed_to"] == "supply":
            state.players[owner].media_supply += 1
        board.media[action[1]] = NOBODY
        if action[2]:
            board.media[action[1]] = seat
            player.media_supply -= 1
        board.bang_used.append("BUYOUT")
        params.update(owner=owner, replaced=action[2], payment=game.edition.buyout_payment)
    elif kind == "others_trend":
        for other in range(state.seats):
            if other != seat:
                board.trend[other] = game.clamp_trend(board.trend[other] - 1)
        board.bang_used.append("OTHERS_TREND-1")
    elif kind == "trend":
        board.trend[seat] = game.clamp_trend(board.trend[seat] + action[1])
        params["amount"] = action[1]
    elif kind == "votes":
        board.votes[seat] += action[1]
        params["amount"] = action[1]
    elif kind == "base":
        game.change_base(player, action[1])
        params["amount"] = action[1]
    elif kind == "program":
        program.begin(state, seat, program.FROM_POLITICIAN)
    elif kind == "free_poll":
        take_poll(game, state, seat, events)
    events.append(Event("politician_action", params))
    state.step = SECONDARY if state.step == MAIN else AFTER


POLITICIANS = Phase("politicians", N_("6 Actions of the Shadow Cabinet"), SEQUENTIAL, track="6", enter=enter,
                    to_act=to_act, legal=legal,
                    moves={"pay": pay, "decline": pay, "skip": skip, **dict.fromkeys(EFFECTS, effect)},
                    settle=settle, next="media_shift", sealed_when=lambda state: state.step == SEALED_PAY,
                    stages=STAGES)
