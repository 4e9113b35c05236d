"""Sentence packing: whole sentences up to chunk_size, with sentence overlap, a fixed
number of sentences per chunk, and sentence windows (the sentences around a chunk)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._text import trim
from ..boundaries import Level, PositionsLevel, line_feed_twin
from ..errors import ConfigError
from ..registry import register
from ..segments import Label, Segments
from ..sentences import SentenceSegmenter, sentence_cuts
from ..sizers import Measure
from ..types import Document
from .base import BaseChunker

__all__ = ["SentenceChunker"]


@register("sentence")
@dataclass(frozen=True, kw_only=True)
class SentenceChunker(BaseChunker):
    """Pack whole sentences into chunks of at most ``chunk_size`` units.

    Two ways to group sentences:

    * packing (default): as many whole sentences as fit; ``overlap_sentences=k`` starts
      each chunk with the last ``k`` sentences of the previous one (always moving on by
      at least one sentence);
    * a fixed count: ``sentences_per_chunk=n`` puts ``n`` sentences in each chunk;
      ``step=s`` starts the next chunk ``s`` sentences later (default ``n``: no overlap;
      ``s < n`` slides). A group that does not fit ``chunk_size`` is shortened, and the
      next starts no later than where it ended.

    Sentence windows: ``window_sentences=N`` gives every chunk ``metadata["window"]``, the
    exact slice of the document from the start of the ``N``-th sentence before the chunk's
    first sentence to the end of the ``N``-th sentence after its last one (fewer at the
    document's edges), and its offsets ``metadata["window_start"]`` and
    ``metadata["window_end"]`` (characters, half-open): ``metadata["window"] ==
    document.text[window_start:window_end]``. Embed the sentence, give the model its
    window (``chunkwise eval --expand window``). ``window_sentences`` without
    ``sentences_per_chunk`` means one sentence per chunk; a piece of a sentence too big
    for ``chunk_size`` gets the window of its sentence.

    A sentence that fits ``chunk_size`` is never cut (a one-sentence document is one
    chunk in every mode). A sentence longer than ``chunk_size`` is split by the engine's
    fallback (words, then grapheme clusters): with ``sentences_per_chunk`` or
    ``window_sentences`` into as few pieces as fit, each near an equal share of it. Sentences come from :mod:`chunkwise.sentences` (abbreviations,
    decimals, lists, URLs, e-mail addresses, ellipses, closing quotes, CJK terminators).

    Args:
        overlap_sentences: sentences repeated from the previous chunk (packing only, >= 0).
        sentences_per_chunk: sentences per chunk (> 0), or None to pack up to chunk_size.
        step: sentences between the starts of consecutive chunks (1 to
            ``sentences_per_chunk``; needs ``sentences_per_chunk``).
        window_sentences: sentences on each side of a chunk in its window (>= 0), or None
            for no window metadata.
        window: deprecated alias of ``sentences_per_chunk`` (its name before sentence
            windows existed; kept so that old calls still work, not listed by
            :meth:`parameters`). Giving both with different values is an error.

    Raises:
        ConfigError: a value out of range or a combination that means nothing (``step``
            without ``sentences_per_chunk``, ``overlap_sentences`` with a fixed count).

    Method:
        Greedy sentence packing as in LlamaIndex's ``SentenceSplitter`` and chonkie's
        ``SentenceChunker``, on the shared merge engine; windows as LlamaIndex's
        ``SentenceWindowNodeParser`` (there the window is re-joined text; here it is a
        slice of the document, resolved as a ``"range"`` label by the enrichment pass).

    Example:
        >>> text = "Ms. Ortiz paid 3.5 units. She left. Mr. Diaz stayed late."
        >>> [c.text for c in SentenceChunker(chunk_size=40).chunk(text)]
        ['Ms. Ortiz paid 3.5 units. She left.', 'Mr. Diaz stayed late.']
        >>> c = SentenceChunker(chunk_size=40, window_sentences=1).chunk(text)[1]
        >>> c.text, c.metadata["window"]
        ('She left.', 'Ms. Ortiz paid 3.5 units. She left. Mr. Diaz stayed late.')
    """

    overlap_sentences: int = 0
    sentences_per_chunk: int | None = None
    step: int | None = None
    window_sentences: int | None = None
    window: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        for fname in ("overlap_sentences", "sentences_per_chunk", "step", "window_sentences", "window"):
            v = getattr(self, fname)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise ConfigError(f"{fname} must be an integer, not {v!r}")
        if self.overlap_sentences < 0:
            raise ConfigError(f"overlap_sentences ({self.overlap_sentences}) must be 0 or more")
        if self.window_sentences is not None and self.window_sentences < 0:
            raise ConfigError(
                f"window_sentences ({self.window_sentences}) must be 0 or more (sentences on each side of a chunk)"
            )
        size = self.sentences_per_chunk
        if self.window is not None:
            if size is not None and size != self.window:
                raise ConfigError(
                    f"window ({self.window}) is the old name of sentences_per_chunk ({size}); give only "
                    "sentences_per_chunk"
                )
            size = self.window
        if size is not None and size <= 0:
            raise ConfigError(f"sentences_per_chunk ({size}) must be greater than 0")
        if self.step is not None and self.step <= 0:
            raise ConfigError(f"step ({self.step}) must be greater than 0")
        if self.step is not None and size is None:
            raise ConfigError("step needs sentences_per_chunk: give sentences_per_chunk=N too")
        if self.step is not None and size is not None and self.step > size:
            raise ConfigError(
                f"step ({self.step} sentences) must not exceed sentences_per_chunk ({size}): the "
                "sentences between chunks would be lost; lower step or raise sentences_per_chunk"
            )
        if self.overlap_sentences and (size is not None or self.window_sentences is not None):
            what = "sentences_per_chunk" if size is not None else "window_sentences"
            raise ConfigError(
                f"overlap_sentences applies to packing, not to {what}; use step < sentences_per_chunk "
                "for overlapping groups"
            )
        if size is None and self.window_sentences is not None:
            size = 1  # a sentence window is built around one sentence unless told otherwise
        object.__setattr__(self, "_per_chunk", size)

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The configuration fields and their defaults, without the deprecated ``window``."""
        out = super().parameters()
        out.pop("window", None)
        return out

    def levels(self, document: Document) -> Sequence[Level]:
        return (SentenceSegmenter(),)  # the engine reads its cuts once per span

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """Sentence boundaries as the one level; with ``window_sentences``, each sentence
        labelled with its window. The segmenter runs once: the engine's level and the
        labels come from the same cuts. A text whose lines end with a lone carriage
        return (a classic Mac OS file) is read as its twin with line feeds there (same
        length, same offsets), as the packer packs it."""
        n = self.window_sentences
        if n is None:
            return Segments(levels=tuple(self.levels(document)))
        twin = line_feed_twin(document.text)
        text = twin or document.text
        cuts = list(sentence_cuts(text))
        level = PositionsLevel(SentenceSegmenter.name, [a for a, _ in cuts], [b for _, b in cuts])
        sentences: list[tuple[int, int]] = []
        prev = 0
        for a, b in [*cuts, (len(text), len(text))]:
            s, e = trim(text, prev, a)
            if s < e:
                sentences.append((s, e))
            prev = b
        last = len(sentences) - 1
        labels = tuple(
            Label(s, e, "window", (sentences[max(0, i - n)][0], sentences[min(last, i + n)][1]), rule="range")
            for i, (s, e) in enumerate(sentences)
        )
        return Segments(levels=(level,), labels=labels, twin=twin)

    def pack_options(self) -> dict[str, Any]:
        per_chunk = self._per_chunk  # type: ignore[attr-defined]
        if per_chunk is not None:
            return {"max_pieces": per_chunk, "step": self.step or per_chunk}
        return {"overlap_pieces": self.overlap_sentences}
