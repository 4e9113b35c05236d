"""Span-level retrieval metrics: recall (with a bootstrap interval), precision, IoU, precision_omega,
recall@k, MRR, nDCG.

Metrics take *spans*, never chunk objects: a span is ``(document_id, start, end)``, a
half-open range of ``str`` offsets (characters) into one document. Whatever produced the
ranked list -- plain chunks, children expanded to their parents, a reranker -- only has to
say which spans of which documents it returns, in rank order.

Method:
    Brandon Smith and Anton Troynikov, "Evaluating Chunking Strategies for Retrieval",
    Chroma technical report, July 2024 (https://research.trychroma.com/evaluating-chunking).
    For a question with reference excerpts ``t_e`` and retrieved chunks ``t_r``::

        recall    = |t_e ∩ t_r| / |t_e|
        precision = |t_e ∩ t_r| / |t_r|
        IoU       = |t_e ∩ t_r| / (|t_e| + |t_r| - |t_e ∩ t_r|)

    and precision_omega is the precision obtained if every chunk containing part of a
    reference were retrieved (an upper bound on precision at full recall). The report
    counts tokens; here the unit is characters, which is exact because chunks carry their
    offsets (Chroma's evaluator has to re-find chunk strings in the corpus).

    Counting: ``t_e`` is the union of the reference spans (overlapping, nested or
    duplicate references count once). The retrieved text ``t_r`` is counted *with
    multiplicity*, as Chroma's reference code does and as an LLM reads it: ``|t_r|`` is
    the summed length of the retrieved spans, so text that two overlapping chunks both
    hold counts twice, and ``|t_e ∩ t_r|`` the reference characters covered at least once.
    These are ``precision`` and ``iou``, the headline figures (Chroma's code: precision
    denominator = summed chunk lengths; IoU denominator = that plus the reference
    characters no retrieved chunk covers). ``precision_union`` and ``iou_union`` use the
    union of the retrieved spans instead; they ignore repeated text, so overlapping
    chunks look better under them than they are. Without overlap the two agree.

    Confidence: :func:`bootstrap_ci` gives a percentile bootstrap interval of a mean over
    questions (Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13),
    resampling questions with a fixed seed, so a run's interval is reproducible.
    :func:`mean_scores` reports it for recall (``recall_ci_low``, ``recall_ci_high``).

    Ranked metrics (standard IR, Manning et al., *Introduction to Information Retrieval*,
    ch. 8; Järvelin & Kekäläinen 2002 for nDCG): a retrieved span is *relevant* when it
    overlaps a reference by at least one character; ``recall_at_k`` is 1 when any of the
    top k is relevant; ``mrr`` is 1/rank of the first relevant span.

    ``ndcg`` is Järvelin & Kekäläinen's normalised discounted cumulative gain ("Cumulated
    gain-based evaluation of IR techniques", ACM TOIS 20(4), 2002) with graded gains read
    off the reference characters. The gain of the span at rank i is the share of the
    reference characters it covers that no higher-ranked span covered::

        g_i = |span_i ∩ t_e, less span_1 ∪ ... ∪ span_{i-1}| / |t_e|

    so the gains of a ranking sum to its recall (at most 1), and an answer retrieved twice
    (two overlapping chunks, or two expanded spans that share text) earns its gain once,
    as a reader learns it once. DCG = sum of ``g_i / log2(i + 1)``. The ideal DCG is that
    of the best possible ranking of k spans drawn from the candidates (what a flat run could
    return: the searched chunks, as each returns alone, not a hierarchy's upper levels)
    and the spans retrieved (so a merged parent or joined window can score): with
    ``C*(i)`` the most reference characters any i of those spans cover together (exact, per
    document, by dynamic programming over the spans sorted by end), the ideal gains are
    ``C*(i) - C*(i - 1)``. No ranking covers more than ``C*(i)`` in its first i spans, and
    the discount falls with rank, so nDCG <= 1; a ranking whose first span holds the
    whole answer scores 1. Spans that do not overlap (flat chunks without overlap) keep
    the textbook values: each gain is then the span's own share, and the ideal ranking
    is the k best spans in order of gain.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "METRIC_NAMES",
    "QuestionScores",
    "SpanRef",
    "bootstrap_ci",
    "intersection_length",
    "mean_scores",
    "score_question",
    "span_length",
    "union",
]

SpanRef = tuple[str, int, int]
"""``(document_id, start, end)``: half-open character offsets into one document."""

METRIC_NAMES = (
    "recall",
    "precision",
    "iou",
    "precision_union",
    "iou_union",
    "precision_omega",
    "recall_at_k",
    "mrr",
    "ndcg",
    "tokens",
)


def union(spans: Iterable[SpanRef]) -> dict[str, list[tuple[int, int]]]:
    """The union of spans, per document: sorted, disjoint, non-adjacent-merged ranges.

    Adjacent ranges (``(0, 5)`` and ``(5, 9)``) merge into one; empty ranges vanish.

    Example:
        >>> union([("a", 5, 9), ("a", 0, 6), ("b", 1, 1)])
        {'a': [(0, 9)]}
    """
    by_doc: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for doc, s, e in spans:
        if e > s:
            by_doc[doc].append((s, e))
    out: dict[str, list[tuple[int, int]]] = {}
    for doc, ranges in by_doc.items():
        ranges.sort()
        merged: list[tuple[int, int]] = []
        for s, e in ranges:
            if merged and s <= merged[-1][1]:
                if e > merged[-1][1]:
                    merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        out[doc] = merged
    return out


def span_length(sets: Mapping[str, Sequence[tuple[int, int]]]) -> int:
    """Number of characters in a union (as returned by :func:`union`)."""
    return sum(e - s for ranges in sets.values() for s, e in ranges)


def intersection_length(a: Mapping[str, Sequence[tuple[int, int]]], b: Mapping[str, Sequence[tuple[int, int]]]) -> int:
    """Characters common to two unions (each sorted and disjoint per document)."""
    total = 0
    for doc, ra in a.items():
        rb = b.get(doc)
        if not rb:
            continue
        i = j = 0
        while i < len(ra) and j < len(rb):
            lo = max(ra[i][0], rb[j][0])
            hi = min(ra[i][1], rb[j][1])
            if hi > lo:
                total += hi - lo
            if ra[i][1] < rb[j][1]:
                i += 1
            else:
                j += 1
    return total


@dataclass(frozen=True)
class QuestionScores:
    """The scores of one question (each in [0, 1] except ``tokens``).

    Attributes:
        recall: share of reference characters covered by the retrieved spans.
        precision: reference characters covered over the summed length of the retrieved
            spans (text retrieved twice counts twice: Chroma's code).
        iou: reference characters covered over (summed retrieved length + reference
            characters not covered) (Chroma's code).
        precision_union: as precision over the union of the retrieved spans.
        iou_union: reference ∩ retrieved over reference ∪ retrieved (unions, characters).
        precision_omega: precision if exactly the candidate spans overlapping a reference
            were retrieved (0 when no candidate overlaps one; unions, as Chroma's code).
        recall_at_k: 1.0 if any retrieved span overlaps a reference, else 0.0.
        mrr: 1 / rank of the first retrieved span overlapping a reference (0 if none).
        ndcg: normalised discounted cumulative gain at k (see the module docstring).
        tokens: tokens in the retrieved spans (the context an LLM would read), summed
            over spans as retrieved (a repeated passage counts again).
        k: number of spans retrieved.
    """

    recall: float
    precision: float
    iou: float
    precision_union: float
    iou_union: float
    precision_omega: float
    recall_at_k: float
    mrr: float
    ndcg: float
    tokens: float
    k: int

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the fields."""
        return asdict(self)


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else 0.0


def score_question(
    retrieved: Sequence[SpanRef],
    references: Sequence[SpanRef],
    candidates: Sequence[SpanRef] | None = None,
    tokens: Sequence[int] | None = None,
) -> QuestionScores:
    """Score one question's ranked retrieval against its reference spans.

    Args:
        retrieved: the spans returned, best first (k of them; may be empty, may repeat,
            may belong to other documents -- those cover nothing).
        references: the answer's reference spans (overlapping, nested or duplicate spans
            are merged: their union is what counts).
        candidates: every span a flat run of the retriever could return (the chunks
            that are searched, as returned: all chunks of the collection; of a
            hierarchy, the leaves -- not its upper levels); precision_omega's set, and
            with ``retrieved`` the pool of the ideal DCG. Defaults to ``retrieved``.
        tokens: the token count of each retrieved span (same order); summed into
            ``tokens``. Defaults to zeros.

    Returns:
        A :class:`QuestionScores`; all ratios are 0.0 when their denominator is 0
        (empty retrieval).

    Raises:
        ValueError: no reference span has a character, or ``tokens`` has the wrong length.

    Method:
        Smith & Troynikov, "Evaluating Chunking Strategies for Retrieval" (Chroma, 2024)
        for recall, precision, IoU and precision_omega; nDCG after Järvelin & Kekäläinen
        (2002). See the module docstring for the exact definitions.

    Example:
        >>> s = score_question([("d", 0, 10)], [("d", 5, 15)])
        >>> (s.recall, s.precision, round(s.iou, 3))
        (0.5, 0.5, 0.333)
        >>> s = score_question([("d", 0, 10), ("d", 5, 15)], [("d", 0, 15)])  # overlap
        >>> (s.precision, s.iou, s.precision_union, s.iou_union)
        (0.75, 0.75, 1.0, 1.0)
    """
    ref = union(references)
    ref_len = span_length(ref)
    if ref_len == 0:
        raise ValueError("a question needs at least one non-empty reference span")
    if tokens is not None and len(tokens) != len(retrieved):
        raise ValueError(f"tokens has {len(tokens)} entries for {len(retrieved)} retrieved spans")
    got = union(retrieved)
    got_len = span_length(got)
    inter = intersection_length(ref, got)
    summed = sum(max(0, e - s) for _, s, e in retrieved)

    def hit(span: SpanRef) -> int:
        return intersection_length(ref, union([span]))

    # graded gain: the reference characters a span adds to those ranked above it
    gains = []
    covered = 0
    for i in range(len(retrieved)):
        now = intersection_length(ref, union(retrieved[: i + 1])) if covered < ref_len else covered
        gains.append((now - covered) / ref_len)
        covered = now
    first = next((i for i, sp in enumerate(retrieved) if hit(sp) > 0), None)
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    pool = retrieved if candidates is None else candidates
    # the ideal ranking: the best k of what a flat run could return, and of what this run
    # returned (a merged parent is a candidate of its own question): nDCG stays <= 1
    known = set(pool)
    ideal = [*pool, *(sp for sp in retrieved if sp not in known)]
    best = _best_coverage(ideal, ref, len(retrieved))
    idcg = sum((best[i + 1] - best[i]) / ref_len / math.log2(i + 2) for i in range(len(retrieved)))

    touching = [sp for sp in pool if hit(sp) > 0]
    omega_set = union(touching)
    omega_inter = intersection_length(ref, omega_set)
    # Chroma adds reference text no candidate covers to the denominator.
    omega_den = span_length(union([sp for sp in touching] + list(references)))
    return QuestionScores(
        recall=inter / ref_len,
        precision=_ratio(inter, summed),
        iou=_ratio(inter, summed + ref_len - inter),
        precision_union=_ratio(inter, got_len),
        iou_union=_ratio(inter, ref_len + got_len - inter),
        precision_omega=_ratio(omega_inter, omega_den),
        recall_at_k=1.0 if first is not None else 0.0,
        mrr=1.0 / (first + 1) if first is not None else 0.0,
        ndcg=_ratio(dcg, idcg),
        tokens=float(sum(tokens)) if tokens is not None else 0.0,
        k=len(retrieved),
    )


def _best_coverage(spans: Sequence[SpanRef], ref: Mapping[str, Sequence[tuple[int, int]]], k: int) -> list[int]:
    """``C[j]`` for j = 0..k: the most characters of ``ref`` (a :func:`union`) that any j
    of ``spans`` cover together (non-decreasing in j).

    Exact: per document, a dynamic programme over the spans that touch the reference,
    sorted by end (an optimal choice needs no span inside another, so its spans are
    ordered by start and by end, and span i adds the reference characters from
    ``max(start_i, end of the span before)`` to ``end_i``); the documents' curves are
    then combined (each document gets some of the j spans).

    Example:
        >>> _best_coverage([("d", 0, 6), ("d", 4, 10), ("d", 0, 10)], union([("d", 0, 10)]), 2)
        [0, 10, 10]
    """
    by_doc: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for doc, s, e in dict.fromkeys(spans):
        if doc in ref and e > s:
            by_doc[doc].append((s, e))
    total = [0] * (k + 1)
    for doc, ranges in by_doc.items():
        refs = ref[doc]

        def weight(lo: int, hi: int, refs: Sequence[tuple[int, int]] = refs) -> int:
            return sum(max(0, min(hi, e) - max(lo, s)) for s, e in refs) if hi > lo else 0

        items = sorted((r for r in set(ranges) if weight(*r) > 0), key=lambda r: (r[1], r[0]))
        n = len(items)
        curve = [0] * (k + 1)
        # f[j][i]: most reference characters covered by j spans of which items[i] ends last
        prev = [weight(s, e) for s, e in items]
        for j in range(1, k + 1):
            if j > 1:
                cur = [0] * n
                for i, (s, e) in enumerate(items):
                    cur[i] = max(
                        [prev[i]] + [prev[p] + weight(max(s, items[p][1]), e) for p in range(i) if items[p][1] <= e]
                    )
                prev = cur
            curve[j] = max(curve[j - 1], max(prev, default=0))
        total = [max(total[a] + curve[j - a] for a in range(j + 1)) for j in range(k + 1)]
    return total


def bootstrap_ci(
    values: Sequence[float], confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean of ``values``.

    Args:
        values: one value per question (e.g. its recall).
        confidence: the interval's coverage, in (0, 1).
        resamples: how many resamples (with replacement, each of ``len(values)``).
        seed: seed of numpy's ``default_rng``; the same values give the same interval.

    Returns:
        ``(low, high)``; ``(0.0, 0.0)`` for no values, ``(v, v)`` for one.

    Raises:
        ValueError: ``confidence`` not in (0, 1) or ``resamples < 1``.

    Method:
        Efron & Tibshirani, *An Introduction to the Bootstrap* (1993), ch. 13: the
        ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles of the resampled means.

    Example:
        >>> bootstrap_ci([1.0, 1.0, 1.0])
        (1.0, 1.0)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence ({confidence}) must be between 0 and 1")
    if resamples < 1:
        raise ValueError(f"resamples ({resamples}) must be at least 1")
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    import numpy as np

    data = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return (float(low), float(high))


def mean_scores(scores: Sequence[QuestionScores]) -> dict[str, float]:
    """The mean of each metric over questions (macro average; empty input gives zeros),
    plus ``recall_ci_low`` and ``recall_ci_high``: the 95% bootstrap interval of the mean
    recall (:func:`bootstrap_ci`, seed 0)."""
    n = len(scores)
    out = {}
    for name in METRIC_NAMES + ("k",):
        out[name] = sum(getattr(s, name) for s in scores) / n if n else 0.0
    out["recall_ci_low"], out["recall_ci_high"] = bootstrap_ci([s.recall for s in scores])
    return out
