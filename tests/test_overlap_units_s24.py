"""With chunk_overlap, a definition (code) or a turn (conversation) larger than
chunk_size - chunk_overlap that fits chunk_size is packed whole, as its own chunk if need be.
Without an overlap nothing changes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.sizers import CharSizer
from invariants import check_invariants

# a comment line above a method of 375 characters: 421 with the comment, so over
# chunk_size=400 with it, over the budget 400 - 120 without it
DECODER = '''"""Errors."""
import re


class JSONDecodeError(ValueError):
    """Subclass of ValueError with the following additional properties:

    msg: The unformatted error message
    doc: The JSON document being parsed
    pos: The start index of doc where parsing failed
    lineno: The line corresponding to pos
    colno: The column corresponding to pos

    """
    # Note that this exception is used from _json
    def __init__(self, msg, doc, pos):
        lineno = doc.count('\\n', 0, pos) + 1
        colno = pos - doc.rfind('\\n', 0, pos)
        errmsg = '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos)
        ValueError.__init__(self, errmsg)
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno

    def __reduce__(self):
        return self.__class__, (self.msg, self.doc, self.pos)
'''

CHAT = (
    "Ana: Did the nightly backup finish?\n"
    "Ben: No. The link to the second site dropped during the copy. The retry started from zero. "
    "So the window ran out.\n"
    "Ana: Then add resume support.\n"
)


def _whole_in_one(chunks, start: int, end: int) -> bool:
    return any(c.start_index <= start and end <= c.end_index for c in chunks)


def test_method_with_comment_above_is_whole_with_overlap() -> None:
    start = DECODER.index("def __init__")
    end = DECODER.index("self.colno = colno") + len("self.colno = colno")
    assert 280 < end - start <= 400  # (the case: over the budget, within chunk_size)
    for overlap in (0, 120):
        chunks = chunkwise.chunk(DECODER, strategy="code", chunk_size=400, chunk_overlap=overlap, language="python")
        check_invariants(DECODER, chunks, 400, CharSizer(), trimmed=False)
        assert _whole_in_one(chunks, start, end), overlap
        # (no chunk starts inside the method's body)
        assert not any(start < c.start_index < end for c in chunks), overlap


def test_answer_over_budget_is_one_chunk_with_overlap() -> None:
    ben = CHAT.index("Ben:")
    ben_end = CHAT.index("ran out.") + len("ran out.")
    assert 90 < ben_end - ben <= 130
    chunks = chunkwise.chunk(CHAT, strategy="conversation", chunk_size=130, chunk_overlap=40)
    check_invariants(CHAT, chunks, 130, CharSizer())
    assert _whole_in_one(chunks, ben, ben_end)
    assert not any(ben < c.start_index < ben_end for c in chunks)
    assert chunks[0].text == "Ana: Did the nightly backup finish?"


def _filler(n: int, end: str = "") -> str:
    """``n`` characters of words (no space at either end), then ``end``."""
    words = ("the link dropped again so the retry window ran out before the copy " * (n // 20 + 2))[: n - len(end)]
    words = words.rstrip()
    return words + "x" * (n - len(end) - len(words)) + end


def _definition(name: str, length: int, comment: int) -> str:
    """A method of ``length`` characters from ``def`` to its last character, with a
    comment line of ``comment`` characters above it (none for 0)."""
    head = f"    # {_filler(comment)}\n" if comment else ""
    top = f"def {name}(self):\n"
    lines, left = [], length - len(top)
    while left > 60:
        lines.append(f"        y = '{_filler(36)}'\n")
        left -= len(lines[-1])
    last = f"        return '{_filler(max(1, left - 18))}'"
    return head + "    " + top + "".join(lines) + last + "\n"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    defs=st.lists(st.tuples(st.floats(0.0, 1.2), st.integers(0, 60)), min_size=1, max_size=4),
    size=st.integers(200, 420),
    share=st.sampled_from([0.2, 0.25, 0.3]),
)
def test_definitions_around_budget(defs, size: int, share: float) -> None:
    overlap = int(size * share)
    parts = ['class Holder:\n    """Holds."""\n\n']
    spans = []
    pos = len(parts[0])
    for i, (f, comment) in enumerate(defs):
        # (from below the budget to above chunk_size; mostly in between)
        d = _definition(f"m{i}", int(size - overlap + f * overlap), comment)
        own = d.index("def ")
        spans.append((pos + own, pos + len(d.rstrip())))
        parts.append(d + "\n")
        pos += len(d) + 1
    src = "".join(parts)
    chunks = chunkwise.chunk(src, strategy="code", chunk_size=size, chunk_overlap=overlap, language="python")
    check_invariants(src, chunks, size, CharSizer(), trimmed=False)
    for s, e in spans:
        if e - s <= size:  # (a definition that fits chunk_size: whole in a chunk)
            assert _whole_in_one(chunks, s, e), (s, e, src[s:e])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    turns=st.lists(st.tuples(st.booleans(), st.floats(0.0, 1.3)), min_size=2, max_size=6),
    size=st.integers(80, 220),
    share=st.sampled_from([0.2, 0.25, 0.3]),
)
def test_turns_around_budget(turns, size: int, share: float) -> None:
    overlap = int(size * share)
    budget = size - overlap
    lines = []
    for k, (ask, f) in enumerate(turns):
        # a question short enough to lead its answer, else a turn from a third of the
        # budget to past chunk_size (mostly between the budget and chunk_size)
        n = max(12, budget // 3) if ask else int(budget // 3 + f * (size - budget // 3))
        lines.append(f"{'Ana' if k % 2 == 0 else 'Ben'}: {_filler(n - 5, '?' if ask else '.')}")
    src = "\n".join(lines) + "\n"
    chunks = chunkwise.chunk(src, strategy="conversation", chunk_size=size, chunk_overlap=overlap)
    check_invariants(src, chunks, size, CharSizer())
    pos = 0
    for line in lines:
        s = src.index(line, pos)
        pos = s + len(line)
        if len(line) <= size:  # (a turn that fits chunk_size: whole in a chunk)
            assert _whole_in_one(chunks, s, pos), line


def test_question_stays_with_answer_when_both_fit() -> None:
    # (the answer, 113, is over the budget 160 - 50; with its question, 149, it fits
    # chunk_size: the two make one chunk)
    a_end = CHAT.index("ran out.") + len("ran out.")
    chunks = chunkwise.chunk(CHAT, strategy="conversation", chunk_size=160, chunk_overlap=50)
    check_invariants(CHAT, chunks, 160, CharSizer())
    assert chunks[0].start_index == 0 and chunks[0].end_index == a_end


def test_definition_holding_a_big_nested_one_is_whole() -> None:
    # (the nested function, over the budget 400 - 120, would start a chunk of its own,
    # cutting the method around it, which fits chunk_size)
    inner = _definition("onerror", 300, 0).replace("\n    ", "\n        ").replace("    def", "        def", 1)
    src = (
        "class Holder:\n    \"\"\"Holds.\"\"\"\n\n"
        "    @classmethod\n    def _rmtree(cls, name):\n" + inner + "\n        onerror(name)\n\n"
        "    def close(self):\n        return None\n"
    )
    start = src.index("@classmethod")
    end = src.index("onerror(name)") + len("onerror(name)")
    assert 280 < end - start <= 400
    for overlap in (0, 80, 120):
        chunks = chunkwise.chunk(src, strategy="code", chunk_size=400, chunk_overlap=overlap, language="python")
        check_invariants(src, chunks, 400, CharSizer(), trimmed=False)
        assert _whole_in_one(chunks, start, end), overlap
