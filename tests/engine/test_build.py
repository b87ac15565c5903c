"""The compiled build (tools/build-compiled) and its pure-Python fallback: which one is loaded."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import stammtisch
from stammtisch import _build

SRC = Path(stammtisch.__file__).resolve().parent.parent


def _suffixes() -> set[str]:
    return {Path(str(importlib.import_module(module).__file__)).suffix for module in _build.COMPILED}


def test_the_build_run_tests_names_is_the_one_loaded() -> None:
    # ./run-tests says which build it tests, so a compiled run cannot silently be pure Python.
    expected = os.environ.get("STAMMTISCH_EXPECT_BUILD", stammtisch.BUILD)
    assert expected == stammtisch.BUILD
    assert _build.loaded() == expected
    assert _suffixes() == ({".so"} if expected == "compiled" else {".py"})  # every module, not just one


def _loaded_in(src: Path, **env: str) -> str:
    """The build a fresh interpreter selects with ``src`` on its path."""
    code = "import warnings; warnings.simplefilter('ignore'); import stammtisch; print(stammtisch.BUILD)"
    inherited = {k: v for k, v in os.environ.items() if k != _build.PURE_ENV}
    environment = {**inherited, "PYTHONPATH": str(src), **env}
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sources, without any compiled files, whose manifest each test writes."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(SRC / "stammtisch", src / "stammtisch", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    return src


def test_a_current_hash_without_its_compiled_files_selects_pure_python(tree: Path) -> None:
    # issue 26 item 4: the hash alone no longer selects the compiled build, the files must load too (a build
    # made from the current sources is selected: tests/install/test_setup.py)
    (tree / "stammtisch" / _build.MANIFEST).write_text(_build.source_hash(tree))
    assert _loaded_in(tree) == "pure"


def test_a_build_older_than_its_sources_is_never_loaded(tree: Path) -> None:
    (tree / "stammtisch" / _build.MANIFEST).write_text(_build.source_hash(tree))
    rules = tree / "stammtisch" / "games" / "diemacher" / "rules.py"
    original = rules.read_text()
    try:
        rules.write_text(original + "\n# changed after the build\n")
        assert _loaded_in(tree) == "pure"
    finally:
        rules.write_text(original)


def test_stammtisch_pure_selects_pure_python_even_with_a_current_build(tree: Path) -> None:
    (tree / "stammtisch" / _build.MANIFEST).write_text(_build.source_hash(tree))
    assert _loaded_in(tree, STAMMTISCH_PURE="1") == "pure"


def test_without_a_build_pure_python_is_selected(tree: Path) -> None:
    (tree / "stammtisch" / _build.MANIFEST).unlink(missing_ok=True)
    assert _loaded_in(tree) == "pure"


def test_the_build_compiles_whichever_rules_modules_a_game_has(tmp_path: Path) -> None:
    # issue 28 item 2: a game folder without board.py (or any other rules module) is compiled without
    # it, so hashing the build's sources cannot fail on a missing file
    game = tmp_path / "small"
    (game / "phases").mkdir(parents=True)
    for name in ("spec.py", "rules.py", "state.py", "phases/__init__.py", "phases/bid.py", "text.py"):
        (game / name).write_text("")
    (tmp_path / "notagame").mkdir()
    assert _build._game_modules(tmp_path) == [
        "stammtisch.games.small.state", "stammtisch.games.small.rules", "stammtisch.games.small.phases",
        "stammtisch.games.small.phases.bid"]
