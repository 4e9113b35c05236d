"""Sentence analysis for the semantic strategies: embeddings, similarities, segments.

The steps every embedding strategy shares, each a plain function:

* :func:`make_embedder`: the embedder for a ``model``/``cache``/``batch_size``;
* :func:`buffered_vectors`: one unit vector per sentence, with ``buffer_size`` neighbours
  on each side;
* :func:`consecutive_similarities`: the cosine similarity of sentence ``i`` and ``i+1``;
* :func:`sentence_segments`: sentence groups (regions), sentence cuts scored by similarity
  and the ``boundary_similarity`` labels, as the :class:`~chunkwise.segments.Segments` the
  packer reads.

numpy and the embedding models load on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..merge import Span
from ..segments import Label, Region, ScoredCuts, Segments
from ..sentences import SentenceSegmenter

__all__ = [
    "SIMILARITY_KEY",
    "SemanticAnalysis",
    "buffered_vectors",
    "consecutive_similarities",
    "embed_unique",
    "make_embedder",
    "sentence_segments",
    "similarity_labels",
]

SIMILARITY_KEY = "boundary_similarity"


@dataclass
class SemanticAnalysis:
    """What a semantic strategy saw: sentences, similarities, threshold, cuts, spans.

    Attributes:
        sentences: ``(start, end)`` character spans of the sentences.
        similarities: cosine similarity of sentence ``i`` and ``i+1`` (float array, n-1).
        threshold: the threshold :func:`~chunkwise.thresholds.breakpoints` compared
            against (``nan`` if none).
        cuts: indices ``i`` (between sentence ``i`` and ``i+1``) where the strategy cut
            for meaning (before the size cap), after small groups were joined.
        spans: the packed spans (after the cap and overlap).
        metadata: per-span extra metadata (``boundary_similarity``).
        segments: what the parser handed to the packer.
    """

    sentences: list[tuple[int, int]]
    similarities: Any
    threshold: float
    cuts: list[int]
    spans: list[Span] = field(default_factory=list)
    metadata: list[dict[str, Any]] = field(default_factory=list)
    segments: Segments | None = None


def make_embedder(model: Any, cache: Any, batch_size: int | None) -> Any:
    """The embedder for ``model`` (see :func:`chunkwise.embeddings.get_embedder`), wrapped in
    a :class:`~chunkwise.embeddings.CachedEmbedder` when ``cache`` (a path or cache) is set.

    Raises:
        MissingDependencyError: the model's extra is not installed.
        ConfigError: an unknown model.
    """
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


def embed_unique(embedder: Any, texts: Sequence[str]) -> Any:
    """``embedder.embed(texts)`` as a float32 array, each distinct text embedded once."""
    import numpy as np

    uniq = list(dict.fromkeys(texts))
    vecs = np.asarray(embedder.embed(uniq), dtype=np.float32)
    if len(uniq) == len(texts):
        return vecs
    pos = {t: i for i, t in enumerate(uniq)}
    return vecs[[pos[t] for t in texts]]


def buffered_vectors(embedder: Any, text: str, sentences: Sequence[tuple[int, int]], buffer_size: int) -> Any:
    """Unit vectors of each sentence with ``buffer_size`` neighbours on each side.

    The buffered text is the source slice from the first to the last sentence of the
    window (original whitespace kept). For a linear static model (one with
    ``pooled_sums``, such as the default) the window vector is built from the sentences'
    token sums instead of embedding each window again: the same vector up to how the
    tokenizer cuts at the joins, at the cost of embedding each sentence once. A cached
    embedder embeds the window texts (they are then cached).

    Args:
        embedder: an embedder (``embed(texts) -> [n, d]`` unit vectors).
        text: the document text.
        sentences: sentence spans (characters), in order.
        buffer_size: sentences on each side (>= 0).

    Returns:
        A float ``[len(sentences), d]`` array.
    """
    b, n = buffer_size, len(sentences)
    if b and hasattr(embedder, "pooled_sums"):  # a linear (static) model: windows from sentence sums
        import numpy as np

        from ..embeddings._common import l2_normalize

        sums, counts = embedder.pooled_sums([text[s:e] for s, e in sentences])
        cs = np.vstack([np.zeros((1, sums.shape[1]), sums.dtype), np.cumsum(sums, 0, dtype=np.float64)])
        cc = np.concatenate(([0], np.cumsum(counts)))
        lo = np.maximum(np.arange(n) - b, 0)
        hi = np.minimum(np.arange(n) + b, n - 1) + 1
        return l2_normalize((cs[hi] - cs[lo]) / np.maximum(cc[hi] - cc[lo], 1)[:, None])
    texts = [text[sentences[max(0, i - b)][0] : sentences[min(n - 1, i + b)][1]] for i in range(n)]
    return embed_unique(embedder, texts)


def consecutive_similarities(vecs: Any) -> Any:
    """Cosine similarity of rows ``i`` and ``i+1`` of unit vectors (float32, ``n - 1``)."""
    import numpy as np

    if len(vecs) < 2:
        return np.zeros(0, dtype=np.float32)
    return np.einsum("ij,ij->i", vecs[:-1], vecs[1:]).astype(np.float32)


def similarity_labels(
    text: str, sentences: Sequence[tuple[int, int]], similarities: Sequence[float]
) -> tuple[Label, ...]:
    """``boundary_similarity`` labels (rule ``"end"``): a chunk that ends where sentence
    ``i`` ends gets ``similarities[i]``; one that ends inside a sentence or at the end of
    the text gets ``None``.

    The labels tile the text with closed ranges that do not overlap: the gap after each
    sentence (its end to the next one's start) carries the similarity, the inside of each
    sentence and the end of the text carry ``None``.
    """
    out: list[Label] = []
    n = len(sentences)
    for i, (s, e) in enumerate(sentences):
        if s + 1 <= e - 1:
            out.append(Label(s + 1, e - 1, SIMILARITY_KEY, None, "end"))
        if i + 1 < n:
            out.append(Label(e, sentences[i + 1][0], SIMILARITY_KEY, float(similarities[i]), "end"))
        else:
            out.append(Label(e, len(text), SIMILARITY_KEY, None, "end"))
    return tuple(out)


def sentence_segments(
    text: str,
    sentences: Sequence[tuple[int, int]],
    similarities: Sequence[float],
    groups: Sequence[tuple[int, int]],
    group_boundary: str,
    split_name: str,
) -> Segments:
    """Segments of sentence groups for the packer.

    Args:
        text: the document text.
        sentences: sentence spans (characters), in order.
        similarities: similarity of sentence ``i`` and ``i+1``.
        groups: consecutive sentence index ranges ``[a, b)`` covering all sentences; each
            is a region (no chunk crosses it).
        group_boundary: the boundary name of the cut after a group ("semantic").
        split_name: the boundary name of a size-cap cut inside a group (``ScoredCuts.name``).

    Returns:
        :class:`~chunkwise.segments.Segments` with the groups as regions, every sentence cut
        scored by its similarity (split weakest first when a group is over the budget),
        sentences as the level below (the fallback), the ``boundary_similarity`` labels, and
        overlap allowed across groups.
    """
    regions = tuple(
        Region(sentences[a][0], sentences[b - 1][1], end_boundary=group_boundary if b < len(sentences) else "end")
        for a, b in groups
    )
    scored = ScoredCuts(
        split_name,
        tuple(e for _, e in sentences[:-1]),
        tuple(s for s, _ in sentences[1:]),
        tuple(float(x) for x in similarities),
    )
    return Segments(
        levels=(SentenceSegmenter(),),
        regions=regions,
        labels=similarity_labels(text, sentences, similarities),
        scored=scored,
        overlap_across_regions=True,
    )
