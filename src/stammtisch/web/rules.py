"""A game's short rules page (``GET /rules/{game}?lang=``), drawn on the server from the texts its game
folder lists (``GameSpec.rules_page``), in the reader's language: every text is escaped, the page has no
script (the server's Content-Security-Policy holds for it too)."""

from __future__ import annotations

from html import escape

from stammtisch import i18n
from stammtisch.i18n import N_, _
from stammtisch.registry import GameSpec

PAGE = (
    N_("Rules of {game}"),
    N_("Contents"),
    N_("This is a short summary; the table enforces every rule of the full rulebook."),
)


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
    contents = "".join(f'<li><a href="#rules-{i}">{escape(_(heading))}</a></li>'
                       for i, (heading, _paragraphs) in enumerate(sections))
    body = "".join(
        f'<section aria-labelledby="rules-{i}"><h2 id="rules-{i}">{escape(_(heading))}</h2>'
        + "".join(f"<p>{escape(_(p))}</p>" for p in paragraphs) + "</section>"
        for i, (heading, paragraphs) in enumerate(sections))
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
        f'<nav aria-labelledby="rules-contents"><h2 id="rules-contents">{escape(_("Contents"))}</h2>'
        f"<ol>{contents}</ol></nav>{body}</main></body></html>\n")
