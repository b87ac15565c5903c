"""Goofspiel, the classic bidding card game: every seat holds the thirteen cards of one suit; a face-down
deck of thirteen prizes is turned up one at a time, and for each the seats bid one of their cards at
once, unseen.  The highest bid takes the prize, a tie at the top takes nothing (the prize is
discarded); bids are spent.  After thirteen prizes the most points win (rules_page.py).  The
worked example of docs/adding-a-game.md."""
