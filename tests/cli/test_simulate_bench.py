from __future__ import annotations

from pathlib import Path

import pytest

import stammtisch
from stammtisch.cli.common import CliError, bot_kinds, make_bot, parse_options
from tests.cli.helpers import run_cli, table_rows


def test_simulate_prints_win_rates_scores_and_outcomes() -> None:
    args = ("simulate", "diemacher", "--players", "3", "--games", "3", "--bots", "heuristic,random,random",
            "--seed", "5")
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    seats = table_rows(result.stdout, "Per seat")
    assert [row[:2] for row in seats] == [["0", "heuristic"], ["1", "random"], ["2", "random"]]
    wins = [int(row[2]) for row in seats]
    assert 3 <= sum(wins) <= 9  # every game has at least one winner; shared wins count for each
    assert all(row[3].endswith("%") for row in seats)
    for row in seats:
        low, median, high = float(row[6]), float(row[7]), float(row[8])
        assert low <= float(row[5]) <= high and low <= median <= high
    kinds = table_rows(result.stdout, "Per bot kind")
    assert [(row[0], row[1]) for row in kinds] == [("heuristic", "3"), ("random", "6")]
    outcomes = {row[0]: int(row[1]) for row in table_rows(result.stdout, "Notable outcomes")}
    assert set(outcomes) <= {"sole", "several", "coalition", "no_coalition"}
    assert sum(outcomes.values()) == 3 * 4  # four elections per game
    assert run_cli(*args).stdout == result.stdout  # reproducible for a seed


def test_simulate_rejects_a_wrong_number_of_bots() -> None:
    result = run_cli("simulate", "diemacher", "--players", "3", "--games", "1", "--bots", "random,random")
    assert result.returncode == 2 and "2 bots for 3 seats" in result.stderr


def test_bench_reports_every_configuration_and_markdown() -> None:
    result = run_cli("bench", "--seconds", "0.2", "--markdown")
    assert result.returncode == 0, result.stderr
    markdown = result.stdout[result.stdout.index("Machine:"):]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in markdown.splitlines()
            if line.startswith(("| diemacher", "| glueckauf"))]
    pure = [row for row in rows if row[3] == "pure"]
    assert [tuple(row[:3]) for row in pure] == [("diemacher", str(n), f"elections {e}") for e in (4, 7)
                                                for n in (3, 4, 5)] + [("glueckauf", str(n), "—") for n in (2, 3, 4)]
    for row in pure:
        # games through apply, games through the strict step, actions, copies, resamples, views (issue 13)
        assert all(float(cell.replace(",", "")) > 0 for cell in row[4:10])
    builds = {row[3] for row in rows}
    assert builds == ({"pure", "compiled", "ratio"} if stammtisch.BUILD == "compiled" else {"pure"})  # issue 13
    assert "| Game | Players | Options | Build | Games/s | Games/s, strict step | Actions/s |" in markdown
    assert "Python 3." in markdown and "load average" in markdown


def test_bench_compares_with_openspiel_hearts() -> None:
    # issue 13: our actions/s as a ratio of OpenSpiel's C++ hearts through the same loop
    result = run_cli("bench", "glueckauf", "--seconds", "0.1", "--markdown", "--openspiel-hearts")
    assert result.returncode == 0, result.stderr
    assert "Actions/s ÷ hearts" in result.stdout and "OpenSpiel hearts (C++), the same loop:" in result.stdout
    ratios = [line.strip("|").split("|")[-1].strip() for line in result.stdout.splitlines()
              if line.startswith("| glueckauf") and "| pure |" in line]
    assert len(ratios) == 3 and all(float(ratio) > 0 for ratio in ratios)


def test_parse_options_reads_json_else_strings() -> None:
    assert parse_options(["open_money=true", "elections=7", "parties=[\"SPD\", \"CDU\", \"FDP\"]", "mode=row"]) == {
        "open_money": True, "elections": 7, "parties": ["SPD", "CDU", "FDP"], "mode": "row"}
    with pytest.raises(CliError, match="NAME=VALUE"):
        parse_options(["open_money"])


def test_bot_kinds_and_an_unknown_game() -> None:
    assert bot_kinds("random", "diemacher", 3) == ["random"] * 3
    kinds = "heuristic, easy, normal, hard, random"
    with pytest.raises(CliError, match=f"unknown bot kind 'clever'; choose one of {kinds}"):
        bot_kinds("clever", "diemacher", 3)
    with pytest.raises(CliError, match="unknown game 'nosuchgame'; choose one of diemacher, glueckauf"):
        make_bot("nosuchgame", "heuristic", 1)


def test_help_of_every_command() -> None:
    main_help = run_cli("--help")
    assert main_help.returncode == 0
    for command in ("play", "simulate", "replay", "bench"):
        assert command in main_help.stdout
        sub = run_cli(command, "--help")
        assert sub.returncode == 0 and f"usage: stammtisch {command}" in sub.stdout


def test_simulate_takes_elections_and_data_like_play(tmp_path: Path) -> None:
    # issue #8 item 8: simulate accepts --elections (and --data) like play
    result = run_cli("simulate", "diemacher", "--players", "3", "--games", "1", "--bots", "random",
                     "--elections", "7")
    assert result.returncode == 0, result.stderr
    outcomes = {row[0]: int(row[1]) for row in table_rows(result.stdout, "Notable outcomes")}
    assert sum(outcomes.values()) == 7  # seven elections
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    result = run_cli("simulate", "glueckauf", "--players", "2", "--games", "1", "--data", str(broken))
    assert result.returncode == 2 and "unknown option" not in result.stderr and "Traceback" not in result.stderr
