"""Which build of the engine and the games' rules is loaded: compiled by mypyc or pure Python.

``tools/build-compiled`` compiles the modules in ``COMPILED`` in place (a ``.so`` next to each
``.py``) and writes the hash of their sources to ``MANIFEST``.  At import (``stammtisch/__init__``)
the compiled build is used only if that hash still matches the sources; otherwise, or when
``STAMMTISCH_PURE=1`` is set, every ``stammtisch`` module is loaded from its ``.py`` — all or
nothing, since the compiled modules call each other directly.  This module is never compiled.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

MANIFEST = "_compiled.hash"
PURE_ENV = "STAMMTISCH_PURE"

# Not compiled: Match (tests replace its step), engine/resample.py (ResampleError derives from
# AssertionError, which mypyc cannot compile), bots, clients, codecs, snapshots.  The states and the
# chance are (their classes can be called without arguments, so copies and snapshots build them
# through the class).
_ENGINE = ["chance", "flow", "protocol", "sealed", "step", "view"]
# Of every game folder (they all have the same files, docs/adding-a-game.md): its state, its rules,
# its flow and every phase module, its view and its resampler.  Found on disk, so a new game is
# compiled without being named here.
_GAME_RULES = ["state", "board", "rules", "scoring", "setup", "phases", "view", "resample"]


def _game_modules(games: Path) -> list[str]:
    found = []
    for folder in sorted(p for p in games.iterdir() if (p / "rules.py").is_file() and (p / "phases").is_dir()):
        phases = sorted(p.stem for p in (folder / "phases").glob("*.py") if p.stem != "__init__")
        found += [f"stammtisch.games.{folder.name}.{m}" for m in [*_GAME_RULES, *(f"phases.{p}" for p in phases)]]
    return found


# The modules mypyc compiles: the engine's hot paths and each game's state, rules, view and resampler
# (not bots or clients).
COMPILED: tuple[str, ...] = (
    *(f"stammtisch.engine.{m}" for m in _ENGINE),
    *_game_modules(Path(__file__).resolve().parent / "games"),
)


def source_path(src: Path, module: str) -> Path:
    path = src.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def source_hash(src: Path) -> str:
    """The hash of every compiled module's source, in order."""
    digest = hashlib.sha256()
    for module in COMPILED:
        digest.update(module.encode() + b"\0" + source_path(src, module).read_bytes() + b"\0")
    return digest.hexdigest()


def written_hash(src: Path) -> str | None:
    """The source hash the compiled build was made from, if there is one."""
    try:
        return (src / "stammtisch" / MANIFEST).read_text().strip()
    except OSError:
        return None


def compiled_files(src: Path) -> list[Path]:
    """The build's extension modules: one per compiled module and mypyc's shared library."""
    return [*src.glob("stammtisch/**/*.so"), *src.glob("*__mypyc*.so")]


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds ``stammtisch`` modules among ``.py`` files only, so no ``.so`` is loaded."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("stammtisch.") or path is None:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def select() -> str:
    """The build to load (stammtisch/__init__ asks once, before anything else is imported)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        reason = "pure"
    else:
        src = Path(__file__).resolve().parent.parent
        built = written_hash(src)
        if built is None:
            reason = "pure"
        elif built == source_hash(src):
            return "compiled"
        else:
            warnings.warn("the compiled build is older than its sources: running pure Python "
                          "(tools/build-compiled rebuilds it)", stacklevel=4)
            reason = "pure"
    if not any(isinstance(finder, _SourceOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())
    return reason


def loaded() -> str:
    """"compiled" if the compiled build's modules are the ones imported, else "pure"."""
    import stammtisch.engine.protocol as protocol

    return "compiled" if str(protocol.__file__).endswith((".so", ".pyd")) else "pure"
