"""Balancing runts (``packer.balance_spans``): it ends, and it never trusts an estimate alone.

Token sizes read from the document's one tokenization are estimates near a span's edge
(a token that holds the space before a word is split once the span starts at the word):
a cut whose estimate leaves both sides at the floor may count one token under it. Such a
cut used to be taken, the runt stayed, and balancing moved the same cut forever (recursive
at 64 cl100k tokens on a list of references, 48 on a financial report).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from chunkwise import packer
from chunkwise.boundaries import LINE, PARAGRAPH, WORD
from chunkwise.merge import Span

from invariants import check_invariants


class _EdgeMeasure:
    """Characters, with a one-unit overestimate for a span that starts at ``shifted``
    (as a token estimate that still counts the space token before a word), and a count of
    exact measurements that stops a runaway loop instead of hanging the test run."""

    is_exact = False

    def __init__(self, shifted: int, limit: int = 1000) -> None:
        self.shifted = shifted
        self.exact_calls = 0
        self.limit = limit

    def size(self, start: int, end: int) -> int:
        return end - start + (start == self.shifted)

    def exact(self, start: int, end: int) -> int:
        self.exact_calls += 1
        if self.exact_calls > self.limit:
            raise RuntimeError("balancing does not end: it keeps counting the same spans")
        return end - start

    def advance(self, start: int, end: int, budget: int) -> int:
        return min(end, start + budget)


def test_a_cut_whose_count_falls_under_the_floor_is_not_taken_and_balancing_ends():
    # one line of 48 characters, then a line of 15 whose estimate is 16 (the floor)
    text = "x" * 48 + " \n " + "y" * 15
    right = len(text) - 15
    m = _EdgeMeasure(shifted=right)
    spans = [Span(0, 48, 48, "line"), Span(right, len(text), 15, "end")]
    packer.balance_spans(text, m, spans, 64, [PARAGRAPH, LINE, WORD], 16, True)
    # no other cut can even the two out: the runt stays (forced by the text), and the
    # balancing stopped after a handful of exact counts
    assert [(s.start, s.end, s.size) for s in spans] == [(0, 48, 48), (right, len(text), 15)]
    assert m.exact_calls <= 2 * packer._EXACT_TRIES


def test_a_cut_that_counts_at_the_floor_is_still_taken():
    # the same pair where the runt can grow: words before the line break move over
    text = "word " * 12 + "x" * 8 + " \n " + "y" * 10
    right = len(text) - 10
    m = _EdgeMeasure(shifted=-1)
    spans = [Span(0, len(text) - 13, len(text) - 13, "word"), Span(right, len(text), 10, "end")]
    packer.balance_spans(text, m, spans, 64, [PARAGRAPH, LINE, WORD], 16, True)
    assert len(spans) == 2
    assert all(s.size >= 16 and s.size == s.end - s.start for s in spans)
    assert spans[0].end < spans[1].start and spans[1].end == len(text)


# a reference list: 48 cl100k tokens on the first line, 15 on the second (estimated 16,
# since " C" + "urr" in the document is "Curr" alone); written for this test
REFERENCES = (
    "Miller AB  Chen Y    Notes on the growth of moulds on bread kept in cold rooms over a whole "
    "winter with a comparison of three kinds of wrapping paper and cloth in two old houses near "
    "the river and a long list of other things \n Curr Biol 1996 6 279 291 8805245"
)


@pytest.mark.parametrize("strategy", ["recursive", "conversation", "sentence", "markdown"])
def test_tokens_on_references_end(strategy, cl100k):
    # in a child process with a time limit: a loop fails the test instead of hanging the run
    code = textwrap.dedent(
        f"""
        import json, chunkwise
        chunks = chunkwise.chunk({REFERENCES!r}, strategy={strategy!r}, chunk_size=64, unit="tokens")
        print(json.dumps([[c.start_index, c.end_index] for c in chunks]))
        """
    )
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{strategy} at 64 tokens did not end on a two-line reference list")
    assert out.returncode == 0, out.stderr
    spans = json.loads(out.stdout)
    import chunkwise

    chunks = chunkwise.chunk(REFERENCES, strategy=strategy, chunk_size=64, unit="tokens")
    assert [[c.start_index, c.end_index] for c in chunks] == spans
    check_invariants(REFERENCES, chunks, 64, cl100k, overlap_allowed=False)
    # either the two lines (no cut between lines evens them out) or, where words are a
    # level of the strategy, no runt under a quarter of the budget
    assert [c.text for c in chunks] == REFERENCES.split(" \n ") or min(c.size for c in chunks) >= 16
