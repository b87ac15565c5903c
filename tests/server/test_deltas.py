"""State deltas (issue #13 "deltas", issue #9: less JSON and fewer bytes per push): a client that
asks for them (``?deltas=1``) and applies every delta with an RFC 6902 library holds, after every
move, exactly the state a client without deltas is sent; a delta carries nothing that seat's full
state does not; ``resync`` brings a full state again."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import jsonpatch
import pytest
from starlette.testclient import TestClient

from stammtisch.server.delta import apply_patch, make_patch, patch_base
from tests.server.test_resources import app_client, hub_of, sock

# (game, players, moves played at most): Glück Auf to its end, Die Macher's first ~120 moves (a whole
# game is ~400 moves of 3 seats' views, which would take this test ~20 s)
GAMES = [("glueckauf", 2, 600), ("diemacher", 3, 120)]


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with app_client(tmp_path) as client:
        yield client


def open_table(client: TestClient, game: str, players: int) -> tuple[str, list[str]]:
    response = client.post("/api/tables", json={"game": game, "players": players, "options": {}})
    assert response.status_code == 201, response.text
    table_id, host = response.json()["table_id"], response.json()["host_token"]
    tokens = [client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"P{seat}"}).json()["token"]
              for seat in range(players)]
    assert client.post(f"/api/tables/{table_id}/start", json={},
                       headers={"authorization": f"Bearer {host}"}).status_code == 200
    return table_id, tokens


class Reader:
    """One socket's messages up to a move number; with deltas, the state it holds by applying them."""

    def __init__(self, ws: Any, deltas: bool) -> None:
        self.ws, self.deltas = ws, deltas
        self.held: dict[str, Any] | None = None  # the patched state (deltas) or the last full state
        self.message: dict[str, Any] = {}  # the last message as received

    def read_until(self, move_no: int) -> None:
        while self.held is None or self.held["move_no"] < move_no or self.held.get("status") == "open":
            message = self.ws.receive_json()
            if message["type"] == "state":
                self.held, self.message = patch_base(message), message
            elif message["type"] == "delta":
                assert self.deltas and self.held is not None
                self.held = jsonpatch.apply_patch(self.held, message["patch"])
                self.message = message
            if self.held is not None and self.held.get("status") == "finished":
                return


def seat_to_act(readers: dict[Any, Reader]) -> tuple[int, list[Any], int] | None:
    """A seat that may act now: (seat, its legal actions, the move number it decides on)."""
    for seat, reader in readers.items():
        held = reader.held
        if seat is not None and held and held["status"] == "running" and held["legal"]:
            return seat, held["legal"], held["move_no"]
    return None


@pytest.mark.parametrize(("game", "players", "moves"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_client_applying_deltas_holds_the_full_state_after_every_move(
        client: TestClient, game: str, players: int, moves: int, seed: int) -> None:
    # issue #13 deltas: after each move the patched state equals the full state, for every seat and spectator
    rng = random.Random(seed)
    table_id, tokens = open_table(client, game, players)
    table = hub_of(client).tables[table_id]
    seats: list[int | None] = [*range(players), None]
    with ExitStack() as stack:
        def reader(path: str, seat: int | None, deltas: bool) -> Reader:
            ws = stack.enter_context(sock(client, f"{path}?deltas=1" if deltas else path,
                                          None if seat is None else tokens[seat]))
            return Reader(ws, deltas)

        pairs = {seat: (reader(f"/ws/tables/{table_id}", seat, True), reader(f"/ws/tables/{table_id}", seat, False))
                 for seat in seats}
        # browser sockets: sentences and labels in their language; a view patch is shared by the languages
        browsers = [(Reader(stack.enter_context(sock(client, f"/ws/play/{table_id}?lang={lang}&deltas=1")), True),
                     Reader(stack.enter_context(sock(client, f"/ws/play/{table_id}?lang={lang}")), False))
                    for lang in ("de", "ko")]
        deltas_seen = 0
        for _ in range(moves):
            for seat in seats:
                for one in pairs[seat]:
                    one.read_until(table.move_no(seat))
            for pair in browsers:
                for one in pair:
                    one.read_until(table.move_no(None))
            for seat in seats:
                patched, full = pairs[seat]
                assert patched.held == full.held, (seed, seat)
                if patched.message["type"] == "delta":
                    deltas_seen += 1
                    assert patched.message["events"] == full.message["events"]
                    for op in patched.message["patch"]:  # nothing the seat's full state does not hold
                        assert op["op"] == "remove" or jsonpatch.JsonPointer(op["path"]).resolve(
                            full.held) == op["value"]
            for browser, browser_full in browsers:
                assert browser.held == browser_full.held
                if browser.message["type"] == "delta":
                    assert browser.message["sentences"] == browser_full.message["sentences"]
            if table.status == "finished":
                break
            acting = seat_to_act({seat: pairs[seat][1] for seat in seats})
            assert acting is not None
            seat, legal, move_no = acting
            pairs[seat][0].ws.send_json({"type": "act", "action": rng.choice(legal), "move_no": move_no, "id": 1})
        assert deltas_seen > 0
        assert table.status == "finished" or game == "diemacher"


def test_resync_sends_the_full_state(client: TestClient) -> None:
    # issue #13 deltas: a full state whenever the client asks
    table_id, tokens = open_table(client, "glueckauf", 2)
    table = hub_of(client).tables[table_id]
    with sock(client, f"/ws/tables/{table_id}?deltas=1", tokens[0]) as ws:
        first = Reader(ws, True)
        first.read_until(table.move_no(0))
        ws.send_json({"type": "resync", "id": 7})
        replies = [ws.receive_json(), ws.receive_json()]
        assert {"type": "ok", "id": 7} in replies
        again = next(m for m in replies if m["type"] == "state")
        assert patch_base(again) == first.held


def test_the_python_applier_agrees_with_jsonpatch() -> None:
    # server/delta.py: the patch is RFC 6902; apply_patch (for Python clients) gives what jsonpatch gives
    rng = random.Random(5)

    def value(depth: int) -> Any:
        kind = rng.randrange(6 if depth < 3 else 3)
        if kind == 0:
            return rng.choice([None, True, False, 0, 1, 1.5, "a", "b/~c"])
        if kind == 1:
            return rng.randrange(3)
        if kind == 2:
            return rng.choice(["x", "y", ""])
        if kind in (3, 4):
            return {rng.choice(["k", "l/m", "n~o", "p"]): value(depth + 1) for _ in range(rng.randrange(4))}
        return [value(depth + 1) for _ in range(rng.randrange(3))]

    for _ in range(2000):
        old, new = {"a": value(0), "b": value(0)}, {"a": value(0), "b": value(0)}
        patch = make_patch(old, new)
        assert jsonpatch.apply_patch(old, patch) == new
        assert apply_patch(jsonpatch.apply_patch(old, []), patch) == new


def test_a_browser_watching_before_the_start_gets_the_game_whole(client: TestClient) -> None:
    # issue #13 deltas: the first state of a game (its history and describe()) is never a delta
    response = client.post("/api/tables", json={"game": "glueckauf", "players": 2, "options": {}})
    table_id, host = response.json()["table_id"], response.json()["host_token"]
    for seat in range(2):
        client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"P{seat}"})
    with sock(client, f"/ws/play/{table_id}?lang=de&deltas=1") as ws:
        first = ws.receive_json()
        while first["type"] != "state":
            first = ws.receive_json()
        assert first["status"] == "open"
        client.post(f"/api/tables/{table_id}/start", json={}, headers={"authorization": f"Bearer {host}"})
        started = ws.receive_json()
        assert started["type"] == "state" and started["history"] is True and "describe" in started
        assert started["view"] is not None
