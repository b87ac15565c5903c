"""The table chat (issue 14, "Table chat"): players write, everybody at the table reads, live and after
a reload; hostile text and flooding get a clear error and store nothing; the limits hold across
server processes (two processes on PostgreSQL sharing live updates through Redis)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import services_up
from tests.server.helpers import IN_CI, POSTGRES_URL, REDIS_URL, Api, Cluster, ServerProcess, Ws

# Three messages per seat in an hour and eight per table: the limits are met by counting messages,
# never by how fast this machine sends them.
LIMITS = ("--chat-messages", "3", "--chat-seconds", "3600", "--chat-max", "8")


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def chat_cluster(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    data = tmp_path_factory.mktemp(f"chat-{request.param}")
    if request.param == "sqlite":
        servers = [ServerProcess(data, extra=LIMITS).start()]
    else:
        if not services_up():
            if IN_CI:
                pytest.fail("PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) must run in CI (.ci/run)")
            pytest.skip("PostgreSQL or Redis not reachable on 127.0.0.1")
        servers = [ServerProcess(data, POSTGRES_URL, REDIS_URL, extra=LIMITS).start()]
        servers.append(ServerProcess(data, POSTGRES_URL, REDIS_URL, extra=LIMITS).start())
    try:
        yield Cluster(request.param, servers)
    finally:
        for server in servers:
            server.stop()


def messages(api: Api, table_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = api.ok("GET", f"/api/tables/{table_id}/chat")["messages"]
    return found


def say(api: Api, table_id: str, token: str | None, text: Any) -> Any:
    return api.request("POST", f"/api/tables/{table_id}/chat", token, json={"text": text})


def play_socket(cluster: Cluster, table_id: str, token: str | None, i: int) -> Ws:
    """The browser's socket with the chat (``chat=1``)."""
    base = cluster.url(i).replace("http://", "ws://")
    ws = Ws(f"{base}/ws/play/{table_id}?chat=1&lang=en")
    ws.auth(token)
    return ws


def chat_of(ws: Ws, count: int) -> list[dict[str, Any]]:
    """The chat this socket shows once it has ``count`` messages (history, then live ones)."""
    shown: list[dict[str, Any]] = []
    while len(shown) < count:
        message = ws.until(lambda m: m["type"] == "chat")
        shown = message["messages"] if message.get("history") else shown + message["messages"]
    return shown


def test_players_chat_live_and_a_reload_shows_the_chat(chat_cluster: Cluster) -> None:
    api, other = chat_cluster.api(0), chat_cluster.api(1)
    table_id, _host, tokens = api.table("glueckauf", 2)
    with play_socket(chat_cluster, table_id, None, 1) as watcher:  # a spectator on the other process
        assert chat_of(watcher, 0) == []
        assert say(api, table_id, tokens[0], "  Glück auf! 안녕하세요 👨‍👩‍👧  ").status_code == 201
        with play_socket(chat_cluster, table_id, tokens[1], 0) as ws:
            ws.send({"type": "chat", "text": "<b>hi</b> & <script>alert(1)</script>", "id": 7})
            reply = ws.until(lambda m: m.get("id") == 7)
            assert reply == {"type": "ok", "no": 1, "id": 7}
        live = chat_of(watcher, 2)
    expected = [(0, 0, "Glück auf! 안녕하세요 👨‍👩‍👧"), (1, 1, "<b>hi</b> & <script>alert(1)</script>")]
    assert [(m["no"], m["seat"], m["text"]) for m in live] == expected  # markup is text, kept as written
    for reader in (api, other):  # a reload: stored with the table, on every process
        assert [(m["no"], m["seat"], m["text"]) for m in messages(reader, table_id)] == expected
    assert [m["no"] for m in other.ok("GET", f"/api/tables/{table_id}/chat", params={"after": 1})["messages"]] == [1]
    with play_socket(chat_cluster, table_id, tokens[0], 1) as again:
        assert [m["text"] for m in chat_of(again, 2)] == [t for _n, _s, t in expected]


def test_sockets_without_the_chat_parameter_get_no_chat(chat_cluster: Cluster) -> None:
    api = chat_cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    say(api, table_id, tokens[0], "hello")
    with chat_cluster.ws(table_id, tokens[0]) as ws:
        assert ws.recv()["type"] == "state"
        ws.send({"type": "ping", "id": 1})
        assert ws.reply() == {"type": "pong", "id": 1}


HOSTILE = {
    "NUL": '"a\\u0000b"',
    "line break": '"two\\nlines"',
    "escape sequence": '"\\u001b[31mred"',
    "bidi override": '"abc\\u202edcba"',
    "lone surrogate": '"\\ud800 half"',
    "other half": '"x\\udfff"',
    "too long": json.dumps("x" * 501),
    "empty": '"   "',
    "a number": "12",
    "a list": '["a"]',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_is_refused_with_a_clear_error_and_stores_nothing(chat_cluster: Cluster, name: str) -> None:
    api = chat_cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    body = '{"text": ' + HOSTILE[name] + "}"
    response = api.request("POST", f"/api/tables/{table_id}/chat", tokens[0], content=body.encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["error"] == "malformed" and answer["message"], answer
    with play_socket(chat_cluster, table_id, tokens[1], 1) as ws:  # and over the socket
        ws.send('{"type": "chat", "id": 3, "text": ' + HOSTILE[name] + "}")
        reply = ws.until(lambda m: m["type"] == "error")
        assert reply["error"] == "malformed", reply
    assert messages(chat_cluster.api(1), table_id) == []


def test_huge_text_is_refused_before_it_is_read(chat_cluster: Cluster) -> None:
    api = chat_cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    response = say(api, table_id, tokens[0], "x" * 1_000_000)
    assert response.status_code == 413 and response.json()["error"] == "too_large", response.text
    assert messages(api, table_id) == []


def test_the_longest_message_is_500_characters(chat_cluster: Cluster) -> None:
    api = chat_cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    assert say(api, table_id, tokens[0], "ä" * 500).status_code == 201
    response = say(api, table_id, tokens[0], "ä" * 501)
    assert response.status_code == 400 and "500" in response.json()["message"]
    assert [len(m["text"]) for m in messages(api, table_id)] == [500]


def test_flooding_is_refused_per_seat_across_processes_and_stores_nothing(chat_cluster: Cluster) -> None:
    api = chat_cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    for n in range(3):  # alternating processes: the rate is counted in the database, not per process
        assert say(chat_cluster.api(n), table_id, tokens[0], f"message {n}").status_code == 201
    for n in range(5):
        response = say(chat_cluster.api(n), table_id, tokens[0], "flood")
        assert response.status_code == 429, response.text
        answer = response.json()
        assert answer["error"] == "chat_rate" and "at most 3 chat messages" in answer["message"], answer
        assert 1 <= answer["retry_after"] <= 3600
    with play_socket(chat_cluster, table_id, tokens[0], 1) as ws:
        ws.send({"type": "chat", "text": "flood", "id": "f"})
        reply = ws.until(lambda m: m.get("id") == "f")
        assert reply["type"] == "error" and reply["error"] == "chat_rate", reply
    assert say(api, table_id, tokens[1], "the other seat may still write").status_code == 201
    assert [m["text"] for m in messages(chat_cluster.api(1), table_id)] == [
        "message 0", "message 1", "message 2", "the other seat may still write"]


def test_a_full_chat_is_refused(chat_cluster: Cluster) -> None:
    api = chat_cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 3)
    sent = [say(chat_cluster.api(n), table_id, tokens[n % 3], f"m{n}").status_code for n in range(9)]
    assert sent == [201] * 8 + [409]
    assert say(api, table_id, tokens[0], "more").json()["error"] in ("chat_full", "chat_rate")
    assert len(messages(api, table_id)) == 8


def test_only_a_seats_player_writes(chat_cluster: Cluster) -> None:
    api = chat_cluster.api()
    table_id, host = api.create("glueckauf", 2)
    token = api.join(table_id, 0, "Ann")
    invitation = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]})["invites"][0]["token"]
    assert say(api, table_id, token, "waiting for you").status_code == 201  # also in the waiting room
    assert say(api, table_id, None, "x").status_code == 401
    for wrong in (host, invitation, "A" * 32):
        assert say(api, table_id, wrong, "x").status_code == 403
    with play_socket(chat_cluster, table_id, None, 0) as ws:
        ws.send({"type": "chat", "text": "I only watch", "id": 1})
        reply = ws.until(lambda m: m.get("id") == 1)
        assert reply["type"] == "error" and reply["error"] == "spectator", reply
    assert [m["text"] for m in messages(api, table_id)] == ["waiting for you"]
    assert api.request("GET", "/api/tables/nosuchtable/chat").status_code == 404
    assert api.request("GET", f"/api/tables/{table_id}/chat", params={"after": "x"}).status_code == 400


def test_the_chat_survives_a_restart(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, extra=LIMITS).start()
    try:
        api = Api(server.url)
        table_id, _host, tokens = api.table("glueckauf", 2)
        say(api, table_id, tokens[0], "before")
        server.kill()
        server = ServerProcess(tmp_path, port=server.port, extra=LIMITS).start()
        assert [m["text"] for m in messages(api, table_id)] == ["before"]
        assert say(api, table_id, tokens[1], "after").status_code == 201
        assert [m["no"] for m in messages(api, table_id)] == [0, 1]
    finally:
        server.stop()
