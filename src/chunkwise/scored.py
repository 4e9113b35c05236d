"""The scored size-cap split: a span too big is cut at its weakest scored cut first.

A strategy that scores its cuts (the semantic strategies: the cosine similarity of the
sentences on either side) hands them over as :class:`~chunkwise.segments.ScoredCuts`. When
a region is larger than the budget, :func:`split_scored` cuts it where the link is weakest
(the lowest score), recursively, so each chunk keeps its most strongly linked sentences
together; a piece with no scored cut left goes to the greedy engine's fallback (sentences,
words, grapheme clusters).

No cut leaves a piece under ``min_size`` when another scored cut of the piece permits it
(the packer's rule against runts: under a quarter of the budget, or under
``min_chunk_size``); when none does, the cut that leaves the largest smaller side is
taken, so a piece next to a sentence larger than the budget does not crumble into runts.

Method:
    Recursive split at the weakest similarity, the size cap of semantic chunkers (as in
    chonkie's and LlamaIndex's semantic splitters), with the cut restricted to the range
    that keeps both sides at or above the floor. The weakest cut of a range is found in
    O(1) with a sparse table (range-minimum queries, Bender & Farach-Colton 2000), so a
    region with ``k`` cuts costs ``O(k log k)`` plus one size count per piece.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from ._text import trim
from .merge import Span
from .segments import ScoredCuts
from .sizers import Measure, exact_size

__all__ = ["split_scored"]


class _RangeMin:
    """First index of the minimum of ``scores[lo:hi]`` in O(1) (a sparse table).

    Built in ``O(n log n)``; ties go to the first (leftmost) index, so the choice is
    deterministic.
    """

    def __init__(self, scores: Sequence[float]) -> None:
        self.scores = scores
        n = len(scores)
        table = [list(range(n))]
        width = 1
        while 2 * width <= n:
            prev = table[-1]
            row = []
            for i in range(n - 2 * width + 1):
                a, b = prev[i], prev[i + width]
                row.append(a if scores[a] <= scores[b] else b)
            table.append(row)
            width *= 2
        self.table = table

    def argmin(self, lo: int, hi: int) -> int:
        """The first index of the smallest score in ``[lo, hi)`` (``lo < hi``)."""
        j = (hi - lo).bit_length() - 1
        row = self.table[j]
        a, b = row[lo], row[hi - (1 << j)]
        # a is the first minimum of the left block, b of the right one; they overlap, so
        # on equal scores a <= b already
        return a if self.scores[a] <= self.scores[b] else b


def _least_runt(
    measure: Measure,
    s: int,
    e: int,
    starts: Sequence[int],
    ends: Sequence[int],
    scores: Sequence[float],
    lo: int,
    hi: int,
) -> int:
    """The cut in ``[lo, hi)`` whose smaller side is largest (then the lower score, then
    the first): the left side grows and the right one shrinks with the cut's position, so
    it is one of the two cuts around the point where they cross."""
    j = lo + bisect_left(range(lo, hi), 0, key=lambda k: measure.size(s, starts[k]) - measure.size(ends[k], e))
    best = None
    for k in (j - 1, j):
        if lo <= k < hi:
            key = (-min(measure.size(s, starts[k]), measure.size(ends[k], e)), float(scores[k]), k)
            if best is None or key < best[0]:
                best = (key, k)
    assert best is not None
    return best[1]


def split_scored(
    text: str,
    measure: Measure,
    budget: int,
    start: int,
    end: int,
    scored: ScoredCuts,
    *,
    min_size: int,
    pack_rest: Callable[[int, int, str], list[Span]],
    end_boundary: str,
) -> list[Span]:
    """Pack ``text[start:end]`` into spans of at most ``budget`` units, weakest cut first.

    If the range fits (its exact size: ``measure.size`` when ``measure.is_exact``, else
    ``measure.exact``) it is one span. Otherwise it is cut at its lowest-scored cut (the
    first such cut on equal scores) among those that leave both sides at or above
    ``min_size``; when no cut permits that, at the cut whose smaller side is largest (the
    fewest units under the floor; then the lower score, then the first). Each side is
    packed the same way. A piece with no scored cut inside that does not fit goes to
    ``pack_rest(piece_start, piece_end, boundary)``.

    Args:
        text: the document text.
        measure: the sizer's measure of ``text``.
        budget: the largest span, in the measure's unit (> 0).
        start, end: the range to pack (characters, half-open); whitespace at its edges and
            at the edges of every piece is trimmed.
        scored: the cuts and their scores (lower is a weaker link); only the cuts with
            ``start < scored.starts[k]`` and ``scored.ends[k] < end`` are used.
        min_size: the floor, in the measure's unit: no piece under it when a cut permits
            (compared with ``measure.size``, an estimate for tokens).
        pack_rest: the fallback for a piece without a scored cut that does not fit: it
            returns that piece's spans, the last one with the given boundary.
        end_boundary: the boundary name of the last span (the cut after the range).

    Returns:
        Spans in document order, not overlapping. A span that ends at a scored cut has the
        boundary ``scored.name``; the last one ``end_boundary``; the fallback's spans keep
        their own. Every span from this function fits ``budget`` exactly; what
        ``pack_rest`` returns is its own responsibility.

    Example:
        >>> from chunkwise.sizers import CharSizer
        >>> t = "Aa one. Aa two. Bb three. Bb four."
        >>> cuts = ScoredCuts("weakest", (7, 15, 25), (8, 16, 26), (0.9, 0.1, 0.8))
        >>> spans = split_scored(t, CharSizer().measure(t), 20, 0, len(t), cuts, min_size=0,
        ...                      pack_rest=lambda s, e, b: [], end_boundary="end")
        >>> [(t[s.start:s.end], s.boundary) for s in spans]
        [('Aa one. Aa two.', 'weakest'), ('Bb three. Bb four.', 'end')]
    """
    starts, ends, scores = scored.starts, scored.ends, scored.scores
    s0, e0 = trim(text, start, end)
    if s0 >= e0:
        return []
    first = bisect_right(starts, s0)  # cuts k with s0 < starts[k] ...
    last = bisect_left(ends, e0)  # ... and ends[k] < e0
    table: _RangeMin | None = None
    # an estimate this far over the budget cannot fit exactly: no exact count needed
    margin = budget + max(16, budget // 8)
    out: list[Span] = []
    stack: list[tuple[int, int, str]] = [(s0, e0, end_boundary)]
    while stack:
        s, e, boundary = stack.pop()
        if measure.is_exact or measure.size(s, e) <= margin:
            n = exact_size(measure, s, e)
            if n <= budget:
                out.append(Span(s, e, n, boundary))
                continue
        lo = max(first, bisect_right(starts, s))
        hi = min(last, bisect_left(ends, e))
        if lo >= hi:
            out.extend(pack_rest(s, e, boundary))
            continue
        if table is None:
            table = _RangeMin([float(scores[k]) for k in range(first, last)])
        # both sides grow monotonically with the cut's position: the cuts that keep both
        # at or above the floor form one range [klo, khi)
        klo = lo + bisect_left(range(lo, hi), min_size, key=lambda k: measure.size(s, starts[k]))
        khi = lo + bisect_right(range(lo, hi), -min_size, key=lambda k: -measure.size(ends[k], e))
        if klo < khi:
            k = first + table.argmin(klo - first, khi - first)
        else:  # no cut keeps both sides at the floor: the one whose smaller side is largest
            k = _least_runt(measure, s, e, starts, ends, scores, lo, hi)
        ls, le = trim(text, s, starts[k])
        rs, re_ = trim(text, ends[k], e)
        # the right side is pushed first so that the left one is packed (and emitted) first
        if rs < re_:
            stack.append((rs, re_, boundary))
        if ls < le:
            stack.append((ls, le, scored.name))
    return out
