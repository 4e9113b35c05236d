"""A span estimated just over the token budget is counted before it is cut.

A token estimate counts the document's tokens that touch a span. A code block followed by
a heading can be estimated one token over the budget although its text, counted alone,
fits: it was cut where the estimate said, inside its closing fence, and the last backtick
became a chunk of its own.
"""

from __future__ import annotations

import chunkwise
from chunkwise.merge import pack

FENCE = (
    "```cjs\n"
    "const { Buffer } = require('node:buffer');\n\n"
    "const buf1 = Buffer.from('1234');\n"
    "const buf2 = Buffer.from('0123');\n"
    "const arr = [buf1, buf2];\n\n"
    "console.log(arr.sort(Buffer.compare));\n"
    "// Prints: [ <Buffer 30 31 32 33>, <Buffer 31 32 33 34> ]\n"
    "// (This result is equal to: [buf2, buf1].)\n"
    "```"
)
DOC = "## Buffer.compare\n\nCompares two buffers.\n\n" + FENCE + "\n\n### Buffer.concat\n\nJoins buffers.\n"


def _fence_sizes(cl100k):
    m = cl100k.measure(DOC)
    s = DOC.index(FENCE)
    return m.size(s, s + len(FENCE)), m.exact(s, s + len(FENCE))


def test_the_fence_is_estimated_over_its_exact_size(cl100k):
    estimate, exact = _fence_sizes(cl100k)
    assert estimate > exact  # the case this file is about


def test_a_fence_that_fits_exactly_is_one_chunk(cl100k):
    _, exact = _fence_sizes(cl100k)
    for strategy in ("markdown",):
        chunks = chunkwise.chunk(DOC, strategy=strategy, chunk_size=exact, unit="tokens")
        texts = [c.text for c in chunks]
        assert FENCE in texts, (strategy, texts)
        assert not any(t.strip("`") == "" for t in texts)
        for c in chunks:
            assert c.text == DOC[c.start_index : c.end_index]
            assert cl100k.count(c.text) <= exact


def test_pack_counts_a_span_with_no_cut_before_cutting_it(cl100k):
    _, exact = _fence_sizes(cl100k)
    s = DOC.index(FENCE)
    e = s + len(FENCE)
    spans = pack(DOC, cl100k.measure(DOC), exact, [], start=s, end=e, words=False)
    assert [(x.start, x.end, x.size) for x in spans] == [(s, e, exact)]


def test_a_span_over_its_exact_size_is_still_cut(cl100k):
    _, exact = _fence_sizes(cl100k)
    s = DOC.index(FENCE)
    e = s + len(FENCE)
    spans = pack(DOC, cl100k.measure(DOC), exact - 1, [], start=s, end=e, words=False)
    assert len(spans) > 1
    assert spans[0].start == s and spans[-1].end == e
    assert all(cl100k.count(DOC[x.start : x.end]) <= exact - 1 for x in spans)
