"""Measure Glück Auf speed and bot strength (not a test; run it by hand):

.venv/bin/python tests/glueckauf/measure.py [games] [bot games]
"""

from __future__ import annotations

import sys
import time

from stammtisch.bots.base import RandomBot
from stammtisch.engine.step import step
from stammtisch.games.glueckauf.bot import HeuristicBot
from stammtisch.games.glueckauf.rules import GlueckAuf


def random_games_per_second(players: int, games: int, through_step: bool) -> tuple[float, float]:
    game = GlueckAuf(players)
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state, _ = game.new_state(seed)
        bot = RandomBot(seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            action = bot.choose({}, game.legal_actions(state, seat))
            if through_step:
                step(game, state, seat, action)
            else:
                game.apply(state, seat, action)
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def heuristic_win_rate(players: int, games: int) -> float:
    game = GlueckAuf(players)
    wins = 0
    for n in range(games):
        seat_of_bot = n % players
        bots: list[HeuristicBot | RandomBot] = [RandomBot(n * 10 + k) for k in range(players)]
        bots[seat_of_bot] = HeuristicBot(n)
        state, _ = game.new_state(10_000 + n)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            view = game.view(state, seat) if seat == seat_of_bot else {}
            game.apply(state, seat, bots[seat].choose(view, game.legal_actions(state, seat)))
        wins += game.winners(state) == [seat_of_bot]
    return wins / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    bot_games = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    for players in (2, 3, 4):
        for through_step in (False, True):
            rate, length = random_games_per_second(players, games, through_step)
            how = "engine.step" if through_step else "direct apply"
            print(f"{players} players, {how}: {rate:.0f} random games/s ({length:.0f} actions per game)")
    start = time.perf_counter()
    rate = heuristic_win_rate(4, bot_games)
    print(f"HeuristicBot alone wins {rate:.1%} of {bot_games} 4-player games against 3 RandomBots "
          f"({time.perf_counter() - start:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
