"""Databases as earlier releases left them, for the upgrade tests (docs/operations.md, issue 16)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.server.conftest import services_up
from tests.server.helpers import IN_CI, own_postgres

# Made with `stammtisch serve` of commit afdef94, the last one before schema migrations: three tables
# created through the HTTP API (two running with moves made, one open), the rows as that release stored
# them, its CREATE TABLE statements for both databases, and the tokens its clients were given.
RELEASE = json.loads((Path(__file__).parent / "data" / "release-afdef94.json").read_text())
ROWS = ("stammtisch_tables", "stammtisch_seats", "stammtisch_moves")


@contextmanager
def empty_database(backend: str, tmp_path: Path) -> Iterator[str]:
    """A new, empty database: an SQLite file, or a PostgreSQL database of its own next to the tests'
    (created and dropped here, so that the session's servers on the tests' database are not disturbed)."""
    if backend == "sqlite":
        tmp_path.mkdir(parents=True, exist_ok=True)
        yield f"sqlite:///{tmp_path / 'stammtisch.db'}"
        return
    if not services_up():
        if IN_CI:
            pytest.fail("PostgreSQL must run in CI (.ci/run starts it)")
        pytest.skip("PostgreSQL not reachable on 127.0.0.1")
    with own_postgres("upgrade") as url:
        yield url


def write_release(url: str, release: dict[str, Any] = RELEASE) -> None:
    """The database as the release before migrations left it: its tables (its own DDL) and rows."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    dialect = "postgresql" if engine.dialect.name == "postgresql" else "sqlite"
    with engine.begin() as conn:
        for statement in release["schema"][dialect]:
            conn.execute(text(statement))
        for table in ROWS:
            for row in release[table]:
                names = ", ".join(row)
                conn.execute(text(f"INSERT INTO {table} ({names}) VALUES ({', '.join(':' + k for k in row)})"), row)
    engine.dispose()
