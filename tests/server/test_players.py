"""Personal keys, "my games" and rematches (issue 15): a key lists the tables of its own seats and nothing
else, the tables waiting for its player first; bad input is refused and changes nothing; no token is
ever listed; a finished table has one rematch with the same seats, options and pace."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.server.helpers import Api, Cluster, finished, two_humans, wait_for

PACE = {"mode": "turn", "per_move": 3600}


def new_key(api: Api) -> str:
    key: str = api.ok("POST", "/api/players", json={})["key"]
    return key


def mine(api: Api, key: str) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = api.ok("GET", "/api/players/me/tables", key)["tables"]
    return tables


def test_a_key_lists_its_own_seats_with_public_facts_and_no_token(cluster: Cluster) -> None:
    api = cluster.api()
    key, other = new_key(api), new_key(cluster.api(1))
    assert mine(api, key) == []
    table_id, host, tokens = two_humans(api, {0: key, 1: other})
    listed = mine(cluster.api(1), key)
    assert [(e["table"]["id"], e["seats"]) for e in listed] == [(table_id, [0])]
    assert listed[0]["table"] == api.ok("GET", f"/api/tables/{table_id}")  # the public facts, nothing more
    text = json.dumps(listed)
    for secret in [host, key, other, *tokens.values()]:
        assert secret not in text
    assert [e["seats"] for e in mine(api, other)] == [[1]]


@pytest.mark.parametrize(("headers", "status"), [({}, 401), ({"Authorization": "Bearer " + "A" * 32}, 403),
                                                 ({"Authorization": "Bearer not a key!"}, 403)])
def test_no_key_or_a_wrong_key_lists_nothing(cluster: Cluster, headers: dict[str, str], status: int) -> None:
    api = cluster.api()
    two_humans(api, {0: new_key(api)})
    response = api.request("GET", "/api/players/me/tables", headers=headers)
    assert response.status_code == status, response.text
    assert "tables" not in response.json()


def test_a_key_in_the_address_is_refused(cluster: Cluster) -> None:
    api = cluster.api()
    key = new_key(api)
    response = api.request("GET", f"/api/players/me/tables?token={key}")
    assert response.status_code == 400


@pytest.mark.parametrize("body", [{"name": "X", "key": "A" * 32}, {"name": "X", "key": "bad key"},
                                  {"name": "X", "key": 5}, {"name": "X", "key": ""}])
def test_joining_with_a_wrong_or_malformed_key_is_refused_and_takes_no_seat(cluster: Cluster,
                                                                            body: dict[str, Any]) -> None:
    api = cluster.api()
    table_id, _host = api.create("glueckauf", 2)
    response = api.request("POST", f"/api/tables/{table_id}/seats/0", json=body)
    assert response.status_code in (400, 403), response.text
    assert api.ok("GET", f"/api/tables/{table_id}")["seats"][0]["kind"] == "free"


def test_new_keys_take_no_body_fields(cluster: Cluster) -> None:
    response = cluster.api().request("POST", "/api/players", json={"email": "a@b.c"})
    assert response.status_code == 400


def test_a_seat_is_bound_to_a_key_only_by_its_own_token(cluster: Cluster) -> None:
    api = cluster.api()
    key = new_key(api)
    table_id, host, tokens = two_humans(api)
    for token, status in [(None, 401), (host, 403), ("x" * 32, 403)]:
        response = api.request("POST", f"/api/tables/{table_id}/key", token, json={"key": key})
        assert response.status_code == status, response.text
    assert api.request("POST", f"/api/tables/{table_id}/key", tokens[1], json={"key": "A" * 32}).status_code == 403
    assert mine(api, key) == []
    assert api.ok("POST", f"/api/tables/{table_id}/key", tokens[1], json={"key": key}) == {"table_id": table_id,
                                                                                           "seat": 1}
    assert [e["seats"] for e in mine(cluster.api(1), key)] == [[1]]


def test_the_tables_waiting_for_me_come_first_with_my_deadline(cluster: Cluster) -> None:
    # issue 15: "every table the user sits at, whose turn it is, the time left ... waiting for them first"
    api = cluster.api()
    key = new_key(api)
    waiting_id, _h, waiting_tokens = two_humans(api, pace=PACE)
    other_id, _h, other_tokens = two_humans(api, pace=PACE)
    deciding = api.ok("GET", f"/api/tables/{waiting_id}")["to_act"][0]
    idle = 1 - api.ok("GET", f"/api/tables/{other_id}")["to_act"][0]
    api.ok("POST", f"/api/tables/{waiting_id}/key", waiting_tokens[deciding], json={"key": key})
    api.ok("POST", f"/api/tables/{other_id}/key", other_tokens[idle], json={"key": key})
    listed = mine(cluster.api(1), key)
    assert [e["table"]["id"] for e in listed] == [waiting_id, other_id]  # the newer table comes second
    assert [e["my_turn"] for e in listed] == [True, False]
    assert listed[0]["deadline"] == listed[0]["table"]["clocks"][deciding]["deadline"]
    assert time.time() < listed[0]["deadline"] <= time.time() + 3600
    assert listed[1]["deadline"] is None
    for table_id, tokens in ((waiting_id, waiting_tokens), (other_id, other_tokens)):
        finished(api, tokens, table_id)  # timed tables left running are read at every server start


def test_each_table_says_where_its_game_stands(cluster: Cluster) -> None:
    # issue 25 "My games that tells you something": the round of how many, when the last move was made, the
    # result of a finished game (what every spectator sees), and nothing of it before a game has begun
    api = cluster.api()
    key = new_key(api)
    before = time.time()
    running_id, _h, _tokens = two_humans(api, {0: key})
    ended_id, _h, tokens = two_humans(api, {0: key})
    finished(api, tokens, ended_id)
    open_id, _host = api.create("glueckauf", 2)
    api.ok("POST", f"/api/tables/{open_id}/seats/0", json={"name": "P0", "key": key})
    listed = {e["table"]["id"]: e for e in mine(cluster.api(1), key)}
    running, ended = listed[running_id], listed[ended_id]
    assert (running["round"], running["rounds"]) == (1, 3) and "result" not in running
    assert (ended["round"], ended["rounds"]) == (3, 3)
    assert before <= running["last_move"] <= ended["last_move"] <= time.time()
    final = api.view(ended_id)["view"]["final"]
    assert ended["result"] == {"scores": final["scores"], "winners": final["winners"]}
    assert set(listed[open_id]) == {"table", "seats", "reserved", "my_turn", "deadline"}


def test_a_key_derives_a_seat_token_for_its_own_seats_only(cluster: Cluster) -> None:
    # another device with the key plays the seat; the seat's first token keeps working
    api = cluster.api()
    key = new_key(api)
    table_id, _host, tokens = two_humans(api, {1: key})
    other_id, _host2, _tokens2 = two_humans(api)
    derived = api.ok("POST", f"/api/players/me/tables/{table_id}/token", key, json={})
    assert derived["seat"] == 1 and derived["token"] not in (tokens[0], tokens[1])
    assert cluster.api(1).view(table_id, derived["token"])["seat"] == 1
    assert api.view(table_id, tokens[1])["seat"] == 1
    assert api.request("GET", f"/api/tables/{other_id}/view", derived["token"]).status_code == 403
    refused = [api.request("POST", f"/api/players/me/tables/{other_id}/token", key, json={}),
               api.request("POST", f"/api/players/me/tables/{table_id}/token", key, json={"seat": 0}),
               api.request("POST", f"/api/players/me/tables/{table_id}/token", new_key(api), json={}),
               api.request("POST", f"/api/players/me/tables/{table_id}/token", None, json={})]
    assert [r.status_code for r in refused] == [403, 403, 403, 401]
    assert all("token" not in r.json() for r in refused)


def test_a_rematch_has_the_same_seats_options_and_pace_and_happens_once(cluster: Cluster) -> None:
    # issue 15 / issue 14: "Rematch from the final table with the same seats, options and pace"
    api, api2 = cluster.api(), cluster.api(1)
    keys = {0: new_key(api), 1: new_key(api)}
    table_id, _host, tokens = two_humans(api, keys, {"hints": True}, PACE)
    refused = api.request("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={})
    assert refused.status_code == 409  # not over yet
    finished(api, tokens, table_id)
    for token, status in [(None, 401), ("x" * 32, 403)]:
        assert api.request("POST", f"/api/tables/{table_id}/rematch", token, json={}).status_code == status
    first = api.ok("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={"key": keys[0]})
    second = api2.ok("POST", f"/api/tables/{table_id}/rematch", tokens[1], json={})
    assert first["table_id"] == second["table_id"] and "host_token" in first and "host_token" not in second
    assert (first["seat"], second["seat"]) == (0, 1)
    new_id = first["table_id"]
    old = api.ok("GET", f"/api/tables/{table_id}")
    new = wait_for(lambda: (t := api2.ok("GET", f"/api/tables/{new_id}"))["status"] == "running" and t,
                   "the rematch's start")
    assert old["rematch"] == new_id and new["rematch_of"] == table_id
    for same in ("game", "players", "options", "pace", "standin_kind"):
        assert new[same] == old[same], same
    assert [(s["kind"], s["name"]) for s in new["seats"]] == [(s["kind"], s["name"]) for s in old["seats"]]
    assert api.view(new_id, first["token"])["seat"] == 0 and api2.view(new_id, second["token"])["seat"] == 1
    assert {e["table"]["id"] for e in mine(api, keys[0])} == {table_id, new_id}
    assert {e["table"]["id"] for e in mine(api, keys[1])} == {table_id, new_id}  # bound by the reservation
    again = api2.ok("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={})
    assert again["table_id"] == new_id and "host_token" not in again
    finished(api, {0: again["token"], 1: second["token"]}, new_id)


def test_a_rematch_keeps_bots_of_the_same_kind_and_waits_for_the_people(cluster: Cluster) -> None:
    api = cluster.api()
    created = api.ok("POST", "/api/tables", json={"game": "glueckauf", "players": 3, "standin": "random"})
    table_id, host = created["table_id"], created["host_token"]
    tokens = {0: api.join(table_id, 0, "Anna"), 2: api.join(table_id, 2, "Cleo")}
    api.bot(table_id, host, 1, "random")
    api.start(table_id, host)
    finished(api, tokens, table_id)
    first = api.ok("POST", f"/api/tables/{table_id}/rematch", tokens[2], json={})
    new_id = first["table_id"]
    new = cluster.api(1).ok("GET", f"/api/tables/{new_id}")
    assert new["status"] == "open"  # Anna has not joined yet
    assert [(s["kind"], s["bot"]) for s in new["seats"]] == [("invited", None), ("bot", "random"), ("human", None)]
    # nobody but the seat's own player takes a reserved seat
    assert api.request("POST", f"/api/tables/{new_id}/seats/0", json={"name": "Eve"}).status_code == 409
    joined = cluster.api(1).ok("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={})
    assert joined["seat"] == 0
    wait_for(lambda: api.ok("GET", f"/api/tables/{new_id}")["status"] == "running", "the rematch's start")


def test_a_rematch_is_refused_for_bad_input_and_spectators(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = two_humans(api)
    finished(api, tokens, table_id)
    bad = [api.request("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={"key": "A" * 32}),
           api.request("POST", f"/api/tables/{table_id}/rematch", tokens[0], json={"seats": [1]}),
           api.request("POST", f"/api/tables/{table_id}/rematch", tokens[0], content=b"[1"),
           api.request("POST", "/api/tables/nosuchtable/rematch", tokens[0], json={})]
    assert [r.status_code for r in bad] == [403, 400, 400, 404]
    assert "rematch" not in api.ok("GET", f"/api/tables/{table_id}")  # nothing was created
