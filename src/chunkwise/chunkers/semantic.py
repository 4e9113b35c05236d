"""The semantic family: chunks whose sentences belong together by meaning.

* ``"semantic"`` (:class:`SemanticChunker`, here) -- cut where the similarity of
  consecutive sentences drops (a breakpoint threshold), with a hard size cap;
* ``"semantic_cluster"`` (:class:`~chunkwise.chunkers.semantic_cluster.ClusterSemanticChunker`)
  -- the segmentation into consecutive sentence groups that maximises within-chunk
  similarity under the size cap (dynamic programming);

(``"topic"`` and ``"late"`` live in :mod:`chunkwise.chunkers.topic` and
:mod:`chunkwise.chunkers.late`.)

Each strategy is a parser: it finds sentences (:mod:`chunkwise.sentences`), embeds them
(:mod:`chunkwise.parsers.semantic`), chooses sentence groups (:mod:`chunkwise.thresholds`
or the DP) and hands the packer (:func:`chunkwise.packer.pack_segments`) the groups as
regions with every sentence cut scored by its similarity. The packer keeps the core
invariants: exact offsets, document order, no empty chunk, full coverage, every chunk
within ``chunk_size`` in its unit. Embeddings come from :mod:`chunkwise.embeddings`
(default: an offline model; nothing is downloaded); with ``cache=`` (a path or
:class:`~chunkwise.embeddings.EmbeddingCache`) a sentence is never embedded twice, whatever
threshold or size the next run uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
from ..thresholds import (
    DEFAULT_THRESHOLDS,
    THRESHOLD_TYPES,
    ThresholdType,
    breakpoints,
    merge_small_groups,
    threshold_value,
)
from ..types import Document
from .embedding import EmbeddingChunker
from .semantic_cluster import ClusterSemanticChunker, cluster_segments, segmentation_score

__all__ = [
    "ClusterSemanticChunker",
    "SemanticAnalysis",
    "SemanticChunker",
    "breakpoints",
    "cluster_segments",
    "segmentation_score",
    "threshold_value",
]

SEMANTIC = "semantic"  # a cut where similarity dropped below the threshold
WEAKEST = "semantic_split"  # a cut at the weakest similarity inside a group over the cap


@register("semantic")
@dataclass(frozen=True, kw_only=True)
class SemanticChunker(EmbeddingChunker):
    """Cut where consecutive sentences stop being similar; never exceed ``chunk_size``.

    Each sentence (with ``buffer_size`` neighbours on each side) is embedded; the cosine
    similarity of consecutive sentences gives a curve, and a cut goes where it falls below
    the threshold (see :func:`~chunkwise.thresholds.breakpoints`). No cut leaves a chunk
    under the floor -- ``min_chunk_size`` or a quarter of ``chunk_size - chunk_overlap``,
    whichever is larger, in the unit -- where another cut permits: a group under the floor
    joins its more similar neighbour (:func:`~chunkwise.thresholds.merge_small_groups`).
    Then the hard cap: a group larger than ``chunk_size`` (minus ``chunk_overlap``) is split
    at its weakest internal similarity that keeps both sides at or above the floor,
    recursively (:func:`chunkwise.scored.split_scored`); a single sentence still too large
    is packed by the engine's fallback (words, then grapheme clusters). So no chunk exceeds
    ``chunk_size`` in its unit.

    Args:
        model, cache, buffer_size, batch_size: see
            :class:`~chunkwise.chunkers.embedding.EmbeddingChunker`.
        threshold_type: ``"percentile"``, ``"standard_deviation"``, ``"interquartile"``,
            ``"gradient"`` or ``"absolute"``.
        threshold: its value (defaults: 95, 3, 1.5, 95, 0.5 -- LangChain's): a percentile
            0..100 (``percentile``, ``gradient``), a number of 0 or more
            (``standard_deviation``, ``interquartile``), a cosine similarity -1..1
            (``absolute``).
        min_chunk_size: the smallest chunk any cut may leave, in ``unit`` (1 to
            ``chunk_size``), where a cut permits; the floor is at least a quarter of
            ``chunk_size - chunk_overlap``.

    Raises:
        ConfigError: an invalid value; the message names it and the fix.

    Metadata: ``boundary`` is ``"semantic"`` (a threshold cut), ``"semantic_split"`` (the
    cap, at the weakest similarity) or the engine's kind; ``boundary_similarity`` is the
    cosine similarity of the sentences on either side of the cut after the chunk (None at
    the end or inside a sentence).

    Method:
        Greg Kamradt, "5 Levels of Text Splitting" (2024), level 4, as in LangChain's
        ``SemanticChunker`` (langchain_experimental), plus a hard size cap and a size floor.

    Example:
        >>> def toy(texts):  # 2-d vectors: "cat" sentences vs the rest
        ...     return [[1.0, 0.0] if "cat" in t else [0.0, 1.0] for t in texts]
        >>> text = "A cat sat. The cat slept. Rain fell. Rain stopped."
        >>> [c.text for c in SemanticChunker(model=toy, threshold_type="absolute", chunk_size=80).chunk(text)]
        ['A cat sat. The cat slept.', 'Rain fell. Rain stopped.']
    """

    threshold_type: ThresholdType = "percentile"
    threshold: float | None = None
    min_chunk_size: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.threshold_type not in THRESHOLD_TYPES:
            raise ConfigError(
                f"threshold_type {self.threshold_type!r} is unknown; choose one of {', '.join(THRESHOLD_TYPES)}"
            )
        if self.threshold is not None:
            if isinstance(self.threshold, bool) or not isinstance(self.threshold, (int, float)):
                raise ConfigError(f"threshold must be a number, not {self.threshold!r}")
            if self.threshold_type in ("percentile", "gradient") and not 0 <= self.threshold <= 100:
                raise ConfigError(
                    f"threshold ({self.threshold}) is a percentile for {self.threshold_type!r}: give 0..100"
                )
            if self.threshold_type == "absolute" and not -1 <= self.threshold <= 1:
                raise ConfigError(f"threshold ({self.threshold}) is a cosine similarity for 'absolute': give -1..1")
            if self.threshold_type in ("standard_deviation", "interquartile") and not 0 <= self.threshold < math.inf:
                what = "standard deviations" if self.threshold_type == "standard_deviation" else "interquartile ranges"
                raise ConfigError(
                    f"threshold ({self.threshold}) is a number of {what} above the mean distance for "
                    f"{self.threshold_type!r}: give a finite number of 0 or more"
                )
        m = self.min_chunk_size
        if isinstance(m, bool) or not isinstance(m, int) or m < 1:
            raise ConfigError(f"min_chunk_size ({m!r}) must be an integer >= 1 ({self.sizer.unit}, as chunk_size)")
        if m > self.chunk_size:
            raise ConfigError(
                f"min_chunk_size ({m}) must not exceed chunk_size ({self.chunk_size} {self.sizer.unit}); "
                "lower min_chunk_size"
            )

    @property
    def floor(self) -> int:
        """The smallest chunk a cut may leave where another permits, in the unit:
        ``max(min_chunk_size, (chunk_size - chunk_overlap) // 4)``."""
        return max(self.min_chunk_size, self.budget // 4)

    def pack_options(self) -> dict[str, int]:
        return {"min_chunk_size": self.min_chunk_size}

    def segments_of(
        self, doc: Document, m: Measure, sents: list[tuple[int, int]]
    ) -> tuple[Segments, SemanticAnalysis]:
        """Threshold groups (small ones joined) and scored sentence cuts of ``doc`` (a
        code fence line alone joins the sentence of its code: no chunk is only a fence;
        in a document loaded from Markdown or HTML a breakpoint right after a heading
        moves before it, and no cut separates a heading from the start of its body
        while the two fit: :func:`~chunkwise.parsers.semantic.heading_glue`)."""
        text = doc.text
        sents = join_bare_sentences(text, join_fence_lines(text, sents))
        sims = consecutive_similarities(self.sentence_vectors(text, sents) if len(sents) > 1 else [])
        value = self.threshold if self.threshold is not None else DEFAULT_THRESHOLDS[self.threshold_type]
        thr = threshold_value(sims, self.threshold_type, value) if len(sims) else float("nan")
        glue = heading_glue(doc)
        found = breakpoints(sims, self.threshold_type, value)
        if glue:
            found = cuts_before_headings(sents, found, glue)
        cuts = merge_small_groups(
            found,
            sims,
            len(sents),
            lambda a, b: m.size(sents[a][0], sents[b - 1][1]),
            self.floor,
        )
        bounds = [0, *(c + 1 for c in cuts), len(sents)]
        groups = list(zip(bounds[:-1], bounds[1:]))
        segs = sentence_segments(text, sents, sims, groups, SEMANTIC, WEAKEST, keep_fences=True, glue=glue)
        return segs, SemanticAnalysis(sents, sims, thr, cuts)
