"""Every table the research adapters are tested at: each player count of each registered game."""

from stammtisch.registry import games

TABLES = [(name, players) for name, spec in games().items()
          for players in range(spec.min_players, spec.max_players + 1)]
IDS = [f"{name}-{players}" for name, players in TABLES]
