"""Rendering in every language: whole random games of both games, known sentences, the CLI."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stammtisch import i18n
from stammtisch.engine.protocol import Event
from stammtisch.engine.step import step
from stammtisch.games.diemacher import text as dm_text
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.terminal import render_final, render_view
from stammtisch.games.glueckauf import text as ga_text
from stammtisch.games.glueckauf.rules import GlueckAuf

LANGUAGES = i18n.available_languages()
TRANSLATED = [code for code in LANGUAGES if code != i18n.SOURCE_LANGUAGE]


def play_die_macher(seed: int, players: int, elections: int) -> list[tuple[str, str]]:
    """Every event and every legal action of one random game, rendered in the current language."""
    from rich.console import Console

    console = Console(file=open(os.devnull, "w"), width=160)  # noqa: SIM115 - closed with the console
    game = DieMacher(players, {"elections": elections})
    state, events = game.new_state(seed)
    rng = random.Random(seed)
    texts: list[tuple[str, str]] = []
    while True:
        view = game.view(state, 0)
        texts += [(event.kind, dm_text.describe_event(event, view, None)) for event in events]
        if game.is_over(state):
            console.print(render_view(view, game.describe()), render_final(view, game.describe()) or "")
            break
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        seat_view = game.view(state, seat)
        texts += [(str(action[0]), dm_text.describe_action(action, seat_view, None)) for action in legal]
        if rng.random() < 0.05:
            console.print(render_view(seat_view, game.describe()))
        events = step(game, state, seat, rng.choice(legal))
    console.file.close()
    return texts


def play_glueck_auf(seed: int, players: int) -> list[tuple[str, str]]:
    game = GlueckAuf(players)
    state, events = game.new_state(seed)
    rng = random.Random(seed)
    names = [f"P{seat}" for seat in range(players)]
    texts: list[tuple[str, str]] = []
    while True:
        texts += [(event.kind, ga_text.describe_event(event, None, names)) for event in events]
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        texts += [(str(action[0]), ga_text.describe_action(action, None, None)) for action in legal]
        events = step(game, state, seat, rng.choice(legal))
    return texts


@pytest.mark.parametrize("code", LANGUAGES)
def test_whole_games_render_in_every_language(code: str) -> None:
    i18n.set_language(code)
    texts = play_die_macher(3, 3, 4) + play_die_macher(4, 5, 7) + play_glueck_auf(2, 2) + play_glueck_auf(5, 4)
    assert len(texts) > 1000
    for kind, sentence in texts:
        assert sentence and "{" not in sentence and "}" not in sentence, (kind, sentence)
    if code != i18n.SOURCE_LANGUAGE:
        i18n.set_language("en")
        english = play_die_macher(3, 3, 4)
        i18n.set_language(code)
        translated = play_die_macher(3, 3, 4)
        assert len(english) == len(translated)
        differ = sum(1 for (_k, a), (_k2, b) in zip(english, translated, strict=True) if a != b)
        assert differ > 0.9 * len(english), f"only {differ} of {len(english)} texts differ from English"


def conversion_view() -> tuple[Event, dict[str, Any]]:
    game = DieMacher(3, {"parties": ["SPD", "CDU", "FDP"]})
    state, _ = game.new_state(1)
    state.boards[1].card = next(i for i, s in enumerate(game.edition.states) if s.id == "NDS")
    event = Event("rallies_converted", {"seat": 0, "board": 1, "rallies": 8, "trend": 4, "base": 12, "matches": 3,
                                        "mult": 3, "votes": 36, "total": 40})
    return event, game.view(state, 0)


@pytest.mark.parametrize(("code", "expected"), [
    ("en", "SPD converts 8 rallies in Niedersachsen: (8 + 4) × 3 = 36 votes"),
    ("de", "SPD wandelt 8 Wahlveranstaltungen in Niedersachsen um: (8 + 4) × 3 = 36 Stimmen"),
    ("pl", "SPD zamienia Wiece w Niedersachsen na głosy: (8 + 4) × 3 = 36 głosów"),
    ("it", "SPD trasforma 8 Convegni in Voti a Niedersachsen: (8 + 4) × 3 = 36 Voti"),
    ("ko", "SPD, Niedersachsen에서 전당대회 8개를 득표수로 변환: (8 + 4) × 3 = 36표"),
])
def test_the_conversion_sentence(code: str, expected: str) -> None:
    event, view = conversion_view()
    i18n.set_language(code)
    assert dm_text.describe_event(event, view, None) == expected


@pytest.mark.parametrize(("code", "politician", "topic", "money"), [
    ("de", "Hinterbänkler", "Sozialstaat", "5.000 €"),
    ("pl", "Poseł", "opieka społeczna", "5000 €"),
    ("it", "Parlamentare", "Welfare", "5.000 €"),
    ("ko", "평의원", "복지국가", "5,000유로"),
])
def test_rulebook_terms(code: str, politician: str, topic: str, money: str) -> None:
    i18n.set_language(code)
    assert dm_text.politician_name("backbencher") == politician
    assert dm_text.card_name(8) == "+" + topic
    assert dm_text.money(5000) == money


def test_plurals_follow_the_language() -> None:
    i18n.set_language("pl")
    orders = {n: ga_text._orders(n) for n in (1, 2, 5, 22, 25)}
    assert orders == {1: "1 zamówienie", 2: "2 zamówienia", 5: "5 zamówień", 22: "22 zamówienia", 25: "25 zamówień"}
    i18n.set_language("de")
    assert (ga_text._orders(1), ga_text._orders(3)) == ("1 Auftrag", "3 Aufträge")


def test_switching_language_switches_later_texts() -> None:
    i18n.set_language("de")
    assert dm_text.phase_name("rallies") == "4 Wahlveranstaltungen organisieren"
    i18n.set_language("it")
    assert dm_text.phase_name("rallies") == "4 Organizzare Convegni Elettorali"
    i18n.set_language("en")
    assert dm_text.phase_name("rallies") == "4 Organize Party Rallies"


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"unknown language 'xx'; choose one of en .*de .*pl .*it .*ko"):
        i18n.set_language("xx")
    assert i18n.current_language() == "en"


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANG": "pl_PL.UTF-8"}, "pl"),
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "pl_PL.UTF-8"}, "de"),
    ({"LC_MESSAGES": "it_IT", "LANG": "en_US.UTF-8"}, "it"),
    ({"LANGUAGE": "fr:ko", "LANG": "de_DE.UTF-8"}, "ko"),
    ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({}, "en"),
])
def test_language_from_environment(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT_VARIABLES}
    environ.update(COLUMNS="200", NO_COLOR="1", PYTHONIOENCODING="utf-8", **(env or {}))
    return subprocess.run([sys.executable, "-m", "stammtisch", *args], capture_output=True, text=True,
                          encoding="utf-8", env=environ, timeout=60, check=False)


def test_cli_plays_a_whole_game_in_polish(tmp_path: Path) -> None:
    result = run_cli("--lang", "pl", "play", "diemacher", "--auto", "--players", "3", "--seed", "1",
                     "--records", str(tmp_path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for term in ("Wiec", "Elektorat", "Sondaż", "notowania", "Punktacja końcowa (punkty zwycięstwa według źródła)",
                 "zamienia Wiece w", "Runda 4 z 4", "Zapis partii zachowano w"):
        assert term in out, term
    assert " rallies " not in out and "Final scores" not in out


def test_cli_language_from_the_environment_and_after_the_command(tmp_path: Path) -> None:
    by_env = run_cli("play", "glueckauf", "--auto", "--seed", "2", "--records", str(tmp_path),
                     env={"LANG": "de_DE.UTF-8"})
    assert by_env.returncode == 0, by_env.stderr
    assert "Spieler 1" in by_env.stdout and "Schicht 1 beginnt" in by_env.stdout
    after = run_cli("simulate", "glueckauf", "--players", "2", "--games", "2", "--lang", "it",
                    env={"LANG": "de_DE.UTF-8"})
    assert after.returncode == 0, after.stderr
    assert "Per posto" in after.stdout


def test_cli_help_and_errors_are_translated() -> None:
    help_text = run_cli("--lang", "ko", "play", "--help").stdout
    assert "사용법:" in help_text and "인원수" in help_text and "--lang CODE" in help_text
    top = run_cli("--lang", "de", "--help").stdout
    assert "Befehle" in top and "--lang CODE" in top
    wrong = run_cli("--lang", "xx", "play", "diemacher")
    assert wrong.returncode == 2
    assert "unknown language 'xx'; choose one of en, de, pl, it, ko" in wrong.stderr
    error = run_cli("--lang", "pl", "play", "diemacher", "--seat", "9", "--auto")
    assert error.returncode == 2 and "--seat musi być miejscem od 0 do 2, a nie 9" in error.stderr
