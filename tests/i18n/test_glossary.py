"""The catalogs use the glossary's terms (docs/glossary.toml, docs/i18n.md "Glossary"; issues 17 and 25).

Per concept the glossary names the English texts that mention it (``when``, optionally only texts of
one game's files: ``where``, a pattern over the entry's source files), the form each language must use
there (``require``, a pattern that lets Polish and German endings and Korean particles vary) and forms
no translation may contain at all (``avoid``, case-insensitive unless the pattern says ``(?-i:…)``).
Every concept has these rules in every language, and they apply to every entry of every catalog:
the terminal's and the log's texts, the browser's tooltips and the rules pages alike (issue 25 defect 6)."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message

from stammtisch import i18n
from stammtisch.games.diemacher.data import load_edition
from stammtisch.server.web import word_tables
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


def in_scope(concept: dict[str, Any], message: Message) -> bool:
    """Whether the concept's ``where`` (a pattern over the entry's source files) admits the entry."""
    return re.search(concept.get("where", ""), " ".join(path for path, _line in message.locations)) is not None


def test_the_glossary_has_rules_for_the_terms_of_issue_17() -> None:
    ids = {concept["id"] for concept in CONCEPTS}
    assert {"party_base", "auctioneer", "start_block", "start_position", "media_influencer", "order_field",
            "order_space", "worker_space", "phase_3", "phase_9c", "title_glueckauf"} <= ids
    assert all(set(concept.get("require", {})) <= set(TRANSLATED) for concept in CONCEPTS)


def test_every_concept_has_its_rendering_in_every_language() -> None:
    """issue 25 defect 6: only some concepts had rules, so the tooltips and the rules page drifted
    ("stato" beside "Regione", bare "주" beside "연방주"); now each concept names its texts and its form."""
    lacking = [(concept["id"], sorted(set(TRANSLATED) - set(concept.get("require", {}))))
               for concept in CONCEPTS if "when" not in concept or set(TRANSLATED) - set(concept.get("require", {}))]
    assert not lacking, lacking


@pytest.mark.parametrize("code", TRANSLATED)
def test_texts_naming_a_concept_use_the_glossary_term(code: str) -> None:
    wrong = []
    for concept in CONCEPTS:
        if code not in concept.get("require", {}):
            continue
        when, form = re.compile(concept["when"]), re.compile(concept["require"][code])
        matched = False
        for message, ids, strings in entries(code):
            if any(when.search(text) for text in ids) and in_scope(concept, message):
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
    # issue 25 defect 6: what the tooltips and the rules page said
    ("federal_state", "it", "svolge in questo stato l'azione principale"),
    ("federal_state", "ko", "이번 라운드에 이 주에서 투표"),
    ("federal_state", "ko", "원하는 주마다 의원 한 명을"),
    ("federal_state", "pl", "w tym landzie"),
    ("election", "ko", "매 선거 후"),
    ("shadow_cabinet", "ko", "5 예비 내각: 원하는 연방주마다"),
    ("shadow_cabinet", "it", "5 Governo ombra"),
    ("state_names", "it", "Bassa Sassonia"),
    ("state_names", "ko", "니더작센"),
    ("worker", "it", "A turno metti lavoratori su uno spazio"),
])
def test_the_old_words_are_caught(cid: str, code: str, old: str) -> None:
    """issues 17 and 25: the renderings the issues list as wrong are among the avoided forms."""
    assert any(re.search(avoided, old, re.IGNORECASE) for avoided in concept(cid)["avoid"][code])


@pytest.mark.parametrize(("cid", "code", "fine"), [
    ("federal_state", "ko", "비용을 내면 각 의원이 자기 연방주에서 주 행동 하나와 보조 행동 하나를 합니다"),
    ("federal_state", "ko", "요청 헤더에 주는 초"),  # 주다, to give
    ("federal_state", "it", "Lo schema del database è stato aggiornato"),  # been, not a state
    ("federal_state", "pl", "16 Landów"),
    ("election", "ko", "선거 승리"),  # the glossary's "winning a federal state election" (KO 1578)
])
def test_the_avoided_forms_spare_other_words(cid: str, code: str, fine: str) -> None:
    assert not any(re.search(avoided, fine, re.IGNORECASE) for avoided in concept(cid)["avoid"][code])


@pytest.mark.parametrize("code", i18n.available_languages())
def test_the_map_names_the_states_as_the_boards_do(code: str) -> None:
    """issue 25 defect 6: the map's tooltips translated the states ("Bassa Sassonia") that the boards and
    the log name as printed ("Niedersachsen"), as the English, Polish and Italian rulebooks do."""
    with i18n.using_language(code):
        names = word_tables("diemacher")["STATE_NAMES"]
    assert names == {state.id: state.name for state in load_edition().states}
