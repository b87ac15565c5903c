"""Small drawings for the rules pages (``RulesSection.drawing``): inline SVG built from a few shapes, with
classes that app.css colours (``.drawing .card``, ``.accent``, …), so the page needs no image file, font or
script and prints as it shows.  A drawing carries no words (only digits and signs, the same in every
language); the section's heading and text say what it shows, so it is hidden from screen readers."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT = 200, 100


def svg(*parts: str, width: int = WIDTH, height: int = HEIGHT) -> str:
    return (f'<svg class="drawing" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'aria-hidden="true" focusable="false">{"".join(parts)}</svg>')


def rect(x: float, y: float, w: float, h: float, kind: str = "card", rx: float = 3) -> str:
    return f'<rect class="{kind}" x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}"/>'


def circle(cx: float, cy: float, r: float, kind: str = "piece") -> str:
    return f'<circle class="{kind}" cx="{cx}" cy="{cy}" r="{r}"/>'


def line(x1: float, y1: float, x2: float, y2: float, kind: str = "stroke") -> str:
    return f'<line class="{kind}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>'


def arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    """A line with a head at (x2, y2)."""
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    left = (x2 - 7 * ux + 4 * uy, y2 - 7 * uy - 4 * ux)
    right = (x2 - 7 * ux - 4 * uy, y2 - 7 * uy + 4 * ux)
    head = f'<polygon class="accent" points="{x2},{y2} {left[0]:.1f},{left[1]:.1f} {right[0]:.1f},{right[1]:.1f}"/>'
    return line(x1, y1, x2 - 5 * ux, y2 - 5 * uy, "arrow") + head


def sign(x: float, y: float, text: str, kind: str = "ink", size: int = 12) -> str:
    """Digits or a sign ("+", "−", "€", "×"): never a word."""
    return (f'<text class="{kind}" x="{x}" y="{y}" font-size="{size}" text-anchor="middle" '
            f'dominant-baseline="central">{escape(text)}</text>')


def cubes(x: float, y: float, count: int, kind: str = "accent", size: float = 8, per_row: int = 4) -> str:
    """A little stack of cubes (rallies, coal): ``count`` squares in rows of ``per_row``."""
    return "".join(rect(x + (i % per_row) * (size + 2), y - (i // per_row) * (size + 2), size, size, kind, 1)
                   for i in range(count))
