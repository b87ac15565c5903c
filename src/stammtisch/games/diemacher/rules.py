"""Die Macher: setup A–J, rounds of nine phases, elections and final scoring (die-macher.md).

The flow is an explicit state machine: every ``apply`` carries out one small action and then
``_advance`` runs every step that needs no decision, until somebody must decide again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from stammtisch.engine.codec import ActionCodec, cached_codec
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.games.diemacher import scoring
from stammtisch.games.diemacher.board import (
    conversion,
    draw_opinion,
    draw_poll,
    draw_program,
    ensure_poll_deck,
    matches,
    media_influencer,
    polls_available,
    refill_program_display,
    renew_program_display,
    reveal_next,
)
from stammtisch.games.diemacher.data import Edition, load_edition
from stammtisch.games.diemacher.options import OPTIONS, check_options
from stammtisch.games.diemacher.state import CARD_TYPES, NOBODY, Board, Player, State, topic
from stammtisch.games.diemacher.view import build_view, describe
from stammtisch.i18n import _

SEALED = ("draft", "program", "program_more", "keep", "start", "bid")
BANG = ("DOUBLE", "BUYOUT", "OTHERS_TREND-1")
# Program-change steps (die-macher.md phase 2): choose a mode, take a display card, swap, keep one.
MODE, TAKE, SWAP, KEEP = range(4)
FROM_PHASE_2, FROM_POLITICIAN = range(2)
UNDECIDED = -2  # coalition talks still open
LONG_GAME_ELECTIONS = {1: [0], 2: [1], 3: [2], 4: [3, 0], 5: [1, 2]}


class DieMacher(Game[State]):
    name = "diemacher"
    min_players = 3
    max_players = 5
    option_schema = OPTIONS
    revealing_events = frozenset({
        "opinion_revealed", "opinion_duplicate_discarded", "program_display_renewed", "program_deck_reshuffled",
        "politicians_revealed", "start_bids_revealed", "program_revealed", "program_exception",
        "start_position_revealed", "poll_auction", "poll_deck_reshuffled", "state_entered", "election",
        "program_cards_discarded", "poll_published", "start_bid_tie",
    })

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        checked = check_options(options, self.num_players)
        self.edition: Edition = load_edition(checked["data_file"])
        self.long_game = checked["elections"] == 7
        self.last_round = 5 if self.long_game else 4
        low, high = self.edition.trend_range
        self.trend_min = low if checked["trend_min"] is None else checked["trend_min"]
        self.trend_max = high if checked["trend_max"] is None else checked["trend_max"]
        if not self.trend_min < 0 < self.trend_max:
            raise ValueError(_("table options trend_min/trend_max: the trend scale must run from below 0 to above 0"))
        self.unit = checked["money_unit"]
        self.party_of_seat = [self.edition.party_index(p) for p in checked["parties"]]
        self.politician_index = {p.id: i for i, p in enumerate(self.edition.politicians)}
        return checked

    # ------------------------------------------------------------------ protocol

    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        from stammtisch.games.diemacher.setup import set_up

        state, events = set_up(self, seed)
        self._advance(state, events)
        return state, events

    def to_act(self, state: State) -> list[Seat]:
        if state.phase == "over":
            return []
        if self.sealed(state):
            return [seat for seat, done in enumerate(state.done) if not done]
        return [state.actor]

    def sealed(self, state: State) -> bool:
        in_sealed_phase = state.phase in SEALED or (state.phase == "politicians" and state.step == "sealed_pay")
        return in_sealed_phase and not state.program_change and state.poll_in_hand == NOBODY

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.poll_in_hand != NOBODY:
            return self._legal_poll_use(state, seat)
        if state.program_change:
            return self._legal_program_change(state, seat)
        return self._legal[state.phase](self, state, seat)

    def apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        handler = self._apply[action[0]]
        handler(self, state, seat, action, events)
        self._advance(state, events)
        return events

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def describe(self) -> dict[str, Any]:
        return describe(self)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return [total for total, _parts in scoring.final_scores(self, state)]

    def summary(self, state: State) -> dict[str, int]:
        return dict(state.outcomes)

    def resample(self, state: State, seat: Seat, rng: random.Random) -> State:
        from stammtisch.games.diemacher.resample import resample

        return resample(self, state, seat, rng)

    @classmethod
    def action_codec(cls, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        from stammtisch.games.diemacher.codec import action_table

        return cached_codec(cls, num_players, options, action_table)

    # ------------------------------------------------------------------ helpers

    def elections_in(self, round_: int) -> list[int]:
        """Boards voting in a round, in election order (setup counts as round 1)."""
        round_ = max(1, round_)
        return LONG_GAME_ELECTIONS[round_] if self.long_game else [round_ - 1]

    def from_election(self, state: State) -> list[int]:
        first = self.elections_in(state.round)[0]
        return [(first + i) % 4 for i in range(4) if state.boards[(first + i) % 4].in_play]

    def clamp_trend(self, value: int) -> int:
        return max(self.trend_min, min(self.trend_max, value))

    def change_base(self, player: Player, delta: int) -> None:
        player.base = max(self.options["base_floor"], player.base + delta)

    def money_steps(self, low: int, high: int) -> range:
        """Amounts from ``low`` to ``high`` in whole money units."""
        start = -(-low // self.unit) * self.unit
        return range(start, high + 1, self.unit)

    def first_in_turn_order(self, state: State, seats: list[int]) -> int:
        return min(seats, key=lambda s: (s - state.start_player) % state.seats)

    # ------------------------------------------------------------------ flow

    def _advance(self, state: State, events: list[Event]) -> None:
        """Run every step that needs no decision until somebody must decide (or the game ends)."""
        while state.phase != "over":
            if state.poll_in_hand != NOBODY:
                return
            if state.program_change:
                if self._program_change_needs_decision(state, events):
                    return
                continue
            if self._settle[state.phase](self, state, events):
                return

    # --- setup: draft, program, keep, start positions ------------------------------

    def _settle_sealed(self, state: State, events: list[Event]) -> bool:
        if not all(state.done):
            return True
        reveal: dict[str, Callable[[DieMacher, State, list[Event]], None]] = {
            "draft": DieMacher._reveal_draft_picks,
            "program": DieMacher._reveal_programs,
            "program_more": DieMacher._reveal_program_completions,
            "keep": DieMacher._reveal_kept_cards,
            "start": DieMacher._reveal_start_positions,
            "bid": DieMacher._reveal_bids,
        }
        reveal[state.phase](self, state, events)
        return False

    def _begin_sealed(self, state: State, phase: str, who: list[int] | None = None) -> None:
        state.phase = phase
        state.done = [seat not in who for seat in range(state.seats)] if who is not None else [False] * state.seats
        for player in state.players:
            player.secret = []

    def _legal_draft(self, state: State, seat: Seat) -> list[Action]:
        return [("draft_pick", card) for card in sorted(set(state.draft_hands[seat]))]

    def _apply_draft_pick(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        state.players[seat].secret = [action[1]]
        state.done[seat] = True
        events.append(Event("sealed_committed", {"seat": seat, "decision": "draft_pick"}))

    def _reveal_draft_picks(self, state: State, events: list[Event]) -> None:
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
            self._begin_sealed(state, "draft")
            for seat in range(n):
                events.append(Event("draft_hand", {"seat": seat, "cards": sorted(passed[seat])}, (seat,)))
            return
        for seat, player in enumerate(state.players):  # after the 4th pick the last 3 are passed on [C-20]
            player.hand.extend(passed[seat])
            events.append(Event("draft_received", {"seat": seat, "cards": sorted(passed[seat])}, (seat,)))
        state.draft_hands = []
        self._begin_sealed(state, "program")

    def _legal_program_card(self, state: State, seat: Seat) -> list[Action]:
        player = state.players[seat]
        chosen = {topic(c) for c in player.program + player.secret}
        return [("program_card", card) for card in sorted(set(player.hand)) if topic(card) not in chosen]

    def _apply_program_card(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        player = state.players[seat]
        player.hand.remove(action[1])
        player.secret.append(action[1])
        if len(player.program) + len(player.secret) == 5 or not self._legal_program_card(state, seat):
            state.done[seat] = True
            events.append(Event("sealed_committed", {"seat": seat, "decision": "program"}))

    def _reveal_programs(self, state: State, events: list[Event]) -> None:
        short: list[int] = []
        for seat, player in enumerate(state.players):
            player.program = player.secret
            player.secret = []
            events.append(Event("program_revealed", {"seat": seat, "program": list(player.program)}))
        for seat, player in enumerate(state.players):
            if len(player.program) < 5:  # draft exception (die-macher.md §3.H.5)
                short.append(seat)
                shown = sorted(player.hand)
                state.program_discard.extend(player.hand)
                player.hand = [draw_program(state, events) for _ in shown]
                events.append(Event("program_exception", {"seat": seat, "discarded": shown}))
                self._ensure_completable(state, seat, events)
        if short:
            self._begin_sealed(state, "program_more", short)
        else:
            self._begin_sealed(state, "keep")

    def _ensure_completable(self, state: State, seat: Seat, events: list[Event]) -> None:
        """G-12: while the new cards cannot complete the program, discard the unusable ones and draw again."""
        player = state.players[seat]
        while True:
            used = {topic(c) for c in player.program}
            new_topics = {topic(c) for c in player.hand} - used
            if len(new_topics) >= 5 - len(player.program):
                events.append(Event("draft_received", {"seat": seat, "cards": sorted(player.hand)}, (seat,)))
                return
            unusable = [c for c in player.hand if topic(c) in used] or _repeated_topics(player.hand)
            for card in unusable:
                player.hand.remove(card)
                state.program_discard.append(card)
            events.append(Event("program_exception", {"seat": seat, "discarded": sorted(unusable)}))
            player.hand.extend(draw_program(state, events) for _ in unusable)

    def _reveal_program_completions(self, state: State, events: list[Event]) -> None:
        for seat, player in enumerate(state.players):
            if player.secret:
                player.program += player.secret
                player.secret = []
                events.append(Event("program_revealed", {"seat": seat, "program": list(player.program)}))
        self._begin_sealed(state, "keep")

    def _legal_keep_sealed(self, state: State, seat: Seat) -> list[Action]:
        return [("keep", card) for card in sorted(set(state.players[seat].hand))]

    def _apply_keep_sealed(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        state.players[seat].secret = [action[1]]
        state.done[seat] = True
        events.append(Event("sealed_committed", {"seat": seat, "decision": "keep"}))

    def _reveal_kept_cards(self, state: State, events: list[Event]) -> None:
        for seat, player in enumerate(state.players):
            kept = player.secret[0]
            player.hand.remove(kept)
            discarded = player.hand
            state.program_discard.extend(discarded)
            player.hand = [kept]
            events.append(Event("program_cards_discarded", {"seat": seat, "cards": sorted(discarded)}))
        self._begin_sealed(state, "start")

    def _legal_start(self, state: State, seat: Seat) -> list[Action]:
        secret = state.players[seat].secret
        if not secret:
            return [("start_block", b) for b in range(1, len(self.edition.start_blocks) + 1)]
        spots = self.edition.start_blocks[secret[0] - 1]
        symbol = spots[len(secret) - 1]
        taken = {secret[i + 1] for i, s in enumerate(spots[: len(secret) - 1]) if s == symbol}
        return [("start_state", pos) for pos in range(4) if pos not in taken]

    def _apply_start(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        secret = state.players[seat].secret
        secret.append(action[1])
        if len(secret) == 6:
            state.done[seat] = True
            events.append(Event("sealed_committed", {"seat": seat, "decision": "start_position"}))

    def _reveal_start_positions(self, state: State, events: list[Event]) -> None:
        for seat, player in enumerate(state.players):
            block, *positions = player.secret
            spots = self.edition.start_blocks[block - 1]
            events.append(Event("start_position_revealed", {"seat": seat, "block": block,
                                                            "spots": list(zip(spots, positions, strict=True))}))
            for symbol, pos in zip(spots, positions, strict=True):
                self._apply_start_symbol(state, seat, symbol, pos)
            player.secret = []
        self._begin_round(state, events)

    def _apply_start_symbol(self, state: State, seat: int, symbol: str, pos: int) -> None:
        board, player = state.boards[pos], state.players[seat]
        if symbol == "R":
            placed = min(3, player.rally_supply, self.edition.rally_cap - board.rallies[seat])
            board.rallies[seat] += placed
            player.rally_supply -= placed
        elif symbol == "T":
            board.trend[seat] = self.clamp_trend(board.trend[seat] + 1)
        elif symbol == "M" and player.media_supply and NOBODY in board.media:
            board.media[board.media.index(NOBODY)] = seat
            player.media_supply -= 1
        elif symbol == "V":
            board.votes[seat] += 6

    # --- phase 1: start player ------------------------------------------------------

    def _begin_round(self, state: State, events: list[Event]) -> None:
        state.round += 1
        state.excluded = [False] * state.seats
        events.append(Event("round_started", {"round": state.round}))
        self._begin_sealed(state, "bid")

    def bid_ceiling(self, state: State, seat: int) -> int:
        """The highest bid offered: one's money, or (honour system, C-14) up to 10 units more."""
        money = state.players[seat].money
        return money + 10 * self.unit if self.options["overbid_mode"] == "honour_system_with_penalty" else money

    def _overbid(self, state: State, seat: int, amount: int, events: list[Event]) -> None:
        """C-14 honour system: all money to the bank, party base −10, out of this phase's auctions."""
        state.players[seat].money = 0
        self.change_base(state.players[seat], -10)
        state.excluded[seat] = True
        events.append(Event("overbid_penalty", {"seat": seat, "amount": amount}))

    def _legal_bid(self, state: State, seat: Seat) -> list[Action]:
        return [("bid", x) for x in self.money_steps(0, self.bid_ceiling(state, seat))]

    def _apply_bid(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        state.players[seat].secret = [action[1]]
        state.done[seat] = True
        events.append(Event("sealed_committed", {"seat": seat, "decision": "start_bid"}))

    def _reveal_bids(self, state: State, events: list[Event]) -> None:
        bids = [p.secret[0] if p.secret else -1 for p in state.players]
        events.append(Event("start_bids_revealed", {"bids": [b if b >= 0 else None for b in bids]}))
        for player in state.players:
            player.secret = []
        overbidders = [seat for seat, bid in enumerate(bids) if bid > state.players[seat].money]
        for seat in overbidders:
            self._overbid(state, seat, bids[seat], events)
        if overbidders:
            self._restart_start_auction(state, events)
            return
        high = max(bids)
        tied = [seat for seat, bid in enumerate(bids) if bid == high]
        if len(tied) == 1:
            self._new_start_player(state, tied[0], high, events)
            return
        n = state.seats
        first = (state.start_player - 1) % n  # right of the previous start player [C-01]
        if self.options["tiebreak_open_order"] == "previous_start_player_clockwise":
            first = state.start_player
        order = [(first + i) % n for i in range(n) if (first + i) % n in tied]
        state.phase = "rebid"
        state.auction = [high, NOBODY, 0, *order]
        state.actor = order[0]
        events.append(Event("start_bid_tie", {"amount": high, "order": order}))

    def _restart_start_auction(self, state: State, events: list[Event]) -> None:
        """After an overbid the remaining players must bid again (C-14); nobody left: no change."""
        remaining = [s for s in range(state.seats) if not state.excluded[s]]
        if not remaining:
            self._new_start_player(state, state.start_player, 0, events)
            return
        events.append(Event("start_auction_restarted", {"seats": remaining}))
        self._begin_sealed(state, "bid", remaining)

    def _legal_rebid(self, state: State, seat: Seat) -> list[Action]:
        high = state.auction[0]
        return [("pass",)] + [("raise", y) for y in self.money_steps(high + 1, self.bid_ceiling(state, seat))]

    def _apply_rebid(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        if action[0] == "raise" and action[1] > state.players[seat].money:
            self._overbid(state, seat, action[1], events)
            self._restart_start_auction(state, events)
            return
        if action[0] == "raise":
            state.auction[0], state.auction[1] = action[1], seat
            events.append(Event("start_bid_raised", {"seat": seat, "amount": action[1]}))
        else:
            events.append(Event("passed", {"seat": seat}))
        state.auction[2] += 1

    def _settle_rebid(self, state: State, events: list[Event]) -> bool:
        high, high_seat, position, *order = state.auction
        if position < len(order):
            state.actor = order[position]
            return True
        winner = high_seat if high_seat != NOBODY else order[-1]  # all passed: the last to pass
        self._new_start_player(state, winner, high, events)
        return False

    def _new_start_player(self, state: State, seat: int, price: int, events: list[Event]) -> None:
        state.players[seat].money -= price
        state.start_player = seat
        events.append(Event("start_player", {"seat": seat, "paid": price}))
        state.phase, state.turn, state.program_change = "program_changes", 0, []

    # --- phase 2 (and the PROGRAM politician action): program changes ----------------

    def _settle_program_changes(self, state: State, events: list[Event]) -> bool:
        if state.turn >= state.seats:
            self._begin_media(state)
            return False
        state.actor = state.turn_order()[state.turn]
        state.program_change = [state.actor, MODE, 0, FROM_PHASE_2, NOBODY]
        return False

    def _program_change_needs_decision(self, state: State, events: list[Event]) -> bool:
        seat, step, swaps, origin, _ = state.program_change
        state.actor = seat
        player = state.players[seat]
        if step == SWAP and (swaps == 2 or not player.hand):
            state.program_change[1] = step = KEEP
        if step == KEEP and len(player.hand) <= 1:
            refill_program_display(state, events)
            state.program_change = []
            if origin == FROM_PHASE_2:
                state.turn += 1
            return False
        return True

    def _legal_program_change(self, state: State, seat: Seat) -> list[Action]:
        _, step, _swaps, origin, swapped_in = state.program_change
        player = state.players[seat]
        if step == MODE:
            modes: list[Action] = []
            if self.options["phase2_optional"] or origin == FROM_POLITICIAN:
                modes.append(("program_pass",))
            if any(c != NOBODY for c in state.program_display):
                modes.append(("draw_and_take",))
            if state.program_deck or state.program_discard:
                modes.append(("refresh_and_take",))
            return modes or [("program_pass",)]
        if step == TAKE:
            return [("take", card) for card in sorted({c for c in state.program_display if c != NOBODY})]
        if step == SWAP:
            swaps: list[Action] = [("swaps_done",)]
            for out in player.program:
                if out == swapped_in:
                    continue
                rest = {topic(c) for c in player.program if c != out}
                swaps += [("swap", out, card) for card in sorted(set(player.hand)) if topic(card) not in rest]
            return swaps
        return [("keep_card", card) for card in sorted(set(player.hand))]

    def _apply_program_change(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        change = state.program_change
        player = state.players[seat]
        kind = action[0]
        if kind == "program_pass":
            events.append(Event("program_unchanged", {"seat": seat}))
            change[1] = KEEP
        elif kind == "draw_and_take":
            card = draw_program(state, events)
            if card != NOBODY:
                player.hand.append(card)
                events.append(Event("program_card_drawn", {"seat": seat}))
                events.append(Event("program_card_drawn_secret", {"seat": seat, "card": card}, (seat,)))
            change[1] = TAKE
        elif kind == "refresh_and_take":
            renew_program_display(state, events)
            change[1] = TAKE if any(c != NOBODY for c in state.program_display) else SWAP
        elif kind == "take":
            state.program_display[state.program_display.index(action[1])] = NOBODY
            player.hand.append(action[1])
            events.append(Event("program_card_taken", {"seat": seat, "card": action[1]}))
            change[1] = SWAP
        elif kind == "swap":
            out, card = action[1], action[2]
            player.program[player.program.index(out)] = card
            player.hand.remove(card)
            if self.options["swap_out_to"] == "hand":
                player.hand.append(out)
            else:
                state.program_discard.append(out)
            change[2] += 1
            change[4] = card
            events.append(Event("program_swapped", {"seat": seat, "out": out, "in": card}))
        elif kind == "swaps_done":
            change[1] = KEEP
        else:  # keep_card
            player.hand.remove(action[1])
            state.program_discard.extend(player.hand)
            events.append(Event("program_cards_discarded", {"seat": seat, "cards": sorted(player.hand)}))
            player.hand = [action[1]]

    # --- phase 3: media -----------------------------------------------------------------

    def _begin_media(self, state: State) -> None:
        state.phase, state.turn, state.passes = "media", 0, 0

    def _media_targets(self, state: State, seat: int) -> list[int]:
        player = state.players[seat]
        if player.money < self.edition.media_marker_cost or not player.media_supply:
            return []
        return [pos for pos in self.from_election(state) if NOBODY in state.boards[pos].media]

    def _settle_media(self, state: State, events: list[Event]) -> bool:
        while state.passes < state.seats:
            seat = state.turn_order()[state.turn % state.seats]
            if self._media_targets(state, seat):
                state.actor = seat
                return True
            state.passes += 1  # nothing to buy: an automatic pass
            state.turn += 1
        state.phase, state.turn, state.cursor = "rallies", 0, 0
        return False

    def _legal_media(self, state: State, seat: Seat) -> list[Action]:
        return [("pass",)] + [("buy_media", pos) for pos in self._media_targets(state, seat)]

    def _apply_media(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        if action[0] == "buy_media":
            board, player = state.boards[action[1]], state.players[seat]
            board.media[board.media.index(NOBODY)] = seat
            player.media_supply -= 1
            player.money -= self.edition.media_marker_cost
            state.passes = 0
            events.append(Event("media_bought", {"seat": seat, "board": action[1]}))
        else:
            state.passes += 1
            events.append(Event("passed", {"seat": seat}))
        state.turn += 1

    # --- phase 4: rallies -----------------------------------------------------------------

    def rally_cost(self, n: int) -> int:
        return self.edition.rally_costs[n - 1] if n else 0

    def _max_rallies(self, state: State, seat: int, pos: int) -> int:
        player, board = state.players[seat], state.boards[pos]
        most = min(self.edition.rally_cap - board.rallies[seat], player.rally_supply)
        while most and self.rally_cost(most) > player.money:
            most -= 1
        return most

    def _settle_rallies(self, state: State, events: list[Event]) -> bool:
        boards = self.from_election(state)
        while state.turn < state.seats:
            seat = state.turn_order()[state.turn]
            while state.cursor < len(boards):
                if self._max_rallies(state, seat, boards[state.cursor]):
                    state.actor = seat
                    return True
                state.cursor += 1
            state.turn, state.cursor = state.turn + 1, 0
        state.phase, state.turn, state.cursor = "cabinet", 0, 0
        return False

    def _legal_rallies(self, state: State, seat: Seat) -> list[Action]:
        pos = self.from_election(state)[state.cursor]
        return [("rallies", pos, n) for n in range(self._max_rallies(state, seat, pos) + 1)]

    def _apply_rallies(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        _, pos, n = action
        if n:
            cost = self.rally_cost(n)
            state.boards[pos].rallies[seat] += n
            state.players[seat].rally_supply -= n
            state.players[seat].money -= cost
            events.append(Event("rallies_organized", {"seat": seat, "board": pos, "rallies": n, "cost": cost}))
        state.cursor += 1

    # --- phase 5: shadow cabinet ----------------------------------------------------------

    def _settle_cabinet(self, state: State, events: list[Event]) -> bool:
        boards = self.from_election(state)
        while state.turn < state.seats:
            seat = state.turn_order()[state.turn]
            if state.cursor < len(boards) and state.players[seat].politicians:
                state.actor = seat
                return True
            state.turn, state.cursor = state.turn + 1, 0
        state.phase, state.cursor = "politicians", 0
        state.step = "reveal"
        return False

    def _legal_cabinet(self, state: State, seat: Seat) -> list[Action]:
        pos = self.from_election(state)[state.cursor]
        politicians = self.edition.politicians
        return [("place", pos, None)] + [("place", pos, politicians[p].id) for p in state.players[seat].politicians]

    def _apply_cabinet(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        _, pos, politician_id = action
        if politician_id is not None:
            politician = self.politician_index[politician_id]
            state.players[seat].politicians.remove(politician)
            state.boards[pos].row.append([seat, politician, -1])
            events.append(Event("politician_placed", {"seat": seat, "board": pos}))
            events.append(Event("politician_placed_secret", {"seat": seat, "board": pos,
                                                             "politician": politician_id}, (seat,)))
        state.cursor += 1

    # --- phase 6: politician actions -------------------------------------------------------

    def _settle_politicians(self, state: State, events: list[Event]) -> bool:
        boards = self.from_election(state)
        while state.cursor < len(boards):
            pos = boards[state.cursor]
            board = state.boards[pos]
            if state.step == "reveal":
                if board.row:
                    events.append(Event("politicians_revealed", {"board": pos,
                                                                 "row": [[s, self.edition.politicians[p].id]
                                                                         for s, p, _ in board.row]}))
                state.step, state.row_cursor = "pay", 0
            if state.step == "pay" and self.options["p6_pay_order"] == "simultaneous":
                self._open_sealed_payment(state, board, pos, events)
            if state.step == "sealed_pay":
                if not all(state.done):
                    return True
                self._reveal_payments(state, board, pos, events)
            if state.step == "pay":
                if self._next_payer(state, board, pos, events):
                    return True
                state.step, state.row_cursor = "main", 0
            if self._next_politician_decision(state, board):
                return True
            board.row = []  # every politician of the state goes to the box
            state.cursor, state.step = state.cursor + 1, "reveal"
        if self.options["bang_lock_scope"] == "state_round":
            for board in state.boards:
                board.bang_used = []
        state.phase, state.cursor = "media_shift", 0
        return False

    def _next_payer(self, state: State, board: Board, pos: int, events: list[Event]) -> bool:
        while state.row_cursor < len(board.row):
            seat, politician, paid = board.row[state.row_cursor]
            if paid == -1:
                if state.players[seat].money >= self.edition.politicians[politician].cost:
                    state.actor = seat
                    return True
                board.row[state.row_cursor][2] = 0
                events.append(Event("politician_declined", {"seat": seat, "board": pos, "unaffordable": True,
                                                            "politician": self.edition.politicians[politician].id}))
            state.row_cursor += 1
        return False

    def _open_sealed_payment(self, state: State, board: Board, pos: int, events: list[Event]) -> None:
        """G-13 alternative: every owner decides to pay or decline at once, unseen by the others."""
        state.done = [True] * state.seats
        for entry in board.row:
            seat, politician = entry[0], self.edition.politicians[entry[1]]
            if state.players[seat].money >= politician.cost:
                state.done[seat] = False
                state.players[seat].secret = []
            else:
                entry[2] = 0
                events.append(Event("politician_declined", {"seat": seat, "board": pos, "unaffordable": True,
                                                            "politician": politician.id}))
        state.step = "sealed_pay"

    def _reveal_payments(self, state: State, board: Board, pos: int, events: list[Event]) -> None:
        for entry in board.row:
            if entry[2] == -1:
                self._pay_or_decline(state, entry, pos, state.players[entry[0]].secret == [1], events)
                state.players[entry[0]].secret = []
        state.done = []
        state.step, state.row_cursor = "main", 0

    def _pay_or_decline(self, state: State, entry: list[int], pos: int, pay: bool, events: list[Event]) -> None:
        seat, politician = entry[0], self.edition.politicians[entry[1]]
        entry[2] = int(pay)
        if pay:
            state.players[seat].money -= politician.cost
            events.append(Event("politician_paid", {"seat": seat, "board": pos, "politician": politician.id,
                                                    "cost": politician.cost}))
        else:
            events.append(Event("politician_declined", {"seat": seat, "board": pos, "politician": politician.id}))

    def _next_politician_decision(self, state: State, board: Board) -> bool:
        while state.row_cursor < len(board.row):
            seat, _politician, paid = board.row[state.row_cursor]
            if paid == 1 and state.step in ("main", "secondary"):
                state.actor = seat
                return True
            state.row_cursor += 1
            state.step = "main"
        return False

    def _legal_politicians(self, state: State, seat: Seat) -> list[Action]:
        if state.step in ("pay", "sealed_pay"):
            return [("pay",), ("decline",)]
        pos = self.from_election(state)[state.cursor]
        politician = self.edition.politicians[state.boards[pos].row[state.row_cursor][1]]
        codes = [politician.main] if state.step == "main" else list(politician.secondary)
        actions: list[Action] = [("skip",)]
        for code in codes:
            actions += self._politician_action_options(state, seat, pos, code)
        return actions

    def _politician_action_options(self, state: State, seat: int, pos: int, code: str) -> list[Action]:
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
            if player.money < self.edition.buyout_payment:
                return []
            spots = [i for i, owner in enumerate(board.media) if owner not in (NOBODY, seat)]
            places = (False, True) if player.media_supply else (False,)
            return [("buyout", spot, place) for spot in spots for place in places]
        if code == "OTHERS_TREND-1":
            return [("others_trend",)]
        if code == "PROGRAM":
            return [("program",)]
        if code == "FREE_POLL":
            return [("free_poll",)] if polls_available(state, self.options["poll_reshuffle"]) else []
        kind, amount = code.split("+")
        return [({"TREND": "trend", "VOTES": "votes", "BASE": "base"}[kind], int(amount))]

    def _apply_politicians(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        pos = self.from_election(state)[state.cursor]
        kind = action[0]
        if state.step == "sealed_pay":
            state.players[seat].secret = [int(kind == "pay")]
            state.done[seat] = True
            events.append(Event("sealed_committed", {"seat": seat, "decision": "pay_politician"}))
            return
        entry = state.boards[pos].row[state.row_cursor]
        if kind in ("pay", "decline"):
            self._pay_or_decline(state, entry, pos, kind == "pay", events)
            state.row_cursor += 1
            return
        if kind != "skip":
            self._politician_effect(state, seat, pos, action, events)
        else:
            events.append(Event("action_skipped", {"seat": seat, "board": pos}))
        state.step = "secondary" if state.step == "main" else "after"

    def _politician_effect(self, state: State, seat: int, pos: int, action: Action, events: list[Event]) -> None:
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
            player.money -= self.edition.buyout_payment
            state.players[owner].money += self.edition.buyout_payment
            if self.options["buyout_removed_to"] == "supply":
                state.players[owner].media_supply += 1
            board.media[action[1]] = NOBODY
            if action[2]:
                board.media[action[1]] = seat
                player.media_supply -= 1
            board.bang_used.append("BUYOUT")
            params.update(owner=owner, replaced=action[2], payment=self.edition.buyout_payment)
        elif kind == "others_trend":
            for other in range(state.seats):
                if other != seat:
                    board.trend[other] = self.clamp_trend(board.trend[other] - 1)
            board.bang_used.append("OTHERS_TREND-1")
        elif kind == "trend":
            board.trend[seat] = self.clamp_trend(board.trend[seat] + action[1])
            params["amount"] = action[1]
        elif kind == "votes":
            board.votes[seat] += action[1]
            params["amount"] = action[1]
        elif kind == "base":
            self.change_base(player, action[1])
            params["amount"] = action[1]
        elif kind == "program":
            state.program_change = [seat, MODE, 0, FROM_POLITICIAN, NOBODY]
        elif kind == "free_poll":
            self._take_poll(state, seat, events)
        events.append(Event("politician_action", params))

    # --- polls: taking, publishing, auctions ---------------------------------------------

    def _take_poll(self, state: State, seat: int, events: list[Event]) -> None:
        card = draw_poll(state, self.options["poll_reshuffle"], events)
        state.poll_in_hand = card
        state.actor = seat
        events.append(Event("poll_taken", {"seat": seat}))
        poll = self.edition.polls[card]
        events.append(Event("poll_seen", {"seat": seat, "poll": poll.id, "delta": dict(poll.delta)}, (seat,)))

    def poll_delta(self, card: int, seat: int) -> int:
        return self.edition.polls[card].delta[self.edition.parties[self.party_of_seat[seat]].id]

    def poll_board(self, state: State) -> int:
        return self.from_election(state)[state.cursor]

    def _legal_poll_use(self, state: State, seat: Seat) -> list[Action]:
        actions: list[Action] = [("withhold_poll",)]
        if self.poll_delta(state.poll_in_hand, seat) > 0:
            actions.append(("publish_poll",))
        return actions

    def _apply_poll_use(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        card, state.poll_in_hand = state.poll_in_hand, NOBODY
        pos = self.poll_board(state)
        if state.phase == "polls":
            state.cursor += 1
        if action[0] == "withhold_poll":
            self.change_base(state.players[seat], 3)
            public = self.options["unpublished_poll_public"]
            state.poll_discard.append([card, int(public)])
            shown = self.edition.polls[card].id if public else None
            events.append(Event("poll_withheld", {"seat": seat, "poll": shown}))
            return
        board = state.boards[pos]
        influencer = media_influencer(board)
        changes = []
        for other in range(state.seats):
            delta = self.poll_delta(card, other)
            if other == seat or (delta < 0 and other != influencer) or (
                    delta > 0 and self.options["poll_apply_other_positive"]):
                board.trend[other] = self.clamp_trend(board.trend[other] + delta)
                changes.append([other, delta])
        state.poll_discard.append([card, 1])
        events.append(Event("poll_published", {"seat": seat, "board": pos, "poll": self.edition.polls[card].id,
                                               "changes": changes,
                                               "protected": influencer if influencer != seat else NOBODY}))

    def _settle_polls(self, state: State, events: list[Event]) -> bool:
        boards = self.from_election(state)
        while state.cursor < len(boards):
            if not state.auction:
                if not polls_available(state, self.options["poll_reshuffle"]):
                    state.cursor += 1
                    continue
                self._open_auction(state, boards[state.cursor], events)
            high, high_seat, position, *order = state.auction
            while position < len(order):
                seat = order[position]
                if self._poll_bids(state, seat):
                    state.actor = seat
                    return True
                position += 1
                state.auction[2] = position
            self._close_auction(state, events)
            if state.poll_in_hand != NOBODY:
                return False
        state.phase, state.cursor, state.turn = "convert", 0, 0
        return False

    def _open_auction(self, state: State, pos: int, events: list[Event]) -> None:
        board, n = state.boards[pos], state.seats
        most = max(board.votes)
        auctioneer = self.first_in_turn_order(state, [s for s in range(n) if board.votes[s] == most])
        if self.options["poll_auction_first"] == "left_of_start_player":
            order = [s for s in state.turn_order()[1:] + state.turn_order()[:1] if s != auctioneer] + [auctioneer]
        else:
            order = [(auctioneer + i) % n for i in range(1, n + 1)]
        state.auction = [-1, NOBODY, 0, *order]
        ensure_poll_deck(state, self.options["poll_reshuffle"], events)
        events.append(Event("poll_auction", {"board": pos, "auctioneer": auctioneer, "order": order,
                                             "back": self._top_poll_back(state)}))

    def _top_poll_back(self, state: State) -> str | None:
        return self.edition.polls[state.poll_deck[-1]].back if state.poll_deck else None

    def _poll_bids(self, state: State, seat: int) -> range:
        if state.excluded[seat]:
            return range(0)
        low = state.auction[0] + 1
        return self.money_steps(max(0, low), self.bid_ceiling(state, seat))

    def _legal_polls(self, state: State, seat: Seat) -> list[Action]:
        return [("pass",)] + [("poll_bid", x) for x in self._poll_bids(state, seat)]

    def _apply_polls(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        if action[0] == "poll_bid" and action[1] > state.players[seat].money:
            self._overbid(state, seat, action[1], events)
            order = [s for s in state.auction[3:] if not state.excluded[s]]
            state.auction = [-1, NOBODY, 0, *order]  # the remaining players must restart (C-14)
            events.append(Event("poll_auction_restarted", {"seats": order}))
            return
        if action[0] == "poll_bid":
            state.auction[0], state.auction[1] = action[1], seat
            events.append(Event("poll_bid", {"seat": seat, "amount": action[1]}))
        else:
            events.append(Event("passed", {"seat": seat}))
        state.auction[2] += 1

    def _close_auction(self, state: State, events: list[Event]) -> None:
        high, winner = state.auction[0], state.auction[1]
        state.auction = []
        if winner == NOBODY:
            if self.options["poll_no_bid"] == "discard":
                card = draw_poll(state, self.options["poll_reshuffle"], events)
                state.poll_discard.append([card, 0])
            events.append(Event("poll_no_bid", {"board": self.poll_board(state)}))
            state.cursor += 1
            return
        state.players[winner].money -= high
        events.append(Event("poll_won", {"seat": winner, "amount": high}))
        self._take_poll(state, winner, events)  # the cursor moves on once the poll is used

    # --- phase 7: media influence ----------------------------------------------------------

    def _shift_options(self, state: State, pos: int) -> list[Action]:
        board = state.boards[pos]
        options: list[Action] = []
        for slot in range(len(board.opinions)):
            if not board.face_up[slot] or slot == board.doubled:
                continue
            # Only the other face-up opinions count: the display's copy of this very card is legal (C-32).
            others = {topic(c) for i, c in enumerate(board.opinions) if board.face_up[i] and i != slot}
            options += [("shift", slot, new) for new in range(CARD_TYPES)
                        if state.opinion_display[new] and topic(new) not in others]
        return options

    def _settle_media_shift(self, state: State, events: list[Event]) -> bool:
        boards = self.from_election(state)
        while state.cursor < len(boards):
            influencer = media_influencer(state.boards[boards[state.cursor]])
            if influencer != NOBODY and self._shift_options(state, boards[state.cursor]):
                state.actor = influencer
                return True
            state.cursor += 1
        state.phase, state.cursor, state.auction = "polls", 0, []
        state.excluded = [False] * state.seats
        return False

    def _legal_media_shift(self, state: State, seat: Seat) -> list[Action]:
        return [("pass",)] + self._shift_options(state, self.from_election(state)[state.cursor])

    def _apply_media_shift(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        pos = self.from_election(state)[state.cursor]
        if action[0] == "shift":
            board = state.boards[pos]
            _, slot, new = action
            old = board.opinions[slot]
            state.opinion_discard.append(old)
            board.opinions[slot] = new
            state.opinion_display[new] = False
            events.append(Event("opinion_shifted", {"seat": seat, "board": pos, "old": old, "new": new}))
        else:
            events.append(Event("passed", {"seat": seat}))
        state.cursor += 1

    # --- phase 9a: conversions ---------------------------------------------------------

    def relocation_order(self, state: State) -> list[int]:
        return self.from_election(state)[::-1]

    def _settle_convert(self, state: State, events: list[Event]) -> bool:
        boards = self.relocation_order(state)
        elections = self.elections_in(state.round)
        while state.cursor < len(boards):
            pos = boards[state.cursor]
            while state.turn < state.seats:
                seat = state.turn_order()[state.turn]
                rallies = state.boards[pos].rallies[seat]
                at_cap = self.options["force_convert_at_cap"] and rallies == self.edition.rally_cap
                forced = pos in elections or at_cap
                if forced and rallies:
                    self._convert(state, seat, pos, rallies, events)
                elif rallies >= 4 and not forced:
                    state.actor = seat
                    return True
                state.turn += 1
            state.cursor, state.turn = state.cursor + 1, 0
        state.phase, state.cursor, state.auction = "election", 0, []
        return False

    def _legal_convert(self, state: State, seat: Seat) -> list[Action]:
        pos = self.relocation_order(state)[state.cursor]
        rallies = state.boards[pos].rallies[seat]
        return [("pass",)] + [("convert", pos, k) for k in range(4, rallies + 1)]

    def _apply_convert(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        if action[0] == "convert":
            self._convert(state, seat, action[1], action[2], events)
        else:
            events.append(Event("passed", {"seat": seat}))
        state.turn += 1

    def _convert(self, state: State, seat: int, pos: int, k: int, events: list[Event]) -> None:
        board = state.boards[pos]
        trend = board.trend[seat]
        match = matches(board, state.players[seat].program)
        base, mult, votes = conversion(k, trend, match)
        if not self.options["rally_trend_floor_general"] and pos not in self.elections_in(state.round):
            base = k + trend
            votes = max(0, base) * mult
        board.votes[seat] += votes
        board.rallies[seat] -= k
        state.players[seat].rally_supply += k
        events.append(Event("rallies_converted", {"seat": seat, "board": pos, "rallies": k, "trend": trend,
                                                  "base": base, "matches": match, "mult": mult, "votes": votes,
                                                  "total": board.votes[seat]}))

    # --- phase 9b–d: elections, money, next round ------------------------------------------

    def _settle_election(self, state: State, events: list[Event]) -> bool:
        elections = self.elections_in(state.round)
        while state.cursor < len(elections):
            pos = elections[state.cursor]
            if not state.auction:
                state.auction = self._coalition_talks(state, pos)
            if state.auction and state.auction[0] == UNDECIDED:
                mode = self.options["coalition_mode"]
                state.actor = state.auction[2] if mode == "strongest_chooses_any_feasible" else \
                    state.auction[3 + state.auction[1]]
                return True
            partner = state.auction[0] if state.auction else None
            scoring.hold_election(self, state, pos, events, partner)
            state.auction = []
            state.cursor += 1
        if state.round == self.last_round:
            self._end_game(state, events)
            return False
        state.phase, state.turn, state.cursor = "money", 0, 0
        return False

    def _coalition_talks(self, state: State, pos: int) -> list[int]:
        """C-09 alternatives: [UNDECIDED, candidate asked, strongest, *feasible partners] when the
        table's coalition mode leaves a choice here; [] when the default rule decides."""
        mode = self.options["coalition_mode"]
        if mode == "priority_first_feasible":
            return []
        votes = state.boards[pos].votes
        if any(v >= self.options["win_threshold"] for v in votes):
            return []
        strongest, candidates = scoring.coalition_candidates(self, state, votes)
        feasible = [q for q in candidates if votes[strongest] + votes[q] >= self.options["win_threshold"]]
        if len(feasible) < (2 if mode == "strongest_chooses_any_feasible" else 1):
            return []
        return [UNDECIDED, 0, strongest, *feasible]

    def _legal_election(self, state: State, seat: Seat) -> list[Action]:
        if self.options["coalition_mode"] == "strongest_chooses_any_feasible":
            return [("coalition_partner", q) for q in state.auction[3:]]
        return [("coalition", True), ("coalition", False)]

    def _apply_coalition(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        talks = state.auction
        if action[0] == "coalition_partner":
            talks[0] = action[1]
        elif action[1]:
            talks[0] = seat
        else:
            talks[1] += 1
            if talks[1] == len(talks) - 3:
                talks[0] = NOBODY  # every candidate declined: no coalition
        events.append(Event("coalition_answer", {"seat": seat, "strongest": talks[2],
                                                 "partner": action[1] if action[0] == "coalition_partner" else None,
                                                 "accepted": action[1] if action[0] == "coalition" else None}))

    def _settle_money(self, state: State, events: list[Event]) -> bool:
        donations = state.round <= 3
        while state.turn < state.seats:
            seat = state.turn_order()[state.turn]
            if state.step != "donation":
                scoring.pay_income(self, state, seat, events)
                if donations and state.players[seat].donations:
                    state.step = "donation"
                    state.actor = seat
                    return True
            elif donations:
                state.actor = seat
                return True
            state.turn += 1
        state.step = ""
        self._prepare_next_round(state, events)
        return False

    def _legal_money(self, state: State, seat: Seat) -> list[Action]:
        donations = self.edition.donations
        return [("donation", donations[d].value, accept) for d in state.players[seat].donations
                for accept in (True, False)]

    def _apply_donation(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        _, value, accept = action
        player = state.players[seat]
        index = next(i for i, d in enumerate(self.edition.donations) if d.value == value)
        donation = self.edition.donations[index]
        player.donations.remove(index)
        if accept:
            player.money += donation.value
            self.change_base(player, -self.options["donation_accept_base_loss"][index])
        else:
            self.change_base(player, donation.reject_base)
        events.append(Event("donation", {"seat": seat, "value": donation.value, "accepted": accept,
                                         "base": player.base}))
        state.step = ""
        state.turn += 1

    def _prepare_next_round(self, state: State, events: list[Event]) -> None:
        reshuffle = self.options["opinion_reshuffle"]
        entering: list[int] = []
        for pos in self.elections_in(state.round):
            if self.long_game and state.round <= 3:
                self._replace_state(state, pos, events)
                entering.append(pos)
            else:
                self._remove_board(state, pos, events)
        for pos in range(4):
            if state.boards[pos].in_play and pos not in entering:
                reveal_next(state, pos, reshuffle, events)
        renew_program_display(state, events)
        if self.long_game and state.round == 3:
            self._refill_opinion_display(state, events)
        self._begin_round(state, events)

    def _clear_board(self, state: State, pos: int, events: list[Event]) -> None:
        board = state.boards[pos]
        state.opinion_discard.extend(board.opinions)
        if board.doubled != NOBODY:
            state.double_supply += 1
        for seat in board.media:
            if seat != NOBODY and self.options["removed_board_media"] == "to_supply":
                state.players[seat].media_supply += 1
        board.opinions, board.face_up, board.doubled = [], [], NOBODY
        board.media = [NOBODY] * 5

    def _remove_board(self, state: State, pos: int, events: list[Event]) -> None:
        self._clear_board(state, pos, events)
        state.boards[pos].in_play = False
        events.append(Event("board_removed", {"board": pos}))

    def _replace_state(self, state: State, pos: int, events: list[Event]) -> None:
        """Long game, rounds 1–3: a new state takes the elected one's place (die-macher.md §7.3)."""
        self._clear_board(state, pos, events)
        card = state.future_states.pop()
        seats = state.seats
        board = state.boards[pos]
        board.card, board.votes, board.trend, board.rallies = card, [0] * seats, [0] * seats, [0] * seats
        board.bang_used = []  # the "!" locks belonged to the state that left (C-08)
        reshuffle = self.options["opinion_reshuffle"]
        dealt = (draw_opinion(state, reshuffle, events) for _ in range(4))
        board.opinions = [c for c in dealt if c != NOBODY]  # no card left: the slot stays empty (cf. G-16)
        board.face_up = [False] * len(board.opinions)
        events.append(Event("state_entered", {"board": pos, "state": self.edition.states[card].id}))
        for _reveal in range(3 if state.round == 3 else 2):
            reveal_next(state, pos, reshuffle, events)

    def _refill_opinion_display(self, state: State, events: list[Event]) -> None:
        """Long game, end of round 3: one + and one − of every topic again; the rest reshuffled."""
        pool = state.opinion_deck + state.opinion_discard
        for card in range(CARD_TYPES):
            if not state.opinion_display[card] and card in pool:
                pool.remove(card)
                state.opinion_display[card] = True
        state.opinion_deck, state.opinion_discard = pool, []
        state.chance.shuffle(state.opinion_deck)
        events.append(Event("opinion_display_refilled"))

    def _end_game(self, state: State, events: list[Event]) -> None:
        state.phase = "over"
        results = scoring.final_scores(self, state)
        events.append(Event("final_scores", {"scores": [
            {"seat": seat, "total": total, **parts} for seat, (total, parts) in enumerate(results)]}))
        winners = self.winners(state)
        events.append(Event("game_won", {"seats": winners}))

    _settle: dict[str, Callable[[DieMacher, State, list[Event]], bool]] = {
        **dict.fromkeys(SEALED, _settle_sealed),
        "rebid": _settle_rebid,
        "program_changes": _settle_program_changes,
        "media": _settle_media,
        "rallies": _settle_rallies,
        "cabinet": _settle_cabinet,
        "politicians": _settle_politicians,
        "media_shift": _settle_media_shift,
        "polls": _settle_polls,
        "convert": _settle_convert,
        "election": _settle_election,
        "money": _settle_money,
    }
    _legal: dict[str, Callable[[DieMacher, State, Seat], list[Action]]] = {
        "draft": _legal_draft,
        "program": _legal_program_card,
        "program_more": _legal_program_card,
        "keep": _legal_keep_sealed,
        "start": _legal_start,
        "bid": _legal_bid,
        "rebid": _legal_rebid,
        "media": _legal_media,
        "rallies": _legal_rallies,
        "cabinet": _legal_cabinet,
        "politicians": _legal_politicians,
        "media_shift": _legal_media_shift,
        "polls": _legal_polls,
        "convert": _legal_convert,
        "money": _legal_money,
        "election": _legal_election,
    }
    _apply: dict[str, Callable[[DieMacher, State, Seat, Action, list[Event]], None]] = {
        "draft_pick": _apply_draft_pick,
        "program_card": _apply_program_card,
        "keep": _apply_keep_sealed,
        "start_block": _apply_start,
        "start_state": _apply_start,
        "bid": _apply_bid,
        "raise": _apply_rebid,
        **dict.fromkeys(("program_pass", "draw_and_take", "refresh_and_take", "take", "swap", "swaps_done",
                         "keep_card"), _apply_program_change),
        "buy_media": _apply_media,
        "rallies": _apply_rallies,
        "place": _apply_cabinet,
        **dict.fromkeys(("pay", "decline", "skip", "double", "double_remove", "buyout", "others_trend", "trend",
                         "votes", "base", "program", "free_poll"), _apply_politicians),
        "withhold_poll": _apply_poll_use,
        "publish_poll": _apply_poll_use,
        "poll_bid": _apply_polls,
        "shift": _apply_media_shift,
        "convert": _apply_convert,
        "donation": _apply_donation,
        "coalition": _apply_coalition,
        "coalition_partner": _apply_coalition,
    }

    def _apply_pass(self, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
        """``pass`` is shared by several phases; the phase decides what it means."""
        handlers = {"rebid": DieMacher._apply_rebid, "media": DieMacher._apply_media,
                    "polls": DieMacher._apply_polls, "media_shift": DieMacher._apply_media_shift,
                    "convert": DieMacher._apply_convert}
        handlers[state.phase](self, state, seat, action, events)

    _apply["pass"] = _apply_pass


def _repeated_topics(cards: list[int]) -> list[int]:
    """Every card whose topic already occurred earlier in ``cards``."""
    seen: set[int] = set()
    repeated = []
    for card in cards:
        if topic(card) in seen:
            repeated.append(card)
        seen.add(topic(card))
    return repeated
