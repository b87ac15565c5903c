"""The information-set search bot (bots/ismcts.py, docs/bots.md) on both games."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import pytest

from stammtisch.bots.base import decide, knowledge_of
from stammtisch.bots.ismcts import Hidden, PairedSearch, Search, SearchingBot, Settings, candidate_count, values
from stammtisch.bots.judges import Judge
from stammtisch.bots.strengths import HardBot, NormalBot
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Game
from stammtisch.registry import game_spec, make_game

FAST = Settings(iterations=40)  # an iteration budget and no clock: the search is reproducible
PAIRED = Settings(iterations=24, playout="heuristic", rounds=1, root="paired", candidates=3)


def advance(game: Game[Any], seed: int, moves: int, until: Any = None) -> Any:
    """A state after ``moves`` moves of heuristic bots (or at the first state where ``until`` holds)."""
    spec = game_spec(game.name)
    bots = [spec.bot("heuristic", seat) for seat in range(game.num_players)]
    state, _events = game.new_state(seed)
    for _ in range(moves):
        if game.is_over(state) or (until is not None and until(state)):
            break
        seat = game.to_act(state)[0]
        game.apply(state, seat, decide(bots[seat], game, state, seat))
    return state


def decision_points(game: Game[Any]) -> list[tuple[Any, int]]:
    """(state, seat) pairs with a real choice, early and late in a game."""
    found = []
    for moves in (3, 25, 60, 120):
        state = advance(game, 7, moves)
        seat = game.to_act(state)[0]
        if len(game.legal_actions(state, seat)) > 1:
            found.append((state, seat))
    return found


@pytest.mark.parametrize("settings", [FAST, PAIRED], ids=["tree", "paired"])
@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_decision_ignores_what_the_seat_cannot_see(name: str, players: int, settings: Settings) -> None:
    # Issue 11: same knowledge, same seed -> same action, whatever lies hidden from the seat.
    game = make_game(name, players)
    points = decision_points(game)
    assert len(points) >= 3
    for state, seat in points:
        other = game.resample(state, seat, random.Random(12345))
        assert game.view(other, seat) == game.view(state, seat)
        assert game.to_json(other) != game.to_json(state), "the two states must differ in hidden parts"
        first = decide(SearchingBot(99, settings), game, state, seat)
        second = decide(SearchingBot(99, settings), game, other, seat)
        assert first == second
        assert first in game.legal_actions(state, seat)


@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_registered_strengths_decide_from_knowledge_alone(name: str, players: int) -> None:
    spec = game_spec(name)
    game = make_game(name, players)
    state, seat = decision_points(game)[1]
    other = game.resample(state, seat, random.Random(4))
    for kind in ("easy", "normal", "hard"):
        bot = spec.bot(kind, 5)
        quick = dataclasses.replace(bot.settings, iterations=30, seconds=None)
        first = decide(type(bot)(5, quick), game, state, seat)
        assert first == decide(type(bot)(5, quick), game, other, seat)


def test_a_sealed_choice_stays_hidden_in_the_other_seats_trees() -> None:
    # die-macher.md: program cards, bids and start positions are chosen sealed; the other seats'
    # statistics must not branch on what a seat chose there, only on the fact that it committed.
    game = make_game("diemacher", 4)
    state = advance(game, 3, 400, until=lambda s: game.sealed(s) and len(game.to_act(s)) > 1)
    assert game.sealed(state) and len(game.to_act(state)) > 1
    seat = game.to_act(state)[-1]  # not the first of to_act: the asking seat still decides first
    search = Search(game, knowledge_of(game, state, seat), seat, FAST, random.Random(1))
    search.run()
    assert set(search.roots[seat].children) <= set(game.legal_actions(state, seat))
    assert len(search.roots[seat].children) > 1
    for observer, root in enumerate(search.roots):
        if observer != seat:
            assert list(root.children) == [Hidden(seat)]
            assert root.children[Hidden(seat)].visits == FAST.iterations


def test_progressive_widening_limits_the_children_of_long_lists() -> None:
    game = make_game("diemacher", 4)
    state = advance(game, 3, 400, until=lambda s: max(len(game.legal_actions(s, x)) for x in game.to_act(s)) > 30)
    seat = max(game.to_act(state), key=lambda x: len(game.legal_actions(state, x)))
    settings = Settings(iterations=60, widen_above=12, widen_c=2.0, widen_alpha=0.5)
    search = Search(game, knowledge_of(game, state, seat), seat, settings, random.Random(2))
    search.run()
    root = search.roots[seat]
    assert len(root.children) <= math.ceil(2.0 * math.sqrt(settings.iterations))
    assert len(root.children) < len(game.legal_actions(state, seat))


@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_a_search_bot_plays_a_whole_game_legally(name: str, players: int) -> None:
    game = make_game(name, players)
    match = Match(game, 11)
    bots = [SearchingBot(seat, Settings(iterations=4, playout="heuristic" if seat else "random"))
            for seat in range(players)]
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, decide(bots[seat], game, match.state, seat))  # step() refuses illegal actions
    assert len(game.scores(match.state)) == players


def test_values_mix_the_win_share_and_the_score_margin() -> None:
    game = make_game("glueckauf", 3)
    state = advance(game, 5, 10_000)
    assert game.is_over(state)
    found = values(game, state, 0.5)
    winners = game.winners(state)
    assert all(0.0 <= v <= 1.0 for v in found)
    assert max(range(3), key=lambda s: found[s]) in winners
    loser = min(range(3), key=lambda s: game.scores(state)[s])
    assert values(game, state, 1.0)[loser] == 0.0 or loser in winners


def test_hint_estimates_are_the_roots_most_visited_moves() -> None:
    game = make_game("glueckauf", 3)
    state, seat = decision_points(game)[1]
    legal = game.legal_actions(state, seat)
    bot = SearchingBot(3, FAST)
    found = bot.hint(game, knowledge_of(game, state, seat), seat, legal, top=2)
    assert 1 <= len(found) <= 2 and all(e.action in legal for e in found)
    assert bot.last is not None
    assert found[0].visits == max(child.visits for child in bot.last.roots[seat].children.values())
    assert sum(child.visits for child in bot.last.roots[seat].children.values()) == FAST.iterations


class Recording:
    """The game, with every state its ``resample`` and its samplers hand out remembered, and every
    copy of one (``copies``: the sample each copy was made from)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.samples: list[Any] = []
        self.copies: list[tuple[Any, Any]] = []

    def resample(self, state: Any, seat: int, rng: random.Random) -> Any:
        sample = self.game.resample(state, seat, rng)
        self.samples.append(sample)
        return sample

    def sampler(self, knowledge: dict[str, Any]) -> Any:
        draw = self.game.sampler(knowledge)

        def recorded(rng: random.Random) -> Any:
            sample = draw(rng)
            self.samples.append(sample)
            return sample

        return recorded

    def copy(self, state: Any) -> Any:
        duplicate = self.game.copy(state)
        if any(state is sample for sample in self.samples):
            self.samples.append(duplicate)
            self.copies.append((state, duplicate))
        return duplicate

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


class Watched:
    """A judge that remembers every state it is shown.  It hands its judge ``game`` (the game itself,
    not the recording wrapper the search is given: the compiled judges take only a game)."""

    def __init__(self, judge: Judge, shown: list[Any], game: Game[Any]) -> None:
        self.judge, self.shown, self.game = judge, shown, game

    def stage(self, state: Any) -> int:
        self.shown.append(state)
        return self.judge.stage(state)

    def estimate(self, game: Game[Any], state: Any) -> list[float]:
        self.shown.append(state)
        return self.judge.estimate(self.game, state)


@pytest.mark.parametrize("root", ["tree", "paired"])
@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_playouts_and_judges_read_only_the_searchs_own_samples(name: str, players: int, root: str) -> None:
    # Issue 11: the playout policy and the judge of cut-off playouts (games/<g>/judge.py) read the
    # state they are given, so it must be a determinization the search drew from the seat's
    # knowledge, never the true state or the knowledge sample itself.
    game = make_game(name, players)
    recording = Recording(game)
    seen: list[Any] = []
    policy = SearchingBot(1, Settings(playout="heuristic")).policy(game)

    def watched_policy(g: Any, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
        seen.append(state)
        # the game itself, not the recording wrapper: the compiled view modules take only their own game
        return policy(game, state, seat, legal, rng)

    settings = Settings(iterations=25, playout="heuristic", rounds=1, root=root)
    kind = PairedSearch if root == "paired" else Search
    for state, seat in decision_points(game):
        knowledge = knowledge_of(game, state, seat)
        search = kind(recording, knowledge, seat, settings, random.Random(3), watched_policy)  # type: ignore[arg-type]
        assert search.judge is not None
        judged: list[Any] = []
        search.judge = Watched(search.judge, judged, game)
        search.run()
        assert seen and judged
        for looked_at in seen + judged:
            assert any(looked_at is sample for sample in recording.samples)
            assert looked_at is not state and looked_at is not knowledge


@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_paired_playouts_compare_the_favourites_on_the_same_samples(name: str, players: int) -> None:
    # docs/bots.md, "Paired playouts": every candidate is played on every determinization drawn
    # (a copy of it each), so the candidates' values differ by the move, not by the sample.
    game = make_game(name, players)
    policy = SearchingBot(1, PAIRED).policy(game)

    def on_the_game(g: Any, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return policy(game, state, seat, legal, rng)  # the compiled view modules take only their own game

    for state, seat in decision_points(game):
        recording = Recording(game)
        search = PairedSearch(recording, knowledge_of(game, state, seat), seat, PAIRED, random.Random(5),  # type: ignore[arg-type]
                              on_the_game)
        assert search.judge is not None
        search.judge = Watched(search.judge, [], game)  # the compiled judges take only the game itself
        search.run()
        legal = game.legal_actions(state, seat)
        assert 1 < len(search.ranked) <= PAIRED.candidates and set(search.ranked) <= set(legal)
        assert len(set(search.ranked)) == len(search.ranked)
        rounds = len(search.samples[search.ranked[0]])
        assert rounds * len(search.ranked) == search.iterations >= PAIRED.iterations
        assert all(len(v) == rounds for v in search.samples.values())
        drawn = [c[0] for c in recording.copies]
        assert len({id(d) for d in drawn}) == rounds
        assert all(sum(1 for d in drawn if d is sample) == len(search.ranked) for sample in drawn)


@pytest.mark.parametrize(("name", "players"), [("diemacher", 4), ("glueckauf", 3)])
def test_paired_search_keeps_the_heuristics_move_unless_another_is_clearly_better(name: str, players: int) -> None:
    # The favourite is the heuristic bot's own choice from the seat's view; with an unreachable
    # confidence the search plays it always, with none it plays the best mean.
    game, spec = make_game(name, players), game_spec(name)
    for index, (state, seat) in enumerate(decision_points(game)):
        legal = game.legal_actions(state, seat)
        heuristic = spec.bot("heuristic", 0).choose(game.view(state, seat), legal)
        stubborn = SearchingBot(index, dataclasses.replace(PAIRED, confidence=math.inf))
        assert decide(stubborn, game, state, seat) == heuristic
        search = stubborn.last
        assert isinstance(search, PairedSearch) and search.ranked[0] == heuristic
        means = {a: sum(v) / len(v) for a, v in search.samples.items()}
        eager = SearchingBot(index, dataclasses.replace(PAIRED, confidence=-math.inf))
        chosen = decide(eager, game, state, seat)
        assert means[chosen] == max(means.values())
        assert [e.action for e in stubborn.hint(game, knowledge_of(game, state, seat), seat, legal)][0] == heuristic


def test_a_larger_budget_buys_more_candidates() -> None:
    # docs/bots.md, "What a larger budget buys": the strengths compare 4 favourites up to 0.2 s, 8 from 1 s,
    # in proportion between; a strength's own budget keeps its 4.
    assert candidate_count(NormalBot.settings) == candidate_count(HardBot.settings) == 4
    counts = {seconds: candidate_count(dataclasses.replace(HardBot.settings, seconds=seconds))
              for seconds in (0.05, 0.2, 0.5, 0.6, 1.0, 5.0)}
    assert counts == {0.05: 4, 0.2: 4, 0.5: 6, 0.6: 6, 1.0: 8, 5.0: 8}
    fixed = Settings(candidates=3, seconds=2.0)  # no budget rule: the count set
    assert candidate_count(fixed) == 3
    assert candidate_count(dataclasses.replace(HardBot.settings, seconds=None)) == 4  # an iteration budget


def test_a_tuned_hard_bot_compares_the_favourites_its_budget_buys() -> None:
    # The paired search ranks as many of the heuristic's favourites as ``candidate_count`` says
    # (an iteration budget stops it: the count follows ``seconds`` alone).
    game = make_game("glueckauf", 2)
    state = advance(game, 3, 200, until=lambda s: len(game.legal_actions(s, game.to_act(s)[0])) > 8)
    seat = game.to_act(state)[0]
    assert len(game.legal_actions(state, seat)) > 8
    for seconds, wanted in ((0.2, 4), (1.0, 8)):
        bot = HardBot(2, dataclasses.replace(HardBot.settings, iterations=16))
        bot.tune(seconds)
        decide(bot, game, state, seat)
        assert isinstance(bot.last, PairedSearch) and len(bot.last.ranked) == wanted


@pytest.mark.parametrize(("name", "players"), [("diemacher", 3), ("glueckauf", 2)])
def test_a_bot_that_has_searched_pickles_and_decides_as_before(name: str, players: int) -> None:
    # A worker process gets its bots by pickle; Die Macher's last search held a compiled sampler, which
    # does not pickle.  The copy decides as the original would (the same seed state, its caches made again).
    import pickle

    game = make_game(name, players)
    state, seat = decision_points(game)[1]
    bot = SearchingBot(5, dataclasses.replace(PAIRED, judge="learned"))
    decide(bot, game, state, seat)
    assert bot.last is not None
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.last is None
    assert decide(copy, game, state, seat) == decide(bot, game, state, seat)
