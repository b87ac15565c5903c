"""Every text a player reads goes through ``_`` so that it can be translated (gettext)."""

from __future__ import annotations

import gettext

_translation: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    return _translation.gettext(message)
