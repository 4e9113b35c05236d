"""Code chunking, Python: a comment after the code on a definition's last line is part of
the definition (counted in its size) with every parser: the standard library's ``ast``
no longer ends the definition before it, so a definition is whole when it fits with the
comment, and is otherwise cut between its lines, not before the comment."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])

SRC = """class P:
    x = 1

    # -- Option-parsing methods ----------------------------------------

    def _get_args(self, args):
        if args is None:
            return sys.argv[1:]
        else:
            return args[:]%s

    def parse_args(self, args=None, values=None):
        return 1
"""
COMMENT = "              # don't modify caller's list"
GET_ARGS = SRC[SRC.index("    def _get_args") : SRC.index("args[:]") + 7]


def texts(src, size, parser, line_starts=True):
    chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=size, unit="chars", parser=parser)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    if not line_starts:
        return [c.text for c in chunks]
    # (at the start of its line, or after its indentation: a definition that fits only
    # without its indentation)
    starts = [c.text for c in chunks if src[src.rfind("\n", 0, c.start_index) + 1 : c.start_index].strip()]
    assert starts == [], parser
    return [c.text for c in chunks]


@pytest.mark.parametrize("parser", PARSERS)
def test_definition_that_fits_with_its_trailing_comment_is_whole(parser):
    src = SRC % COMMENT
    assert GET_ARGS + COMMENT in texts(src, len(GET_ARGS + COMMENT), parser)


@pytest.mark.parametrize("parser", PARSERS)
def test_definition_too_big_with_its_trailing_comment_is_cut_between_lines(parser):
    src = SRC % COMMENT
    out = texts(src, 150, parser)  # (128 characters without the comment, 170 with it)
    assert all(t.startswith("    ") or t.startswith("class") for t in out)
    last = next(t for t in out if "args[:]" in t)
    assert last.endswith("args[:]" + COMMENT)
    assert not any(t.startswith("#") for t in out)


@pytest.mark.parametrize("comment", ["  # c", "\t# tab", "  #"])
def test_ast_definition_ends_after_its_trailing_comment(comment):
    src = SRC % comment
    ast_defs = {d.name: (d.start, d.end) for d in parse_code(src, "python", "ast").definitions}
    scan_defs = {d.name: (d.start, d.end) for d in parse_code(src, "python", "scan").definitions}
    end = src.index("args[:]") + 7 + len(comment)
    assert ast_defs["_get_args"][1] == end
    assert ast_defs == scan_defs


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 60), st.integers(90, 220))
def test_parsers_agree_on_a_trailing_comment(width, size):
    src = SRC % ("  # c" + "c" * width)
    # (not every chunk starts a line here: a clause header, ``else:``, keeps its first line
    # when the two do not fit, and that line is then cut between its tokens)
    results = {parser: texts(src, size, parser, line_starts=False) for parser in PARSERS}
    whole = (GET_ARGS + "  # c" + "c" * width).lstrip()
    for parser, out in results.items():
        assert any(whole in t for t in out) == (len(whole) <= size), parser
        line = "            return args[:]  # c" + "c" * width
        if len("        else:\n" + line) <= size:  # (the comment stays on its line)
            assert any(line in t for t in out), parser


ONE_LINE = '''class IMAP4:
    """doc"""
    class error(Exception): pass    # Logical errors - debug required
    class abort(error): pass        # Service errors - close and retry
    class readonly(abort): pass     # Mailbox status changed to READ-ONLY

    def f(self):
        return 1
'''


def test_one_line_definitions_end_after_their_comment_with_every_parser():
    names = {}
    for parser in PARSERS[1:]:
        st = parse_code(ONE_LINE, "python", parser)
        names[parser] = {d.name: ONE_LINE[d.start : d.end] for d in st.definitions}
        assert names[parser]["abort"].endswith("close and retry"), parser
    assert len({tuple(sorted(v.items())) for v in names.values()}) == 1


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("size, overlap", [(150, 37), (120, 30)])
def test_one_line_definition_with_its_comment_is_not_cut_with_an_overlap(parser, size, overlap):
    chunks = chunkwise.chunk(
        ONE_LINE, strategy="code", language="python", chunk_size=size, chunk_overlap=overlap, unit="chars",
        parser=parser,
    )
    check_invariants(ONE_LINE, chunks, size, CharSizer(), trimmed=False, overlap_allowed=True)
    ends = {c.end_index for c in chunks}
    for name in ("error", "abort", "readonly"):
        at = ONE_LINE.index(f"class {name}")
        line_end = ONE_LINE.index("\n", at)
        assert not any(at < e < line_end for e in ends), (parser, name)
