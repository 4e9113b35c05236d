"""semantic_cluster: a code fence line alone is no sentence of its own (as for semantic)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants
from test_markdown_trial23 import _FOUND, _Bag, _code_doc, _fence_only

import chunkwise


def _cluster(size):
    return chunkwise.make_chunker("semantic_cluster", model=_Bag(), chunk_size=size, unit="chars")


def test_semantic_cluster_keeps_a_closing_fence_with_its_code():
    code = "```cjs\nconst buf1 = Buffer.from('1234');\nconsole.log(arr.sort(Buffer.compare));\n// (This result is equal to: [buf2, buf1].)\n```"
    text = f"Compares buf1 to buf2 for sorting.\n\n{code}\n\nThe next method joins buffers.\n"
    for size in (60, 90, 120, 160, 400):
        chunks = _cluster(size).chunk(text)
        check_invariants(text, chunks, size, _cluster(size).sizer)
        assert not [c.text for c in chunks if _fence_only(c.text)], size
        assert [c for c in chunks if "buf1].)\n```" in c.text], size


def test_semantic_cluster_no_chunk_is_a_lone_fence():
    for size in (60, 90, 135, 200):
        chunks = _cluster(size).chunk(_FOUND)
        check_invariants(_FOUND, chunks, size, _cluster(size).sizer)
        assert not [c.text for c in chunks if _fence_only(c.text)], size


@given(st.randoms(use_true_random=False), st.integers(60, 400))
def test_property_semantic_cluster_never_leaves_a_fence_alone(r, size):
    text = _code_doc(r)
    chunker = _cluster(size)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    assert not [c.text for c in chunks if _fence_only(c.text)]
