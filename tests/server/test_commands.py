"""The commands around the server: a record downloaded from it replays in the terminal, and the
load test runs, bounded and on loopback only."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import final_table, run_cli, totals
from tests.server.helpers import Cluster, wait_finished


def test_downloaded_record_replays_in_the_terminal(cluster: Cluster, tmp_path: Path) -> None:
    api = cluster.api()
    table_id, _host, _tokens = api.table("diemacher", 3, bots={0: "heuristic", 1: "random", 2: "random"})
    final = wait_finished(api, table_id)
    path = tmp_path / "game.jsonl"
    path.write_text(api.request("GET", f"/api/tables/{table_id}/record").text, encoding="utf-8")
    result = run_cli("replay", str(path), "--all")
    assert result.returncode == 0, result.stderr
    assert totals(final_table(result.stdout)) == final["scores"]


def test_loadtest_is_bounded_and_reports() -> None:
    result = run_cli("loadtest", "--tables", "4", "--seconds", "2", "--think", "0.02", "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["tables"] == 4 and figures["database"] == "sqlite"
    # a count, not a speed: on a busy machine 2 s may hold only a few moves (no timing thresholds in tests)
    assert figures["actions"] > 0 and figures["actions_per_second"] > 0
    assert 0 < figures["latency_ms"]["p50"] <= figures["latency_ms"]["p99"] <= figures["latency_ms"]["p100"]
    assert figures["errors"] == {}
    # the clients' own CPU is reported beside the server's (they share the machine): the bots played
    assert figures["client_cpu"] > 0 and figures["server_cpu"] > 0


def test_loadtest_hostile_mode_reaches_the_tables_as_spectators() -> None:
    # issue #9: the hostile mode's spectators really watch (they authenticate as nobody) and the slow
    # clients are cut off by the server
    result = run_cli("loadtest", "--tables", "4", "--seconds", "3", "--think", "0.05", "--spectators", "8",
                     "--stay", "0.5", "--slow", "2", "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["spectator_connects"] > 8 and figures["errors"] == {}, figures
    assert figures["hostile_cpu"] > 0  # the hostile process's own CPU, which connected 8+ times


def test_loadtest_refuses_other_hosts_and_unbounded_runs() -> None:
    for args, words in [(("--server", "http://10.1.2.3:8000"), "this machine"),
                        (("--server", "http://example.org"), "this machine"),
                        (("--tables", "100000"), "--tables"),
                        (("--seconds", "0"), "--seconds")]:
        result = run_cli("loadtest", *args)
        assert result.returncode == 2 and words in result.stderr, (args, result.stderr)
