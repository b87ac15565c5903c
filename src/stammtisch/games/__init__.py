"""The games' folders.  Each declares itself in its ``spec.py`` (a ``GameSpec``, registered under the
entry-point group ``stammtisch.games``); ``stammtisch.registry`` finds them."""
