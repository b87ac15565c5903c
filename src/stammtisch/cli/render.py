"""Board renderers by game, with a generic fallback that shows any view as a tree.

A game's terminal module (its spec's ``terminal``, e.g. ``games/<g>/terminal.py``) offers
``render_view(view, described) -> RenderableType`` (the whole table as that seat sees it) and
optionally ``render_final(view, described) -> RenderableType | None`` (the final scoring table);
``described`` is the table's ``Game.describe()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from stammtisch.i18n import _
from stammtisch.registry import game_spec

Renderer = Callable[[dict[str, Any], dict[str, Any]], RenderableType]
FinalRenderer = Callable[[dict[str, Any], dict[str, Any]], RenderableType | None]

INLINE_LIMIT = 100  # characters: longer values are unfolded into branches


def _module(game: str) -> Any:
    return game_spec(game).terminal_module()


def view_renderer(game: str) -> Renderer:
    found = getattr(_module(game), "render_view", None)
    return found if callable(found) else render_generic


def final_renderer(game: str) -> FinalRenderer:
    found = getattr(_module(game), "render_final", None)
    return found if callable(found) else render_generic_final


STATUS_KEYS = ("phase", "to_act")  # of the view envelope (engine/view.py)


def render_generic(view: dict[str, Any], described: dict[str, Any]) -> RenderableType:
    """Every key of the view as a tree, short values inline: works for any game (the keys stay as the view
    names them: this is the fallback until a game has its own renderer)."""
    status = " · ".join(f"{key.replace('_', ' ')} {_inline(view[key])}" for key in STATUS_KEYS if key in view)
    title = _("{game} (seat {seat})").format(game=view.get("game", _("game")), seat=_inline(view.get("seat")))
    tree = Tree(Text.assemble((title, "bold"),
                              f"  {status}" if status else ""))
    _add_mapping(tree, view)
    return tree


def _add_mapping(tree: Tree, data: dict[str, Any]) -> None:
    for key, value in data.items():
        _add_value(tree, str(key), value)


def _add_value(tree: Tree, label: str, value: Any) -> None:
    inline = _inline(value)
    if len(inline) + len(label) <= INLINE_LIMIT or not isinstance(value, dict | list):
        tree.add(Text.assemble((label, "cyan"), ": ", inline))
    elif isinstance(value, dict):
        _add_mapping(tree.add(Text(label, style="cyan")), value)
    else:
        branch = tree.add(Text.assemble((label, "cyan"), f" ({len(value)})"))
        for index, item in enumerate(value):
            _add_value(branch, f"[{index}]", item)


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if value is None:
        return "—"
    return str(value)


def render_generic_final(view: dict[str, Any], described: dict[str, Any]) -> RenderableType | None:
    """A final table from the envelope's ``final`` (its ``detail``: a dict per seat)."""
    final = view.get("final") or {}
    rows = final.get("detail")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        return None
    columns = list(dict.fromkeys(k for row in rows for k in row))
    winners = final.get("winners")
    table = Table(title=_("Final scores"))
    table.add_column(_("Seat"))
    for column in columns:
        table.add_column(column.replace("_", " "), justify="right")
    for seat, row in enumerate(rows):
        mark = " ★" if isinstance(winners, list) and seat in winners else ""
        table.add_row(Text(f"{seat}{mark}"), *(Text(_inline(row.get(c))) for c in columns))
    return table
