"""The catalogs cover every text in the source, in every language, with the same placeholders.

The messages are extracted from the source here, in memory, exactly as ``pybabel extract``
does (docs/i18n.md): a new ``_("…")`` without translations makes this fail.
"""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from stammtisch import i18n

SOURCE = Path(i18n.__file__).parent
KEYWORDS = {**DEFAULT_KEYWORDS, "_n": (1, 2)}  # as in docs/i18n.md: pybabel extract -k _n:1,2
TRANSLATED = [code for code in i18n.available_languages() if code != i18n.SOURCE_LANGUAGE]
PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdrifx%]")


@cache
def extracted() -> dict[str, str | tuple[str, str]]:
    """msgid → message (a pair for plurals) of every marked text under src/stammtisch."""
    found: dict[str, str | tuple[str, str]] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(SOURCE), method_map=[("**.py", "python")], keywords=KEYWORDS):
        key = message if isinstance(message, str) else message[0]
        if key:
            found[key] = message if isinstance(message, str) else (message[0], message[1])
    return found


@cache
def catalog(code: str) -> Catalog:
    with i18n.catalog_path(code).open("rb") as po:
        return read_po(po, locale=code)


def placeholders(text: str) -> set[str]:
    """``{name}`` fields (with their conversion) and ``%(name)s``/``%s`` placeholders."""
    fields = {f"{{{name}{'!' + conv if conv else ''}}}"
              for _lit, name, _spec, conv in string.Formatter().parse(text) if name is not None}
    return fields | {match.group(0) for match in PERCENT.finditer(text) if match.group(0) != "%%"}


def test_the_source_has_texts_to_translate() -> None:
    texts = extracted()
    assert len(texts) > 300
    assert "{party} converts {k} rallies in {state}: ({k} {sign} {trend}) × {mult} = {votes} vote" in texts
    assert "Backbencher" in texts  # marked with N_ in a table built at import time
    assert "outcome" not in texts  # a dictionary key inside _(…) must not be extracted


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_text_of_the_source_is_translated(code: str) -> None:
    texts = extracted()
    missing = []
    for key, message in texts.items():
        entry = catalog(code).get(key)
        forms = entry.string if entry is not None else None
        if isinstance(forms, str):
            forms = (forms,)
        if (entry is None or entry.fuzzy or not forms or not all(forms)
                or isinstance(message, tuple) != entry.pluralizable):
            missing.append(key)
    assert not missing, f"{len(missing)} texts lack a {code} translation (see docs/i18n.md), e.g. {missing[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders(code: str) -> None:
    wrong = []
    for message in catalog(code):
        if not message.id or not message.string or message.fuzzy:  # fuzzy: a guess by pybabel update, unused
            continue
        expected, forms = _expected(message)
        wrong += [(message.id, form) for form in forms if form and placeholders(form) != expected]
    assert not wrong, wrong[:5]


def _expected(message: Message) -> tuple[set[str], tuple[str, ...]]:
    if message.pluralizable:
        singular, plural = message.id
        assert placeholders(singular) == placeholders(plural), message.id
        return placeholders(plural), tuple(message.string)
    return placeholders(str(message.id)), (str(message.string),)


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_match_the_language(code: str) -> None:
    nplurals = {"de": 2, "it": 2, "pl": 3, "ko": 1}[code]
    assert catalog(code).num_plurals == nplurals
    for message in catalog(code):
        if message.id and message.pluralizable and message.string:
            assert len(message.string) == nplurals, message.id


def test_the_template_matches_the_catalogs() -> None:
    """Every catalog has the template's messages: ``pybabel update`` has been run after ``extract``."""
    template = read_po((SOURCE / "locale" / "stammtisch.pot").open("rb"))
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for code in TRANSLATED:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(code) if m.id}
        assert ids <= have, (code, sorted(ids - have)[:5])
