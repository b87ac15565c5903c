"""The compiled build decides as the pure-Python one does (issue 29): the heuristic bots, the noisy bots
and the search bots at a fixed number of iterations give the same digest of their decisions
(``tools/decision-digest``) in both builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import stammtisch
from stammtisch import _build

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--games", "1", "--decisions", "3", "--iterations", "30"]


def digests(pure: bool) -> list[str]:
    """The tool's digests (without its first line, which names the build) in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != _build.PURE_ENV}
    env["PYTHONPATH"] = str(ROOT / "src")
    if pure:
        env[_build.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, str(ROOT / "tools/decision-digest"), *SMALL], capture_output=True,
                          text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    build, *lines = done.stdout.splitlines()
    assert build == f"build: {'pure' if pure else stammtisch.BUILD}"
    return lines


def test_the_compiled_bots_decide_as_the_pure_ones() -> None:
    if stammtisch.BUILD != "compiled":
        pytest.skip("needs the compiled build (tools/build-compiled)")
    assert digests(pure=False) == digests(pure=True)
