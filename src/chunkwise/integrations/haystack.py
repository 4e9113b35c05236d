"""Haystack 2: :class:`ChunkwiseDocumentSplitter`, a component with the interface of
Haystack's ``DocumentSplitter`` that chunks with any chunkwise strategy.

Install: ``pip install 'chunkwise[haystack]'`` (``haystack-ai``).

(No ``from __future__ import annotations`` here: Haystack reads the ``run`` method's
type hints to make the component's sockets.)
"""

import logging
from typing import Any

from ..types import Document as ChunkwiseDocument
from ..types import form_feed_pages
from ._common import chunk_metadata, links, make_adapter_chunker, need

need("haystack", "haystack-ai", "haystack", "chunkwise.integrations.haystack")

from haystack import Document, component, default_from_dict, default_to_dict  # noqa: E402

__all__ = ["ChunkwiseDocumentSplitter"]

logger = logging.getLogger(__name__)


@component
class ChunkwiseDocumentSplitter:
    """A Haystack component that splits documents with a chunkwise strategy.

    Args:
        strategy: a chunkwise strategy name (``"recursive"``, ``"sentence"``,
            ``"markdown"``, ``"hierarchical"``, ``"auto"``, ...).
        chunk_size: the largest chunk, in ``unit``.
        chunk_overlap: what consecutive chunks share, in ``unit``.
        unit: ``"chars"`` (code points), ``"words"`` or ``"tokens"``.
        tokenizer: for tokens: ``"cl100k_base"``, ``"o200k_base"`` or a ``tokenizer.json``
            path (a name or path, so that the component serializes).
        skip_empty_documents: leave out documents whose content is ``""`` (Haystack's flag).
        strategy_params: the strategy's own parameters (``{"separators": [...]}``,
            ``{"chunk_sizes": [1024, 256]}`` for hierarchical, ...).

    ``run(documents=[...])`` returns ``{"documents": [...]}``: a Haystack ``Document`` per
    chunk, in order, whose ``content`` is the chunk's text exactly as it stands in the
    input, with the input's ``meta`` (deep-copied), then ``source_id`` (the input's id),
    ``split_id`` (the chunk's position among its document's chunks, from 0),
    ``split_idx_start`` (its start offset: a ``str`` index into the input's content, where
    it was cut, not searched for), ``page_number`` when known (the page it starts on,
    counting form feeds as Haystack's converters write them; a text without form feeds
    keeps any ``page_number`` its meta had) and ``_split_overlap`` when ``chunk_overlap``
    (Haystack's ``[{"doc_id", "range"}]``), and chunkwise's metadata (``chunk_id``,
    ``boundary``, ``header_path``, ``context``, hierarchy keys, ...).

    Raises:
        ConfigError: an unknown strategy or parameter, or an invalid value.
        TypeError: ``run`` given something other than a list of Haystack documents.
        ValueError: a document whose content is None.

    Method:
        chunkwise's parse -> pack -> enrich pipeline; the component contract and meta
        keys of Haystack's ``DocumentSplitter`` (``haystack.components.preprocessors``).

    Example:
        >>> from haystack import Document
        >>> out = ChunkwiseDocumentSplitter(chunk_size=12).run(documents=[Document(content="One. Two.\\fOne. Two.")])
        >>> [(d.content, d.meta["split_idx_start"], d.meta["page_number"]) for d in out["documents"]]
        [('One. Two.', 0, 1), ('One. Two.', 10, 2)]
    """

    def __init__(
        self,
        strategy: str = "recursive",
        chunk_size: int = 512,
        chunk_overlap: int = 0,
        unit: str = "chars",
        tokenizer: str = "cl100k_base",
        skip_empty_documents: bool = True,
        strategy_params: dict[str, Any] | None = None,
    ) -> None:
        self.strategy = strategy
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.unit = unit
        self.tokenizer = tokenizer
        self.skip_empty_documents = skip_empty_documents
        self.strategy_params = dict(strategy_params or {})
        self.chunker = make_adapter_chunker(strategy, chunk_size, chunk_overlap, unit, tokenizer, self.strategy_params)

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document]) -> dict[str, list[Document]]:
        """Split each document into chunks.

        Args:
            documents: Haystack documents with text ``content``.

        Returns:
            ``{"documents": [...]}``, the chunks of every document in order.
        """
        if not isinstance(documents, list) or (documents and not isinstance(documents[0], Document)):
            raise TypeError("ChunkwiseDocumentSplitter expects a list of Haystack Documents as input")
        out: list[Document] = []
        for doc in documents:
            if doc.content is None:
                raise ValueError(
                    f"ChunkwiseDocumentSplitter only splits text documents; the content of document {doc.id} is None"
                )
            if doc.content == "" and self.skip_empty_documents:
                logger.warning("document %s has empty content: skipped", doc.id)
                continue
            out.extend(self._split(doc))
        return {"documents": out}

    def _split(self, doc: Document) -> list[Document]:
        text = doc.content or ""
        chunks = self.chunker.chunk(ChunkwiseDocument(text, id=doc.id, pages=form_feed_pages(text)))
        made: list[Document] = []
        for i, chunk in enumerate(chunks):
            meta = chunk_metadata(chunk, doc.meta)
            meta["source_id"] = doc.id
            meta["split_id"] = i
            meta["split_idx_start"] = chunk.start_index
            if self.chunk_overlap:
                meta["_split_overlap"] = []
            made.append(Document(content=chunk.text, meta=meta))
        if self.chunk_overlap:
            for k, link in enumerate(links(chunks)):
                if link.prev is None:
                    continue
                j = link.prev  # the chunk before (within its level): shared text, ranges in each one's content
                prev, cur = chunks[j], chunks[k]
                if cur.start_index < prev.end_index:
                    made[k].meta["_split_overlap"].append(
                        {"doc_id": made[j].id, "range": (cur.start_index - prev.start_index, len(prev.text))}
                    )
                    made[j].meta["_split_overlap"].append(
                        {"doc_id": made[k].id, "range": (0, prev.end_index - cur.start_index)}
                    )
        return made

    def to_dict(self) -> dict[str, Any]:
        """The component as a dictionary (Haystack's pipeline serialization)."""
        return default_to_dict(
            self,
            strategy=self.strategy,
            chunk_size=self.chunk_size,
            chunk_overlap=self.chunk_overlap,
            unit=self.unit,
            tokenizer=self.tokenizer,
            skip_empty_documents=self.skip_empty_documents,
            strategy_params=self.strategy_params,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ChunkwiseDocumentSplitter":
        """The component :meth:`to_dict` described."""
        return default_from_dict(cls, data)
