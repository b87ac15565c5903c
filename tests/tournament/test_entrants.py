"""Entrants with their own budget (``hard@0.2``), ``--budget`` per kind, and the reference kinds that
only tournaments seat (tournament/entrants.py, tournament/outside.py; issue 27 item 3)."""

from __future__ import annotations

from typing import Any

import pytest

from stammtisch.bots.base import RandomBot
from stammtisch.bots.ismcts import SearchingBot
from stammtisch.bots.noisy import TEMPERATURE, NoisyBot
from stammtisch.bots.strengths import HardBot, NormalBot
from stammtisch.registry import GameSpec, game_spec
from stammtisch.tournament import entrants, play, schedule
from stammtisch.tournament.schedule import TournamentError

MAKE = entrants.make


def made_bots(monkeypatch: pytest.MonkeyPatch, tournament: schedule.Plan, index: int) -> dict[str, Any]:
    """The bots ``play`` makes for game ``index``, by entrant (the game itself is played by random bots)."""
    made: dict[str, Any] = {}

    def recording(spec: GameSpec, name: str, seed: int, budget: Any = None) -> RandomBot:
        made[name] = MAKE(spec, name, seed, budget)
        return RandomBot(seed)

    monkeypatch.setattr(entrants, "make", recording)
    play.play(tournament, tournament.job(index))
    return made


def test_the_budget_is_passed_to_each_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = schedule.plan("glueckauf", 4, ["hard@0.2", "hard@1", "normal", "easy"], 4,
                               budgets={"normal": 0.3, "hard": 5.0})
    assert tournament.line_ups == (("hard@0.2", "hard@1", "normal", "easy"),)
    for index in range(tournament.games):
        bots = made_bots(monkeypatch, tournament, index)
        assert [type(bots[name]) for name in ("hard@0.2", "hard@1", "normal")] == [HardBot, HardBot, NormalBot]
        # An entrant's own budget wins over --budget's for its kind; a kind --budget does not name keeps its own.
        assert bots["hard@0.2"].settings.seconds == 0.2
        assert bots["hard@1"].settings.seconds == 1.0
        assert bots["normal"].settings.seconds == 0.3
        assert bots["easy"].settings == type(bots["easy"]).settings
        # Only the budget changes: the ladder's rungs are the same bot.
        assert bots["hard@1"].settings.playout == HardBot.settings.playout == "heuristic"
    assert HardBot.settings.seconds == 0.2 and NormalBot.settings.seconds == 0.1  # the strengths stay as they are


def test_the_entrants_are_the_kinds_the_tables_report(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = schedule.plan("glueckauf", 2, ["hard@0.5", "noisy@3"], 2)
    assert tournament.kinds() == ["hard@0.5", "noisy@3"]
    bots = made_bots(monkeypatch, tournament, 1)
    assert isinstance(bots["noisy@3"], NoisyBot) and bots["noisy@3"].temperature == 3.0
    assert isinstance(bots["hard@0.5"], SearchingBot) and bots["hard@0.5"].settings.seconds == 0.5


def test_the_noisy_reference_is_offered_by_the_tournament_only() -> None:
    for name in ("diemacher", "glueckauf"):
        assert "noisy" not in game_spec(name).bot_kinds()  # what lobby, play and the API offer
    bot = entrants.make(game_spec("diemacher"), "noisy", 3)
    assert isinstance(bot, NoisyBot) and bot.temperature == TEMPERATURE


@pytest.mark.parametrize(("bots", "budgets", "message"), [
    (["hard@fast", "heuristic"], {}, "must be a number above 0"),
    (["hard@0", "heuristic"], {}, "must be a number above 0"),
    (["heuristic@1", "random"], {}, "takes no budget"),
    (["hard", "heuristic"], {"normal": 1.0}, "normal, which does not play"),
    (["hard", "noisy"], {"noisy": 1.0}, "noisy does not search"),
    (["expert@1", "heuristic"], {}, "unknown bot kind 'expert'"),
])
def test_bad_entrants_and_budgets_are_named(bots: list[str], budgets: dict[str, float], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        schedule.plan("glueckauf", 3, bots, 3, budgets=budgets)


@pytest.mark.parametrize("text", ["hard", "hard=", "hard=-1", "hard=x", "hard@1=2"])
def test_a_bad_budget_argument_is_refused(text: str) -> None:
    with pytest.raises(entrants.EntrantError, match="KIND=SECONDS"):
        entrants.budgets(text)


def test_the_budget_argument() -> None:
    assert entrants.budgets("hard=1.0, normal=0.2") == {"hard": 1.0, "normal": 0.2}
    assert entrants.budgets(None) == {}
