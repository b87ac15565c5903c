"""Backups (issue 16): ``stammtisch backup`` copies the SQLite database while the server runs, and
after ``stammtisch restore`` the server goes on with every game from the backup's moment; the
documented pg_dump/pg_restore round trip does the same for PostgreSQL."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from stammtisch.server.holds import hold_alone
from tests.server.helpers import REDIS_URL, Api, ServerProcess, free_port
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


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_restore_and_migrate_are_refused_while_a_server_uses_the_database(tmp_path: Path, backend: str) -> None:
    # issue 26, item 5: `stammtisch restore` ran under a running server and corrupted two tables
    # ("log entry 284 after 106"); it is refused while any server holds the data, and changes nothing
    with empty_database(backend, tmp_path / "db") as url:
        where = ["--data-dir", str(tmp_path / "db")] if backend == "sqlite" else ["--database", url]
        saved = tmp_path / "saved.backup"
        server = ServerProcess(tmp_path / "db", None if backend == "sqlite" else url).start()
        api = Api(server.url)
        rng = random.Random(26)
        try:
            table_id, _host, tokens = api.table("glueckauf", 2)
            advance(api, table_id, tokens, 4, rng)
            assert stammtisch("backup", str(saved), *where).returncode == 0  # a backup runs beside the server
            advance(api, table_id, tokens, 4, rng)
            before = api.view(table_id)
            for command in (("restore", str(saved)), ("migrate",)):
                refused = stammtisch(*command, *where)
                assert refused.returncode == 2 and "server is using the database" in refused.stderr, refused
                assert "Traceback" not in refused.stderr
            assert api.view(table_id) == before  # nothing changed: the game goes on
            advance(api, table_id, tokens, 2, rng)
        finally:
            server.stop()
        restored = stammtisch("restore", str(saved), *where)  # the server stopped: now it may
        assert restored.returncode == 0, restored
        server.start()
        try:
            assert api.view(table_id)["move_no"] < before["move_no"]  # back at the backup's moment
        finally:
            server.stop()


def test_a_second_server_on_one_sqlite_database_is_refused(tmp_path: Path) -> None:
    # issue 26: SQLite serves one process; a second one (or a restore) on the same file is refused
    server = ServerProcess(tmp_path).start()
    try:
        second = subprocess.run([sys.executable, "-m", "stammtisch", "serve", "--data-dir", str(tmp_path), "--port",
                                 str(free_port())], capture_output=True, text=True, timeout=60, check=False)
        assert second.returncode == 2 and "server is using the database" in second.stderr, second
        assert f"process {server.proc.pid if server.proc else ''}" in second.stderr
    finally:
        server.stop()


@pytest.mark.parametrize("first_with_redis", [True, False])
def test_servers_with_and_without_live_updates_never_share_a_postgresql_database(tmp_path: Path,
                                                                                  first_with_redis: bool) -> None:
    # A server without --redis beside servers with it never heard of their moves: its table waited for
    # ever for a bot that another process played (tests/server/test_restart.py, 2026-11-26).  The second
    # one, whichever it is, is refused in one line and the first goes on serving.
    with empty_database("postgres", tmp_path / "db") as url:
        redis = REDIS_URL if first_with_redis else None
        server = ServerProcess(tmp_path / "db", url, redis).start()
        try:
            second = ["--redis", REDIS_URL] if not first_with_redis else []
            refused = subprocess.run([sys.executable, "-m", "stammtisch", "serve", "--database", url, "--port",
                                      str(free_port()), *second], capture_output=True, text=True, timeout=60,
                                     check=False)
            assert refused.returncode == 2 and "--redis" in refused.stderr, refused
            assert "Traceback" not in refused.stderr
            assert httpx.get(server.url + "/api/health", timeout=10).status_code == 200
        finally:
            server.stop()


def test_two_migrations_of_one_sqlite_database_at_once_both_end_well(tmp_path: Path) -> None:
    # issue 26, item 7: two processes migrating one SQLite database at once could die with a raw traceback
    commands = [subprocess.Popen([sys.executable, "-m", "stammtisch", "migrate", "--data-dir", str(tmp_path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [(command.wait(120), *command.communicate()) for command in commands]
    assert [code for code, _out, _err in results] == [0, 0, 0], results
    assert stammtisch("migrate", "--check", "--data-dir", str(tmp_path)).returncode == 0
    # While one holds the database (as a migration does), the other waits for it instead of migrating too
    other = tmp_path / "other"
    hold = hold_alone(f"sqlite:///{other / 'stammtisch.db'}", "a test")
    waiting = subprocess.Popen([sys.executable, "-m", "stammtisch", "migrate", "--data-dir", str(other)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)  # (long enough for the command to start; it must not have touched the database)
        assert waiting.poll() is None and not (other / "stammtisch.db").exists()
    finally:
        hold.close()
    assert waiting.wait(120) == 0, waiting.communicate()


def test_a_backup_is_one_file_and_a_missing_directory_a_clear_refusal(tmp_path: Path) -> None:
    # issue 26, item 5: a backup into a missing directory ended in a traceback, and every backup left
    # .partial-wal and .partial-shm files beside it
    data = tmp_path / "data"
    server = ServerProcess(data).start()
    try:
        api = Api(server.url)
        api.table("glueckauf", 2)
        missing = stammtisch("backup", str(tmp_path / "nowhere" / "saved.db"), "--data-dir", str(data))
        assert missing.returncode == 2 and "there is no directory" in missing.stderr, missing
        assert "Traceback" not in missing.stderr and not (tmp_path / "nowhere").exists()
        backups = tmp_path / "backups"
        backups.mkdir()
        assert stammtisch("backup", str(backups / "saved.db"), "--data-dir", str(data)).returncode == 0
        assert [p.name for p in backups.iterdir()] == ["saved.db"]
        with sqlite3.connect(backups / "saved.db") as copy:
            assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    finally:
        server.stop()
    assert stammtisch("restore", str(backups / "saved.db"), "--data-dir", str(data)).returncode == 0
    assert sorted(p.name for p in data.iterdir() if "before-restore" in p.name) == ["stammtisch.db.before-restore"]
