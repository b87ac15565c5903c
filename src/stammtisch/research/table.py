"""What both research adapters share: one table (game, codec, observation layout) and its rewards."""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from rich.console import Console

from stammtisch.engine.codec import ActionCodec
from stammtisch.engine.protocol import Game
from stammtisch.registry import GameSpec, game_spec
from stammtisch.research.observation import Layout, layout_for

REWARDS = ("scores", "win")


class Table:
    """A game at a table (player count and options) with its action codec and observation layout.

    ``rewards`` is ``"scores"`` (each seat's final points) or ``"win"`` (1 for every seat with the
    most points, 0 for the others)."""

    def __init__(self, game: str, players: int | None = None, options: Mapping[str, Any] | None = None,
                 rewards: str = "scores") -> None:
        if rewards not in REWARDS:
            raise ValueError(f"rewards must be one of {', '.join(REWARDS)}, not {rewards!r}")
        self.spec: GameSpec = game_spec(game)
        self.game: Game[Any] = self.spec.make(players or self.spec.default_players, options)
        self.players = self.game.num_players
        self.codec: ActionCodec = self.game.action_codec(self.players, self.game.options)
        self.rewards = rewards

    @cached_property
    def layout(self) -> Layout:
        """Built at the first tensor asked for (it plays probe games): searches read strings only."""
        return layout_for(self.game)

    def returns(self, state: Any) -> list[float]:
        """Each seat's reward once the game is over."""
        if self.rewards == "win":
            winners = self.game.winners(state)
            return [1.0 if seat in winners else 0.0 for seat in range(self.players)]
        return [float(points) for points in self.game.scores(state)]

    def render(self, state: Any, width: int = 120) -> str:
        """The spectator's board (nothing hidden shown) through the game's terminal renderer."""
        terminal = self.spec.terminal_module()
        view = self.game.view(state, None)
        described = self.game.describe()
        console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False)
        console.print(terminal.render_view(view, described))
        final = terminal.render_final(view, described) if self.game.is_over(state) else None
        if final is not None:
            console.print(final)
        text: str = console.file.getvalue()  # type: ignore[attr-defined]
        return text
