"""The database schema's version: Alembic migrations (server/migrations/versions, docs/operations.md).

Every start checks the version (``prepare``): an empty database gets the newest schema, an older one
is upgraded (or, with ``upgrade=False``, refused with the command that upgrades it), a newer one —
written by a later release — is refused.  A database of a release before migrations (the tables
without a version) is recognised and stamped with the first revision, which is that schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic.config import Config as AlembicConfig
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection

MIGRATIONS = Path(__file__).parent / "migrations"
FIRST = "0001"  # the schema of the releases before migrations
# Columns the first schema's tables have: a database with these tables and no version is such a release's.
FIRST_TABLES = {
    "stammtisch_tables": {"id", "game", "players", "options", "seed", "status", "host_hash", "created"},
    "stammtisch_seats": {"table_id", "seat", "kind", "name", "bot_kind", "token_hash"},
    "stammtisch_moves": {"table_id", "move_no", "seat", "action"},
}
LOCK = 0x5374616D  # PostgreSQL advisory lock: one process migrates at a time


class SchemaError(Exception):
    """The database cannot be used by this release as it is; the message says what to do."""


@dataclass(frozen=True)
class Version:
    current: str | None  # None: an empty database
    head: str  # the newest revision this release knows
    unversioned: bool = False  # the tables of a release before migrations, no version yet

    @property
    def up_to_date(self) -> bool:
        return self.current == self.head and not self.unversioned


def _config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    revision = scripts().get_current_head()
    assert revision is not None
    return revision


def version(conn: Connection) -> Version:
    current = MigrationContext.configure(conn).get_current_revision()
    if current is not None:
        return Version(current, head())
    names = set(inspect(conn).get_table_names())
    ours = names & set(FIRST_TABLES)
    if not ours:
        return Version(None, head())
    missing = [table for table, columns in FIRST_TABLES.items()
               if table not in ours or not columns <= {c["name"] for c in inspect(conn).get_columns(table)}]
    if missing:
        raise SchemaError(f"the database has Stammtisch tables without a schema version, but {', '.join(missing)} "
                          "do not have the columns of any release: it was not made by Stammtisch, or was changed "
                          "by hand; restore a backup")
    return Version(FIRST, head(), unversioned=True)


def known(revision: str) -> bool:
    try:
        return scripts().get_revision(revision) is not None
    except CommandError:
        return False


def prepare(conn: Connection, upgrade: bool = True, command: str = "stammtisch migrate") -> tuple[Version, str]:
    """Bring the schema to this release's head in the caller's transaction; returns the version found
    and the one it has now.  SchemaError if the database is newer than this release, or older and
    ``upgrade`` is False (the message names ``command``, which upgrades it)."""
    if conn.dialect.name == "postgresql":  # several processes may start at once: one migrates, the others wait
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
    found = version(conn)
    if found.current is not None and not known(found.current):
        raise SchemaError(f"the database's schema is at revision {found.current}, which this release of Stammtisch "
                          f"does not know (its newest is {found.head}): a newer release wrote it. Run that release "
                          "(or a newer one) on it, or restore a backup made before the upgrade")
    if found.up_to_date:
        return found, found.head
    if not upgrade:
        where = "an older release's" if found.current else "no"
        raise SchemaError(f"the database has {where} schema (revision {found.current or 'none'}; this release "
                          f"needs {found.head}): run `{command}` to upgrade it (back it up first: "
                          "docs/operations.md)")
    _upgrade(conn, found)
    return found, found.head


def _upgrade(conn: Connection, found: Version) -> None:
    script = scripts()

    def steps(revision: Any, context: MigrationContext) -> Any:
        return script._upgrade_revs(found.head, revision)

    with EnvironmentContext(_config(), script, fn=steps, destination_rev=found.head) as environment:
        environment.configure(connection=conn)
        if found.unversioned:
            environment.get_context().stamp(script, FIRST)
        with environment.begin_transaction():
            environment.run_migrations()


def sync_url(url: str) -> str:
    """The same database through a synchronous driver (psycopg 3 serves both)."""
    return url.replace("sqlite+aiosqlite://", "sqlite://")


def prepare_url(url: str, upgrade: bool = True, command: str = "stammtisch migrate") -> tuple[Version, str]:
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as conn:
            return prepare(conn, upgrade, command)
    finally:
        engine.dispose()
