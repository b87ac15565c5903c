"""Bots choose from the legal actions using only what their seat's view shows."""
