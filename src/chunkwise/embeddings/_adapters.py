"""Adapters: any callable, sentence-transformers models, ONNX files, OpenAI-compatible HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError, ConfigError
from ._common import as_text_list, batches, check_batch_size, l2_normalize, need, progress

__all__ = ["CallableEmbedder", "OnnxEmbedder", "OpenAIEmbedder", "SentenceTransformerEmbedder"]


class CallableEmbedder:
    """Wrap ``fn(list[str]) -> array-like [n, dim]`` as an embedder.

    Args:
        fn: the function; called with batches of at most ``batch_size`` texts.
        name: stable model name (part of cache keys; default: the function's qualified name).
        dim: the vector size (default: found by embedding one text on first use).

    Raises:
        ChunkwiseError: ``fn`` returned the wrong number of rows or a wrong width.
    """

    def __init__(
        self,
        fn: Callable[[list[str]], Any],
        name: str | None = None,
        dim: int | None = None,
        *,
        batch_size: int = 256,
        show_progress: bool | None = None,
    ) -> None:
        if not callable(fn):
            raise ConfigError(f"model must be callable, got {type(fn).__name__}")
        self.fn = fn
        self.name = (
            name or f"callable:{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', type(fn).__name__)}"
        )
        self._dim = dim
        self.batch_size = check_batch_size(batch_size)
        self.show_progress = show_progress

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._call(["dimension probe"]).shape[1])
        return self._dim

    def _call(self, texts: list[str]) -> Any:
        import numpy as np

        got = np.asarray(self.fn(texts), dtype=np.float32)
        if got.ndim != 2 or got.shape[0] != len(texts):
            raise ChunkwiseError(f"embedding function {self.name!r} returned shape {got.shape} for {len(texts)} texts")
        return got

    def embed(self, texts: Sequence[str]) -> Any:
        """float32 ``[len(texts), dim]``, L2-normalised."""
        import numpy as np

        items = as_text_list(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        with progress(len(items), self.show_progress, self.name) as bar:
            for i, j in batches(len(items), self.batch_size):
                parts.append(self._call(items[i:j]))
                bar.update(j - i)
        out = l2_normalize(np.concatenate(parts))
        if self._dim is None:
            self._dim = int(out.shape[1])
        elif out.shape[1] != self._dim:
            raise ChunkwiseError(
                f"embedding function {self.name!r} returned width {out.shape[1]}, expected {self._dim}"
            )
        return out


class SentenceTransformerEmbedder:
    """A sentence-transformers model (a local path or name, or a loaded model object).

    sentence-transformers is imported only to load a model from a path or name.

    Inputs longer than the model's ``max_seq_length`` are cut into windows of that many
    word pieces and the window vectors averaged (weighted by length), as in
    :class:`~chunkwise.embeddings.BertEmbedder`; sentence-transformers alone would truncate.

    Raises:
        MissingDependencyError: sentence-transformers is not installed (extra ``st``).
    """

    def __init__(
        self, model: Any, name: str | None = None, *, batch_size: int = 32, show_progress: bool | None = None
    ) -> None:
        if isinstance(model, (str, Path)):
            st = need("sentence_transformers", "sentence-transformers", "st", "sentence-transformers models")
            model = st.SentenceTransformer(str(model))
        self.model = model
        self.name = name or (str(model) if isinstance(model, (str, Path)) else type(model).__name__)
        self.dim = int(self.model.get_sentence_embedding_dimension())
        self.batch_size = check_batch_size(batch_size)
        self.show_progress = show_progress

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        items = as_text_list(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        tok = getattr(self.model, "tokenizer", None)
        limit = int(getattr(self.model, "max_seq_length", 0) or 0) - 2
        pieces: list[str] = []
        owner: list[int] = []
        weight: list[float] = []
        for r, t in enumerate(items):
            if tok is not None and limit > 0:
                enc = tok(t, add_special_tokens=False, return_offsets_mapping=True, truncation=False)
                offs = enc["offset_mapping"]
                if len(offs) > limit:
                    for i in range(0, len(offs), limit):
                        w = offs[i : i + limit]
                        pieces.append(t[w[0][0] : w[-1][1]])
                        owner.append(r)
                        weight.append(float(len(w)))
                    continue
            pieces.append(t)
            owner.append(r)
            weight.append(1.0)
        vecs = self.model.encode(
            pieces, batch_size=self.batch_size, show_progress_bar=bool(self.show_progress), convert_to_numpy=True
        )
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        np.add.at(
            out, np.asarray(owner), np.asarray(vecs, dtype=np.float32) * np.asarray(weight, dtype=np.float32)[:, None]
        )
        return l2_normalize(out)


class OnnxEmbedder:
    """An ONNX sentence encoder (BERT-like, mean pooling) run with onnxruntime.

    Args:
        path: the ``.onnx`` file (inputs ``input_ids``, ``attention_mask`` and optionally
            ``token_type_ids``; first output ``[batch, seq, dim]`` token states, or
            ``[batch, dim]`` already pooled).
        tokenizer: a ``tokenizer.json`` path or a ``tokenizers.Tokenizer``.
        window: the largest sequence in tokens, including special tokens (default 256);
            longer texts are encoded in windows and averaged, never truncated.

    Raises:
        MissingDependencyError: onnxruntime or tokenizers is not installed (extra ``onnx``).
    """

    def __init__(
        self,
        path: str | Path,
        tokenizer: Any,
        name: str | None = None,
        *,
        window: int = 256,
        batch_size: int = 32,
        show_progress: bool | None = None,
    ) -> None:
        ort = need("onnxruntime", "onnxruntime", "onnx", "ONNX models")
        tokenizers = need("tokenizers", "tokenizers", "onnx", "ONNX models")
        tk = (
            tokenizers.Tokenizer.from_file(str(tokenizer))
            if isinstance(tokenizer, (str, Path))
            else tokenizer.__class__.from_str(tokenizer.to_str())
        )
        tk.no_truncation()
        tk.no_padding()
        self.tokenizer = tk
        self.session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.name = name or f"onnx:{Path(path).name}"
        self.window = window
        self.batch_size = check_batch_size(batch_size)
        self.show_progress = show_progress
        self.cls_id = tk.token_to_id("[CLS]")
        self.sep_id = tk.token_to_id("[SEP]")
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.embed(["dimension probe"]).shape[1])
        return self._dim

    def _run(self, seqs: list[list[int]]) -> Any:
        import numpy as np

        n = max(len(s) for s in seqs)
        ids = np.zeros((len(seqs), n), dtype=np.int64)
        mask = np.zeros((len(seqs), n), dtype=np.int64)
        for r, s in enumerate(seqs):
            ids[r, : len(s)] = s
            mask[r, : len(s)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        out = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})[0]
        if out.ndim == 3:
            m = mask[..., None].astype(np.float32)
            out = (out * m).sum(1) / np.maximum(m.sum(1), 1.0)
        return np.asarray(out, dtype=np.float32)

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        items = as_text_list(texts)
        step = self.window - 2
        seqs: list[list[int]] = []
        owner: list[int] = []
        for r, e in enumerate(self.tokenizer.encode_batch(items, add_special_tokens=False)):
            ids = e.ids or []
            for i in range(0, max(len(ids), 1), step):
                body = ids[i : i + step]
                seqs.append(
                    ([self.cls_id] if self.cls_id is not None else [])
                    + body
                    + ([self.sep_id] if self.sep_id is not None else [])
                )
                owner.append(r)
        if not items:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        order = sorted(range(len(seqs)), key=lambda k: len(seqs[k]))
        vecs: Any = None
        with progress(len(seqs), self.show_progress, self.name) as bar:
            for i, j in batches(len(order), self.batch_size):
                idx = order[i:j]
                got = self._run([seqs[k] for k in idx])
                if vecs is None:
                    vecs = np.zeros((len(seqs), got.shape[1]), dtype=np.float32)
                vecs[idx] = got * np.asarray([len(seqs[k]) for k in idx], dtype=np.float32)[:, None]
                bar.update(j - i)
        out = np.zeros((len(items), vecs.shape[1]), dtype=np.float32)
        np.add.at(out, np.asarray(owner), vecs)
        self._dim = int(out.shape[1])
        return l2_normalize(out)


class OpenAIEmbedder:
    """An OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (OpenAI, Ollama, vLLM,
    text-embeddings-inference), over the standard library's HTTP client.

    Args:
        model: the model name sent in the request (and part of ``name``).
        base_url: e.g. ``"http://127.0.0.1:11434/v1"``; the request goes to ``base_url +
            "/embeddings"``.
        api_key: sent as ``Authorization: Bearer``; default: none.
        dim: the vector size if known (else found on first use).
        timeout: seconds per request.

    The server decides what happens to inputs over its window (most truncate): keep chunks
    under the model's window when using this adapter.

    Raises:
        ChunkwiseError: the server answered with an error or a malformed body.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str | None = None,
        dim: int | None = None,
        batch_size: int = 64,
        timeout: float = 60.0,
        show_progress: bool | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url ({base_url!r}) must start with http:// or https://")
        self.model = model
        self.url = base_url.rstrip("/") + "/embeddings"
        self.api_key = api_key
        self.name = f"openai:{model}@{base_url.rstrip('/')}"
        self._dim = dim
        self.batch_size = check_batch_size(batch_size)
        self.timeout = timeout
        self.show_progress = show_progress

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.embed(["dimension probe"]).shape[1])
        return self._dim

    def _post(self, texts: list[str]) -> list[list[float]]:
        body = json.dumps({"model": self.model, "input": texts}).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                payload = json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise ChunkwiseError(f"embedding endpoint {self.url} answered {exc.code}: {exc.read()[:200]!r}") from exc
        except (urllib.error.URLError, OSError) as exc:
            raise ChunkwiseError(f"embedding endpoint {self.url} unreachable: {exc}") from exc
        try:
            data = sorted(payload["data"], key=lambda d: d.get("index", 0))
            vecs = [d["embedding"] for d in data]
        except (KeyError, TypeError) as exc:
            raise ChunkwiseError(f"embedding endpoint {self.url} returned no data[].embedding") from exc
        if len(vecs) != len(texts):
            raise ChunkwiseError(f"embedding endpoint {self.url} returned {len(vecs)} vectors for {len(texts)} texts")
        return vecs

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        items = as_text_list(texts)
        if not items:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        rows: list[list[float]] = []
        with progress(len(items), self.show_progress, self.name) as bar:
            for i, j in batches(len(items), self.batch_size):
                rows.extend(self._post(items[i:j]))
                bar.update(j - i)
        out = l2_normalize(np.asarray(rows, dtype=np.float32))
        self._dim = int(out.shape[1])
        return out
