"""Playing through the API: the strict gate, races, sealed decisions, undo, reconnecting, records."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

from stammtisch.engine.match import replay
from stammtisch.engine.record import parse_record
from stammtisch.registry import make_game
from tests.server.helpers import Api, Cluster, wait_finished


def unchanged(api: Api, table_id: str, token: str, before: dict[str, Any]) -> None:
    after = api.view(table_id, token)
    assert after["move_no"] == before["move_no"] and after["view"] == before["view"]
    assert after["legal"] == before["legal"]


def test_bad_requests_change_nothing_http(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("diemacher", 3, {"open_money": False})
    other = cluster.api(1)
    state = api.view(table_id, tokens[0])
    move_no, action = state["move_no"], state["legal"][0]
    path = f"/api/tables/{table_id}/actions"
    cases = [
        (api.act(table_id, None, action, move_no), 401, "token"),
        (api.act(table_id, "not-a-token", action, move_no), 403, "token"),
        (api.act(table_id, tokens[1][:-2] + "xx", action, move_no), 403, "token"),
        (other.request("POST", path, tokens[0], content=b"{not json"), 400, "JSON"),
        (other.request("POST", path, tokens[0], content=b"[1, 2]"), 400, "object"),
        (other.request("POST", path, tokens[0], json={"move_no": move_no}), 400, "action"),
        (other.request("POST", path, tokens[0], json={"action": action}), 400, "move_no"),
        (other.request("POST", path, tokens[0], json={"action": action, "move_no": "1"}), 400, "move_no"),
        (other.request("POST", path, tokens[0], json={"action": [], "move_no": move_no}), 400, "action"),
        (other.request("POST", path, tokens[0], json={"action": "bid", "move_no": move_no}), 400, "action"),
        (other.request("POST", path, tokens[0], json={"action": action, "move_no": move_no,
                                                      "pad": "x" * 20_000}), 413, "limit"),
        (api.act(table_id, tokens[0], ["no_such_action", 1], move_no), 422, "not legal"),
        (api.act(table_id, tokens[0], action, move_no + 5), 409, "ahead"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, (status, response.text)
        body = response.json()
        assert words in body["message"], body
        assert set(body) == {"error", "message"}
    unchanged(api, table_id, tokens[0], state)
    assert api.act(table_id, tokens[0], action, move_no).json() == {"ok": True, "move_no": move_no + 1}


def test_bad_messages_change_nothing_ws(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    to_act = api.view(table_id)["to_act"][0]
    state = api.view(table_id, tokens[to_act])
    not_acting = 1 - to_act
    with cluster.ws(table_id, tokens[to_act], i=1) as ws, cluster.ws(table_id, tokens[not_acting]) as idle:
        assert ws.recv()["move_no"] == state["move_no"]
        idle.recv()
        move_no, action = state["move_no"], state["legal"][0]
        for message, code in [
            ("{oops", "malformed"),
            ("[]", "malformed"),
            ({"type": "dance"}, "malformed"),
            ({"type": "act", "move_no": move_no}, "malformed"),
            ({"type": "act", "action": action}, "malformed"),
            ({"type": "act", "action": ["fly"], "move_no": move_no, "id": 7}, "illegal"),
            ({"type": "act", "action": action, "move_no": move_no, "pad": "y" * 40_000}, "too_large"),
            ({"type": "undo", "move_no": move_no}, "undo_refused"),
        ]:
            ws.send(message)
            reply = ws.reply()
            assert reply["type"] == "error" and reply["error"] == code, (message, reply)
            assert reply["message"]
        idle.send({"type": "act", "action": action, "move_no": move_no})
        assert idle.reply()["error"] == "illegal"  # not this seat's turn
        ws.send({"type": "ping", "id": "p"})
        assert ws.reply() == {"type": "pong", "id": "p"}
        unchanged(api, table_id, tokens[to_act], state)
        ws.send({"type": "act", "action": action, "move_no": move_no, "id": "a"})
        assert ws.reply() == {"type": "ok", "move_no": move_no + 1, "id": "a"}
        pushed = idle.until(lambda m: m["type"] == "state" and m["move_no"] == move_no + 1)
        assert pushed["view"] == api.view(table_id, tokens[not_acting])["view"]


def test_racing_clients_one_wins(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    for _round in range(3):
        seat = api.view(table_id)["to_act"][0]
        state = api.view(table_id, tokens[seat])
        # Two HTTP clients, on different server processes where there are several, race for one decision.
        results: list[int] = []
        barrier = threading.Barrier(2)

        def submit(i: int, action: Any, move_no: int, seat: int, barrier: threading.Barrier,
                   results: list[int]) -> None:
            client = cluster.api(i)
            barrier.wait()
            results.append(client.act(table_id, tokens[seat], action, move_no).status_code)

        threads = [threading.Thread(target=submit, args=(i, state["legal"][i % len(state["legal"])],
                                                         state["move_no"], seat, barrier, results))
                   for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results)[0] == 200 and results.count(200) == 1, results
        assert api.view(table_id)["move_no"] == state["move_no"] + 1
    # The same over two WebSockets of one seat.
    seat = api.view(table_id)["to_act"][0]
    with cluster.ws(table_id, tokens[seat], i=0) as a, cluster.ws(table_id, tokens[seat], i=1) as b:
        state = a.recv()
        b.recv()
        for ws in (a, b):
            ws.send({"type": "act", "action": state["legal"][0], "move_no": state["move_no"]})
        replies = [a.reply(), b.reply()]
        assert sorted(r["type"] for r in replies) == ["error", "ok"], replies
    assert api.view(table_id)["move_no"] == state["move_no"] + 1


def test_sealed_decisions_in_any_order(cluster: Cluster) -> None:
    """Die Macher opens with sealed decisions of every seat; any order resolves them exactly once."""
    resolved = []
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        api = cluster.api()
        table_id, _host, tokens = api.table("diemacher", 3)
        start = api.view(table_id)
        assert sorted(start["to_act"]) == [0, 1, 2]
        states = {seat: api.view(table_id, tokens[seat]) for seat in order}
        for n, seat in enumerate(order):
            client = cluster.api(n)  # alternate processes
            response = client.act(table_id, tokens[seat], states[seat]["legal"][0], states[seat]["move_no"])
            assert response.status_code == 200, response.text
            assert response.json()["move_no"] == n + 1
            again = client.act(table_id, tokens[seat], states[seat]["legal"][0], states[seat]["move_no"])
            assert again.status_code in (409, 422)
            if n < 2:  # nothing resolves before the last seat has committed
                assert [e["kind"] for e in api.view(table_id, since=0)["events"]] == ["sealed_committed"] * (n + 1)
        after = api.view(table_id, since=0)
        assert after["move_no"] == 3
        resolved.append([e["kind"] for e in after["events"]])
        for seat in range(3):  # each seat learns its own new draft hand, and only its own
            mine = api.view(table_id, tokens[seat], since=0)["events"]
            assert [e["kind"] for e in mine].count("draft_hand") == 1
    assert resolved[0] == resolved[1] == resolved[2] == ["sealed_committed"] * 3 + ["draft_passed"]


def test_undo_in_own_turn(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    rng = random.Random(3)
    undone = refused = 0
    for _ in range(200):
        watched = api.view(table_id)
        if watched["status"] != "running" or undone >= 2 and refused >= 2:
            break
        seat = watched["to_act"][0]
        before = api.view(table_id, tokens[seat])
        action = rng.choice(before["legal"])
        assert api.act(table_id, tokens[seat], action, before["move_no"]).status_code == 200
        after = api.view(table_id, tokens[seat])
        other = api.view(table_id, tokens[1 - seat])
        assert other["undo_allowed"] is False
        denied = api.request("POST", f"/api/tables/{table_id}/undo", tokens[1 - seat],
                             json={"move_no": other["move_no"]})
        assert denied.status_code == 422 and denied.json()["error"] == "undo_refused"
        if after["undo_allowed"]:
            client = cluster.api(undone)
            back = client.request("POST", f"/api/tables/{table_id}/undo", tokens[seat],
                                  json={"move_no": after["move_no"]})
            assert back.status_code == 200, back.text
            restored = api.view(table_id, tokens[seat], since=after["move_no"])
            assert restored["view"] == before["view"] and restored["legal"] == before["legal"]
            assert restored["move_no"] == after["move_no"] + 1
            assert restored["events"] == [{"kind": "undo", "params": {"seat": seat}}]
            undone += 1
            assert api.act(table_id, tokens[seat], action, restored["move_no"]).status_code == 200
        elif after["status"] == "running":
            mine = api.request("POST", f"/api/tables/{table_id}/undo", tokens[seat], json={"move_no": after["move_no"]})
            assert mine.status_code == 422
            unchanged(api, table_id, tokens[seat], after)
            refused += 1
    assert undone >= 2 and refused >= 2


def test_reconnect_gets_current_state(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    seen = 0
    for i in range(4):
        seat = api.view(table_id)["to_act"][0]
        # While seat 0 is away (a closed tab), the table moves on.
        while seat != 0:
            other = api.view(table_id, tokens[seat])
            assert api.act(table_id, tokens[seat], other["legal"][0], other["move_no"]).status_code == 200
            seat = api.view(table_id)["to_act"][0]
        with cluster.ws(table_id, tokens[0], i=i, since=seen) as ws:
            state = ws.recv()
            current = api.view(table_id, tokens[0], since=seen)
            assert state["type"] == "state" and state["move_no"] == current["move_no"]
            assert state["view"] == current["view"] and state["legal"] == current["legal"]
            assert state["events"] == current["events"]
            if state["move_no"] > seen > 0:
                assert state["events"], "the events missed while away"
            ws.send({"type": "act", "action": state["legal"][-1], "move_no": state["move_no"]})
            seen = ws.reply()["move_no"]


def test_record_for_finished_games_replays(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2, bots={0: "heuristic"})
    assert api.request("GET", f"/api/tables/{table_id}/record").status_code == 409
    rng = random.Random(8)
    with cluster.ws(table_id, tokens[1], i=1) as ws:
        assert ws.play(lambda state: rng.choice(state["legal"])) == []
    final = wait_finished(api, table_id)
    response = cluster.api(1).request("GET", f"/api/tables/{table_id}/record")
    assert response.status_code == 200
    record = parse_record(response.text)
    assert record.header.game == "glueckauf" and record.header.names[1] == "P1"
    assert len(record.moves) == final["move_no"]
    *_, (match, _seat, _action, _events) = replay(record, make_game)
    state = match.state
    game = make_game("glueckauf", 2, record.header.options)
    assert game.is_over(state) and game.scores(state) == final["scores"]
    assert json.loads(json.dumps(game.view(state, None))) == final["view"]


def test_live_updates_reach_other_processes_at_once(cluster: Cluster) -> None:
    """A move made through one process is pushed to a WebSocket on another within moments (through
    Redis where there are several processes; the 2-second re-reading is only a safety net)."""
    api = cluster.api(0)
    table_id, _host, tokens = api.table("glueckauf", 2)
    delays = []
    with cluster.ws(table_id, i=1) as watcher:
        watcher.recv()
        for _ in range(5):
            seat = api.view(table_id)["to_act"][0]
            state = api.view(table_id, tokens[seat])
            sent = time.monotonic()
            assert api.act(table_id, tokens[seat], state["legal"][0], state["move_no"]).status_code == 200
            watcher.until(lambda m, n=state["move_no"] + 1: m["type"] == "state" and m["move_no"] >= n)
            delays.append(time.monotonic() - sent)
    assert sorted(delays)[2] < 0.5, delays
