"""Run the real ``stammtisch`` entry point in a subprocess, with wide, plain output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run_cli(*args: str, stdin: str = "", home: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", PYTHONIOENCODING="utf-8")
    if home is not None:
        env["STAMMTISCH_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "stammtisch", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=timeout, check=False)


@pytest.fixture(scope="session")
def auto_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One whole 3-player Die Macher game, every seat played by a bot; its output and its record."""
    records = tmp_path_factory.mktemp("records")
    result = run_cli("play", "diemacher", "--players", "3", "--auto", "--seed", "11", "--records", str(records))
    files = list(records.glob("*.jsonl"))
    assert result.returncode == 0, result.stderr
    assert len(files) == 1, files
    return result, files[0]
