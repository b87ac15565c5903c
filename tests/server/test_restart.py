"""Killing the server (SIGKILL) at random moments loses no acknowledged action, and every game
goes on from where it stopped after a restart."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from stammtisch.engine.match import replay
from stammtisch.engine.record import action_from_json, parse_record
from stammtisch.registry import make_game
from tests.server.conftest import services_up
from tests.server.helpers import IN_CI, Api, ServerProcess, own_postgres, seen_entries

KILLS = 4


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_loses_no_acknowledged_action(tmp_path: Path, backend: str) -> None:
    if backend == "postgres" and not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL must run in CI (.ci/run starts it)")
        pytest.skip("PostgreSQL not reachable on 127.0.0.1")
    # its own PostgreSQL database: the session's servers on the tests' one (with Redis) could not share it
    with own_postgres("restart") if backend == "postgres" else contextlib.nullcontext() as database:
        server = ServerProcess(tmp_path, database, bot_delay=0.003).start()
        rng = random.Random(backend)
        try:
            api = Api(server.url)
            bot_tables = [api.table("diemacher", 3, bots={0: "random", 1: "heuristic", 2: "random"})[0],
                          api.table("glueckauf", 2, bots={0: "heuristic", 1: "random"})[0]]
            human_table, _host, tokens = api.table("glueckauf", 2, bots={1: "random"})
            acked: list[tuple[int, Any]] = []  # (move number, action) the server acknowledged for seat 0
            seen: dict[str, dict[int, Any]] = {t: {} for t in bot_tables}  # spectator views by move number
            kills = 0
            killer: threading.Timer | None = None
            deadline = time.monotonic() + 150  # a liveness bound (the games take 20–100 s)
            while time.monotonic() < deadline:
                if killer is None and kills < KILLS:
                    killer = threading.Timer(rng.uniform(0.05, 0.4), server.kill)
                    killer.start()
                try:
                    for table_id in bot_tables:
                        watched = api.view(table_id)
                        seen[table_id][watched["move_no"]] = watched["view"]
                    mine = api.view(human_table, tokens[0])
                    if mine["legal"]:
                        action = rng.choice(mine["legal"])
                        response = api.act(human_table, tokens[0], action, mine["move_no"])
                        if response.status_code == 200:
                            acked.append((response.json()["move_no"], action))
                        else:
                            assert response.status_code == 409, response.text  # a bot moved in between
                    if kills == KILLS and all(api.view(t)["status"] == "finished"
                                              for t in [*bot_tables, human_table]):
                        break
                except (httpx.TransportError, json.JSONDecodeError):
                    assert killer is not None
                    killer.join()
                    assert server.proc is not None and server.proc.poll() is not None
                    kills += 1
                    killer = None
                    server.start()  # same port, same data
                    for table_id in [*bot_tables, human_table]:  # nothing acknowledged or seen is lost
                        at = api.view(table_id)["move_no"]
                        assert at >= max(seen.get(table_id, {0: None}), default=0)
                    assert api.view(human_table)["move_no"] >= max((n for n, _ in acked), default=0)
            assert kills == KILLS
            assert len(acked) > 10
            records = {}
            for table_id in [*bot_tables, human_table]:
                response = api.request("GET", f"/api/tables/{table_id}/record")
                assert response.status_code == 200, f"{table_id} did not finish"
                records[table_id] = parse_record(response.text)
            moves = records[human_table].moves
            for move_no, action in acked:
                assert moves[move_no - 1] == (0, action_from_json(action))
            for table_id in bot_tables:
                record = records[table_id]
                game = make_game(record.header.game, record.header.players, record.header.options)
                states = [game.copy(match.state) for match, *_rest in replay(record, make_game)]
                entry = seen_entries(record, [None])[None]  # the spectator's move numbers skip sealed steps
                for n, view in seen[table_id].items():
                    assert view == json.loads(json.dumps(game.view(states[entry[n]], None)))
                assert game.is_over(states[-1])
        finally:
            server.stop()
