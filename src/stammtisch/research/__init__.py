"""Research environments: Die Macher and Glück Auf as PettingZoo and OpenSpiel games (docs/research.md).

Install with ``pip install stammtisch[research]``; the modules import PettingZoo and OpenSpiel, the
rest of Stammtisch never imports this package.
"""
