"""A game's rules page (``GET /rules/{game}?lang=``), drawn on the server from the sections its game folder
lists (``GameSpec.rules_page``, src/stammtisch/registry.py ``RulesSection``), in the reader's language.

The page has a turn summary card (the one part printed: app.css ``@media print``), a section per phase with
its drawing and the anchor ``phase-NAME`` of each phase it explains (the table's phase labels link there),
and the table options the lobby offers, read from the game's option declarations (label, hint, default).
Every text is escaped; the page has no script and loads nothing but our stylesheet and icon (the server's
Content-Security-Policy holds for it too)."""

from __future__ import annotations

from html import escape
from typing import Any

from stammtisch import i18n
from stammtisch.engine.options import Option
from stammtisch.i18n import N_, _
from stammtisch.registry import GameSpec, RulesSection

PAGE = (
    N_("Rules of {game}"),
    N_("Contents"),
    N_("This is a short summary; the table enforces every rule of the full rulebook."),
)


def anchor(phase: str) -> str:
    """The id of the section that explains ``phase`` (the table page links ``/rules/{game}#phase-NAME``)."""
    return f"phase-{phase}"


def rules_html(spec: GameSpec) -> str:
    """The page in the current language."""
    lang = i18n.current_language()
    title = _("Rules of {game}").format(game=_(spec.title))
    sections = spec.rules_sections()
    current = ' aria-current="page"'
    languages = " ".join(
        f'<a href="/rules/{escape(spec.name)}?lang={code}" lang="{code}" hreflang="{code}"'
        f'{current if code == lang else ""}>{escape(name)}</a>'
        for code, name in i18n.LANGUAGES.items())
    contents = "".join(f'<li><a href="#rules-{i}">{escape(_(section.heading))}</a></li>'
                       for i, section in enumerate(sections))
    options = _("Table options")
    contents += f'<li><a href="#rules-options">{escape(options)}</a></li>'
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · Stammtisch</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/app.css"></head>'
        '<body class="rules-page"><header class="topbar">'
        f'<a class="brand" href="/" aria-label="{escape(_("Stammtisch: back to the lobby"))}">'
        '<img src="/static/favicon.svg" alt="" width="28" height="28"><span>Stammtisch</span></a>'
        f'<p class="page-title">{escape(_(spec.title))}</p>'
        f'<nav class="languages" aria-label="{escape(_("Language"))}">{languages}</nav></header>'
        f'<main class="rules"><h1>{escape(title)}</h1><p class="hint">'
        f'{escape(_("This is a short summary; the table enforces every rule of the full rulebook."))}</p>'
        f"{summary_card(spec, sections)}"
        f'<nav class="rules-contents" aria-labelledby="rules-contents"><h2 id="rules-contents">'
        f'{escape(_("Contents"))}</h2><ol>{contents}</ol></nav>'
        f'{"".join(section_html(i, section) for i, section in enumerate(sections))}'
        f"{options_html(spec)}</main></body></html>\n")


def summary_card(spec: GameSpec, sections: tuple[RulesSection, ...]) -> str:
    """The turn summary card: each phase's heading (a link to its section) and its one line."""
    rows = "".join(
        f'<li><a href="#rules-{i}">{escape(_(section.heading))}</a> {escape(_(section.summary))}</li>'
        for i, section in enumerate(sections) if section.summary)
    heading = _("Turn summary: {game}").format(game=_(spec.title))
    printed = _("Printing this page prints this card alone, on one page.")
    return (f'<section class="summary-card" aria-labelledby="rules-summary"><h2 id="rules-summary">{escape(heading)}'
            f'</h2><p class="hint print-hint">{escape(printed)}</p><ol>{rows}</ol></section>')


def section_html(index: int, section: RulesSection) -> str:
    anchors = "".join(f'<span class="anchor" id="{escape(anchor(phase))}"></span>' for phase in section.phases)
    drawing = f'<div class="rules-drawing">{section.drawing}</div>' if section.drawing else ""
    return (f'<section class="rules-section" aria-labelledby="rules-{index}">{anchors}'
            f'<h2 id="rules-{index}">{escape(_(section.heading))}</h2>{drawing}'
            + "".join(f"<p>{escape(_(p))}</p>" for p in section.paragraphs) + "</section>")


def options_html(spec: GameSpec) -> str:
    """The options the lobby offers, each with its default and what it changes (the declaration's hint)."""
    items = "".join(
        f"<dt>{escape(_(option.label))}</dt>"
        + (f"<dd>{escape(_(option.hint))}</dd>" if option.hint else "")
        + f'<dd class="default">{escape(default_text(option))}</dd>'
        for option in spec.options if option.lobby)
    heading, offered = _("Table options"), _("The lobby offers these options when a table is created.")
    return (f'<section class="rules-section" aria-labelledby="rules-options"><h2 id="rules-options">'
            f'{escape(heading)}</h2><p>{escape(offered)}</p><dl class="rules-options">{items}</dl></section>')


def default_text(option: Option) -> str:
    value: Any = option.default
    if option.kind is bool:
        return _("Default: on") if value else _("Default: off")
    return _("Default: {value}").format(value=value)
