"""Every game's guided first game ("Learn to play", stammtisch/guide.py): its script explains every phase, points
only at pieces its board module (or the table page's frame) draws, and the steps reached follow from the moves
alone, so a reload or a resumed record shows the same step. The games come from the registry: a game that adds
a guide is checked without a line here."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest

from stammtisch.bots.base import decide
from stammtisch.engine.match import Match, replay
from stammtisch.engine.options import GUIDE
from stammtisch.guide import NEWCOMER, Guide, Progress, guided, progress_json
from stammtisch.i18n import using_language
from stammtisch.registry import GameSpec, game_spec, games

GUIDED = sorted(name for name, spec in games().items() if spec.guide)
FRAME = (resources.files("stammtisch.web") / "static" / "game.html").read_text(encoding="utf-8")


def script(name: str) -> Guide:
    guide: Guide = game_spec(name).guide_script()
    return guide


def phases(spec: GameSpec, guide: Guide) -> set[str]:
    """Every phase a state of the guided table can wait in: the flow's phases, its interludes, the end."""
    game = spec.make(guide.players, guide.table_options())
    flow = game.flow  # type: ignore[attr-defined]
    return {p["name"] for p in game.describe()["phases"]} | {i.name for i in flow.interludes}


def board_sources(spec: GameSpec) -> str:
    """The game's browser module and its parts ("<module>-<part>.js"), as served."""
    folder = spec.static_folder()
    stem = spec.browser.removesuffix(".js")
    return "\n".join(p.read_text(encoding="utf-8") for p in folder.iterdir()
                     if p.name == spec.browser or (p.name.startswith(stem + "-") and p.name.endswith(".js")))


def drawn(selector: str, spec: GameSpec) -> bool:
    """Whether the board module draws an element of this class (``.name``), or the frame has this id (``#id``)."""
    if selector.startswith("#"):
        return f'id="{selector[1:]}"' in FRAME
    assert re.fullmatch(r"\.[a-z][a-z0-9-]*", selector), f"a guide points by one class or id, not {selector!r}"
    name = re.escape(selector[1:])
    return re.search(rf"""(["'.\s]){name}(?=[\s"'.#])""", board_sources(spec)) is not None


def test_the_in_tree_games_have_a_guide() -> None:
    assert {"diemacher", "glueckauf"} <= set(GUIDED)
    assert script("diemacher").players == 3 and script("diemacher").options["elections"] == 4
    assert script("glueckauf").players == 2


@pytest.mark.parametrize("name", GUIDED)
def test_every_phase_has_an_explanation(name: str) -> None:
    spec, guide = game_spec(name), script(name)
    missing = phases(spec, guide) - guide.explained()
    assert not missing, f"{name}: no step explains {sorted(missing)}"
    assert len({step.key for step in guide.steps}) == len(guide.steps), "a step twice"
    for step in guide.steps:
        assert (step.phase is None) != (step.event is None), step
        assert 2 <= len(step.sentences) <= 3, f"{step.key}: two or three sentences"
        assert step.points, f"{step.key} points at nothing"


@pytest.mark.parametrize("name", GUIDED)
def test_every_pointed_at_piece_is_drawn(name: str) -> None:
    spec = game_spec(name)
    selectors = {point.selector for step in script(name).steps for point in step.points}
    absent = sorted(s for s in selectors if not drawn(s, spec))
    assert not absent, f"{name}: the board draws no {absent}"


def test_the_piece_check_fails_for_an_absent_piece() -> None:
    spec = game_spec("diemacher")
    assert drawn(".dm-states", spec) and drawn("#decision", spec)
    assert not drawn(".dm-nothing-like-this", spec) and not drawn("#no-such-panel", spec)


def play_guided(name: str) -> tuple[Match, Progress, list[list[str]]]:
    """The guided deal played to its end by heuristic bots in every seat (the newcomer's too), following the
    guide: the match, the progress and the keys of the active steps after each entry."""
    spec, guide = game_spec(name), script(name)
    game = spec.make(guide.players, guide.table_options())
    match = Match(game, guide.seed)
    progress = Progress(guide)
    progress.follow(game, match.state, match.setup_events, 0, None)
    bots = {seat: spec.bot(guide.bots, seat) for seat in range(guide.players)}
    shown = [[r.key for r in progress.active()]]
    while not match.is_over():
        seat = match.to_act()[0]
        events = match.act(seat, decide(bots[seat], game, match.state, seat))
        progress.follow(game, match.state, events, len(match.record.moves), seat)
        shown.append([r.key for r in progress.active()])
    return match, progress, shown


@pytest.mark.parametrize("name", GUIDED)
def test_each_step_shows_once_and_a_replay_reaches_the_same(name: str) -> None:
    match, progress, shown = play_guided(name)
    assert guided(match.game) and match.game.options[GUIDE.name]
    keys = [r.key for r in progress.reached]
    assert len(keys) == len(set(keys))
    assert keys[-1] == "phase:over" and shown[-1] == ["phase:over"]
    for key in keys:  # shown over one unbroken run of entries, then never again
        at = [n for n, active in enumerate(shown) if key in active]
        assert at == list(range(at[0], at[-1] + 1)), key
    assert any(r.events for r in progress.reached), "no result explained"
    again = Progress(progress.guide)  # a reload, a resumed record: the same moves, the same steps
    steps = replay(match.record, lambda g, p, o: game_spec(g).make(p, o))
    for n, (replayed, seat, _action, events) in enumerate(steps):
        again.follow(replayed.game, replayed.state, events, n, seat)
    assert [(r.key, r.entry) for r in again.reached] == [(r.key, r.entry) for r in progress.reached]


@pytest.mark.parametrize("name", GUIDED)
def test_a_phase_step_waits_for_the_newcomer(name: str) -> None:
    """A phase is explained when the newcomer is to decide in it: bots moving first do not use it up."""
    match, progress, _shown = play_guided(name)
    replayed = Match(match.game, match.record.header.seed)
    entries = {r.entry: r for r in progress.reached if r.key.startswith("phase:") and r.key != "phase:over"}
    for n, (seat, action) in enumerate([(None, None), *match.record.moves]):
        if n:
            replayed.act(seat, action)  # type: ignore[arg-type]
        if n in entries:
            assert NEWCOMER in replayed.to_act(), entries[n].key


@pytest.mark.parametrize("name", GUIDED)
def test_results_say_why_in_every_language(name: str) -> None:
    match, progress, _shown = play_guided(name)
    results = [r for r in progress.reached if r.events]
    view: dict[str, Any] = match.view(NEWCOMER)
    for lang in ("en", "de", "pl", "it", "ko"):
        with using_language(lang):
            for reached in results:
                why = progress.guide.reason(reached.events, view, None)
                assert why, f"{reached.key}: no reason in {lang}"
            shown = progress_json(progress.guide, progress, view, None)
        assert shown["steps"][0]["key"] == "phase:over" and shown["reached"][-1] == "phase:over"
        if lang != "en":
            with using_language("en"):
                english = progress_json(progress.guide, progress, view, None)["steps"][0]["sentences"]
            assert shown["steps"][0]["sentences"] != english, f"{lang}: the texts are not translated"


@pytest.mark.parametrize(("outcome", "votes", "awarded", "expected"), [
    ("sole", [52, 20, 9], [0], "{p0} won {state} alone: 52 votes, a majority of 50 or more."),
    ("several", [50, 55, 9], [0, 1], "Several parties reached 50 votes in {state}: {p0} (50), {p1} (55)."),
    ("coalition", [30, 12, 25], [0, 2], "No party reached 50 votes in {state}: {p0}, the strongest with 30, formed a "
                                        "coalition with {p2} (25 votes), whose program is most like its own."),
    ("no_coalition", [30, 12, 5], [0], "No party reached 50 votes in {state} and no partner brought {p0} (30 votes) "
                                       "to 50: it wins alone with fewer points."),
])
def test_an_election_says_why_from_its_own_numbers(outcome: str, votes: list[int], awarded: list[int],
                                                    expected: str) -> None:
    from stammtisch.engine.protocol import Event
    from stammtisch.games.diemacher.guide import why

    spec, guide = game_spec("diemacher"), script("diemacher")
    game = spec.make(guide.players, guide.table_options())
    view = game.view(game.new_state(guide.seed)[0], NEWCOMER)
    parties = [seat["party_name"] for seat in view["board"]["seats"]]
    event = Event("election", {"board": 0, "state": "x", "election": 1, "votes": votes, "vote_vp": [0, 0, 0],
                               "outcome": outcome, "awarded": awarded, "win_vp": 7, "media_moved": [], "spot": 0,
                               "influencer": -1})
    with using_language("en"):
        assert why([event], view, None) == expected.format(
            state=view["board"]["boards"][0]["name"], p0=parties[0], p1=parties[1], p2=parties[2])
