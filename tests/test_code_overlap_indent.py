"""The ``code`` strategy with an overlap: a chunk starts at the beginning of its first line,
its indentation kept, as without an overlap (it started after the indentation whenever the
chunk before reached into its line)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.sizers import CharSizer

_PYTHON = "".join(
    f"class C{i}:\n"
    f"    '''Class {i}.'''\n\n"
    + "".join(
        f"    def m{j}(self, x):\n"
        + "".join(
            f"        if x > {k}:\n"
            f"            y = x * {k} + self.k\n"
            f"            x = y - {i}\n"
            for k in range(8)
        )
        + "        return x\n\n"
        for j in range(3)
    )
    for i in range(4)
)


def _at_line_starts(text: str, chunks: list[chunkwise.Chunk]) -> list[int]:
    """The chunks that start inside a line, after its indentation."""
    out = []
    for c in chunks:
        s = c.start_index
        ls = text.rfind("\n", 0, s) + 1
        if s > ls and not text[ls:s].strip():
            out.append(c.index)
    return out


def test_python_chunks_keep_their_indentation_with_an_overlap() -> None:
    for size, overlap in ((200, 50), (120, 30), (400, 100)):
        chunks = chunkwise.chunk(_PYTHON, strategy="code", language="python", chunk_size=size, chunk_overlap=overlap)
        check_invariants(_PYTHON, chunks, size, CharSizer(), trimmed=False)
        assert _at_line_starts(_PYTHON, chunks) == []
        assert any(b.start_index < a.end_index for a, b in zip(chunks, chunks[1:]))  # (overlaps)


def test_without_overlap_the_chunks_are_unchanged_by_the_overlap_rule() -> None:
    chunks = chunkwise.chunk(_PYTHON, strategy="code", language="python", chunk_size=200)
    assert _at_line_starts(_PYTHON, chunks) == []


_LINES = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(["x = 1", "if y:", "return f(a, b)", "call()", "{", "}", ""])),
    min_size=2, max_size=60,
).map(lambda rows: "".join("    " * depth + code + "\n" for depth, code in rows))


@settings(max_examples=60, deadline=None)
@given(_LINES, st.sampled_from(["python", "c", "javascript", "go"]), st.integers(60, 240), st.integers(1, 3))
def test_chunks_start_at_line_starts_with_an_overlap(text: str, language: str, size: int, part: int) -> None:
    overlap = size * part // 10
    chunks = chunkwise.chunk(text, strategy="code", language=language, chunk_size=size, chunk_overlap=overlap)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False)
    assert _at_line_starts(text, chunks) == []
