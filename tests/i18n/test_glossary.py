"""The catalogs use the glossary's terms (docs/glossary.toml, docs/i18n.md "Glossary"; issue 17).

Per concept the glossary names the English texts that mention it (``when``), the form each
language must use there (``require``, a pattern that lets Polish and German endings and Korean
particles vary) and forms no translation may contain at all (``avoid``)."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message

from tests.i18n.test_catalogs import TRANSLATED, catalog

TOOL = Path(__file__).resolve().parents[2] / "tools" / "glossary.py"
spec = importlib.util.spec_from_file_location("glossary_tool", TOOL)
assert spec and spec.loader
glossary_tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(glossary_tool)

GLOSSARY: dict[str, Any] = glossary_tool.load()
CONCEPTS = [concept for table in GLOSSARY["table"] for concept in table["concept"]]
# Korean texts speak as the rulebook's instructions do, in 합쇼체 (-ㅂ니다, -십시오; KO 412, 562):
# no 해요체 ending (…어요, …세요, …까요), in the browser or the terminal.
HAEYO = re.compile(r"(?:[아어여해했였예에워와세까죠네군]|이에)요(?=[.?!:()\s]|$)")


def entries(code: str) -> Iterator[tuple[Message, tuple[str, ...], tuple[str, ...]]]:
    """Every translated entry: the message, its English forms, its translated forms."""
    for message in catalog(code):
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string or ())
        yield message, ids, strings


def test_the_glossary_has_rules_for_the_terms_of_issue_17() -> None:
    ids = {concept["id"] for concept in CONCEPTS}
    assert {"party_base", "auctioneer", "start_block", "start_position", "media_influencer", "order_field",
            "order_space", "worker_space", "phase_3", "phase_9c", "title_glueckauf"} <= ids
    assert all(set(concept.get("require", {})) <= set(TRANSLATED) for concept in CONCEPTS)


@pytest.mark.parametrize("code", TRANSLATED)
def test_texts_naming_a_concept_use_the_glossary_term(code: str) -> None:
    wrong = []
    for concept in CONCEPTS:
        if code not in concept.get("require", {}):
            continue
        when, form = re.compile(concept["when"]), re.compile(concept["require"][code])
        matched = False
        for _message, ids, strings in entries(code):
            if any(when.search(text) for text in ids):
                matched = True
                wrong += [(concept["id"], ids[0], text) for text in strings if not form.search(text)]
        assert matched, f"no English text names {concept['id']} any more: fix 'when' in docs/glossary.toml"
    assert not wrong, "\n".join(f"{cid}: {msgid!r} → {text!r}" for cid, msgid, text in wrong)


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_text_uses_a_form_the_glossary_rules_out(code: str) -> None:
    wrong = []
    for concept in CONCEPTS:
        for avoided in concept.get("avoid", {}).get(code, []):
            pattern = re.compile(avoided, re.IGNORECASE)
            wrong += [(concept["id"], avoided, text) for _message, _ids, strings in entries(code)
                      for text in strings if pattern.search(text)]
    assert not wrong, "\n".join(f"{cid}: {avoided!r} in {text!r}" for cid, avoided, text in wrong)


def test_korean_texts_keep_one_speech_level() -> None:
    """issue 17: 해요체 and 합쇼체 were mixed in the browser; the rulebook instructs in 합쇼체."""
    wrong = [(ids[0], text) for _message, ids, strings in entries("ko") for text in strings if HAEYO.search(text)]
    assert not wrong, "\n".join(f"{msgid!r} → {text!r}" for msgid, text in wrong)


def test_the_speech_level_check_sees_haeyo_endings() -> None:
    assert HAEYO.search("연결이 끊어졌어요.") and HAEYO.search("먼저 이름을 입력하세요.")
    assert HAEYO.search("그래도 시작할까요?") and HAEYO.search("관전 중이에요.")
    assert not HAEYO.search("연결이 끊어졌습니다.") and not HAEYO.search("먼저 이름을 입력하십시오.")
    assert HAEYO.search("q를 입력하세요(기록은 남습니다)")
    assert not HAEYO.search("필요")  # 요 inside a word


def test_the_docs_glossary_is_generated_from_the_file() -> None:
    doc = glossary_tool.DOC.read_text(encoding="utf-8")
    assert glossary_tool.with_glossary(doc, GLOSSARY) == doc, "run .venv/bin/python tools/glossary.py"


def concept(cid: str) -> dict[str, Any]:
    return next(c for c in CONCEPTS if c["id"] == cid)


@pytest.mark.parametrize(("cid", "code", "inflected"), [
    ("start_block", "pl", "{party} wybiera tabelę startową {block}"),
    ("party_base", "pl", "obniża swój Elektorat; wielkość Elektoratu"),
    ("worker_space", "pl", "umieszcza górnika na miejscu pracy „Warsztaty 3”"),
    ("trend_scale", "pl", "na skali notowań"),
    ("start_position", "de", "Startpositionen"),
    ("preliminary_start_player", "de", "ist vorläufiger Startspieler"),
])
def test_required_forms_allow_inflection(cid: str, code: str, inflected: str) -> None:
    assert re.search(concept(cid)["require"][code], inflected)


@pytest.mark.parametrize(("cid", "code", "old"), [
    ("party_base", "it", "aumenta la propria base del partito"),
    ("start_block", "pl", "Blok startowy {block}"),
    ("start_block", "it", "Schieramento iniziale {block}"),
    ("auctioneer", "pl", "Licytacja Sondażu w {state}, prowadzi {party}"),
    ("worker_space", "pl", "{who} umieszcza {n} górnika na polu: {space}"),
    ("start_position", "ko", "시작 위치"),
])
def test_the_old_words_are_caught(cid: str, code: str, old: str) -> None:
    """issue 17: the renderings the issue lists as wrong are among the avoided forms."""
    assert any(re.search(avoided, old, re.IGNORECASE) for avoided in concept(cid)["avoid"][code])
