"""The heuristic bot sees only its view and plays sensibly (issue: it beats random bots)."""

from __future__ import annotations

import random

from stammtisch.bots.base import RandomBot
from stammtisch.games.diemacher.bot import HeuristicBot
from stammtisch.games.diemacher.rules import DieMacher


def play(game: DieMacher, seed: int, heuristic_seat: int) -> list[int]:
    state, _ = game.new_state(seed)
    bots = [HeuristicBot(seed) if s == heuristic_seat else RandomBot(seed * 10 + s) for s in range(game.num_players)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        action = bots[seat].choose(game.view(state, seat), legal)
        assert action in legal
        game.apply(state, seat, action)
    return game.winners(state)


def test_heuristic_bot_beats_four_random_bots_most_of_the_time() -> None:
    # The full figure (500 games) is in docs/performance.md; this guards against regressions.
    games = 40
    wins = sum(seed % 5 in play(DieMacher(5, {}), seed, seed % 5) for seed in range(games))
    assert wins >= 0.8 * games


def test_heuristic_bot_plays_the_long_game_and_every_player_count() -> None:
    for players, elections in ((3, 7), (4, 4)):
        assert play(DieMacher(players, {"elections": elections}), 3, 0)


def test_bot_choice_depends_only_on_the_view() -> None:
    game = DieMacher(3, {})
    state, _ = game.new_state(11)
    rng = random.Random(1)
    for _ in range(150):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    other = state.copy()
    rng.shuffle(other.program_deck)
    other.chance.seed += 99
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    assert HeuristicBot(5).choose(view, legal) == HeuristicBot(5).choose(game.view(other, seat), legal)
