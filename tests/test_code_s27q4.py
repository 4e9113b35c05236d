"""A block whose comment lines above it do not fit with it is kept whole without them
only where that atom crosses no other: a compound statement kept whole without the
comment lines after its code left no cut between the two, and the chunk was cut inside
a word of a comment."""

from __future__ import annotations

from chunkwise.chunkers.code import CodeChunker

HEAD = "class Store:\n    def put(self, key, val):\n" + "".join(f"        check_{i}(key, val)\n" for i in range(14))
IF_ELSE = (
    "        if key not in self.index:\n"
    "            self.add(key, val)\n"
    "        else:\n"
    "            # See whether the new value is small enough to fit in the\n"
    "            # space the old value holds now, block by block.\n"
    + "".join(f"            size_{i} = measure(val, {i}) + offset_{i}\n" for i in range(12))
    + "\n"
    + "".join(f"            # Note number {i}: the index may be out of step with the directory file now.\n" for i in range(4))
)
TEXT = HEAD + IF_ELSE + "\n    def get(self, key):\n        return self.index[key]\n"


def test_comment_after_a_statement_kept_whole_is_cut_at_a_line_end():
    chunks = CodeChunker(language="python", chunk_size=1000).chunk(TEXT)
    assert "".join(TEXT[c.start_index : c.end_index] for c in chunks).split() == TEXT.split()
    for c in chunks:
        assert c.text == TEXT[c.start_index : c.end_index]
        assert c.metadata["boundary"] not in ("hard", "word")
        # each chunk ends at a line end and starts at a line start
        assert c.end_index == len(TEXT) or TEXT[c.end_index] == "\n"
        assert c.start_index == 0 or TEXT[c.start_index - 1] == "\n"
    # the if statement is whole in one chunk, the notes after its code in the next
    stmt = IF_ELSE[: IF_ELSE.index("\n\n")]
    assert any(stmt in c.text for c in chunks)
    assert any(c.text.lstrip().startswith("# Note number 0") for c in chunks)

