"""Backups of the server's database (``stammtisch backup`` / ``restore``; docs/operations.md).

SQLite: both go through SQLite's online backup API: a backup taken while the server writes is one
consistent snapshot (committed moves only, never half a transaction), written as one self-contained
file, and a restore writes the whole database in one step.  PostgreSQL: PostgreSQL's own pg_dump
(one consistent snapshot too) and pg_restore.  A restore needs the database alone: it is refused
while any server holds it (server/holds.py), and the database it replaces is kept.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import create_engine

from stammtisch.files import private_file
from stammtisch.server.holds import DatabaseInUse, hold_alone
from stammtisch.server.schema import SchemaError, Version, known, sync_url, version


class BackupError(Exception):
    """The backup or restore cannot be done; the message says why and what to do."""


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite database URL; None for PostgreSQL."""
    for prefix in ("sqlite+aiosqlite:///", "sqlite:///"):
        if url.startswith(prefix):
            return Path(url[len(prefix):])
    return None


def backup(url: str, target: Path) -> Version:
    """Copy the live database into ``target`` (0600), consistently, while servers may be writing: first
    into ``target.partial``, renamed when complete."""
    database = sqlite_path(url)
    if database is not None and not database.exists():
        raise BackupError(f"there is no database at {database}")
    if not target.parent.is_dir():
        raise BackupError(f"there is no directory {target.parent}: create it first")
    if target.is_dir():
        raise BackupError(f"{target} is a directory: name the backup file to write")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(partial)
    try:
        if database is not None:
            _copy(database, partial)
            found = check(partial)
        else:
            _pg_dump(url, partial)
            found = _version(url)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return found


def restore(backup_file: Path, url: str) -> tuple[Version, Path | None]:
    """Replace the database by the backup; refused while a server holds the database.  The database it
    replaces is kept (SQLite: beside it as ``<name>.before-restore``; PostgreSQL: a pg_dump beside the
    backup, ``<backup>.before-restore``); returns the restored version and that file."""
    if not backup_file.is_file():
        raise BackupError(f"there is no backup file {backup_file}")
    try:
        hold = hold_alone(url, "stammtisch restore")
    except DatabaseInUse as error:
        raise BackupError(f"{error}; a restore under a running server would corrupt its games") from None
    try:
        database = sqlite_path(url)
        return _restore_sqlite(backup_file, database) if database else _restore_postgres(backup_file, url)
    finally:
        hold.close()


def _restore_sqlite(backup_file: Path, database: Path) -> tuple[Version, Path | None]:
    found = check(backup_file)
    kept: Path | None = None
    if database.exists():
        kept = database.with_name(database.name + ".before-restore")
        kept.unlink(missing_ok=True)
        private_file(kept)
        _copy(database, kept)
    private_file(database)
    _copy(backup_file, database)
    return found, kept


def _restore_postgres(backup_file: Path, url: str) -> tuple[Version, Path | None]:
    _run("pg_restore", "--list", str(backup_file))  # not a pg_dump archive: refused, nothing changed
    kept = backup_file.with_name(backup_file.name + ".before-restore")
    kept.unlink(missing_ok=True)
    private_file(kept)
    _pg_dump(url, kept)
    _run("pg_restore", "--clean", "--if-exists", "--single-transaction", "-d", _plain(url), str(backup_file))
    return _version(url), kept


def check(path: Path) -> Version:
    """The schema version of a database file; BackupError unless it is a Stammtisch database this
    release can use (an older one is upgraded when the server starts)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as probe:
            probe.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not an SQLite database ({error})") from None
    return _checked(f"sqlite:///{path}", str(path))


def _version(url: str) -> Version:
    return _checked(url, "the restored database")


def _checked(url: str, name: str) -> Version:
    engine = create_engine(sync_url(url).replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            found = version(conn)
    except SchemaError as error:
        raise BackupError(f"{name}: {error}") from None
    finally:
        engine.dispose()
    if found.current is None:
        raise BackupError(f"{name} holds no Stammtisch tables")
    if not known(found.current):
        raise BackupError(f"{name} has schema revision {found.current}, newer than this release knows "
                          f"({found.head}): restore it with that release")
    return found


def _copy(source: Path, target: Path) -> None:
    """All pages in one step: one consistent snapshot.  The copy is one file of its own (a rollback
    journal, not a write-ahead log: no ``-wal`` and ``-shm`` beside it); a server sets its own mode."""
    with sqlite3.connect(source, timeout=30) as src, sqlite3.connect(target, timeout=30) as dst:
        src.backup(dst)
    dst.execute("PRAGMA journal_mode=DELETE")
    src.close()
    dst.close()


def _pg_dump(url: str, target: Path) -> None:
    _run("pg_dump", "--format=custom", "--file", str(target), _plain(url))


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _run(tool: str, *args: str) -> None:
    """PostgreSQL's client tool; BackupError with its own words if it is missing or fails."""
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed: install PostgreSQL's client tools (e.g. postgresql-client)")
    done = subprocess.run([tool, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{tool} failed: {done.stderr.strip()[-1000:]}")
