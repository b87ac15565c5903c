"""A game in progress: the game, its state and its record, advanced only through ``step``."""

from __future__ import annotations

from typing import Any

from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.record import Header, Record
from stammtisch.engine.step import step


class Match:
    def __init__(self, game: Game[Any], seed: int, names: list[str] | None = None) -> None:
        self.game = game
        self.state, self.setup_events = game.new_state(seed)
        self.record = Record(Header(game.name, game.num_players, dict(game.options), seed, list(names or [])))
        self.events: list[Event] = list(self.setup_events)

    def act(self, seat: Seat, action: Action) -> list[Event]:
        events = step(self.game, self.state, seat, action)
        self.record.moves.append((seat, action))
        self.events.extend(events)
        return events

    def to_act(self) -> list[Seat]:
        return self.game.to_act(self.state)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return self.game.legal_actions(self.state, seat)

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)
