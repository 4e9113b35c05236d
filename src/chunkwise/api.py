"""The one-call API: ``chunkwise.chunk(...)``."""

from __future__ import annotations

import dataclasses
from typing import Any

from .chunkers.base import BaseChunker
from .errors import ConfigError
from .registry import get_strategy
from .types import Chunk, Document

__all__ = ["chunk", "make_chunker"]


def make_chunker(strategy: str = "recursive", **params: Any) -> BaseChunker:
    """A configured chunker of a registered strategy.

    Raises:
        ConfigError: an unknown strategy or parameter (the message lists the valid ones),
            or an invalid value.
    """
    cls = get_strategy(strategy)
    known = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(params) - known)
    if unknown:
        raise ConfigError(
            f"strategy {strategy!r} has no parameter {', '.join(map(repr, unknown))}; "
            f"its parameters are: {', '.join(sorted(known))}"
        )
    return cls(**params)  # type: ignore[no-any-return]


def chunk(
    text_or_document: str | Document,
    strategy: str = "recursive",
    chunk_size: int = 512,
    chunk_overlap: int = 0,
    unit: Any = "chars",
    tokenizer: Any = "cl100k_base",
    **strategy_params: Any,
) -> list[Chunk]:
    """Chunk a text or document with a named strategy.

    Args:
        text_or_document: a ``str`` or a :class:`Document`.
        strategy: a registered strategy name (``"recursive"``, ``"sentence"``,
            ``"fixed"``, ...; see ``chunkwise.strategy_names()``).
        chunk_size: the largest chunk, in ``unit``.
        chunk_overlap: how much consecutive chunks share, in ``unit``.
        unit: ``"chars"`` (code points), ``"words"`` or ``"tokens"``.
        tokenizer: for tokens: ``"cl100k_base"`` (default), ``"o200k_base"``, a
            ``tokenizer.json`` path, a tokenizer object or a callable ``text -> int``.
        **strategy_params: the strategy's own parameters (``separators=...``,
            ``overlap_sentences=...``).

    Returns:
        Chunks in document order, with exact offsets (``chunk.text ==
        text[chunk.start_index:chunk.end_index]``).

    Raises:
        ConfigError: an unknown strategy, unit or parameter, or an invalid value
            (``chunk_overlap >= chunk_size``, ``chunk_size <= 0``, ...).
        MissingDependencyError: tokens without ``pip install 'chunkwise[tokens]'``.

    Example:
        >>> [c.text for c in chunk("One. Two. Three.", strategy="sentence", chunk_size=10)]
        ['One. Two.', 'Three.']
    """
    chunker = make_chunker(
        strategy, chunk_size=chunk_size, chunk_overlap=chunk_overlap, unit=unit, tokenizer=tokenizer, **strategy_params
    )
    return chunker.chunk(text_or_document)
