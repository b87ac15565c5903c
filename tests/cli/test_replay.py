from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import Result, final_table, run_cli


def test_replay_all_reproduces_the_final_scores(auto_game: tuple[Result, Path]) -> None:
    played, record_file = auto_game
    result = run_cli("replay", str(record_file), "--all")
    assert result.returncode == 0, result.stderr
    assert final_table(result.stdout) == final_table(played.stdout)
    assert "watching as a spectator" in result.stdout
    assert "Move 1: seat 0 (CDU/CSU) acts" in result.stdout


def test_spectator_sees_public_events_only(auto_game: tuple[Result, Path]) -> None:
    _played, record_file = auto_game
    spectator = run_cli("replay", str(record_file), "--all").stdout
    seat0 = run_cli("replay", str(record_file), "--all", "--seat", "0").stdout
    assert "Your draft hand" not in spectator and "Your draft hand" in seat0
    assert "Move 1: seat 0 (CDU/CSU) (you): Pick " in seat0
    assert "Move 2: seat 1 (SPD) acts" in seat0  # another seat's sealed pick stays secret


def test_stepping_advances_on_enter_and_stops_on_q(auto_game: tuple[Result, Path]) -> None:
    _played, record_file = auto_game
    result = run_cli("replay", str(record_file), stdin="\n\nq\n")
    assert result.returncode == 0, result.stderr
    assert "Move 2:" in result.stdout and "Move 3:" not in result.stdout
    assert result.stdout.count("Enter: next move") == 3
    assert "Parties" in result.stdout  # the table is shown at each stop
    skipped = run_cli("replay", str(record_file), stdin="\n5\nq\n")
    assert "Move 6:" in skipped.stdout and "Move 7:" not in skipped.stdout


def test_corrupt_record_names_the_line_and_exits_2(auto_game: tuple[Result, Path], tmp_path: Path) -> None:
    _played, record_file = auto_game
    lines = record_file.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([*lines[:4], '{"seat": 0, "action": oops', *lines[5:]]) + "\n", encoding="utf-8")
    result = run_cli("replay", str(broken), "--all")
    assert result.returncode == 2
    assert "corrupt record" in result.stderr and "line 5: not a move" in result.stderr
    assert "Traceback" not in result.stderr

    illegal = tmp_path / "illegal.jsonl"
    illegal.write_text("\n".join([*lines[:2], '{"seat": 1, "action": ["bid", 99]}', *lines[3:]]) + "\n",
                       encoding="utf-8")
    result = run_cli("replay", str(illegal), "--all")
    assert result.returncode == 2 and "line 3: move ('bid', 99) of seat 1 cannot be replayed" in result.stderr


def test_missing_record_is_a_clear_error(tmp_path: Path) -> None:
    result = run_cli("replay", str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2 and "cannot read" in result.stderr and "Traceback" not in result.stderr
