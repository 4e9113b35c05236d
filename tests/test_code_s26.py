"""Code chunking, Python: a compound statement that fits without the comment lines after
its last line of code (indented into its block, so its block holds them) is kept whole
without them, as a definition is; the comment lines go with the code after it."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "ast"] + (["tree-sitter"] if grammar_available("python") else [])

# (the shape of the standard library's enum.py, _add_member_: an "if" whose "else" block
# ends with a comment line)
SRC = (
    "def _add_member_(enum_class, member_name, member):\n"
    "    need_override = False\n"
    "    descriptor = None\n"
    "    for base in enum_class.__mro__[1:]:\n"
    "        descriptor = base.__dict__.get(member_name)\n"
    "        if descriptor is not None:\n"
    "            if isinstance(descriptor, (property, DynamicClassAttribute)):\n"
    "                break\n"
    "            else:\n"
    "                need_override = True\n"
    "                # keep looking for an enum.property\n"
    "    if descriptor and not need_override:\n"
    "        # previous enum.property found, no further action needed\n"
    "        pass\n"
    "    return descriptor\n"
)


def chunk(src, size, parser):
    chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=size, parser=parser)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("size", [150, 170, 200])
def test_if_that_fits_without_its_trailing_comment_lines_is_whole(parser, size):
    s = SRC.index("            if isinstance")
    e = SRC.index("need_override = True\n") + len("need_override = True")
    comment = SRC.index("                # keep looking")
    assert e - s <= size < SRC.index("\n", comment) - s  # (it fits only without the comment)
    chunks = chunk(SRC, size, parser)
    holder = [c for c in chunks if c.start_index <= s and c.end_index >= e]
    assert len(holder) == 1
    # the comment line goes with the code after it, from the start of its line
    after = [c for c in chunks if c.start_index <= comment < c.end_index]
    assert after and after[0].start_index == comment and after[0].start_index >= holder[0].end_index


def test_the_parsers_agree():
    outs = {p: [(c.start_index, c.end_index) for c in chunk(SRC, 170, p)] for p in PARSERS}
    assert len(set(map(tuple, outs.values()))) == 1, outs


@pytest.mark.parametrize("parser", [p for p in PARSERS if p != "ast"])
def test_a_statement_that_fits_with_its_comment_lines_keeps_them(parser):
    # (at a size where the "if" and its comment line fit, they stay together: the scan and
    # tree-sitter read the comment line into the block; the standard library's ast leaves
    # it to the code after)
    s = SRC.index("            if isinstance")
    end = SRC.index("\n", SRC.index("# keep looking"))
    chunks = chunk(SRC, 260, parser)
    assert any(c.start_index <= s and c.end_index >= end for c in chunks)
