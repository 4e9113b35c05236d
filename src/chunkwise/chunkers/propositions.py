"""Propositions: a chat model rewrites each passage into standalone statements; each
statement becomes a record whose span is the source sentences it came from.

The model's words never become chunk text: a record's ``text`` is the exact slice of the
sentences the model named, and the proposition is its ``context`` (what is embedded
before the text, :meth:`~chunkwise.types.Chunk.text_for_embedding`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import ConfigError
from ..llm.answers import parse_propositions
from ..llm.client import Estimate, Message
from ..llm.options import FALLBACK_KEY, LLMOptions, ask
from ..llm.prompts import render_prompt
from ..merge import Span
from ..packer import pack_segments
from ..registry import register
from ..segments import Segments
from ..sentences import split_sentences
from ..sizers import Measure
from ..types import Chunk, Document, chunk_id
from .base import BaseChunker, as_document
from .recursive import DEFAULT_LEVELS

__all__ = ["PropositionsChunker"]


@dataclass(frozen=True)
class _Passage:
    start: int
    end: int
    sentences: tuple[tuple[int, int], ...]


@register("propositions")
@dataclass(frozen=True, kw_only=True)
class PropositionsChunker(LLMOptions, BaseChunker):
    """Passages rewritten into propositions by a chat model; one record per proposition.

    The document is packed into passages of at most ``chunk_size`` by the recursive
    strategy's levels; each passage, as numbered sentences, is one request (``concurrency``
    at a time). The answer must be JSON ``{"propositions": [{"text": ..., "sentences":
    [i, ...]}]}``; an invalid one is asked again ``answer_retries`` times with the reason,
    then the passage falls back to one record per sentence without a proposition.

    Returns records (``Chunk`` values) in document order, sorted by ``(start_index,
    end_index)``:

    * a proposition: ``text`` is the slice from the first to the last sentence it names
      (inside one passage, so it fits ``chunk_size``), ``context`` the proposition
      (prepended when embedding), ``metadata["proposition"]`` True, ``metadata["sentences"]``
      the sentence numbers in the passage (from 1) and ``metadata["passage"]`` the passage's
      number in the document (from 0);
    * a sentence no proposition names (and every sentence of a passage that fell back):
      ``context`` "" and ``metadata["proposition"]`` False, so that no text is lost.

    Several propositions of one sentence share its span: records may overlap and repeat
    a span (their ids differ: the proposition is hashed with the span). ``metadata
    ["llm"]`` is ``"model"``, or why the passage fell back; ``metadata["llm_fallback"]``
    is True on the records of a passage whose answers stayed invalid (not cached: a later
    run asks again), False on the others.

    Args:
        chunk_size: the largest passage sent to the model (and so the largest record), in
            ``unit``.
        chunk_overlap: must be 0 (records already share sentences).
        The endpoint, prompt, cache and retry fields of :class:`~chunkwise.llm.options.LLMOptions`.

    Raises:
        ConfigError: no ``model`` nor ``client``, ``chunk_overlap`` not 0, an invalid prompt.
        LLMError: the endpoint cannot be used (no server, a wrong URL, model or key, every
            try failed): never a fallback.

    Method:
        "Dense X Retrieval: What Retrieval Granularity Should We Use?" (Chen et al., 2023),
        with each proposition tied to the exact source sentences instead of replacing them.

    Example:
        >>> PropositionsChunker(model="llama3.1", base_url="http://localhost:11434/v1").chunk("") == []
        True
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.chunk_overlap:
            raise ConfigError(
                f"chunk_overlap ({self.chunk_overlap}) must be 0 for propositions: records of a "
                "passage already share its sentences"
            )
        self._llm_setup("propositions")

    def _passages(self, text: str, measure: Measure) -> list[_Passage]:
        spans = pack_segments(text, measure, Segments(levels=DEFAULT_LEVELS), self.pack_config())
        return [_Passage(s.start, s.end, tuple(split_sentences(text, s.start, s.end))) for s in spans]

    def _messages(self, text: str, passage: _Passage) -> list[Message]:
        lines = "\n".join(f"[{i}] {' '.join(text[a:b].split())}" for i, (a, b) in enumerate(passage.sentences, 1))
        body = render_prompt(self._template, sentences=lines, n=len(passage.sentences))  # type: ignore[attr-defined]
        return [{"role": "user", "content": body}]

    def requests(self, document: str | Document) -> list[list[Message]]:
        """The requests :meth:`chunk` sends for ``document`` (one per passage), unsent."""
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        return [self._messages(doc.text, p) for p in self._passages(doc.text, measure)]

    def estimate(self, documents: Sequence[str | Document]) -> Estimate:
        """Requests, tokens and cost of chunking ``documents``, sending nothing (answers
        estimated at 1.5 times the passage's tokens)."""
        from ..llm.client import count_tokens

        reqs = [r for d in documents for r in self.requests(d)]
        outs = [int(1.5 * count_tokens(r[0]["content"].split("SENTENCES:", 1)[-1])[0]) + 16 for r in reqs]
        return self.llm.estimate(reqs, outs)

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Proposition records of one text or document (see the class docstring)."""
        doc = as_document(document)
        text = doc.text
        if not text or text.isspace():
            return []
        measure = self._sizer.measure(text)
        passages = self._passages(text, measure)

        def rewrite(p: _Passage) -> tuple[list[tuple[str, list[int]]] | None, str]:
            n = len(p.sentences)
            return ask(self.llm, self._messages(text, p), lambda a: parse_propositions(a, n), self.answer_retries)

        answers = self.llm.map(rewrite, passages)
        # (start, end, order, proposition or "", sentence numbers, passage, how)
        rows: list[tuple[int, int, int, str, tuple[int, ...], int, str]] = []
        for k, (p, (props, how)) in enumerate(zip(passages, answers)):
            named: set[int] = set()
            for order, (prop, nums) in enumerate(props or ()):
                a, b = p.sentences[nums[0] - 1][0], p.sentences[nums[-1] - 1][1]
                rows.append((a, b, order, prop, tuple(nums), k, how))
                named.update(range(nums[0], nums[-1] + 1))
            label = how if props is not None else f"fallback ({how})"
            for i, (a, b) in enumerate(p.sentences, 1):
                if i not in named:
                    rows.append((a, b, -1, "", (i,), k, label))
        rows.sort(key=lambda r: (r[0], r[1], r[2]))
        spans = []
        for a, b, _o, prop, *_ in rows:
            size = measure.exact(a, b)
            spans.append(Span(a, b, size, "proposition" if prop else "sentence", size > self.chunk_size))
        built = self.build_chunks(doc, spans)
        ids = [
            chunk_id(doc.id, c.start_index, c.end_index, f"{c.text}\x00{row[3]}") if row[3] else c.id
            for c, row in zip(built, rows)
        ]
        out = []
        for i, (c, row) in enumerate(zip(built, rows)):
            meta = c.metadata.copy()
            meta.update(
                prev_id=ids[i - 1] if i else None,
                next_id=ids[i + 1] if i + 1 < len(ids) else None,
                proposition=bool(row[3]),
                sentences=list(row[4]),
                passage=row[5],
                llm=row[6],
            )
            meta[FALLBACK_KEY] = row[6].startswith("fallback")
            out.append(replace(c, context=row[3], metadata=meta, id=ids[i]))
        return out
