"""Code chunking, Python: a statement with a multi-line string in it that does not fit a
chunk is cut between its lines (inside the string), not between the tokens of a line,
wherever every line fits: each chunk starts at the beginning of its first line, with or
without an overlap."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])

SCHED = (
    "import threading\n"
    "from time import monotonic as _time\n"
    "\n"
    '__all__ = ["scheduler"]\n'
    "\n"
    "Event = namedtuple('Event', 'time, priority, sequence, action, argument, kwargs')\n"
    "Event.time.__doc__ = ('''Numeric type compatible with the return value of the\n"
    "timefunc function passed to the constructor.''')\n"
    "Event.priority.__doc__ = ('''Events scheduled for the same time will be executed\n"
    "in the order of their priority.''')\n"
    "Event.sequence.__doc__ = ('''A continually increasing sequence number that\n"
    "    separates events if time and priority are equal.''')\n"
    "Event.action.__doc__ = ('''Executing the event means executing\n"
    "action(*argument, **kwargs)''')\n"
    "Event.argument.__doc__ = ('''argument is a sequence holding the positional\n"
    "arguments for the action.''')\n"
)


def chunks_of(src, size, overlap, parser):
    chunks = chunkwise.chunk(
        src, strategy="code", language="python", chunk_size=size, chunk_overlap=overlap, unit="chars", parser=parser
    )
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


def mid_line(src, chunks):
    return [c.text[:30] for c in chunks if c.start_index and src[c.start_index - 1] != "\n"]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("overlap", [0, 30])
def test_statement_with_a_multi_line_string_is_cut_between_lines(parser, overlap):
    chunks = chunks_of(SCHED, 120, overlap, parser)
    assert mid_line(SCHED, chunks) == []
    # the statement that does not fit is cut inside its string, at a line's start
    assert any(c.text.startswith("    separates events") for c in chunks)


@pytest.mark.parametrize("parser", PARSERS)
def test_docstring_assignment_larger_than_budget_is_cut_at_line_starts(parser):
    body = "".join(f"    line {i} of a long text held in a string\n" for i in range(12))
    src = "x = 1\n\nTEXT = '''Start of the text\n" + body + "end'''\n\ny = 2\n"
    chunks = chunks_of(src, 150, 0, parser)
    assert mid_line(src, chunks) == []
    assert "".join(c.text for c in chunks).replace("\n", "") == src.replace("\n", "")


WORDS = st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta", "x", "value"]), min_size=1, max_size=6)


@st.composite
def modules(draw):
    """Assignments of one-line and multi-line strings, every line at most 70 characters."""
    out = []
    for i in range(draw(st.integers(1, 6))):
        lines = draw(st.lists(WORDS.map(" ".join), min_size=1, max_size=4))
        indent = draw(st.sampled_from(["", "    "]))
        if len(lines) == 1:
            out.append(f"name_{i} = '{lines[0]}'\n")
        else:
            first, *rest = lines
            text = "\n".join([first] + [indent + r for r in rest])
            wrap = draw(st.sampled_from(["({})", "{}", "f({}, 1)"]))
            out.append(f"obj.name_{i}.__doc__ = " + wrap.format(f"'''{text}'''") + "\n")
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(modules(), st.sampled_from(PARSERS), st.sampled_from([(80, 0), (100, 0), (120, 0), (120, 30)]))
def test_every_chunk_starts_a_line_when_every_line_fits(src, parser, sizes):
    size, overlap = sizes
    assert max(map(len, src.splitlines())) <= size - overlap
    assert mid_line(src, chunks_of(src, size, overlap, parser)) == []
