"""Comment lines right after a top-level definition's last line, apart from the next
item by a blank line, go with that definition when both fit."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])
SRC = (
    "x = 1\n\ndef f(a):\n    return a + 1\n# trailing comment about f that is long enough\n"
    "# second trailing comment line\n\ndef g(b):\n    return b\n"
)
F_WITH_COMMENTS = (
    "def f(a):\n    return a + 1\n# trailing comment about f that is long enough\n# second trailing comment line"
)


def texts(src, size, **kw):
    kw.setdefault("merge_small_definitions", False)  # (one definition per chunk)
    chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return [c.text for c in chunks]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("size", [120, 500])
def test_trailing_comments_go_with_the_definition_above(parser, size):
    assert texts(SRC, size, parser=parser) == ["x = 1", F_WITH_COMMENTS, "def g(b):\n    return b"]


@pytest.mark.parametrize("parser", PARSERS)
def test_trailing_comments_go_with_the_code_after_when_they_do_not_fit(parser):
    out = texts(SRC, 60, parser=parser)
    assert out[1] == "def f(a):\n    return a + 1"
    assert out[-1].endswith("def g(b):\n    return b")


@pytest.mark.parametrize("parser", PARSERS)
def test_comments_touching_the_next_definition_stay_with_it(parser):
    src = "x = 1\n\ndef f(a):\n    return a + 1\n# about g, right above it\ndef g(b):\n    return b\n"
    assert texts(src, 60, parser=parser)[-1] == "# about g, right above it\ndef g(b):\n    return b"


@pytest.mark.parametrize("parser", PARSERS)
def test_comments_after_a_blank_line_go_with_the_next_definition(parser):
    src = "x = 1\n\ndef f(a):\n    return a + 1\n\n# a section about g\n\ndef g(b):\n    return b\n"
    assert texts(src, 60, parser=parser)[-1] == "# a section about g\n\ndef g(b):\n    return b"


def test_crlf_file_gets_the_same_cuts():
    crlf = SRC.replace("\n", "\r\n")
    assert [t.replace("\r\n", "\n") for t in texts(crlf, 120)] == texts(SRC, 120)
