"""A JavaScript class after a syntax error that tree-sitter reads as an object literal
("function f( {" above it: "class Later {" becomes an ERROR node and the methods the
object's) is still the class, with its methods."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

needs_js = pytest.mark.skipif(not grammar_available("javascript"), reason="needs tree-sitter-javascript")


def symbols(src, size, language="javascript"):
    chunks = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return [c.metadata["symbols"] for c in chunks]


@needs_js
@pytest.mark.parametrize("size", [500, 40])
def test_class_on_one_line_after_an_unclosed_function(size):
    out = symbols("function f( {\nclass Later { m() { return 2; } }\n", size)
    assert [s for s in out if s] == [["Later", "Later.m"]]


@needs_js
def test_class_with_extends_over_several_lines():
    src = "function f( {\nclass Later extends Base {\n  m() { return 2; }\n  n() { return 3; }\n}\n"
    assert symbols(src, 500) == [["Later", "Later.m", "Later.n"]]


@needs_js
def test_definitions_after_the_recovered_class_keep_their_names():
    src = "function f( {\nclass Later { m() { return 2; } }\nfunction g() { return 1; }\n"
    assert symbols(src, 40)[1:] == [["Later", "Later.m"], ["g"]]


@pytest.mark.skipif(not grammar_available("typescript"), reason="needs tree-sitter-typescript")
def test_typescript_too():
    assert symbols("function f( {\nclass Later { m() { return 2; } }\n", 500, "typescript") == [["Later", "Later.m"]]
