"""Every registered game as a pure-Python OpenSpiel game (docs/research.md).

``python_stammtisch_<game>`` is registered with ``pyspiel.register_game`` for each of them when
this module is imported.  They are sequential imperfect-information games with explicit chance: a
game starts with the deal, four chance nodes of 256 outcomes each that make up the seed of the
engine's generator; from there the engine draws every chance outcome inside ``apply`` from that
generator, which is part of its state, so the rest of the game has no chance nodes.  Sealed
decisions are played one seat after another; the views hide each choice until the reveal.  An
action is the code of the table's action codec.  The observation is the seat's view (the tensor of
research/observation.py, the view as JSON for the string); it is not a perfect-recall history, so
no information state is offered.  ``resample_from_infostate`` is ``Game.resample``.  A state
serializes through the engine's snapshot, so ``pyspiel.serialize_game_and_state`` restores it
exactly.

Parameters: ``players``, ``rewards`` ("scores" or "win"), every table option with a plain value
under its own name, and ``options``: JSON with any table options (the list-valued and nullable
ones), overridden by the named parameters that differ from their defaults.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as ismcts_search
from open_spiel.python.algorithms import mcts

from stammtisch.engine.protocol import Action, Game
from stammtisch.engine.record import action_to_json
from stammtisch.registry import game_spec, games
from stammtisch.research.table import Table

SCORE_BOUND = 1000.0  # OpenSpiel wants utility bounds; final scores stay far inside ±1000
PREFIX = "python_stammtisch_"
DEAL_DRAWS = 4  # chance nodes of the deal, each drawing one byte of the seed
DEAL_OUTCOMES = 256


def short_name(game: str) -> str:
    return PREFIX + game


def _plain_options(game: type[Game[Any]]) -> dict[str, Any]:
    return {option.name: option.default for option in game.option_schema
            if option.kind in (bool, int, str) and not option.nullable and not option.server_file}


def game_type(name: str) -> pyspiel.GameType:
    spec = game_spec(name)
    parameters = {"players": spec.default_players, "rewards": "scores", "options": "{}", **_plain_options(spec.game)}
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Stammtisch {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def table_of(name: str, params: dict[str, Any]) -> Table:
    """The table the game parameters describe."""
    options = json.loads(params.get("options", "{}"))
    if not isinstance(options, dict):
        raise ValueError(f"the parameter options must be a JSON object, not {params['options']!r}")
    for option, default in _plain_options(game_spec(name).game).items():
        if option in params and params[option] != default:
            options[option] = params[option]
    return Table(name, int(params.get("players", 0)) or None, options, str(params.get("rewards", "scores")))


class StammtischGame(pyspiel.Game):
    """One subclass per game (``game_name``), registered as the game's creator."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        params = dict(params or {})
        self.table = table_of(name, params)
        low, high = (0.0, 1.0) if self.table.rewards == "win" else (-SCORE_BOUND, SCORE_BOUND)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.codec.size, max_chance_outcomes=DEAL_OUTCOMES,
            num_players=self.table.players, min_utility=low, max_utility=high, utility_sum=None,
            max_game_length=self.table.game.most_decisions())
        super().__init__(game_type(name), info, params)

    def new_initial_state(self) -> StammtischState:
        return StammtischState(self)

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_DRAWS

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("no perfect-recall information state is offered: the observation is the seat's view, "
                             "what it knows now, not the history of what it saw (docs/research.md)")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every seat's private information is not offered")
        return ViewObserver(self.table, private == pyspiel.PrivateInfoType.SINGLE_PLAYER)


class Engine:
    """The engine's state inside an OpenSpiel state (``state``; None while the deal is drawn, whose
    bytes so far are ``deal``).  OpenSpiel's clone deep-copies it with the game's own ``copy``, and
    its serialization pickles it as the engine's snapshot."""

    __slots__ = ("table", "deal", "state")

    def __init__(self, table: Table, deal: tuple[int, ...] = (), state: Any = None) -> None:
        self.table, self.deal, self.state = table, deal, state

    def draw(self, outcome: int) -> None:
        """One byte of the seed; the last one sets the game up."""
        self.deal += (outcome,)
        if len(self.deal) == DEAL_DRAWS:
            seed = sum(byte << 8 * index for index, byte in enumerate(self.deal))
            self.state = self.table.game.new_state(seed)[0]

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        state = None if self.state is None else self.table.game.copy(self.state)
        return Engine(self.table, self.deal, state)

    def __reduce__(self) -> tuple[Any, ...]:
        table, game = self.table, self.table.game
        snapshot = None if self.state is None else game.to_json(self.state)
        return _restored_engine, (game.name, table.players, game.options, table.rewards, self.deal, snapshot)


def _restored_engine(name: str, players: int, options: dict[str, Any], rewards: str, deal: tuple[int, ...],
                     snapshot: dict[str, Any] | None) -> Engine:
    table = Table(name, players, options, rewards)
    return Engine(table, deal, None if snapshot is None else table.game.from_json(snapshot))


class StammtischState(pyspiel.State):
    def __init__(self, game: StammtischGame) -> None:
        super().__init__(game)
        self.engine = Engine(game.table)

    @property
    def _table(self) -> Table:
        return self.engine.table

    def current_player(self) -> int:
        state = self.engine.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._table.game.is_over(state):
            return int(pyspiel.PlayerId.TERMINAL)
        return self._table.game.to_act(state)[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1 / DEAL_OUTCOMES) for byte in range(DEAL_OUTCOMES)] if self.engine.state is None else []

    def _legal_actions(self, player: int) -> list[int]:
        encode = self._table.codec.encode
        return sorted(encode(action) for action in self._table.game.legal_actions(self.engine.state, player))

    def _apply_action(self, action: int) -> None:
        state = self.engine.state
        if state is None:
            self.engine.draw(action)
            return
        seat = self._table.game.to_act(state)[0]
        self._table.game.apply(state, seat, self._table.codec.decode(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {len(self.engine.deal) + 1} of {DEAL_DRAWS}: {action}"
        return json.dumps(action_to_json(self._table.codec.decode(action)), separators=(",", ":"))

    def is_terminal(self) -> bool:
        return self.engine.state is not None and self._table.game.is_over(self.engine.state)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._table.players
        return self._table.returns(self.engine.state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StammtischState:
        """A state ``player_id`` cannot tell from this one, hidden parts drawn by ``Game.resample``
        from a generator seeded by ``probability_sampler``."""
        if self.engine.state is None:
            raise ValueError("nothing to resample before the deal")
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = self.clone()
        sample.engine = Engine(self._table, self.engine.deal, self._table.game.resample(self.engine.state, player_id,
                                                                                        rng))
        return sample

    def view_string(self, player: int | None) -> str:
        """The view of ``player`` (None: a spectator's) as sorted JSON: the observation string ("" before
        the deal)."""
        if self.engine.state is None:
            return ""
        return json.dumps(self._table.game.view(self.engine.state, player), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        if self.engine.state is None:
            return f"deal {list(self.engine.deal)}"
        return json.dumps(self._table.game.to_json(self.engine.state), separators=(",", ":"))


class ViewObserver:
    """Tensor and string of a seat's view (``seat_view``) or of a spectator's (only public information);
    zeros and "" before the deal."""

    def __init__(self, table: Table, seat_view: bool) -> None:
        self.table = table
        self.seat_view = seat_view
        self.tensor = np.zeros(table.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StammtischState, player: int) -> None:
        if state.engine.state is None:
            self.tensor[:] = 0.0
            return
        view = self.table.game.view(state.engine.state, player if self.seat_view else None)
        self.tensor[:] = self.table.layout.encode(view)

    def string_from(self, state: StammtischState, player: int) -> str:
        return state.view_string(player if self.seat_view else None)


def _register(name: str) -> None:
    # A class rather than a closure: OpenSpiel's registry keeps its creator until the process ends,
    # and a closure freed then (without the interpreter) aborts the process.
    creator = type(f"StammtischGame_{name}", (StammtischGame,), {"game_name": name})
    if short_name(name) not in pyspiel.registered_names():
        pyspiel.register_game(game_type(name), creator)


for _name in games():
    _register(_name)


def load(game: Game[Any], rewards: str = "win") -> StammtischGame:
    """The OpenSpiel game of a Stammtisch game's table."""
    params = {"players": game.num_players, "rewards": rewards, "options": json.dumps(game.options)}
    loaded: StammtischGame = pyspiel.load_game(short_name(game.name), params)
    return loaded


def state_of(loaded: StammtischGame, state: Any) -> StammtischState:
    """An OpenSpiel state holding a copy of an engine state (its history, the deal included, is not known)."""
    wrapped = loaded.new_initial_state()
    wrapped.engine = Engine(loaded.table, (), loaded.table.game.copy(state))
    return wrapped


class OpenSpielBot:
    """An OpenSpiel bot as a Stammtisch search bot (``stammtisch.bots.base.SearchBot``): it decides in
    the state resampled from its seat's knowledge that ``bots.base.decide`` hands it.

    ``make_bot(game, seed)`` builds the OpenSpiel bot for a table's OpenSpiel game, once per table."""

    def __init__(self, make_bot: Callable[[StammtischGame, int], Any], seed: int = 0) -> None:
        self.make_bot = make_bot
        self.seed = seed
        self._tables: dict[tuple[str, int, str], tuple[StammtischGame, Any]] = {}

    def choose_in(self, game: Game[Any], knowledge: Any, seat: int, legal: list[Action]) -> Action:
        key = (game.name, game.num_players, json.dumps(game.options, sort_keys=True))
        if key not in self._tables:
            loaded = load(game)
            self._tables[key] = (loaded, self.make_bot(loaded, self.seed))
        loaded, bot = self._tables[key]
        action = loaded.table.codec.decode(int(bot.step(state_of(loaded, knowledge))))
        if action not in legal:
            raise ValueError(f"the OpenSpiel bot chose {action!r}, which {seat} may not take now")
        return action


def numpy_random(seed: int) -> np.random.RandomState:
    """The generator OpenSpiel's bots take, for any seed: numpy's legacy seeding takes 32 bits, and a
    tournament's bot seeds (``bots.base.bot_seed``) grow past them from base seed 68 on."""
    return np.random.RandomState(seed if 0 <= seed < 2**32 else np.random.MT19937(seed))


def ismcts(simulations: int = 100, rollouts: int = 1, seconds: float | None = None, rollout: str = "random"
           ) -> Callable[[StammtischGame, int], Any]:
    """A maker of OpenSpiel's information-set MCTS (rollouts to the end, UCT constant 2): ``simulations``
    per decision, or as many as ``seconds`` of CPU time allow; ``rollout`` is "random" (OpenSpiel's
    ``RandomRolloutEvaluator``) or a bot kind of the game that plays every seat of the rollouts
    (``BotRolloutEvaluator``, whose prior the search follows: ``Search``'s ``by_prior``)."""

    def make(loaded: StammtischGame, seed: int) -> Search:
        rng = numpy_random(seed)
        if rollout == "random":
            return Search(loaded, mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng), 2.0, simulations,
                          seconds, rng)
        return Search(loaded, BotRolloutEvaluator(loaded, rollout, seed, rollouts), 2.0, simulations, seconds, rng,
                      by_prior=True)
    return make


class BotRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's rollout evaluator with one of the game's bots (the heuristic) playing every seat to
    the end of the game, in the search's own sample (the state the tree reached from a
    ``resample_from_infostate`` root): each move decided from the seat's part of that sample's view
    (``bots.ismcts.BotPolicy``: ``choose_in_sample``, or the seat's view).  The prior is the bot's
    own preferences over the legal actions as a softmax (``bots.noisy.softmax``, temperature 1), read
    from the seat's view of the sample; uniform for a bot without preferences."""

    def __init__(self, loaded: StammtischGame, kind: str, seed: int, rollouts: int = 1) -> None:
        from stammtisch.bots.ismcts import BotPolicy

        self.table = loaded.table
        self.policy = BotPolicy(game_spec(loaded.table.game.name).bot(kind, seed))
        self.rng = random.Random(seed)
        self.rollouts = rollouts

    def evaluate(self, state: StammtischState) -> np.ndarray:
        game = self.table.game
        total = np.zeros(self.table.players)
        for _rollout in range(self.rollouts):
            work = game.copy(state.engine.state)
            while not game.is_over(work):
                seat = game.to_act(work)[0]
                game.apply(work, seat, self.policy(game, work, seat, game.legal_actions(work, seat), self.rng))
            total += np.array(self.table.returns(work))
        return total / self.rollouts

    def prior(self, state: StammtischState) -> list[tuple[int, float]]:
        from stammtisch.bots.noisy import softmax

        game, seat, sample = self.table.game, state.current_player(), state.engine.state
        legal = game.legal_actions(sample, seat)
        preferences = getattr(self.policy.bot, "preferences", None)
        chances = (softmax(preferences(game.view(sample, seat), legal), 1.0) if preferences is not None
                   else [1.0 / len(legal)] * len(legal))
        return [(self.table.codec.encode(action), p) for action, p in zip(legal, chances, strict=True)]


class _TimeUp(Exception):
    """The CPU budget of a timed search is spent; raised between two simulations."""


MIN_SIMULATIONS = 2  # of a timed search: the first only expands the root


class Search(ismcts_search.ISMCTSBot):
    """OpenSpiel's ``ISMCTSBot`` as it is, but for three things (and, with ``by_prior``, two more:
    a node opens its untried actions in the order of the evaluator's prior, not at random, and the
    most visited action wins ties by the prior, so that a search of a few simulations plays the
    prior's favourite rather than a random move):

    - with ``seconds``, a CPU-time budget per decision instead of a number of simulations (at least
      two).  OpenSpiel draws a root sample before each simulation; the budget is checked there, so a
      search stops between simulations, never inside one;
    - root samples come from ``resample_from_infostate`` with the bot's own generator (OpenSpiel's
      default sampler has a seed of its own), so a search is reproducible;
    - the information state key is the seat's view as JSON read from the state directly, the
      same string OpenSpiel's ``observation_string`` gives without setting up an observer.

    The view decides the seat's legal actions (a game's view names whatever does, such as a card
    swapped in last that may not go out again), so one information state never shows two action sets and OpenSpiel's
    ``allow_inconsistent_action_sets`` is not needed."""

    def __init__(self, game: StammtischGame, evaluator: Any, uct_c: float, simulations: int,
                 seconds: float | None, rng: np.random.RandomState, by_prior: bool = False) -> None:
        super().__init__(game, evaluator, uct_c, simulations if seconds is None else 2**62, random_state=rng)
        self.seconds = seconds
        self.by_prior = by_prior
        self.simulations = 0
        self._deadline = 0.0
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))

    def get_state_key(self, state: StammtischState) -> tuple[int, str]:
        player = state.current_player()
        return player, state.view_string(player)

    def run_search(self, state: StammtischState) -> Any:
        self.simulations = 0
        if self.seconds is None:
            return super().run_search(state)
        self._deadline = time.process_time() + self.seconds
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)

    def check_expand(self, node: Any, legal_actions: list[int]) -> int:
        """``by_prior``: the untried action the evaluator's prior likes best, not a random one."""
        untried = [action for action in legal_actions if action not in node.child_info]
        if not self.by_prior or not untried:
            return int(super().check_expand(node, legal_actions))
        return max(untried, key=lambda action: node.prior_map.get(action, 0.0))

    def get_final_policy(self, state: StammtischState, node: Any) -> list[tuple[int, float]]:
        """``by_prior``: the most visited action, among equals the one the prior likes best."""
        if not self.by_prior:
            return list(super().get_final_policy(state, node))
        best = max(node.child_info, key=lambda a: (node.child_info[a].visits, node.prior_map.get(a, 0.0)))
        return [(action, 1.0 if action == best else 0.0) for action in state.legal_actions()]

    def sample_root_state(self, state: StammtischState) -> StammtischState:
        if (self.seconds is not None and self.simulations >= MIN_SIMULATIONS
                and time.process_time() >= self._deadline):
            raise _TimeUp
        self.simulations += 1
        sample: StammtischState = super().sample_root_state(state)
        return sample


class ISMCTSBot(OpenSpielBot):
    """OpenSpiel's ISMCTS as a Stammtisch bot kind ("module:Class" taking a seed), 100 simulations."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(ismcts(), seed)


class HardTimedISMCTSBot(OpenSpielBot):
    """OpenSpiel's ISMCTS with the game's heuristic bot playing its rollouts, at the CPU time per
    decision of our hard bot: the tournament's outside reference ``openspiel-ismcts``
    (tournament/outside.py); ``openspiel-ismcts@S`` gives it S seconds (``tune``)."""

    parameter = "seconds"

    def __init__(self, seed: int = 0) -> None:
        from stammtisch.bots.strengths import HardBot

        seconds = HardBot.settings.seconds
        self.seconds = seconds if seconds is not None else 0.2
        super().__init__(ismcts(seconds=self.seconds, rollout="heuristic"), seed)

    def tune(self, seconds: float) -> None:
        self.seconds = seconds
        self.make_bot = ismcts(seconds=seconds, rollout="heuristic")
        self._tables.clear()
