"""A heuristic Die Macher bot: it sees only its seat's view and scores each legal action.

Its plan is the one a sensible player follows: a program that agrees with the opinions in the
states that vote soon, rallies and politicians concentrated on the next election, media
markers where they give influence, and bids and purchases kept within a money reserve.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from stammtisch.engine.protocol import Action
from stammtisch.games.diemacher.view import playout_view

View = dict[str, Any]
RESERVE: Final = 6000  # money the bot keeps for politicians and the next rallies
RALLY_COSTS: Final = (1000, 2000, 3000, 5000, 7000, 10000, 15000, 20000)


class HeuristicBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        scored = [(self.score(view, action) + self.rng.random() * 1e-3, i) for i, action in enumerate(legal)]
        return legal[max(scored)[1]]

    def choose_in_sample(self, game: Any, state: Any, seat: int, legal: list[Action]) -> Action:
        """A search playout's move (bots/ismcts.py) in a state the search sampled: decided from the
        part of the seat's view that ``choose`` reads (``playout_view``), which is far cheaper to build."""
        return self.choose(playout_view(game, state, seat), legal)

    def preferences_in_sample(self, game: Any, state: Any, seat: int, legal: list[Action]) -> list[float]:
        """``preferences`` from the seat's playout view of a sampled state (the search's opponent
        model, ``bots.ismcts.NoisyPolicy``)."""
        return self.preferences(playout_view(game, state, seat), legal)

    def preferences(self, view: View, legal: list[Action]) -> list[float]:
        """Each legal action's score, the bot's own preference (the noisy bot's softmax, bots/noisy.py)."""
        return [self.score(view, action) for action in legal]

    def score(self, view: View, action: Action) -> float:
        rule = _RULES.get(action[0])
        return rule(view, action) if rule else 0.0


# ---------------------------------------------------------------- what the view tells


def me(view: View) -> dict[str, Any]:
    return view["board"]["seats"][view["seat"]]


def money(view: View) -> int:
    return int(me(view)["money"] or 0)


class Reading:
    """What one view tells every action of a decision alike, read once per view: how soon each board
    votes, how much each program card agrees with the opinions, and the seat's program."""

    __slots__ = ("view", "urgency", "opinions", "program")

    def __init__(self, view: View | None = None) -> None:
        self.view = view
        self.urgency: dict[int, float] = {}
        self.opinions: dict[int, float] = {}
        self.program: list[int] = []
        if view is not None:
            self.urgency = {pos: 1.0 / (1 + i) for i, pos in enumerate(election_order(view))}
            self.opinions = _opinion_weights(view, self.urgency)
            self.program = list(me(view)["program"]) + list(me(view).get("sealed") or [])


# The last view's reading: one decision asks it once per action.  Replaced whole, so that threads
# never see one view's reading under another's view.
_last_reading = Reading()


def read(view: View) -> Reading:
    global _last_reading
    reading = _last_reading
    if reading.view is not view:
        reading = _last_reading = Reading(view)
    return reading


def election_order(view: View) -> list[int]:
    """Boards in play, the next election first (they vote clockwise from the ballot box)."""
    boards = [pos for pos, b in enumerate(view["board"]["boards"]) if b["in_play"]]
    first = next((pos for pos in boards if view["board"]["boards"][pos]["ballot_box"]), boards[0] if boards else 0)
    return sorted(boards, key=lambda pos: (pos - first) % 4)


def urgency(view: View, pos: int) -> float:
    """How soon a board votes: 1 for this round's election, less for later ones."""
    return read(view).urgency.get(pos, 0.0)


def opinion_weight(view: View, card: int) -> float:
    """How much a program card agrees with the face-up opinions, weighted by how soon they vote."""
    return read(view).opinions.get(card, 0.0)


def _opinion_weights(view: View, urgency: dict[int, float]) -> dict[int, float]:
    """``opinion_weight`` of every card an opinion shows or opposes: each opinion adds its weight to
    its own card and takes it from the opposite one, board by board in the view's order."""
    totals: dict[int, float] = {}
    for pos, board in enumerate(view["board"]["boards"]):
        if not board["in_play"]:
            continue
        for opinion in board["opinions"]:
            shown = opinion["card"]
            if shown is None:
                continue
            weight = (2 if opinion["doubled"] else 1) * urgency.get(pos, 0.0)
            totals[shown] = totals.get(shown, 0.0) + weight
            totals[shown ^ 1] = totals.get(shown ^ 1, 0.0) - weight
    return totals


def board_matches(board: dict[str, Any], program: list[int]) -> int:
    total = 0
    for opinion in board["opinions"]:
        card = opinion["card"]
        if card is None:
            continue
        weight = 2 if opinion["doubled"] else 1
        total += weight if card in program else -weight if card ^ 1 in program else 0
    return total


def my_program(view: View) -> list[int]:
    """The seat's program with the cards it has sealed (a shared list: callers never change it)."""
    return read(view).program


# ---------------------------------------------------------------- scoring of actions


def _draft(view: View, action: Action) -> float:
    card = action[1]
    have = {c // 2 for c in me(view)["hand"]}
    return opinion_weight(view, card) + (1.5 if card // 2 not in have else 0)


def _program_card(view: View, action: Action) -> float:
    return opinion_weight(view, action[1])


def _keep(view: View, action: Action) -> float:
    return opinion_weight(view, action[1])


def _start_block(view: View, action: Action) -> float:
    return {3: 3, 5: 2, 1: 1}.get(action[1], 0)


def _start_state(view: View, action: Action) -> float:
    return urgency(view, action[1]) * (1 + board_matches(view["board"]["boards"][action[1]], my_program(view)))


def _bid(view: View, action: Action) -> float:
    return 1.0 if action[1] == 1000 else 0.5 if action[1] == 0 else -action[1] / 1000


def _pass(view: View, action: Action) -> float:
    return 0.0


def _take(view: View, action: Action) -> float:
    return opinion_weight(view, action[1])


def _swap(view: View, action: Action) -> float:
    gain = opinion_weight(view, action[2]) - opinion_weight(view, action[1])
    return gain - 0.3


def _buy_media(view: View, action: Action) -> float:
    if money(view) - 5000 < RESERVE:
        return -1.0
    board = view["board"]["boards"][action[1]]
    mine = board["media"].count(view["seat"])
    others = max((board["media"].count(s) for s in range(view["players"]) if s != view["seat"]), default=0)
    gives_influence = mine + 1 > others and mine <= others
    return urgency(view, action[1]) * (2.0 if gives_influence else 0.3) - 0.4


def _rallies(view: View, action: Action) -> float:
    """Votes the rallies will bring where they will soon be converted, against half a point per €1,000."""
    _, pos, n = action
    if n == 0:
        return 0.0
    cost = RALLY_COSTS[n - 1]
    if money(view) - cost < RESERVE // 2:
        return -1.0
    board = view["board"]["boards"][pos]
    mult = max(1, board_matches(board, me(view)["program"]))
    votes = (n + board["trend"][view["seat"]]) * mult
    return urgency(view, pos) * votes - cost / 2000


POLITICIAN_VALUE: Final = {"backbencher": 3, "vice_chancellor": 2, "spokesperson": 1, "secretary": 4,
                    "parliamentary_leader": 1, "honorary_chairman": 3, "party_executive": 3, "front_runner": 2}
POLITICIAN_COST: Final = {"backbencher": 3000, "vice_chancellor": 5000, "spokesperson": 5000, "secretary": 8000,
                   "parliamentary_leader": 15000, "honorary_chairman": 8000, "party_executive": 10000,
                   "front_runner": 20000}


def _place(view: View, action: Action) -> float:
    _, pos, politician = action
    if politician is None:
        return 0.5
    affordable = money(view) >= POLITICIAN_COST[politician] + 2000
    return (urgency(view, pos) * POLITICIAN_VALUE[politician] if affordable else -1) - 0.2


def _pay(view: View, action: Action) -> float:
    return 1.0 if money(view) >= 3000 else -1.0


def _decline(view: View, action: Action) -> float:
    return 0.0


def _current_board(view: View) -> dict[str, Any]:
    return view["board"]["boards"][view["decision"]["board"]]


def _double(view: View, action: Action) -> float:
    card = _current_board(view)["opinions"][action[1]]["card"]
    program = me(view)["program"]
    return 2.0 if card in program else -1.0 if card ^ 1 in program else 0.2


def _double_remove(view: View, action: Action) -> float:
    board = _current_board(view)
    doubled = next((o["card"] for o in board["opinions"] if o["doubled"]), None)
    return 1.5 if doubled is not None and doubled ^ 1 in me(view)["program"] else -1.0


def _trend(view: View, action: Action) -> float:
    return 1.0 + action[1] * 0.5


def _votes(view: View, action: Action) -> float:
    return 1.0 + action[1] * 0.3


def _buyout(view: View, action: Action) -> float:
    return (1.2 if action[2] else 0.8) if money(view) >= RESERVE + 5000 else -1.0


def _others_trend(view: View, action: Action) -> float:
    return 1.2


def _program(view: View, action: Action) -> float:
    return 0.5


def _free_poll(view: View, action: Action) -> float:
    return 1.1


def _publish(view: View, action: Action) -> float:
    return 2.0


def _withhold(view: View, action: Action) -> float:
    return 1.0


def _poll_bid(view: View, action: Action) -> float:
    return 0.8 - action[1] / 1000 if money(view) - action[1] > RESERVE else -1.0


def _shift(view: View, action: Action) -> float:
    board = _current_board(view)
    program = me(view)["program"]
    old = board["opinions"][action[1]]["card"]
    new = action[2]
    value = (1 if new in program else -1 if new ^ 1 in program else 0)
    value -= (1 if old in program else -1 if old ^ 1 in program else 0)
    return value - 0.1


def _convert(view: View, action: Action) -> float:
    _, pos, k = action
    board = view["board"]["boards"][pos]
    return 1.0 if k == board["rallies"][view["seat"]] and board_matches(board, me(view)["program"]) >= 2 else -0.5


def _donation(view: View, action: Action) -> float:
    _, value, accept = action
    if accept:
        return value / 10000 if view["board"]["round"] == 1 or money(view) < 15000 else -1.0
    return {10000: 1, 20000: 3, 30000: 5}[value] / 2


_RULES: Final[dict[str, Callable[[View, Action], float]]] = {
    "draft_pick": _draft, "program_card": _program_card, "keep": _keep, "keep_card": _keep,
    "start_block": _start_block, "start_state": _start_state, "bid": _bid, "raise": lambda v, a: -1.0,
    "pass": _pass, "program_pass": lambda v, a: 0.0, "draw_and_take": lambda v, a: 0.5,
    "refresh_and_take": lambda v, a: 0.2, "take": _take, "swap": _swap, "swaps_done": lambda v, a: 0.0,
    "buy_media": _buy_media, "rallies": _rallies, "place": _place, "pay": _pay, "decline": _decline,
    "skip": lambda v, a: 0.0, "double": _double, "double_remove": _double_remove, "trend": _trend, "votes": _votes,
    "base": lambda v, a: 2.0, "buyout": _buyout, "others_trend": _others_trend, "program": _program,
    "free_poll": _free_poll, "publish_poll": _publish, "withhold_poll": _withhold, "poll_bid": _poll_bid,
    "shift": _shift, "convert": _convert, "donation": _donation,
    "coalition": lambda v, a: 1.0 if a[1] else 0.0,  # a coalition is worth +7 VP and a media move
    "coalition_partner": lambda v, a: 0.0,
}
