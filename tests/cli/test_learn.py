"""``stammtisch learn``: the guided first game in the terminal, with scripted input. Every step it reaches is
printed once, with the pieces it talks about; a result says why; the game left with q resumes at the same step;
``--lang`` speaks the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

from stammtisch.engine.record import parse_record
from stammtisch.guide import Guide
from stammtisch.registry import game_spec
from tests.cli.helpers import run_cli

TITLE = re.compile(r"Learn to play · Step (\d+): ([^─\n]+?) ─")


def guide(game: str) -> Guide:
    found: Guide = game_spec(game).guide_script()
    return found


def titles(output: str) -> list[str]:
    return [m.group(2) for m in TITLE.finditer(output)]


def test_a_whole_guided_game_of_glueck_auf(tmp_path: Path) -> None:
    result = run_cli("learn", "glueckauf", "--records", str(tmp_path), stdin="1\n" * 600, timeout=300)
    assert result.returncode == 0, result.stderr
    shown = titles(result.stdout)
    assert len(shown) == len(set(shown)), "a step printed twice"
    numbers = [int(m.group(1)) for m in TITLE.finditer(result.stdout)]
    assert numbers == list(range(1, len(shown) + 1)), "steps numbered by the order reached, without gaps"
    assert shown[0] == "Drafting orders" and shown[-1] == "Game over"
    assert {"Placing workers", "Mining", "Shift scoring"} <= set(shown)
    assert "Look at: Your order cards; The stage line: shift, turn and phase" in result.stdout
    assert re.search(r"Why: This shift scored: .*VP", result.stdout.replace("│", "").replace("\n", " "))
    assert "Final scores" in result.stdout or "Game over" in result.stdout
    record = parse_record((tmp_path / "learn-glueckauf.jsonl").read_text(encoding="utf-8"))
    assert record.header.seed == guide("glueckauf").seed and record.header.options["guide"] is True
    assert record.header.players == 2


def test_a_guided_game_left_resumes_at_the_same_step(tmp_path: Path) -> None:
    first = run_cli("learn", "diemacher", "--records", str(tmp_path), stdin="1\n" * 5 + "q\nq\n", timeout=120)
    assert first.returncode == 0, first.stderr
    assert "To play on: stammtisch learn diemacher" in first.stdout
    record_file = tmp_path / "learn-diemacher.jsonl"
    moves = len(parse_record(record_file.read_text(encoding="utf-8")).moves)
    last = titles(first.stdout)[-1]
    again = run_cli("learn", "diemacher", "--records", str(tmp_path), stdin="q\nq\n", timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"Resumed after {moves} moves." in again.stdout
    assert titles(again.stdout) == [last]  # the step reached, again; no other
    fresh = run_cli("learn", "diemacher", "--new", "--records", str(tmp_path), stdin="q\nq\n", timeout=120)
    assert "Resumed" not in fresh.stdout and titles(fresh.stdout)[0] == "Program draft"


def test_the_guide_speaks_the_readers_language(tmp_path: Path) -> None:
    result = run_cli("--lang", "de", "learn", "glueckauf", "--records", str(tmp_path), stdin="q\nq\n")
    assert result.returncode == 0, result.stderr
    assert "Spiel lernen · Schritt 1:" in result.stdout
    assert "Schau auf: Deine Auftragskarten" in result.stdout


def test_learn_is_a_command() -> None:
    result = run_cli("--help")
    assert "learn" in result.stdout
    refused = run_cli("learn", "chess")
    assert refused.returncode != 0 and "invalid choice" in refused.stderr
