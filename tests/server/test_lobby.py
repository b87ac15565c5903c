"""Lobby: tables, seats, tokens, invitations, bots, starting, spectators."""

from __future__ import annotations

from stammtisch import registry
from tests.server.helpers import Cluster, Ws


def test_create_list_join_start(cluster: Cluster) -> None:
    api, other = cluster.api(0), cluster.api(1)
    table_id, host = api.create("diemacher", 3, {"elections": 7, "open_money": True})
    listed = {t["id"]: t for t in other.ok("GET", "/api/tables")["tables"]}
    assert listed[table_id]["status"] == "open"
    assert listed[table_id]["options"] == {"elections": 7, "open_money": True}
    assert [s["kind"] for s in listed[table_id]["seats"]] == ["free", "free", "free"]

    token = other.join(table_id, 1, "Anna")
    taken = api.request("POST", f"/api/tables/{table_id}/seats/1", json={"name": "Bert"})
    assert taken.status_code == 409 and "taken" in taken.json()["message"]
    assert api.request("POST", f"/api/tables/{table_id}/seats/3", json={}).status_code == 400

    early = api.request("POST", f"/api/tables/{table_id}/start", host)
    assert early.status_code == 409 and "1 of 3" in early.json()["message"]
    api.bot(table_id, host, 0, "heuristic")
    api.bot(table_id, host, 2, "random")
    api.start(table_id, host)
    again = other.request("POST", f"/api/tables/{table_id}/start", host)
    assert again.status_code == 409
    late = other.request("POST", f"/api/tables/{table_id}/seats/0", json={})
    assert late.status_code == 409

    info = other.ok("GET", f"/api/tables/{table_id}")
    assert info["status"] in ("running", "finished")
    assert [s["kind"] for s in info["seats"]] == ["bot", "human", "bot"]
    assert info["seats"][1]["name"] == "Anna"
    running = {t["id"] for t in api.ok("GET", "/api/tables", params={"status": "running"})["tables"]}
    opened = {t["id"] for t in api.ok("GET", "/api/tables", params={"status": "open"})["tables"]}
    assert table_id in running and table_id not in opened
    mine = other.view(table_id, token)
    assert mine["seat"] == 1 and mine["view"]["board"]["seats"][1]["money"] is not None


def test_create_rejects_bad_tables(cluster: Cluster) -> None:
    api = cluster.api()
    before = len(api.ok("GET", "/api/tables")["tables"])
    for body, words in [
        ({"game": "chess", "players": 2}, "unknown game"),
        ({"game": "diemacher", "players": 9}, "3 to 5"),
        ({"game": "diemacher", "players": 3, "options": {"elections": 5}}, "elections"),
        ({"game": "diemacher", "players": 3, "options": {"bogus": 1}}, "bogus"),
        ({"game": "diemacher", "players": 3, "options": {"data_file": "/etc/passwd"}}, "file"),  # its former name
        ({"game": "diemacher", "players": 3, "options": {"edition": "/etc/passwd"}}, "file"),
        ({"game": "glueckauf", "players": 2, "options": {"edition": "/etc/passwd"}}, "file"),
        ({"game": "glueckauf", "players": "two"}, "players"),
        ({"players": 2}, "game"),
    ]:
        response = api.request("POST", "/api/tables", json=body)
        assert response.status_code == 400, (body, response.text)
        assert words in response.json()["message"], (body, response.json())
    assert len(api.ok("GET", "/api/tables")["tables"]) == before


def test_host_token_guards_bots_invites_start(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, host = api.create("glueckauf", 2)
    _, other_host = api.create("glueckauf", 2)
    for path, body in [("bots", {"seat": 0}), ("invites", {}), ("start", {})]:
        missing = api.request("POST", f"/api/tables/{table_id}/{path}", json=body)
        wrong = api.request("POST", f"/api/tables/{table_id}/{path}", other_host, json=body)
        assert missing.status_code == 401 and wrong.status_code == 403, path
    assert all(s["kind"] == "free" for s in api.ok("GET", f"/api/tables/{table_id}")["seats"])
    bad_kind = api.request("POST", f"/api/tables/{table_id}/bots", host, json={"seat": 0, "kind": "genius"})
    assert bad_kind.status_code == 400


def test_invites_hold_one_seat_each(cluster: Cluster) -> None:
    api, other = cluster.api(0), cluster.api(1)
    table_id, host = api.create("glueckauf", 3)
    api.join(table_id, 0, "Host")
    invites = api.ok("POST", f"/api/tables/{table_id}/invites", host)["invites"]
    assert [i["seat"] for i in invites] == [1, 2]
    # issue #9 Tokens: the invitation rides in the link's fragment (never sent to a server), in a relative link
    assert [i["url"] for i in invites] == [f"/play/{table_id}#seat={i['seat']}&invite={i['token']}" for i in invites]
    assert len({i["token"] for i in invites}) == 2
    # An invitation names one seat; it claims (and names) that seat only.
    wrong_seat = other.request("POST", f"/api/tables/{table_id}/seats/2", invites[0]["token"], json={"name": "X"})
    assert wrong_seat.status_code == 403
    carla = other.ok("POST", f"/api/tables/{table_id}/seats/1", invites[0]["token"], json={"name": "Carla"})
    dora = other.ok("POST", f"/api/tables/{table_id}/seats/2", invites[1]["token"], json={"name": "Dora"})
    api.start(table_id, host)
    assert other.view(table_id, carla["token"])["seat"] == 1
    assert other.view(table_id, dora["token"])["seat"] == 2
    seats = api.ok("GET", f"/api/tables/{table_id}")["seats"]
    assert [s["name"] for s in seats] == ["Host", "Carla", "Dora"]


def test_spectators_watch_without_a_token(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = api.table("diemacher", 3)
    watched = cluster.api(1).view(table_id)
    assert watched["seat"] is None and watched["legal"] == [] and watched["undo_allowed"] is False
    assert all(p["money"] is None and "hand" not in p for p in watched["view"]["board"]["seats"])
    first = watched["legal"] or api.view(table_id, tokens[0])["legal"][0]
    refused = api.act(table_id, None, first, watched["move_no"])
    assert refused.status_code == 401 and "token" in refused.json()["message"]
    with cluster.ws(table_id, i=1) as ws:
        state = ws.recv()
        assert state["type"] == "state" and state["seat"] is None and state["view"] == watched["view"]
        ws.send({"type": "act", "action": first, "move_no": state["move_no"]})
        assert ws.reply()["error"] == "no_token"
    assert api.view(table_id)["move_no"] == watched["move_no"]


def test_unknown_table(cluster: Cluster) -> None:
    api = cluster.api()
    assert api.request("GET", "/api/tables/nope/view").status_code == 404
    with Ws(cluster.url().replace("http://", "ws://") + "/ws/tables/nope") as ws:
        message = ws.recv()
        assert message["type"] == "error" and message["error"] == "not_found"


def test_the_games_publish_their_option_schema_in_the_readers_language(cluster: Cluster) -> None:
    """issue #10: the lobby form is generated from GET /api/games (labels translated, no file options)."""
    api = cluster.api()
    games = api.ok("GET", "/api/games", params={"lang": "de"})
    assert set(games) == set(registry.games())  # every installed game, the two of this package among them
    dm = {option["name"]: option for option in games["diemacher"]["schema"]}
    assert dm["elections"] == {"name": "elections", "kind": "int", "default": 4, "label": "Wahlen", "spec": "§15",
                               "choices": [4, 7], "low": None, "high": None, "length": None, "nullable": False,
                               "lobby": True, "hint": dm["elections"]["hint"]}
    assert dm["elections"]["hint"].startswith("4: das Grundspiel")  # issue 25: Elections 4/7 explained
    about = games["glueckauf"]["about"]  # issue 25: the lobby's card
    assert about["length"] == "45 bis 90 Minuten" and about["round_name"] == "Schicht {round} von {rounds}"
    assert about["complexity"] == 3 and about["summary"].startswith("Kohleförderung")
    assert "edition" not in dm and "edition" not in {o["name"] for o in games["glueckauf"]["schema"]}
    assert games["glueckauf"]["title"] == "Glück Auf" and games["diemacher"]["default_players"] == 3
    assert games["glueckauf"]["module"] == "glueckauf.js"
    english = api.ok("GET", "/api/games", params={"lang": "en"})
    assert {o["name"]: o["label"] for o in english["diemacher"]["schema"]}["elections"] == "Elections"


def test_the_lobby_names_the_games_by_their_titles_in_the_readers_language(cluster: Cluster) -> None:
    """issue 17: the lobby's titles come from the catalogs as the terminal's do (Polish edition "Szczęść Boże")."""
    api = cluster.api()
    titles = {lang: {name: game["title"] for name, game in api.ok("GET", "/api/games", params={"lang": lang}).items()}
              for lang in ("en", "pl", "ko")}
    assert {titles["en"][name] for name in ("diemacher", "glueckauf")} == {"Die Macher", "Glück Auf"}
    assert set(titles["en"]) == set(registry.games())
    assert titles["pl"]["glueckauf"] == "Szczęść Boże"
    assert (titles["ko"]["diemacher"], titles["ko"]["glueckauf"]) == ("디 마허", "글뤽 아우프")
