"""The Glück Auf tests import their helpers as top-level modules (pytest's prepend import mode,
their folder has no __init__.py); the conformance suite reuses their checks the same way."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "glueckauf"))
