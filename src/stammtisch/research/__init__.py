"""Research environments: every registered game as a PettingZoo and an OpenSpiel game (docs/research.md).

Install with ``pip install stammtisch[research]``; the modules import PettingZoo and OpenSpiel, the
rest of Stammtisch never imports this package.
"""
