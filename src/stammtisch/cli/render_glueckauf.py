"""Slot for Glück Auf's terminal table.

Until it offers ``render_view(view) -> RenderableType`` (and optionally
``render_final(view) -> RenderableType | None``), ``stammtisch.cli.render`` falls back to the
generic tree of the view.  See ``render_diemacher`` for the shape of a finished renderer.
"""
