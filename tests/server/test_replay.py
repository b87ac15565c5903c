"""Replays (issue 14, "In-browser replay"): ``GET /api/tables/{id}/replay?move=N`` gives position N as
the spectators saw it — their view, the seats to act and the events they were told — for finished
games and, up to now, for running ones; never a seat's hidden information (die-macher.md §13,
glueck-auf.md "Hidden information"); built from the move log with bounded memory."""

from __future__ import annotations

import random
from typing import Any

import jsonpatch
import orjson
import pytest
from starlette.testclient import TestClient

from stammtisch.engine.match import Match, unpack
from stammtisch.registry import game_spec, make_game
from stammtisch.server.replay import EVERY, Line, Replays
from tests.server.test_resources import client, create, hub_of

__all__ = ["client"]  # the fixture


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def humans(client: TestClient, game: str, players: int) -> tuple[str, list[str]]:
    response = client.post("/api/tables", json={"game": game, "players": players, "options": {}})
    table_id, host = response.json()["table_id"], response.json()["host_token"]
    tokens = [client.post(f"/api/tables/{table_id}/seats/{s}", json={"name": f"P{s}"}).json()["token"]
              for s in range(players)]
    assert client.post(f"/api/tables/{table_id}/start", json={}, headers=bearer(host)).status_code == 200
    return table_id, tokens


def play_and_watch(client: TestClient, table_id: str, tokens: list[str], moves: int,
                   rng: random.Random) -> tuple[dict[int, dict[str, Any]], int]:
    """Random moves (and take-backs) of the seats; after each, what a spectator is shown at its move
    number, with the events since its move number before.  Returns those and the take-backs made."""
    shown: dict[int, dict[str, Any]] = {}
    undone = 0
    for _ in range(moves):
        spectator = client.get(f"/api/tables/{table_id}/view").json()
        number = spectator["move_no"]
        since = client.get(f"/api/tables/{table_id}/view?since={number - 1}").json()  # -1: the setup's too
        shown[number] = {"view": spectator["view"], "to_act": spectator["to_act"], "events": since["events"]}
        if spectator["status"] != "running":
            break
        seat = spectator["to_act"][0]
        mine = client.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[seat])).json()
        if mine["undo_allowed"] and rng.random() < 0.3:
            response = client.post(f"/api/tables/{table_id}/undo", json={"move_no": mine["move_no"]},
                                   headers=bearer(tokens[seat]))
            undone += 1
        else:
            response = client.post(f"/api/tables/{table_id}/actions", headers=bearer(tokens[seat]),
                                   json={"action": rng.choice(mine["legal"]), "move_no": mine["move_no"]})
        assert response.status_code == 200, response.text
    return shown, undone


def replay_at(client: TestClient, table_id: str, move: int | None = None, lang: str = "en") -> dict[str, Any]:
    query = f"?lang={lang}" + ("" if move is None else f"&move={move}")
    response = client.get(f"/api/tables/{table_id}/replay{query}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_every_position_of_a_finished_game_is_what_spectators_saw(client: TestClient) -> None:
    # glueck-auf.md: a 2-player game to its end, with take-backs (issue 14: step forward and back)
    table_id, tokens = humans(client, "glueckauf", 2)
    shown, undone = play_and_watch(client, table_id, tokens, 2000, random.Random(1))
    assert undone > 0
    last = max(shown)
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    for number in sorted(shown)[::-1]:  # backwards too: every position is rebuilt, not followed
        answer = replay_at(client, table_id, number)
        assert answer["move_no"] == number and answer["last"] == last and answer["status"] == "finished"
        assert answer["view"] == shown[number]["view"], number
        assert answer["to_act"] == shown[number]["to_act"], number
        assert answer["events"] == shown[number]["events"], number
        assert len(answer["sentences"]) == len(answer["events"])
    assert replay_at(client, table_id)["move_no"] == last  # without move: the latest
    assert replay_at(client, table_id, last)["scores"] == client.get(f"/api/tables/{table_id}/view").json()["scores"]


def test_a_running_game_replays_up_to_now_and_its_rounds_are_where_they_begin(client: TestClient) -> None:
    # die-macher.md §5: the sealed draft of the setup, then round 1; spectators see the sealed steps
    # only as committed seats (§13), and the replay shows the same
    table_id, tokens = humans(client, "diemacher", 3)
    shown, _undone = play_and_watch(client, table_id, tokens, 160, random.Random(2))
    now = client.get(f"/api/tables/{table_id}/view").json()
    assert now["status"] == "running"
    for number in sorted(shown):
        answer = replay_at(client, table_id, number, "de")
        assert answer["view"] == shown[number]["view"], number
        assert answer["events"] == shown[number]["events"], number
        assert answer["round"] == answer["view"]["board"]["round"]
    answer = replay_at(client, table_id)
    assert answer["last"] == now["move_no"] and answer["status"] == "running"
    rounds = answer["rounds"]
    assert rounds[0] == {"round": 0, "move_no": 0} and rounds[1]["round"] == 1
    start = rounds[1]["move_no"]
    assert replay_at(client, table_id, start)["view"]["board"]["round"] == 1
    assert replay_at(client, table_id, start - 1)["view"]["board"]["round"] == 0
    beyond = client.get(f"/api/tables/{table_id}/replay?move={now['move_no'] + 1}")
    assert beyond.status_code == 400 and beyond.json()["error"] == "malformed"


def test_a_replay_shows_no_seat_its_hand(client: TestClient) -> None:
    # die-macher.md §13 (HI): hands and draft hands are their seat's alone; a replay gives spectators'
    # views only, whoever asks (a seat's token changes nothing)
    table_id, tokens = humans(client, "diemacher", 3)
    play_and_watch(client, table_id, tokens, 20, random.Random(3))
    for number in range(replay_at(client, table_id)["last"] + 1):
        answer = replay_at(client, table_id, number)
        assert answer["view"]["seat"] is None
        for player in answer["view"]["board"]["seats"]:
            assert "hand" not in player and "draft_hand" not in player and player["money"] is None
        assert "seed" not in str(answer)
    asked = client.get(f"/api/tables/{table_id}/replay?move=3", headers=bearer(tokens[0])).json()
    assert asked == replay_at(client, table_id, 3)


def test_bad_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    table_id, _host = create(client)
    assert client.get(f"/api/tables/{table_id}/replay").status_code == 409  # not started
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404
    started, _tokens = humans(client, "glueckauf", 2)
    for query in ("move=-1", "move=abc", "move=1e3", "token=x"):
        response = client.get(f"/api/tables/{started}/replay?{query}")
        assert response.status_code == 400 and response.json()["error"] == "malformed", query
    assert client.get(f"/api/tables/{started}/view").json()["move_no"] == 0


def test_memory_is_bounded_and_a_position_costs_at_most_every_moves(client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # issue #9 "Resources": lines of a few tables, answers of a few positions, kept states every EVERY moves
    small = Replays(kept=2, answers=5)
    monkeypatch.setattr("stammtisch.server.web._replays", small)
    tables = []
    for seed in range(3):
        table_id, tokens = humans(client, "glueckauf", 2)
        play_and_watch(client, table_id, tokens, 80, random.Random(seed))
        tables.append(table_id)
        for number in range(0, replay_at(client, table_id)["last"] + 1, 7):
            replay_at(client, table_id, number)
    assert list(small.lines) == tables[1:]
    assert len(small.views) <= 5 and len(small.sentences) <= 5
    line = small.lines[tables[2]]
    assert len(line.kept) <= line.entries // EVERY + 2
    applied = []
    real_apply = type(line.game).apply
    monkeypatch.setattr(type(line.game), "apply", lambda game, *args: applied.append(1) or real_apply(game, *args))
    for entry in range(line.entries + 1):
        applied.clear()
        line.after(entry)
        assert len(applied) <= EVERY
    assert hub_of(client).tables  # the tables themselves are the server's (bounded by max_tables)


@pytest.mark.parametrize(("game", "players", "seed"), [("diemacher", 4, 5), ("glueckauf", 3, 6)])
def test_a_line_rebuilds_every_entry_of_a_log_with_take_backs(game: str, players: int, seed: int) -> None:
    # engine/undo.py: a take-back restores the state before the move; every view after every entry
    rng = random.Random(seed)
    played = make_game(game, players)
    match = Match(played, seed, undo=True)
    views = [played.view(match.state, None)]
    while not match.is_over() and match.version < 900:
        seat = match.to_act()[0]
        if match.can_take_back(seat) and rng.random() < 0.4:
            match.take_back(seat)
        else:
            match.act(seat, rng.choice(match.legal_actions(seat)))
        views.append(played.view(match.state, seat))
    assert any(action is None for _seat, action in match.log)
    line = Line(played, seed, game_spec(game).round_function())
    for seat, action in match.log:
        line.add(seat, action)
    for entry in [*range(len(views)), *range(len(views) - 1, -1, -5)]:
        seat = match.log[entry - 1][0] if entry else None
        assert played.view(line.after(entry), seat) == views[entry], entry


# A seat's own replay (issue 25, "A replay from your own seat").

Seen = dict[int, dict[str, Any]]  # a seat's move number -> the view and events it was sent at that number


def play_to_the_end(client: TestClient, table_id: str, tokens: list[str], rng: random.Random,
                    options: dict[str, Any] | None = None) -> tuple[list[Seen], list[set[int]], list[dict[int, int]]]:
    """Random moves and take-backs to the end.  After every log entry, what each seat was sent (its
    state message, as its socket and ``GET /view`` build it): per seat and move number the last view and
    the events since its move number before; the move numbers each seat had right after its own moves;
    and the spectators' move number at each of the seat's move numbers."""
    players = len(tokens)
    seen: list[Seen] = [{} for _ in range(players)]
    after_mine: list[set[int]] = [set() for _ in range(players)]
    public: list[dict[int, int]] = [{} for _ in range(players)]

    def record(moved: int | None) -> dict[str, Any]:
        spectator = client.get(f"/api/tables/{table_id}/view").json()
        for seat, token in enumerate(tokens):
            mine = client.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
            number = mine["move_no"]
            since = client.get(f"/api/tables/{table_id}/view?since={number - 1}", headers=bearer(token)).json()
            seen[seat][number] = {"view": mine["view"], "events": since["events"]}
            public[seat][number] = spectator["move_no"]
            if seat == moved:
                after_mine[seat].add(number)
        return spectator

    spectator = record(None)
    while spectator["status"] == "running":
        seat = spectator["to_act"][0]
        mine = client.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[seat])).json()
        if mine["undo_allowed"] and rng.random() < 0.2:
            response = client.post(f"/api/tables/{table_id}/undo", json={"move_no": mine["move_no"]},
                                   headers=bearer(tokens[seat]))
            moved = None
        else:
            response = client.post(f"/api/tables/{table_id}/actions", headers=bearer(tokens[seat]),
                                   json={"action": rng.choice(mine["legal"]), "move_no": mine["move_no"]})
            moved = seat
        assert response.status_code == 200, response.text
        spectator = record(moved)
    return seen, after_mine, public


def seat_replay(client: TestClient, table_id: str, token: str, lang: str = "en") -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/replay/seat?lang={lang}", headers=bearer(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def positions(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """Every view of a seat's replay: its first view patched step by step (an RFC 6902 library)."""
    views = [replay["view"]]
    for step in replay["steps"][1:]:
        views.append(jsonpatch.apply_patch(views[-1], step["patch"]))
    return views


SECRETS = ("hand", "draft_hand", "politicians", "sealed", "donations", "poll_in_hand")


@pytest.mark.parametrize(("game", "players", "seed"), [("diemacher", 3, 11), ("glueckauf", 2, 12)])
def test_a_seats_replay_is_what_the_seat_was_sent_at_every_move(client: TestClient, game: str, players: int,
                                                               seed: int) -> None:
    # issue 25: "your money, hand and politicians as you saw them; others' secrets stay hidden unless the
    # game revealed them" — die-macher.md §13, glueck-auf.md "Hidden information"
    table_id, tokens = humans(client, game, players)
    seen, after_mine, public = play_to_the_end(client, table_id, tokens, random.Random(seed))
    for seat, token in enumerate(tokens):
        replay = seat_replay(client, table_id, token)
        assert replay["seat"] == seat and replay["status"] == "finished"
        assert replay["last"] == max(seen[seat]) == len(replay["steps"]) - 1
        assert sorted(seen[seat]) == list(range(replay["last"] + 1))
        for number, (view, step) in enumerate(zip(positions(replay), replay["steps"], strict=True)):
            assert view == seen[seat][number]["view"], (seat, number)
            assert step["events"] == seen[seat][number]["events"], (seat, number)
            assert len(step["sentences"]) == len(step["events"])
            assert replay["public"][number] == public[seat][number]
        assert set(replay["mine"]) == after_mine[seat] and replay["mine"] == sorted(replay["mine"])
        assert replay["scores"] == client.get(f"/api/tables/{table_id}/view").json()["scores"]


def test_a_seats_replay_holds_nothing_of_other_seats_secrets(client: TestClient) -> None:
    # die-macher.md §13 (HI): hands, draft hands, sealed choices, politicians and donations are their
    # seat's alone, money too until the end (without open money); of the events, only the public ones and
    # the seat's own (another seat's draft hand, drawn cards, seen poll, income never)
    table_id, tokens = humans(client, "diemacher", 3)
    play_to_the_end(client, table_id, tokens, random.Random(13))
    replay = seat_replay(client, table_id, tokens[1])
    assert "seed" not in orjson.dumps(replay).decode()
    for view in positions(replay):
        for seat, player in enumerate(view["board"]["seats"]):
            if seat == 1:
                assert "hand" in player and player["money"] is not None
            else:
                assert not set(SECRETS) & player.keys(), seat
                assert (player["money"] is not None) == (view["final"] is not None)
    match = hub_of(client).tables[table_id].match
    assert match is not None
    told = [event for packed in match.events for event in unpack(packed, 1)]
    assert [event for step in replay["steps"] for event in step["events"]] == told
    assert len(told) < sum(len(packed) for packed in match.events)  # others' private events left out


def test_only_the_seats_own_token_gets_its_replay_and_only_once_the_game_is_over(client: TestClient) -> None:
    # issue 25: another seat's token or no token cannot get seat s's replay; a running game's replay stays
    # the spectators' (docs/api.md, "A seat's replay")
    table_id, tokens = humans(client, "glueckauf", 2)
    address = f"/api/tables/{table_id}/replay/seat"
    running = client.get(address, headers=bearer(tokens[0]))
    assert running.status_code == 409 and running.json()["error"] == "conflict"
    play_to_the_end(client, table_id, tokens, random.Random(14))
    assert client.get(address).status_code == 401
    for token in ("not-a-token", client.post("/api/tables", json={"game": "glueckauf", "players": 2,
                                                                   "options": {}}).json()["host_token"]):
        response = client.get(address, headers=bearer(token))
        assert response.status_code == 403 and response.json()["error"] == "wrong_token"
    assert client.get(f"{address}?token={tokens[0]}").status_code == 400
    assert seat_replay(client, table_id, tokens[1])["seat"] == 1  # a token asks for its own seat only
    response = client.get(address, headers={**bearer(tokens[0]), "accept-encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip" and response.headers["cache-control"] == "no-store"
    assert response.json()["seat"] == 0
    opened, _host = create(client)
    waiting = client.post(f"/api/tables/{opened}/seats/0", json={"name": "P0"}).json()["token"]
    assert client.get(f"/api/tables/{opened}/replay/seat", headers=bearer(waiting)).status_code == 409
    assert client.get("/api/tables/nosuchtable/replay/seat", headers=bearer(tokens[0])).status_code == 404


@pytest.mark.parametrize(("game", "players", "kind", "round_key", "names"), [
    ("diemacher", 3, "election", "round", ["Vorherige Wahl", "Nächste Wahl"]),
    ("glueckauf", 2, "shift_ends", "shift", ["Vorherige Schichtwertung", "Nächste Schichtwertung"])])
def test_the_jumps_lead_to_each_scoring_and_round(client: TestClient, game: str, players: int, kind: str,
                                                  round_key: str, names: list[str]) -> None:
    # issue 25: "next election" jumps (die-macher.md: one election a round; glueck-auf.md: the scoring at
    # each shift's end), named in the reader's language, in the seat's replay and in the spectators'
    table_id, tokens = humans(client, game, players)
    play_to_the_end(client, table_id, tokens, random.Random(15))
    replay = seat_replay(client, table_id, tokens[0], "de")
    scored = [n for n, step in enumerate(replay["steps"]) if any(e["kind"] == kind for e in step["events"])]
    assert replay["scorings"] == scored and len(scored) >= 2
    assert replay["scoring_names"] == names
    views = positions(replay)
    for start in replay["rounds"][1:]:  # each round begins where the view's round changes
        assert views[start["move_no"]]["board"][round_key] == start["round"]
        assert views[start["move_no"] - 1]["board"][round_key] == start["round"] - 1
    spectators = replay_at(client, table_id, 0, "de")
    assert spectators["scoring_names"] == replay["scoring_names"]
    for number in spectators["scorings"]:
        assert any(e["kind"] == kind for e in replay_at(client, table_id, number)["events"])
    assert len(spectators["scorings"]) == len(scored)
