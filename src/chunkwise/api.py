"""The one-call API: ``chunkwise.chunk(...)``."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from .chunkers.base import BaseChunker
from .enrich import with_metadata
from .errors import ConfigError
from .registry import AUTO, AUTO_BY_CONTENT, AUTO_BY_FORMAT, auto_strategy, get_strategy, register
from .sizers import Sizer
from .types import Chunk, Document

__all__ = ["AUTO_ALSO", "AutoChunker", "chunk", "make_chunker"]

# the strategies auto picks by format besides recursive and markdown (from the registry)
AUTO_ALSO = tuple(
    dict.fromkeys(s for s in (*AUTO_BY_FORMAT.values(), *AUTO_BY_CONTENT) if s not in ("markdown", "recursive"))
)
"""Strategies ``auto`` picks for some formats besides markdown and recursive (``table`` for
CSV and TSV documents, ``code`` for source files, ``conversation`` for chats and
subtitles, ``wikitext`` for MediaWiki text; see :func:`chunkwise.registry.auto_strategy`)."""


def _init_fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls) if f.init}


@dataclasses.dataclass(frozen=True)
class AutoChunker:
    """markdown for documents whose format is markdown, html, rst, pdf, docx, pptx, xlsx
    or epub (their loaders emit Markdown-like text with headings), table for csv and tsv
    (.csv, .tsv), code for source files (.py, .ts, .java, ...), conversation for chats and
    subtitles (.json chats, .srt, .vtt) and for plain text whose lines are mostly speaker
    turns, wikitext for plain text and Markdown files that are MediaWiki markup (several
    ``== Section ==`` lines), recursive for the rest (plain text, a str).

    Made by ``make_chunker("auto", **params)``: each parameter goes to the strategies that
    have it (``chunk_size``, ``chunk_overlap``, ``unit`` and ``tokenizer`` to both,
    ``separators`` to recursive, ``split_level`` to markdown, ...).
    """

    name: ClassVar[str] = AUTO

    text_chunker: BaseChunker
    structured_chunker: BaseChunker
    others: dict[str, BaseChunker] = dataclasses.field(default_factory=dict)
    """The chunkers of the other strategies ``auto`` picks by format (:data:`AUTO_ALSO`)."""

    @classmethod
    def configure(cls, **params: Any) -> AutoChunker:
        """The chunkers for ``params``.

        Raises:
            ConfigError: a parameter no strategy of ``auto`` has, or an invalid value.
        """
        text_cls, structured_cls = get_strategy("recursive"), get_strategy("markdown")
        text_known, structured_known = _init_fields(text_cls), _init_fields(structured_cls)
        other_cls = {name: get_strategy(name) for name in AUTO_ALSO}
        other_known = {name: _init_fields(c) for name, c in other_cls.items()}
        every = text_known | structured_known
        for known in other_known.values():
            every |= known
        unknown = sorted(set(params) - every)
        if unknown:
            raise ConfigError(
                f"strategy 'auto' has no parameter {', '.join(map(repr, unknown))}; its parameters are: "
                f"{', '.join(sorted(every))}"
            )
        return cls(
            text_chunker=text_cls(**{k: v for k, v in params.items() if k in text_known}),
            structured_chunker=structured_cls(**{k: v for k, v in params.items() if k in structured_known}),
            others={
                name: c(**{k: v for k, v in params.items() if k in other_known[name]}) for name, c in other_cls.items()
            },
        )

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The parameters of recursive, then those only markdown has, with their defaults."""
        out = dict(get_strategy("recursive").parameters())
        for name in ("markdown", *AUTO_ALSO):
            for key, value in get_strategy(name).parameters().items():
                out.setdefault(key, value)
        return out

    @property
    def chunk_size(self) -> int:
        return self.text_chunker.chunk_size

    @property
    def chunk_overlap(self) -> int:
        return self.text_chunker.chunk_overlap

    @property
    def sizer(self) -> Sizer:
        """The sizer of both chunkers (same unit and tokenizer)."""
        return self.text_chunker.sizer

    def chunker_for(self, document: str | Document) -> BaseChunker:
        """The chunker ``auto`` uses for ``document`` (see :func:`chunkwise.registry.auto_strategy`)."""
        return self._chunker_named(auto_strategy(document))

    def _chunker_named(self, name: str) -> BaseChunker:
        if name in self.others:
            return self.others[name]
        return self.structured_chunker if name == "markdown" else self.text_chunker

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk with the chunker of this document's format; every chunk's
        ``metadata["strategy"]`` names the strategy chosen (``"markdown"``, ``"wikitext"``, ...)."""
        name = auto_strategy(document)
        return with_metadata(self._chunker_named(name).chunk(document), {"strategy": name})

    def chunk_many(self, documents: Iterable[str | Document]) -> Iterator[list[Chunk]]:
        """Chunk each document in turn (one list of chunks per document)."""
        for d in documents:
            yield self.chunk(d)


register(AUTO)(AutoChunker)


def make_chunker(strategy: str = "recursive", **params: Any) -> Any:
    """A configured chunker of a registered strategy (``"auto"``: an :class:`AutoChunker`).

    Raises:
        ConfigError: an unknown strategy or parameter (the message lists the valid ones),
            or an invalid value.
    """
    if strategy == AUTO:
        return AutoChunker.configure(**params)
    cls = get_strategy(strategy)
    known = _init_fields(cls)
    unknown = sorted(set(params) - known)
    if unknown:
        raise ConfigError(
            f"strategy {strategy!r} has no parameter {', '.join(map(repr, unknown))}; "
            f"its parameters are: {', '.join(sorted(known))}"
        )
    return cls(**params)  # type: ignore[no-any-return]


def chunk(
    text_or_document: str | Document,
    strategy: str = AUTO,
    chunk_size: int = 512,
    chunk_overlap: int = 0,
    unit: Any = "chars",
    tokenizer: Any = "cl100k_base",
    contextualize: bool = False,
    llm: Any = None,
    **strategy_params: Any,
) -> list[Chunk]:
    """Chunk a text or document with a named strategy.

    Args:
        text_or_document: a ``str`` or a :class:`Document`.
        strategy: ``"auto"`` (the default, as on the command line) or a registered
            strategy name (``"recursive"``, ``"sentence"``, ``"fixed"``, ...; see
            ``chunkwise.strategy_names()``). ``"auto"`` picks one per document
            (:func:`chunkwise.registry.auto_strategy`): ``"markdown"`` for Markdown,
            HTML and the formats that load as Markdown, ``"table"`` for CSV and TSV,
            ``"code"`` for source files, ``"conversation"`` for chats, subtitles and
            speaker turns, ``"wikitext"`` for MediaWiki text, ``"recursive"`` for the rest
            (most ``str`` texts), and names its choice in each chunk's
            ``metadata["strategy"]``. A parameter goes to the strategies that have it.
        chunk_size: the largest chunk, in ``unit``.
        chunk_overlap: how much consecutive chunks share, in ``unit``.
        unit: ``"chars"`` (code points), ``"words"`` or ``"tokens"``.
        tokenizer: for tokens: ``"cl100k_base"`` (default), ``"o200k_base"``, a
            ``tokenizer.json`` path, a tokenizer object or a callable ``text -> int``.
        contextualize: when True, a chat model writes a short context situating each
            chunk in its document, put before ``chunk.context``
            (:func:`chunkwise.llm.contextualize`: contextual retrieval).
        llm: the :class:`chunkwise.llm.ChatClient` for ``contextualize`` (default: the
            strategy's own client, for ``agentic`` and ``propositions``).
        **strategy_params: the strategy's own parameters (``separators=...``,
            ``overlap_sentences=...``), and those every strategy has:
            ``detect_language=None | "document" | "chunk"`` (``metadata["language"]``,
            ISO 639-1) and ``density=True`` (``metadata["density"]``), both from the
            ``lang`` extra (:mod:`chunkwise.language`).

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
    client = llm if llm is not None else getattr(chunker, "llm", None)
    if contextualize and client is None:
        raise ConfigError(
            "contextualize=True needs llm=chunkwise.llm.ChatClient(model, base_url=...) (the chat model that "
            "writes each chunk's context)"
        )
    chunks = chunker.chunk(text_or_document)
    if contextualize:
        from .chunkers.base import as_document
        from .llm.contextualize import contextualize as situate

        chunks = situate(chunks, as_document(text_or_document), client)
    return chunks  # type: ignore[no-any-return]
