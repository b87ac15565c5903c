from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import Result, run_cli


@pytest.fixture(scope="session")
def auto_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """One whole 3-player Die Macher game, every seat played by a bot; its output and its record."""
    records = tmp_path_factory.mktemp("records")
    result = run_cli("play", "diemacher", "--players", "3", "--auto", "--seed", "11", "--records", str(records))
    files = list(records.glob("*.jsonl"))
    assert result.returncode == 0, result.stderr
    assert len(files) == 1, files
    return result, files[0]
