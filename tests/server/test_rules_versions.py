"""A server upgraded to rules its running games were not played under (issue 16): on start it
finishes them as "interrupted" — record kept for download, naming its rules version; the lobby and
the table's state say so; nobody can act; no board is rebuilt under the wrong rules — and the games
of the current rules go on."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from stammtisch.engine.match import replay
from stammtisch.engine.record import RulesVersionError, parse_record
from stammtisch.registry import game_spec, make_game
from stammtisch.server.schema import sync_url
from stammtisch.server.store import MoveRow, TableRow
from stammtisch.server.upgrade import moves_in_force, replays
from tests.server.helpers import Api, Cluster, ServerProcess, Ws, finished, two_humans
from tests.server.upgrades import empty_database


def advance(api: Api, table_id: str, tokens: dict[int, str], moves: int, rng: random.Random) -> None:
    made = 0
    while made < moves:
        for token in tokens.values():
            mine = api.view(table_id, token)
            if mine["legal"]:
                made += api.act(table_id, token, rng.choice(mine["legal"]), mine["move_no"]).status_code == 200


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_games_of_rules_this_release_cannot_replay_are_interrupted_visibly(tmp_path: Path, backend: str) -> None:
    with empty_database(backend, tmp_path) as url:
        database = None if backend == "sqlite" else url
        server = ServerProcess(tmp_path, database).start()
        api = Api(server.url)
        rng = random.Random(16)
        try:
            old, _host, old_tokens = api.table("glueckauf", 2)
            current, _host2, current_tokens = api.table("diemacher", 3)
            advance(api, old, old_tokens, 8, rng)
            advance(api, current, current_tokens, 4, rng)
            assert api.ok("GET", f"/api/tables/{old}")["rules_version"] == game_spec("glueckauf").rules_version
            before = api.view(current)
        finally:
            server.stop()
        # The table was played under rules this release no longer has (version 0: older than any).
        engine = create_engine(sync_url(url.replace("postgresql://", "postgresql+psycopg://")))
        with engine.begin() as conn:
            conn.execute(text("UPDATE stammtisch_tables SET rules_version = 0 WHERE id = :id"), {"id": old})
            logged = conn.execute(text("SELECT count(*) FROM stammtisch_moves WHERE table_id = :id"),
                                  {"id": old}).scalar()
        engine.dispose()
        server.start()
        try:
            info = api.ok("GET", f"/api/tables/{old}")
            assert info["status"] == "interrupted"
            assert info["interrupted"] == {"reason": "upgrade", "rules_version": 0,
                                           "now": game_spec("glueckauf").rules_version}
            assert old in [t["id"] for t in api.ok("GET", "/api/tables?status=interrupted")["tables"]]
            seen = api.view(old, old_tokens[0])
            assert seen["status"] == "interrupted" and seen["view"] is None and seen["legal"] == []
            refused = api.act(old, old_tokens[0], ["pass"], seen["move_no"])
            assert refused.status_code == 422 and "over" in refused.text
            with api_ws(server, old) as ws:
                assert ws.latest is None or ws.latest["status"] == "interrupted"
            response = api.request("GET", f"/api/tables/{old}/record")
            assert response.status_code == 200
            record = parse_record(response.text)
            assert record.header.rules_version == 0 and len(record.moves) == logged
            with pytest.raises(RulesVersionError, match="rules version 0"):
                list(replay(record, make_game))
            # The game of today's rules goes on where it was.
            assert api.view(current)["view"] == before["view"]
            advance(api, current, current_tokens, 2, rng)
            assert api.view(current)["status"] == "running"
        finally:
            server.stop()


def api_ws(server: ServerProcess, table_id: str):  # type: ignore[no-untyped-def]
    from tests.server.helpers import Cluster

    ws = Cluster("one", [server]).ws(table_id)
    ws.until(lambda m: m["type"] == "state", timeout=20)
    return ws


def test_a_log_that_no_longer_replays_under_rules_declared_compatible_is_not_replayed() -> None:
    # upgrade.replays: a version the rules claim to replay, whose log fails at a move anyway.
    spec = game_spec("glueckauf")
    row = TableRow("t", "glueckauf", 2, {}, 5, "running", "", 0.0, spec.rules_version)
    game = make_game("glueckauf", 2)
    state, _ = game.new_state(5)
    first = game.legal_actions(state, game.to_act(state)[0])[0]
    good = [MoveRow(1, game.to_act(state)[0], list(first))]
    assert replays(row, spec, good)
    assert not replays(row, spec, [*good, MoveRow(2, 0, ["no_such_action", 99])])


def test_take_backs_leave_the_moves_in_force() -> None:
    entries = [MoveRow(1, 0, ["a"]), MoveRow(2, 1, ["b"]), MoveRow(3, 1, None), MoveRow(4, 1, ["c"])]
    assert moves_in_force(entries) == [(0, ("a",)), (1, ("c",))]


def test_tables_of_a_game_no_longer_installed_answer_without_a_board(tmp_path: Path) -> None:
    # issue 26, item 7: a table whose game is no longer installed answered 500, and so did the whole
    # ?status=interrupted list
    server = ServerProcess(tmp_path).start()
    api = Api(server.url)
    try:
        running, _host, tokens = api.table("glueckauf", 2)
        advance(api, running, tokens, 3, random.Random(26))
        done, _done_host, done_tokens = two_humans(api)
        finished(api, done_tokens, done)
        waiting, host = api.create("glueckauf", 2)
        api.join(waiting, 0, "Anna")
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "stammtisch.db") as db:  # as if the game had been uninstalled
        db.execute("UPDATE stammtisch_tables SET game = 'schafkopf'")
    server.start()
    try:
        info = api.ok("GET", f"/api/tables/{running}")
        assert info["status"] == "interrupted" and info["interrupted"]["now"] is None
        listed = {t["id"] for t in api.ok("GET", "/api/tables", params={"status": "interrupted"})["tables"]}
        assert running in listed
        assert {t["id"] for t in api.ok("GET", "/api/tables", params={"status": "open,running,finished"})["tables"]} \
            >= {done, waiting}
        for table_id in (running, done, waiting):
            state = api.view(table_id)
            assert state["view"] is None and state["legal"] == [], state
            assert api.ok("GET", f"/api/tables/{table_id}")["game"] == "schafkopf"
            with Cluster("one", [server]).ws(table_id) as ws:
                assert ws.recv()["type"] == "state"
            with Ws(f"{server.url.replace('http://', 'ws://')}/ws/play/{table_id}?lang=de") as page:  # the browser's
                page.auth(None)
                assert page.until(lambda m: m["type"] == "state")["view"] is None
        for table_id in (running, done):
            assert api.request("GET", f"/api/tables/{table_id}/record").status_code == 200
        for path, body in (("start", {}), ("bots", {"seat": 1, "kind": "random"})):
            refused = api.request("POST", f"/api/tables/{waiting}/{path}", host, json=body)
            assert refused.status_code == 409 and "schafkopf" in refused.json()["message"], refused.text
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()
