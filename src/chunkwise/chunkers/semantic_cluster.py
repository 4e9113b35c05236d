"""``semantic_cluster``: the sentence groups that maximise within-chunk similarity.

:func:`cluster_segments` solves the segmentation exactly by dynamic programming; the
strategy hands its segments to the packer as regions, with every sentence cut scored by
its similarity, so a segment whose exact size is still over the budget (token counts of
parts do not add up exactly) is split at its weakest link.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ..parsers.semantic import (
    SemanticAnalysis,
    consecutive_similarities,
    cuts_before_headings,
    heading_glue,
    join_bare_sentences,
    join_fence_lines,
    sentence_segments,
)
from ..registry import register
from ..segments import Segments
from ..sizers import Measure
from ..types import Document
from .embedding import EmbeddingChunker

__all__ = ["ClusterSemanticChunker", "cluster_segments", "segmentation_score"]

CLUSTER = "semantic_cluster"  # a cut between two segments of the DP
WEAKEST = "semantic_split"  # a cut at the weakest similarity inside a segment over the cap


def _centred(sim: Any) -> Any:
    import numpy as np

    n = sim.shape[0]
    c = sim.copy()
    if n > 1:
        c -= sim[np.triu_indices(n, k=1)].mean()
    np.fill_diagonal(c, 0.0)
    return c


def segmentation_score(sim: Any, segments: Sequence[tuple[int, int]]) -> float:
    """The objective of :func:`cluster_segments`: sum over segments of the sum of the
    centred similarity matrix over the segment's block (diagonal excluded)."""
    import numpy as np

    c = _centred(np.asarray(sim, dtype=np.float64))
    return float(sum(c[a:b, a:b].sum() for a, b in segments))


def cluster_segments(
    sim: Any,
    sizes: Sequence[int] | None = None,
    budget: int | None = None,
    max_sentences: int | None = None,
    min_size: int = 0,
) -> tuple[list[tuple[int, int]], float]:
    """Consecutive segments ``[(a, b), ...]`` maximising within-segment similarity.

    Objective: the similarity matrix is centred (the mean off-diagonal similarity is
    subtracted, the diagonal set to 0); a segment scores the sum of its block; the
    segmentation maximises the total. A segment's size (sum of ``sizes``) must be at most
    ``budget`` unless it is a single sentence; at most ``max_sentences`` sentences. With
    ``min_size``, the segmentation first has the fewest *runts* -- segments whose size is
    under ``min_size``, other than a single segment holding everything -- and then the
    highest score among those. Solved exactly by dynamic programming over prefix sums:
    O(n * L) for segments of at most L sentences. Ties go to the segmentation with the
    shortest last segment.

    Args:
        sim: ``[n, n]`` cosine similarity matrix of the sentences.
        sizes: size of each sentence in the unit (``None``: no size cap, no floor).
        budget: the largest segment size, in the unit of ``sizes``.
        max_sentences: the most sentences a segment may hold.
        min_size: the floor, in the unit of ``sizes`` (0: none).

    Returns:
        ``(segments, score)``: the segments cover ``0..n`` in order; ``score`` is their
        :func:`segmentation_score`.

    Method:
        ClusterSemanticChunker of Chroma's technical report "Evaluating Chunking Strategies
        for Retrieval" (Smith & Troynikov, 2024), with a corrected recurrence (every
        segment within the cap; negative scores allowed) and a lexicographic objective
        (fewest runts, then score).
    """
    import numpy as np

    sim = np.asarray(sim, dtype=np.float64)
    n = sim.shape[0]
    if n == 0:
        return [], 0.0
    c = _centred(sim)
    p = np.zeros((n + 1, n + 1))
    p[1:, 1:] = c.cumsum(0).cumsum(1)
    size_prefix = [0, *np.cumsum(sizes).tolist()] if sizes is not None else None
    floor = min_size if size_prefix is not None else 0
    best = [-np.inf] * (n + 1)
    runts = [n + 1] * (n + 1)
    best[0], runts[0] = 0.0, 0
    back = [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i - 1, -1, -1):  # segment [j, i)
            if max_sentences is not None and i - j > max_sentences:
                break
            seg = size_prefix[i] - size_prefix[j] if size_prefix is not None else 0
            if size_prefix is not None and budget is not None and i - j > 1 and seg > budget:
                break
            block = p[i, i] - p[j, i] - p[i, j] + p[j, j]
            v = best[j] + block
            r = runts[j] + (1 if seg < floor and not (j == 0 and i == n) else 0)
            if r < runts[i] or (r == runts[i] and v > best[i] + 1e-12):
                best[i], runts[i], back[i] = v, r, j
    segs: list[tuple[int, int]] = []
    i = n
    while i > 0:
        segs.append((back[i], i))
        i = back[i]
    return segs[::-1], float(best[n])


@register("semantic_cluster")
@dataclass(frozen=True, kw_only=True)
class ClusterSemanticChunker(EmbeddingChunker):
    """Group consecutive sentences so that within-chunk similarity is globally maximal.

    Sentences are embedded (as for ``"semantic"``); :func:`cluster_segments` finds the
    optimal segmentation under the size cap (``chunk_size`` minus ``chunk_overlap``, in the
    unit) with the fewest segments under the floor (a quarter of that, the packer's rule
    against runts). Each segment is packed on its own; one whose exact size is over the cap
    is split at its weakest similarity, and a single sentence over the cap by the engine's
    fallback (words, grapheme clusters).

    Args:
        model, cache, buffer_size, batch_size: see
            :class:`~chunkwise.chunkers.embedding.EmbeddingChunker`.
        max_sentences: the most sentences per chunk (None: only the size cap limits).

    Raises:
        ConfigError: an invalid value; the message names it and the fix.

    Metadata: ``boundary`` is ``"semantic_cluster"`` (a cut between segments),
    ``"semantic_split"`` or the engine's kind; ``boundary_similarity`` as for
    ``"semantic"``.

    Method:
        ClusterSemanticChunker, Chroma technical report "Evaluating Chunking Strategies for
        Retrieval" (Smith & Troynikov, 2024), on sentences instead of fixed 50-token pieces.
    """

    max_sentences: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.max_sentences is not None and (
            isinstance(self.max_sentences, bool) or not isinstance(self.max_sentences, int) or self.max_sentences < 1
        ):
            raise ConfigError(f"max_sentences ({self.max_sentences!r}) must be an integer >= 1 or None")

    def segments_of(
        self, doc: Document, m: Measure, sents: list[tuple[int, int]]
    ) -> tuple[Segments, SemanticAnalysis]:
        """The DP's segments and scored sentence cuts of ``doc`` (a code fence line alone
        joins the sentence of its code: no chunk is only a fence; in a document loaded
        from Markdown or HTML a segment end right after a heading moves before it, and no
        cut separates a heading from the start of its body while the two fit:
        :func:`~chunkwise.parsers.semantic.heading_glue`)."""
        import numpy as np

        text = doc.text
        sents = join_bare_sentences(text, join_fence_lines(text, sents))
        vecs = self.sentence_vectors(text, sents) if len(sents) > 1 else np.ones((1, 1), dtype=np.float32)
        # each sentence is sized with the gap before it: a segment's sum is then at least
        # its span's size in chars and words (close for tokens); a segment whose exact
        # size is still over the budget is split by the packer at its weakest link.
        size = m.size if m.is_exact else m.exact
        sizes = [size(sents[i - 1][1] if i else sents[0][0], sents[i][1]) for i in range(len(sents))]
        segs, _ = cluster_segments(vecs @ vecs.T, sizes, self.budget, self.max_sentences, self.budget // 4)
        sims = consecutive_similarities(vecs)
        cuts = [b - 1 for _, b in segs[:-1]]
        glue = heading_glue(doc)
        if glue:
            cuts = cuts_before_headings(sents, cuts, glue)
            bounds = [0, *(c + 1 for c in cuts), len(sents)]
            segs = list(zip(bounds[:-1], bounds[1:]))
        segments = sentence_segments(text, sents, sims, segs, CLUSTER, WEAKEST, keep_fences=True, glue=glue)
        return segments, SemanticAnalysis(sents, sims, float("nan"), cuts)
