"""The ``code`` strategy with a block comment above a definition, in zlib's style (lines
that do not start with ``*``): a definition that fits without the comment but not with it
is kept whole, the cut falling between the comment and the definition, as with a JSDoc
comment (``/** ... */``, each line starting with ``*``)."""

from __future__ import annotations

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

_COMMENTS = {
    "zlib": (
        "/* Add an entry to the access point list. If out of memory, deallocate the\n"
        "   existing list and return NULL. index->gzip is the allocated size of the\n"
        "   index in point entries, until it is time for deflate_index_build() to\n"
        "   return, at which point gzip is set. */\n"
    ),
    "zlib, closed alone": (
        "/* Add an entry to the access point list. If out of memory, deallocate the\n"
        "   existing list and return NULL. index->gzip is the allocated size of the\n"
        " */\n"
    ),
    "jsdoc": (
        "/**\n * Add an entry to the access point list. If out of memory, deallocate it.\n"
        " * Existing list and return NULL. index->gzip is the allocated size of it.\n */\n"
    ),
}
_FUNCTIONS = {
    "c": "int addpoint(Index *index, int bits) {\n"
    + "".join(f"    index->field{i} = compute_value(index, {i});\n" for i in range(30)) + "}",
    "go": "func addpoint(index *Index, bits int) {\n"
    + "".join(f"\tindex.field{i} = computeValue(index, {i})\n" for i in range(30)) + "}",
    "javascript": "function addpoint(index, bits) {\n"
    + "".join(f"  index.field{i} = computeValue(index, {i});\n" for i in range(30)) + "}",
}


@pytest.mark.parametrize("style", sorted(_COMMENTS))
@pytest.mark.parametrize("language", sorted(_FUNCTIONS))
def test_definition_that_fits_without_the_comment_is_whole(language: str, style: str) -> None:
    if not grammar_available(language):
        pytest.skip(f"no grammar for {language}")
    comment, function = _COMMENTS[style], _FUNCTIONS[language]
    text = "int before;\n\n" + comment + function + "\n"
    size = len(function) + 10
    chunks = chunkwise.chunk(text, strategy="code", language=language, chunk_size=size)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    start = text.index(function)
    assert [c.text for c in chunks if c.start_index == start] == [function]
    assert any(c.end_index == text.index(comment) + len(comment.rstrip()) for c in chunks)


def test_code_after_the_comment_on_its_last_line_stays_with_it() -> None:
    # ("*/ int f(...)": the definition's own text starts inside the comment's last line;
    # no cut there, the comment stays in the definition's chunk)
    comment = "/* one\n   two\n   three */ "
    function = _FUNCTIONS["c"]
    text = comment + function + "\n"
    size = len(function) + 10
    chunks = chunkwise.chunk(text, strategy="code", language="c", chunk_size=size)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    assert all(c.start_index == 0 or text[c.start_index - 1] == "\n" for c in chunks)

