"""Bad input over HTTP and WebSocket: always a 4xx (or an error frame), never a 500, never a half-done
change (issue #9, "Input")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.helpers import Api, Cluster


def lobby(api: Api) -> set[str]:
    """The ids of every table the lobby lists; the listing itself must work (200).  (Ids only: the other
    tests' bot tables go on playing meanwhile, so their entries change.)"""
    response = api.request("GET", "/api/tables", params={"status": "open,running,finished"})
    assert response.status_code == 200, response.text
    return {t["id"] for t in response.json()["tables"]}


def refused(response: Any, *words: str) -> dict[str, Any]:
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    body: dict[str, Any] = response.json()
    assert set(body) == {"error", "message"}, body
    for word in words:
        assert word in body["message"], body
    return body


def obj(**fields: Any) -> str:
    """A JSON object written by hand, so that it can hold what ``json.dumps`` would not write."""
    return "{" + ", ".join(f'"{name}": {value}' for name, value in fields.items()) + "}"


def raw(api: Api, path: str, text: str, token: str | None = None) -> Any:
    return api.request("POST", path, token, content=text.encode(), headers={"content-type": "application/json"})


# issue #9 item 1: an integer option above 2**64 gave a 500, was saved and broke the lobby for everyone.
@pytest.mark.parametrize("value", [2**64 + 1, 2**63, -(2**64), 10**30])
def test_huge_integer_option_is_refused_and_saves_nothing(cluster: Cluster, value: int) -> None:
    api = cluster.api()
    before = lobby(api)
    text = obj(game='"diemacher"', players=3, options=obj(win_threshold=value))
    refused(raw(api, "/api/tables", text), "win_threshold")
    assert lobby(cluster.api(1)) == before


# issue #9 item 2: deep nesting anywhere in a body, or in an action.
def test_deeply_nested_json_is_refused(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    before = lobby(api)
    seat = api.view(table_id)["to_act"][0]
    move_no = api.view(table_id)["move_no"]
    deep = "[" * 1000 + "]" * 1000
    path = f"/api/tables/{table_id}/actions"
    refused(raw(api, "/api/tables", obj(game=deep, players=2)), "game")
    refused(raw(api, "/api/tables", obj(game='"glueckauf"', players=2, options=obj(open_delivered=deep))))
    refused(raw(api, "/api/tables", obj(unknown=deep, game='"glueckauf"', players=2)))
    refused(raw(api, path, obj(action=f'["place", {deep}]', move_no=move_no), tokens[seat]), "action")
    refused(raw(api, path, obj(action="[" * 100_000, move_no=move_no), tokens[seat]))
    assert api.view(table_id)["move_no"] == move_no
    assert lobby(api) == before


# issue #9 item 2: a lone surrogate in a name (both databases), a NUL (PostgreSQL), control characters.
@pytest.mark.parametrize("name", [r"\ud800", r"Anna\udfff", r"\u0000", r"Bo\u0000b", r"a\u0007b", r"\u202e",
                                  "x" * 41, "   "])
def test_names_are_printable_text_of_bounded_length(cluster: Cluster, name: str) -> None:
    api = cluster.api()
    table_id, _host = api.create("glueckauf", 2)
    before = lobby(api)
    words = ("surrogate",) if "\\ud" in name else ("name",)
    refused(raw(api, f"/api/tables/{table_id}/seats/0", obj(name=f'"{name}"')), *words)
    assert lobby(cluster.api(1)) == before
    assert api.ok("GET", f"/api/tables/{table_id}")["seats"][0]["kind"] == "free"
    api.join(table_id, 0, "Zoë Kowalska-Śliwińska 김")  # printable text of any script is welcome


# issue #9 item 3: the WebSocket answers every bad message with an error frame and stays open; an action
# with an id it cannot echo is refused, not committed without an acknowledgement.
@pytest.mark.parametrize("message", [
    '{"type": "act", "action": %s, "move_no": 0}' % ("[" * 1000 + "]" * 1000),
    '{"type": "ping", "id": %s}' % ("[" * 1000 + "]" * 1000),
    '{"type": "ping", "id": 18446744073709551617}',
    '{"type": "ping", "id": "\\ud800"}',
    '{"type": "ping", "id": 1.5}',
    '{"type": "auth", "token": "\\u0000"}',
    "\u00ff\u00fe",
])
def test_ws_bad_messages_get_an_error_frame(cluster: Cluster, message: str) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    seat = api.view(table_id)["to_act"][0]
    with cluster.ws(table_id, tokens[seat]) as ws:
        ws.recv()
        ws.send(message)
        reply = ws.reply()
        assert reply["type"] == "error" and reply["error"] == "malformed", reply
        ws.send({"type": "ping", "id": "still-there"})
        assert ws.reply() == {"type": "pong", "id": "still-there"}


@pytest.mark.parametrize("ref", ["18446744073709551617", '"\\udc00"', "-99999999999999999999999"])
def test_ws_legal_action_with_a_bad_id_is_refused_not_lost(cluster: Cluster, ref: str) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("glueckauf", 2)
    seat = api.view(table_id)["to_act"][0]
    state = api.view(table_id, tokens[seat])
    action = json.dumps(state["legal"][0])
    with cluster.ws(table_id, tokens[seat]) as ws:
        ws.recv()
        ws.send(obj(type='"act"', action=action, move_no=state["move_no"], id=ref))
        reply = ws.reply()
        assert reply["type"] == "error" and reply["error"] == "malformed", reply
        assert api.view(table_id)["move_no"] == state["move_no"]  # nothing committed
        ws.send({"type": "act", "action": state["legal"][0], "move_no": state["move_no"], "id": 12})
        assert ws.reply() == {"type": "ok", "move_no": state["move_no"] + 1, "id": 12}


# issue #9 item 4: options that were accepted but broke the table.
@pytest.mark.parametrize(("game", "players", "options", "name"), [
    ("glueckauf", 2, {"start_player": 1.0}, "start_player"),
    ("glueckauf", 2, {"start_player": "1"}, "start_player"),
    ("glueckauf", 2, {"start_player": 2}, "start_player"),
    ("glueckauf", 3, {"count_printed_carts": 1}, "count_printed_carts"),
    ("diemacher", 3, {"base_floor": -(2**40), "donation_accept_base_loss": [2**40, 2**40, 2**40]},
     "donation_accept_base_loss"),
    ("diemacher", 3, {"base_floor": -(2**40)}, "base_floor"),
    ("diemacher", 3, {"donation_accept_base_loss": [1, 2, 2**40]}, "donation_accept_base_loss"),
    ("diemacher", 3, {"money_unit": 2**62, "overbid_mode": "honour_system_with_penalty"}, "money_unit"),
    ("diemacher", 3, {"win_threshold": 0}, "win_threshold"),
    ("diemacher", 3, {"win_threshold": 1001}, "win_threshold"),
    ("diemacher", 3, {"trend_min": -(2**40)}, "trend_min"),
    ("diemacher", 3, {"elections": 4.0}, "elections"),
])
def test_options_that_break_a_table_are_refused(cluster: Cluster, game: str, players: int,
                                                options: dict[str, Any], name: str) -> None:
    api = cluster.api()
    before = lobby(api)
    response = api.request("POST", "/api/tables", json={"game": game, "players": players, "options": options})
    refused(response, name)
    assert lobby(cluster.api(1)) == before


def test_every_body_is_checked_against_its_schema(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, host = api.create("glueckauf", 2)
    before, table_before = lobby(api), api.ok("GET", f"/api/tables/{table_id}")
    for path, token, body, words in [
        ("/api/tables", None, {"game": "glueckauf", "players": 2**70}, "players"),
        ("/api/tables", None, {"game": "glueckauf", "players": 2, "extra": 1}, "extra"),
        (f"/api/tables/{table_id}/bots", host, {"seat": 2**70}, "seat"),
        (f"/api/tables/{table_id}/bots", host, {"seat": 0, "kind": "\u0000"}, "kind"),
        (f"/api/tables/{table_id}/seats/0", None, {"name": 5}, "name"),
        (f"/api/tables/{table_id}/start", host, {"now": True}, "now"),
    ]:
        refused(api.request("POST", path, token, json=body), *words.split())
    seat_path = f"/api/tables/{table_id}/seats/{2**70}"
    refused(api.request("POST", seat_path, json={}), "seat")
    refused(api.request("GET", f"/api/tables/{table_id}/view", params={"since": str(2**70)}), "since")
    assert lobby(cluster.api(1)) == before
    assert api.ok("GET", f"/api/tables/{table_id}") == table_before
