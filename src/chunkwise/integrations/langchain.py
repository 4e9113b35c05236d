"""LangChain: :class:`ChunkwiseTextSplitter`, a ``langchain_text_splitters.TextSplitter``
that chunks with any chunkwise strategy.

Install: ``pip install 'chunkwise[langchain]'`` (``langchain-text-splitters``).

A drop-in wherever LangChain takes a text splitter (``split_text``, ``split_documents``,
``create_documents``, ``transform_documents``; both splitters of
``ParentDocumentRetriever``). Unlike LangChain's own splitters, ``add_start_index=True``
writes the offset the chunk was cut at (never a ``str.find`` of its text, which puts a
repeated passage at its first occurrence), so ``doc.page_content ==
text[start_index:start_index + len(doc.page_content)]`` always.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..types import Chunk
from ..types import Document as ChunkwiseDocument
from ._common import chunk_metadata, make_adapter_chunker, need

need("langchain_text_splitters", "langchain-text-splitters", "langchain", "chunkwise.integrations.langchain")

from langchain_core.documents import Document  # noqa: E402
from langchain_text_splitters import TextSplitter  # noqa: E402

__all__ = ["ChunkwiseTextSplitter"]


class ChunkwiseTextSplitter(TextSplitter):
    """A LangChain text splitter backed by a chunkwise strategy.

    Args:
        strategy: a chunkwise strategy name (``"recursive"``, ``"sentence"``,
            ``"markdown"``, ``"hierarchical"``, ``"auto"``, ...; ``chunkwise.strategy_names()``).
        chunk_size: the largest chunk, in ``unit``.
        chunk_overlap: what consecutive chunks share, in ``unit``.
        unit: ``"chars"`` (code points), ``"words"`` or ``"tokens"``.
        tokenizer: for tokens: ``"cl100k_base"``, ``"o200k_base"``, a ``tokenizer.json``
            path, a tokenizer object or a callable ``text -> int``.
        add_start_index: put the chunk's start offset (a ``str`` index into the text that
            was split) in ``metadata["start_index"]``, as LangChain's splitters do.
        **strategy_params: the strategy's own parameters (``separators=``,
            ``chunk_sizes=`` for hierarchical, ...), checked by :func:`chunkwise.make_chunker`.

    Each output ``Document`` has the input document's metadata (deep-copied), then the
    chunk's: ``chunk_id``, ``boundary``, ``prev_id``/``next_id``, ``header_path``,
    ``context`` (a breadcrumb, not part of ``page_content``), hierarchy keys, ... Its
    ``page_content`` is the chunk text exactly as it stands in the input.

    Raises:
        ConfigError: an unknown strategy or parameter, or an invalid value (such as
            ``chunk_overlap >= chunk_size``).

    Method:
        chunkwise's parse -> pack -> enrich pipeline; LangChain's ``TextSplitter``
        interface (``langchain_text_splitters.base``).

    Example:
        >>> splitter = ChunkwiseTextSplitter(chunk_size=20, add_start_index=True)
        >>> [(d.page_content, d.metadata["start_index"]) for d in splitter.create_documents(["Hi there. Hi there."])]
        [('Hi there. Hi there.', 0)]
    """

    def __init__(
        self,
        strategy: str = "recursive",
        *,
        chunk_size: int = 512,
        chunk_overlap: int = 0,
        unit: Any = "chars",
        tokenizer: Any = "cl100k_base",
        add_start_index: bool = False,
        **strategy_params: Any,
    ) -> None:
        self._chunker = make_adapter_chunker(strategy, chunk_size, chunk_overlap, unit, tokenizer, strategy_params)
        self.strategy = strategy
        sizer = self._chunker.sizer
        super().__init__(
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            length_function=sizer.count,
            add_start_index=add_start_index,
            strip_whitespace=True,
        )

    @property
    def chunker(self) -> Any:
        """The chunkwise chunker that does the splitting."""
        return self._chunker

    def chunks(self, text: str, source: str | None = None) -> list[Chunk]:
        """chunkwise's :class:`~chunkwise.types.Chunk` values of ``text`` (the document id
        derives from ``source`` when given, else from the text)."""
        return self._chunker.chunk(ChunkwiseDocument(text, source=source))  # type: ignore[no-any-return]

    def split_text(self, text: str) -> list[str]:
        """The chunk texts of ``text``, in order (each a slice of ``text``)."""
        return [c.text for c in self.chunks(text)]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        """One ``Document`` per chunk of each text, with ``metadatas[i]`` (deep-copied) and
        the chunk's metadata; ``start_index`` when ``add_start_index``.

        Raises:
            ValueError: ``metadatas`` is not one mapping per text.
        """
        if metadatas is not None and len(metadatas) != len(texts):
            raise ValueError(f"metadatas has {len(metadatas)} entries for {len(texts)} texts; give one per text")
        out: list[Document] = []
        for i, text in enumerate(texts):
            base: Mapping[Any, Any] = metadatas[i] if metadatas is not None else {}
            source = base.get("source")
            for chunk in self.chunks(text, source if isinstance(source, str) else None):
                metadata = chunk_metadata(chunk, base)
                if self._add_start_index:
                    metadata["start_index"] = chunk.start_index
                out.append(Document(page_content=chunk.text, metadata=metadata))
        return out

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """Split each document: :meth:`create_documents` of their texts and metadata."""
        docs = list(documents)
        return self.create_documents([d.page_content for d in docs], [d.metadata for d in docs])

    def transform_documents(self, documents: Sequence[Document], **kwargs: Any) -> Sequence[Document]:
        """The ``BaseDocumentTransformer`` interface: :meth:`split_documents`."""
        return self.split_documents(list(documents))
