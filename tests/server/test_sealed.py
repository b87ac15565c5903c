"""A step of a sealed decision is invisible to the other seats on every channel of the server.

Die Macher's program choice is made one card at a time; the others may learn only *that* a seat has
committed (die-macher.md DP-S3, HI; issue #8 item 4).  Neither the move numbers they see, nor the
lobby, nor a push on their socket, nor a take-back may tell them how far a seat has got.
"""

from __future__ import annotations

import random
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.server.helpers import Api, Cluster, Ws


def play_until_program(api: Api, table_id: str, tokens: dict[int, str]) -> None:
    rng = random.Random(3)
    for _ in range(200):
        view = api.view(table_id, tokens[0])
        if view["view"]["phase"] == "program":
            return
        for seat in view["to_act"]:
            mine = api.view(table_id, tokens[seat])
            api.act(table_id, tokens[seat], rng.choice(mine["legal"]), mine["move_no"])
    raise AssertionError("the program choice never came")


def silent(ws: Ws, seconds: float = 1.0) -> bool:
    try:
        ws.recv(timeout=seconds)
    except TimeoutError:
        return True
    except ConnectionClosed:
        return False
    return False


def numbers(api: Api, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    return {"seat 1": api.view(table_id, tokens[1])["move_no"], "spectator": api.view(table_id)["move_no"],
            "lobby": api.ok("GET", f"/api/tables/{table_id}")["move_no"]}


def test_a_program_pick_shows_the_others_nothing_until_the_seat_commits(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("diemacher", 3)
    play_until_program(api, table_id, tokens)
    before = numbers(api, table_id, tokens)
    with cluster.ws(table_id, tokens[1]) as other, cluster.ws(table_id) as spectator:
        other.recv(), spectator.recv()
        mine = api.view(table_id, tokens[0])
        assert mine["legal"][0][0] == "program_card"
        response = api.act(table_id, tokens[0], mine["legal"][0], mine["move_no"])
        assert response.status_code == 200 and response.json()["move_no"] == mine["move_no"] + 1
        assert silent(other) and silent(spectator)
        assert numbers(api, table_id, tokens) == before
        undone = api.request("POST", f"/api/tables/{table_id}/undo", tokens[0],
                             json={"move_no": response.json()["move_no"]})
        assert undone.status_code == 200
        assert silent(other) and silent(spectator)
        assert numbers(api, table_id, tokens) == before
        assert api.view(table_id, tokens[1], since=-1)["events"][-1]["kind"] != "undo"
        while True:  # now the whole program: the others are told once, that the seat has committed
            mine = api.view(table_id, tokens[0])
            if not mine["legal"]:
                break
            assert api.act(table_id, tokens[0], mine["legal"][0], mine["move_no"]).status_code == 200
        told = other.recv()
        assert told["move_no"] == before["seat 1"] + 1
        assert [e["kind"] for e in told["events"]] == ["sealed_committed"]
        assert silent(other)
        assert spectator.recv()["move_no"] == before["spectator"] + 1
    assert numbers(api, table_id, tokens) == {key: value + 1 for key, value in before.items()}
