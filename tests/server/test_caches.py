"""What the server shares between readers (issue #9, "Resources": a move or a connect costs the
server little however many sockets watch) never crosses seats or languages: a view is built once
per (table, entry, seat) and a first state once per (table, change, seat, language), and each goes
only to sockets of that seat and language."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from stammtisch import i18n
from stammtisch.engine import match
from stammtisch.server import web
from stammtisch.server.web import History
from tests.server.test_resources import client, hub_of, play, sock, started, state

__all__ = ["client"]  # the fixture


def seat_data(message: dict[str, Any], seat: int) -> dict[str, Any]:
    data: dict[str, Any] = message["view"]["board"]["seats"][seat]
    return data


def test_each_seat_gets_its_own_view_built_once_per_move(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # die-macher.md §13: a hand is seen by its seat only; issue #9: one view per (table, move, seat)
    table_id, tokens = started(client)
    table = hub_of(client).tables[table_id]
    assert table.game is not None
    built: list[tuple[int, int | None]] = []  # (the table's entry, seat) of every view of its state built
    real_views = type(table.game).views

    def views(game: Any, st: Any, seats: Any) -> Any:
        seats = list(seats)
        built.extend((table.version, seat) for seat in seats if st is table.state)
        return real_views(game, st, seats)

    monkeypatch.setattr(type(table.game), "views", views)
    with sock(client, f"/ws/play/{table_id}?lang=de", tokens[0]) as mine, \
            sock(client, f"/ws/play/{table_id}?lang=en", tokens[0]) as mine_too, \
            sock(client, f"/ws/tables/{table_id}", tokens[1]) as theirs, \
            sock(client, f"/ws/play/{table_id}?lang=pl") as spectator, \
            sock(client, f"/ws/play/{table_id}?lang=pl") as spectator_too:
        sockets = {mine: 0, mine_too: 0, theirs: 1, spectator: None, spectator_too: None}
        firsts = {ws: state(ws) for ws in sockets}
        play(client, table_id, tokens, 1)
        after = {}
        for ws, seat in sockets.items():
            message = firsts[ws]
            while message["move_no"] < table.move_no(seat):
                message = state(ws)
            after[ws] = message
        assert {(1, 0), (1, 1), (1, None)} <= set(built)
        assert len(built) == len(set(built))  # however many sockets, requests and histories read it
        for ws, seat in sockets.items():
            for message in (firsts[ws], after[ws]):
                assert message["seat"] == seat and message["view"]["seat"] == seat
                for other in range(3):
                    assert ("draft_hand" in seat_data(message, other)) == (other == seat)
        assert after[mine]["view"] == table.game.view(table.state, 0) == after[mine_too]["view"]
        assert after[theirs]["view"] == table.game.view(table.state, 1)
        assert after[spectator]["view"] == table.game.view(table.state, None) == after[spectator_too]["view"]
        assert seat_data(after[mine], 0)["draft_hand"] != seat_data(after[theirs], 1)["draft_hand"]


def test_first_states_are_shared_per_seat_and_language_only(client: TestClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # issue #9: a connect costs a look-up; a reader switching language gets the new language
    table_id, tokens = started(client)
    play(client, table_id, tokens, 4)
    table = hub_of(client).tables[table_id]
    assert table.game is not None
    built: list[tuple[Any, ...]] = []
    real_translate = web.translate
    monkeypatch.setattr(web, "translate", lambda message, table, lang, *rest: built.append(
        (message["seat"], lang)) or real_translate(message, table, lang, *rest))

    def first(lang: str, token: str | None = None) -> tuple[dict[str, Any], str]:
        with sock(client, f"/ws/play/{table_id}?lang={lang}", token) as ws:
            message = state(ws)
        return message, lang

    de, _ = first("de")
    assert first("de")[0] == de and built == [(None, "de")]  # the second German spectator: a look-up
    pl, _ = first("pl")
    mine, _ = first("pl", tokens[2])
    assert built == [(None, "de"), (None, "pl"), (2, "pl")]
    for message, seat, lang in ((de, None, "de"), (pl, None, "pl"), (mine, 2, "pl")):
        fresh = History()
        client.portal.call(fresh.get, table, seat, lang)  # type: ignore[union-attr]
        assert message["lang"] == lang and message["sentences"] == fresh.lines[(seat, lang)]
        with i18n.using_language(lang):
            assert message["describe"] == table.game.describe()
        assert message["view"] == table.game.view(table.state, seat)
    assert de["sentences"] != pl["sentences"] and de["describe"] != pl["describe"]
    assert "draft_hand" in seat_data(mine, 2) and all("draft_hand" not in seat_data(pl, s) for s in range(3))
    assert mine["legal"] and mine["labels"] and not pl["legal"]


def test_a_move_makes_new_first_states(client: TestClient) -> None:
    # a cached first state belongs to one entry of the table: after a move a connect gets the new one
    table_id, tokens = started(client)
    with sock(client, f"/ws/play/{table_id}?lang=it") as ws:
        before = state(ws)
    play(client, table_id, tokens, 1)
    with sock(client, f"/ws/play/{table_id}?lang=it") as ws:
        after = state(ws)
    assert (before["move_no"], after["move_no"]) == (0, 1)
    assert len(after["sentences"]) > len(before["sentences"]) and after["view"] != before["view"]



def test_an_action_is_checked_against_the_legal_list_the_seat_was_sent(client: TestClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # issue #13: the server hands the strict step the legal list it built for the seat's state message
    # (kept by the table's Match), instead of building it again
    table_id, tokens = started(client)
    handed: list[Any] = []
    real_step = match.step

    def step(game: Any, st: Any, seat: int, action: Any, legal: Any = None) -> Any:
        handed.append(legal)
        return real_step(game, st, seat, action, legal)

    monkeypatch.setattr(match, "step", step)
    play(client, table_id, tokens, 3)  # each move: the seat reads its view (with its legal list), then acts
    assert len(handed) == 3 and all(legal for legal in handed)


def test_the_table_info_a_state_carries_follows_every_move_and_seat_change(client: TestClient) -> None:
    # issue #9 (work per move): info() is built once per change of what it shows, so it must change with
    # each move (move number, seats to act) and each seat change, and never be stale
    table_id, tokens = started(client)
    table = hub_of(client).tables[table_id]
    before = table.info()
    assert table.info() is before  # nothing changed: the same one
    play(client, table_id, tokens, 1)
    after = table.info()
    assert after is not before and after == table._build_info() and after["move_no"] == table.move_no(None)
    assert after["to_act"] == table.to_act()
    table.standins[0] = "asked"  # a stand-in takes seat 0 (as LiveTable.change does)
    assert table.info()["seats"][0]["standin"] == "asked"


def test_a_message_with_number_keys_is_still_written(client: TestClient) -> None:
    # issue #9: messages are written without orjson's slow path for non-string keys unless one needs it
    from stammtisch.server.api import dumps

    assert dumps({"a": [1, {"b": None}]}) == '{"a":[1,{"b":null}]}'
    assert dumps({"scores": {0: 5, 1: 7}}) == '{"scores":{"0":5,"1":7}}'
    with pytest.raises(TypeError):
        dumps({"a": object()})


def log_database(backend: str, tmp_path: Any) -> str:
    from tests.server.conftest import services_up
    from tests.server.helpers import IN_CI, POSTGRES_URL

    if backend == "sqlite":
        return f"sqlite:///{tmp_path}/log.db"
    if not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL must run in CI (.ci/run starts it)")
        pytest.skip("PostgreSQL not reachable on 127.0.0.1")
    return POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_move_log_on_its_own_connection_is_all_or_nothing(tmp_path: Any, backend: str) -> None:
    # issue #9 (work per move): SQLite's batch insert bypasses SQLAlchemy; issue 29: so does PostgreSQL's,
    # one statement per batch.  A move number taken already is a Conflict and changes nothing, a
    # game-ending entry finishes the table, entries read back in order
    import asyncio
    import uuid

    from stammtisch.server.store import Conflict, Store, TableRow

    table_id = uuid.uuid4().hex  # (PostgreSQL's test database is shared by the runs)

    async def run() -> tuple[list[Any], str, bool]:
        store = Store(log_database(backend, tmp_path))
        await store.open()
        try:
            await store.create_table(TableRow(table_id, "glueckauf", 2, {}, 5, "running", "h", 1.0))
            await store.append(table_id, 1, 0, ["pass"], False, 2.0)
            conflict = False
            try:  # (a game-ending entry that is not inserted finishes nothing)
                await store.append(table_id, 1, 1, ["other"], True, 3.0)
            except Conflict:
                conflict = True
            found = await store.table(table_id)
            assert found is not None and found[0].status == "running"
            await asyncio.gather(store.append(table_id, 2, 1, None, False, 4.0),
                                 store.append(table_id, 3, 0, ["end"], True, 5.0, "heuristic"))
            found = await store.table(table_id)
            assert found is not None
            return await store.moves(table_id), found[0].status, conflict
        finally:
            await store.close()

    entries, status, conflict = asyncio.run(run())
    assert conflict and status == "finished"
    assert [(e.move_no, e.seat, e.action, e.at, e.standin) for e in entries] == [
        (1, 0, ["pass"], 2.0, None), (2, 1, None, 4.0, None), (3, 0, ["end"], 5.0, "heuristic")]


def test_a_move_log_connection_that_breaks_fails_one_batch_and_is_replaced(tmp_path: Any) -> None:
    # issue 29: PostgreSQL's move log has a connection of its own; when PostgreSQL ends it (a restart, an
    # operator), the batch under way fails (its moves are not acknowledged) and the next one reconnects
    import asyncio
    import uuid

    import psycopg

    from stammtisch.server.store import Store, TableRow

    url = log_database("postgres", tmp_path)
    table_id = uuid.uuid4().hex

    async def run() -> tuple[list[int], bool]:
        store = Store(url)
        await store.open()
        try:
            await store.create_table(TableRow(table_id, "glueckauf", 2, {}, 5, "running", "h", 1.0))
            await store.append(table_id, 1, 0, ["pass"], False, 2.0)
            [connection] = store._logs  # (one batch at a time here: one connection)
            pid = connection.info.backend_pid
            async with await psycopg.AsyncConnection.connect(url.replace("+psycopg", ""), autocommit=True) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", [pid])
                while await (await admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])).fetchone():
                    await asyncio.sleep(0.01)  # (ended once it is gone)
            failed = False
            try:
                await store.append(table_id, 2, 1, ["pass"], False, 3.0)
            except psycopg.OperationalError:
                failed = True
            await store.append(table_id, 2 if failed else 3, 1, ["pass"], False, 4.0)
            return [entry.move_no for entry in await store.moves(table_id)], failed
        finally:
            await store.close()

    numbers, failed = asyncio.run(run())
    assert failed and numbers == [1, 2]
