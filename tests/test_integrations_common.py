"""What the framework adapters share (``chunkwise.integrations._common``): a chunk's
metadata on top of the input's, and its relatives as list positions, checked against the
hierarchy contract (``parent_id``, ``child_ids``, same-level ``prev_id``/``next_id``)."""

from __future__ import annotations

import chunkwise
from chunkwise.integrations._common import chunk_metadata, links

TEXT = "\n\n".join(
    f"Section {i}. " + " ".join(f"Sentence {i}.{j} says a little more about it." for j in range(8)) for i in range(6)
)


def test_links_follow_the_hierarchy_and_stay_within_a_level() -> None:
    chunks = chunkwise.chunk(TEXT, strategy="hierarchical", chunk_sizes=[400, 100], unit="chars")
    rel = links(chunks)
    assert len(rel) == len(chunks)
    levels = {c.metadata["level"] for c in chunks}
    assert levels == {0, 1}
    for k, (chunk, link) in enumerate(zip(chunks, rel)):
        meta = chunk.metadata
        if link.prev is not None:
            assert chunks[link.prev].metadata["level"] == meta["level"]
            assert chunks[link.prev].end_index <= chunk.start_index
            assert rel[link.prev].next == k
        if link.parent is not None:
            parent = chunks[link.parent]
            assert parent.id == meta["parent_id"] and k in rel[link.parent].children
            assert parent.start_index <= chunk.start_index and chunk.end_index <= parent.end_index
        else:
            assert meta["level"] == 0
        assert [chunks[c].id for c in link.children] == list(meta["child_ids"])
    # leaves only: the parents are not in the list, so no parent position
    leaves = chunkwise.chunk(TEXT, strategy="hierarchical", chunk_sizes=[400, 100], unit="chars", leaves_only=True)
    assert all(x.parent is None and not x.children for x in links(leaves))
    assert [x.prev for x in links(leaves)] == [None, *range(len(leaves) - 1)]


def test_neighbours_default_to_the_list_order_without_prev_and_next_ids() -> None:
    import dataclasses

    chunks = chunkwise.chunk(TEXT, chunk_size=200, unit="chars")
    assert all("prev_id" in c.metadata for c in chunks)
    bare = [dataclasses.replace(c, metadata={}) for c in chunks]
    assert [(x.prev, x.next) for x in links(bare)] == [
        (k - 1 if k else None, k + 1 if k + 1 < len(bare) else None) for k in range(len(bare))
    ]


def test_metadata_is_the_inputs_deep_copied_then_the_chunks() -> None:
    chunks = chunkwise.chunk(TEXT, chunk_size=200, unit="chars")
    base = {"tags": ["a"], "boundary": "overwritten by the chunk's"}
    made = [chunk_metadata(c, base) for c in chunks]
    made[0]["tags"].append("b")
    assert base["tags"] == ["a"] and made[1]["tags"] == ["a"]
    assert all(m["chunk_id"] == c.id and m["boundary"] == c.metadata["boundary"] for m, c in zip(made, chunks))
    shallow = chunk_metadata(chunks[0], base, deep=False)
    assert shallow["tags"] is base["tags"]
    assert chunk_metadata(chunks[0]) == {**chunks[0].metadata, "chunk_id": chunks[0].id}
