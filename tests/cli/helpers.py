"""Running the real ``stammtisch`` entry point in a subprocess, and reading its tables back."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

Result = subprocess.CompletedProcess[str]
FINAL_TITLE = "Final scores (victory points by source)"


def run_cli(*args: str, stdin: str = "", home: Path | None = None, timeout: float = 60) -> Result:
    """Wide (200 columns), colourless output so that assertions see whole lines."""
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", PYTHONIOENCODING="utf-8", LANGUAGE="en")  # English texts
    if home is not None:
        env["STAMMTISCH_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "stammtisch", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=timeout, check=False)


def final_table(output: str) -> str:
    """The final score table as printed: from its title to its bottom border."""
    start = output.index(FINAL_TITLE)
    end = output.index("└", start)
    return output[start:output.index("\n", end)]


def totals(table: str) -> list[int]:
    """The last number of every party row of the final table: the totals."""
    rows = [line for line in table.splitlines() if line.startswith("│")]
    return [int(re.findall(r"\d+", row)[-1]) for row in rows]


def table_rows(output: str, title: str) -> list[list[str]]:
    """The cells of each body row of the Rich table printed under ``title``."""
    start = output.index(title)
    end = output.index("└", start)
    lines = output[start:end].splitlines()
    body = lines[next(i for i, line in enumerate(lines) if line.startswith("┡")) + 1:]
    return [[cell.strip() for cell in line.strip("│").split("│")] for line in body if line.startswith("│")]
