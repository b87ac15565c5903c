"""The terminal client: play, simulate, replay and bench.  It consumes views and legal actions only."""
