"""Code chunking: a comment that ends the last line of a loop or a definition
(``} // end for (lines)``) goes with that line, as a ``;`` does, never in a chunk that
starts in the middle of the line; with an overlap, a definition packed whole keeps the
``;`` of its last line (``};``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import _tail_end, grammar_available
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(
    not all(grammar_available(x) for x in ("javascript", "cpp", "c")), reason="no JavaScript or C/C++ grammar"
)


def chunk(src, lang, size, overlap=0):
    chunks = chunkwise.chunk(src, strategy="code", language=lang, chunk_size=size, chunk_overlap=overlap)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


def mid_line_starts(src, chunks):
    """The chunks that start after code on their first line."""
    out = []
    for c in chunks:
        ls = src.rfind("\n", 0, c.start_index) + 1
        if src[ls : c.start_index].strip():
            out.append(c.text)
    return out


def loop_source(pad):
    """gitweb.js's shape: a loop closed by ``} // end for (lines)`` as the last statement
    of a function; ``pad`` characters of statements in the loop."""
    body = "".join(f"\t\tvar v{i} = lines[i].length + {i};\n" for i in range(pad // 30 + 1))
    return (
        "function handle(lines) {\n"
        "\tvar total = 0;\n\n"
        "\tfor (var i = 0; i < lines.length; i++) {\n"
        f"{body}"
        "\t\ttotal += 1;\n"
        "\t} // end for (lines)\n"
        "}\n"
    )


def test_the_comment_after_a_loop_goes_with_its_closing_brace():
    src = loop_source(120)
    loop = src[src.index("\tfor") : src.index("\t} //") + 2]
    # a chunk the loop fits, from its line's start, but not with the comment after it
    size = len(loop)
    chunks = chunk(src, "javascript", size)
    assert mid_line_starts(src, chunks) == []
    assert any("\t} // end for (lines)" in c.text for c in chunks)
    assert not any(c.text.startswith("// end for") for c in chunks)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 200), st.integers(-30, 40))
def test_no_chunk_starts_at_the_comment_after_a_loop(pad, delta):
    src = loop_source(pad)
    loop = src[src.index("\tfor") : src.index("\t} //") + 2]
    size = max(len(loop) + delta, 60)
    chunks = chunk(src, "javascript", size)
    assert not any(c.text.startswith("// end for") for c in chunks)


def test_the_comment_after_a_definition_goes_with_its_closing_brace():
    # a method that fits the chunk alone, not with the comment that ends its last line
    method = (
        "  void draw(int x, int y) {\n"
        "    paint(x, y);\n"
        "    paint(y, x);\n"
        "    flush();\n"
        "  }"
    )
    src = "class Canvas {\npublic:\n  int width;\n\n" + method + " // draw\n\n  int height;\n};\n"
    chunks = chunk(src, "cpp", len(method))
    assert mid_line_starts(src, chunks) == []
    assert any("  } // draw" in c.text for c in chunks)
    assert not any(c.text.startswith("// draw") for c in chunks)


def test_a_definition_packed_whole_with_an_overlap_keeps_its_semicolon():
    # cursesw.h's end: a class larger than chunk_size - chunk_overlap that fits
    # chunk_size, then "};" and "#endif": "};" stays whole, the next chunk starts at a line
    members = "".join(f"  void set{i}(int v) {{ value{i} = v; }}\n" for i in range(8))
    cls = "class NCursesFramedPad : public NCursesPad\n{\npublic:\n" + members + "}"
    src = "#ifndef PAD_H\n#define PAD_H\n\n" + cls + ";\n\n#endif /* PAD_H */\n"
    size = len(cls) + 20
    chunks = chunk(src, "cpp", size, overlap=size // 5)
    assert not any(c.text.startswith(";") for c in chunks)
    assert any(c.text.rstrip().endswith("};") or "};\n" in c.text for c in chunks)
    assert mid_line_starts(src, chunks) == []


@pytest.mark.parametrize(
    ("line", "language", "kept"),
    [
        ("} // end for (lines)\nx", "javascript", "} // end for (lines)"),
        ("}; /* Foo */ \nx", "cpp", "}; /* Foo */"),
        ("} Name; // the name\n", "c", "} Name; // the name"),
        ("} /* a */ b\n", "c", "}"),  # (code after the comment: the line goes on)
        ("end # class Foo\n", "ruby", "end # class Foo"),
        ("}  # end f\n", "bash", "}  # end f"),
        ("}  # end f\n", "c", "}"),
        ("}  # not read\n", "python", "}"),  # (Python: as before)
        ("};\n", "python", "};"),
    ],
)
def test_the_tail_of_a_definitions_last_line(line, language, kept):
    e = 3 if line.startswith("end") else 1
    assert line[: _tail_end(line, e, language)] == kept


# sqlite3.h's sqlite3_index_info: a struct member that is a struct, named after its "}"
INDEX_INFO = (
    "struct sqlite3_index_info {\n"
    "  /* Inputs */\n"
    "  int nConstraint;           /* Number of entries in aConstraint */\n"
    "  struct sqlite3_index_constraint {\n"
    "     int iColumn;              /* Column constrained.  -1 for ROWID */\n"
    "     unsigned char op;         /* Constraint operator */\n"
    "     unsigned char usable;     /* True if this constraint is usable */\n"
    "     int iTermOffset;          /* Used internally - xBestIndex should ignore */\n"
    "  } *aConstraint;            /* Table of WHERE clause constraints */\n"
    "  int nOrderBy;              /* Number of terms in the ORDER BY clause */\n"
    "  int idxNum;                /* Number used to identify the index */\n"
    "};\n"
)


@pytest.mark.parametrize("overlap", [0, 40, 80])
@pytest.mark.parametrize("size", range(330, 420, 6))
def test_a_member_struct_keeps_the_name_and_comment_after_its_brace(size, overlap):
    chunks = chunk(INDEX_INFO, "c", size, overlap)
    assert mid_line_starts(INDEX_INFO, chunks) == []


def block_source(opening, closing):
    """Node's api.js shape: functions too big for a chunk inside a block at the top."""
    body = "".join(f"    const v{i} = document.getElementById('item-{i}');\n" for i in range(12))
    return (
        f"'use strict';\n\n{opening}\n"
        f"  function setupTheme() {{\n{body}  }}\n\n"
        f"  function setupToc() {{\n{body}  }}\n"
        f"{closing}\n"
    )


@pytest.mark.parametrize(("opening", "closing"), [("{", "}"), ("(function () {", "})();")])
@pytest.mark.parametrize("size", [300, 400, 600])
def test_a_block_opening_goes_with_the_first_function_in_it(opening, closing, size):
    src = block_source(opening, closing)
    chunks = chunk(src, "javascript", size)
    # no chunk of the block's opening line alone (with what comes before it)
    assert not any(c.text.rstrip().endswith(opening) for c in chunks)
    assert chunks[0].text.startswith(f"'use strict';\n\n{opening}\n  function setupTheme() {{")


@pytest.mark.parametrize("size", [300, 500, 700, 900])
def test_a_comment_after_a_big_method_changes_no_chunk(size):
    # the chunks of a class whose big method ends "} // end setup" are those of the same
    # class without the comment: the method keeps it, and the next method starts a chunk
    body = "".join(f"    this.v{i} = document.getElementById('item-{i}');\n" for i in range(12))
    plain = "class Theme {\n  setup() {\n" + body + "  }\n  small() {\n    return 1;\n  }\n\n  other() {\n" + body + "  }\n}\n"
    src = plain.replace("  }\n  small", "  } // end setup\n  small")
    with_comment = chunk(src, "javascript", size)
    without = chunk(plain, "javascript", size)
    assert [c.text.replace(" // end setup", "") for c in with_comment] == [c.text for c in without]
