"""Backups of the SQLite database (``stammtisch backup`` / ``restore``; docs/operations.md).

Both go through SQLite's online backup API: a backup taken while the server writes is one
consistent snapshot (committed moves only, never half a transaction), and a restore writes the
whole database in one step.  PostgreSQL databases are backed up with pg_dump (documented).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy import create_engine

from stammtisch.files import private_file
from stammtisch.server.schema import SchemaError, Version, known, version


class BackupError(Exception):
    """The backup or restore cannot be done; the message says why and what to do."""


def sqlite_path(url: str) -> Path:
    """The file of an SQLite database URL; BackupError for any other database."""
    for prefix in ("sqlite+aiosqlite:///", "sqlite:///"):
        if url.startswith(prefix):
            return Path(url[len(prefix):])
    raise BackupError("backup and restore copy the SQLite database; for PostgreSQL use pg_dump and pg_restore "
                      "(docs/operations.md, \"Backups\")")


def backup(database: Path, target: Path) -> Version:
    """Copy the live database into ``target`` (0600), consistently, while the server may be writing."""
    if not database.exists():
        raise BackupError(f"there is no database at {database}")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(partial)
    _copy(database, partial)
    found = check(partial)
    os.replace(partial, target)
    return found


def restore(backup_file: Path, database: Path) -> tuple[Version, Path | None]:
    """Replace the database by the backup (the server must be stopped). The database it replaces is
    kept beside it as ``<name>.before-restore``; returns the backup's version and that file."""
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


def check(path: Path) -> Version:
    """The schema version of a database file; BackupError unless it is a Stammtisch database this
    release can use (an older one is upgraded when the server starts)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as probe:
            probe.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not an SQLite database ({error})") from None
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            found = version(conn)
    except SchemaError as error:
        raise BackupError(f"{path}: {error}") from None
    finally:
        engine.dispose()
    if found.current is None:
        raise BackupError(f"{path} holds no Stammtisch tables")
    if not known(found.current):
        raise BackupError(f"{path} has schema revision {found.current}, newer than this release knows "
                          f"({found.head}): restore it with that release")
    return found


def _copy(source: Path, target: Path) -> None:
    with sqlite3.connect(source, timeout=30) as src, sqlite3.connect(target, timeout=30) as dst:
        src.backup(dst)  # all pages in one step: one consistent snapshot
    src.close()
    dst.close()
