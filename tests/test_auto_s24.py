"""``auto`` picks ``wikitext`` only for MediaWiki markup: a test log or a changelog with a
few ``== ... ==`` lines is plain text; Wikipedia's markup and WikiText-103 stay wikitext."""

from __future__ import annotations

import pytest

import chunkwise
from chunkwise.parsers.wikitext import looks_like_wikitext
from chunkwise.registry import auto_strategy

# CPython's test suite output (a Debian package's test_results): the summary twice
_RUN = "".join(f"0:18:{i % 60:02d} load avg: 0.99 [{i}/415/2] test_m{i} passed\n" for i in range(405, 416))
_SUMMARY = (
    "398 tests OK.\n\n2 tests failed:\n    test_distutils test_tools\n\n15 tests skipped:\n"
    "    test_devpoll test_ioctl test_kqueue test_launcher test_msilib\n"
)
TEST_LOG = (
    _RUN + "\n== Tests result: FAILURE ==\n\n" + _SUMMARY
    + "0:18:17 load avg: 0.99 Re-running failed tests in verbose mode\n"
    + "test_customize_compiler (distutils.tests.test_sysconfig.SysconfigTestCase) ... FAIL\n" * 8
    + "\n== Tests result: FAILURE then FAILURE ==\n\n" + _SUMMARY
    + "Total duration: 22 min 32 sec\nTests result: FAILURE then FAILURE\n"
)

# a GNOME module's ChangeLog after the move to git
CHANGELOG = (
    "=== ChangeLog discontinued ===\n\n"
    " With the move to git, this module is switching from a ChangeLog file to\n"
    " relying on commit messages to provide change history. Please write commit\n"
    " messages in the following format:\n\n"
    "=== begin example commit ===\n"
    "tag: Short explanation of the commit\n\n"
    "Longer explanation explaining exactly what's changed, whether any\n"
    "external or private interfaces changed, what bugs were fixed.\n"
    "=== end example commit ===\n\n"
    "  - The commit message is mainly for the other people, so they should be able\n"
    "    to understand it now and six months later.\n"
)

# GStreamer's changelog: one "=== release ===" line per version
RELEASES = "".join(
    f"=== release 1.{v}.0 ===\n\n2023-01-{v:02d}  Tim-Philipp Müller <tim@centricular.com>\n\n"
    f"\t* meson.build:\n\t  Release 1.{v}.0\n\n"
    for v in range(22, 16, -1)
)

# Wikipedia's own markup: two sections, links, bold, a template, a reference
WIKIPEDIA = (
    "{{Short description|Historic arsenal in Arkansas}}\n"
    "The '''Little Rock Arsenal''' was an [[arsenal]] in [[Little Rock, Arkansas]].<ref>NRHP</ref>\n\n"
    "== History ==\nCaptain [[James Totten]] commanded the post in 1861.\n\n"
    "== Legacy ==\nThe buildings became the [[MacArthur Museum of Arkansas Military History]].\n"
)

# Wikipedia's plain-text extract: sections, no other markup
EXTRACT = (
    "The Little Rock Arsenal was an arsenal in Little Rock, Arkansas.\n\n"
    "== History ==\nThe arsenal was built in 1840.\n\n"
    "=== Seizure ===\nThe militia took the arsenal without a shot.\n\n"
    "== Legacy ==\nThe buildings became a museum.\n"
)

# WikiText-103's tokenised form
WIKITEXT_103 = (
    " = Little Rock Arsenal = \n The arsenal was built in 1840 on the edge of the town . \n \n"
    " = = History = = \n Captain Totten commanded the post in 1861 . \n"
    " = = = Seizure = = = \n The militia took the arsenal without a shot . \n"
    " = = Legacy = = \n The buildings became a museum . \n"
)


@pytest.mark.parametrize("text", [TEST_LOG, CHANGELOG, RELEASES], ids=["test-log", "changelog", "releases"])
def test_logs_and_changelogs_with_a_few_equals_lines_are_plain_text(text):
    assert not looks_like_wikitext(text)
    assert auto_strategy(text) == "recursive"
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "text"})) == "recursive"
    chunks = chunkwise.chunk(chunkwise.Document(text, metadata={"format": "text"}), strategy="auto",
                             chunk_size=60, unit="words")
    assert {c.metadata["strategy"] for c in chunks} == {"recursive"}


@pytest.mark.parametrize("text", [WIKIPEDIA, EXTRACT, WIKITEXT_103], ids=["markup", "extract", "wikitext-103"])
def test_mediawiki_text_is_still_wikitext(text):
    assert looks_like_wikitext(text)
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "text"})) == "wikitext"
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "markdown"})) == "wikitext"


def test_two_sections_need_other_markup_three_need_a_section_level():
    two = "Intro.\n\n== History ==\nBuilt in 1840.\n\n== Legacy ==\nA museum.\n"
    assert not looks_like_wikitext(two)  # two headings and nothing else: not enough
    assert looks_like_wikitext(two.replace("Built", "[[Little Rock]] built").replace("A museum", "A '''museum'''"))
    assert not looks_like_wikitext(two.replace("Built", "[[Little Rock]] built"))  # one mark: not enough
    three = two + "\n== Sources ==\nThe papers.\n"
    assert looks_like_wikitext(three)
    assert not looks_like_wikitext(three.replace("==", "==="))  # no heading of a section's level
    # marks inside code do not count, nor a Python list or a Jinja expression
    assert not looks_like_wikitext(two + "\n    [[Little Rock]] '''x'''\n")
    assert not looks_like_wikitext(two.replace("Built", "x = [[1, 2]] built").replace("A museum", "{{ name }}"))
