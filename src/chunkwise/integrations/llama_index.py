"""LlamaIndex: :class:`ChunkwiseNodeParser`, a ``NodeParser`` that chunks with any
chunkwise strategy.

Install: ``pip install 'chunkwise[llama-index]'`` (``llama-index-core``).

Use it wherever LlamaIndex takes a node parser or a transformation
(``get_nodes_from_documents``, ``IngestionPipeline(transformations=[...])``,
``VectorStoreIndex.from_documents(..., transformations=[...])``). The nodes carry the
offsets the chunks were cut at (LlamaIndex's base class finds each node's text again with
``str.find``, which misplaces repeated passages and a child inside its parent; this parser
does not search).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..types import Chunk
from ..types import Document as ChunkwiseDocument
from ._common import chunk_metadata, links, make_adapter_chunker, need

need("llama_index.core", "llama-index-core", "llama-index", "chunkwise.integrations.llama_index")

from llama_index.core.bridge.pydantic import Field, PrivateAttr  # noqa: E402
from llama_index.core.callbacks import CallbackManager  # noqa: E402
from llama_index.core.node_parser import NodeParser  # noqa: E402
from llama_index.core.node_parser.node_utils import default_id_func  # noqa: E402
from llama_index.core.schema import BaseNode, MetadataMode, NodeRelationship, TextNode  # noqa: E402
from llama_index.core.utils import get_tqdm_iterable  # noqa: E402

__all__ = ["STRUCTURE_KEYS", "ChunkwiseNodeParser"]

STRUCTURE_KEYS = (
    "chunk_id", "boundary", "prev_id", "next_id", "level", "parent_id", "child_ids", "leaf", "oversize",
    "header_path", "page_end",
)
"""chunkwise metadata keys left out of the text LlamaIndex embeds and shows the LLM (ids
and structure; ``context``, the breadcrumb, stays in)."""


class ChunkwiseNodeParser(NodeParser):
    """A LlamaIndex node parser backed by a chunkwise strategy.

    Args:
        strategy: a chunkwise strategy name (``"recursive"``, ``"sentence"``,
            ``"markdown"``, ``"hierarchical"``, ``"auto"``, ...).
        chunk_size: the largest chunk, in ``unit``.
        chunk_overlap: what consecutive chunks share, in ``unit``.
        unit: ``"chars"`` (code points), ``"words"`` or ``"tokens"``.
        tokenizer: for tokens: ``"cl100k_base"``, ``"o200k_base"``, a ``tokenizer.json``
            path, a tokenizer object or a callable ``text -> int``.
        include_metadata: copy the input node's metadata onto its nodes (LlamaIndex's flag).
        include_prev_next_rel: set ``PREVIOUS``/``NEXT`` relationships (LlamaIndex's flag).
        id_func: LlamaIndex's ``(i, input_node) -> str``; by default a node's id is the
            chunk's content-derived id (stable across runs, unlike a uuid4).
        **strategy_params: the strategy's own parameters (``chunk_sizes=[2048, 512, 128]``
            for hierarchical, ``separators=...``, ...).

    Each :class:`TextNode` has ``text`` equal to ``input.text[start_char_idx:end_char_idx]``
    (offsets into the text of the node it was parsed from), ``SOURCE`` (the input
    document, or the input node's own source), ``PREVIOUS``/``NEXT`` (neighbours; within a
    level for hierarchical chunks), and for ``strategy="hierarchical"`` ``PARENT`` and
    ``CHILD`` as LlamaIndex's ``HierarchicalNodeParser`` sets them (so
    ``get_leaf_nodes``, ``get_root_nodes`` and the ``AutoMergingRetriever`` work). Its
    metadata is the input's, then the chunk's (``chunk_id``, ``boundary``, ``header_path``,
    ``level``, ``parent_id``, ``child_ids``, ``leaf``, ``context``, ...); the
    :data:`STRUCTURE_KEYS` are excluded from the embedded and LLM text.

    Raises:
        ConfigError: an unknown strategy or parameter, or an invalid value.

    Method:
        chunkwise's parse -> pack -> enrich pipeline; LlamaIndex's ``NodeParser`` and
        ``HierarchicalNodeParser`` relationship conventions (``llama_index.core.node_parser``).

    Example:
        >>> from llama_index.core import Document
        >>> nodes = ChunkwiseNodeParser(chunk_size=12).get_nodes_from_documents([Document(text="One. Two. One. Two.")])
        >>> [(n.text, n.start_char_idx, n.end_char_idx) for n in nodes]
        [('One. Two.', 0, 9), ('One. Two.', 10, 19)]
    """

    strategy: str = Field(default="recursive", description="The chunkwise strategy.")
    chunk_size: int = Field(default=512, description="The largest chunk, in unit.")
    chunk_overlap: int = Field(default=0, description="What consecutive chunks share, in unit.")
    unit: Any = Field(default="chars", description="chars, words or tokens.")
    tokenizer: Any = Field(default="cl100k_base", description="The tokenizer for unit='tokens'.")
    strategy_params: dict[str, Any] = Field(default_factory=dict, description="The strategy's own parameters.")
    _chunker: Any = PrivateAttr()

    def __init__(
        self,
        strategy: str = "recursive",
        *,
        chunk_size: int = 512,
        chunk_overlap: int = 0,
        unit: Any = "chars",
        tokenizer: Any = "cl100k_base",
        include_metadata: bool = True,
        include_prev_next_rel: bool = True,
        callback_manager: CallbackManager | None = None,
        id_func: Any = None,
        **strategy_params: Any,
    ) -> None:
        chunker = make_adapter_chunker(strategy, chunk_size, chunk_overlap, unit, tokenizer, strategy_params)
        super().__init__(
            strategy=strategy,
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            unit=unit,
            tokenizer=tokenizer,
            strategy_params=dict(strategy_params),
            include_metadata=include_metadata,
            include_prev_next_rel=include_prev_next_rel,
            callback_manager=callback_manager or CallbackManager([]),
            id_func=id_func,
        )
        self._chunker = chunker

    @classmethod
    def class_name(cls) -> str:
        return "ChunkwiseNodeParser"

    @property
    def chunker(self) -> Any:
        """The chunkwise chunker that does the splitting."""
        return self._chunker

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        out: list[BaseNode] = []
        for node in get_tqdm_iterable(nodes, show_progress, "Parsing nodes"):
            out.extend(self._nodes_of(node))
        return out

    def _postprocess_parsed_nodes(self, nodes: list[BaseNode], parent_doc_map: dict[str, Any]) -> list[BaseNode]:
        # the base class searches each node's text in its document (str.find) and links
        # consecutive nodes; _nodes_of has set exact offsets and relationships already
        return nodes

    def _nodes_of(self, node: BaseNode) -> list[TextNode]:
        text = node.get_content(metadata_mode=MetadataMode.NONE)
        chunks: list[Chunk] = self._chunker.chunk(ChunkwiseDocument(text, id=node.node_id))
        source = node.source_node if node.source_node is not None else node.as_related_node_info()
        excluded_embed = [*node.excluded_embed_metadata_keys, *STRUCTURE_KEYS]
        excluded_llm = [*node.excluded_llm_metadata_keys, *STRUCTURE_KEYS]
        made: list[TextNode] = []
        for i, chunk in enumerate(chunks):
            metadata = chunk_metadata(chunk, node.metadata if self.include_metadata else None, deep=False)
            made.append(
                TextNode(
                    id_=chunk.id if self.id_func is default_id_func else self.id_func(i, node),
                    text=chunk.text,
                    start_char_idx=chunk.start_index,
                    end_char_idx=chunk.end_index,
                    metadata=metadata,
                    excluded_embed_metadata_keys=list(dict.fromkeys(excluded_embed)),
                    excluded_llm_metadata_keys=list(dict.fromkeys(excluded_llm)),
                    metadata_separator=node.metadata_separator,
                    metadata_template=node.metadata_template,
                    text_template=node.text_template,
                    relationships={NodeRelationship.SOURCE: source},
                )
            )
        self._link(chunks, made)
        return made

    def _link(self, chunks: list[Chunk], made: list[TextNode]) -> None:
        for node, link in zip(made, links(chunks)):
            rel = node.relationships
            if self.include_prev_next_rel:
                if link.prev is not None:
                    rel[NodeRelationship.PREVIOUS] = made[link.prev].as_related_node_info()
                if link.next is not None:
                    rel[NodeRelationship.NEXT] = made[link.next].as_related_node_info()
            if link.parent is not None:
                rel[NodeRelationship.PARENT] = made[link.parent].as_related_node_info()
            if link.children:
                rel[NodeRelationship.CHILD] = [made[c].as_related_node_info() for c in link.children]
