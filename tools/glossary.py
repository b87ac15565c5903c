#!/usr/bin/env python3
"""Write docs/i18n.md's glossary tables from docs/glossary.toml (issue 17).

    .venv/bin/python tools/glossary.py          # rewrite the generated part of docs/i18n.md
    .venv/bin/python tools/glossary.py --check  # exit 1 if docs/i18n.md differs from the file

tests/i18n/test_glossary.py runs the check and checks the catalogs against the file's rules."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.toml"
DOC = ROOT / "docs" / "i18n.md"
BEGIN = "<!-- generated from docs/glossary.toml by tools/glossary.py: edit that file, then run the tool -->"
END = "<!-- end of the generated glossary -->"
LANGUAGES = ("en", "de", "pl", "it", "ko")


def load() -> dict[str, Any]:
    return tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))


def render(glossary: dict[str, Any]) -> str:
    """The Markdown between the markers: the introduction, then per table its rows and notes."""
    parts = [glossary["intro"].strip()]
    for table in glossary["table"]:
        parts.append(f"### {table['title']}")
        if "intro" in table:
            parts.append(table["intro"].strip())
        rows = ["| " + " | ".join(table["columns"]) + " |", "| " + " | ".join("---" for _ in table["columns"]) + " |"]
        rows += ["| " + " | ".join(concept[lang] for lang in LANGUAGES) + " |" for concept in table["concept"]]
        parts.append("\n".join(rows))
        if "notes" in table:
            parts.append(table["notes"].strip())
    return "\n\n".join([BEGIN, *parts, END])


def with_glossary(doc: str, glossary: dict[str, Any]) -> str:
    before, rest = doc.split(BEGIN, 1)
    _old, after = rest.split(END, 1)
    return before + render(glossary) + after


def main(argv: list[str]) -> int:
    doc = DOC.read_text(encoding="utf-8")
    new = with_glossary(doc, load())
    if "--check" in argv:
        if new != doc:
            print("docs/i18n.md's glossary differs from docs/glossary.toml: run tools/glossary.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
