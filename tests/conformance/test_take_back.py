"""The take-back property (issue 28, item 1): a move that may be taken back (engine/undo.py) showed no
reader anything it could not know before.

A reader's view after such a move must follow from what the reader knew before and the move alone:
in every state the blind resampler draws from the reader's knowledge (``sample(knowledge(state,
reader), rng)``), the same move gives the reader the same view as in the real game.  A game that
forgets to declare a revealing event (``EventKind(..., reveals=True)`` or ``Game.revealing_events``)
lets a seat take back, say, its sealed bid after seeing everyone's: this property fails for it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.undo import chance_draws, undoable
from stammtisch.registry import games, make_game

SEEDS = (5, 6)
SAMPLES = 2  # resampled states per reader and move
MOVES = 400  # moves played per game, at most (each one a take-back candidate)


def tables() -> list[tuple[str, int]]:
    """Every game at its smallest and its largest table."""
    return sorted({(name, players) for name, spec in games().items()
                   for players in (spec.min_players, spec.max_players)})


class ShownTooMuch(AssertionError):
    pass


def shown(game: Game[Any], before: Any, seat: Seat, action: Action, after: Any, rng: random.Random) -> list[Seat]:
    """The readers who saw, after ``seat``'s ``action``, something they could not know before it."""
    readers = []
    for reader in range(game.num_players):
        seen = game.view(after, reader)
        knowledge = game.knowledge(before, reader)
        for _ in range(SAMPLES):
            sample = game.sample(knowledge, rng)
            if action not in game.legal_actions(sample, seat):
                continue  # another reader's draw gave the mover other choices: this move is not one of them
            game.apply(sample, seat, action)
            if game.view(sample, reader) != seen:
                readers.append(reader)
                break
    return readers


def check_take_backs(game: Game[Any], seed: int, moves: int = MOVES) -> int:
    """Plays a random game; raises ShownTooMuch at the first move that may be taken back but showed a
    reader something.  Returns how many moves could be taken back."""
    rng = random.Random(seed)
    state, _events = game.new_state(seed)
    checked = 0
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        before, draws = game.copy(state), chance_draws(state)
        events: list[Event] = game.apply(state, seat, action)
        if not undoable(game, draws, state, seat, events):
            continue
        checked += 1
        readers = shown(game, before, seat, action, state, rng)
        if readers:
            kinds = sorted({event.kind for event in events})
            raise ShownTooMuch(
                f"{game.name}: seat {seat}'s move {action!r} may be taken back, yet it showed seat(s) "
                f"{readers} what they could not know (its events: {kinds}); declare the revealing event "
                f"(EventKind(..., reveals=True) or Game.revealing_events)")
    return checked


@pytest.mark.parametrize(("name", "players"), tables(), ids=lambda x: str(x))
def test_a_move_that_may_be_taken_back_showed_nobody_anything(name: str, players: int) -> None:
    # Each game's moves, for both seeds: a random game, every move a seat could take back checked
    for seed in SEEDS:
        assert check_take_backs(make_game(name, players), seed) > 0, "no move could be taken back: nothing checked"
