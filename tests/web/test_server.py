"""The browser's server side without a browser: pages, static files, texts, the play socket."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from stammtisch import i18n
from stammtisch.server.app import create_app
from stammtisch.server.config import Config


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Config(data_dir=tmp_path, bot_delay=0.0))) as client:
        yield client


def test_pages_and_static_files_come_from_here_only(client: TestClient) -> None:
    for path in ("/", "/play/abc"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        csp = response.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert "http" not in response.text.replace("http-equiv", "")  # nothing from elsewhere
    script = client.get("/static/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    for name in ("app.js", "tablepage.js", "decision.js", "sealed.js", "seats.js", "notices.js", "waiting.js",
                 "lobby.js", "common.js", "app.css"):
        assert "https://" not in client.get(f"/static/{name}").text


def test_ui_texts_in_every_language(client: TestClient) -> None:
    polish = client.get("/api/i18n/pl").json()
    assert polish["lang"] == "pl"
    assert polish["strings"]["It is your turn."] == "Twój ruch."
    with i18n.using_language("pl"):
        phase = polish["terms"]["diemacher"]["PHASE_NAMES"]["media"]
        assert phase == i18n._("3 Secure Media Influence") != "3 Secure Media Influence"
    assert client.get("/api/i18n/xx", headers={"accept-language": "de-DE,de;q=0.9"}).json()["lang"] == "de"
    assert client.get("/api/i18n/xx").json()["lang"] == "en"
    for code in i18n.available_languages():
        data = client.get(f"/api/i18n/{code}").json()
        assert data["lang"] == code and len(data["strings"]) > 50


def test_ui_texts_are_compressed_and_revalidated(client: TestClient) -> None:
    """issue 25 defect 5: /api/i18n/{lang} (34–37 KB) went uncompressed, with no-cache and no ETag, on every load."""
    plain = client.get("/api/i18n/de", headers={"accept-encoding": "identity"})
    packed = client.get("/api/i18n/de", headers={"accept-encoding": "gzip, deflate"})
    assert packed.headers["content-encoding"] == "gzip" and packed.json() == plain.json()
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.headers["vary"] == "Accept-Encoding"
    assert packed.headers["cache-control"] == "no-cache"  # asked again on each load (an upgrade changes the texts) …
    again = client.get("/api/i18n/de", headers={"accept-encoding": "gzip", "if-none-match": packed.headers["etag"]})
    assert again.status_code == 304 and again.content == b""  # … and answered without a body while they are the same
    other = client.get("/api/i18n/pl", headers={"accept-encoding": "gzip", "if-none-match": packed.headers["etag"]})
    assert other.status_code == 200 and other.json()["lang"] == "pl"


def table(client: TestClient) -> tuple[str, str, str]:
    created = client.post("/api/tables", json={"game": "diemacher", "players": 3, "options": {}}).json()
    table_id, host = created["table_id"], created["host_token"]
    mine = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Anna"}).json()
    for seat in (1, 2):
        client.post(f"/api/tables/{table_id}/bots", json={"seat": seat, "kind": "random"},
                    headers={"authorization": f"Bearer {host}"})
    return table_id, host, mine["token"]


def state(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message


def test_play_socket_speaks_the_readers_language(client: TestClient) -> None:
    table_id, host, token = table(client)
    client.post(f"/api/tables/{table_id}/start", json={}, headers={"authorization": f"Bearer {host}"})
    with client.websocket_connect(f"/ws/play/{table_id}?lang=pl") as ws:
        ws.send_json({"type": "auth", "token": token})  # issue #9 Tokens: the first message, not the URL
        message = state(ws)
        assert message["history"] and message["seat"] == 0 and message["lang"] == "pl"
        assert len(message["labels"]) == len(message["legal"]) > 0
        assert message["sentences"] and all(message["sentences"])
        assert 0 in message["connected"]
        with i18n.using_language("pl"):
            assert message["labels"][0].startswith(i18n._("Pick {card}").split("{")[0])
        ws.send_json({"type": "act", "action": message["legal"][0], "move_no": message["move_no"], "id": 1})
        while True:
            reply = ws.receive_json()
            if reply.get("id") == 1:
                assert reply["type"] == "ok"
                break
    with client.websocket_connect(f"/ws/play/{table_id}?lang=de") as ws:  # a spectator
        ws.send_json({"type": "auth"})
        message = state(ws)
        assert message["seat"] is None and message["legal"] == [] and message["sentences"]
        with i18n.using_language("de"):
            private = i18n._("Your draft hand: {cards}").split("{")[0]
        assert not any(private in s for s in message["sentences"])


def test_play_socket_takes_its_token_from_the_first_message(client: TestClient, tmp_path: Path) -> None:
    table_id, host, token = table(client)
    client.post(f"/api/tables/{table_id}/start", json={}, headers={"authorization": f"Bearer {host}"})
    # issue #9 Tokens: a token in the address is refused (addresses are logged), never used
    with client.websocket_connect(f"/ws/play/{table_id}?token={token}") as ws:
        assert ws.receive_json()["error"] == "malformed"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    with client.websocket_connect(f"/ws/play/{table_id}") as ws:
        ws.send_json({"type": "auth", "token": "wrong", "id": "auth"})
        assert ws.receive_json()["error"] == "wrong_token"  # and the socket stays open: watch instead
        ws.send_json({"type": "auth", "id": "auth"})
        assert ws.receive_json() == {"type": "ok", "seat": None, "id": "auth"}
        assert state(ws)["seat"] is None
    with client.websocket_connect(f"/ws/play/{table_id}", headers={"authorization": f"Bearer {token}"}) as ws:
        assert state(ws)["seat"] == 0
    with TestClient(create_app(Config(data_dir=tmp_path / "other", auth_timeout=0.2))) as patient:
        other_table, _, _ = table(patient)
        with patient.websocket_connect(f"/ws/play/{other_table}") as ws:  # a socket that never says who it is
            assert ws.receive_json()["error"] == "no_auth"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4408


def test_using_language_is_per_thread_and_task() -> None:
    seen: dict[str, str] = {}

    def worker(code: str) -> None:
        with i18n.using_language(code):
            for _ in range(200):
                seen[code] = i18n._("Language")

    threads = [threading.Thread(target=worker, args=(code,)) for code in ("de", "pl", "ko")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert i18n.current_language() == "en"
    assert i18n._("Language") == "Language"
    with i18n.using_language("de"):
        assert i18n.current_language() == "de" and i18n.format_number(5000) == "5.000"
    assert i18n.best_language("fr-FR,pl;q=0.8,de;q=0.9") == "de"
    assert i18n.best_language(None) == "en"


def test_the_history_carries_each_lines_event_as_live_sockets_got_it(client: TestClient) -> None:
    """issue #14 (the log's filters and result panels after a reload): the first state's ``log_events``
    are parallel to its sentences and are the events live sockets were sent, each with its entry and
    the seat whose move it was; a spectator's history holds no seat's private event."""
    import random

    created = client.post("/api/tables", json={"game": "diemacher", "players": 3, "options": {}}).json()
    table_id, host = created["table_id"], created["host_token"]
    tokens = [client.post(f"/api/tables/{table_id}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
              for s in range(3)]
    client.post(f"/api/tables/{table_id}/start", json={}, headers={"authorization": f"Bearer {host}"})
    rng = random.Random(2)
    movers: list[int | None] = [None]  # entry n (the n-th move: no take-backs here) → the seat that made it
    with client.websocket_connect(f"/ws/play/{table_id}?lang=en") as ws:
        ws.send_json({"type": "auth", "token": tokens[0]})
        first = state(ws)
        assert first["history"] and len(first["log_events"]) == len(first["sentences"])
        assert all(e["entry"] == 0 and e["by"] is None for e in first["log_events"])  # the setup
        lines, events = list(first["sentences"]), list(first["log_events"])
        for _ in range(40):
            views = [client.get(f"/api/tables/{table_id}/view", headers={"authorization": f"Bearer {t}"}).json()
                     for t in tokens]
            seat = next(s for s, v in enumerate(views) if v["legal"])
            answer = client.post(f"/api/tables/{table_id}/actions", headers={"authorization": f"Bearer {tokens[seat]}"},
                                 json={"action": rng.choice(views[seat]["legal"]), "move_no": views[seat]["move_no"]})
            assert answer.status_code == 200
            movers.append(seat)
        last = client.get(f"/api/tables/{table_id}/view", headers={"authorization": f"Bearer {tokens[0]}"}).json()
        while True:  # the pushes since (several moves may come as one)
            message = state(ws)
            lines += message["sentences"]
            events += message["events"]
            if message["move_no"] == last["move_no"]:
                break
    assert any(e["entry"] > 0 for e in events)
    for event in events:
        assert event["by"] == movers[event["entry"]], event
    with client.websocket_connect(f"/ws/play/{table_id}?lang=en") as ws:
        ws.send_json({"type": "auth", "token": tokens[0]})
        again = state(ws)
    assert again["sentences"] == lines and again["log_events"] == events
    with client.websocket_connect(f"/ws/play/{table_id}?lang=en") as ws:
        ws.send_json({"type": "auth"})
        watching = state(ws)
    kinds = {e["kind"] for e in watching["log_events"]}
    assert len(watching["log_events"]) == len(watching["sentences"]) and "draft_hand" not in kinds
    assert "draft_hand" in {e["kind"] for e in events}  # seat 0 sees its own
