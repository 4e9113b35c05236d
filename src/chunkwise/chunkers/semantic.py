"""The semantic family: chunks whose sentences belong together by meaning.

* ``"semantic"`` -- cut where the similarity of consecutive sentences drops (a breakpoint
  threshold), with a hard size cap;
* ``"semantic_cluster"`` -- the segmentation into consecutive sentence groups that
  maximises within-chunk similarity under the size cap (dynamic programming);

(``"topic"`` and ``"late"`` live in :mod:`chunkwise.chunkers.topic` and
:mod:`chunkwise.chunkers.late`.)

Every strategy here sizes and packs with the shared engine (:func:`chunkwise.merge.pack`)
and keeps the core invariants: exact offsets, document order, no empty chunk, full
coverage, every chunk within ``chunk_size`` in its unit. Embeddings come from
:mod:`chunkwise.embeddings` (default: an offline model; nothing is downloaded); with
``cache=`` (a path or :class:`~chunkwise.embeddings.EmbeddingCache`) a sentence is never
embedded twice, whatever threshold or size the next run uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import ConfigError
from ..merge import END, Span, add_overlap, pack
from ..registry import register
from ..sentences import SentenceSegmenter, split_sentences
from ..sizers import Measure
from ..types import Chunk, Document
from .base import BaseChunker, as_document

__all__ = [
    "ClusterSemanticChunker",
    "SemanticAnalysis",
    "SemanticChunker",
    "breakpoints",
    "cluster_segments",
    "segmentation_score",
    "threshold_value",
]

ThresholdType = Literal["percentile", "standard_deviation", "interquartile", "gradient", "absolute"]
THRESHOLD_TYPES = ("percentile", "standard_deviation", "interquartile", "gradient", "absolute")
#: LangChain's defaults (absolute: a cosine similarity).
DEFAULT_THRESHOLDS = {
    "percentile": 95.0,
    "standard_deviation": 3.0,
    "interquartile": 1.5,
    "gradient": 95.0,
    "absolute": 0.5,
}

SEMANTIC = "semantic"  # a cut where similarity dropped below the threshold
WEAKEST = "semantic_split"  # a cut at the weakest similarity inside a group over the cap
CLUSTER = "semantic_cluster"


# -- thresholds ---------------------------------------------------------------------------


def threshold_value(similarities: Any, threshold_type: str, threshold: float) -> float:
    """The breakpoint threshold for consecutive-sentence ``similarities``.

    Works on distances ``d = 1 - similarity`` (as LangChain does), except ``absolute``:

    * ``percentile``: ``percentile(d, threshold)`` (linear interpolation);
    * ``standard_deviation``: ``mean(d) + threshold * std(d)`` (population std);
    * ``interquartile``: ``mean(d) + threshold * (q75(d) - q25(d))``;
    * ``gradient``: ``percentile(gradient(d), threshold)``;
    * ``absolute``: ``threshold`` itself, a cosine similarity.

    Returns:
        The value that :func:`breakpoints` compares against (a distance, a gradient of
        distances, or a similarity for ``absolute``); ``nan`` for no similarities.
    """
    import numpy as np

    sims = np.asarray(similarities, dtype=np.float64)
    if threshold_type == "absolute":
        return float(threshold)
    if sims.size == 0:
        return float("nan")
    d = 1.0 - sims
    if threshold_type == "percentile":
        return float(np.percentile(d, threshold))
    if threshold_type == "standard_deviation":
        return float(d.mean() + threshold * d.std())
    if threshold_type == "interquartile":
        q1, q3 = np.percentile(d, [25, 75])
        return float(d.mean() + threshold * (q3 - q1))
    if threshold_type == "gradient":
        g = np.gradient(d) if d.size > 1 else np.zeros_like(d)
        return float(np.percentile(g, threshold))
    raise ConfigError(f"threshold_type {threshold_type!r} is unknown; choose one of {', '.join(THRESHOLD_TYPES)}")


def breakpoints(similarities: Any, threshold_type: str = "percentile", threshold: float | None = None) -> list[int]:
    """Indices ``i`` of the similarities where a cut goes (between sentence ``i`` and ``i+1``).

    A cut where the distance (or, for ``gradient``, its gradient) is strictly above the
    threshold of :func:`threshold_value`; for ``absolute``, where the similarity is strictly
    below ``threshold``.

    Method:
        Greg Kamradt, "5 Levels of Text Splitting" (2024, level 4: semantic splitting), as
        implemented in LangChain's ``SemanticChunker`` (langchain_experimental).

    Example:
        >>> breakpoints([0.9, 0.2, 0.8, 0.85], "absolute", 0.5)
        [1]
    """
    import numpy as np

    if threshold is None:
        threshold = DEFAULT_THRESHOLDS.get(threshold_type, 0.0)
    sims = np.asarray(similarities, dtype=np.float64)
    if sims.size == 0:
        return []
    thr = threshold_value(sims, threshold_type, threshold)
    if threshold_type == "absolute":
        return [int(i) for i in np.flatnonzero(sims < thr)]
    d = 1.0 - sims
    if threshold_type == "gradient":
        d = np.gradient(d) if d.size > 1 else np.zeros_like(d)
    return [int(i) for i in np.flatnonzero(d > thr)]


# -- the shared embedding step ------------------------------------------------------------


def _embedder(model: Any, cache: Any, batch_size: int | None) -> Any:
    from ..embeddings import CachedEmbedder, get_embedder

    kwargs: dict[str, Any] = {}
    if batch_size is not None and (
        model is None or isinstance(model, str) or (callable(model) and not hasattr(model, "embed"))
    ):
        kwargs["batch_size"] = batch_size
    emb = get_embedder(model, **kwargs)
    if cache is not None and not isinstance(emb, CachedEmbedder):
        emb = CachedEmbedder(emb, cache)
    return emb


def _embed_unique(embedder: Any, texts: Sequence[str]) -> Any:
    """Embed ``texts``, each distinct text once."""
    import numpy as np

    uniq = list(dict.fromkeys(texts))
    vecs = np.asarray(embedder.embed(uniq), dtype=np.float32)
    if len(uniq) == len(texts):
        return vecs
    pos = {t: i for i, t in enumerate(uniq)}
    return vecs[[pos[t] for t in texts]]


def _size(m: Measure, s: int, e: int) -> int:
    return m.size(s, e) if m.is_exact else m.exact(s, e)


@dataclass
class SemanticAnalysis:
    """What the semantic strategies saw: sentences, similarities, threshold, spans.

    Attributes:
        sentences: ``(start, end)`` character spans of the sentences.
        similarities: cosine similarity of sentence ``i`` and ``i+1`` (float array, n-1).
        threshold: the threshold :func:`breakpoints` compared against (``nan`` if none).
        cuts: indices ``i`` (between sentence ``i`` and ``i+1``) where the strategy cut
            for meaning (before the size cap).
        spans: the packed spans (after the cap and overlap).
        metadata: per-span extra metadata (``boundary_similarity``).
    """

    sentences: list[tuple[int, int]]
    similarities: Any
    threshold: float
    cuts: list[int]
    spans: list[Span] = field(default_factory=list)
    metadata: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class _EmbeddingChunker(BaseChunker):
    """Common fields of the strategies that embed sentences."""

    model: Any = None
    cache: Any = None
    buffer_size: int = 0
    batch_size: int | None = None
    _emb: list[Any] = field(init=False, repr=False, compare=False, default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.buffer_size, bool) or not isinstance(self.buffer_size, int) or self.buffer_size < 0:
            raise ConfigError(f"buffer_size ({self.buffer_size!r}) must be an integer >= 0 (sentences on each side)")
        if self.batch_size is not None and (
            isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int) or self.batch_size <= 0
        ):
            raise ConfigError(f"batch_size ({self.batch_size!r}) must be a positive integer")

    @property
    def embedder(self) -> Any:
        """The embedder (built on first use from ``model`` and ``cache``)."""
        if not self._emb:
            self._emb.append(_embedder(self.model, self.cache, self.batch_size))
        return self._emb[0]

    def sentence_vectors(self, text: str, sentences: list[tuple[int, int]]) -> Any:
        """Unit vectors of each sentence with ``buffer_size`` neighbours on each side.

        The buffered text is the source slice from the first to the last sentence of the
        window (original whitespace kept). For a linear static model (one with
        ``pooled_sums``, such as the default) the window vector is built from the sentences'
        token sums instead of embedding each window again: the same vector up to how the
        tokenizer cuts at the joins, at the cost of embedding each sentence once. A cached
        embedder embeds the window texts (they are then cached).
        """
        b, n = self.buffer_size, len(sentences)
        emb = self.embedder
        if b and hasattr(emb, "pooled_sums"):  # a linear (static) model: windows from sentence sums
            import numpy as np

            from ..embeddings._common import l2_normalize

            sums, counts = emb.pooled_sums([text[s:e] for s, e in sentences])
            cs = np.vstack([np.zeros((1, sums.shape[1]), sums.dtype), np.cumsum(sums, 0, dtype=np.float64)])
            cc = np.concatenate(([0], np.cumsum(counts)))
            lo = np.maximum(np.arange(n) - b, 0)
            hi = np.minimum(np.arange(n) + b, n - 1) + 1
            return l2_normalize((cs[hi] - cs[lo]) / np.maximum(cc[hi] - cc[lo], 1)[:, None])
        texts = [text[sentences[max(0, i - b)][0] : sentences[min(n - 1, i + b)][1]] for i in range(n)]
        return _embed_unique(emb, texts)

    def _finish(
        self, doc: Document, measure: Measure, spans: list[Span], sims_at: Mapping[int, float]
    ) -> tuple[list[Span], list[dict[str, Any]]]:
        spans = add_overlap(doc.text, measure, spans, self.chunk_size, self.chunk_overlap, (SentenceSegmenter(),))
        meta = [{"boundary_similarity": sims_at.get(s.end)} for s in spans]
        return spans, meta

    def _pack_sentence(self, doc: Document, m: Measure, s: int, e: int, end_cut: str) -> list[Span]:
        """A sentence over the budget, packed by the engine's fallback (words, graphemes)."""
        out = pack(doc.text, m, self.chunk_size - self.chunk_overlap, (), start=s, end=e)
        if out:
            out[-1].boundary = end_cut
        return out

    def chunk(self, document: str | Document) -> list[Chunk]:
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        a = self.analyze(doc)
        return self.build_chunks(doc, a.spans, a.metadata)

    def analyze(self, document: str | Document) -> SemanticAnalysis:  # pragma: no cover - abstract
        raise NotImplementedError


def _similarities(vecs: Any) -> Any:
    import numpy as np

    if len(vecs) < 2:
        return np.zeros(0, dtype=np.float32)
    return np.einsum("ij,ij->i", vecs[:-1], vecs[1:]).astype(np.float32)


@register("semantic")
@dataclass(frozen=True, kw_only=True)
class SemanticChunker(_EmbeddingChunker):
    """Cut where consecutive sentences stop being similar; never exceed ``chunk_size``.

    Each sentence (with ``buffer_size`` neighbours on each side) is embedded; the cosine
    similarity of consecutive sentences gives a curve, and a cut goes where it falls below
    the threshold (see :func:`breakpoints`). ``min_chunk_size`` drops cuts that would leave
    fewer sentences than that in a chunk. Then the hard cap: a group larger than
    ``chunk_size`` (minus ``chunk_overlap``) is split at its weakest internal similarity,
    recursively; a single sentence still too large is packed by the engine's fallback
    (words, then grapheme clusters). So no chunk exceeds ``chunk_size`` in its unit.

    Args:
        model: embedder (name, path, callable or object; see
            :func:`chunkwise.embeddings.get_embedder`); default: the offline default model.
        cache: an :class:`~chunkwise.embeddings.EmbeddingCache` or a SQLite path.
        buffer_size: sentences on each side embedded with each sentence (0: none).
        threshold_type: ``"percentile"``, ``"standard_deviation"``, ``"interquartile"``,
            ``"gradient"`` or ``"absolute"``.
        threshold: its value (defaults: 95, 3, 1.5, 95, 0.5 -- LangChain's; ``absolute`` is
            a cosine similarity).
        min_chunk_size: the fewest sentences a threshold cut may leave in a chunk (>= 1).
        batch_size: texts per embedding batch (default: the embedder's).

    Metadata: ``boundary`` is ``"semantic"`` (a threshold cut), ``"semantic_split"`` (the
    cap, at the weakest similarity) or the engine's kind; ``boundary_similarity`` is the
    cosine similarity of the sentences on either side of the cut after the chunk (None at
    the end or inside a sentence).

    Method:
        Greg Kamradt, "5 Levels of Text Splitting" (2024), level 4, as in LangChain's
        ``SemanticChunker`` (langchain_experimental), plus a hard size cap.

    Example:
        >>> def toy(texts):  # 2-d vectors: "cat" sentences vs the rest
        ...     return [[1.0, 0.0] if "cat" in t else [0.0, 1.0] for t in texts]
        >>> text = "A cat sat. The cat slept. Rain fell. Rain stopped."
        >>> [c.text for c in SemanticChunker(model=toy, threshold_type="absolute").chunk(text)]
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
        if isinstance(self.min_chunk_size, bool) or not isinstance(self.min_chunk_size, int) or self.min_chunk_size < 1:
            raise ConfigError(f"min_chunk_size ({self.min_chunk_size!r}) must be an integer >= 1 (sentences)")

    def analyze(self, document: str | Document) -> SemanticAnalysis:
        """Sentences, similarity curve, threshold, cuts and final spans of ``document``."""
        import numpy as np

        doc = as_document(document)
        text = doc.text
        sents = split_sentences(text)
        m = self._sizer.measure(text)
        if not sents:
            return SemanticAnalysis([], np.zeros(0, dtype=np.float32), float("nan"), [])
        sims = _similarities(self.sentence_vectors(text, sents)) if len(sents) > 1 else np.zeros(0, dtype=np.float32)
        thr_value = self.threshold if self.threshold is not None else DEFAULT_THRESHOLDS[self.threshold_type]
        thr = threshold_value(sims, self.threshold_type, thr_value) if len(sims) else float("nan")
        raw = breakpoints(sims, self.threshold_type, thr_value)
        cuts = self._min_size(raw, len(sents))
        groups, prev = [], 0
        for c in cuts:
            groups.append((prev, c + 1))
            prev = c + 1
        groups.append((prev, len(sents)))
        spans: list[Span] = []
        for gi, (a, b) in enumerate(groups):
            end_cut = END if gi == len(groups) - 1 else SEMANTIC
            self._cap(doc, m, sents, sims, a, b, end_cut, spans)
        sims_at = {sents[i][1]: float(sims[i]) for i in range(len(sims))}
        spans, meta = self._finish(doc, m, spans, sims_at)
        return SemanticAnalysis(sents, sims, thr, cuts, spans, meta)

    def _min_size(self, cuts: list[int], n: int) -> list[int]:
        k = self.min_chunk_size
        out: list[int] = []
        start = 0
        for c in cuts:
            if c + 1 - start >= k and n - (c + 1) >= k:
                out.append(c)
                start = c + 1
        return out

    def _cap(
        self,
        doc: Document,
        m: Measure,
        sents: list[tuple[int, int]],
        sims: Any,
        a: int,
        b: int,
        end_cut: str,
        out: list[Span],
    ) -> None:
        """Spans for sentences ``[a, b)``: one if it fits, else split at the weakest similarity."""
        budget = self.chunk_size - self.chunk_overlap
        s, e = sents[a][0], sents[b - 1][1]
        n = _size(m, s, e)
        if n <= budget:
            out.append(Span(s, e, n, end_cut))
            return
        if b - a == 1:
            out.extend(self._pack_sentence(doc, m, s, e, end_cut))
            return
        inner = sims[a : b - 1]
        k = a + int(inner.argmin())  # first minimum: deterministic
        self._cap(doc, m, sents, sims, a, k + 1, WEAKEST, out)
        self._cap(doc, m, sents, sims, k + 1, b, end_cut, out)


# -- semantic_cluster ---------------------------------------------------------------------


def segmentation_score(sim: Any, segments: Sequence[tuple[int, int]]) -> float:
    """The objective of :func:`cluster_segments`: sum over segments of the sum of the
    centred similarity matrix over the segment's block (diagonal excluded)."""
    import numpy as np

    c = _centred(np.asarray(sim, dtype=np.float64))
    return float(sum(c[a:b, a:b].sum() for a, b in segments))


def _centred(sim: Any) -> Any:
    import numpy as np

    n = sim.shape[0]
    c = sim.copy()
    if n > 1:
        c -= sim[np.triu_indices(n, k=1)].mean()
    np.fill_diagonal(c, 0.0)
    return c


def cluster_segments(
    sim: Any, sizes: Sequence[int] | None = None, budget: int | None = None, max_sentences: int | None = None
) -> tuple[list[tuple[int, int]], float]:
    """Consecutive segments ``[(a, b), ...]`` maximising within-segment similarity.

    Objective: the similarity matrix is centred (the mean off-diagonal similarity is
    subtracted, the diagonal set to 0); a segment scores the sum of its block; the
    segmentation maximises the total. A segment's size (sum of ``sizes``) must be at most
    ``budget`` unless it is a single sentence; at most ``max_sentences`` sentences.
    Solved exactly by dynamic programming over prefix sums: O(n * L) for segments of at
    most L sentences. Ties go to the segmentation with the earliest, longest last segment.

    Args:
        sim: ``[n, n]`` cosine similarity matrix of the sentences.
        sizes: size of each sentence in the unit (``None``: no size cap).
        budget: the largest segment size.
        max_sentences: the most sentences a segment may hold.

    Returns:
        ``(segments, score)``.

    Method:
        ClusterSemanticChunker of Chroma's technical report "Evaluating Chunking Strategies
        for Retrieval" (Smith & Troynikov, 2024), with a corrected recurrence (every
        segment within the cap; negative scores allowed).
    """
    import numpy as np

    sim = np.asarray(sim, dtype=np.float64)
    n = sim.shape[0]
    if n == 0:
        return [], 0.0
    c = _centred(sim)
    p = np.zeros((n + 1, n + 1))
    p[1:, 1:] = c.cumsum(0).cumsum(1)
    size_prefix = np.concatenate(([0], np.cumsum(sizes))) if sizes is not None else None
    best = np.full(n + 1, -np.inf)
    best[0] = 0.0
    back = np.zeros(n + 1, dtype=np.int64)
    for i in range(1, n + 1):
        for j in range(i - 1, -1, -1):  # segment [j, i)
            if max_sentences is not None and i - j > max_sentences:
                break
            if (
                size_prefix is not None
                and budget is not None
                and i - j > 1
                and size_prefix[i] - size_prefix[j] > budget
            ):
                break
            block = p[i, i] - p[j, i] - p[i, j] + p[j, j]
            v = best[j] + block
            if v > best[i] + 1e-12:
                best[i] = v
                back[i] = j
    segs: list[tuple[int, int]] = []
    i = n
    while i > 0:
        segs.append((int(back[i]), i))
        i = int(back[i])
    return segs[::-1], float(best[n])


@register("semantic_cluster")
@dataclass(frozen=True, kw_only=True)
class ClusterSemanticChunker(_EmbeddingChunker):
    """Group consecutive sentences so that within-chunk similarity is globally maximal.

    Sentences are embedded (as for ``"semantic"``); :func:`cluster_segments` finds the
    optimal segmentation under the size cap (``chunk_size`` minus ``chunk_overlap``, in the
    unit: a segment's size is measured on its span, exactly); a single sentence over the
    cap is packed by the engine's fallback.

    Args:
        model, cache, buffer_size, batch_size: as for :class:`SemanticChunker`.
        max_sentences: the most sentences per chunk (None: only the size cap limits).

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

    def analyze(self, document: str | Document) -> SemanticAnalysis:
        import numpy as np

        doc = as_document(document)
        text = doc.text
        sents = split_sentences(text)
        m = self._sizer.measure(text)
        if not sents:
            return SemanticAnalysis([], np.zeros(0, dtype=np.float32), float("nan"), [])
        budget = self.chunk_size - self.chunk_overlap
        vecs = self.sentence_vectors(text, sents) if len(sents) > 1 else np.ones((1, 1), dtype=np.float32)
        sim = vecs @ vecs.T
        # each sentence is sized with the gap before it: a segment's sum is then at least
        # its span's size in chars and words (close for tokens); each chosen segment is
        # measured exactly below and halved if it still does not fit.
        sizes = [_size(m, sents[i - 1][1], sents[i][1]) if i else _size(m, *sents[0]) for i in range(len(sents))]
        segs, _ = cluster_segments(sim, sizes, budget, self.max_sentences)
        spans: list[Span] = []
        for gi, (a, b) in enumerate(segs):
            end_cut = END if gi == len(segs) - 1 else CLUSTER
            self._fit(doc, m, sents, a, b, end_cut, spans)
        sims = _similarities(vecs) if len(sents) > 1 else np.zeros(0, dtype=np.float32)
        sims_at = {sents[i][1]: float(sims[i]) for i in range(len(sims))}
        spans, meta = self._finish(doc, m, spans, sims_at)
        return SemanticAnalysis(sents, sims, float("nan"), [b - 1 for _, b in segs[:-1]], spans, meta)

    def _fit(
        self, doc: Document, m: Measure, sents: list[tuple[int, int]], a: int, b: int, end_cut: str, out: list[Span]
    ) -> None:
        budget = self.chunk_size - self.chunk_overlap
        s, e = sents[a][0], sents[b - 1][1]
        n = _size(m, s, e)
        if n <= budget:
            out.append(Span(s, e, n, end_cut))
        elif b - a == 1:
            out.extend(self._pack_sentence(doc, m, s, e, end_cut))
        else:  # token sizes of parts do not add up exactly: halve
            k = (a + b) // 2
            self._fit(doc, m, sents, a, k, CLUSTER, out)
            self._fit(doc, m, sents, k, b, end_cut, out)
