"""Stammtisch: Die Macher and Glück Auf on one deterministic game engine."""

__version__ = "0.1.0"
