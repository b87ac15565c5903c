"""``stammtisch tournament``: tables, JSON and Markdown, one game alone, a cluster, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from distributed import LocalCluster

from stammtisch.engine.record import parse_record
from tests.cli.helpers import run_cli, table_rows

TOURNAMENT = ("tournament", "glueckauf", "--players", "3", "--bots", "heuristic,random", "--games", "6",
              "--seed", "4")


def words_of_rows(output: str, title: str) -> list[list[str]]:
    """The words of each body row of the borderless table under ``title``: from its rule to a blank line."""
    lines = output[output.index(title):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("─")) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    return [line.split() for line in lines[start:end]]


def run_to(directory: Path, *extra: str) -> dict[str, Any]:
    result = run_cli(*TOURNAMENT, "--out", str(directory), *extra)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads((directory / "tournament.json").read_text(encoding="utf-8"))
    del data["run"]  # timing and workers: the only part that may differ
    return data


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    directory = tmp_path_factory.mktemp("one-worker")
    result = run_cli(*TOURNAMENT, "--out", str(directory), "--workers", "1")
    assert result.returncode == 0, result.stderr
    return directory, json.loads((directory / "tournament.json").read_text(encoding="utf-8")), result.stdout


def test_the_table_the_json_and_the_markdown_agree(written: tuple[Path, dict[str, Any], str]) -> None:
    directory, data, stdout = written
    assert (data["games"], data["deals"], data["line_ups"]) == (6, 2, [["heuristic", "random", "random"]])
    assert [entry["game_seed"] for entry in data["results"]] == [4, 4, 4, 5, 5, 5]  # mirrored deals
    assert [entry["kinds"].index("heuristic") for entry in data["results"]] == [0, 1, 2, 0, 1, 2]
    heuristic, random = data["kinds"]
    assert (heuristic["seat_games"], random["seat_games"]) == (6, 12)
    shares = sum(1 / len(g["winners"]) for g in data["results"] if g["kinds"][g["winners"][0]] == "heuristic")
    assert heuristic["wins"] == pytest.approx(shares) and heuristic["wins"] + random["wins"] == pytest.approx(6)
    low, high = heuristic["win_rate_ci95"]
    assert low <= heuristic["win_rate"] <= high
    rows = words_of_rows(stdout, "Per bot kind")
    assert [row[:3] for row in rows] == [["heuristic", "6", f"{heuristic['wins']:g}"],
                                         ["random", "12", f"{random['wins']:g}"]]
    markdown = (directory / "tournament.md").read_text(encoding="utf-8")
    assert "stammtisch tournament glueckauf --players 3 --bots heuristic,random --games 6 --seed 4" in markdown
    body = [line for line in markdown.splitlines() if line.startswith("| heuristic") or line.startswith("| random")]
    assert [line.split("|")[1:4] for line in body] == [[" heuristic ", " 6 ", f" {heuristic['wins']:g} "],
                                                       [" random ", " 12 ", f" {random['wins']:g} "]]


def test_two_workers_and_a_dask_cluster_give_the_same_results(tmp_path: Path,
                                                               written: tuple[Path, dict[str, Any], str]) -> None:
    one = dict(written[1])
    del one["run"]
    assert run_to(tmp_path / "two", "--workers", "2") == one
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                      dashboard_address=None) as cluster:
        assert run_to(tmp_path / "dask", "--cluster", cluster.scheduler_address) == one


def test_only_plays_one_game_of_the_tournament_again(tmp_path: Path, written: tuple[Path, dict[str, Any], str]) -> None:
    game = written[1]["results"][4]
    result = run_cli(*TOURNAMENT, "--only", "4", "--records", str(tmp_path))
    assert result.returncode == 0, result.stderr
    rows = table_rows(result.stdout, "Game 4: line-up 0, deal 1 (game seed 5), rotation 1")
    assert [row[1] for row in rows] == game["kinds"]
    assert [int(row[2]) for row in rows] == game["bot_seeds"]
    assert [int(row[3]) for row in rows] == game["scores"]
    assert [float(row[4]) for row in rows] == game["places"]
    (record,) = tmp_path.glob("*.jsonl")
    assert parse_record(record.read_text(encoding="utf-8")).header.seed == 5


@pytest.mark.parametrize(("extra", "message"), [
    (("--bots", "heuristic,clever"), "unknown bot kind 'clever'; choose one of heuristic, easy, normal, hard, random"),
    (("--players", "5"), "glueckauf is played by 2–4 players, not 5"),
    (("--games", "0"), "a tournament plays 1–20000 games"),
    (("--workers", "0"), "--workers must be at least 1"),
    (("--only", "6"), "game 6 is not in this tournament; its games are 0–5"),
    (("--records", "somewhere"), "--records saves the record of one game: use it with --only"),
    (("--option", "no_such_option=1"), "no_such_option"),
    (("--budget", "heuristic=1"), "--budget sets the time of search bots; heuristic does not search"),
    (("--budget", "hard"), "--budget takes KIND=SECONDS"),
    (("--bots", "heuristic@1,random"), "the bot heuristic takes no budget or temperature: heuristic@1"),
])
def test_bad_input_is_refused_with_a_clear_error(extra: tuple[str, ...], message: str) -> None:
    result = run_cli(*TOURNAMENT, *extra)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_help_describes_the_line_ups() -> None:
    result = run_cli("tournament", "--help")
    assert result.returncode == 0
    assert "usage: stammtisch tournament" in result.stdout
    assert "the last fills the rest" in " ".join(result.stdout.split())
    assert "tournament" in run_cli("--help").stdout


def test_table_options_are_played_and_written_into_the_command(tmp_path: Path) -> None:
    result = run_cli("tournament", "diemacher", "--players", "3", "--bots", "heuristic,random", "--games", "3",
                     "--workers", "1", "--option", "elections=7", "--option", "open_money=true", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "tournament.json").read_text(encoding="utf-8"))
    assert data["options"] == {"elections": 7, "open_money": True}
    markdown = (tmp_path / "tournament.md").read_text(encoding="utf-8")
    assert ("stammtisch tournament diemacher --players 3 --bots heuristic,random --games 3 --seed 0 "
            "--option elections=7 --option open_money=true") in markdown


def test_budgets_and_entrants_are_played_and_written_into_the_command(tmp_path: Path) -> None:
    # Issue 27 item 3: a budget per kind (--budget) and entrants with their own (KIND@X) in one tournament.
    result = run_cli("tournament", "glueckauf", "--players", "3", "--bots", "easy,noisy@0.5,random", "--games", "3",
                     "--budget", "easy=0.01", "--workers", "1", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "tournament.json").read_text(encoding="utf-8"))
    assert data["budgets"] == {"easy": 0.01}
    assert [kind["kind"] for kind in data["kinds"]] == ["easy", "noisy@0.5", "random"]
    assert data["win_rate_ci95"]["unit"].startswith("deal")
    for kind in data["kinds"]:
        assert kind["deals"] == 1 and kind["win_rate_ci95"] == [0.0, 1.0]  # one deal: no interval
        low, high = kind["win_rate_wilson95"]
        assert 0 <= low <= kind["win_rate"] <= high <= 1
    markdown = (tmp_path / "tournament.md").read_text(encoding="utf-8")
    assert ("stammtisch tournament glueckauf --players 3 --bots easy,noisy@0.5,random --games 3 --seed 0 "
            "--budget easy=0.01") in markdown
