"""Die Macher as the rest of Stammtisch finds it (entry point ``stammtisch.games``: registry.py)."""

from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.i18n import N_
from stammtisch.registry import About, GameSpec, Scoring

SPEC = GameSpec(
    name="diemacher",
    title=N_("Die Macher"),
    game=DieMacher,
    rules_version=1,  # bump on every change that can alter a game (docs/operations.md)
    default_players=3,
    text="stammtisch.games.diemacher.text",
    terminal="stammtisch.games.diemacher.terminal",
    browser="diemacher.js",
    browser_texts="stammtisch.games.diemacher.browser:TEXTS",
    rules_page="stammtisch.games.diemacher.rules_page:RULES",
    guide="stammtisch.games.diemacher.guide:GUIDE",
    judge="stammtisch.games.diemacher.judge:JUDGE",
    conformance="stammtisch.games.diemacher.conformance",
    round_of="stammtisch.games.diemacher.view:round_of",
    scoring=Scoring(("election",), N_("Previous election"), N_("Next election")),
    bots={"heuristic": "stammtisch.games.diemacher.bot:HeuristicBot",
          "easy": "stammtisch.bots.strengths:EasyBot",
          "normal": "stammtisch.bots.strengths:NormalBot",
          "hard": "stammtisch.bots.strengths:HardBot"},
    bench=tuple((n, {"elections": e}) for e in (4, 7) for n in (3, 4, 5)),
    outcomes="stammtisch.games.diemacher.text:OUTCOMES",
    about=About(
        summary=N_("German politics: campaign in the federal states with party programs, media, rallies and money, "
                   "and win their elections."),
        length=N_("About 3 hours with 4 elections, 4 to 5 hours with 7"),
        complexity=4,  # BoardGameGeek: 4.3 of 5
        round_name=N_("Round {round} of {rounds}"),
        rounds="stammtisch.games.diemacher.view:rounds",
    ),
)
