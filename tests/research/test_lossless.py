"""Issue 27 item 2: the observation loses nothing and the longest game is known.  Under heuristic,
search and random play every value of every seat's view and of the spectator's is encoded and
decodes back exactly, and no game takes more decisions than the bound the rules give
(``Game.most_decisions``, OpenSpiel's ``max_game_length``)."""

import json

import pytest

from stammtisch.registry import make_game
from stammtisch.research.observation import layout_for
from tests.research.play import states

# Table options that make Die Macher's phases longest: overbids restart auctions (C-14), candidates
# may decline a coalition (C-09), politicians are paid sealed (G-13).
LONG_OPTIONS = {"overbid_mode": "honour_system_with_penalty", "coalition_mode": "candidate_may_decline",
                "p6_pay_order": "simultaneous", "elections": 7}
PLAYS = [
    ("diemacher", 3, {}, "heuristic", 1),
    ("diemacher", 4, {}, "heuristic", 2),
    ("diemacher", 5, {"elections": 7}, "heuristic", 3),
    ("glueckauf", 2, {}, "heuristic", 1),
    ("glueckauf", 3, {}, "heuristic", 2),
    ("glueckauf", 4, {"open_delivered": True}, "heuristic", 3),
    ("diemacher", 3, {}, "easy", 4),
    ("glueckauf", 2, {}, "easy", 5),
    ("diemacher", 5, LONG_OPTIONS, "random", 6),
    ("glueckauf", 4, {}, "random", 7),
]


def canonical(view):
    """A view as JSON with sorted keys: equal only if every value and its type (true is not 1) are."""
    return json.dumps(view, sort_keys=True)


@pytest.mark.parametrize(("name", "players", "options", "play", "seed"), PLAYS,
                         ids=[f"{name}-{players}-{play}{'-' + '-'.join(options) if options else ''}"
                              for name, players, options, play, _seed in PLAYS])
def test_every_view_decodes_back_and_the_game_stays_within_its_longest(name, players, options, play, seed):
    game = make_game(name, players, options)
    layout = layout_for(game)
    decisions = -1  # the final state follows the last decision
    for state in states(game, play, seed):
        decisions += 1
        for reader, view in game.views(state, [*range(players), None]).items():
            observation = layout.encode(view)
            assert canonical(layout.decode(observation)) == canonical(view), (reader, decisions)
    assert game.is_over(state)
    assert 0 < decisions <= game.most_decisions()
