"""Headings with no body at all (a text of headings only, or a run of them at the end) are
packed together, not one chunk each; a chunk of them has the path of the last."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.structure import MarkdownChunker
from chunkwise.sizers import CharSizer

pytest.importorskip("markdown_it")


def _rows(text: str, **kw) -> list[tuple[str, list[str]]]:
    return [(c.text, c.metadata["header_path"]) for c in chunkwise.chunk(text, strategy="markdown", **kw)]


def test_a_text_of_headings_only_is_one_chunk_when_it_fits() -> None:
    assert _rows("# A\n## B\n### C\n", chunk_size=50) == [("# A\n## B\n### C", ["A", "B", "C"])]
    assert _rows("# A\n\n# B\n\n# C\n", chunk_size=50) == [("# A\n\n# B\n\n# C", ["C"])]
    # (after front matter too)
    assert _rows("---\nt: 1\n---\n# A\n# B\n", chunk_size=50) == [("---\nt: 1\n---", []), ("# A\n# B", ["B"])]


def test_a_run_of_headings_at_the_end_goes_with_the_chunk_before() -> None:
    # with the last chunk of the section before when it has room (that section's path)
    assert _rows("# A\n\ntext\n\n# B\n## C\n\n# D\n", chunk_size=50) == [("# A\n\ntext\n\n# B\n## C\n\n# D", ["A"])]
    assert _rows("intro\n\n# A\n", chunk_size=50) == [("intro\n\n# A", [])]
    # else one chunk of their own
    assert _rows("# A\n\ntext\n\n# B\n## C\n\n# D\n", chunk_size=20) == [
        ("# A\n\ntext", ["A"]),
        ("# B\n## C\n\n# D", ["D"]),
    ]
    # headings that lead a body are unchanged
    assert _rows("# A\n## B\n\ntext\n\n# C\n\nmore\n", chunk_size=50) == [
        ("# A\n## B\n\ntext", ["A", "B"]),
        ("# C\n\nmore", ["C"]),
    ]


def test_headings_too_many_for_one_chunk_are_packed() -> None:
    text = "".join(f"## Heading {i}\n" for i in range(30))
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=100)
    check_invariants(text, chunks, 100, CharSizer())
    # 30 lines of 13 or 14 characters: 7 a chunk (one heading alone each before)
    assert [c.text.count("\n") + 1 for c in chunks] == [7, 7, 7, 7, 2]


_HEADINGS = st.lists(
    st.tuples(st.integers(1, 6), st.text("abc xyz", min_size=1, max_size=12).filter(str.strip), st.sampled_from(["\n", "\n\n"])),
    min_size=1,
    max_size=25,
).map(lambda hs: "".join("#" * lv + " " + t.strip() + end for lv, t, end in hs))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_HEADINGS, st.integers(20, 120), st.integers(1, 6))
def test_property_headings_only_are_packed_greedily(text: str, size: int, split_level: int) -> None:
    chunker = MarkdownChunker(chunk_size=size, split_level=split_level)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    for a, b in zip(chunks, chunks[1:]):  # no two neighbours would fit one chunk
        assert b.end_index - a.start_index > size, (a.text, b.text)
    paths = MarkdownChunker(chunk_size=10_000, split_level=split_level).chunk(text)
    assert len(paths) == 1
