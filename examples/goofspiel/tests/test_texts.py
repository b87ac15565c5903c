"""Goofspiel's own catalog (stammtisch_goofspiel/locale): every text in all five languages, none fuzzy,
the same fields in every translation; and the game's sentences come out translated."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest
from babel.messages.pofile import read_po

from stammtisch import i18n
from stammtisch.registry import game_spec, make_game

LOCALE = resources.files("stammtisch_goofspiel") / "locale"
FIELD = re.compile(r"\{(\w+)\}")


def messages(path: resources.abc.Traversable) -> dict[str, Any]:
    with path.open("rb") as po:
        return {m.id: m for m in read_po(po) if m.id}


@pytest.mark.parametrize("code", ["de", "pl", "it", "ko"])
def test_every_text_is_translated(code: str) -> None:
    template = messages(LOCALE / "goofspiel.pot")
    found = messages(LOCALE / code / "LC_MESSAGES" / "goofspiel.po")
    assert set(found) == set(template)
    for msgid, message in found.items():
        assert message.string and not message.fuzzy, (code, msgid)
        assert sorted(FIELD.findall(message.string)) == sorted(FIELD.findall(msgid)), (code, msgid)


def test_the_sentences_come_out_translated() -> None:
    game = make_game("goofspiel", 2)
    _state, events = game.new_state(1)
    text = game_spec("goofspiel").texts()
    with i18n.using_language("de"):
        assert text.describe_event(events[-1], None, None).startswith("Der aufgedeckte Preis ist")
