"""Sentence packing: whole sentences up to chunk_size, with sentence overlap or windows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..boundaries import Level
from ..errors import ConfigError
from ..registry import register
from ..sentences import SentenceSegmenter
from ..types import Document
from .base import BaseChunker

__all__ = ["SentenceChunker"]


@register("sentence")
@dataclass(frozen=True, kw_only=True)
class SentenceChunker(BaseChunker):
    """Pack whole sentences into chunks of at most ``chunk_size`` units.

    Two modes:

    * packing (default): as many whole sentences as fit; ``overlap_sentences=k`` starts
      each chunk with the last ``k`` sentences of the previous one (always moving on by
      at least one sentence);
    * windows: ``window=n`` groups ``n`` sentences per chunk; ``step=s`` starts the next window ``s`` sentences later (default ``n``:
      no overlap; ``s < n`` gives a sliding window). A window that does not fit
      ``chunk_size`` is shortened, and the next starts no later than where it ended.

    A sentence longer than ``chunk_size`` is split by the engine's fallback (words, then
    grapheme clusters). Sentences come from :mod:`chunkwise.sentences` (abbreviations,
    decimals, lists, URLs, e-mail addresses, ellipses, closing quotes, CJK terminators).

    Method:
        Greedy sentence packing as in LlamaIndex's ``SentenceSplitter`` and chonkie's
        ``SentenceChunker``, on the shared merge engine.

    Example:
        >>> text = "Ms. Ortiz paid 3.5 units. She left. Mr. Diaz stayed late."
        >>> [c.text for c in SentenceChunker(chunk_size=40).chunk(text)]
        ['Ms. Ortiz paid 3.5 units. She left.', 'Mr. Diaz stayed late.']
    """

    overlap_sentences: int = 0
    window: int | None = None
    step: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        for fname in ("overlap_sentences", "window", "step"):
            v = getattr(self, fname)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise ConfigError(f"{fname} must be an integer, not {v!r}")
        if self.overlap_sentences < 0:
            raise ConfigError(f"overlap_sentences ({self.overlap_sentences}) must be 0 or more")
        size = self.window
        if size is not None and size <= 0:
            raise ConfigError(f"window ({size} sentences) must be greater than 0")
        if self.step is not None and self.step <= 0:
            raise ConfigError(f"step ({self.step}) must be greater than 0")
        if self.step is not None and size is None:
            raise ConfigError("step needs a window: give window=N (sentences per chunk) too")
        if self.step is not None and size is not None and self.step > size:
            raise ConfigError(
                f"step ({self.step} sentences) must not exceed window ({size} sentences): the "
                "sentences between windows would be lost; lower step or raise window"
            )
        if size is not None and self.overlap_sentences:
            raise ConfigError("overlap_sentences applies to packing; with windows use step < window")
        if size is None and self.overlap_sentences:
            pass
        object.__setattr__(self, "_window", size)

    def levels(self, document: Document) -> Sequence[Level]:
        return (SentenceSegmenter(),)  # the engine reads its cuts once per span

    def pack_options(self) -> dict[str, Any]:
        window = self._window  # type: ignore[attr-defined]
        if window is not None:
            return {"max_pieces": window, "step": self.step or window}
        return {"overlap_pieces": self.overlap_sentences}
