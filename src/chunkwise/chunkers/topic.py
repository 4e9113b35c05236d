"""Topic chunking: a cut where the dominant LDA topic of consecutive paragraphs changes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..boundaries import PARAGRAPH, PositionsLevel, line_feed_twin
from ..errors import ConfigError
from ..parsers.semantic import cuts_before_headings, glue_levels, heading_glue
from ..registry import register
from ..sizers import Measure, exact_size
from ..segments import Segments
from ..types import Document
from .base import BaseChunker
from .recursive import DEFAULT_LEVELS

__all__ = ["TopicChunker"]

TOPIC = "topic"


@register("topic")
@dataclass(frozen=True, kw_only=True)
class TopicChunker(BaseChunker):
    """Cut where the dominant LDA topic of consecutive paragraphs changes.

    Paragraphs (blank-line separated) are turned into word counts (scikit-learn
    ``CountVectorizer``, English stop words removed) and an LDA model with ``n_topics``
    topics is fitted on the document's own paragraphs; each paragraph gets its most
    probable topic, and a boundary goes where it changes. A topic change is the strongest
    boundary, not a forced cut: the packer (:func:`chunkwise.packer.pack_segments`) fills
    each chunk up to ``chunk_size`` and ends it at the last topic change that fits, else at
    the boundaries of the ``recursive`` strategy (a page, a paragraph, a hard line break, a
    sentence, a line, a clause, a word). So paragraphs of several short topics share
    a chunk, and a chunk under a quarter of ``chunk_size`` is evened out with a neighbour
    where a boundary allows, as in the other strategies. A text that fits ``chunk_size``
    is one chunk (no topic model is fitted).

    Args:
        n_topics: number of LDA topics (>= 2).
        random_state: seed of the first LDA fit (results are deterministic for a seed).
        restarts: LDA fits with seeds ``random_state``, ``random_state + 1``, ...; the one
            with the highest likelihood bound is kept (LDA has local optima).

    Raises:
        MissingDependencyError: scikit-learn is not installed (extra ``topic``).

    Method:
        Latent Dirichlet Allocation (Blei, Ng & Jordan 2003), online variational Bayes as
        in scikit-learn; topic-change segmentation in the spirit of TopicTiling (Riedl &
        Biemann 2012).
    """

    n_topics: int = 5
    random_state: int = 0
    restarts: int = 4

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.n_topics, bool) or not isinstance(self.n_topics, int) or self.n_topics < 2:
            raise ConfigError(f"n_topics ({self.n_topics!r}) must be an integer >= 2")
        if isinstance(self.restarts, bool) or not isinstance(self.restarts, int) or self.restarts < 1:
            raise ConfigError(f"restarts ({self.restarts!r}) must be an integer >= 1")

    def paragraphs(self, text: str) -> list[tuple[int, int]]:
        """Paragraph spans, trimmed."""
        from .._text import trim

        out, prev = [], 0
        for a, b in PARAGRAPH.cuts(text, 0, len(text)):
            s, e = trim(text, prev, a)
            if s < e:
                out.append((s, e))
            prev = b
        s, e = trim(text, prev, len(text))
        if s < e:
            out.append((s, e))
        return out

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """Topic changes (boundary ``"topic"``) as the strongest level, then the levels of
        the ``recursive`` strategy; one region. A text whose lines end with a lone carriage
        return (a classic Mac OS file) is read as its twin with line feeds there (same
        length, same offsets), as the packer packs it. In a document loaded from
        Markdown or HTML a topic change right after a heading moves before it, and no
        cut separates a heading from the start of its body while the two fit
        (:func:`~chunkwise.parsers.semantic.heading_glue`). No topic model is fitted
        for a text that fits the budget (``chunk_size - chunk_overlap``) in ``measure``:
        it is one chunk whatever its topics."""
        twin = line_feed_twin(document.text)
        text = twin or document.text
        paras = self.paragraphs(text)
        levels: tuple = DEFAULT_LEVELS
        changes = self.topic_changes(text, paras, measure)
        glue = heading_glue(document if twin is None else replace(document, text=twin))
        if glue:
            changes = cuts_before_headings(paras, changes, glue)
            levels = glue_levels(levels)
        if changes:
            starts = [paras[i][1] for i in changes]
            levels = (PositionsLevel(TOPIC, starts, [paras[i + 1][0] for i in changes]), *levels)
        return Segments(levels=levels, glue=glue, twin=twin)

    def topic_changes(self, text: str, paras: list[tuple[int, int]], measure: Measure | None = None) -> list[int]:
        """The indices ``i`` of ``paras`` after which the dominant topic changes (none
        for fewer than two paragraphs, or a text that fits the budget in ``measure``)."""
        if len(paras) < 2:
            return []
        if measure is not None:
            budget = self.chunk_size - self.chunk_overlap
            if measure.advance(paras[0][0], paras[-1][1], budget) >= paras[-1][1] and (
                exact_size(measure, paras[0][0], paras[-1][1]) <= budget
            ):
                return []
        labels = _lda_labels([text[s:e] for s, e in paras], self.n_topics, self.random_state, self.restarts)
        return [i for i in range(len(paras) - 1) if labels[i + 1] != labels[i]]

def _lda_labels(paragraphs: list[str], n_topics: int, seed: int, restarts: int = 4) -> list[int]:
    if len(paragraphs) < 2:
        return [0] * len(paragraphs)
    from ..embeddings._common import need

    need("sklearn", "scikit-learn", "topic", "the topic strategy")
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.feature_extraction.text import CountVectorizer

    try:
        counts = CountVectorizer(stop_words="english").fit_transform(paragraphs)
    except ValueError:  # no word left (numbers, punctuation, stop words only)
        return [0] * len(paragraphs)
    best: tuple[float, Any] | None = None
    for k in range(restarts):  # LDA has local optima on small inputs: keep the likeliest fit
        lda = LatentDirichletAllocation(n_components=n_topics, random_state=seed + k, learning_method="batch")
        dist = lda.fit_transform(counts)
        score = float(lda.score(counts))
        if best is None or score > best[0]:
            best = (score, dist)
    assert best is not None
    return [int(x) for x in best[1].argmax(axis=1)]
