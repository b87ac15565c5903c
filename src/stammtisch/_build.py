"""Which build of the engine and the games' rules is loaded: compiled by mypyc or pure Python.

``tools/build-compiled`` compiles the modules in ``COMPILED`` (a ``.so`` next to each ``.py``)
and writes ``MANIFEST`` (one per interpreter): the hash of their sources and the names of the build's extension modules.
At import (``stammtisch/__init__``) the compiled build is used only if that hash still matches the
sources and every one of those extension modules can be loaded; otherwise, or when
``STAMMTISCH_PURE=1`` is set, every ``stammtisch`` module is loaded from its ``.py`` — all or
nothing, since the compiled modules call each other directly.  This module is never compiled, and
needs nothing but the standard library: ``tools/setup`` uses its lock before anything is installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import IO

# One compiled build per interpreter in the same ``src`` (.venv and .venv-3.12, tools/setup --python): the
# extension modules' names carry the interpreter's tag (``.cpython-312-x86_64-linux-gnu.so``), and so does
# each build's manifest.
MANIFEST = f"_compiled.{sys.implementation.cache_tag}.hash"
MANIFESTS = "_compiled*.hash"  # every interpreter's
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this interpreter's extension modules
PURE_ENV = "STAMMTISCH_PURE"

# Not compiled: Match (tests replace its step), engine/resample.py (ResampleError derives from
# AssertionError, which mypyc cannot compile), clients, codecs, snapshots.  The states and the
# chance are (their classes can be called without arguments, so copies and snapshots build them
# through the class).
_ENGINE = ["chance", "flow", "protocol", "sealed", "step", "view"]
# Of the bots, the learned judge, which values every cut-off playout.  Not the search itself
# (bots/ismcts.py): tests hand it wrapped games and judges, and the strengths are classes derived from
# its bot; its own loop is a small part of an iteration.
_BOTS = ["learned"]
# Of every game folder: whichever of its state, its rules, its flow and every phase module, its view,
# its resampler, its heuristic bot (it plays the search's playouts) and its judge it has
# (docs/adding-a-game.md: none of them is mandatory for the build).  Found on disk, so a new game is
# compiled without being named here.
_GAME_RULES = ["state", "board", "rules", "scoring", "setup", "phases", "view", "resample", "bot", "judge"]


def _game_modules(games: Path) -> list[str]:
    found = []
    for folder in sorted(p for p in games.iterdir() if (p / "spec.py").is_file()):
        modules = [m for m in _GAME_RULES if (folder / f"{m}.py").is_file() or (folder / m / "__init__.py").is_file()]
        phases = sorted(p.stem for p in (folder / "phases").glob("*.py") if p.stem != "__init__")
        found += [f"stammtisch.games.{folder.name}.{m}" for m in [*modules, *(f"phases.{p}" for p in phases)]]
    return found


# The modules mypyc compiles: the engine's hot paths, the learned judge and each game's state, rules,
# view, resampler, heuristic bot and judge (not the search or clients).
COMPILED: tuple[str, ...] = (
    *(f"stammtisch.engine.{m}" for m in _ENGINE),
    *(f"stammtisch.bots.{m}" for m in _BOTS),
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
    lines = _manifest(src)
    return lines[0] if lines else None


def _manifest(src: Path) -> list[str]:
    try:
        return (src / "stammtisch" / MANIFEST).read_text().split()
    except OSError:
        return []


def write_manifest(manifest: Path, source: str, extensions: Sequence[str]) -> None:
    """Writes ``MANIFEST`` at once (a reader sees the old one or the new one, never half): the source hash,
    then the build's extension modules (the compiled modules and mypyc's shared library)."""
    partial = manifest.with_name(manifest.name + ".partial")
    partial.write_text("\n".join([source, *extensions]) + "\n")
    os.replace(partial, manifest)


def compiled_files(src: Path) -> list[Path]:
    """The build's extension modules: one per compiled module and mypyc's shared library (this
    interpreter's; another interpreter's build beside it is not touched)."""
    return [path for path in [*src.glob("stammtisch/**/*.so"), *src.glob("*__mypyc*.so")] if path.name.endswith(SUFFIX)]


def _extension_file(src: Path, module: str) -> Path | None:
    """The extension module file that ``import module`` finds in ``src``, if there is one."""
    package = src.joinpath(*module.split(".")[:-1])
    finder = importlib.machinery.FileFinder(
        str(package), (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES))
    spec = finder.find_spec(module)
    return Path(spec.origin) if spec is not None and spec.origin is not None else None


def unloadable(src: Path) -> str | None:
    """Why the compiled build in ``src`` cannot be loaded — an extension module missing, unreadable or
    without its ``PyInit_`` entry point — or None when every one of them loads.  The operating system
    opens each file as the import would (cheap: the import then finds it open), without running it."""
    import ctypes

    for module in dict.fromkeys([*COMPILED, *_manifest(src)[1:]]):
        path = _extension_file(src, module)
        if path is None:
            return f"{module} has no compiled file"
        try:
            getattr(ctypes.CDLL(str(path)), "PyInit_" + module.rpartition(".")[2])
        except (OSError, AttributeError) as error:
            return str(error)
    return None


@contextlib.contextmanager
def exclusive(lock: Path, waiting: str | None = None) -> Iterator[IO[str] | None]:
    """Holds an exclusive lock on the file ``lock`` for the block, and yields the open lock file.

    With ``waiting``, a process that finds the lock taken says so (``waiting``, on stderr) and waits its
    turn; without, it does not wait and yields None.  The lock ends with the last process holding the
    file open, however it ends: a killed set-up leaves no stale lock behind."""
    import fcntl

    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is None:
                yield None
                return
            print(waiting, file=sys.stderr, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield handle


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


def _why_not_compiled() -> str | None:
    """None when the compiled build can be loaded, else why not ("" when there is nothing to say)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return ""
    src = Path(__file__).resolve().parent.parent
    built = written_hash(src)
    if built is None:
        return ""
    if built != source_hash(src):
        return "the compiled build is older than its sources"
    problem = unloadable(src)
    return None if problem is None else f"the compiled build cannot be loaded ({problem})"


def select() -> str:
    """The build to load (stammtisch/__init__ asks once, before anything else is imported)."""
    reason = _why_not_compiled()
    if reason is None:
        return "compiled"
    if reason:
        warnings.warn(f"{reason}: running pure Python (.venv/bin/python tools/build-compiled rebuilds it; "
                      "./stammtisch and ./run-tests do so themselves)", stacklevel=4)
    # The processes this one starts (bot workers, tournament workers) run the same build, without warning again.
    os.environ[PURE_ENV] = "1"
    if not any(isinstance(finder, _SourceOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())
    return "pure"


def loaded() -> str:
    """"compiled" if the compiled build's modules are the ones imported, else "pure"."""
    import stammtisch.engine.protocol as protocol

    return "compiled" if str(protocol.__file__).endswith((".so", ".pyd")) else "pure"
