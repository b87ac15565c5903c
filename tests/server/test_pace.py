"""Table pace, clocks and stand-ins (issue 15): deadlines come from stored times, a stand-in takes an
overdue seat at once and exactly once (several processes, a killed server), and the player takes the
seat back."""

from __future__ import annotations

import contextlib
import random
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from stammtisch.engine.record import parse_record
from tests.server.conftest import services_up
from tests.server.helpers import IN_CI, POSTGRES_URL, REDIS_URL, Api, Cluster, ServerProcess, own_postgres, wait_for
from tests.server.test_metrics import samples, total

TICK = ("--clock-tick", "0.1")


def create(api: Api, pace: dict[str, Any] | None, bots: dict[int, str], standin: str | None = None
           ) -> tuple[str, str, dict[int, str]]:
    body: dict[str, Any] = {"game": "glueckauf", "players": 2, "options": {}}
    if pace is not None:
        body["pace"] = pace
    if standin:
        body["standin"] = standin
    created = api.ok("POST", "/api/tables", json=body)
    table_id, host = created["table_id"], created["host_token"]
    tokens = {}
    for seat in range(2):
        if seat in bots:
            api.bot(table_id, host, seat, bots[seat])
        else:
            tokens[seat] = api.join(table_id, seat, f"P{seat}")
    api.start(table_id, host)
    return table_id, host, tokens


@pytest.mark.parametrize("pace", [{"mode": "slow"}, {"mode": "turn", "per_move": 0}, {"mode": "turn"},
                                  {"mode": "realtime", "base": 60, "per_move": 5}, {"mode": "turn", "per_move": -1},
                                  {"mode": "realtime", "base": 10**9, "increment": 1}, {"mode": "turn", "x": 1}])
def test_a_bad_pace_is_refused_and_creates_nothing(cluster: Cluster, pace: dict[str, Any]) -> None:
    # issue 15: bad input gets a clear error and creates no table
    api = cluster.api()
    before = {t["id"] for t in api.ok("GET", "/api/tables?status=open")["tables"]}
    response = api.request("POST", "/api/tables", json={"game": "glueckauf", "players": 2, "pace": pace})
    assert response.status_code == 400, response.text
    assert "pace" in response.json()["message"]
    # (ids, not a count: an open table of another test may close meanwhile)
    assert {t["id"] for t in api.ok("GET", "/api/tables?status=open")["tables"]} <= before


def test_untimed_is_the_default_and_has_no_clocks(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, _host, tokens = create(api, None, {1: "random"})
    info = api.ok("GET", f"/api/tables/{table_id}")
    assert info["pace"] == {"mode": "untimed"} and "clocks" not in info


def test_real_time_clocks_are_shown_to_everybody_and_run_for_the_seat_to_act(cluster: Cluster) -> None:
    # issue 15: a chess clock per seat (base + increment), visible to seats and spectators
    api = cluster.api()
    table_id, _host, tokens = create(api, {"mode": "realtime", "base": 1800, "increment": 30}, {})
    for token in [None, tokens[0], tokens[1]]:
        state = api.view(table_id, token)
        clocks = state["table"]["clocks"]
        assert state["table"]["pace"] == {"mode": "realtime", "base": 1800, "increment": 30}
        for clock in clocks:
            if clock["seat"] in state["to_act"]:
                assert clock["deadline"] is not None and clock["deadline"] <= time.time() + 1800
            else:
                assert clock["deadline"] is None and clock["left"] == 1800
    mover = state["to_act"][0]
    mine = api.view(table_id, tokens[mover])
    assert api.act(table_id, tokens[mover], mine["legal"][0], mine["move_no"]).status_code == 200
    after = api.view(table_id)["table"]["clocks"][mover]
    if mover not in api.view(table_id)["to_act"]:  # charged the time it took, given the increment
        assert 1800 < after["left"] <= 1830


def returned_and_moved(api: Api) -> tuple[str, dict[int, str]] | None:
    """A table whose seat 0 timed out to a heuristic stand-in, was taken back and moved by its player; None
    when the stand-in and the random bot (this server plays bots without delay) finished the game first."""
    table_id, _host, tokens = create(api, {"mode": "turn", "per_move": 3}, {1: "random"}, standin="heuristic")
    info = wait_for(lambda: (t := api.ok("GET", f"/api/tables/{table_id}"))["seats"][0]["standin"] and t,
                    "stand-in")
    assert info["seats"][0]["standin"] == "timeout" and info["standin_kind"] == "heuristic"
    wait_for(lambda: api.view(table_id)["move_no"] >= 4, "stand-in moves")
    refused = api.act(table_id, tokens[0], ["pass"], api.view(table_id, tokens[0])["move_no"])
    assert refused.status_code in (409, 422)
    rng = random.Random(1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if api.ok("GET", f"/api/tables/{table_id}")["seats"][0]["standin"]:
            api.ok("POST", f"/api/tables/{table_id}/back", tokens[0], json={})
        state = api.view(table_id, tokens[0])
        if state["status"] != "running":
            return None
        if state["legal"]:
            response = api.act(table_id, tokens[0], rng.choice(state["legal"]), state["move_no"])
            if response.status_code == 200:
                return table_id, tokens
    raise AssertionError("the returned player could not move")


def test_a_turn_based_seat_that_times_out_gets_a_stand_in_and_its_player_takes_it_back(cluster: Cluster) -> None:
    # issue 15: the table never stalls; stand-in moves are marked in the record; the player returns
    api = cluster.api()
    for _table in range(5):
        returned = returned_and_moved(api)
        if returned is not None:
            break
    else:
        raise AssertionError("five games ended before their player could come back")
    table_id, tokens = returned
    api.ok("POST", f"/api/tables/{table_id}/away", tokens[0], json={"leave": True})  # the rest by the stand-in
    wait_for(lambda: api.view(table_id)["status"] == "finished", "the end", 180)
    info = api.ok("GET", f"/api/tables/{table_id}")
    assert [entry["seat"] for entry in info["left"]] == [0]
    record = parse_record(api.request("GET", f"/api/tables/{table_id}/record").text)
    assert record.standins and set(record.standins.values()) == {"heuristic"}
    assert all(record.moves[n][0] == 0 for n in record.standins)
    assert len(record.standins) < sum(1 for seat, _ in record.moves if seat == 0)  # the player's own are not marked


def shift_times(server: ServerProcess, table_id: str, seconds: float) -> None:
    """Move a table's stored times into the past, as if the server had been down that long."""
    statements = [f"UPDATE stammtisch_moves SET at = at - {seconds} WHERE table_id = '{table_id}'",
                  f"UPDATE stammtisch_paces SET started = started - {seconds} WHERE table_id = '{table_id}'"]
    if server.database is None:
        with sqlite3.connect(server.data_dir / "stammtisch.db") as conn:
            for statement in statements:
                conn.execute(statement)
    else:
        import psycopg

        with psycopg.connect(server.database) as conn:
            for statement in statements:
                conn.execute(statement)


def seat_changes(server: ServerProcess, table_id: str) -> list[tuple[int, str]]:
    query = f"SELECT seat, what FROM stammtisch_seat_changes WHERE table_id = '{table_id}' ORDER BY no"
    if server.database is None:
        with sqlite3.connect(server.data_dir / "stammtisch.db") as conn:
            return [tuple(row) for row in conn.execute(query)]
    import psycopg

    with psycopg.connect(server.database) as conn:
        return [tuple(row) for row in conn.execute(query)]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_deadline_passed_while_the_servers_were_down_gets_exactly_one_stand_in(tmp_path: Path,
                                                                                 backend: str) -> None:
    # issue 15, reliability: deadlines from stored times survive a restart; two processes (PostgreSQL +
    # Redis) that both find the deadline passed take the seat once and make each stand-in move once
    if backend == "postgres" and not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL and Redis must run in CI (.ci/run starts them)")
        pytest.skip("PostgreSQL or Redis not reachable on 127.0.0.1")
    with own_postgres("pace") if backend == "postgres" else contextlib.nullcontext() as database:
        redis = REDIS_URL if database else None
        servers = [ServerProcess(tmp_path, database, redis, extra=TICK).start()]
        try:
            api = Api(servers[0].url)
            table_id, _host, tokens = create(api, {"mode": "turn", "per_move": 3600}, {})
            rng = random.Random(7)
            while (state := api.view(table_id))["to_act"] != [0]:  # play on until seat 0 alone is to act
                for seat in state["to_act"]:
                    mine = api.view(table_id, tokens[seat])
                    api.act(table_id, tokens[seat], rng.choice(mine["legal"]), mine["move_no"])
            at_kill = state["move_no"]
            servers[0].kill()
            shift_times(servers[0], table_id, 7200)  # seat 0's hour ran out while the server was down
            servers = [servers[0].start()]
            if backend == "postgres":
                servers.append(ServerProcess(tmp_path, database, redis, extra=TICK).start())
            api = Api(servers[-1].url)
            wait_for(lambda: 0 not in api.view(table_id)["to_act"], "the stand-in's move")
            state = api.view(table_id)
            assert state["table"]["seats"][0]["standin"] == "timeout"
            assert state["to_act"] == [1] and state["table"]["clocks"][1]["deadline"] > time.time() + 3000
            time.sleep(0.5)  # a second process's late claim would show by now (it polls every 0.1 s)
            assert seat_changes(servers[0], table_id) == [(0, "timeout")]
            after = api.view(table_id)
            assert after["move_no"] == state["move_no"] > at_kill
            history = api.view(table_id, since=at_kill)["events"]
            assert history  # the stand-in's moves, each once: the log has one entry per move number
        finally:
            for server in servers:
                server.stop()


def test_the_host_hands_a_seat_whose_player_left_to_somebody_new(cluster: Cluster) -> None:
    # issue 15: leaving is recorded on the table; the host invites a new person to the abandoned seat
    api = cluster.api()
    table_id, host, tokens = create(api, None, {})
    refused = api.request("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [0]})
    assert refused.status_code == 409  # a seat whose player is still there cannot be given away
    api.ok("POST", f"/api/tables/{table_id}/away", tokens[0], json={"leave": True})
    info = api.ok("GET", f"/api/tables/{table_id}")
    assert info["seats"][0]["standin"] == "left" and [e["seat"] for e in info["left"]] == [0]
    invite = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [0]})["invites"][0]
    assert api.request("GET", f"/api/tables/{table_id}/view", tokens[0]).status_code == 403  # the leaver's is void
    claimed = api.ok("POST", f"/api/tables/{table_id}/seats/0", invite["token"], json={"name": "Newcomer"})
    info = api.ok("GET", f"/api/tables/{table_id}")
    assert info["seats"][0]["standin"] is None and info["seats"][0]["name"] == "Newcomer"
    assert [e["seat"] for e in info["left"]] == [0]  # still recorded
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the newcomer plays the seat now (the stand-in no longer does)
        state = api.view(table_id, claimed["token"])
        if state["legal"]:
            assert api.act(table_id, claimed["token"], state["legal"][0], state["move_no"]).status_code == 200
            break
        other = api.view(table_id, tokens[1])
        if other["legal"]:
            api.act(table_id, tokens[1], other["legal"][0], other["move_no"])
    else:
        raise AssertionError("the newcomer was never asked")


def test_asking_for_a_stand_in_and_taking_the_seat_back_needs_the_seats_token(cluster: Cluster) -> None:
    api = cluster.api()
    table_id, host, tokens = create(api, None, {})
    assert api.request("POST", f"/api/tables/{table_id}/away", None, json={}).status_code == 401
    assert api.request("POST", f"/api/tables/{table_id}/away", host, json={}).status_code == 403
    assert api.request("POST", f"/api/tables/{table_id}/back", tokens[1], json={}).status_code == 409
    assert api.request("POST", f"/api/tables/{table_id}/away", tokens[1], json={"leave": 1}).status_code == 400
    api.ok("POST", f"/api/tables/{table_id}/away", tokens[1], json={})
    assert api.ok("GET", f"/api/tables/{table_id}")["seats"][1]["standin"] == "asked"
    api.ok("POST", f"/api/tables/{table_id}/back", tokens[1], json={})
    assert api.ok("GET", f"/api/tables/{table_id}")["seats"][1]["standin"] is None


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_deadline_claim_and_a_move_made_from_stale_knowledge_cannot_both_win(tmp_path: Path, backend: str) -> None:
    # issue 15, reliability: two writers (two connections, as two processes have) that both saw the
    # same log: the seat change is added only while the log is as it saw it, and a timed player's move
    # only while the seat changes are — whichever commits second gets Conflict
    import asyncio

    from stammtisch.server.store import Conflict, SeatChange, Store, TableRow

    if backend == "postgres" and not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL must run in CI (.ci/run starts it)")
        pytest.skip("PostgreSQL not reachable on 127.0.0.1")
    url = (POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://") if backend == "postgres"
           else f"sqlite+aiosqlite:///{tmp_path / 'race.db'}")

    async def race() -> None:
        claimer, player = Store(url), Store(url)
        await claimer.open()
        await player.open()
        try:
            table_id = f"race{random.randrange(10**9)}"
            await claimer.create_table(TableRow(table_id, "glueckauf", 2, {}, 1, "running", "-", time.time()))
            # the player's move commits first: the claim made from the log before it loses
            await player.append_checked(table_id, 1, 0, ["pass"], False, time.time(), None, 0)
            with pytest.raises(Conflict):
                await claimer.add_seat_change(table_id, SeatChange(0, 0, 0, "timeout", time.time()))
            # the claim commits first: the move made without knowing of it loses
            await claimer.add_seat_change(table_id, SeatChange(0, 0, 1, "timeout", time.time()))
            with pytest.raises(Conflict):
                await player.append_checked(table_id, 2, 0, ["pass"], False, time.time(), None, 0)
            # knowing of the change (one seat change), the stand-in's move goes in
            await claimer.append_checked(table_id, 2, 0, ["pass"], False, time.time(), "heuristic", 1)
            assert [(m.move_no, m.standin) for m in await player.moves(table_id)] == [(1, None), (2, "heuristic")]
            assert [(c.no, c.move_no) for c in await player.seat_changes(table_id)] == [(0, 1)]
        finally:
            await claimer.close()
            await player.close()

    asyncio.run(race())


def log_and_changes(server: ServerProcess, table_id: str
                    ) -> tuple[list[tuple[int, int, Any]], list[tuple[int, int, str]]]:
    moves = f"SELECT move_no, seat, standin FROM stammtisch_moves WHERE table_id = '{table_id}' ORDER BY move_no"
    changes = f"SELECT move_no, seat, what FROM stammtisch_seat_changes WHERE table_id = '{table_id}' ORDER BY no"
    import psycopg

    assert server.database is not None
    with psycopg.connect(server.database) as conn:
        return ([tuple(r) for r in conn.execute(moves)], [tuple(r) for r in conn.execute(changes)])


def test_players_moving_at_their_deadline_in_one_process_race_the_claims_of_another_and_one_wins(
        tmp_path: Path) -> None:
    # issue 15, reliability: the players move through one process right around their deadlines while
    # the other process's clock watcher claims the seats; in the log every move by a seat a stand-in
    # held is the stand-in's, and every other move the player's: never both for one decision
    if not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL and Redis must run in CI (.ci/run starts them)")
        pytest.skip("PostgreSQL or Redis not reachable on 127.0.0.1")
    with own_postgres("pace") as database:
        servers = [ServerProcess(tmp_path, database, REDIS_URL, extra=TICK).start(),
                   ServerProcess(tmp_path, database, REDIS_URL, extra=("--clock-tick", "3600")).start()]
        try:
            watcher, mover = Api(servers[0].url), Api(servers[1].url)
            rng = random.Random(11)
            outcomes: list[int] = []
            for _table in range(3):
                table_id, _host, tokens = create(watcher, {"mode": "turn", "per_move": 2}, {})
                for _round in range(6):
                    info = mover.ok("GET", f"/api/tables/{table_id}")
                    seats = [s for s in info["to_act"] if not info["seats"][s]["standin"]]
                    if info["status"] != "running" or not seats:
                        break
                    deadline = info["clocks"][seats[0]]["deadline"]
                    state = mover.view(table_id, tokens[seats[0]])
                    time.sleep(max(0.0, deadline + rng.uniform(-0.15, 0.15) - time.time()))
                    outcomes.append(mover.act(table_id, tokens[seats[0]], rng.choice(state["legal"]),
                                              state["move_no"]).status_code)
                time.sleep(0.5)  # let the stand-ins' moves and claims settle
                moves, changes = log_and_changes(servers[0], table_id)
                held: set[int] = set()
                pending = list(changes)
                for move_no, seat, standin in moves:
                    while pending and pending[0][0] < move_no:
                        _at, changed, what = pending.pop(0)
                        (held.add if what in ("timeout", "left", "asked") else held.discard)(changed)
                    assert (standin is not None) == (seat in held), (table_id, move_no, seat, standin, changes)
            assert set(outcomes) <= {200, 409, 422} and 200 in outcomes
        finally:
            for server in servers:
                server.stop()


def test_with_two_processes_one_plays_a_tables_stand_ins(tmp_path: Path) -> None:
    # issue 26, security 3: with two processes both played every stand-in (every move was chosen twice,
    # one of them lost every race) and one logged "stops after 21 failed moves"
    if not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL and Redis must run in CI (.ci/run starts them)")
        pytest.skip("PostgreSQL or Redis not reachable on 127.0.0.1")
    token = secrets.token_urlsafe(24)
    with own_postgres("pace") as database:
        servers = [ServerProcess(tmp_path, database, REDIS_URL, env={"STAMMTISCH_METRICS_TOKEN": token}).start()
                   for _ in range(2)]
        try:
            apis = [Api(server.url) for server in servers]
            games = []
            for n in range(2):
                table_id, _host, tokens = create(apis[n], None, {}, standin="random")
                for seat, token_of_seat in tokens.items():  # each player asks through another process
                    apis[seat].ok("POST", f"/api/tables/{table_id}/away", token_of_seat, json={})
                games.append(table_id)
            for table_id in games:
                wait_for(lambda t=table_id: apis[0].view(t)["status"] == "finished", "the end", 180)
            made = sum(len(parse_record(apis[0].request("GET", f"/api/tables/{t}/record").text).standins)
                       for t in games)
            time.sleep(1.1)  # (the metrics page is built at most once a second)
            chosen = sum(total(samples(api.request("GET", "/metrics", token).text),
                               "stammtisch_bot_think_seconds_count") for api in apis)
            assert chosen == made, (chosen, made)  # each stand-in's move chosen once, by one process
        finally:
            for server in servers:
                server.stop()
        for server in servers:
            assert "failed moves" not in server.log.read_text()
