"""Measure which chunking retrieves best.

* :func:`evaluate` / :func:`evaluate_grid`: chunk, embed, retrieve top-k over the whole
  collection, and score span recall, precision, IoU, precision_omega, recall@k, MRR and
  nDCG (after Smith & Troynikov, "Evaluating Chunking Strategies for Retrieval", Chroma
  technical report, 2024), plus the tokens retrieved per question.
* :func:`expand` / :class:`Expander`: what is returned for the chunks matched (``none``,
  the sentence ``window``, the ``parent``, auto-``merged`` parents), scored by ``evaluate``.
* :func:`score_question`: the metrics alone, over spans ``(document_id, start, end)``.
* :func:`load_questions` / :func:`load_corpus`: probe sets (Chroma's CSV or JSON lines) and
  the documents they name (:class:`DocumentNames`: stem, relative path or id).
* :func:`calibrate`: the configuration of a grid that maximises a metric.
* :func:`chunk_stats`: size, fill and boundary statistics without embeddings.

Importing this package loads no numpy; the search and the embeddings load it when run.
"""

from __future__ import annotations

from .calibration import calibrate
from .diagnostics import ChunkStats, chunk_stats
from .expand import EXPANSIONS, Expander, Returned, expand
from .index import ExactIndex
from .metrics import METRIC_NAMES, QuestionScores, SpanRef, mean_scores, score_question
from .probes import (
    DocumentNames,
    Question,
    SkippedFile,
    check_questions,
    load_corpus,
    load_questions,
    resolve_questions,
)
from .runner import EvalConfig, EvaluationResult, choose_k, evaluate, evaluate_grid, make_grid

__all__ = [
    "EXPANSIONS",
    "METRIC_NAMES",
    "ChunkStats",
    "DocumentNames",
    "EvalConfig",
    "EvaluationResult",
    "ExactIndex",
    "Expander",
    "Question",
    "QuestionScores",
    "Returned",
    "SkippedFile",
    "SpanRef",
    "calibrate",
    "check_questions",
    "choose_k",
    "chunk_stats",
    "evaluate",
    "evaluate_grid",
    "expand",
    "load_corpus",
    "load_questions",
    "make_grid",
    "mean_scores",
    "resolve_questions",
    "score_question",
]
