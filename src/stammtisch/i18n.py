"""Every text a player reads goes through ``_`` so that it can be translated (gettext).

English is the source language.  The other languages are standard gettext catalogs
(``locale/<lang>/LC_MESSAGES/stammtisch.po``), compiled in memory with Babel the first time
a language is used; no ``.mo`` file is shipped.  See ``docs/i18n.md``.

- ``_(text)`` translates now, into the current language: call it when the text is shown, not
  at import time, so that ``set_language`` changes every later text.
- ``N_(text)`` marks a literal for extraction without translating it (for tables built at
  import time); translate the value where it is shown: ``_(TOPIC_NAMES[i])``.
- ``_n(singular, plural, n)`` picks the plural form for the count ``n`` in the current
  language (Polish has three, Korean one); the caller still fills in ``{n}``.
- ``format_number(n)`` writes a whole number as the current language does (5,000 / 5.000 / 5000).
- ``using_language(code)`` translates into ``code`` within a ``with`` block, for this thread or
  asyncio task only (a server renders each connection in its reader's language); outside any
  such block the process-wide ``set_language`` choice applies.
"""

from __future__ import annotations

import contextlib
import gettext
import io
import os
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from importlib import resources

DOMAIN = "stammtisch"
SOURCE_LANGUAGE = "en"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "pl": "Polski",
    "it": "Italiano",
    "ko": "한국어",
}
ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_cache: dict[str, gettext.NullTranslations] = {}
_lock = threading.Lock()
# (code, translations) chosen by ``using_language`` for the current thread or asyncio task.
_local: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar("stammtisch_language", default=None)


def _active() -> gettext.NullTranslations:
    local = _local.get()
    return _translation if local is None else local[1]


def _(message: str) -> str:
    return _active().gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, do not translate"
    """Mark ``message`` for extraction; it is translated later, where it is shown, with ``_``."""
    return message


def _n(singular: str, plural: str, n: int) -> str:
    return _active().ngettext(singular, plural, n)


def available_languages() -> list[str]:
    """Language codes that ``set_language`` accepts, the source language (English) first."""
    return list(LANGUAGES)


def current_language() -> str:
    local = _local.get()
    return _language if local is None else local[0]


def _checked(code: str) -> str:
    if code in LANGUAGES:  # the usual case (the server asks at every message it translates)
        return code
    normalized = _normalize(code)
    if normalized not in LANGUAGES:
        choices = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise ValueError(f"unknown language {code!r}; choose one of {choices}")
    return normalized


def set_language(code: str) -> None:
    """Use ``code`` (``en``, ``de``, ``pl``, ``it``, ``ko``) for every text from now on."""
    global _translation, _language
    normalized = _checked(code)
    _translation = translation(normalized)
    _language = normalized


@contextlib.contextmanager
def using_language(code: str) -> Iterator[str]:
    """Translate into ``code`` inside the block, in this thread or asyncio task only; yields the
    normalized code.  ``ValueError`` for a language we do not have."""
    normalized = _checked(code)
    token = _local.set((normalized, translation(normalized)))
    try:
        yield normalized
    finally:
        _local.reset(token)


def best_language(accepted: str | None) -> str:
    """The first of our languages in an HTTP ``Accept-Language`` header (``pl-PL,pl;q=0.9,en;q=0.8``),
    by the quality values; English when it names none of them."""
    wishes: list[tuple[float, int, str]] = []
    for index, part in enumerate((accepted or "").split(",")):
        code, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if code and quality > 0:
            wishes.append((-quality, index, _normalize(code)))
    for _quality, _index, code in sorted(wishes):
        if code in LANGUAGES:
            return code
    return SOURCE_LANGUAGE


def translation(code: str) -> gettext.NullTranslations:
    """The (cached) translations of one language; English has none: texts stay as written."""
    found = _cache.get(code)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(code)
        if found is None:
            found = _cache[code] = gettext.NullTranslations() if code == SOURCE_LANGUAGE else _load(code)
        return found


def catalog_path(code: str) -> resources.abc.Traversable:
    return resources.files("stammtisch") / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def _load(code: str) -> gettext.NullTranslations:
    found = _compiled(catalog_path(code), code)
    for package in _catalogs:
        for extra in _game_catalogs(package, code):
            found.add_fallback(extra)
    return found


def _compiled(path: resources.abc.Traversable, code: str) -> gettext.NullTranslations:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


# Packages of games installed from other distributions whose texts have catalogs of their own
# (``GameSpec.catalog``; the registry adds them as it registers the games).
_catalogs: list[str] = []


def _game_catalogs(package: str, code: str) -> list[gettext.NullTranslations]:
    folder = resources.files(package) / "locale" / code / "LC_MESSAGES"
    if not folder.is_dir():
        return []
    return [_compiled(po, code) for po in sorted(folder.iterdir(), key=lambda p: p.name) if po.name.endswith(".po")]


def add_catalog(package: str) -> None:
    """Translate with ``package``'s own catalogs too (``package/locale/<code>/LC_MESSAGES/*.po``), after
    Stammtisch's: a game from another distribution brings its texts' translations."""
    with _lock:
        if package in _catalogs:
            return
        _catalogs.append(package)
        for code, found in _cache.items():
            if code != SOURCE_LANGUAGE:
                for extra in _game_catalogs(package, code):
                    found.add_fallback(extra)


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """The language the environment asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    first set wins; ``pl_PL.UTF-8`` means ``pl``), or English when it names none we have."""
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT_VARIABLES:
        value = env.get(name, "").strip()
        if not value:
            continue
        entries = value.split(":") if name == "LANGUAGE" else [value]
        for entry in entries:
            code = _normalize(entry)
            if code in LANGUAGES:
                return code
        if name != "LANGUAGE":  # LANGUAGE is a wish list; the locale variables decide
            return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def _normalize(code: str) -> str:
    """``pl_PL.UTF-8`` → ``pl``, ``de-AT`` → ``de``, ``C``/``POSIX`` → ``en``."""
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return SOURCE_LANGUAGE if base in ("c", "posix") else base


# CLDR's minimumGroupingDigits where it is 2: Polish writes 5000 but 15 000 (Babel does not apply it).
_MINIMUM_GROUPING = {"pl": 2}


def format_number(number: int) -> str:
    """A whole number with the current language's digit grouping."""
    language = current_language()
    if language == SOURCE_LANGUAGE:
        return f"{number:,}"
    if abs(number) < 10 ** (2 + _MINIMUM_GROUPING.get(language, 1)):
        return str(number)
    from babel.numbers import format_decimal

    return str(format_decimal(number, locale=language))
