"""The take-back property (issue 28, item 1; stammtisch/contract.py, ``take_back_leaks``): a move that
may be taken back (engine/undo.py) showed no reader anything it could not know before, for every
registered game.  A reader's view after such a move must follow from what the reader knew before and
the move alone: in every state the blind resampler draws from the reader's knowledge, the same move
gives the reader the same view as in the real game."""

from __future__ import annotations

import pytest

from stammtisch.contract import take_back_leaks
from stammtisch.registry import games, make_game

SEEDS = (5, 6)


def tables() -> list[tuple[str, int]]:
    """Every game at its smallest and its largest table."""
    return sorted({(name, players) for name, spec in games().items()
                   for players in (spec.min_players, spec.max_players)})


@pytest.mark.parametrize(("name", "players"), tables(), ids=str)
def test_a_move_that_may_be_taken_back_showed_nobody_anything(name: str, players: int) -> None:
    # Each game's moves, for both seeds: a random game, every move a seat could take back checked (a
    # game whose every move reveals or ends the seat's turn, as a game of sealed bids alone may, has
    # none: the example game's own tests (examples/) show the property failing for a forgotten reveal)
    for seed in SEEDS:
        take_back_leaks(make_game(name, players), seed)


def test_glueck_auf_shift_start_cannot_be_taken_back() -> None:
    # The property found it (issue 28): the draft's last pick starts the shift, which turns up the
    # order slots from the face-down deck (glueck-auf.md, Setup 9 and Shift start)
    from stammtisch.games.glueckauf.phases.shift import SHIFT_STARTS

    assert make_game("glueckauf", 2).reveals(SHIFT_STARTS.event(1, 0, [1, 2]))
