"""Learn to play on the server (docs/api.md, "Learn to play"): ``POST /api/tables`` with ``learn`` seats the
game's guided first game (its players, options and fixed deal); its states carry ``guide``, the steps the
game has reached, in the asked language; a new request (a reload) finds the same steps, derived from the
moves; an ordinary table has none."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from stammtisch.i18n import _, using_language
from stammtisch.registry import game_spec, games
from tests.server.test_resources import app_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as client:
        yield client


def learn(client: TestClient, game: str) -> tuple[str, str]:
    """The guided table of ``game`` as the lobby makes it: the newcomer at seat 1, the guide's bots, started."""
    guide = client.get("/api/games").json()[game]["guide"]
    created = client.post("/api/tables", json={"game": game, "players": 1, "options": {}, "learn": True})
    assert created.status_code == 201, created.text
    table_id, host = created.json()["table_id"], created.json()["host_token"]
    token = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Neu"}).json()["token"]
    for seat in range(1, guide["players"]):
        assert client.post(f"/api/tables/{table_id}/bots", json={"seat": seat, "kind": guide["bots"]},
                           headers={"authorization": f"Bearer {host}"}).status_code == 200
    assert client.post(f"/api/tables/{table_id}/start", json={},
                       headers={"authorization": f"Bearer {host}"}).status_code == 200
    return table_id, token


def my_turn(client: TestClient, table_id: str, token: str, lang: str = "en") -> dict[str, Any]:
    deadline = time.monotonic() + 60  # the bots move in the server's own task
    while time.monotonic() < deadline:
        state: dict[str, Any] = client.get(f"/api/tables/{table_id}/view", params={"lang": lang},
                                           headers={"authorization": f"Bearer {token}"}).json()
        if state["legal"] or state["status"] == "finished":
            return state
        time.sleep(0.02)
    raise TimeoutError("the newcomer was never to act")


@pytest.mark.parametrize("game", ["diemacher", "glueckauf"])
def test_a_guided_table_is_the_guides_deal_and_says_each_step(client: TestClient, game: str) -> None:
    guide = game_spec(game).guide_script()
    assert client.get("/api/games").json()[game]["guide"] == {"players": guide.players, "bots": guide.bots}
    table_id, token = learn(client, game)
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["players"] == guide.players and table["options"]["guide"] is True
    state = my_turn(client, table_id, token, "de")
    first = state["guide"]["steps"][0]
    assert first["key"] == guide.steps[0].key  # the first phase, explained when the newcomer decides in it
    with using_language("de"):
        assert first["heading"] == _(guide.steps[0].heading) != guide.steps[0].heading
        assert first["sentences"] == [_(s) for s in guide.steps[0].sentences]
    assert first["points"] and all(p["selector"] and p["piece"] for p in first["points"])
    seen = [state["guide"]["reached"]]
    for _move in range(12):  # the newcomer plays on: new steps come, none twice; a reload shows the same
        client.post(f"/api/tables/{table_id}/actions", json={"action": state["legal"][0], "move_no": state["move_no"]},
                    headers={"authorization": f"Bearer {token}"})
        state = my_turn(client, table_id, token)
        again = client.get(f"/api/tables/{table_id}/view", headers={"authorization": f"Bearer {token}"}).json()
        assert again["guide"] == state["guide"]
        reached = state["guide"]["reached"]
        assert reached[:len(seen[-1])] == seen[-1] and len(set(reached)) == len(reached)
        for step in state["guide"]["steps"]:  # numbered by the order reached: no gaps for steps never come to
            assert step["number"] == reached.index(step["key"]) + 1
        seen.append(reached)
    assert len(seen[-1]) >= 3


def test_an_ordinary_table_has_no_guide(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "glueckauf", "players": 2, "options": {}}).json()
    table_id = created["table_id"]
    tokens = [client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"P{seat}"}).json()["token"]
              for seat in range(2)]
    client.post(f"/api/tables/{table_id}/start", json={}, headers={"authorization": f"Bearer {created['host_token']}"})
    state = client.get(f"/api/tables/{table_id}/view", headers={"authorization": f"Bearer {tokens[0]}"}).json()
    assert state["status"] == "running" and "guide" not in state


def test_a_game_without_a_guide_is_refused(client: TestClient) -> None:
    plain = [name for name, spec in games().items() if spec.guide is None]
    if not plain:
        pytest.skip("every installed game has a guide")
    response = client.post("/api/tables", json={"game": plain[0], "players": 2, "options": {}, "learn": True})
    assert response.status_code == 400 and "no guided first game" in response.json()["message"]
