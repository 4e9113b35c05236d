"""What the framework adapters share: one chunker from chunkwise's parameters, a chunk's
metadata as a plain dict on top of the input's (:func:`chunk_metadata`), and each chunk's
neighbours, parent and children as positions in the chunk list (:func:`links`) -- the
frameworks' values (LangChain ``Document``, LlamaIndex ``TextNode``, Haystack ``Document``)
are made from these by each adapter."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..api import make_chunker
from ..errors import MissingDependencyError
from ..types import Chunk

__all__ = ["Links", "chunk_metadata", "links", "make_adapter_chunker", "need"]


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


def chunk_metadata(chunk: Chunk, base: Mapping[Any, Any] | None = None, *, deep: bool = True) -> dict[Any, Any]:
    """The metadata of a framework value made from ``chunk``: ``base`` (the input's
    metadata; deep-copied unless ``deep=False``, so chunks never share a mutable value with
    each other or with the input), then the chunk's own metadata (``boundary``,
    ``prev_id``/``next_id``, ``header_path``, ``page_number``,
    ``level``/``parent_id``/``child_ids``/``leaf``, ...), ``chunk_id`` (the chunk's
    content-derived id, which ``prev_id``, ``parent_id``, ... refer to) and, when it has
    one, ``context`` (the breadcrumb to embed with the text). A new dict every call.

    Example:
        >>> import chunkwise
        >>> (c,) = chunkwise.chunk("Hi there.", chunk_size=20)
        >>> m = chunk_metadata(c, {"source": "a.txt"})
        >>> m["source"], m["chunk_id"] == c.id
        ('a.txt', True)
    """
    out: dict[Any, Any] = {} if not base else copy.deepcopy(dict(base)) if deep else dict(base)
    out.update(chunk.metadata)
    out["chunk_id"] = chunk.id
    if chunk.context:
        out["context"] = chunk.context
    return out


@dataclass(frozen=True)
class Links:
    """A chunk's relatives, as positions in its chunk list (None: none)."""

    prev: int | None
    """The chunk before it (within its level for hierarchical chunks)."""
    next: int | None
    """The chunk after it (within its level)."""
    parent: int | None
    """Its parent (hierarchical chunks; ``leaves_only`` chunks name a parent not in the list: None)."""
    children: tuple[int, ...]
    """Its children in the list, in order."""


def links(chunks: Sequence[Chunk]) -> list[Links]:
    """Each chunk's :class:`Links`, one per chunk, from its ``prev_id``/``next_id``,
    ``parent_id`` and ``child_ids`` metadata; a chunk without ``prev_id``/``next_id`` keys
    has the chunks beside it in the list as its neighbours.

    Example:
        >>> import chunkwise
        >>> cs = chunkwise.chunk("One. Two. Three.", chunk_size=6, unit="chars")
        >>> [(x.prev, x.next) for x in links(cs)]
        [(None, 1), (0, 2), (1, None)]
    """
    at = {c.id: i for i, c in enumerate(chunks)}
    out = []
    last = len(chunks) - 1
    for k, chunk in enumerate(chunks):
        meta = chunk.metadata
        prev = at.get(meta["prev_id"]) if "prev_id" in meta else (k - 1 if k else None)
        nxt = at.get(meta["next_id"]) if "next_id" in meta else (k + 1 if k < last else None)
        parent = at.get(meta.get("parent_id") or "")
        children = tuple(at[c] for c in meta.get("child_ids") or () if c in at)
        out.append(Links(prev, nxt, parent, children))
    return out
