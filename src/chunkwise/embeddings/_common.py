"""Shared helpers of the embedders: lazy imports, normalisation, batching, progress."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, MissingDependencyError

__all__ = ["batches", "check_batch_size", "l2_normalize", "need", "package_dir", "progress"]


def need(module: str, package: str, extra: str, purpose: str) -> Any:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(package, extra, purpose) from exc


def l2_normalize(x: Any) -> Any:
    """Rows of ``x`` scaled to unit length (all-zero rows stay zero), as float32."""
    np = need("numpy", "numpy", "semantic", "embeddings")
    x = np.asarray(x, dtype=np.float32)
    if x.ndim != 2:
        raise ValueError(f"expected a 2-d array of embeddings, got shape {x.shape}")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (x / norms).astype(np.float32, copy=False)


def check_batch_size(batch_size: int) -> int:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
        raise ConfigError(f"batch_size must be a positive integer, not {batch_size!r}")
    return batch_size


def batches(n: int, batch_size: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` index ranges of ``n`` items in batches."""
    for i in range(0, n, batch_size):
        yield i, min(n, i + batch_size)


def progress(total: int, enabled: bool | None, desc: str) -> Any:
    """A tqdm bar on standard error.

    ``enabled=None`` (the default of every embedder): shown for jobs of 1000+ texts when
    standard error is a terminal; ``True``/``False`` force it on/off.
    """
    from tqdm.auto import tqdm

    disable: bool | None = (None if total >= 1000 else True) if enabled is None else not enabled
    return tqdm(total=total, desc=desc, unit="text", disable=disable, leave=False)


def package_dir(package: str, extra: str, purpose: str) -> Path:
    """The folder of an installed package, found without importing (executing) it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependencyError(package.replace("_", "-"), extra, purpose)
    return Path(next(iter(spec.submodule_search_locations)))


def as_text_list(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not one str: wrap it in a list")
    out = list(texts)
    for t in out:
        if not isinstance(t, str):
            raise TypeError(f"embed() takes str items, not {type(t).__name__}")
    return out
