"""The set-up (tools/setup, tools/build-compiled) that ./stammtisch and ./run-tests run: two at once cannot
corrupt the compiled build, a compiled module that cannot be loaded means pure Python with one warning (never
a dead install), and ./stammtisch does not wait for the compile (issue 26, items 4 and 7).

The tests work in a fresh clone of a tiny Stammtisch: the real tools/setup, tools/build-compiled,
stammtisch/__init__.py and _build.py, with one-line engine and bot modules and no game as the compiled modules, so
that mypyc really compiles them, in seconds rather than minutes.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import stammtisch
from stammtisch import _build
from stammtisch.cli.main import main

REPO = Path(__file__).resolve().parents[2]
TAG = sys.implementation.cache_tag  # (the clone's virtualenv is made with this Python)
COPIED = ("tools/setup", "tools/build-compiled", "pyproject.toml", "src/stammtisch/__init__.py",
          "src/stammtisch/_build.py")
# the compiled modules outside the games (the engine's, the bots'), as one-liners in the clone
OUTSIDE_GAMES = [module.split(".")[1:] for module in _build.COMPILED if not module.startswith("stammtisch.games.")]


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A fresh clone of the tiny Stammtisch, installed: a virtualenv that sees this one's packages (mypyc
    among them), marked installed; no compiled build yet."""
    if not (shutil.which("cc") or shutil.which("gcc")) or importlib.util.find_spec("mypyc") is None:
        pytest.skip("needs a C compiler and mypyc, as the compiled build does")
    root = tmp_path / "clone"
    for file in COPIED:
        (root / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / file, root / file)
    for package, name in OUTSIDE_GAMES:
        folder = root / "src" / "stammtisch" / package
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").touch()
        (folder / f"{name}.py").write_text(f"def {name}() -> str:\n    return {name!r}\n")
    (root / "src" / "stammtisch" / "games").mkdir()
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    packages = Path(sysconfig.get_path("purelib", vars={"base": str(venv)}))
    (packages / "packages.pth").write_text(sysconfig.get_path("purelib") + "\n")
    (venv / ".installed-dev").touch()
    return root


def environment(**settings: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if k not in (_build.PURE_ENV, "PYTHONPATH")}
    return {**inherited, "MYPYC_OPT_LEVEL": "0", **settings}  # what is tested does not need optimised C


def set_up(clone: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """tools/setup as ./run-tests runs it (./stammtisch adds --build-in-background)."""
    done = subprocess.run([clone / "tools" / "setup", "dev", *options], capture_output=True, text=True,
                          env=environment())
    assert done.returncode == 0, done.stderr
    return done


def run_in(clone: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([clone / ".venv" / "bin" / "python", "-c", code], capture_output=True, text=True,
                          env=environment(PYTHONPATH=str(clone / "src")))


def loaded_build(clone: Path) -> tuple[str, set[str]]:
    """The build a fresh interpreter in the clone selects, and the suffixes of its compiled modules' files."""
    done = run_in(clone, "import importlib, pathlib, warnings; warnings.simplefilter('ignore'); import stammtisch; "
                         "print(stammtisch.BUILD, *{pathlib.Path(importlib.import_module(m).__file__).suffix "
                         "for m in stammtisch._build.COMPILED})")
    assert done.returncode == 0, done.stderr
    build, *suffixes = done.stdout.split()
    return build, set(suffixes)


def compiled_files(clone: Path) -> dict[Path, int]:
    return {path: path.stat().st_ino for path in _build.compiled_files(clone / "src")}


def break_file(clone: Path, name: str) -> None:
    """Puts in the place of the compiled file whose name holds ``name`` a real extension module of the standard
    library: it loads, but lacks the ``PyInit_`` entry point of the module it stands for, like the module issue
    26 found."""
    import _json

    shutil.copyfile(str(_json.__file__), next(path for path in compiled_files(clone) if name in path.name))


def test_two_set_ups_at_once_on_a_fresh_clone_compile_once_and_leave_a_build_that_loads(clone: Path) -> None:
    # issue 26 item 4: two set-ups at once shared build/mypyc-temp and left a module without its PyInit_
    setups = [subprocess.Popen([clone / "tools" / "setup", "dev"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=environment()) for _ in range(2)]
    said = [setup.communicate() for setup in setups]
    assert [setup.returncode for setup in setups] == [0, 0], said
    assert "".join(out for out, _ in said).count("Compiling") == 1, said  # the other waited and found it current
    assert loaded_build(clone) == ("compiled", {".so"})
    assert not list((clone / "build").glob("compiling-*"))
    again = set_up(clone)
    assert (again.stdout, again.stderr) == ("", "")  # issue 26 item 7: nothing to do, nothing said


def test_each_python_builds_under_a_lock_of_its_own(clone: Path) -> None:
    # issue 29: ./run-tests sets up the newer Pythons while this one's build compiles; each Python's build has
    # a lock of its own (their files, manifests, staging directories and logs are apart), the install one lock
    with _build.exclusive(clone / "build" / f"compile.{TAG}.lock") as own:
        assert own is not None  # a build of this Python holds the lock: a start runs pure Python meanwhile
        started = set_up(clone, "--build-in-background")
    assert "Another process is making the compiled build" in started.stderr
    assert loaded_build(clone) == ("pure", {".py"})
    with _build.exclusive(clone / "build" / "compile.cpython-399.lock") as other:
        assert other is not None  # another Python's build holds its lock all along: this one does not wait
        done = set_up(clone)
    assert "Waiting" not in done.stderr and "Compiled build ready" in done.stdout
    assert loaded_build(clone) == ("compiled", {".so"})


def test_a_set_up_waits_for_another_set_ups_install_and_does_not_install_again(clone: Path) -> None:
    # issue 26 item 4: the install step takes the lock too
    stamp = clone / ".venv" / ".installed-dev"
    stamp.unlink()
    with _build.exclusive(clone / "build" / "install.lock") as other:
        assert other is not None
        setup = subprocess.Popen([clone / "tools" / "setup", "dev"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=environment(STAMMTISCH_PURE="1"))
        assert setup.stderr is not None
        assert "Waiting for another set-up" in setup.stderr.readline()
        stamp.touch()  # the other set-up finishes its install and lets go of the lock
    out, err = setup.communicate()
    assert setup.returncode == 0, err
    assert "Setting up" not in out + err


@pytest.mark.parametrize("broken", ["flow.", "__mypyc"])  # a compiled module, mypyc's shared library
def test_a_compiled_module_that_cannot_be_loaded_runs_pure_python_with_one_warning(clone: Path, broken: str) -> None:
    # issue 26 item 4: a module without its PyInit_ entry point made every command die with an ImportError
    set_up(clone)
    break_file(clone, broken)
    done = run_in(clone, "import subprocess, sys, pathlib, stammtisch, stammtisch.engine.flow as flow; "
                         "print(stammtisch.BUILD, pathlib.Path(flow.__file__).suffix, flow.flow(), flush=True); "
                         "subprocess.run([sys.executable, '-c', 'import stammtisch; print(stammtisch.BUILD)'])")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["pure", ".py", "flow", "pure"]  # a worker process it starts runs pure too
    assert done.stderr.count("Warning") == 1, done.stderr  # one warning, in the first process only
    assert "PyInit_" in done.stderr and "tools/build-compiled" in done.stderr  # what is wrong and how to rebuild


def test_the_set_up_rebuilds_a_build_that_cannot_be_loaded_instead_of_calling_it_up_to_date(clone: Path) -> None:
    # issue 26 item 4: tools/setup said "compiled build is up to date" because the source hash matched
    set_up(clone)
    break_file(clone, "flow.")
    rebuilt = set_up(clone)
    assert "Compiling" in rebuilt.stdout and "Compiled build ready" in rebuilt.stdout
    assert loaded_build(clone) == ("compiled", {".so"})


def test_a_background_build_lets_this_start_run_pure_python_and_the_next_one_compiled(clone: Path) -> None:
    # issue 26 item 4: a first ./stammtisch waited for the compile before the server answered
    started = set_up(clone, "--build-in-background")
    assert "in the background" in started.stderr
    assert loaded_build(clone) == ("pure", {".py"})  # this start
    lock = clone / "build" / f"compile.{TAG}.lock"
    with _build.exclusive(lock) as free:
        assert free is None  # the build still runs: the set-up returned without waiting for it
    with _build.exclusive(lock, "waiting for the background build"):
        assert loaded_build(clone) == ("compiled", {".so"})  # the next start


def test_a_failed_build_leaves_the_last_build_in_place_and_is_not_retried_in_the_background(clone: Path) -> None:
    # issue 26 item 4: a build that fails changes nothing in src; the next ./stammtisch does not compile it again
    set_up(clone)
    manifest = (clone / "src" / "stammtisch" / _build.MANIFEST).read_text()
    before = compiled_files(clone)
    (clone / "src" / "stammtisch" / "engine" / "flow.py").write_text("def flow() -> str:\n    return 1\n")
    failed = set_up(clone)  # mypyc refuses the type error; the set-up goes on
    assert "The compiled build failed" in failed.stderr and f"build/mypyc/build.{TAG}.log" in failed.stderr
    assert compiled_files(clone) == before
    assert (clone / "src" / "stammtisch" / _build.MANIFEST).read_text() == manifest
    assert loaded_build(clone) == ("pure", {".py"})  # older than its sources: the edited flow.py runs
    again = set_up(clone, "--build-in-background")
    assert "failed" in again.stderr and "in the background" not in again.stderr


def test_stammtisch_version_names_the_version_and_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 26 item 7: there was no stammtisch --version
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "en", "--version"])
    assert exited.value.code == 0
    build = {"compiled": "compiled build, Python", "pure": "pure Python"}[stammtisch.BUILD]
    assert capsys.readouterr().out.startswith(f"stammtisch {stammtisch.__version__}: {build} 3.")


def test_another_pythons_build_beside_this_one_is_left_in_place(clone: Path) -> None:
    # issue 29: .venv and .venv-3.12 share src; each interpreter's build (its tag in the names of its files
    # and of its manifest) is made, replaced and removed without touching the other's
    other_tag = "cpython-399"
    engine = clone / "src" / "stammtisch" / "engine"
    other = [engine / f"flow.{other_tag}-x86_64-linux-gnu.so",
             clone / "src" / f"abc__mypyc.{other_tag}-x86_64-linux-gnu.so",
             clone / "src" / "stammtisch" / f"_compiled.{other_tag}.hash"]
    for path in other:
        path.write_text("another interpreter's build\n")
    set_up(clone)
    assert loaded_build(clone) == ("compiled", {".so"})
    assert (clone / "src" / "stammtisch" / _build.MANIFEST).is_file() and other[-1].name != _build.MANIFEST
    assert all(path.read_text() == "another interpreter's build\n" for path in other)
    assert not any(other_tag in path.name for path in compiled_files(clone))  # only this interpreter's files
    cleaned = subprocess.run([clone / ".venv" / "bin" / "python", clone / "tools" / "build-compiled", "--clean"],
                             capture_output=True, text=True, env=environment())
    assert cleaned.returncode == 0, cleaned.stderr
    assert not compiled_files(clone) and not (clone / "src" / "stammtisch" / _build.MANIFEST).exists()
    assert all(path.read_text() == "another interpreter's build\n" for path in other)


def test_a_python_that_is_not_installed_is_refused_with_its_own_status(clone: Path) -> None:
    # issue 29: ./run-tests skips a Python the machine lacks (tools/setup's status 3) and fails on anything else
    done = subprocess.run([clone / "tools" / "setup", "dev", "--python", "3.99"], capture_output=True, text=True,
                          env={**environment(), "PATH": "/usr/bin:/bin", "PYENV_ROOT": str(clone / "no-pyenv")})
    assert done.returncode == 3 and "Python 3.99 not found" in done.stderr
    assert not (clone / ".venv-3.99").exists()
