"""The game-agnostic engine: protocol, seeded chance, strict steps, records and replay."""

from stammtisch.engine.protocol import Action, Event, Game, IllegalAction, Seat
from stammtisch.engine.record import ENGINE_VERSION
from stammtisch.engine.step import step

__all__ = ["ENGINE_VERSION", "Action", "Event", "Game", "IllegalAction", "Seat", "step"]
