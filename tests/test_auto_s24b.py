"""``auto`` and pytest's report: banners such as ``== FAILURES ==``, ``== warnings summary ==``
and ``== short test summary info ==`` with lines under them are no outline of sections (a
section title is written in sentence case, a banner all in small letters or capitals);
Wikipedia's articles, with markup or without, stay wikitext."""

from __future__ import annotations

import pytest

import chunkwise
from chunkwise.parsers.wikitext import looks_like_wikitext
from chunkwise.registry import auto_strategy

# pytest -rA on two failing tests, a warning and a broken fixture, its banners short
PYTEST_LOG = (
    "== test session starts ==\n"
    "platform linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0\nrootdir: /home/ci/project\ncollected 6 items\n\n"
    "test_tiny.py .F.F                                                        [ 66%]\n"
    "test_two.py E.                                                           [100%]\n\n"
    "== ERRORS ==\n"
    "_________________________ ERROR at setup of test_uses __________________________\n\n"
    "    @pytest.fixture\n    def broken():\n>       raise RuntimeError(\"fixture broke\")\n"
    "E       RuntimeError: fixture broke\n\ntest_two.py:4: RuntimeError\n"
    "== FAILURES ==\n"
    "__________________________________ test_fail ___________________________________\n\n"
    "    def test_fail():\n>       assert [1, 2] == [1, 3]\nE       assert [1, 2] == [1, 3]\n"
    "E         At index 1 diff: 2 != 3\n\ntest_tiny.py:5: AssertionError\n"
    "== warnings summary ==\n"
    "test_tiny.py::test_warn\n  test_tiny.py:7: DeprecationWarning: deprecated thing\n"
    "    warnings.warn(\"deprecated thing\", DeprecationWarning)\n\n"
    "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html\n"
    "== PASSES ==\n"
    "== short test summary info ==\n"
    "PASSED test_tiny.py::test_ok\nPASSED test_two.py::test_fine\n"
    "ERROR test_two.py::test_uses - RuntimeError: fixture broke\n"
    "FAILED test_tiny.py::test_fail - assert [1, 2] == [1, 3]\n"
    "== 1 failed, 2 passed, 1 warning, 1 error in 0.31s ==\n"
)

# the report's three lower-case banners, each with text under it, alone
SHORT_LOG = (
    "collected 3 items\n\ntest_a.py .F.\n\n"
    "== FAILURES ==\nE       assert 1 == 2\ntest_a.py:5: AssertionError\n\n"
    "== warnings summary ==\ntest_a.py::test_w\n  DeprecationWarning: old\n\n"
    "== short test summary info ==\nFAILED test_a.py::test_f - assert 1 == 2\n"
)

# a Wikipedia article: links, bold, a template, references, sections and subsections
ARTICLE = (
    "{{Infobox bird|name=Barn owl}}\n"
    "The '''barn owl''' (''Tyto alba'') is the most widely distributed species of [[owl]].<ref>Birds</ref>\n\n"
    "== Taxonomy ==\nThe species was first described by [[Giovanni Antonio Scopoli]] in 1769.\n\n"
    "=== Subspecies ===\nAbout twenty subspecies are recognised.\n\n"
    "== Description ==\nIt is a pale, long-winged, long-legged owl.\n\n"
    "== Behaviour and ecology ==\nLike most owls, the barn owl is [[nocturnal]].\n\n"
    "=== Breeding ===\nBarn owls nest in hollow trees and buildings.\n\n"
    "== See also ==\n* [[List of owls]]\n"
)

# the article's plain-text extract: no markup but the headings
EXTRACT = (
    "The barn owl is the most widely distributed species of owl.\n\n"
    "== Taxonomy ==\nThe species was first described in 1769.\n\n"
    "== Description ==\nIt is a pale, long-winged, long-legged owl.\n\n"
    "=== Breeding ===\nBarn owls nest in hollow trees.\n"
)


@pytest.mark.parametrize("text", [PYTEST_LOG, SHORT_LOG], ids=["pytest-rA", "three-banners"])
def test_a_pytest_report_with_short_banners_is_plain_text(text):
    assert not looks_like_wikitext(text)
    assert not looks_like_wikitext(text, markdown=True)
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "text"})) == "recursive"
    chunks = chunkwise.chunk(chunkwise.Document(text, metadata={"format": "text"}), strategy="auto",
                             chunk_size=60, unit="words")
    assert {c.metadata["strategy"] for c in chunks} == {"recursive"}


@pytest.mark.parametrize("text", [ARTICLE, EXTRACT], ids=["article", "extract"])
def test_wikipedia_articles_stay_wikitext(text):
    assert looks_like_wikitext(text)
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "text"})) == "wikitext"
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "markdown"})) == "wikitext"


def test_section_titles_in_sentence_case_make_an_outline_banners_do_not():
    body = "Intro line.\n\n== {} ==\nSome text.\n\n== {} ==\nMore text.\n\n== {} ==\nLast text.\n"
    assert looks_like_wikitext(body.format("History", "Early life", "See also"))
    assert looks_like_wikitext(body.format("История", "Биография", "Примечания"))  # Cyrillic capitals
    assert looks_like_wikitext(body.format("歴史", "生涯", "脚注"))  # a script without capitals
    assert looks_like_wikitext(body.format("1990s", "NBA career", "DVD"))  # a digit, initialisms
    assert not looks_like_wikitext(body.format("history", "early life", "see also"))  # small letters
    assert not looks_like_wikitext(body.format("FAILURES", "ERRORS", "WARNINGS"))  # all capitals
    # two banners among three titles leave one section title: not an outline
    assert not looks_like_wikitext(body.format("History", "warnings summary", "ERRORS"))
    # with MediaWiki markup the titles' case does not matter
    marked = body.format("history", "early life", "see also").replace("Some", "[[Some]]").replace("More", "'''More'''")
    assert looks_like_wikitext(marked)
