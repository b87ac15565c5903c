"""The suite's order: the directories whose files take longest first (the pages, then the server's), so that
the test files spread over the cores (./run-tests: pytest-xdist, a file per worker at a time, in this order)
end together instead of leaving one long file running alone at the end."""

from __future__ import annotations

import pytest

LONGEST_FIRST = ("tests/web/", "tests/server/", "tests/install/")


def rank(item: pytest.Item) -> int:
    path = item.nodeid
    return next((i for i, prefix in enumerate(LONGEST_FIRST) if path.startswith(prefix)), len(LONGEST_FIRST))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=rank)  # (stable: each file's tests keep their order, and each directory its files')
