"""Every registered game as a PettingZoo AEC environment (docs/research.md).

Agents are the seats (``seat_0`` …).  The acting agent is the first seat the engine lists in
``to_act``; during a sealed decision the seats still to commit take their turns one after another,
and as the games' views never show a sealed choice before its reveal, no agent sees another's.
Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the seat's view
encoded by the table's layout (research/observation.py) and the action codec's mask (zeros when
the seat is not to act).  ``state()`` is every seat's observation in seat order.  Rewards come once,
when the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stammtisch.engine.match import Match
from stammtisch.research.table import Table

RENDER_MODES = ("ansi", "human")


def env(game: str, players: int | None = None, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, rewards: str = "scores") -> StammtischEnv:
    """An AEC environment of ``game`` at a table of ``players`` with the game's table ``options``."""
    return StammtischEnv(Table(game, players, options, rewards), render_mode)


class StammtischEnv(AECEnv[str, dict[str, np.ndarray], int]):
    metadata = {"render_modes": list(RENDER_MODES), "name": "stammtisch_v1", "is_parallelizable": False}

    def __init__(self, table: Table, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.table = table
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(table.players)]
        self.metadata = {**self.metadata, "name": f"stammtisch_{table.game.name}_v1",
                         "observation_digest": table.layout.digest, "codec_digest": table.codec.digest}
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (table.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (table.codec.size,), np.int8),
        })
        action = spaces.Discrete(table.codec.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self.state_space = spaces.Box(-np.inf, np.inf, (table.players * table.layout.size,), np.float32)
        self._seeds = np.random.default_rng()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.match = Match(self.table.game, int(self._seeds.integers(2**31)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._acting()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        match = self._match()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.table.codec.size, np.int8)
        if seat in match.to_act():
            mask[:] = np.frombuffer(self.table.codec.mask(match.state, seat), np.int8)
        return {"observation": self.table.layout.encode(match.view(seat)), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state for centralised training: every seat's observation, seat 0 first, so all
        that any seat knows (what no seat knows, such as the order of the decks, is not in it)."""
        match = self._match()
        return np.concatenate([self.table.layout.encode(match.view(seat)) for seat in range(self.table.players)])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._match()
        seat = self.possible_agents.index(agent)
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        match.act(seat, self.table.codec.decode(int(action)))  # strict: an illegal action raises, nothing changes
        self._cumulative_rewards[agent] = 0.0
        if match.is_over():
            returns = self.table.returns(match.state)
            self.rewards = {name: returns[index] for index, name in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._acting()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.render(self._match().state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.match = None

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _acting(self) -> str:
        return self.possible_agents[self._match().to_act()[0]]
