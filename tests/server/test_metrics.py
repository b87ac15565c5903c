"""Metrics and health (issue 16): ``/metrics`` scraped during bot games shows the counters moving;
``/api/health`` reports the database and Redis; JSON logs are one object per line; neither the
metrics nor the logs hold a token, an invitation, a seed or a deck's order."""

from __future__ import annotations

import json
import re
import secrets
import time
from pathlib import Path

import httpx

from stammtisch.engine.record import parse_record
from stammtisch.registry import make_game
from tests.server.helpers import Api, Cluster, ServerProcess, wait_finished
from tests.server.test_secrets import contains_run, deck_secrets

METRICS_TOKEN = secrets.token_urlsafe(24)  # who sends it reads /metrics (issue 26)
SAMPLE = re.compile(r"^(stammtisch_[a-z_]+)(\{.*\})? ([0-9.e+-]+)$")


def samples(text: str) -> dict[str, float]:
    found = {}
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if match:
            found[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return found


def total(found: dict[str, float], name: str, **labels: str) -> float:
    wanted = [f'{k}="{v}"' for k, v in labels.items()]
    return sum(v for k, v in found.items() if k.split("{")[0] == name and all(w in k for w in wanted))


def scrape(server: ServerProcess) -> httpx.Response:
    return httpx.get(server.url + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})


def test_metrics_move_during_bot_games_and_hold_no_secret(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, bot_delay=0.002, log_level="info", extra=("--log-format", "json"),
                           env={"STAMMTISCH_METRICS_TOKEN": METRICS_TOKEN}).start()
    api = Api(server.url)
    try:
        before = samples(scrape(server).text)
        bots = {0: "random", 1: "heuristic", 2: "random"}
        table_id, host, _ = api.table("diemacher", 3, bots=bots)
        human_table, human_host = api.create("glueckauf", 2)
        token = api.join(human_table, 0, "Ann")
        invite = api.ok("POST", f"/api/tables/{human_table}/invites", human_host, json={"seats": [1]})["invites"][0]
        httpx.get(server.url + f"/play/{human_table}?invite={invite['token']}")  # a link as a browser might send it
        with Cluster("one", [server]).ws(human_table, token) as ws:
            ws.send({"type": "ping"})
            ws.reply()
            ws.send({"type": "act", "action": ["no_such_move"], "move_no": 0})
            assert ws.reply()["error"] == "conflict"  # the game has not started
            time.sleep(1.1)  # the page is built at most once a second
            during = samples(scrape(server).text)
            assert total(during, "stammtisch_websockets") == 1
        wait_finished(api, table_id, timeout=300)
        time.sleep(1.1)
        page = scrape(server)
        assert page.headers["content-type"].startswith("text/plain")
        after = samples(page.text)
        # Counters moved between the scrapes, by route template (never a table id) and kind.
        route = "/api/tables/{table_id}/bots"
        assert total(after, "stammtisch_http_requests_total", route=route, status="200") \
            == total(before, "stammtisch_http_requests_total", route=route) + 3
        assert total(after, "stammtisch_http_requests_total", route="/api/tables", method="POST") == 2
        assert total(during, "stammtisch_websocket_messages_total", direction="in", kind="ping") == 1
        assert total(during, "stammtisch_websocket_errors_total", code="conflict") == 1
        assert total(after, "stammtisch_websocket_messages_total", direction="out", kind="state") >= 1
        moves = len(parse_record(api.request("GET", f"/api/tables/{table_id}/record").text).moves)
        assert total(after, "stammtisch_action_seconds_count", game="diemacher", outcome="ok") >= moves
        # (the bots may have finished the game before the scrape in between: a count, not a race)
        assert total(after, "stammtisch_action_seconds_count", game="diemacher") >= \
            total(during, "stammtisch_action_seconds_count", game="diemacher") > 0
        assert total(after, "stammtisch_bot_think_seconds_count", game="diemacher", bot="heuristic") > 0
        assert total(after, "stammtisch_db_transaction_seconds_count") > total(before,
                                                                                "stammtisch_db_transaction_seconds_count")
        assert total(after, "stammtisch_tables_in_memory") >= 2
        assert total(after, "stammtisch_websockets") == 0
        # issue 26, item 7: the process's own CPU time and memory, from prometheus_client's process collector
        assert re.search(r"^process_cpu_seconds_total [0-9.e+]+$", page.text, re.M)
        assert re.search(r"^process_resident_memory_bytes [0-9.e+]+$", page.text, re.M)
        assert table_id not in page.text and human_table not in page.text
        health = httpx.get(server.url + "/api/health")
        assert health.status_code == 200 and health.json() == {"ok": True, "database": "ok", "redis": "off"}
    finally:
        server.stop()
    logged = server.log.read_text()
    lines = [line for line in logged.splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    assert entries and any("/api/tables" in e["message"] for e in entries)  # access lines, as JSON
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    assert_no_secrets(page.text + logged, [host, human_host, token, invite["token"], METRICS_TOKEN], tmp_path,
                      table_id)


def assert_no_secrets(text: str, tokens: list[str], data: Path, table_id: str) -> None:
    for secret in tokens:
        assert secret not in text
    from sqlalchemy import create_engine
    from sqlalchemy import text as sql

    engine = create_engine(f"sqlite:///{data / 'stammtisch.db'}")
    with engine.connect() as conn:
        row = conn.execute(sql("SELECT game, players, options, seed FROM stammtisch_tables WHERE id = :id"),
                           {"id": table_id}).one()
    engine.dispose()
    assert str(row.seed) not in text
    game = make_game(row.game, row.players, json.loads(row.options))
    state, _ = game.new_state(int(row.seed))
    for deck in deck_secrets(row.game, state):
        assert not contains_run(text, deck, shortest=6)


def test_health_reports_what_does_not_answer() -> None:
    # server/metrics.Health against a database and a Redis that fail: 503, naming which.
    import asyncio
    from types import SimpleNamespace

    from stammtisch.server.metrics import Health, health_response

    async def broken(*_args: object) -> None:
        raise OSError("connection refused")

    async def hanging() -> None:
        await asyncio.sleep(60)

    hub = SimpleNamespace(store=SimpleNamespace(_run=broken), broker=SimpleNamespace(client=SimpleNamespace(
        ping=hanging)))
    response = asyncio.run(health_response(Health(hub, timeout=0.05)))  # type: ignore[arg-type]
    assert response.status_code == 503
    assert json.loads(response.body) == {"ok": False, "database": "unreachable", "redis": "unreachable"}
