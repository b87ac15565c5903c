"""Die Macher's terminal table says what a start-position choice means (issue 25 defect 7)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from stammtisch.engine.match import Match
from stammtisch.games.diemacher.terminal import render_view
from stammtisch.registry import make_game


def start_views(seed: int = 3) -> list[dict[str, Any]]:
    """Seat 0's views at each of its start-position decisions (the block, then its five spots), every seat
    taking its last legal action."""
    match = Match(make_game("diemacher", 3, {}), seed)
    views = []
    while match.game.view(match.state, None)["phase"] != "bid":
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        if seat == 0 and legal[0][0] in ("start_block", "start_state"):
            views.append(match.view(0))
        match.act(seat, legal[-1])
    return views


def text(view: dict[str, Any]) -> str:
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(render_view(view, make_game("diemacher", 3, {}).describe()))
    return console.export_text()


def test_the_start_blocks_are_shown_with_their_contents() -> None:
    # issue 25 defect 7: "Start block 1–5" was offered without the blocks' contents (die-macher.md §3.J)
    first = text(start_views()[0])
    assert "Start block 1: +3 rallies, +3 rallies, +3 rallies, +1 media, +1 trend" in first
    assert "Start block 4: +3 rallies, +1 media, +1 trend, +6 votes, +6 votes" in first


def test_each_state_prompt_names_the_spot_being_placed() -> None:
    # issue 25 defect 7: the five state prompts never said which spot is being placed
    views = start_views()
    assert len(views) == 6  # the block, then one state per spot
    prompts = [line.strip() for view in views[1:] for line in text(view).splitlines() if ", spot " in line]
    assert prompts == [
        "Start block 5, spot 1 of 5: choose the state for +3 rallies",
        "Start block 5, spot 2 of 5: choose the state for +3 rallies",
        "Start block 5, spot 3 of 5: choose the state for +3 rallies",
        "Start block 5, spot 4 of 5: choose the state for +1 trend",
        "Start block 5, spot 5 of 5: choose the state for +6 votes",
    ]


def test_the_sealed_row_shows_the_choice_in_words() -> None:
    # issue 25 defect 7: the "Sealed" row showed raw ids ("Sealed 10, 4, 12, 1")
    view = start_views()[3]  # block 5 chosen, two spots placed
    states = [board["name"] for board in view["board"]["boards"]]
    sealed_block, *placed = view["board"]["seats"][0]["sealed"]
    row = next(line for line in text(view).splitlines() if "Sealed" in line)
    assert (f"Start block {sealed_block}: +3 rallies in {states[placed[0]]}, +3 rallies in {states[placed[1]]}, "
            "+3 rallies, +1 trend, +6 votes") in row
