"""What the framework adapters share: one chunker from chunkwise's parameters, and a
chunk's metadata as a plain dict."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ..api import make_chunker
from ..errors import MissingDependencyError
from ..types import Chunk

__all__ = ["chunk_metadata", "make_adapter_chunker", "need"]


def need(module: str, package: str, extra: str, purpose: str) -> Any:
    """Import ``module``, or raise :class:`MissingDependencyError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(package, extra, purpose) from exc


def make_adapter_chunker(
    strategy: str, chunk_size: int, chunk_overlap: int, unit: Any, tokenizer: Any, params: Mapping[str, Any]
) -> Any:
    """The chunker of ``strategy`` (see :func:`chunkwise.make_chunker`).

    Raises:
        ConfigError: an unknown strategy or parameter, or an invalid value.
    """
    return make_chunker(
        strategy, chunk_size=chunk_size, chunk_overlap=chunk_overlap, unit=unit, tokenizer=tokenizer, **params
    )


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """The chunk's own metadata (``boundary``, ``prev_id``/``next_id``, ``header_path``,
    ``page_number``, ``level``/``parent_id``/``child_ids``/``leaf``, ...) as a new dict, with
    ``chunk_id`` (the chunk's content-derived id, which ``prev_id``, ``parent_id``, ...
    refer to) and, when it has one, ``context`` (the breadcrumb to embed with
    the text)."""
    out = dict(chunk.metadata)
    out["chunk_id"] = chunk.id
    if chunk.context:
        out["context"] = chunk.context
    return out
