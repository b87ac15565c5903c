"""``python -m stammtisch``: the same as the ``stammtisch`` command."""

import sys

from stammtisch.cli.main import main

sys.exit(main())
