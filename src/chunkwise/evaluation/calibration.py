"""Pick the configuration of a grid that maximises a metric, with a deterministic tie-break."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError
from .metrics import METRIC_NAMES, bootstrap_ci
from .runner import EvaluationResult

__all__ = [
    "CALIBRATION_METRICS",
    "DEFAULT_METRIC",
    "TIE_BREAKERS",
    "calibrate",
    "confidence_interval",
    "fixed_k_warning",
    "indistinguishable",
    "tie_notice",
]

CALIBRATION_METRICS = tuple(m for m in METRIC_NAMES if m != "tokens")

DEFAULT_METRIC = "recall"
"""What ``calibrate`` maximises by default: span recall, compared at an equal token budget
(at a fixed k, recall rises with the chunk size and IoU as chunks shrink, whatever they
retrieve; at an equal budget both compare like with like)."""

TIE_BREAKERS = ("ndcg", "mrr", "iou")
"""The metrics that order configurations whose ranking metric is equal, in this order
(the ranking metric itself left out); then :func:`canonical_key`."""


def canonical_key(result: EvaluationResult) -> tuple[Any, ...]:
    """The last tie-break: the configuration's strategy, chunk size, overlap, unit,
    tokenizer and parameters (numbers compared as numbers), else its label; independent
    of the order the grid was given in."""
    cfg = result.config
    if cfg is None:
        return ("", 0, 0, "", "", "", result.label)
    return (cfg.strategy, cfg.chunk_size, cfg.chunk_overlap, cfg.unit, cfg.tokenizer,
            json.dumps(cfg.params, sort_keys=True, default=str), result.label)


def calibrate(
    results: Sequence[EvaluationResult],
    metric: str = DEFAULT_METRIC,
    max_tokens: float | None = None,
) -> tuple[EvaluationResult, list[EvaluationResult]]:
    """Rank evaluated configurations by a mean metric and return the best.

    Args:
        results: the evaluated grid (:func:`~chunkwise.evaluation.evaluate_grid`), best
            compared at an equal token budget (``budget_tokens=``).
        metric: one of ``CALIBRATION_METRICS`` (default ``recall``; ``iou``, ``ndcg``, ...).
        max_tokens: if given, only configurations whose mean tokens retrieved per
            question is at most this many compete.

    Returns:
        ``(best, ranked)``: the winner and every eligible result, best first. A
        configuration over its budget (:attr:`EvaluationResult.over_budget`: one chunk
        is larger than the budget, so it retrieved more than the others) does not compete
        while another does. Ties on ``metric`` are broken by :data:`TIE_BREAKERS`
        (nDCG, MRR, then IoU), then by :func:`canonical_key`: the winner does not depend
        on the order of ``results``.

    Raises:
        ConfigError: an unknown metric, an empty grid, or no configuration within
            ``max_tokens``.

    Method:
        Exhaustive grid search (the results are already computed; calibration only ranks).
    """
    if metric not in CALIBRATION_METRICS:
        raise ConfigError(f"metric {metric!r} is not one of {', '.join(CALIBRATION_METRICS)}")
    if not results:
        raise ConfigError("calibrate needs at least one evaluated configuration")
    eligible = [r for r in results if max_tokens is None or r.means["tokens"] <= max_tokens]
    if not eligible:
        least = min(r.means["tokens"] for r in results)
        raise ConfigError(
            f"no configuration retrieves at most {max_tokens} tokens per question (the least is {least:.0f}); "
            "raise max_tokens (--max-tokens), or lower the budget (--budget-tokens) or k (--k)"
        )
    within = [r for r in eligible if not r.over_budget]
    if within:
        eligible = within
    order = (metric, *(m for m in TIE_BREAKERS if m != metric))
    ranked = sorted(eligible, key=lambda r: (tuple(-r.means[m] for m in order), canonical_key(r)))
    return ranked[0], ranked


def confidence_interval(result: EvaluationResult, metric: str) -> tuple[float, float]:
    """The 95% bootstrap interval of ``metric``'s mean over the questions (seed 0; for
    recall, the ``recall_ci_low``/``recall_ci_high`` the result already holds)."""
    if metric == "recall" and "recall_ci_low" in result.means:
        return result.means["recall_ci_low"], result.means["recall_ci_high"]
    return bootstrap_ci([float(getattr(s, metric)) for s in result.scores])


TIE_NAMES_SHOWN = 5
"""How many tied configurations :func:`tie_notice` names before ``and N more``."""


def tie_notice(ranked: Sequence[EvaluationResult], metric: str) -> str | None:
    """``tied within the 95% CI: ...`` naming every configuration (best first) whose
    interval of ``metric`` overlaps the winner's -- the order of those is not established
    by these questions -- the first :data:`TIE_NAMES_SHOWN` with their means and
    intervals, then ``and N more``; None when no interval overlaps the winner's."""
    if len(ranked) < 2:
        return None
    first = ranked[0]
    lo1, hi1 = confidence_interval(first, metric)
    tied = []
    for other in ranked[1:]:
        lo2, hi2 = confidence_interval(other, metric)
        if not (lo1 > hi2 or lo2 > hi1):
            tied.append(f"{other.label} {other.means[metric]:.3f} ({lo2:.3f}-{hi2:.3f})")
    if not tied:
        return None
    n = len(first.scores)
    shown = ", ".join(tied[:TIE_NAMES_SHOWN])
    if len(tied) > TIE_NAMES_SHOWN:
        shown += f" and {len(tied) - TIE_NAMES_SHOWN} more"
    others = "1 other configuration" if len(tied) == 1 else f"{len(tied)} other configurations"
    these = "this 1 question" if n == 1 else f"these {n} questions"
    return (
        f"tied within the 95% CI: {first.label} {metric} {first.means[metric]:.3f} ({lo1:.3f}-{hi1:.3f}) and "
        f"{others}: {shown}; their order is not established by {these} (more questions narrow the intervals)"
    )


def indistinguishable(results: Sequence[EvaluationResult]) -> bool:
    """Whether every result of a grid of two or more is the same: the same number of
    chunks of the same mean size, the same k, and the same scores on every question (as
    when every configuration cuts a small corpus into the same chunks); then there is
    nothing to choose between them."""
    if len(results) < 2:
        return False
    head = results[0]
    return all(
        r.n_chunks == head.n_chunks
        and r.k == head.k
        and abs(r.mean_chunk_tokens - head.mean_chunk_tokens) < 1e-9
        and r.scores == head.scores
        for r in results[1:]
    )


def fixed_k_warning(results: Sequence[EvaluationResult], metric: str, k: int) -> str | None:
    """The warning for ranking at a fixed ``k`` configurations whose chunks differ in size
    (None when they do not): then IoU and precision rise as chunks shrink and recall as
    they grow, whatever the chunks retrieve."""
    sizes = {round(r.mean_chunk_tokens) for r in results}
    if len(sizes) < 2:
        return None
    if metric in ("iou", "iou_union", "precision", "precision_union", "precision_omega"):
        why = "smaller chunks score higher whatever they retrieve (less text for the same answer)"
    else:
        why = "larger chunks score higher because they put more text in the context"
    return (
        f"WARNING: ranking by {metric} at a fixed k={k} compares chunks of different sizes unequally: {why}; "
        "rank at an equal budget instead (--budget-tokens, the default when --k is not given)"
    )
