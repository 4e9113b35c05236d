"""Where the similarity of consecutive sentences drops: breakpoint thresholds and the floor.

:func:`threshold_value` and :func:`breakpoints` choose the cuts of the ``semantic``
strategy from the similarity curve (LangChain's threshold types);
:func:`merge_small_groups` then drops the cuts that would leave a group of sentences under
the size floor, joining each small group to its more similar neighbour.

numpy is imported inside the functions that need it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

from .errors import ConfigError

__all__ = [
    "DEFAULT_THRESHOLDS",
    "THRESHOLD_TYPES",
    "ThresholdType",
    "breakpoints",
    "merge_small_groups",
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


def threshold_value(similarities: Any, threshold_type: str, threshold: float) -> float:
    """The breakpoint threshold for consecutive-sentence ``similarities``.

    Works on distances ``d = 1 - similarity`` (as LangChain does), except ``absolute``:

    * ``percentile``: ``percentile(d, threshold)`` (linear interpolation);
    * ``standard_deviation``: ``mean(d) + threshold * std(d)`` (population std);
    * ``interquartile``: ``mean(d) + threshold * (q75(d) - q25(d))``;
    * ``gradient``: ``percentile(gradient(d), threshold)``;
    * ``absolute``: ``threshold`` itself, a cosine similarity.

    Args:
        similarities: cosine similarities of consecutive sentences (n - 1 floats).
        threshold_type: one of :data:`THRESHOLD_TYPES`.
        threshold: the parameter of that type (a percentile 0..100, a number of standard
            deviations or interquartile ranges, or a cosine similarity).

    Returns:
        The value that :func:`breakpoints` compares against (a distance, a gradient of
        distances, or a similarity for ``absolute``); ``nan`` for no similarities.

    Raises:
        ConfigError: an unknown ``threshold_type``.
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

    Args:
        similarities: cosine similarities of consecutive sentences.
        threshold_type: one of :data:`THRESHOLD_TYPES`.
        threshold: its parameter (default: :data:`DEFAULT_THRESHOLDS`).

    Returns:
        Sorted indices into ``similarities``.

    Raises:
        ConfigError: an unknown ``threshold_type``.

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


def merge_small_groups(
    cuts: Sequence[int], similarities: Sequence[float], n: int, size: Callable[[int, int], int], floor: int
) -> list[int]:
    """The cuts left once no group of sentences falls under ``floor`` (where cuts permit).

    The cuts split sentences ``0..n-1`` into groups. While some group is smaller than
    ``floor`` and there is more than one group, the smallest such group (the first on
    equal sizes) joins its more similar neighbour: the cut on its side with the higher
    similarity is dropped (the left one on a tie; the only one at either end).

    Args:
        cuts: sorted indices ``i`` (a cut between sentence ``i`` and ``i+1``).
        similarities: similarity of sentence ``i`` and ``i+1``, by ``i``.
        n: the number of sentences.
        size: ``size(a, b)``: the size of sentences ``[a, b)`` in the unit (the span from
            the start of sentence ``a`` to the end of sentence ``b - 1``).
        floor: the smallest size a group may have, in the unit (0: keep every cut).

    Returns:
        The cuts kept, sorted (a subset of ``cuts``).

    Example:
        >>> sizes = [9, 50, 60, 6]
        >>> merge_small_groups([0, 1, 2], [0.1, 0.5, 0.2], 4, lambda a, b: sum(sizes[a:b]), 40)
        [1]
    """
    if floor <= 0 or not cuts:
        return list(cuts)
    bounds = [0, *(c + 1 for c in cuts), n]
    g = len(bounds) - 1
    starts = bounds[:-1]
    ends = bounds[1:]
    prev = list(range(-1, g - 1))
    nxt = [*range(1, g), -1]
    alive = [True] * g
    sizes = [size(starts[k], ends[k]) for k in range(g)]
    heap = [(sizes[k], starts[k], k) for k in range(g) if sizes[k] < floor]
    heapq.heapify(heap)
    groups = g

    def sim(i: int) -> float:  # similarity across the cut after sentence i
        v = float(similarities[i])
        return -math.inf if math.isnan(v) else v

    while heap and groups > 1:
        sz, _, k = heapq.heappop(heap)
        if not alive[k] or sz != sizes[k]:
            continue  # merged away, or re-queued with its new size
        left, right = prev[k], nxt[k]
        if right < 0 or (left >= 0 and sim(starts[k] - 1) >= sim(ends[k] - 1)):
            a, b = left, k  # join the left neighbour
        else:
            a, b = k, right
        ends[a] = ends[b]
        alive[b] = False
        nxt[a] = nxt[b]
        if nxt[b] >= 0:
            prev[nxt[b]] = a
        groups -= 1
        sizes[a] = size(starts[a], ends[a])
        if sizes[a] < floor:
            heapq.heappush(heap, (sizes[a], starts[a], a))
    return [ends[k] - 1 for k in range(g) if alive[k] and nxt[k] >= 0]
