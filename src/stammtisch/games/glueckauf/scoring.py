"""Shift scoring over the twelve categories of the shift clock, and final scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.games.glueckauf.data import Category, Edition
from stammtisch.games.glueckauf.state import Player

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf


def majority(counts: list[int], first: int, second: int, two_players: bool) -> list[int]:
    """VP per seat for one category.

    A tie for first gives every tied seat the first-place VP and awards no second place; a tie
    for second gives every tied seat the second-place VP; with two players there is no second
    place; a count of 0 never scores.
    """
    awards = [0] * len(counts)
    best = max(counts)
    if best <= 0:
        return awards
    leaders = [seat for seat, n in enumerate(counts) if n == best]
    for seat in leaders:
        awards[seat] = first
    if len(leaders) > 1 or two_players:
        return awards
    runner_up = 0
    for n in counts:
        if runner_up < n < best:
            runner_up = n
    if runner_up > 0:
        for seat, n in enumerate(counts):
            if n == runner_up:
                awards[seat] = second
    return awards


def empty_carts(player: Player, tunnel: int, count_printed: bool) -> int:
    """Empty minecarts in one tunnel.  Without the printed carts, the player is deemed to have
    emptied tile carts before the printed one (the better choice for them, and the only one
    a cube's provenance could change)."""
    empty = player.carts[tunnel] - player.cubes_in_tunnel(tunnel)
    return empty if count_printed else min(empty, player.carts[tunnel] - 1)


def category_count(game: GlueckAuf, player: Player, category: Category, count_printed: bool) -> int:
    return _count(game, player, category.kind, category.key, count_printed)


def _count(game: GlueckAuf, player: Player, kind: str, key: int, count_printed: bool) -> int:
    if kind == "empty_carts":
        return empty_carts(player, key, count_printed)
    count = 0
    fields = game.card_fields  # the game's tables by card id: the edition's cards are interpreted objects
    if kind == "colour_fields":
        for c in player.delivered:
            count += fields[c].count(key)  # printed colours count, however the field was filled
    else:
        transport = game.card_transport
        for c in player.delivered:
            if transport[c] == key:
                count += len(fields[c])
    return count


def shift_categories(edition: Edition, shift: int) -> list[Category]:
    return [c for c in edition.categories if c.from_shift <= shift]


def score_category(
    game: GlueckAuf, players: list[Player], category: Category, count_printed: bool
) -> tuple[list[int], list[int]]:
    """(counts, awards) for one category."""
    kind, key = category.kind, category.key
    counts = [_count(game, p, kind, key, count_printed) for p in players]
    return counts, majority(counts, category.first, category.second, len(players) == 2)


def final_breakdown(edition: Edition, player: Player) -> dict[str, int]:
    """The final scoring of one player; ``kept_marks`` is the tie-break."""
    light = sum(1 for t in player.tiles if edition.tunnel_tiles[t - 1].light)
    dark = len(player.tiles) - light
    coal = player.coal_owned()
    parts = {
        "marks_vp": player.money // edition.marks_per_vp,
        "kept_marks": player.money % edition.marks_per_vp,
        "coal": coal,
        "coal_vp": coal // edition.coal_per_vp,
        "outstanding": len(player.orders),
        "outstanding_vp": len(player.orders) * edition.vp_per_outstanding_order,
        "light_tiles": light,
        "dark_tiles": dark,
        "balance_vp": abs(light - dark) * edition.vp_per_unbalanced_tile,
    }
    parts["total_vp"] = parts["marks_vp"] + parts["coal_vp"] + parts["outstanding_vp"] + parts["balance_vp"]
    return parts


def winners(vp: list[int], kept_marks: list[int]) -> list[int]:
    """Most VP; tie: most Marks kept after final scoring; still tied: a shared win."""
    best = max(vp)
    tied = [seat for seat, v in enumerate(vp) if v == best]
    most = max(kept_marks[seat] for seat in tied)
    return [seat for seat in tied if kept_marks[seat] == most]
