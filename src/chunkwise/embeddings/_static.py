"""Static embedders: one vector per vocabulary entry, averaged over a text's tokens.

Covers WordLlama (the default model, whose weights and tokenizer ship inside the
``wordllama`` wheel) and model2vec models saved in a local folder. Both are a lookup table
plus a mean: numpy only, no window, so a long text is averaged over *all* of its tokens --
nothing is truncated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ._common import as_text_list, batches, check_batch_size, l2_normalize, need, package_dir, progress

__all__ = ["StaticEmbedder"]

WORDLLAMA_NAME = "wordllama-l2_supercat-256"


class StaticEmbedder:
    """Mean of static token vectors, L2-normalised.

    Args:
        embeddings: float array ``[vocab_size, dim]``.
        tokenizer: a ``tokenizers.Tokenizer`` (a copy is taken; truncation and padding are
            switched off on it, so every token of every text counts).
        name: stable model name (part of cache keys).
        weights: optional per-token weights ``[vocab_size]`` (model2vec's SIF-like weights).
        batch_size: texts tokenized at a time.
        show_progress: a progress bar (None: for 1000+ texts on a terminal).

    Method:
        Static embeddings mean-pooled over tokens: WordLlama (Miller 2024, github.com/
        dleemiller/WordLlama) and model2vec (Tulkens & van Dongen 2024, github.com/MinishLab/
        model2vec).
    """

    def __init__(
        self,
        embeddings: Any,
        tokenizer: Any,
        name: str,
        *,
        weights: Any = None,
        batch_size: int = 256,
        show_progress: bool | None = None,
    ) -> None:
        np = need("numpy", "numpy", "semantic", "static embeddings")
        self.table = np.ascontiguousarray(np.asarray(embeddings, dtype=np.float32))
        self.weights = None if weights is None else np.asarray(weights, dtype=np.float32)
        tk = tokenizer.__class__.from_str(tokenizer.to_str())  # a private copy
        tk.no_truncation()
        tk.no_padding()
        self.tokenizer = tk
        self.name = name
        self.dim = int(self.table.shape[1])
        self.batch_size = check_batch_size(batch_size)
        self.show_progress = show_progress

    @classmethod
    def wordllama(cls, dim: int = 256, **kwargs: Any) -> StaticEmbedder:
        """WordLlama ``l2_supercat`` from the installed ``wordllama`` wheel (no download).

        The package's files are read directly; the package itself is not imported (its
        import configures the root logger).

        Args:
            dim: 64, 128, 256 or 512 leading dimensions of the 256-d table (Matryoshka).

        Raises:
            MissingDependencyError: ``wordllama`` is not installed (extra ``semantic``).
        """
        need("safetensors", "safetensors", "semantic", "the default embedding model")
        tokenizers = need("tokenizers", "tokenizers", "semantic", "the default embedding model")
        from safetensors import safe_open

        root = package_dir("wordllama", "semantic", "the default embedding model (WordLlama)")
        wpath = root / "weights" / "l2_supercat_256.safetensors"
        tpath = root / "tokenizers" / "l2_supercat_tokenizer_config.json"
        if dim not in (64, 128, 256):
            raise ConfigError(f"dim ({dim}) must be 64, 128 or 256 for the WordLlama l2_supercat table")
        with safe_open(str(wpath), framework="np") as f:
            table = f.get_tensor("embedding.weight")[:, :dim]
        tok = tokenizers.Tokenizer.from_file(str(tpath))
        name = WORDLLAMA_NAME if dim == 256 else f"wordllama-l2_supercat-{dim}"
        return cls(table, tok, name, **kwargs)

    @classmethod
    def model2vec(cls, path: str | Path, name: str | None = None, **kwargs: Any) -> StaticEmbedder:
        """A model2vec model saved in a local folder (``model.safetensors``, ``tokenizer.json``).

        Raises:
            ConfigError: the folder lacks those files.
            MissingDependencyError: ``safetensors``/``tokenizers`` missing (extra ``semantic``).
        """
        need("safetensors", "safetensors", "semantic", "model2vec models")
        tokenizers = need("tokenizers", "tokenizers", "semantic", "model2vec models")
        from safetensors import safe_open

        p = Path(path)
        st, tj = p / "model.safetensors", p / "tokenizer.json"
        if not st.is_file() or not tj.is_file():
            raise ConfigError(f"model2vec folder {str(p)!r} must hold model.safetensors and tokenizer.json")
        with safe_open(str(st), framework="np") as f:
            keys = set(f.keys())
            key = "embeddings" if "embeddings" in keys else min(keys)
            table = f.get_tensor(key)
            weights = f.get_tensor("weights") if "weights" in keys else None
        tok = tokenizers.Tokenizer.from_file(str(tj))
        if name is None:
            cfg = p / "config.json"
            base = p.name
            if cfg.is_file():
                base = json.loads(cfg.read_text("utf-8")).get("model_name", base) or base
            name = f"model2vec:{base}"
        return cls(table, tok, name, weights=weights, **kwargs)

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each text (no special tokens, nothing truncated)."""
        return [e.ids for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def pooled_sums(self, texts: Sequence[str]) -> tuple[Any, Any]:
        """Sum of token vectors and token count of each text (before the mean and norm).

        The model is linear: the vector of a concatenation is ``(sums[a] + sums[b]) /
        (counts[a] + counts[b])``, normalised -- which lets a chunker build the vectors of
        sentence windows from sentences (up to how the tokenizer cuts at the joins).

        Returns:
            ``(sums float32 [n, dim], counts int64 [n])``.
        """
        import numpy as np

        items = as_text_list(texts)
        sums = np.zeros((len(items), self.dim), dtype=np.float32)
        counts = np.zeros(len(items), dtype=np.int64)
        vocab = self.table.shape[0]
        with progress(len(items), self.show_progress, self.name) as bar:
            for i, j in batches(len(items), self.batch_size):
                ids_list = self.token_ids(items[i:j])
                lengths = np.fromiter((len(x) for x in ids_list), dtype=np.int64, count=len(ids_list))
                counts[i:j] = lengths
                total = int(lengths.sum())
                if total:
                    flat = np.fromiter((t for x in ids_list for t in x), dtype=np.int64, count=total)
                    np.clip(flat, 0, vocab - 1, out=flat)
                    vecs = self.table[flat]
                    if self.weights is not None:
                        vecs = vecs * self.weights[flat][:, None]
                    nz = lengths > 0
                    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[nz]
                    sums[i:j][nz] = np.add.reduceat(vecs, starts, axis=0)
                bar.update(j - i)
        return sums, counts

    def embed(self, texts: Sequence[str]) -> Any:
        """Embed texts: float32 ``[len(texts), dim]``, rows L2-normalised.

        A text with no known token (empty) gets a zero row.
        """
        import numpy as np

        sums, counts = self.pooled_sums(texts)
        return l2_normalize(sums / np.maximum(counts, 1)[:, None])

    def __repr__(self) -> str:
        return f"StaticEmbedder(name={self.name!r}, dim={self.dim})"
