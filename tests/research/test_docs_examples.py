"""docs/research.md's examples run as written (issue #12: "run the documented example as written"),
and its figures are the code's (issue 27 item 2: "docs/research.md regenerated from the code")."""

import re
from pathlib import Path

import pytest

from stammtisch.research.document import BEGIN, END, markdown

DOC = Path(__file__).parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_its_three_examples():
    assert len(EXAMPLES) == 3


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs_as_written(number, capsys):
    exec(compile(EXAMPLES[number], f"docs/research.md example {number + 1}", "exec"), {"__name__": "__example__"})
    printed = capsys.readouterr().out
    assert printed.strip()  # each example reports what it did


def test_the_figures_are_generated_from_the_code():
    text = DOC.read_text(encoding="utf-8")
    generated = text[text.index(BEGIN) + len(BEGIN):text.index(END)]
    assert generated.strip() == markdown()
