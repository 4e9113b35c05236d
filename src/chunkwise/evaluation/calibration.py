"""Pick the configuration of a grid that maximises a metric."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ConfigError
from .metrics import METRIC_NAMES
from .runner import EvaluationResult

__all__ = ["CALIBRATION_METRICS", "calibrate"]

CALIBRATION_METRICS = tuple(m for m in METRIC_NAMES if m != "tokens")


def calibrate(
    results: Sequence[EvaluationResult], metric: str = "iou", max_tokens: float | None = None
) -> tuple[EvaluationResult, list[EvaluationResult]]:
    """Rank evaluated configurations by a mean metric and return the best.

    Args:
        results: the evaluated grid (:func:`~chunkwise.evaluation.evaluate_grid`).
        metric: one of ``CALIBRATION_METRICS`` (``iou``, ``recall``, ``ndcg``, ...).
        max_tokens: if given, only configurations whose mean tokens retrieved per
            question is at most this many compete.

    Returns:
        ``(best, ranked)``: the winner and every eligible result, best first. Ties keep
        grid order (the earlier configuration wins).

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
            "raise max_tokens or lower k"
        )
    ranked = sorted(eligible, key=lambda r: -r.means[metric])  # sorted() is stable: ties keep grid order
    return ranked[0], ranked
