"""OpenSpiel's ISMCTS (through research.openspiel.OpenSpielBot) against the game's heuristic bot:
a first outside reference until the tournament runner and the hard bot exist (issue #12).

    PYTHONPATH=src .venv/bin/python tools/ismcts_match.py GAME PLAYERS GAMES SIMULATIONS

Seat ``g % players`` of game ``g`` is ISMCTS, the others are heuristic bots; prints ISMCTS's wins
(shared wins count), its mean score against the others', and CPU seconds per ISMCTS decision.
"""

from __future__ import annotations

import sys
import time

from stammtisch.bots.base import decide
from stammtisch.engine.match import Match
from stammtisch.registry import game_spec
from stammtisch.research.openspiel import OpenSpielBot, ismcts


def main() -> None:
    name, players, games, simulations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    spec = game_spec(name)
    game = spec.make(players)
    wins, own, others, decisions, seconds = 0, 0.0, 0.0, 0, 0.0
    for number in range(games):
        seat_of_search = number % players
        bots = [OpenSpielBot(ismcts(simulations), number) if seat == seat_of_search
                else spec.bot("heuristic", 100 * number + seat) for seat in range(players)]
        match = Match(game, 1000 + number)
        while not match.is_over():
            seat = match.to_act()[0]
            start = time.process_time()
            action = decide(bots[seat], game, match.state, seat)
            if seat == seat_of_search:
                decisions, seconds = decisions + 1, seconds + time.process_time() - start
            match.act(seat, action)
        scores = game.scores(match.state)
        wins += seat_of_search in game.winners(match.state)
        own += scores[seat_of_search]
        others += (sum(scores) - scores[seat_of_search]) / (players - 1)
        print(f"game {number}: scores {scores}, ISMCTS seat {seat_of_search}", flush=True)
    print(f"{name} {players} players, {games} games, ISMCTS {simulations} simulations: wins {wins}/{games}, "
          f"mean score {own / games:.1f} against {others / games:.1f}, "
          f"{seconds / max(decisions, 1):.3f} CPU s per decision")


if __name__ == "__main__":
    main()
