"""Only for compiled wheels: ``STAMMTISCH_COMPILE=1`` compiles the modules that tools/build-compiled
compiles (stammtisch/_build.py lists them) into the wheel, with the manifest that selects them at import.
Everything else about the package is in pyproject.toml; without the variable this adds nothing."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

SRC = Path("src")
COMPILE = os.environ.get("STAMMTISCH_COMPILE", "") not in ("", "0")


def _build_module() -> ModuleType:
    """stammtisch/_build.py on its own, without importing the package."""
    spec = importlib.util.spec_from_file_location("_stammtisch_build", SRC / "stammtisch" / "_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithManifest(build_py):
    def run(self) -> None:
        super().run()
        if COMPILE:
            build = _build_module()
            build.write_manifest(Path(self.build_lib, "stammtisch", build.MANIFEST), build.source_hash(SRC),
                                 [extension.name for extension in ext_modules])


ext_modules = []
if COMPILE:
    from mypyc.build import mypycify

    build = _build_module()
    ext_modules = mypycify([str(build.source_path(SRC, module)) for module in build.COMPILED], opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPyWithManifest})
