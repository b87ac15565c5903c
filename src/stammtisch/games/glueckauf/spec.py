"""Glück Auf as the rest of Stammtisch finds it (entry point ``stammtisch.games``: registry.py)."""

from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.i18n import N_
from stammtisch.registry import About, GameSpec, Scoring

SPEC = GameSpec(
    name="glueckauf",
    title=N_("Glück Auf"),
    game=GlueckAuf,
    rules_version=1,  # bump on every change that can alter a game (docs/operations.md)
    default_players=2,
    text="stammtisch.games.glueckauf.text",
    terminal="stammtisch.games.glueckauf.terminal",
    browser="glueckauf.js",
    browser_texts="stammtisch.games.glueckauf.browser:TEXTS",
    rules_page="stammtisch.games.glueckauf.rules_page:RULES",
    guide="stammtisch.games.glueckauf.guide:GUIDE",
    judge="stammtisch.games.glueckauf.judge:JUDGE",
    conformance="stammtisch.games.glueckauf.conformance",
    round_of="stammtisch.games.glueckauf.view:round_of",
    scoring=Scoring(("shift_ends",), N_("Previous shift scoring"), N_("Next shift scoring")),
    bots={"heuristic": "stammtisch.games.glueckauf.bot:HeuristicBot",
          "easy": "stammtisch.bots.strengths:EasyBot",
          "normal": "stammtisch.bots.strengths:NormalBot",
          "hard": "stammtisch.bots.strengths:HardBot"},
    bench=tuple((n, {}) for n in (2, 3, 4)),
    about=About(
        summary=N_("Coal mining in the Ruhr: place your workers, extend your mine with tunnel tiles and deliver coal "
                   "to fill orders."),
        length=N_("45 to 90 minutes"),
        complexity=3,  # BoardGameGeek: 2.6 of 5
        round_name=N_("Shift {round} of {rounds}"),
        rounds="stammtisch.games.glueckauf.view:rounds",
    ),
)
