"""Translated sentences for the terminal boards, with styled parts (Rich ``Text``)."""

from __future__ import annotations

import string

from rich.text import Text


def fill(template: str, **values: str | int | Text) -> Text:
    """A translated sentence with styled parts (a party or player in their colour, cubes) put in its
    fields, so that each language keeps its own word order."""
    text = Text()
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        text.append(literal)
        if field is not None:
            value = values[field]
            text.append_text(value if isinstance(value, Text) else Text(str(value)))
    return text
