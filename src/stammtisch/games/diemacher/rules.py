"""Die Macher: setup A–J, rounds of nine phases, elections and final scoring (die-macher.md).

The phases are declared in ``phases/`` (one module each) and run by the engine's flow
(engine/flow.py): every ``apply`` carries out one small action, then the flow settles every step
that needs no decision, until somebody must decide again.  This class holds the table (options,
edition) and the rules' small shared helpers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from stammtisch.engine.codec import ActionCodec, cached_codec
from stammtisch.engine.flow import FlowGame
from stammtisch.engine.protocol import Action, Event, Seat
from stammtisch.engine.shape import Shape
from stammtisch.games.diemacher import scoring
from stammtisch.games.diemacher.data import Edition, load_edition
from stammtisch.games.diemacher.options import OPTIONS, check_options
from stammtisch.games.diemacher.phases import FLOW
from stammtisch.games.diemacher.state import Player, State
from stammtisch.games.diemacher.view import build_view, build_views, describe
from stammtisch.i18n import _

LONG_GAME_ELECTIONS: Final = {1: [0], 2: [1], 3: [2], 4: [3, 0], 5: [1, 2]}
ROUND_FROM: Final = tuple(tuple((first + i) % 4 for i in range(4)) for first in range(4))  # the 4 boards from each


class DieMacher(FlowGame[State]):
    name = "diemacher"
    flow = FLOW
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
        self.edition: Edition = load_edition(checked["edition"])
        self.long_game: bool = checked["elections"] == 7
        self.last_round = 5 if self.long_game else 4
        low, high = self.edition.trend_range
        self.trend_min: int = low if checked["trend_min"] is None else checked["trend_min"]
        self.trend_max: int = high if checked["trend_max"] is None else checked["trend_max"]
        if not self.trend_min < 0 < self.trend_max:
            raise ValueError(_("table options trend_min/trend_max: the trend scale must run from below 0 to above 0"))
        self.unit: int = checked["money_unit"]
        self.made_amount_actions: dict[str, list[Action]] = {}
        self.rally_actions = [[("rallies", pos, n) for n in range(self.edition.rally_cap + 1)] for pos in range(4)]
        self.party_of_seat = [self.edition.party_index(p) for p in checked["parties"]]
        self.politician_index = {p.id: i for i, p in enumerate(self.edition.politicians)}
        return checked

    # ------------------------------------------------------------------ protocol

    def new_state(self, seed: int) -> tuple[State, list[Event]]:
        from stammtisch.games.diemacher.setup import set_up

        state, events = set_up(self, seed)
        self.flow.start(self, state, events)
        return state, events

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def views(self, state: State, seats: Iterable[Seat | None]) -> dict[Seat | None, dict[str, Any]]:
        return build_views(self, state, seats)

    def describe(self) -> dict[str, Any]:
        return describe(self)

    def copy(self, state: State) -> State:
        return state.copy()

    def scores(self, state: State) -> list[int]:
        return [total for total, _parts in scoring.final_scores(self, state)]

    def summary(self, state: State) -> dict[str, int]:
        return dict(state.outcomes)

    def knowledge(self, state: State, seat: Seat) -> dict[str, Any]:
        from stammtisch.games.diemacher.resample import knowledge

        return knowledge(self, state, seat)

    def sample(self, knowledge: dict[str, Any], rng: random.Random) -> State:
        from stammtisch.games.diemacher.resample import sample

        return sample(self, knowledge, rng)

    def sampler(self, knowledge: dict[str, Any]) -> Callable[[random.Random], State]:
        from stammtisch.games.diemacher.resample import Sampler

        return Sampler(self, knowledge)

    @classmethod
    def action_codec(cls, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        from stammtisch.games.diemacher.codec import action_table

        return cached_codec(cls, num_players, options, action_table)

    def observation_shape(self) -> Shape:
        from stammtisch.games.diemacher.codec import observation_shape

        return observation_shape(self)

    def most_decisions(self) -> int:
        from stammtisch.games.diemacher.codec import most_decisions

        return most_decisions(self)

    # ------------------------------------------------------------------ helpers

    def elections_in(self, round_: int) -> list[int]:
        """Boards voting in a round, in election order (setup counts as round 1)."""
        round_ = max(1, round_)
        return LONG_GAME_ELECTIONS[round_] if self.long_game else [round_ - 1]

    def from_election(self, state: State) -> list[int]:
        """The boards in play, in election order from the round's first election."""
        boards = state.boards
        return [pos for pos in ROUND_FROM[self.first_election(state.round)] if boards[pos].in_play]

    def first_election(self, round_: int) -> int:
        """``elections_in(round_)[0]`` without making the list."""
        round_ = max(1, round_)
        return LONG_GAME_ELECTIONS[round_][0] if self.long_game else round_ - 1

    def clamp_trend(self, value: int) -> int:
        return max(self.trend_min, min(self.trend_max, value))

    def change_base(self, player: Player, delta: int) -> None:
        player.base = max(self.options["base_floor"], player.base + delta)

    def money_steps(self, low: int, high: int) -> range:
        """Amounts from ``low`` to ``high`` in whole money units."""
        start = -(-low // self.unit) * self.unit
        return range(start, high + 1, self.unit)

    def amount_actions(self, kind: str, low: int, high: int) -> list[Action]:
        """``(kind, amount)`` for each amount of ``money_steps(low, high)``, ``low >= 0``; each such tuple is
        made once per table (bids' legal lists are long and asked for on every move)."""
        first, last = -(-low // self.unit), high // self.unit
        if last < first:
            return []
        made = self.made_amount_actions.get(kind)
        if made is None or len(made) <= last:  # a longer list replaces the old one: never changed once shared
            made = [(kind, amount * self.unit) for amount in range(2 * last + 1)]
            self.made_amount_actions[kind] = made
        return made[first:last + 1]

    def allows_amount(self, action: Action, kind: str, low: int, high: int) -> bool:
        """Whether ``action`` is one of ``amount_actions(kind, low, high)`` (the strict step's test)."""
        amount = action[1] if len(action) == 2 else None
        return action[0] == kind and type(amount) is int and low <= amount <= high and amount % self.unit == 0

    def first_in_turn_order(self, state: State, seats: list[int]) -> int:
        return min(seats, key=lambda s: (s - state.start_player) % state.seats)

    def relocation_order(self, state: State) -> list[int]:
        return self.from_election(state)[::-1]

    def bid_ceiling(self, state: State, seat: int) -> int:
        """The highest bid offered: one's money, or (honour system, C-14) up to 10 units more."""
        money = state.players[seat].money
        return money + 10 * self.unit if self.options["overbid_mode"] == "honour_system_with_penalty" else money

    def trend_floor(self, state: State, pos: int) -> bool:
        """Whether a rally converted on board ``pos`` now counts at least 1 whatever the trend (C-04)."""
        return bool(self.options["rally_trend_floor_general"]) or pos in self.elections_in(state.round)

    def rally_cost(self, n: int) -> int:
        return self.edition.rally_costs[n - 1] if n else 0

    def poll_delta(self, card: int, seat: int) -> int:
        return self.edition.polls[card].delta[self.edition.parties[self.party_of_seat[seat]].id]

    def poll_board(self, state: State) -> int:
        return self.from_election(state)[state.cursor]
