"""Backups (issue 16): ``stammtisch backup`` copies the SQLite database while the server runs, and
after ``stammtisch restore`` the server goes on with every game from the backup's moment; the
documented pg_dump/pg_restore round trip does the same for PostgreSQL."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.server.helpers import Api, ServerProcess
from tests.server.test_rules_versions import advance
from tests.server.test_upgrade import stammtisch
from tests.server.upgrades import empty_database, write_release


def test_a_backup_taken_while_playing_restores_and_the_games_go_on(tmp_path: Path) -> None:
    data, saved = tmp_path / "data", tmp_path / "saved.db"
    server = ServerProcess(data).start()
    api = Api(server.url)
    rng = random.Random(16)
    try:
        table_id, _host, tokens = api.table("glueckauf", 2)
        advance(api, table_id, tokens, 6, rng)
        backed = stammtisch("backup", str(saved), "--data-dir", str(data))  # the server is running
        assert backed.returncode == 0, backed
        assert saved.stat().st_mode & 0o777 == 0o600  # it holds the seeds of running games
        at_backup = api.view(table_id)
        advance(api, table_id, tokens, 4, rng)  # moves after the backup: gone after the restore
        assert api.view(table_id)["move_no"] > at_backup["move_no"]
    finally:
        server.stop()
    restored = stammtisch("restore", str(saved), "--data-dir", str(data))
    assert restored.returncode == 0, restored
    assert (data / "stammtisch.db.before-restore").exists()
    server.start()
    try:
        now = api.view(table_id)
        assert now["move_no"] == at_backup["move_no"] and now["view"] == at_backup["view"]
        advance(api, table_id, tokens, 6, rng)  # the game goes on
        assert api.view(table_id)["move_no"] > at_backup["move_no"]
    finally:
        server.stop()


def test_restore_refuses_what_is_not_a_stammtisch_backup_and_changes_nothing(tmp_path: Path) -> None:
    assert stammtisch("migrate", "--data-dir", str(tmp_path)).returncode == 0
    database = tmp_path / "stammtisch.db"
    before = database.read_bytes()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    refused = stammtisch("restore", str(junk), "--data-dir", str(tmp_path))
    assert refused.returncode == 2 and "not an SQLite database" in refused.stderr
    assert database.read_bytes() == before
    postgres = stammtisch("backup", str(tmp_path / "x"), "--database", "postgresql://nobody@127.0.0.1/none")
    assert postgres.returncode == 2 and "pg_dump" in postgres.stderr


def test_a_backup_of_the_release_before_migrations_restores_and_is_upgraded(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    write_release(f"sqlite:///{old}")
    data = tmp_path / "data"
    assert stammtisch("restore", str(old), "--data-dir", str(data)).returncode == 0
    server = ServerProcess(data).start()
    try:
        assert Api(server.url).ok("GET", "/api/tables?status=running")["tables"]
    finally:
        server.stop()


def test_the_documented_pg_dump_round_trip_keeps_the_games(tmp_path: Path) -> None:
    # docs/operations.md, "Backups": pg_dump -Fc, then pg_restore --clean --if-exists into the database.
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    with empty_database("postgres", tmp_path) as url:
        server = ServerProcess(tmp_path, url).start()
        api = Api(server.url)
        rng = random.Random(16)
        try:
            table_id, _host, tokens = api.table("glueckauf", 2)
            advance(api, table_id, tokens, 5, rng)
            dump = tmp_path / "stammtisch.dump"
            subprocess.run(["pg_dump", "-Fc", "-f", str(dump), url], check=True, timeout=60)
            at_backup = api.view(table_id)
            advance(api, table_id, tokens, 3, rng)
        finally:
            server.stop()
        subprocess.run(["pg_restore", "--clean", "--if-exists", "-d", url, str(dump)], check=True, timeout=60)
        server.start()
        try:
            assert api.view(table_id)["view"] == at_backup["view"]
            advance(api, table_id, tokens, 3, rng)
        finally:
            server.stop()
        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        engine.dispose()
