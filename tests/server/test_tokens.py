"""Seat tokens never travel in an address and never reach a log; invitations are used once
(issue #9, "Tokens", and the all-or-nothing invite of "Input")."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from stammtisch.engine.record import Header, Record
from stammtisch.server.config import Config
from stammtisch.server.redact import redact
from stammtisch.server.store import Store, TableRow
from tests.server.helpers import Api, Cluster, ServerProcess, Ws, finished, two_humans, wait_for


def ws_url(cluster: Cluster, path: str, i: int = 0) -> str:
    return cluster.url(i).replace("http://", "ws://") + path


def test_a_socket_authenticates_with_its_first_message_or_a_header(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    # issue #9 Tokens: the token is the first message, not part of the URL
    with Ws(ws_url(cluster, f"/ws/tables/{table_id}", 1)) as ws:
        ws.send({"type": "ping", "id": "p"})
        assert ws.recv() == {"type": "pong", "id": "p"}  # a ping before auth is answered, nothing else
        ws.send({"type": "act", "action": ["x"], "move_no": 0, "id": 1})
        assert ws.recv()["error"] == "no_token"
        ws.send({"type": "auth", "token": "not-a-token", "id": 2})
        assert ws.recv() == {"type": "error", "error": "wrong_token", "message": "that token holds no seat at "
                             "this table", "id": 2}
        ws.send({"type": "auth", "token": tokens[1], "id": 3})
        assert ws.recv() == {"type": "ok", "seat": 1, "id": 3}
        state = ws.recv()
        assert state["type"] == "state" and state["seat"] == 1
        assert state["view"] == api.view(table_id, tokens[1])["view"]
        ws.send({"type": "auth", "token": tokens[0], "id": 4})
        assert ws.reply()["error"] == "conflict"  # one seat per connection
    # Clients that can send headers: Authorization: Bearer, and the state comes at once.
    with Ws(ws_url(cluster, f"/ws/tables/{table_id}"), {"Authorization": f"Bearer {tokens[0]}"}) as ws:
        assert ws.recv()["seat"] == 0
    # A token in the address is refused, never used.
    with Ws(ws_url(cluster, f"/ws/tables/{table_id}?token={tokens[0]}")) as ws:
        assert ws.recv()["error"] == "malformed"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400


def test_http_refuses_a_token_in_the_address(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    # issue #9 Tokens: ?token= is refused with a clear message (the address is logged), never honoured
    refused = api.request("GET", f"/api/tables/{table_id}/view", params={"token": tokens[0]})
    assert refused.status_code == 400 and "Authorization" in refused.json()["message"]
    state = api.view(table_id, tokens[0])
    act = api.request("POST", f"/api/tables/{table_id}/actions", params={"token": tokens[0]},
                      json={"action": state["legal"][0] if state["legal"] else ["x"], "move_no": state["move_no"]})
    assert act.status_code == 400 and api.view(table_id)["move_no"] == state["move_no"]


def test_claiming_an_invitation_gives_a_fresh_token_and_uses_it_up(cluster: Cluster) -> None:
    api, other = cluster.api(0), cluster.api(1)
    table_id, host = api.create("glueckauf", 2)
    api.join(table_id, 0, "Host")
    invitation = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]})["invites"][0]["token"]
    # issue #9 Tokens: the invitation is not a seat token: it neither views as the seat nor acts
    assert other.request("GET", f"/api/tables/{table_id}/view", invitation).status_code == 403
    claimed = other.ok("POST", f"/api/tables/{table_id}/seats/1", invitation, json={"name": "Ben"})
    assert claimed["seat"] == 1 and claimed["token"] != invitation
    again = api.request("POST", f"/api/tables/{table_id}/seats/1", invitation, json={"name": "Host again"})
    assert again.status_code == 403
    api.start(table_id, host)
    assert other.view(table_id, claimed["token"])["seat"] == 1
    assert api.request("GET", f"/api/tables/{table_id}/view", invitation).status_code == 403
    assert [s["name"] for s in api.ok("GET", f"/api/tables/{table_id}")["seats"]] == ["Host", "Ben"]


def test_a_host_invites_again_when_nobody_came(cluster: Cluster) -> None:
    api, other = cluster.api(0), cluster.api(1)
    table_id, host = api.create("glueckauf", 3)
    api.join(table_id, 0, "Host")
    first = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1, 2]})["invites"]
    # issue #9 Tokens: a new invitation replaces the old, which no longer claims the seat
    second = other.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]})["invites"]
    assert [i["seat"] for i in second] == [1] and second[0]["token"] != first[0]["token"]
    assert api.request("POST", f"/api/tables/{table_id}/seats/1", first[0]["token"], json={}).status_code == 403
    ben = api.ok("POST", f"/api/tables/{table_id}/seats/1", second[0]["token"], json={"name": "Ben"})
    # A seat somebody holds is not invited again; nor a human's seat taken by an invitation.
    assert api.request("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]}).status_code == 409
    api.start(table_id, host)
    # The game runs with seat 2 still invited: its player may come later, or be invited anew.
    third = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [2]})["invites"][0]
    assert api.request("POST", f"/api/tables/{table_id}/seats/2", first[1]["token"], json={}).status_code == 403
    carla = other.ok("POST", f"/api/tables/{table_id}/seats/2", third["token"], json={"name": "Carla"})
    assert api.view(table_id, carla["token"])["seat"] == 2 and api.view(table_id, ben["token"])["seat"] == 1


def test_an_old_token_takes_only_the_rematch_seat_reserved_for_its_player(cluster: Cluster) -> None:
    # issue 26, security 1: the token of a finished table took the rematch seat its host had invited
    # somebody else into, even mid-game, and then read that seat's hand
    api, other = cluster.api(0), cluster.api(1)
    table_id, _host, tokens = two_humans(api)
    finished(api, tokens, table_id)
    anna = api.ok("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={})
    new_id, host = anna["table_id"], anna["host_token"]
    # Ben does not come: the rematch's host gives his seat to Carla, who joins
    invitation = api.ok("POST", f"/api/tables/{new_id}/invites", host, json={"seats": [1]})["invites"][0]["token"]
    refused = other.request("POST", f"/api/tables/{table_id}/rematch", tokens[1], json={})
    assert refused.status_code == 409 and "token" not in refused.json()
    carla = other.ok("POST", f"/api/tables/{new_id}/seats/1", invitation, json={"name": "Carla"})
    for attempt in (api, other):  # before the start, and on either process
        refused = attempt.request("POST", f"/api/tables/{table_id}/rematch", tokens[1], json={})
        assert refused.status_code == 409 and "token" not in refused.json(), refused.text
    api.start(new_id, host)
    refused = other.request("POST", f"/api/tables/{table_id}/rematch", tokens[1], json={})
    assert refused.status_code == 409 and "token" not in refused.json()
    assert other.view(new_id, carla["token"])["seat"] == 1  # Carla's token still holds her seat
    assert [s["name"] for s in api.ok("GET", f"/api/tables/{new_id}")["seats"]] == ["P0", "Carla"]
    # Anna asking again gets her own seat's token again, and nobody else's seat
    again = other.ok("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={})
    assert (again["seat"], again["token"]) == (0, anna["token"]) and "host_token" not in again


def test_concurrent_rematch_requests_make_one_rematch_and_one_host_token(cluster: Cluster) -> None:
    # issue 26, security 2: ten concurrent requests on two processes gave a 500 and no host token
    api = cluster.api()
    for _round in range(3):
        table_id, _host, tokens = two_humans(api)
        finished(api, tokens, table_id)
        asks = [(cluster.api(i), f"/api/tables/{table_id}/rematch", tokens[i % 2]) for i in range(10)]
        with ThreadPoolExecutor(len(asks)) as pool:
            answers = list(pool.map(lambda ask: ask[0].request("POST", ask[1], ask[2], json={}), asks))
        assert [a.status_code for a in answers] == [200] * len(asks), [a.text for a in answers]
        found = [a.json() for a in answers]
        assert len({f["table_id"] for f in found}) == 1
        assert sum("host_token" in f for f in found) == 1
        for seat in (0, 1):  # every request of a seat got that seat's one token
            assert len({f["token"] for f in found if f["seat"] == seat}) == 1
        rematch_path = f"/api/tables/{found[0]['table_id']}"
        assert api.ok("GET", f"/api/tables/{table_id}")["rematch"] == found[0]["table_id"]
        wait_for(lambda path=rematch_path: api.ok("GET", path)["status"] == "running", "the rematch's start")


def test_invites_are_all_or_nothing(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, host = api.create("glueckauf", 3)
    api.join(table_id, 0, "Host")
    before = api.ok("GET", f"/api/tables/{table_id}")["seats"]
    # issue #9 Input: {"seats": [0, 99]} returned 400 but left seat 0 invited with a token nobody received
    for seats, status in (([1, 99], 400), ([2, 1, 2], 400), ([1, "x"], 400), ([1, 0], 409), ([1, True], 400)):
        response = api.request("POST", f"/api/tables/{table_id}/invites", host, json={"seats": seats})
        assert response.status_code == status, (seats, response.text)
        assert api.ok("GET", f"/api/tables/{table_id}")["seats"] == before, seats
    assert [i["seat"] for i in api.ok("POST", f"/api/tables/{table_id}/invites", host,
                                      json={"seats": [2, 1]})["invites"]] == [2, 1]


def test_invite_links_never_take_the_clients_host(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, host = api.create("glueckauf", 2)
    # issue #9 Tokens: the Host header is the client's to choose; a link must not point elsewhere
    invites = api.ok("POST", f"/api/tables/{table_id}/invites", host, headers={"Host": "evil.example"})["invites"]
    assert all(i["url"].startswith(f"/play/{table_id}#") and "evil" not in i["url"] for i in invites)


def test_public_url_makes_absolute_invite_links(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, extra=("--public-url", "https://stammtisch.example/")).start()
    try:
        api = Api(server.url)
        table_id, host = api.create("glueckauf", 2)
        url = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]})["invites"][0]["url"]
        assert re.fullmatch(rf"https://stammtisch\.example/play/{table_id}#seat=1&invite=[\w-]+", url), url
    finally:
        server.stop()


def test_redaction_masks_anything_token_like() -> None:
    token = "Qx3_vA9-kLm2PqRsT7uVwXyZ0aBcDeFg"  # the shape of secrets.token_urlsafe(24)
    lines = [f'127.0.0.1:5 - "GET /api/tables/abc/view?token={token}&since=3 HTTP/1.1" 400',
             f"< TEXT '{{\"type\":\"auth\",\"token\":\"{token}\"}}' [52 bytes]",
             f"(b'authorization', b'Bearer {token}')", f"Authorization: bearer {token}",
             f"/play/abc#seat=1&invite={token}", f"a bare {token} in a message", f"token={token[:10]}"]
    for line in lines:
        masked = redact(line)
        assert token[:10] not in masked and "[redacted]" in masked, masked
    # Ordinary words, table ids and paths stay as they are.
    for line in ("GET /api/tables/kL2_xQ9aBcD4/view", "stammtisch.server.tables._free_seat_if_not_invited_or_open"):
        assert redact(line) == line


def test_no_token_reaches_the_log(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, log_level="debug").start()
    try:
        api = Api(server.url)
        table_id, host = api.create("glueckauf", 2, {"start_player": 0})
        anna = api.join(table_id, 0, "Anna")
        invitation = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]})["invites"][0]
        ben = api.ok("POST", f"/api/tables/{table_id}/seats/1", invitation["token"], json={"name": "Ben"})["token"]
        api.start(table_id, host)
        base = server.url.replace("http://", "ws://")
        with Ws(f"{base}/ws/tables/{table_id}") as first, \
                Ws(f"{base}/ws/play/{table_id}", {"Authorization": f"Bearer {ben}"}) as second:
            first.auth(anna)
            sockets = {0: first, 1: second}
            for _ in range(6):  # a few moves, whoever is to act
                state = api.view(table_id)
                seat = state["to_act"][0]
                mine = api.view(table_id, anna if seat == 0 else ben)
                sockets[seat].send({"type": "act", "action": mine["legal"][0], "move_no": mine["move_no"], "id": 1})
                assert sockets[seat].reply()["type"] == "ok"
        careless = api.request("GET", f"/api/tables/{table_id}/view", params={"token": anna})
        assert careless.status_code == 400
    finally:
        server.stop()
    log = server.log.read_text()
    # issue #9 Tokens: with --log-level debug the access log and the WebSocket frames are logged, tokens masked
    assert f"/api/tables/{table_id}/view" in log and "WebSocket" in log and "[redacted]" in log, log[-3000:]
    for secret in (host, anna, invitation["token"], ben):
        assert secret not in log and secret[:12] not in log
    # issue 26, security 3: a frame is logged by its kind and size, never its text (the seats' actions and views)
    assert re.search(r"< TEXT \[\d+ bytes\]", log) and re.search(r"> TEXT \[\d+ bytes\]", log), log[-3000:]
    assert '"type": "act"' not in log and '"legal"' not in log and '"view"' not in log


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_data_directory_and_database_are_private(tmp_path: Path) -> None:
    data = tmp_path / "new" / "data"

    async def write() -> dict[str, int]:
        store = Store(Config(data_dir=data).database_url())
        await store.open()
        await store.create_table(TableRow(secrets.token_hex(4), "glueckauf", 2, {}, 5, "open", "h", 1.0))
        modes = {f.name: mode(f) for f in data.iterdir()}  # the database with its -wal and -shm, while it is open
        await store.close()
        return modes

    # issue #9 Tokens: the database holds the seeds of running games; only its user may read it
    assert asyncio.run(write()) == {"stammtisch.db": 0o600, "stammtisch.db-shm": 0o600, "stammtisch.db-wal": 0o600}
    assert mode(data) == 0o700
    # A database of an earlier version, readable by all, becomes private on the next start.
    for f in data.iterdir():
        f.chmod(0o644)
    assert set(asyncio.run(write()).values()) == {0o600}


def test_records_are_private(tmp_path: Path) -> None:
    path = tmp_path / "records" / "game.jsonl"
    Record(Header("glueckauf", 2, {}, 7, ["A", "B"])).save(path)
    assert mode(path.parent) == 0o700 and mode(path) == 0o600
    path.chmod(0o644)
    Record(Header("glueckauf", 2, {}, 7, ["A", "B"])).save(path)  # saved again as the game goes on
    assert mode(path) == 0o600


def test_leaving_for_good_voids_the_token_at_once(cluster: Cluster) -> None:
    # issue 26, security 3: "Leave for good" could be undone with /back until the host re-invited, and the
    # leaver's open socket went on showing the seat (the next player's hand included)
    api, other = cluster.api(0), cluster.api(1)
    table_id, _host, tokens = two_humans(api)
    with cluster.ws(table_id, tokens[0], i=1) as ws:
        ws.until(lambda m: m["type"] == "state")
        api.ok("POST", f"/api/tables/{table_id}/away", tokens[0], json={"leave": True})
        closing = ws.until(lambda m: m["type"] == "error")
        assert closing["error"] == "wrong_token" and "left this game" in closing["message"]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        shown = [json.loads(frame) for frame in ws.frames]
        assert not [m for m in shown if m["type"] == "state" and m["table"]["seats"][0]["standin"] == "left"]
    for process in (api, other):
        for method, path in (("POST", "back"), ("GET", "view"), ("POST", "away")):
            refused = process.request(method, f"/api/tables/{table_id}/{path}", tokens[0], json={})
            assert refused.status_code == 403 and refused.json()["error"] == "wrong_token", (path, refused.text)
    assert api.ok("GET", f"/api/tables/{table_id}")["seats"][0]["standin"] == "left"  # still the stand-in's
    assert api.view(table_id, tokens[1])["seat"] == 1  # the other player's token is untouched


def test_only_the_metrics_token_reads_the_metrics(tmp_path: Path) -> None:
    # issue 26, security 3: anonymous /metrics let an outsider count the hidden steps of sealed decisions
    # (the counters of actions minus the public move number)
    token = secrets.token_urlsafe(24)
    off = ServerProcess(tmp_path / "off").start()
    try:
        refused = httpx.get(off.url + "/metrics", headers={"Authorization": f"Bearer {token}"})
        assert refused.status_code == 403 and "STAMMTISCH_METRICS_TOKEN" in refused.json()["message"]
    finally:
        off.stop()
    server = ServerProcess(tmp_path / "on", env={"STAMMTISCH_METRICS_TOKEN": token}).start()
    try:
        assert httpx.get(server.url + "/metrics").status_code == 401
        for wrong in (token[:-1], token + "x", "x" * len(token)):
            assert httpx.get(server.url + "/metrics", headers={"Authorization": f"Bearer {wrong}"}).status_code == 403
        page = httpx.get(server.url + "/metrics", headers={"Authorization": f"Bearer {token}"})
        assert page.status_code == 200 and "stammtisch_http_requests_total" in page.text
    finally:
        server.stop()
    assert token not in server.log.read_text()
    short = ServerProcess(tmp_path / "short", env={"STAMMTISCH_METRICS_TOKEN": "guessable"})
    with pytest.raises(RuntimeError, match="at least 16 characters"):
        short.start()
