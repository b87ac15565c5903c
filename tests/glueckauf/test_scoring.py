"""Shift scoring (12 categories, ties, 2 players, zero rule), final scoring, tie-break, next start player."""

from __future__ import annotations

import pytest
from glueckauf_helpers import BLACK, BROWN, GREY, YELLOW, act, after_draft, card_with, kinds, new_game

from stammtisch.games.glueckauf import scoring
from stammtisch.games.glueckauf.data import Category
from stammtisch.games.glueckauf.phases.shift import next_start_player
from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import OVER, Order, Player, State

# the printed shift clock (glueck-auf.md, shift scoring table): id -> (1st, 2nd, first shift scored)
CLOCK = {
    "yellow_fields": (2, 1, 1), "brown_fields": (3, 1, 1), "grey_fields": (4, 2, 1), "black_fields": (5, 2, 1),
    "handcart_fields": (6, 3, 2), "wagon_fields": (7, 3, 2), "lorry_fields": (8, 4, 2), "train_fields": (9, 4, 2),
    "empty_yellow_carts": (10, 5, 3), "empty_brown_carts": (11, 5, 3), "empty_grey_carts": (12, 6, 3),
    "empty_black_carts": (13, 6, 3),
}  # fmt: skip


@pytest.mark.parametrize(
    ("counts", "two", "expected"),
    [([3, 1], True, [9, 0]), ([2, 2], True, [9, 9]), ([0, 1], True, [0, 9]), ([0, 0], True, [0, 0]),
     ([3, 2, 2], False, [9, 4, 4]), ([1, 3, 3], False, [0, 9, 9]), ([0, 0, 0], False, [0, 0, 0]),
     ([2, 0, 0], False, [9, 0, 0]), ([4, 1, 0, 1], False, [9, 4, 0, 4]), ([2, 2, 1, 0], False, [9, 9, 0, 0]),
     ([1, 1, 1, 1], False, [9, 9, 9, 9]), ([5, 3, 2, 1], False, [9, 4, 0, 0])],
)  # fmt: skip
def test_majority(counts: list[int], two: bool, expected: list[int]) -> None:
    assert scoring.majority(counts, 9, 4, two) == expected


def test_categories_match_the_shift_clock() -> None:
    game = new_game(4)
    assert {c.id: (c.first, c.second, c.from_shift) for c in game.edition.categories} == CLOCK
    assert [len(scoring.shift_categories(game.edition, s)) for s in (1, 2, 3)] == [4, 8, 12]


def _fill_seat(game: GlueckAuf, p: Player, category: Category, count: int, pool: list[int]) -> None:
    if category.kind == "empty_carts":
        p.carts[category.key] = count + 1  # the printed cart keeps its cube
        return
    remaining = count
    for size in (3, 2, 1):
        for card_id in list(pool):
            card = game.cards[card_id]
            fits = (
                card.transport == category.key
                if category.kind == "transport_fields"
                else set(card.fields) == {category.key}
            )
            if fits and len(card.fields) == size and size <= remaining:
                pool.remove(card_id)
                p.delivered.append(card_id)
                remaining -= size
    assert remaining == 0


PATTERNS = {
    2: [([3, 1], ["F", "-"]), ([2, 2], ["F", "F"])],
    3: [([3, 2, 2], ["F", "S", "S"]), ([1, 3, 3], ["-", "F", "F"])],
    4: [([4, 1, 0, 1], ["F", "S", "-", "S"]), ([2, 2, 1, 0], ["F", "F", "-", "-"])],
}


@pytest.mark.parametrize("category_id", list(CLOCK))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_category_and_tie_case(category_id: str, players: int) -> None:
    game = new_game(players)
    category = next(c for c in game.edition.categories if c.id == category_id)
    first, second, _shift = CLOCK[category_id]
    for counts, places in PATTERNS[players]:
        state, _ = game.new_state(0)
        pool = [c.id for c in game.edition.order_cards]
        for p, n in zip(state.players, counts, strict=True):
            _fill_seat(game, p, category, n, pool)
        got, awards = scoring.score_category(game, state.players, category, True)
        assert got == counts
        assert awards == [{"F": first, "S": second, "-": 0}[x] for x in places]


def test_shift_scoring_example() -> None:
    # glueck-auf.md example 4 (shift scoring): Martyna and Gosia tie for handcart fields (3 each):
    # both score 6, Maciek (2) gets nothing; Maciek leads horse-wagon fields (6): 7 VP, Martyna
    # and Gosia tie for 2nd (1 each): 3 VP each; nobody has lorry or train fields: nobody scores.
    game = new_game(3)
    state, _ = game.new_state(0)
    martyna, gosia, maciek = state.players
    martyna.delivered = [card_with(game, 0, (BROWN,) * 3), card_with(game, 1, (YELLOW,))]
    gosia.delivered = [card_with(game, 0, (GREY,) * 3), card_with(game, 1, (BROWN,))]
    maciek.delivered = [card_with(game, 0, (YELLOW, YELLOW)), card_with(game, 1, (YELLOW, BROWN, GREY, BLACK)),
                        card_with(game, 1, (BLACK, BLACK))]  # fmt: skip
    by_id = {c.id: c for c in game.edition.categories}
    expect = {"handcart_fields": [6, 6, 0], "wagon_fields": [3, 3, 7], "lorry_fields": [0, 0, 0],
              "train_fields": [0, 0, 0]}  # fmt: skip
    for category_id, awards in expect.items():
        assert scoring.score_category(game, state.players, by_id[category_id], True)[1] == awards


def test_colour_fields_count_printed_colours() -> None:
    game = new_game(2)
    state = after_draft(game)
    p = state.players[0]
    p.delivered = [card_with(game, 2, (YELLOW, BROWN, GREY, BLACK)), card_with(game, 2, (BLACK, BLACK, BLACK))]
    counts = [scoring.category_count(game, p, c, True) for c in game.edition.categories[:8]]
    assert counts == [1, 1, 1, 4, 0, 0, 7, 0]


def test_empty_carts_with_and_without_the_printed_ones() -> None:
    p = Player.new(0, 0)
    p.carts[GREY] = 3
    p.coal[GREY * 4 + GREY] = 0
    assert (scoring.empty_carts(p, GREY, True), scoring.empty_carts(p, GREY, False)) == (3, 2)
    p.coal[GREY * 4 + GREY] = 1
    assert (scoring.empty_carts(p, GREY, True), scoring.empty_carts(p, GREY, False)) == (2, 2)
    p.coal[GREY * 4 + YELLOW] = 2  # substitute cubes count as coal on grey carts
    assert (scoring.empty_carts(p, GREY, True), scoring.empty_carts(p, GREY, False)) == (0, 0)
    assert scoring.empty_carts(p, YELLOW, True) == 0 and scoring.empty_carts(Player.new(0, 0), BLACK, False) == 0


def end_shift(game: GlueckAuf, state: State) -> list[str]:
    for p in state.players:
        p.workers = 0
    state.players[state.current].workers = 1
    return [e.params["category"] for e in act(game, state, ("place", "bank")) if e.kind == "category_scored"]


def test_categories_scored_per_shift_and_cumulative() -> None:
    game = new_game(2)
    state = after_draft(game)
    state.players[0].delivered = [card_with(game, 0, (YELLOW,))]
    assert end_shift(game, state) == list(CLOCK)[:4]
    assert state.players[0].vp == 2 and state.shift == 2
    assert end_shift(game, state) == list(CLOCK)[:8]
    assert state.players[0].vp == 2 + 2 + 6
    assert end_shift(game, state) == list(CLOCK)
    assert state.phase == OVER


def test_final_scoring_example() -> None:
    # glueck-auf.md example 5 (final scoring): 7 Marks -> +1 VP (2 Marks kept for ties); 4 cubes
    # anywhere -> +1 VP; 1 outstanding order -> -1 VP; 7 light and 4 dark tiles -> -6 VP.
    game = new_game(2)
    p = Player.new(7, 0)
    p.coal = [0] * 16
    p.coal[BLACK * 5] = 1
    p.cage = [1, 0, 0, 0]
    p.storage = [0, 0, 1, 0]
    p.orders = [Order(card_with(game, 3, (BROWN, BROWN)), ((BROWN,), ()), 1)]
    light = [t.id for t in game.edition.tunnel_tiles if t.light][:7]
    dark = [t.id for t in game.edition.tunnel_tiles if not t.light][:4]
    p.tiles = light + dark
    parts = scoring.final_breakdown(game.edition, p)
    assert (parts["marks_vp"], parts["kept_marks"]) == (1, 2)
    assert (parts["coal"], parts["coal_vp"]) == (4, 1)
    assert parts["outstanding_vp"] == -1
    assert parts["balance_vp"] == -6
    assert parts["total_vp"] == -5


def test_final_scoring_at_game_end_and_tie_break() -> None:
    game = new_game(3)
    state = after_draft(game)
    for p in state.players:
        p.orders = []
    state.players[0].money, state.players[1].money, state.players[2].money = 14, 13, 3
    state.shift = 3
    state.current = 2  # the last worker goes to the bank: 1 more Mark for seat 2 only
    end_shift(game, state)
    assert state.phase == OVER and state.final is not None
    # 14 and 13 Marks both give 2 VP; kept 4 beats kept 3
    assert game.scores(state)[0] == game.scores(state)[1]
    assert game.winners(state) == [0]
    assert game.summary(state)["decided_by_marks"] == 1


def test_winners_shared_when_marks_tie() -> None:
    assert scoring.winners([10, 10, 8], [2, 4, 0]) == [1]
    assert scoring.winners([10, 10, 8], [3, 3, 4]) == [0, 1]
    assert scoring.winners([7, 10, 8], [0, 0, 4]) == [1]


def set_factory_workers(game: GlueckAuf, state: State, workers: dict[int, int]) -> None:
    spots = [s for s in game.spots if s.kind in (0, 1)]  # factory tile spaces and draw 5
    for spot, (seat, count) in zip(spots, workers.items(), strict=False):
        state.owner[spot.index], state.count[spot.index] = seat, count


@pytest.mark.parametrize(
    ("previous", "workers", "expected"),
    [(0, {2: 5, 1: 4, 0: 2}, 2),  # the start player example: Maciek with 5 of the most
     (1, {0: 3, 2: 3}, 2),  # tie: nearest clockwise after the previous start player
     (1, {1: 3, 0: 3}, 0),  # the previous start player cannot keep it on a tie
     (3, {3: 4, 0: 1}, 3),  # but keeps it with a clear majority
     (2, {}, 3)],  # nobody in the factory: the next seat clockwise
)  # fmt: skip
def test_next_start_player(previous: int, workers: dict[int, int], expected: int) -> None:
    game = new_game(4)
    state = after_draft(game)
    state.start_player = previous
    set_factory_workers(game, state, workers)
    assert next_start_player(game, state) == expected


def test_draw_five_counts_for_the_factory_majority() -> None:
    game = new_game(4)
    state = after_draft(game)
    draw = game.spot_by_id["factory_draw"].index
    state.owner[draw], state.count[draw] = 3, 2
    one = game.spot_by_id["factory_1"].index
    state.owner[one], state.count[one] = 1, 1
    assert next_start_player(game, state) == 3


def test_new_shift_starts_with_the_new_start_player() -> None:
    game = new_game(4)
    state = after_draft(game)
    act(game, state, ("place", "factory_draw"))
    act(game, state, ("keep_tile", None))
    for tile in sorted(state.drawn)[:-1]:
        act(game, state, ("return_tiles", "top", tile))
    events = act(game, state, ("place", "factory_draw"))  # seat 1 displaces seat 0: 2 workers
    act(game, state, ("keep_tile", None))
    for tile in sorted(state.drawn)[:-1]:
        act(game, state, ("return_tiles", "top", tile))
    assert "placed" in kinds(events)
    for p in state.players:
        p.workers = 0
    state.players[state.current].workers = 1
    act(game, state, ("place", "bank"))
    assert state.shift == 2 and state.start_player == 1 and state.current == 1
