"""Goofspiel as the rest of Stammtisch finds it (the entry point in pyproject.toml; stammtisch/registry.py)."""

from __future__ import annotations

from stammtisch.i18n import N_
from stammtisch.registry import About, GameSpec
from stammtisch_goofspiel.rules import Goofspiel

SPEC = GameSpec(
    name="goofspiel",
    title=N_("Goofspiel"),
    game=Goofspiel,
    default_players=3,
    text="stammtisch_goofspiel.text",
    terminal="stammtisch_goofspiel.terminal",
    browser="goofspiel.js",
    browser_files="stammtisch_goofspiel",  # its static/ holds goofspiel.js and goofspiel.css
    catalog="stammtisch_goofspiel",  # its locale/ holds its translations
    browser_texts="stammtisch_goofspiel.browser:TEXTS",
    rules_page="stammtisch_goofspiel.rules_page:RULES",
    bots={"heuristic": "stammtisch_goofspiel.bot:HeuristicBot", "easy": "stammtisch.bots.strengths:EasyBot"},
    conformance="stammtisch_goofspiel.conformance",
    about=About(summary=N_("Bid your cards, all at once and unseen, for thirteen prizes."),
                length=N_("About 10 minutes."), complexity=1, round_name=N_("Prize {round} of {rounds}"),
                rounds="stammtisch_goofspiel.view:rounds"),
    round_of="stammtisch_goofspiel.view:round_of",
)
