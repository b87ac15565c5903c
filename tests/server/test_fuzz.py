"""Random and hostile JSON at every HTTP endpoint and every WebSocket message kind (issue #9, "Input"):
always a 4xx or an error frame, the connection stays usable, nothing changes, the lobby still lists.

Each hostile value is invalid wherever it lands (a number beyond 2**53, a float, text with a NUL, a
control character or half a surrogate pair, text longer than any field, nesting deeper than any
field), so that every request must be refused.  Bounded: a few hundred requests per database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.helpers import Api, Cluster, ServerProcess, Ws

FUZZ = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def obj(fields: dict[str, str]) -> str:
    return "{" + ", ".join(f"{json.dumps(name)}: {value}" for name, value in fields.items()) + "}"


def deep(depth: int, kind: int) -> str:
    return ["[" * depth + "]" * depth, '{"a": ' * depth + "1" + "}" * depth, "[" * depth][kind]


hostile_value = st.one_of(
    st.integers(min_value=2**53).map(str),
    st.integers(max_value=-(2**53)).map(str),
    st.sampled_from(["18446744073709551617", "1e400", "-0.0", "1.0", "NaN", "Infinity", "true", "false"]),
    st.floats().map(json.dumps),
    st.text(max_size=20).map(lambda s: json.dumps(s + "\x00")),
    st.text(max_size=20).map(lambda s: json.dumps("\ud800" + s)),
    st.text(max_size=20).map(lambda s: json.dumps("\udfff" + s + "\x1b")),
    st.integers(129, 30_000).map(lambda n: json.dumps("x" * n)),
    st.builds(deep, st.integers(5, 3000), st.integers(0, 2)),
)
any_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                        max_leaves=12).map(json.dumps)


def is_empty_object(data: bytes) -> bool:
    try:
        return json.loads(data) == {}
    except ValueError:
        return False


@st.composite
def hostile_body(draw: st.DrawFn, template: dict[str, str]) -> bytes:
    """A valid body with one field replaced or one unknown field added, or no JSON object at all."""
    how = draw(st.sampled_from(["replace", "add", "not_an_object", "bytes"] if template else
                               ["add", "not_an_object", "bytes"]))
    if how == "replace":
        name = draw(st.sampled_from(sorted(template)))
        return obj({**template, name: draw(hostile_value)}).encode()
    if how == "add":
        name = "x_" + draw(st.text(max_size=10))
        return obj({**template, name: draw(hostile_value | any_json)}).encode()
    if how == "not_an_object":
        return draw(any_json.filter(lambda t: not t.startswith("{")) | hostile_value).encode()
    return draw(st.binary(min_size=1, max_size=200).filter(lambda b: not is_empty_object(b)))


@dataclass
class Tables:
    running: str
    tokens: dict[int, str]
    seat: int  # the seat to act
    open: str
    host: str
    action: list[Any]
    move_no: int
    key: str  # a personal key (server/keys.py) that holds no seat

    def snapshot(self, api: Api) -> Any:
        opened = api.ok("GET", "/api/tables", params={"status": "open"})["tables"]
        return (api.ok("GET", f"/api/tables/{self.running}"), api.ok("GET", f"/api/tables/{self.open}"),
                len(opened), opened[0]["id"], api.view(self.running)["move_no"])


@pytest.fixture(scope="module")
def tables(cluster: Cluster) -> Iterator[Tables]:
    api = cluster.api()
    running, _host, tokens = api.table("glueckauf", 2)
    seat = api.view(running)["to_act"][0]
    state = api.view(running, tokens[seat])
    opened, host = api.create("diemacher", 3)
    api.join(opened, 0, "Host")
    key = api.ok("POST", "/api/players", json={})["key"]
    yield Tables(running, tokens, seat, opened, host, state["legal"][0], state["move_no"], key)


def endpoints(t: Tables) -> list[tuple[str, str, str | None, dict[str, str]]]:
    """(method, path, token, a valid body) for every endpoint that reads a body."""
    act = {"action": json.dumps(t.action), "move_no": str(t.move_no)}
    return [
        ("POST", "/api/tables", None, {"game": '"glueckauf"', "players": "2", "options": "{}"}),
        ("POST", f"/api/tables/{t.open}/seats/1", None, {"name": '"Fuzz"'}),
        ("POST", f"/api/tables/{t.open}/invites", t.host, {"seats": "[1]"}),
        ("POST", f"/api/tables/{t.open}/bots", t.host, {"seat": "1", "kind": '"random"'}),
        ("POST", f"/api/tables/{t.open}/start", t.host, {}),
        ("POST", f"/api/tables/{t.running}/actions", t.tokens[t.seat], act),
        ("POST", f"/api/tables/{t.running}/undo", t.tokens[t.seat], {"move_no": str(t.move_no)}),
        ("POST", f"/api/tables/{t.running}/rematch", t.tokens[t.seat], {"key": json.dumps(t.key)}),
        ("POST", f"/api/tables/{t.running}/key", t.tokens[t.seat], {"key": json.dumps(t.key)}),
        ("POST", f"/api/players/me/tables/{t.running}/token", t.key, {"seat": "0"}),
        ("POST", "/api/players", None, {}),
    ]


path_part = st.one_of(st.text(min_size=1, max_size=40), st.integers().map(str), st.just("9" * 5000),
                      st.sampled_from(["..", "%00", "-1", "1e3", " 1", "0x1"]))


def test_fuzz_http(cluster: Cluster, tables: Tables) -> None:
    api = cluster.api()
    before = tables.snapshot(api)
    routes = endpoints(tables)

    @FUZZ
    @given(data=st.data())
    def bodies(data: st.DataObject) -> None:
        method, path, token, template = data.draw(st.sampled_from(routes))
        body = data.draw(hostile_body(template))
        response = api.request(method, path, token, content=body, headers={"content-type": "application/json"})
        assert 400 <= response.status_code < 500, (path, body[:200], response.status_code, response.text)
        assert set(response.json()) == {"error", "message"}
        assert api.request("GET", "/api/health").status_code == 200  # the same connection goes on

    @FUZZ
    @given(text=path_part, which=st.integers(0, 10))
    def paths_and_queries(text: str, which: int) -> None:
        part = quote(text, safe="")
        method, path, params = [
            ("GET", f"/api/tables/{part}", {}),
            ("GET", f"/api/tables/{tables.running}/view", {"since": text}),
            ("GET", "/api/tables", {"status": text}),
            ("POST", f"/api/tables/{tables.open}/seats/{part}", {}),
            ("GET", f"/api/tables/{part}/record", {}),
            ("POST", f"/api/tables/{part}/actions", {}),
            ("GET", f"/api/tables/{tables.running}/replay", {"move": text, "lang": text}),
            ("GET", f"/api/tables/{part}/replay", {}),
            ("GET", f"/api/tables/{tables.running}/replay/seat", {"lang": text}),  # a seat's own (issue 25)
            ("GET", f"/api/tables/{part}/replay/seat", {}),
            ("GET", f"/static/{part}", {}),  # issue 26, security 3: /static/%00 was a 500
        ][which]
        response = api.request(method, path, tables.tokens[tables.seat], params=params, json={"x_": 1})
        assert response.status_code < 500, (path, params, response.status_code, response.text)
        assert method == "GET" or response.status_code >= 400, (path, response.status_code, response.text)

    bodies()
    paths_and_queries()
    assert api.request("GET", "/static/%00").status_code == 404  # issue 26, security 3 (not left to chance)
    assert tables.snapshot(cluster.api(1)) == before


def ws_templates(t: Tables) -> list[dict[str, str]]:
    return [
        {"type": '"act"', "action": json.dumps(t.action), "move_no": str(t.move_no), "id": '"a"'},
        {"type": '"undo"', "move_no": str(t.move_no), "id": '"u"'},
        {"type": '"ping"', "id": '"p"'},
        {"type": '"auth"', "token": '"abc"'},
    ]


@pytest.mark.parametrize("socket", ["tables", "play"])  # the API's socket and the browser's
def test_fuzz_websocket(cluster: Cluster, tables: Tables, socket: str) -> None:
    api = cluster.api()
    before = tables.snapshot(api)
    templates = ws_templates(tables)
    base = cluster.url(1).replace("http://", "ws://")
    with Ws(f"{base}/ws/{socket}/{tables.running}") as ws:
        ws.auth(tables.tokens[tables.seat])
        assert ws.recv()["type"] == "state"

        @FUZZ
        @given(data=st.data())
        def messages(data: st.DataObject) -> None:
            message = data.draw(hostile_body(data.draw(st.sampled_from(templates))))
            ws.conn.send(message if data.draw(st.booleans()) else message.decode(errors="replace"))
            reply = ws.reply()
            assert reply["type"] == "error" and reply["error"] in ("malformed", "too_large"), (message[:200], reply)
            ws.send({"type": "ping", "id": 1})
            assert ws.reply() == {"type": "pong", "id": 1}

        messages()
    assert tables.snapshot(cluster.api(1)) == before


def test_an_anonymous_chat_read_is_one_bounded_page(tmp_path: Path) -> None:
    # issue 26, security 3: a table's whole chat (up to 4 MB) was one anonymous, unpaginated GET
    server = ServerProcess(tmp_path, extra=("--chat-messages", "1000", "--chat-max", "300")).start()
    try:
        api = Api(server.url)
        table_id, _host, tokens = api.table("glueckauf", 2)
        for n in range(250):
            api.ok("POST", f"/api/tables/{table_id}/chat", tokens[n % 2], json={"text": f"message {n}"})
        first = api.ok("GET", f"/api/tables/{table_id}/chat")  # anybody may read: one page of 100
        assert [m["no"] for m in first["messages"]] == list(range(100)) and first["next"] == 100
        pages, after = [], 0
        while after is not None:
            page = api.ok("GET", f"/api/tables/{table_id}/chat", params={"after": after, "limit": 200})
            pages.append(len(page["messages"]))
            after = page["next"]
        assert pages == [200, 50]
        for limit in ("0", "201", "-1", "x"):
            assert api.request("GET", f"/api/tables/{table_id}/chat", params={"limit": limit}).status_code == 400
    finally:
        server.stop()
