"""Agentic chunking: a chat model chooses where to cut among the engine's candidate cuts.

The model never writes chunk text. It sees a window of the document with the candidate
cut points numbered and answers with numbers; the chunks are slices between the chosen
cuts, packed to size by the one packer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import ConfigError
from ..llm.answers import parse_cuts
from ..llm.client import Estimate, Message
from ..llm.options import FALLBACK_KEY, LLMOptions, ask
from ..llm.prompts import render_prompt
from ..merge import Span
from ..packer import PackConfig, pack_segments
from ..registry import register
from ..segments import Label, Region, Segments
from ..sizers import Measure
from ..types import Chunk, Document
from .base import BaseChunker, as_document
from .recursive import DEFAULT_LEVELS

__all__ = ["AgenticChunker"]

BOUNDARY = "agentic"
"""``metadata["boundary"]`` of a chunk that ends at a cut the model chose."""


@dataclass(frozen=True)
class _Window:
    start: int
    end: int
    pieces: tuple[Span, ...]


@register("agentic")
@dataclass(frozen=True, kw_only=True)
class AgenticChunker(LLMOptions, BaseChunker):
    """A chat model picks the cuts, among numbered candidates, window by window.

    Args:
        piece_size: the size of the candidate pieces, in ``unit``: the recursive
            strategy's chunks at this size; a candidate cut lies between two pieces
            (default ``max(1, chunk_size // 4)``).
        window_size: how much of the document one request shows, in ``unit``: the
            recursive strategy's chunks at this size, so that a window ends at the
            strongest boundary there is (default ``8 * chunk_size``).
        The endpoint, prompt, cache and retry fields of :class:`~chunkwise.llm.options.LLMOptions`
        (``model``, ``base_url``, ``api_key``, ``client``, ``prompt``, ``cache``,
        ``concurrency``, ``timeout``, ``max_retries``, ``answer_retries``).

    Each window with two pieces or more is one request (windows are sent
    ``concurrency`` at a time). The answer must be JSON ``{"cuts": [...]}`` naming
    candidate numbers, increasing and in range; an invalid answer is asked again
    ``answer_retries`` times with the reason, then the window falls back to the recursive
    strategy's chunks (invalid answers are not cached: a later run asks again). A
    server that cannot be reached, refuses the request or fails every one of
    ``max_retries`` tries is an error (:class:`~chunkwise.llm.LLMError`), never a
    fallback. A region between two chosen cuts larger than ``chunk_size`` is split by
    the packer with the recursive levels: every chunk fits.

    ``metadata["boundary"]`` is ``"agentic"`` after a chosen cut; ``metadata["agentic"]``
    is ``"model"`` for a chunk of a window the model cut, or why it fell back;
    ``metadata["llm_fallback"]`` is True on a chunk that overlaps a window that fell
    back, False otherwise.

    Raises:
        ConfigError: no ``model`` nor ``client``; an invalid size or prompt.
        LLMError: the endpoint cannot be used (no server, a wrong URL, model or key, every
            try failed).

    Method:
        LLM-directed chunk boundaries as in "agentic chunking" (G. Kamradt, "5 Levels of
        Text Splitting", 2024) and LumberChunker (Duarte et al., 2024), restricted to
        numbered engine cuts so that offsets stay exact.

    Example:
        >>> AgenticChunker(model="llama3.1", base_url="http://localhost:11434/v1", chunk_size=400).window_size
        3200
    """

    piece_size: int | None = None
    window_size: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("piece_size", "window_size"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
                raise ConfigError(f"{name} must be a positive integer in the chunk unit, or None, not {value!r}")
        if self.piece_size is None:
            object.__setattr__(self, "piece_size", max(1, self.chunk_size // 4))
        if self.window_size is None:
            object.__setattr__(self, "window_size", 8 * self.chunk_size)
        if self.window_size <= self.piece_size:  # type: ignore[operator]
            raise ConfigError(
                f"window_size ({self.window_size}) must be larger than piece_size ({self.piece_size}), "
                "so that a window holds candidate cuts"
            )
        self._llm_setup("agentic")

    # -- the plan: windows of pieces --------------------------------------------------

    def _windows(self, text: str, measure: Measure) -> list[_Window]:
        unit = self._sizer.unit
        whole = Segments(levels=DEFAULT_LEVELS)
        windows = pack_segments(text, measure, whole, PackConfig(chunk_size=int(self.window_size or 0), unit=unit))
        regions = tuple(Region(w.start, w.end) for w in windows)
        in_windows = Segments(levels=DEFAULT_LEVELS, regions=regions)
        pieces = pack_segments(text, measure, in_windows, PackConfig(chunk_size=int(self.piece_size or 0), unit=unit))
        out: list[_Window] = []
        k = 0
        for w in windows:
            mine = []
            while k < len(pieces) and pieces[k].start < w.end:
                mine.append(pieces[k])
                k += 1
            out.append(_Window(w.start, w.end, tuple(mine)))
        return out

    def _messages(self, text: str, window: _Window) -> list[Message]:
        parts = []
        for i, p in enumerate(window.pieces):
            if i:
                parts.append(f"\n[[{i}]]\n")
            parts.append(text[p.start : p.end])
        body = render_prompt(
            self._template,  # type: ignore[attr-defined]
            text="".join(parts),
            n=len(window.pieces) - 1,
            chunk_size=self.chunk_size,
            unit=self._sizer.unit,
        )
        return [{"role": "user", "content": body}]

    def requests(self, document: str | Document) -> list[list[Message]]:
        """The requests :meth:`chunk` sends for ``document`` (one per window with a
        candidate cut), without sending them."""
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        return [self._messages(doc.text, w) for w in self._windows(doc.text, measure) if len(w.pieces) > 1]

    def estimate(self, documents: Sequence[str | Document]) -> Estimate:
        """Requests, tokens and cost of chunking ``documents``, sending nothing (answers
        estimated at 4 tokens per candidate cut)."""
        reqs = [r for d in documents for r in self.requests(d)]
        outs = [8 + 4 * r[0]["content"].count("\n[[") for r in reqs]
        return self.llm.estimate(reqs, outs)

    # -- parse -------------------------------------------------------------------------

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        text = document.text
        m = measure if measure is not None else self._sizer.measure(text)
        windows = self._windows(text, m)

        def decide(w: _Window) -> tuple[list[int] | None, str]:
            if len(w.pieces) < 2:
                return [], "model"
            n = len(w.pieces) - 1
            return ask(self.llm, self._messages(text, w), lambda a: parse_cuts(a, n), self.answer_retries)

        decisions = self.llm.map(decide, windows)
        regions: list[Region] = []
        labels: list[Label] = []
        start = 0
        for w, (cuts, how) in zip(windows, decisions):
            for c in cuts or ():
                regions.append(Region(start, w.pieces[c - 1].end, end_boundary=BOUNDARY))
                start = w.pieces[c].start
            value = how if cuts is not None else f"fallback ({how})"
            labels.append(Label(w.start, w.end, "agentic", value, rule="start"))
            if cuts is None:  # any chunk that overlaps it: its end came from the fallback
                labels.append(Label(w.start, w.end, FALLBACK_KEY, True, rule="overlap"))
        regions.append(Region(start, len(text)))
        return Segments(levels=DEFAULT_LEVELS, regions=tuple(regions), labels=tuple(labels))

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk one text or document (see the class): parse (asking the model), pack,
        enrich; ``metadata["llm_fallback"]`` on every chunk."""
        return _mark(super().chunk(document))

    def build_chunks(self, doc: Document, spans: Sequence[Span], segments: Segments | None = None) -> list[Chunk]:
        """The enrichment pass (as a level of a hierarchy), with ``metadata["llm_fallback"]``
        on every chunk."""
        return _mark(super().build_chunks(doc, spans, segments))


def _mark(chunks: list[Chunk]) -> list[Chunk]:
    """``metadata["llm_fallback"]`` False on the chunks no fallback window labelled."""
    return [c if FALLBACK_KEY in c.metadata else replace(c, metadata={**c.metadata, FALLBACK_KEY: False})
            for c in chunks]

