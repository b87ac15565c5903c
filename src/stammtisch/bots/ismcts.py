"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012), multiple-observer.

Game-independent: it uses only the game contract (``knowledge``, ``sampler``, ``copy``, ``to_act``,
``legal_actions``, ``apply``, ``sealed``, ``is_over``, ``scores``, ``winners``).  docs/bots.md
explains the design; in short:

- Every iteration draws a *determinization* from the seat's knowledge (``game.resample``'s sample,
  the knowledge read once per decision; the search never sees the true state) and plays it down
  the trees, then out to the end (or to a depth cut-off) by a playout policy, and backs the seats'
  values up.
- One tree per seat (MO-ISMCTS).  A tree's edges are what *its* seat observes of a move: the action
  itself, except a move made during a sealed decision (``game.sealed``) by another seat, which that
  tree sees only as "seat m committed" (``Hidden(m)``).  So no seat's statistics branch on another
  seat's hidden sealed choice, and whoever decides selects in its own tree only.
- During a sealed decision several seats may act (``to_act``); the search lets the seat asking
  decide first at the root and the others in ``to_act`` order after it: since nobody sees the
  others' sealed choices, the order changes nothing any seat knows.
- Long decision lists get progressive widening: a node with more than ``widen_above`` legal actions
  opens a new child only while it has fewer than ``widen_c * visits ** widen_alpha`` children.
- ``root="paired"`` (``PairedSearch``, the strengths' choice) searches without the tree: the playout
  policy's favourite moves are played on the same determinizations with the same playout seeds, and
  the policy's favourite is kept unless another move is clearly better.  A larger budget buys more
  of those favourites (``candidates_by_budget``).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from stammtisch.bots.base import Bot
from stammtisch.bots.judges import Judge, judge_for
from stammtisch.bots.learned import learned_judge
from stammtisch.bots.noisy import softmax
from stammtisch.engine.protocol import Action, Game, Seat

Policy = Callable[[Game[Any], Any, Seat, list[Action], random.Random], Action]


class Hidden(NamedTuple):
    """What the other seats observe of a move made during a sealed decision: who committed."""

    seat: Seat


class Node:
    """A node of one seat's tree: statistics of the edge that leads here (made by ``mover``)."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # sum of the values of the seat that made the move into this node

    def child(self, key: Any) -> Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Node()
        return node


@dataclass(frozen=True, slots=True)
class Settings:
    """How a search bot searches; the strengths (bots/strengths.py) are instances of this."""

    iterations: int = 1000  # per decision (the budget when ``seconds`` is None)
    seconds: float | None = None  # CPU seconds of the thread per decision: stop then, even before ``iterations``
    exploration: float = 0.7  # UCB constant (values lie in [0, 1])
    widen_above: int = 12  # progressive widening for nodes with more legal actions than this
    widen_c: float = 2.0
    widen_alpha: float = 0.5
    depth: int | None = None  # playout moves before the game is judged by its current scores
    rounds: int | None = None  # rounds (shifts) a playout may end before the game's judge estimates the scores
    win_weight: float = 0.5  # value = win_weight * win share + (1 - win_weight) * score margin
    noise: float = 0.0  # probability of a uniformly random legal move instead of the search's choice
    playout: str = "random"  # the game's bot kind that plays the playouts and orders new children
    root: str = "tree"  # "tree": MO-ISMCTS; "paired": the policy's favourites compared on shared samples (below)
    candidates: int = 4  # paired: the playout policy's favourites compared at the root
    # paired: candidates by budget, ((seconds, candidates), …) rising: ``candidate_count`` (empty: ``candidates``)
    candidates_by_budget: tuple[tuple[float, int], ...] = ()
    confidence: float = 1.5  # paired: standard errors by which another move must beat the favourite
    opponents: float | None = None  # other seats in playouts: None: the playout policy; T: its noisy softmax at T
    judge: str = "game"  # at a ``rounds`` cut-off: "game" (games/<g>/judge.py) or "learned" (bots/learned.py)


@dataclass(frozen=True, slots=True)
class Estimate:
    """One root action with the search's estimate of it (for hints)."""

    action: Action
    visits: int
    value: float  # the asking seat's mean value in [0, 1] (0.5 + half the normalised score margin, …)


def candidate_count(settings: Settings) -> int:
    """How many of the playout policy's favourites a paired search compares: ``candidates``, or, with
    ``candidates_by_budget`` and a budget in seconds, the count at that budget, in proportion between
    two listed budgets and held beyond the first and the last (docs/bots.md, "What a larger budget
    buys")."""
    points, seconds = settings.candidates_by_budget, settings.seconds
    if not points or seconds is None:
        return settings.candidates
    if seconds <= points[0][0]:
        return points[0][1]
    for (low, few), (high, many) in itertools.pairwise(points):
        if seconds <= high:
            return round(few + (many - few) * (seconds - low) / (high - low))
    return points[-1][1]


def random_policy(game: Game[Any], state: Any, seat: Seat, legal: list[Action], rng: random.Random) -> Action:
    return legal[rng.randrange(len(legal))]


class BotPolicy:
    """A playout policy that asks a view bot (a game's heuristic bot) about the sampled state: through
    its ``choose_in_sample`` if it has one (it decides from the part of the seat's view it reads,
    far cheaper than the whole view), else from the seat's view."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.in_sample = getattr(bot, "choose_in_sample", None)

    def __call__(self, game: Game[Any], state: Any, seat: Seat, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.in_sample is not None:
            return self.in_sample(game, state, seat, legal)
        return self.bot.choose(game.view(state, seat), legal)

    def reseed(self, seed: int) -> None:
        """Restart the bot's own generator (its tie-breaks): paired playouts play alike."""
        rng = getattr(self.bot, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(seed)


class NoisyPolicy:
    """An opponent model for the other seats' playout moves (``Settings.opponents``): the playout
    bot's own preferences of the legal actions (``preferences_in_sample``, from the seat's playout
    view) drawn as a softmax at ``temperature`` (``bots/noisy.py``) with the playout's generator,
    so that the search does not take the other seats for the deterministic heuristic."""

    def __init__(self, bot: Bot, temperature: float) -> None:
        self.bot = bot
        self.preferences = bot.preferences_in_sample  # type: ignore[attr-defined]
        self.temperature = temperature

    def __call__(self, game: Game[Any], state: Any, seat: Seat, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        weights = softmax(self.preferences(game, state, seat, legal), self.temperature)
        return rng.choices(legal, weights=weights)[0]

    def reseed(self, seed: int) -> None:
        """Restart the bot's own generator (the plans' tie-breaks): paired playouts play alike."""
        self.bot.rng.seed(seed)  # type: ignore[attr-defined]


class Search:
    """One decision's search from a knowledge sample of ``seat``."""

    def __init__(self, game: Game[Any], knowledge: Any, seat: Seat, settings: Settings, rng: random.Random,
                 playout: Policy = random_policy, others: Policy | None = None) -> None:
        self.game = game
        self.knowledge = knowledge
        self.seat = seat
        # the seat's knowledge is read once per decision; every iteration draws a sample of it
        self.draw = game.sampler(game.knowledge(knowledge, seat))
        self.settings = settings
        self.rng = rng
        self.playout = playout
        self.others = others or playout  # the other seats' playout moves
        self.roots = [Node() for _ in range(game.num_players)]
        self.judge = self.cut_off_judge(game) if settings.rounds is not None else None
        self.iterations = 0

    def cut_off_judge(self, game: Game[Any]) -> Judge | None:
        if self.settings.judge == "learned":
            learned = learned_judge(game.name)
            if learned is not None:
                return learned
        return judge_for(game)

    def run(self) -> None:
        settings = self.settings
        # CPU time of this thread: the budget is one core's, however busy the machine is and however
        # many threads share the process (a Dask worker).  The search stops when the time left would
        # not fit another iteration of the mean length so far.
        start = time.thread_time()
        while self.iterations < settings.iterations:
            if settings.seconds is not None and self.iterations:
                spent = time.thread_time() - start
                if spent * (self.iterations + 1) / self.iterations > settings.seconds:
                    break
            self.iterate()
            self.iterations += 1

    def iterate(self) -> None:
        game, rng = self.game, self.rng
        state = self.draw(rng)
        nodes = list(self.roots)
        paths: list[list[tuple[Node, Seat]]] = [[] for _ in nodes]
        mover: Seat | None = self.seat
        while not game.is_over(state):
            seat = mover if mover is not None else game.to_act(state)[0]
            mover = None
            legal = game.legal_actions(state, seat)
            action, expanded = self.select(nodes[seat], state, seat, legal)
            hidden = game.sealed(state)
            for observer, node in enumerate(nodes):
                key = Hidden(seat) if hidden and observer != seat else action
                nodes[observer] = node.child(key)
                paths[observer].append((nodes[observer], seat))
            game.apply(state, seat, action)
            if expanded:
                break
        values = self.finish(state)
        for path in paths:
            for node, seat in path:
                node.visits += 1
                node.total += values[seat]

    def select(self, node: Node, state: Any, seat: Seat, legal: list[Action]) -> tuple[Action, bool]:
        """The acting seat's choice in its own tree; True if it opened a new child.  New children
        are opened in the order the playout policy prefers them (the heuristic's favourite first)."""
        children, settings = node.children, self.settings
        if len(legal) == 1:  # a forced move opens no choice: the descent goes on
            return legal[0], False
        untried = [a for a in legal if a not in children]
        limit = len(legal) if len(legal) <= settings.widen_above else math.ceil(
            settings.widen_c * max(1, node.visits) ** settings.widen_alpha)
        if untried and len(children) < limit:
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.avail += 1
            return self.playout(self.game, state, seat, untried, self.rng), True
        best, best_score = legal[0], -math.inf
        c = settings.exploration
        for action in legal:
            child = children.get(action)
            if child is None:
                continue
            child.avail += 1
            score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best, False

    def finish(self, state: Any, rng: random.Random | None = None) -> list[float]:
        """Play out from ``state`` and value the end for every seat."""
        game, playout, others, judge = self.game, self.playout, self.others, self.judge
        rng = rng or self.rng
        left = self.settings.depth
        end = 0 if judge is None else judge.stage(state) + (self.settings.rounds or 0)
        while not game.is_over(state) and (left is None or left > 0):
            if judge is not None and judge.stage(state) >= end:
                break
            seat = game.to_act(state)[0]
            policy = playout if seat == self.seat else others
            game.apply(state, seat, policy(game, state, seat, game.legal_actions(state, seat), rng))
            if left is not None:
                left -= 1
        return values(game, state, self.settings.win_weight, judge)

    def estimates(self, legal: list[Action]) -> list[Estimate]:
        """The root's legal actions the search tried, most visited first; among equals the one
        opened first, which is the playout policy's favourite (few iterations often tie)."""
        root = self.roots[self.seat]
        found = [Estimate(a, child.visits, child.total / child.visits)
                 for a, child in root.children.items() if child.visits and a in legal]
        return sorted(found, key=lambda e: -e.visits)


class PairedSearch(Search):
    """A decision's search by paired playouts (``Settings.root == "paired"``; docs/bots.md): the
    playout policy's ``candidates`` favourite moves at the root, each played on the same
    determinizations with the same playout seeds (common random numbers), so that their values
    differ by what the moves change, not by the luck of the samples.  The search keeps the policy's
    favourite unless another move beats it by ``confidence`` standard errors of the paired
    differences: noise cannot make it play worse than its playout policy."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ranked: list[Action] = []
        self.samples: dict[Action, list[float]] = {}

    def run(self) -> None:
        game, seat, settings = self.game, self.seat, self.settings
        start = time.thread_time()
        rounds = 0
        while self.iterations < settings.iterations:
            if settings.seconds is not None and rounds:
                spent = time.thread_time() - start
                if spent * (rounds + 1) / rounds > settings.seconds:
                    break
            sample = self.draw(self.rng)
            if not self.ranked:
                self.rank(sample)
            seed = self.rng.getrandbits(32)
            for action in self.ranked:
                state = game.copy(sample)
                game.apply(state, seat, action)
                for policy in {self.playout, self.others}:
                    reseed = getattr(policy, "reseed", None)
                    if reseed is not None:
                        reseed(seed)
                self.samples[action].append(self.finish(state, random.Random(seed))[seat])
                self.iterations += 1
            rounds += 1

    def rank(self, sample: Any) -> None:
        """The policy's favourites, best first, as the policy sees the seat's place in ``sample``."""
        left = self.game.legal_actions(sample, self.seat)
        wanted = candidate_count(self.settings)
        while left and len(self.ranked) < wanted:
            action = self.playout(self.game, sample, self.seat, left, self.rng) if len(left) > 1 else left[0]
            self.ranked.append(action)
            left = [a for a in left if a != action]
        self.samples = {action: [] for action in self.ranked}

    def choice(self) -> Action | None:
        """The favourite, unless a move beats it clearly (by ``confidence`` standard errors)."""
        if not self.ranked:
            return None
        favourite = self.ranked[0]
        best = max(self.ranked, key=lambda a: mean(self.samples[a]))
        n = len(self.samples[favourite])
        if best == favourite or n < 2:
            return favourite
        diffs = [b - f for b, f in zip(self.samples[best], self.samples[favourite], strict=True)]
        gain = mean(diffs)
        spread = math.sqrt(sum((d - gain) ** 2 for d in diffs) / (n - 1))
        return best if gain > self.settings.confidence * spread / math.sqrt(n) else favourite

    def estimates(self, legal: list[Action]) -> list[Estimate]:
        """The compared moves, the search's choice first, then by their mean values."""
        chosen = self.choice()
        found = [Estimate(a, len(v), mean(v)) for a, v in self.samples.items() if v and a in legal]
        return sorted(found, key=lambda e: (e.action != chosen, -e.value))


def mean(numbers: list[float]) -> float:
    return sum(numbers) / len(numbers) if numbers else -math.inf


def values(game: Game[Any], state: Any, win_weight: float, judge: Judge | None = None) -> list[float]:
    """Each seat's value in [0, 1]: its share of the win (the game's winners, or the best scores
    before the end) mixed with its score margin over the best other seat, normalised.  Before the
    end the scores are the judge's estimates if there is a judge, else the current scores."""
    over = game.is_over(state)
    scores: list[float] = list(game.scores(state)) if over or judge is None else judge.estimate(game, state)
    winners = game.winners(state) if over else [s for s, v in enumerate(scores) if v == max(scores)]
    scale = max(1, max(abs(v) for v in scores))
    result = []
    for seat, points in enumerate(scores):
        best_other = max(v for s, v in enumerate(scores) if s != seat)
        margin = max(-1.0, min(1.0, (points - best_other) / scale))
        win = 1 / len(winners) if seat in winners else 0.0
        result.append(win_weight * win + (1 - win_weight) * (0.5 + margin / 2))
    return result


class SearchingBot:
    """A search bot (``bots.base.SearchBot``) with fixed settings; ``seed`` makes it reproducible.
    A game's strengths are subclasses that set ``settings`` (games/*/search.py)."""

    settings = Settings()
    parameter = "seconds"  # what a tournament's ``KIND@X`` and ``--budget`` set (tournament/entrants.py)

    def __init__(self, seed: int = 0, settings: Settings | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.settings = settings or self.settings
        self.last: Search | None = None
        self._policies: dict[tuple[str, float | None], Policy] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (for a worker process, say) without its caches, which are made again when needed: the last
        search holds the game's samplers, which do not pickle (compiled generators), and the playout bots."""
        return {**self.__dict__, "last": None, "_policies": {}}

    def tune(self, seconds: float) -> None:
        """Search ``seconds`` of CPU time per decision instead of the strength's budget."""
        self.settings = dataclasses.replace(self.settings, seconds=seconds)

    def policy(self, game: Game[Any], temperature: float | None = None) -> Policy:
        """The playout policy: random, or the game's bot of kind ``settings.playout``; with a
        ``temperature``, that bot's noisy softmax (the other seats' model, ``settings.opponents``)."""
        kind = self.settings.playout
        if kind == "random":
            return random_policy
        key = (game.name, temperature)
        if key not in self._policies:
            from stammtisch.registry import game_spec

            bot = game_spec(game.name).bot(kind, self.seed)
            self._policies[key] = BotPolicy(bot) if temperature is None else NoisyPolicy(bot, temperature)
        return self._policies[key]

    def search(self, game: Game[Any], knowledge: Any, seat: Seat) -> Search:
        kind = PairedSearch if self.settings.root == "paired" else Search
        others = self.policy(game, self.settings.opponents) if self.settings.opponents is not None else None
        search = kind(game, knowledge, seat, self.settings, random.Random(self.rng.getrandbits(64)), self.policy(game),
                      others)
        search.run()
        self.last = search
        return search

    def choose_in(self, game: Game[Any], knowledge: Any, seat: Seat, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.settings.noise and self.rng.random() < self.settings.noise:
            return legal[self.rng.randrange(len(legal))]
        found = self.search(game, knowledge, seat).estimates(legal)
        return found[0].action if found else legal[self.rng.randrange(len(legal))]

    def hint(self, game: Game[Any], knowledge: Any, seat: Seat, legal: list[Action], top: int = 3) -> list[Estimate]:
        """The moves the search likes best, with their estimated values."""
        return self.search(game, knowledge, seat).estimates(legal)[:top]
