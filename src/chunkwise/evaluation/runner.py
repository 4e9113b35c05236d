"""Run a retrieval evaluation: chunk, embed, search, score.

:func:`evaluate` scores one chunking configuration; :func:`evaluate_grid` runs a list of
configurations side by side, embedding each question once. Retrieval is over the whole
collection (every document's chunks), as in Chroma's evaluation: a chunk of another
document counts as retrieved and covers nothing.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..api import make_chunker
from ..chunkers.base import BaseChunker
from ..errors import ConfigError
from ..sizers import Sizer, get_sizer
from ..types import Chunk, Document
from .expand import Expander, check_expansion
from .index import ExactIndex
from .metrics import QuestionScores, SpanRef, mean_scores, score_question
from .probes import Question, check_questions

__all__ = ["Embedder", "EvalConfig", "EvaluationResult", "choose_k", "evaluate", "evaluate_grid", "make_grid"]

logger = logging.getLogger(__name__)


class Embedder(Protocol):
    """What the evaluation needs of an embedder (``chunkwise.embeddings`` provides them)."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Any:
        """float32 ``[len(texts), dim]``, rows L2-normalised."""
        ...


@dataclass(frozen=True)
class EvalConfig:
    """One chunking configuration of a grid.

    Attributes:
        strategy: a registered strategy name.
        chunk_size: the largest chunk, in ``unit``.
        chunk_overlap: overlap of consecutive chunks, in ``unit``.
        unit: ``"chars"``, ``"words"`` or ``"tokens"``.
        tokenizer: for tokens: an encoding name or tokenizer path.
        params: the strategy's own parameters, as sorted ``(name, value)`` pairs.
    """

    strategy: str
    chunk_size: int
    chunk_overlap: int = 0
    unit: str = "tokens"
    tokenizer: str = "cl100k_base"
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        """A short name: ``recursive/400/100`` (plus parameters)."""
        extra = "".join(f" {k}={json.dumps(v)}" for k, v in self.params)
        return f"{self.strategy}/{self.chunk_size}/{self.chunk_overlap}{extra}"

    def make_chunker(self) -> BaseChunker:
        """The configured chunker. Raises ConfigError for an invalid configuration."""
        return make_chunker(
            self.strategy,
            chunk_size=self.chunk_size,
            chunk_overlap=self.chunk_overlap,
            unit=self.unit,
            tokenizer=self.tokenizer,
            **dict(self.params),
        )


def make_grid(
    strategies: Iterable[str],
    chunk_sizes: Iterable[int],
    chunk_overlaps: Iterable[int] = (0,),
    unit: str = "tokens",
    tokenizer: str = "cl100k_base",
    params: dict[str, Any] | None = None,
) -> list[EvalConfig]:
    """Every combination of strategy x chunk size x overlap, in that order.

    A value given twice counts once (``[128, 128]`` is one size). Combinations whose
    overlap is not smaller than the chunk size are skipped (logged).

    Raises:
        ConfigError: a list is empty, or no combination is valid.
    """
    strategies, sizes, overlaps = (list(dict.fromkeys(v)) for v in (strategies, chunk_sizes, chunk_overlaps))
    for name, values in (("strategy", strategies), ("chunk_size", sizes), ("chunk_overlap", overlaps)):
        if not values:
            raise ConfigError(f"{name} needs at least one value")
    frozen = tuple(sorted((params or {}).items()))
    out = []
    for s in strategies:
        for n in sizes:
            for o in overlaps:
                if o >= n:
                    logger.info("skipping %s/%s/%s: overlap not smaller than chunk size", s, n, o)
                    continue
                out.append(EvalConfig(s, n, o, unit, tokenizer, frozen))
    if not out:
        raise ConfigError(
            f"no valid configuration: every chunk_overlap {overlaps} is >= every chunk_size {sizes}; "
            "use overlaps smaller than the chunk sizes"
        )
    return out


@dataclass
class EvaluationResult:
    """The outcome of one configuration.

    Attributes:
        label: the configuration's name (``recursive/400/0``).
        config: the configuration, when it came from a grid.
        k: chunks retrieved per question (at most ``n_chunks``: the effective k).
        n_chunks: chunks in the collection (all documents).
        mean_chunk_tokens: mean tokens of a chunk (token counter of the evaluation).
        scores: per-question scores, in question order.
        question_ids: the ids of the questions, same order.
        means: the mean of every metric over the questions.
        seconds: wall time of each stage (``chunk``, ``embed``, ``search``, ``score``).
        embedded: texts sent to the embedder (after any cache).
        budget_tokens: the token budget k was chosen for, if any.
    """

    label: str
    k: int
    n_chunks: int
    mean_chunk_tokens: float
    scores: list[QuestionScores]
    question_ids: list[str]
    means: dict[str, float]
    seconds: dict[str, float] = field(default_factory=dict)
    config: EvalConfig | None = None
    budget_tokens: int | None = None

    @property
    def over_budget(self) -> bool:
        """Whether this configuration retrieved more than its token budget with a single
        chunk per question: one chunk is larger than the budget (k is at least 1), so it
        is not compared at an equal budget with the others."""
        return self.budget_tokens is not None and self.k <= 1 and self.means.get("tokens", 0.0) > self.budget_tokens

    def row(self) -> dict[str, Any]:
        """A flat record: configuration, k, chunk count and mean metrics (for CSV/JSON)."""
        cfg = self.config
        out: dict[str, Any] = {"config": self.label}
        if cfg is not None:
            out.update(strategy=cfg.strategy, chunk_size=cfg.chunk_size, chunk_overlap=cfg.chunk_overlap, unit=cfg.unit)
        out.update(k=self.k, chunks=self.n_chunks, mean_chunk_tokens=round(self.mean_chunk_tokens, 2))
        out.update({name: value for name, value in self.means.items() if name != "k"})
        out["seconds"] = round(sum(self.seconds.values()), 3)
        if self.budget_tokens is not None:
            out["over_budget"] = self.over_budget
        return out


def choose_k(budget_tokens: int, mean_chunk_tokens: float) -> int:
    """k that retrieves about ``budget_tokens`` tokens: ``round(budget / mean chunk tokens)``, at least 1.

    Raises:
        ConfigError: ``budget_tokens`` is not positive.
    """
    if budget_tokens <= 0:
        raise ConfigError(f"budget_tokens ({budget_tokens}) must be a positive number of tokens")
    if mean_chunk_tokens <= 0:
        return 1
    return max(1, round(budget_tokens / mean_chunk_tokens))


def _embed(embedder: Embedder, texts: Sequence[str], batch: int, tick: Callable[[int], None] | None) -> Any:
    import numpy as np

    if not texts:
        return np.zeros((0, int(getattr(embedder, "dim", 0) or 0)), dtype=np.float32)
    parts = []
    for i in range(0, len(texts), batch):
        part = texts[i : i + batch]
        parts.append(np.asarray(embedder.embed(part), dtype=np.float32))
        if tick is not None:
            tick(len(part))
    return np.concatenate(parts, axis=0)


def evaluate(
    documents: Sequence[Document],
    questions: Sequence[Question],
    chunker: BaseChunker,
    embedder: Embedder,
    k: int = 5,
    *,
    budget_tokens: int | None = None,
    token_sizer: Sizer | None = None,
    expand: str | Callable[[Chunk], SpanRef] | None = None,
    merge_ratio: float = 0.5,
    budget_per_question: bool = False,
    query_vectors: Any = None,
    label: str | None = None,
    batch_size: int = 256,
    tick: Callable[[int], None] | None = None,
) -> EvaluationResult:
    """Evaluate one chunking configuration on a labelled probe set.

    Chunks every document, embeds every chunk (``chunk.text_for_embedding()``; of a
    hierarchical chunker, the leaves: chunks whose ``metadata["leaf"]`` is False are not
    embedded), retrieves
    the top-k chunks of the whole collection for each question by cosine similarity, and
    scores the character spans returned against the references.

    Args:
        documents: the collection.
        questions: the probe set (see :mod:`chunkwise.evaluation.probes`); a reference
            names its document by id, relative path or stem (see
            :class:`~chunkwise.evaluation.probes.DocumentNames`).
        chunker: any chunker (``chunkwise.make_chunker(...)``).
        embedder: an object with ``embed(texts) -> float32 [n, dim]`` (L2-normalised rows),
            such as ``chunkwise.embeddings.get_embedder()``; wrap it in the embeddings
            cache so that a re-run embeds nothing.
        k: chunks retrieved per question (more than the collection holds returns all).
        budget_tokens: if given, k is chosen so that a question retrieves about this many
            tokens (``round(budget / mean tokens of a returned span)``, at least 1),
            replacing ``k``; a configuration whose single chunk is larger than the budget
            is marked :attr:`EvaluationResult.over_budget`.
        budget_per_question: with ``budget_tokens``: each question gets the spans of its
            best hits, in rank order, while their tokens stay within the budget (at least
            one span), instead of the same k for every question; ``k`` is then the mean
            number of spans returned. Always so for ``expand="merged"`` and ``"window"``.
        token_sizer: counts the tokens retrieved (default cl100k, exact).
        expand: what is returned for the chunks matched, and scored: a name of
            :mod:`chunkwise.evaluation.expand` (``"none"``, ``"window"``: the sentence
            window, ``"parent"``: the parent chunk, ``"merged"``: auto-merging), or a
            function mapping a matched chunk to the span returned. Returned spans that
            repeat keep their first rank; tokens and ``k`` count returned spans. Only
            the leaves of a hierarchy are embedded and matched. ``"merged"`` matches
            ``k`` leaves and merges them (fewer spans may come back); with
            ``budget_tokens`` it matches leaves, best first, while the merged spans stay
            within the budget (at least one). ``"window"`` the same way: ``k`` sentences
            matched, their overlapping windows joined into one span.
        merge_ratio: for ``expand="merged"``: the share of a parent's children that must
            be matched for the parent to replace them (default 0.5).
        query_vectors: the questions' vectors, ``[len(questions), dim]``, if already
            computed (a grid embeds them once).
        label: a name for the result (default: the chunker's strategy and sizes).
        batch_size: texts per call to ``embedder.embed``.
        tick: called with the number of texts after each embedding batch (progress).

    Returns:
        An :class:`EvaluationResult` with per-question scores and their means.

    Raises:
        ConfigError: ``k < 1``, an unknown expansion or chunks without its metadata, or
            a reference names an unknown document (or a name several documents share)
            or does not match its text.

    Method:
        Smith & Troynikov, "Evaluating Chunking Strategies for Retrieval" (Chroma
        technical report, 2024): retrieval over all corpora at once, scores over
        character spans (see :mod:`chunkwise.evaluation.metrics`). Search is exact
        (:class:`~chunkwise.evaluation.index.ExactIndex`).

    Example:
        >>> # result = evaluate(docs, load_questions("q.csv"), make_chunker("recursive",
        >>> #     chunk_size=200, unit="tokens"), get_embedder(), k=5); result.means["iou"]
    """
    if k < 1:
        raise ConfigError(f"k ({k}) must be at least 1")
    if isinstance(expand, str):
        check_expansion(expand)
    questions = check_questions(questions, documents)  # names resolved to document ids
    texts = {d.id: d.text for d in documents}
    sizer = token_sizer if token_sizer is not None else get_sizer("tokens", "cl100k_base")
    seconds: dict[str, float] = {}

    t0 = time.perf_counter()
    all_chunks: list[Chunk] = [c for d in documents for c in chunker.chunk(d)]
    # a hierarchical chunker returns every level: only the leaves are embedded and searched
    # (the upper levels stay in all_chunks, for an expansion that returns a parent)
    chunks = [c for c in all_chunks if c.metadata.get("leaf", True)]
    seconds["chunk"] = time.perf_counter() - t0
    # checked before embedding: the chunks carry what the expansion reads
    expander = Expander(all_chunks, expand, merge_ratio=merge_ratio) if isinstance(expand, str) else None
    if expander is not None and expander.how == "none":
        expander = None

    t0 = time.perf_counter()
    vectors = _embed(embedder, [c.text_for_embedding() for c in chunks], batch_size, tick)
    if query_vectors is None:
        query_vectors = _embed(embedder, [q.text for q in questions], batch_size, None)
    seconds["embed"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    mapped = callable(expand) or expander is not None
    if expander is not None and expander.per_hit:
        spans: list[SpanRef] = [expander.one(c).span for c in chunks]
    elif callable(expand):
        spans = [expand(c) for c in chunks]
    else:
        spans = [(c.document_id, c.start_index, c.end_index) for c in chunks]
    # a chunk measured in this sizer's unit already knows its exact count
    token_memo: dict[SpanRef, int] = {
        (c.document_id, c.start_index, c.end_index): c.size for c in all_chunks if c.unit == sizer.unit
    }

    def tokens_of(span: SpanRef) -> int:
        if span not in token_memo:
            doc, s, e = span
            token_memo[span] = sizer.count(texts[doc][s:e]) if doc in texts else 0
        return token_memo[span]

    index = ExactIndex(vectors)
    merged = expander is not None and expander.joint  # what returns depends on the hits together
    if merged:
        # what a flat run could return: the searched chunks as each returns alone (leaves,
        # not every level: a merged parent enters the ideal ranking of the question it is
        # returned for; their windows, not windows joined)
        candidates = list(dict.fromkeys(spans))

        def spans_of(hits: Sequence[int]) -> list[SpanRef]:
            return [r.span for r in expander.expand([chunks[i] for i in hits])]  # type: ignore[union-attr]

        mean_tokens = sum(tokens_of(s) for s in spans) / len(spans) if spans else 0.0
    else:
        candidates = list(dict.fromkeys(spans))

        def spans_of(hits: Sequence[int]) -> list[SpanRef]:
            return list(dict.fromkeys(spans[i] for i in hits))

        mean_tokens = sum(tokens_of(s) for s in candidates) / len(candidates) if candidates else 0.0
    if budget_tokens is not None:
        k = choose_k(budget_tokens, mean_tokens)
    if budget_tokens is not None and (merged or budget_per_question):
        returned_lists, k = _fill_budget(index, query_vectors, spans_of, k, budget_tokens, tokens_of)
    elif merged:
        returned_lists = [spans_of(hits) for hits in index.search(query_vectors, k)[0]]
    else:
        # an expansion can return one span for several hits: search deeper, so k distinct come back
        returned_lists = _top_distinct(index, query_vectors, spans, k, deep=mapped)
    seconds["search"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    scores = []
    for q, returned in zip(questions, returned_lists):
        scores.append(score_question(returned, q.references, candidates, [tokens_of(s) for s in returned]))
    seconds["score"] = time.perf_counter() - t0
    name = label or f"{chunker.name or type(chunker).__name__}/{chunker.chunk_size}/{chunker.chunk_overlap}"
    return EvaluationResult(
        label=name,
        k=min(k, len(chunks)) if chunks else k,  # the effective k: a search returns at most every chunk
        n_chunks=len(chunks),
        mean_chunk_tokens=mean_tokens,
        scores=scores,
        question_ids=[q.id for q in questions],
        means=mean_scores(scores),
        seconds=seconds,
        budget_tokens=budget_tokens,
    )


def _top_distinct(index: ExactIndex, queries: Any, spans: Sequence[SpanRef], k: int, deep: bool) -> list[list[SpanRef]]:
    """Per query, the first ``k`` distinct spans of its hits, best first (searching all
    rows for a query whose first hits repeat spans too often)."""
    n = len(index)
    depth = min(n, 4 * k + 32) if deep else k
    ids, _ = index.search(queries, depth)
    out = []
    for qi, hits in enumerate(ids):
        got = list(dict.fromkeys(spans[i] for i in hits))
        if len(got) < k and depth < n:
            hits = index.search(queries[qi : qi + 1], n)[0][0]
            got = list(dict.fromkeys(spans[i] for i in hits))
        out.append(got[:k])
    return out


def _fill_budget(
    index: ExactIndex,
    queries: Any,
    spans_of: Callable[[Sequence[int]], list[SpanRef]],
    k: int,
    budget: int,
    tokens_of: Callable[[SpanRef], int],
) -> tuple[list[list[SpanRef]], int]:
    """Per query, what the longest run of best hits returns (``spans_of`` of the first m
    hits) while it holds at most ``budget`` tokens; the first hit always. ``k`` (the
    estimate from the mean) sets how deep to search first. Returns the spans per query
    and the mean number of spans returned."""
    n = len(index)
    ids, _ = index.search(queries, min(n, 4 * k + 32))
    out: list[list[SpanRef]] = []
    for qi, hits in enumerate(ids):
        best: list[SpanRef] = []
        m = 0
        while True:
            if m == len(hits):
                if len(hits) < n:  # every hit fitted: search all rows and go on
                    hits = index.search(queries[qi : qi + 1], n)[0][0]
                    continue
                break
            m += 1
            got = spans_of(hits[:m])
            if m > 1 and sum(tokens_of(s) for s in got) > budget:
                break
            best = got
        out.append(best)
    return out, max(1, round(sum(map(len, out)) / len(out))) if out else k

def evaluate_grid(
    documents: Sequence[Document],
    questions: Sequence[Question],
    configs: Sequence[EvalConfig],
    embedder: Embedder,
    k: int = 5,
    *,
    budget_tokens: int | None = None,
    progress: bool = False,
    batch_size: int = 256,
    expand: str | None = None,
    merge_ratio: float = 0.5,
    budget_per_question: bool = False,
) -> list[EvaluationResult]:
    """Evaluate several configurations on the same probe set, questions embedded once.

    Args:
        documents, questions, embedder, k, budget_tokens, batch_size, expand,
            merge_ratio, budget_per_question: as :func:`evaluate` (``expand`` by name; a configuration's label
            ends with `` expand=<name>`` unless it is ``"none"``).
        configs: the configurations (see :func:`make_grid`).
        progress: show progress bars (tqdm, on standard error): configurations done, and
            chunks embedded or found in the cache.

    Returns:
        One :class:`EvaluationResult` per configuration, in order.

    Raises:
        ConfigError: an invalid configuration (raised before any embedding).
    """
    import sys

    from tqdm import tqdm

    chunkers = [c.make_chunker() for c in configs]  # validate every configuration first
    suffix = f" expand={check_expansion(expand)}" if expand is not None and expand != "none" else ""
    sizer = get_sizer("tokens", "cl100k_base")
    questions = check_questions(questions, documents)  # names resolved to document ids
    qvecs = _embed(embedder, [q.text for q in questions], batch_size, None)
    results = []
    with (
        tqdm(
            total=len(configs), desc="evaluating", unit="config", disable=not progress, file=sys.stderr, position=0
        ) as bar,
        tqdm(
            desc="chunks embedded", unit="chunk", disable=not progress, file=sys.stderr, position=1, leave=False
        ) as texts,
    ):
        for cfg, chunker in zip(configs, chunkers):
            bar.set_postfix_str(cfg.label)
            res = evaluate(
                documents,
                questions,
                chunker,
                embedder,
                k,
                budget_tokens=budget_tokens,
                token_sizer=sizer,
                query_vectors=qvecs,
                label=cfg.label + suffix,
                expand=expand,
                merge_ratio=merge_ratio,
                budget_per_question=budget_per_question,
                batch_size=batch_size,
                tick=texts.update,
            )
            res.config = cfg
            results.append(res)
            bar.update(1)
    return results
