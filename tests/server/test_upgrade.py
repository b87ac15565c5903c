"""Upgrading a server (issue 16): a database written by the release before schema migrations is
recognised, stamped and upgraded on start, and its games go on; a database newer than the release
is refused with a clear message; the migrated schema is the one the code uses."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from stammtisch.cli.main import main
from stammtisch.engine.match import replay
from stammtisch.engine.record import Record, action_from_json
from stammtisch.registry import make_game
from stammtisch.server import schema
from stammtisch.server.store import metadata
from tests.server.helpers import Api, ServerProcess
from tests.server.upgrades import RELEASE, empty_database, write_release

BACKENDS = ["sqlite", "postgres"]


def stammtisch(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (``serve`` must refuse before it listens: port 1 is never served)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def database_args(url: str, tmp_path: Path) -> list[str]:
    return ["--data-dir", str(tmp_path)] if url.startswith("sqlite") else ["--database", url]


def revision(url: str) -> str | None:
    engine = create_engine(schema.sync_url(url.replace("postgresql://", "postgresql+psycopg://")))
    with engine.connect() as conn:
        found = MigrationContext.configure(conn).get_current_revision()
    engine.dispose()
    return found


def released_state(table_id: str) -> dict:  # type: ignore[type-arg]
    """The spectator's view of a running table of the fixture, replayed from its rows by the engine."""
    row = next(r for r in RELEASE["stammtisch_tables"] if r["id"] == table_id)
    moves = [(m["seat"], action_from_json(json.loads(m["action"])))
             for m in RELEASE["stammtisch_moves"] if m["table_id"] == table_id]
    from stammtisch.engine.record import Header

    record = Record(Header(row["game"], row["players"], json.loads(row["options"]), int(row["seed"])), moves)
    game = make_game(row["game"], row["players"], json.loads(row["options"]))
    *_, (match, *_rest) = replay(record, make_game)
    state = match.state
    return json.loads(json.dumps(game.view(state, None)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_previous_release_database_is_upgraded_on_start_and_its_games_go_on(tmp_path: Path, backend: str) -> None:
    # issue 16: "upgrade of a previous-release database with running games on SQLite and PostgreSQL"
    with empty_database(backend, tmp_path) as url:
        write_release(url)
        assert revision(url) is None  # that release kept no version
        server = ServerProcess(tmp_path, None if backend == "sqlite" else url).start()
        try:
            assert revision(url) == schema.head()
            api = Api(server.url)
            rng = random.Random(16)
            for table_id, held in RELEASE["tokens"].items():
                status = next(r["status"] for r in RELEASE["stammtisch_tables"] if r["id"] == table_id)
                if status == "open":  # an open table fills and starts
                    players = next(r["players"] for r in RELEASE["stammtisch_tables"] if r["id"] == table_id)
                    for seat in range(1, players):
                        api.bot(table_id, held["host"], seat, "random")
                    api.start(table_id, held["host"])
                    assert api.view(table_id)["status"] == "running"
                    continue
                before = api.view(table_id)
                assert before["view"] == released_state(table_id)  # nothing of the game was lost or changed
                made = 0
                while made < 6:  # its players go on with the tokens that release gave them
                    for token in held["seats"].values():
                        mine = api.view(table_id, token)
                        if mine["legal"]:
                            response = api.act(table_id, token, rng.choice(mine["legal"]), mine["move_no"])
                            assert response.status_code in (200, 409), response.text
                            made += response.status_code == 200
                assert api.view(table_id)["move_no"] > before["move_no"]
        finally:
            server.stop()
        server.start()  # a second start finds the schema up to date
        server.stop()
        assert revision(url) == schema.head()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migrated_schema_is_the_one_the_code_uses(tmp_path: Path, backend: str) -> None:
    # A new migration that forgets a column of store.py (or the other way round) fails here.
    assert len(schema.scripts().get_heads()) == 1, "two migrations share a parent: re-chain one (docs/operations.md)"
    for start in ("empty", "release"):
        with empty_database(backend, tmp_path / start) as url:
            if start == "release":
                write_release(url)
            schema.prepare_url(url.replace("postgresql://", "postgresql+psycopg://"))
            engine = create_engine(schema.sync_url(url.replace("postgresql://", "postgresql+psycopg://")))
            with engine.connect() as conn:
                differences = compare_metadata(MigrationContext.configure(conn), metadata)
            engine.dispose()
            assert differences == [], (start, differences)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path: Path, backend: str) -> None:
    with empty_database(backend, tmp_path) as url:
        assert stammtisch("migrate", *database_args(url, tmp_path)).returncode == 0
        engine = create_engine(schema.sync_url(url.replace("postgresql://", "postgresql+psycopg://")))
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        engine.dispose()
        served = stammtisch("serve", "--port", "1", *database_args(url, tmp_path))
        assert served.returncode == 2, served
        message = " ".join(served.stderr.split())
        assert "9999" in message and "newer release" in message and schema.head() in message, message
        assert "Traceback" not in served.stderr
        checked = stammtisch("migrate", "--check", *database_args(url, tmp_path))
        assert checked.returncode == 2 and "9999" in checked.stderr
        assert revision(url) == "9999"  # nothing was changed


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_migrate_names_the_command_that_upgrades(tmp_path: Path, backend: str) -> None:
    with empty_database(backend, tmp_path) as url:
        write_release(url)
        served = stammtisch("serve", "--no-migrate", "--port", "1", *database_args(url, tmp_path))
        # issue 26, item 7: the command named is the one for this database (without --data-dir it would
        # upgrade, or create, another one)
        command = f"stammtisch migrate {' '.join(database_args(url, tmp_path))}"
        assert served.returncode == 2 and command in " ".join(served.stderr.split()), served
        assert revision(url) is None
        checked = stammtisch("migrate", "--check", *database_args(url, tmp_path))
        assert checked.returncode == 1, checked
        migrated = stammtisch("migrate", *database_args(url, tmp_path))
        assert migrated.returncode == 0, migrated
        assert f"to {schema.head()}" in migrated.stdout
        assert revision(url) == schema.head()
        assert stammtisch("migrate", "--check", *database_args(url, tmp_path)).returncode == 0
