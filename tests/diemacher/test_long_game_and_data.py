"""The 7-election game (die-macher.md §7) and the data file's validation (die-macher-data.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from stammtisch.engine.protocol import Event
from stammtisch.engine.step import step
from stammtisch.games.diemacher import text
from stammtisch.games.diemacher.data import DataFileError, load_edition
from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.state import State, topic
from stammtisch.games.diemacher.terminal import board_panel
from stammtisch.i18n import _
from tests.diemacher.helpers import new_game
from tests.diemacher.test_properties import check_invariants


def play_round(game: DieMacher, state: State, rng: random.Random) -> list[Event]:
    """Random moves until the round number changes (or the game ends); the events of the round."""
    events: list[Event] = []
    current = state.round
    while state.round == current and not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        events += step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    return events


def face_up(state: State, pos: int) -> int:
    return sum(state.boards[pos].face_up)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seven_elections_states_enter_and_two_elections_a_round(seed: int) -> None:
    # die-macher.md §7.2–7.4, C-22, G-15, G-16
    game, state = new_game(4, seed=seed, elections=7)
    rng = random.Random(seed)
    while state.round < 1:
        step(game, state, game.to_act(state)[0], rng.choice(game.legal_actions(state, game.to_act(state)[0])))
    assert len(state.future_states) == 3 and [face_up(state, p) for p in range(4)] == [4, 3, 2, 1]
    held = []
    for round_ in range(1, 6):
        entering = state.future_states[-1] if round_ <= 3 else None
        events = play_round(game, state, rng)
        held.append([e.params["board"] for e in events if e.kind == "election"])
        if round_ <= 3:
            pos = round_ - 1
            assert state.boards[pos].card == entering and state.boards[pos].in_play
            assert state.boards[pos].votes == [0] * 4 and state.boards[pos].trend == [0] * 4
            assert face_up(state, pos) == (3 if round_ == 3 else 2)
            assert state.boards[pos].media == [-1] * 5
        if round_ == 3:
            # the display again holds one of each card, unless every copy sits on a state board (G-16)
            assert not state.opinion_discard
            assert all(state.opinion_display[c] or c not in state.opinion_deck for c in range(14))
    assert held == [[0], [1], [2], [3, 0], [1, 2]]
    assert state.elections_held == 7 and game.is_over(state)
    assert all(len(p.vote_vp) == 7 for p in state.players)


def test_every_state_has_four_face_up_opinions_at_its_election() -> None:
    # die-macher.md §3.D.5 and §7.3: the face-up counts reach 4 by each election
    for elections in (4, 7):
        game, state = new_game(3, seed=5, elections=elections)
        rng = random.Random(5)
        while not game.is_over(state):
            if state.phase == "convert" and state.cursor == 0 and state.turn == 0:
                for pos in game.elections_in(state.round):
                    assert face_up(state, pos) == len(state.boards[pos].opinions) == 4
            seat = rng.choice(game.to_act(state))
            step(game, state, seat, rng.choice(game.legal_actions(state, seat)))


def test_long_game_setup_has_eight_politicians_and_five_media_markers() -> None:
    _game, state = new_game(5, elections=7)
    assert all(len(p.politicians) == 8 and p.media_supply == 5 for p in state.players)
    _game, state = new_game(5)
    assert all(len(p.politicians) == 5 and p.media_supply == 4 for p in state.players)


def test_program_display_size_by_player_count() -> None:
    # die-macher.md C-06: 5 / 7 / 8 spaces
    for players, size in ((3, 5), (4, 7), (5, 8)):
        _game, state = new_game(players)
        assert len(state.program_display) == size


def test_media_presence_spot_of_election_k() -> None:
    # die-macher.md C-23: election k → spot k (7 elections) or 3 + k (4 elections)
    for elections, first_spot in ((4, 3), (7, 0)):
        game, state = new_game(3, seed=2, elections=elections)
        rng = random.Random(2)
        events = []
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            events += step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
        spots = [e.params["spot"] for e in events if e.kind == "election"]
        assert spots == list(range(first_spot, first_spot + elections))


# ------------------------------------------------------------------ data file


def packaged() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("stammtisch.games.diemacher").joinpath("data", "edition.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_packaged_data_carries_the_printed_values() -> None:
    # die-macher-data.md: Brandenburg max 21, 23→13, 34→16, 52→21; spot 1 = 13, spot 4 = 10; block 3 printed
    edition = load_edition()
    bb = next(s for s in edition.states if s.id == "BB")
    assert (bb.max_vp, bb.vp_for(23), bb.vp_for(34), bb.vp_for(52), bb.vp_for(3)) == (21, 13, 16, 21, 0)
    assert edition.media_presence[0] == 13 and edition.media_presence[3] == 10
    assert edition.start_blocks[2] == ("R", "R", "T", "T", "V")
    assert "start block 3" not in edition.reconstructed() and "start block 1" in edition.reconstructed()


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: d["states"][6]["vp_table"].__setitem__(2, [15, 3]), "states[6] (BB).vp_table[2]"),
    (lambda d: d["states"].pop(), "expected 16 state cards"),
    (lambda d: d["states"][0].__setitem__("size", "medium"), "states[0] (HB).size"),
    (lambda d: d["poll_cards"][3].__setitem__("back", "SPD"), "poll_cards[3] (A4).back"),
    (lambda d: d["poll_cards"][0]["delta"].pop("FDP"), "poll_cards[0] (A1).delta"),
    (lambda d: d["politicians"][1].__setitem__("main", "FLY"), "politicians[1] (vice_chancellor): unknown action"),
    (lambda d: d.pop("start_money"), "edition: missing 'start_money'"),
    (lambda d: d["start_blocks"][0].__setitem__("spots", ["R", "R"]), "start_blocks[0].spots"),
    (lambda d: d["rally_costs"].pop(), "rally_costs"),
    (lambda d: d.__setitem__("trend_range", [2, 4]), "trend_range"),
    (lambda d: d["media_presence"][2].__setitem__("vp", "eleven"), "media_presence[2].vp"),
])
def test_a_broken_data_file_names_the_bad_entry(tmp_path: Path, damage: Any, message: str) -> None:
    data = packaged()
    damage(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(DataFileError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")
                       .replace(")", r"\)")):
        load_edition(path)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{ not json", "utf-8")
    with pytest.raises(DataFileError, match="not valid JSON"):
        load_edition(path)
    with pytest.raises(DataFileError, match="cannot read"):
        load_edition(tmp_path / "missing.json")


def test_own_data_file_is_used(tmp_path: Path) -> None:
    data = packaged()
    data["start_money"] = 40000
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), "utf-8")
    _game, state = new_game(3, edition=str(path))
    assert state.players[0].money == 40000
    _game, state = new_game(3, data_file=str(path))  # its former name: records written before still replay
    assert state.players[0].money == 40000


@pytest.mark.parametrize(("options", "message"), [
    ({"elections": 5}, "elections"),
    ({"colour": "red"}, "unknown table option"),
    ({"parties": ["SPD", "SPD", "CDU"]}, "parties"),
    ({"open_money": "yes"}, "open_money"),
])
def test_bad_table_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DieMacher(3, options)


def test_player_count_is_checked() -> None:
    with pytest.raises(ValueError, match="3 to 5 players"):
        DieMacher(2)


def play_first_until(game: DieMacher, state: State, round_: int, phase: str) -> list[Event]:
    """The first legal action for whoever acts until round ``round_`` reaches ``phase``."""
    events: list[Event] = []
    while not (state.round == round_ and state.phase == phase):
        seat = game.to_act(state)[0]
        events += step(game, state, seat, game.legal_actions(state, seat)[0])
    return events


def test_a_state_dealt_from_an_empty_opinion_deck_has_fewer_opinions_and_no_phantom_cards() -> None:
    # die-macher.md §7.3 step 9d, §7.4 G-16, G-02 (opinion_reshuffle = false); issue #8 item 1
    game, state = new_game(3, seed=4, elections=7, opinion_reshuffle=False)
    play_first_until(game, state, 3, "money")
    state.opinion_discard += state.opinion_deck[2:]  # only two cards are left for the state entering now
    state.opinion_deck = state.opinion_deck[:2]
    events = play_first_until(game, state, 4, "bid")
    entered = state.boards[2]
    assert 1 <= len(entered.opinions) <= 2 and all(entered.face_up)
    assert all(0 <= c < 14 for b in state.boards for c in b.opinions)
    assert all(e.params.get("card", 0) != -1 for e in events)
    check_invariants(game, state)  # 42 opinion cards, none of them a marker
    for seat in range(3):
        shown = game.view(state, seat)["board"]["boards"][2]["opinions"]
        assert [o["card"] for o in shown] == entered.opinions
    console = Console(record=True, width=200)
    console.print(board_panel(game.view(state, 0), 2, False))
    assert console.export_text().count(_("Opinions:")) == 1
    assert all(text.describe_event(e, game.view(state, 0), None) for e in events)
    while not game.is_over(state):  # the state votes in round 5 with the opinions it has
        seat = game.to_act(state)[0]
        events = step(game, state, seat, game.legal_actions(state, seat)[0])
        assert all(e.params.get("card", 0) != -1 for e in events)
        check_invariants(game, state)
    assert state.elections_held == 7


# A 5-player 7-election game (seed 53) whose draft leaves seat 4 a short program while every program
# card with a topic it lacks is in other players' hands and programs (found by `stammtisch bench`).
SHORT_PROGRAM_MOVES = [
    (0, ("draft_pick", 0)), (1, ("draft_pick", 8)), (2, ("draft_pick", 11)), (3, ("draft_pick", 0)),
    (4, ("draft_pick", 4)), (0, ("draft_pick", 9)), (1, ("draft_pick", 12)), (2, ("draft_pick", 0)),
    (3, ("draft_pick", 9)), (4, ("draft_pick", 11)), (0, ("draft_pick", 1)), (1, ("draft_pick", 6)),
    (2, ("draft_pick", 6)), (3, ("draft_pick", 10)), (4, ("draft_pick", 12)), (0, ("draft_pick", 4)),
    (1, ("draft_pick", 8)), (2, ("draft_pick", 1)), (3, ("draft_pick", 10)), (4, ("draft_pick", 11)),
    (0, ("program_card", 9)), (0, ("program_card", 10)), (0, ("program_card", 2)), (0, ("program_card", 4)),
    (0, ("program_card", 1)), (1, ("program_card", 3)), (1, ("program_card", 12)), (1, ("program_card", 8)),
    (1, ("program_card", 6)), (2, ("program_card", 1)), (2, ("program_card", 11)), (2, ("program_card", 6)),
    (2, ("program_card", 9)), (3, ("program_card", 7)), (3, ("program_card", 9)), (3, ("program_card", 10)),
    (3, ("program_card", 0)), (4, ("program_card", 5)), (4, ("program_card", 12)), (4, ("program_card", 11)),
    (4, ("program_card", 7)),
]


def test_a_draft_exception_that_no_draw_can_complete_ends_with_a_short_program() -> None:
    # die-macher.md G-12 (draw again until the program is complete) — when the deck and the discard
    # pile hold none of the missing topics, drawing again cannot help: it used to loop forever.
    game = DieMacher(5, {"elections": 7})
    state, _ = game.new_state(53)
    for seat, action in SHORT_PROGRAM_MOVES:
        step(game, state, seat, action)
    assert state.phase == "program_more"  # it came back: the exception was settled for every short seat
    stuck = state.players[1]  # no draw could give seat 1 a new topic: they were all in other hands
    assert len(stuck.program) == 4 and not {topic(c) for c in stuck.hand} - {topic(c) for c in stuck.program}
    assert all(card >= 0 for p in state.players for card in p.hand)
    check_invariants(game, state)
    rng = random.Random(53)  # and the game plays on to its end
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
        check_invariants(game, state)
