from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.helpers import (
    IN_CI,
    POSTGRES_URL,
    REDIS_URL,
    WORKER,
    Cluster,
    ServerProcess,
    create_database,
    reachable,
)


def services_up() -> bool:
    return reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379)


@pytest.fixture(scope="session", autouse=True)
def worker_database() -> None:
    """A test worker's own PostgreSQL database (helpers.POSTGRES_URL), made once; kept, like the tests' one."""
    if WORKER and services_up():
        create_database(POSTGRES_URL)


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def cluster(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """The server as users run it: one process on SQLite, or two processes on PostgreSQL sharing live
    updates through Redis (clients alternate between them)."""
    data = tmp_path_factory.mktemp(f"server-{request.param}")
    if request.param == "sqlite":
        servers = [ServerProcess(data).start()]
    else:
        if not services_up():
            if IN_CI:
                pytest.fail("PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) must run in CI (.ci/run)")
            pytest.skip("PostgreSQL or Redis not reachable on 127.0.0.1")
        first = ServerProcess(data, POSTGRES_URL, REDIS_URL).start()
        servers = [first, ServerProcess(data, POSTGRES_URL, REDIS_URL).start()]
    try:
        yield Cluster(request.param, servers)
    finally:
        for server in servers:
            server.stop()
