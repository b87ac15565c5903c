"""Glück Auf's terminal table, rendered from the views of real games (random legal play)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from stammtisch.cli.render import final_renderer, view_renderer
from stammtisch.engine.protocol import Action, Game
from stammtisch.engine.step import step
from stammtisch.games.glueckauf.bot import HeuristicBot
from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import COAL, KEEP_ORDER, KEEP_TILE, MINING, OVER, PLACE, Order, State
from stammtisch.games.glueckauf.terminal import render_final, render_view

Stop = Callable[[GlueckAuf, State, Action | None], bool]


def play(players: int, seed: int, stop: Stop, heuristic: bool = False, **options: Any) -> tuple[GlueckAuf, State]:
    """Random (or heuristic bots') legal play from ``seed`` until ``stop`` holds (or the game ends)."""
    game = GlueckAuf(players, options)
    state, _events = game.new_state(seed)
    rng = random.Random(seed)
    bots = [HeuristicBot(seed * 10 + seat) for seat in range(players)]
    last: Action | None = None
    while not game.is_over(state) and not stop(game, state, last):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        last = bots[seat].choose(game.view(state, seat), legal) if heuristic else legal[rng.randrange(len(legal))]
        step(game, state, seat, last)
    return game, state


def text(game: Game[Any], view: dict[str, Any], width: int = 120) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), color_system="truecolor")
    console.print(render_view(view, game.describe()))
    final = render_final(view, game.describe())
    if final is not None:
        console.print(final)
    return console.export_text()


def mid_run(game: GlueckAuf, state: State, last: Action | None) -> bool:
    """Inside a mining run, after its first step."""
    return state.phase == MINING and last is not None and last[0] != "place"


def after(moves: int) -> Stop:
    count = [0]

    def stop(game: GlueckAuf, state: State, last: Action | None) -> bool:
        count[0] += 1
        return count[0] > moves and state.phase == PLACE

    return stop


def at_stage(*stages: str) -> Stop:
    return lambda game, state, last: state.phase in stages


def never(game: GlueckAuf, state: State, last: Action | None) -> bool:
    return False


def marks(amount: int) -> str:
    return "1 Mark" if amount == 1 else f"{amount} Marks"


def test_the_cli_uses_this_renderer() -> None:
    assert view_renderer("glueckauf") is render_view
    assert final_renderer("glueckauf") is render_final


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 14), (4, 25)])
def test_every_player_money_vp_workers_and_orders(players: int, seed: int) -> None:
    game, state = play(players, seed, after(60))
    view = game.view(state, 0)
    shown = text(game, view)
    for seat, me in enumerate(view["board"]["seats"]):
        assert f"Player {seat + 1}" in shown
        assert f"{me['vp']} VP · {marks(me['money'])}" in shown  # the title of the seat's panel
        assert f"Workers: {me['workers']} left · canteen {me['canteen']} · bank {me['bank']}" in shown
        for order in me["orders"]:
            assert f"#{order['id']} " in shown
    assert f"Shift {view['board']['shift']} of 3" in shown
    assert "(you)" in shown


@pytest.mark.parametrize(("players", "locks"), [(2, 7), (3, 3), (4, 0)])
def test_locked_spaces_are_marked(players: int, locks: int) -> None:
    game, state = play(players, 4, after(5))
    shown = text(game, game.view(state, 1))
    assert shown.count("▨ locked") == locks + 1  # and once in the legend


def test_order_cards_and_tunnel_tiles_on_offer() -> None:
    game, state = play(3, 5, after(20))
    view = game.view(state, 2)
    shown = text(game, view)
    cards = [entry["card"] for entry in view["board"]["spaces"].values() if entry.get("card")]
    tiles = [entry["tile"] for entry in view["board"]["spaces"].values() if entry.get("tile")]
    assert cards and tiles
    names = {"handcart": "handcart", "wagon": "horse wagon", "lorry": "lorry", "train": "train"}
    for card in cards:
        letters = "".join({"yellow": "Y", "brown": "B", "grey": "G", "black": "K"}[c] for c in card["fields"])
        assert f"#{card['id']} {names[card['transport']]} {card['vp']} VP {letters}" in shown
    for tile in tiles:
        letters = {"yellow": "Y", "brown": "B", "grey": "G", "black": "K"}[tile["colour"]] * tile["carts"]
        assert f"{letters} {tile['side']} {marks(tile['cost'])}" in shown


@pytest.mark.parametrize(("players", "seed"), [(2, 6), (3, 7), (4, 8)])
def test_a_mining_run_shows_its_steps_left(players: int, seed: int) -> None:
    game, state = play(players, seed, mid_run)
    assert state.phase == MINING
    view = game.view(state, state.current)
    shown = text(game, view)
    left = view["board"]["steps_left"]
    mining = [int(space.split("_")[1]) for space, entry in view["board"]["spaces"].items()
              if space.startswith("mining_") and entry["owner"] == state.current]
    if len(mining) == 1:
        total = mining[0]
        assert f"step {total - left + 1} of {total}: {left} steps left" in shown
        assert "■" * (total - left) + "□" * left in shown
    else:
        assert f"{left} steps left" in shown
    assert "Cage " in shown and "Mining" in shown
    # another seat sees the same run from outside
    other = text(game, game.view(state, (state.current + 1) % players))
    assert f"{left} steps left" in other


def test_the_shift_clock_marks_what_scores_this_shift() -> None:
    game, state = play(2, 9, after(3))
    assert state.shift == 1
    shown = text(game, game.view(state, 0))
    assert shown.count("✓ scores") == 1 and "from shift 2" in shown and "from shift 3" in shown
    game, state = play(3, 9, lambda g, s, last: s.shift == 3)
    shown = text(game, game.view(state, 0))
    assert shown.count("✓ scores") == 3 and "from shift" not in shown


@pytest.mark.parametrize(("players", "seed", "stage"),
                         [(2, 10, KEEP_TILE), (3, 11, KEEP_ORDER), (4, 12, KEEP_TILE), (4, 13, KEEP_ORDER)])
def test_the_draw_5_hand_only_for_its_drawer(players: int, seed: int, stage: str) -> None:
    game, state = play(players, seed, at_stage(stage))
    assert state.phase == stage
    drawer = state.current
    mine = game.view(state, drawer)
    shown = text(game, mine)
    assert "(only you see them)" in shown
    if stage == KEEP_TILE:
        hand = [f"#{t['id']} " + ({"yellow": "Y", "brown": "B", "grey": "G", "black": "K"}[t["colour"]] * t["carts"])
                for t in mine["board"]["drawn"]]
    else:
        hand = [f"#{c['id']} " for c in mine["board"]["drawn"]]
    assert hand and all(item in shown for item in hand)
    for seat in range(players):
        if seat != drawer:
            theirs = text(game, game.view(state, seat))
            assert "(only you see them)" not in theirs
            assert not any(item in theirs for item in hand)
    assert not any(item in text(game, game.view(state, None)) for item in hand)  # nor a spectator


def test_the_return_order_only_for_its_drawer() -> None:
    # issue #8 item 5: the drawer sees what it has put back, in order; nobody else does
    game, state = play(3, 11, at_stage(KEEP_ORDER))
    drawer = state.current
    step(game, state, drawer, ("keep_order", None))
    first, second = sorted(state.drawn)[:2]
    step(game, state, drawer, ("return_orders", "top", first))
    step(game, state, drawer, ("return_orders", "top", second))
    shown = text(game, game.view(state, drawer), 160)
    assert "Put back on top" in shown and "one by one, in any order" in shown
    assert shown.index(f"#{first} ") < shown.index(f"#{second} ")
    for viewer in [None, *(s for s in range(3) if s != drawer)]:
        theirs = text(game, game.view(state, viewer), 160)
        assert "Put back" not in theirs and f"#{first} " not in theirs


def test_substitute_cubes_owed() -> None:
    game, state = play(2, 15, after(4))
    seat = state.current
    slot, tile = next((n, t) for n, t in enumerate(state.factory) if t)
    colour = game.tiles[tile].colour
    state.supply[colour] = 0
    state.players[seat].money = 50
    step(game, state, seat, ("place", f"factory_{slot + 1}"))
    assert state.phase == COAL
    shown = text(game, game.view(state, seat))
    name = ("yellow", "brown", "grey", "black")[colour]
    assert "Substitutes owed" in shown
    assert f"a new minecart in the {name} tunnel" in shown
    assert "may put a cube of another colour on each new minecart, or leave it empty" in shown  # issue #8 item 6
    assert "refilled at the end of the turn" in shown  # the factory space just emptied


def test_order_fields_show_substitutes_and_completion() -> None:
    game, state = play(2, 16, after(4))
    me = state.players[0]
    two_grey = next(c.id for c in game.edition.order_cards if c.fields == (2, 2))
    black = next(c.id for c in game.edition.order_cards if c.fields == (3,))
    me.orders = [Order(two_grey, ((0, 1), (2,)), 0), Order(black, ((0,),), 1)]  # substituted + filled; half substituted
    shown = text(game, game.view(state, 0))
    assert "G✓(YB) G✓" in shown and "✓ ready" in shown
    assert "K(Y)" in shown and "1 to fill" in shown


def test_delivered_cards_shown_only_as_the_table_allows() -> None:
    def delivered(game: GlueckAuf, state: State, last: Action | None) -> bool:
        return all(p.delivered for p in state.players) and state.phase == PLACE

    for open_delivered in (False, True):
        game, state = play(2, 17, delivered, heuristic=True, open_delivered=open_delivered)
        assert all(p.delivered for p in state.players)
        shown = text(game, game.view(state, 0))
        own = state.players[0].delivered
        assert f"Delivered ({len(own)}): #{own[0]} " in shown
        other = state.players[1].delivered
        if open_delivered:
            assert f"Delivered ({len(other)}): #{other[0]} " in shown
        else:
            assert f"Delivered ({len(other)}): face down until the shift scoring" in shown


@pytest.mark.parametrize(("players", "seed", "heuristic"), [(2, 18, False), (3, 19, True), (4, 20, False),
                                                            (4, 24, True)])
def test_game_over_and_the_final_table(players: int, seed: int, heuristic: bool) -> None:
    game, state = play(players, seed, never, heuristic=heuristic)
    assert state.phase == OVER
    view = game.view(state, 0)
    shown = text(game, view)
    assert "Game over" in shown and "Final scores (victory points by source)" in shown
    rows = [line for line in shown.splitlines() if line.startswith("│ Player")]
    assert len(rows) == players
    for seat, row in enumerate(rows):
        final = view["final"]["detail"][seat]
        cells = [cell.strip() for cell in row.strip("│").split("│")]
        assert cells[1] == str(view["board"]["seats"][seat]["vp"] - final["total_vp"])
        assert cells[2] == str(final["marks_vp"])
        assert cells[6] == str(view["board"]["seats"][seat]["vp"])
        assert cells[7] == str(final["kept_marks"])
        assert ("★ winner" in row) == (seat in view["final"]["winners"])


@pytest.mark.parametrize("width", [100, 160])
@pytest.mark.parametrize(("players", "seed"), [(2, 21), (4, 22)])
def test_fits_100_and_160_columns_at_every_stage(players: int, seed: int, width: int) -> None:
    """A view at every stage the game passes through, for the seat to act: nothing cut off."""
    game = GlueckAuf(players, {})
    state, _events = game.new_state(seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    moves = 0
    while True:
        if state.phase not in seen or moves % 40 == 0:
            seen.add(state.phase)
            seat = game.to_act(state)[0] if state.phase != OVER else 0
            shown = text(game, game.view(state, seat), width)
            lines = shown.splitlines()
            assert max(len(line) for line in lines) <= width
            assert "…" not in shown, shown
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        step(game, state, seat, legal[rng.randrange(len(legal))])
        moves += 1
    assert {PLACE, MINING, OVER} <= seen


def test_colours_have_letters_and_the_supply_is_shown() -> None:
    game, state = play(3, 23, after(10))
    view = game.view(state, 0)
    shown = text(game, view)
    supply = view["board"]["supply"]
    assert f"Y{supply['yellow']} B{supply['brown']} G{supply['grey']} K{supply['black']}" in shown
    for level in ("Y yellow", "B brown", "G grey", "K black", "surface"):
        assert level in shown


def test_game_over_shows_every_players_delivered_cards() -> None:
    # issue #8 item 7: once the game is over the delivered piles are public (glueck-auf.md §3:
    # private only until scoring), so the final display shows the other seats' cards too
    game, state = play(2, 17, never, heuristic=True)
    assert state.phase == OVER and state.players[1].delivered
    for viewer in (0, None):
        shown = text(game, game.view(state, viewer), 160)
        assert "face down" not in shown
        other = state.players[1].delivered
        assert f"Delivered ({len(other)}): #{other[0]} " in shown
