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


# -- the standard library's ast: else and finally are clauses --------------------------

CLAUSES = '''def load(path, strict=False):
    try:
        handle = open(path, "rb")
        data = handle.read()
    except OSError:
        if strict:
            raise
        data = b""
    else:
        handle.close()
        data = data.strip()
    finally:
        log("read", path)
    for line in data.splitlines():
        emit(line)
    else:
        emit(b"")
    return data
'''


@pytest.mark.parametrize("size", [60, 80, 100, 120])
def test_ast_cuts_before_else_and_finally_as_the_scan_does(size):
    ast_chunks = chunk(CLAUSES, size, "ast")
    # no chunk ends with an "else:" or "finally:" line: the cut is before it
    assert not [c.text for c in ast_chunks if c.text.rstrip().endswith(("else:", "finally:"))]
    for parser in PARSERS:
        assert [c.text for c in chunk(CLAUSES, size, parser)] == [c.text for c in ast_chunks], parser


def test_ast_reads_else_and_finally_as_clauses():
    from chunkwise.parsers.code import parse_code

    st = parse_code(CLAUSES, "python", "ast")
    clause_cuts = {CLAUSES[b : CLAUSES.index("\n", b)] for _a, b, _ind, kind in st.cuts if kind == 2}
    assert clause_cuts == {"except OSError:", "else:", "finally:"}
    types = [t for s, _e, t in sorted(st.statements) if CLAUSES.startswith(("else", "finally", "elif"), s)]
    assert types == ["else_clause", "finally_clause", "else_clause"]
    # an elif is a clause too, and the comment lines above "else:" go with it
    src = "if a:\n    x = 1\nelif b:\n    x = 2\n# none of them\nelse:\n    x = 3\n"
    st = parse_code(src, "python", "ast")
    kinds = {src[b : src.index("\n", b)]: kind for _a, b, _ind, kind in st.cuts}
    assert kinds == {"x = 1": 1, "elif b:": 2, "x = 2": 1, "# none of them": 2, "x = 3": 1}
    # (the scan reads such comment lines as the grammar does: with the clause below them)
    for parser in ["scan"] + (["tree-sitter"] if grammar_available("python") else []):
        cuts = parse_code(src, "python", parser).cuts
        assert {src[b : src.index("\n", b)]: kind for _a, b, _ind, kind in cuts} == kinds, parser


@pytest.mark.parametrize("size", [60, 80, 100])
def test_a_comment_line_above_else_goes_with_it(size):
    src = (
        "def pick(a, b):\n    if a:\n        x = compute(a)\n        y = x * 2\n"
        "    # neither: the default\n    else:\n        x = y = 0\n    return x, y\n"
    )
    for parser in PARSERS:
        chunks = chunk(src, size, parser)
        holder = [c for c in chunks if "else:" in c.text]
        assert holder[0].text.startswith("    # neither: the default\n    else:"), parser
