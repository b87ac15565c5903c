from __future__ import annotations

from collections.abc import Iterator

import pytest

from stammtisch import i18n


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Every test here may switch the language; the rest of the suite expects English."""
    yield
    i18n.set_language("en")
