"""Files only their user may read: the server's database (it holds the seeds of running games, and so
every card still to come) and game records."""

from __future__ import annotations

import os
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(path: Path) -> Path:
    """The directory, created (0700) when missing; an existing one is left as its owner set it."""
    path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    return path


def private_file(path: Path) -> Path:
    """The file, created empty when missing, made 0600."""
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    os.chmod(path, PRIVATE_FILE)
    return path


def write_private(path: Path, text: str) -> None:
    private_dir(path.parent)
    descriptor = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, PRIVATE_FILE)
    os.fchmod(descriptor, PRIVATE_FILE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
