"""Drop-in adapters for RAG frameworks: chunkwise's chunkers behind each framework's own
splitter interface, placed after the enrich stage (they turn :class:`~chunkwise.types.Chunk`
values into the framework's documents or nodes).

- :mod:`chunkwise.integrations.langchain`: ``ChunkwiseTextSplitter`` (a LangChain
  ``TextSplitter``), extra ``chunkwise[langchain]``.
- :mod:`chunkwise.integrations.llama_index`: ``ChunkwiseNodeParser`` (a LlamaIndex
  ``NodeParser``), extra ``chunkwise[llama-index]``.
- :mod:`chunkwise.integrations.haystack`: ``ChunkwiseDocumentSplitter`` (a Haystack 2
  component), extra ``chunkwise[haystack]``.

Importing this package imports none of the frameworks; each module imports its own.
"""
