"""Search bots at server tables think in worker processes from their seat's knowledge, with a time
limit and a fallback; hints answer the asking seat only (issue 11)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest

from stammtisch.bots.base import knowledge_of
from stammtisch.bots.hints import percent
from stammtisch.server import thinking
from stammtisch.server.config import Config
from stammtisch.server.livetable import LiveTable
from stammtisch.server.tables import Hub
from tests.server.helpers import Api, Cluster, ServerProcess, wait_for


async def bot_table(tmp_path: Path, kind: str, **config: Any) -> tuple[Hub, LiveTable]:
    """A running 3-player Die Macher table (hidden hands, sealed choices): seat 0 a ``kind`` bot,
    the others people."""
    hub = Hub(Config(data_dir=tmp_path, bot_delay=3600, **config))  # the bot loop waits: tests ask by hand
    await hub.open()
    created = await hub.create_table({"game": "diemacher", "players": 3, "options": {}})
    table = await hub.get(created["table_id"])
    await hub.add_bot(table, created["host_token"], {"seat": 0, "kind": kind})
    for seat in (1, 2):
        await hub.join(table, seat, {"name": f"P{seat}"}, None)
    await hub.start(table, created["host_token"])
    assert 0 in table.game.to_act(table.state) if table.game else False
    return hub, table


def test_the_worker_gets_a_snapshot_of_the_seats_knowledge_only(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []

    async def run(self: thinking.Thinkers, function: Any, question: thinking.Question, *args: Any) -> Any:
        asked.append(question)
        return question.legal[-1]

    async def scenario() -> None:
        hub, table = await bot_table(tmp_path, "hard")
        try:
            monkeypatch.setattr(thinking.Thinkers, "run", run)
            action = await hub._bot_move(table, 0)
            assert table.game is not None
            assert action == table.game.legal_actions(table.state, 0)[-1]
            question = asked[0]
            game = table.game
            assert question.knowledge == game.to_json(knowledge_of(game, table.state, 0))
            # a state with other hidden cards gives the seat the same knowledge: the snapshot cannot
            # carry what is hidden from it
            other = game.resample(table.state, 0, random.Random(8))
            assert game.to_json(other) != game.to_json(table.state)
            assert thinking.Question(game, other, 0, question.legal).knowledge == question.knowledge
        finally:
            await hub.close()

    asyncio.run(scenario())

async def a_legal_bot_move(hub: Any, table: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Seat 0's bot moves (warnings captured); its move is legal whatever happened to its search."""
    try:
        with caplog.at_level(logging.WARNING, logger="stammtisch.server"):
            action = await hub._bot_move(table, 0)
        assert table.game is not None
        assert action in table.game.legal_actions(table.state, 0)
    finally:
        await hub.close()


def test_a_bot_that_misses_its_time_limit_is_replaced_by_the_heuristic_bot(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        await a_legal_bot_move(*await bot_table(tmp_path, "hard", bot_timeout=1e-6), caplog)

    asyncio.run(scenario())
    assert any("no decision in time" in r.getMessage() and "heuristic" in r.getMessage() for r in caplog.records)


def test_a_failing_worker_is_logged_and_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    async def broken(self: thinking.Thinkers, *args: Any) -> Any:
        raise RuntimeError("worker lost")

    async def scenario() -> None:
        monkeypatch.setattr(thinking.Thinkers, "decide", broken)
        await a_legal_bot_move(*await bot_table(tmp_path, "normal"), caplog)

    asyncio.run(scenario())
    assert any("worker lost" in r.getMessage() for r in caplog.records)


def test_the_event_loop_runs_on_while_a_bot_thinks(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, table = await bot_table(tmp_path, "hard")
        try:
            thinking_task = asyncio.create_task(hub._bot_move(table, 0))

            async def meanwhile() -> bool:
                return thinking_task.done()

            # Thinking in the loop's own thread would finish the decision before any other task ran.
            assert await asyncio.create_task(meanwhile()) is False
            action = await thinking_task
            assert table.game is not None
            assert action in table.game.legal_actions(table.state, 0)
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_a_worker_refuses_a_bot_kind_that_does_not_search(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, table = await bot_table(tmp_path, "hard")
        try:
            assert table.game is not None
            legal = table.game.legal_actions(table.state, 0)
            with pytest.raises(TypeError, match="does not search"):
                await hub.thinkers.decide(table.game, table.state, 0, legal, "heuristic", 1)
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_hints_over_http_and_websocket_answer_the_asking_seat_only(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2, {"hints": True}, bots={1: "easy"})
    path = f"/api/tables/{table_id}/hint"
    assert api.request("GET", path).status_code == 401  # a spectator gets no hint
    with cluster.ws(table_id, tokens[0]) as ws:
        state = ws.turn()
        answer = api.ok("GET", path, tokens[0])
        assert answer["bot"] == "hard" and 1 <= len(answer["hints"]) <= 3
        for found in answer["hints"]:
            assert found["action"] in state["legal"] and 0 <= found["value"] <= 1 and found["visits"] >= 1
        # issue 30 item 2: why, in the asker's language; the runner-up's value only where there is one
        compared = len(answer["hints"]) > 1
        assert "of 100" in answer["why"] and ("against" in answer["why"]) == compared
        german = api.ok("GET", f"{path}?lang=de", tokens[0])
        best, *rest = [percent(found["value"]) for found in german["hints"]]
        assert f"{best} von 100" in german["why"] and (not rest or str(rest[0]) in german["why"])
        ws.send({"type": "hint", "id": 7})
        reply = ws.reply()
        assert reply["type"] == "hint" and reply["id"] == 7 and "of 100" in reply["why"]
        assert all(found["action"] in state["legal"] for found in reply["hints"])
        errors = ws.play(lambda s: s["legal"][0], timeout=60)  # the easy bot thinks in workers
    assert not [e for e in errors if e.get("error") != "conflict"]
    assert api.view(table_id)["status"] == "finished"


def test_hints_are_refused_where_the_option_is_off(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    response = api.request("GET", f"/api/tables/{table_id}/hint", tokens[0])
    assert response.status_code == 403 and "hints" in response.json()["message"]


def descendants(pid: int) -> set[int]:
    """The processes ``pid`` started (their children too), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for PID 1 to reap it has ended)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_every_process_the_server_starts_ends_with_it(tmp_path: Path, how: signal.Signals) -> None:
    # issue 26, item 6: after kill -TERM the search bots' worker and its helper went on running under PID 1
    server = ServerProcess(tmp_path, extra=("--bot-workers", "2")).start()
    try:
        api = Api(server.url)
        table_id, _host, _tokens = api.table("glueckauf", 2, bots={0: "easy", 1: "easy"})
        assert server.proc is not None
        started = wait_for(lambda: len(descendants(server.proc.pid)) >= 2 and descendants(server.proc.pid),
                           "the search bots' worker processes")
        wait_for(lambda: api.view(table_id)["move_no"] > 2, "the search bots' moves")
        os.kill(server.proc.pid, how)
        server.proc.wait(30)
        wait_for(lambda: not [pid for pid in started if running(pid)], "the end of every process the server started")
    finally:
        server.kill()
