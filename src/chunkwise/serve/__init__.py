"""``chunkwise serve``: a local web page that shows where strategies cut, side by side.

:func:`create_app` builds a Starlette application (extra ``serve``: Starlette and uvicorn,
imported only here). The page (``static/``: plain JavaScript and CSS in the package, no
CDN, no build step) talks to a small JSON API:

========================  ===========================================================
``GET  /api/strategies``  every registered strategy, its parameters and their defaults
``GET  /api/files``       the files under the served folder (relative POSIX paths)
``POST /api/document``    ``{"text": ...}`` or ``{"path": "rel/path"}``: a document id
``POST /api/upload``      the file's bytes as the body, ``?name=file.md``: a document id
``POST /api/chunk``       ``{"doc": id, "config": {...}}``: chunks, statistics, code
                          (with ``"pane"``, ``"seq"``: only the pane's newest request
                          runs; an older one answers 409)
``POST /api/query``       ``{"doc", "config", "query", "k"}``: the top-k chunks, scores
``POST /api/probes``      a probe set's bytes (``?name=q.jsonl``, the formats of
                          ``chunkwise eval``): a probe-set id and its size
``POST /api/evaluate``    ``{"doc", "probes", "config", "k"}``: recall, precision, IoU
========================  ===========================================================

Offsets in answers are Python ``str`` indices (code points), as in :class:`~chunkwise.Chunk`.
The statistics are :func:`chunkwise.evaluation.chunk_stats` of the one document (what
``chunkwise stats`` prints). For the strategies that embed sentences the answer carries
the similarity curve and the threshold; the server keeps every sentence vector it computed
(per model, in memory), so moving the threshold or the size re-cuts without embedding again.

Safety: the LLM strategies (those taking a ``client``) are offered only when the server is
given an endpoint (``llm_base_url``); the command listens on 127.0.0.1 unless told otherwise; a body over ``max_upload``
bytes is refused with 413; a path never leaves the served folder (resolved, symlinks
followed, then checked relative to the folder); a binary file, malformed JSON or an invalid
configuration is a 4xx answer with a message, and the server keeps running.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..embeddings._common import need

__all__ = ["DEFAULT_MAX_UPLOAD", "STATIC_DIR", "ServeError", "chunk_view", "create_app", "evaluate_view",
           "query_view"]

STATIC_DIR = Path(__file__).with_name("static")
DEFAULT_MAX_UPLOAD = 10 * 1024 * 1024  # bytes
_MAX_DOCS = 32  # documents kept in memory (least recently used dropped)
_MAX_FILES = 2000  # files listed under the served folder
_MAX_VECTORS = 100_000  # texts whose vectors are memoised per model before the memo is cleared
# objects, secrets, endpoints: not settable from the page
_SKIP_PARAMS = {"client", "cache", "api_key", "base_url"}


class ServeError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# -- the embedding memo: re-cut without embedding again ------------------------------------


class _Memo:
    """An embedder that remembers the vector of every text it embedded (same vectors as
    the embedder it wraps: each text is embedded on its own terms)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self._vec: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _fill(self, table: dict[str, Any], texts: Sequence[str], compute: Any) -> list[Any]:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in table))
            if missing:
                if len(table) + len(missing) > _MAX_VECTORS:
                    table.clear()
                for t, row in zip(missing, compute(missing)):
                    table[t] = row
            return [table[t] for t in texts]

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        rows = self._fill(self._vec, list(texts), lambda m: np.asarray(self.inner.embed(m), dtype=np.float32))
        return np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)


class _StaticMemo(_Memo):
    """A :class:`_Memo` of a linear static model: its token sums are memoised too, so that
    sentence windows (``buffer_size``) are built as the unwrapped model builds them."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._sums: dict[str, Any] = {}

    def pooled_sums(self, texts: Sequence[str]) -> tuple[Any, Any]:
        import numpy as np

        def compute(missing: list[str]) -> list[tuple[Any, int]]:
            sums, counts = self.inner.pooled_sums(missing)
            return list(zip(sums, counts.tolist()))

        rows = self._fill(self._sums, list(texts), compute)
        if not rows:
            return np.zeros((0, self.inner.dim), np.float32), np.zeros(0, np.int64)
        return np.stack([r[0] for r in rows]), np.asarray([r[1] for r in rows], dtype=np.int64)

    def embed(self, texts: Sequence[str]) -> Any:
        """As the static model embeds: the memoised token sums, averaged and normalised."""
        import numpy as np

        from ..embeddings._common import l2_normalize

        sums, counts = self.pooled_sums(texts)
        return l2_normalize(sums / np.maximum(counts, 1)[:, None])


# -- helpers ------------------------------------------------------------------------------


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return _json_safe(value.tolist())
    return repr(value)


def _is_llm(cls: Any) -> bool:
    """A strategy that sends the document to a chat model (its chunker has the endpoint
    fields of :class:`chunkwise.llm.options.LLMOptions`; ``hierarchical`` takes a
    ``client`` only for such levels, and is not one)."""
    from ..llm.options import LLMOptions

    return isinstance(cls, type) and issubclass(cls, LLMOptions)


def _strategies(llm: bool = False) -> dict[str, Any]:
    """The strategies the page offers (``llm``: with those that call a chat model)."""
    from ..chunkers.embedding import EmbeddingChunker
    from ..commands._options import CLI_DEFAULTS, UNITS
    from ..registry import get_strategy, strategy_names

    out = []
    hidden = []
    for name in strategy_names():
        cls = get_strategy(name)
        if not llm and _is_llm(cls):
            hidden.append(name)
            continue
        doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
        params = {}
        for key, default in cls.parameters().items():
            if key in ("chunk_size", "chunk_overlap", "unit", "tokenizer") or key in _SKIP_PARAMS:
                continue
            if default is None or isinstance(default, (bool, int, float, str)):
                params[key] = _json_safe(default)
            elif isinstance(default, (list, tuple)):
                params[key] = _json_safe(default)
        semantic = isinstance(cls, type) and issubclass(cls, EmbeddingChunker)
        out.append({"name": name, "doc": doc, "parameters": params, "semantic": semantic})
    # the page starts where `chunkwise chunk` does (auto, 96 tokens), not at the Python defaults
    return {"defaults": dict(CLI_DEFAULTS), "units": list(UNITS), "strategies": out, "llm_hidden": hidden}


def _code(config: dict[str, Any], source: str | None) -> dict[str, str]:
    """The Python call and the CLI command that give the same chunks."""
    args = [f"strategy={config['strategy']!r}", f"chunk_size={config['chunk_size']}",
            f"chunk_overlap={config['chunk_overlap']}", f"unit={config['unit']!r}"]
    cli = ["chunkwise", "chunk", _shell(source) if source else "FILE", "--strategy", config["strategy"],
           "--chunk-size", str(config["chunk_size"]), "--chunk-overlap", str(config["chunk_overlap"]),
           "--unit", config["unit"]]
    if config["unit"] == "tokens":
        args.append(f"tokenizer={config['tokenizer']!r}")
        cli += ["--tokenizer", _shell(config["tokenizer"])]
    for key, value in config["params"].items():
        args.append(f"{key}={value!r}")
        cli += ["-p", _shell(f"{key}={json.dumps(value)}")]
    what = f"chunkwise.load({source!r})" if source else "text"
    python = "import chunkwise\n\nchunks = chunkwise.chunk(" + ", ".join([what, *args]) + ")"
    return {"python": python, "cli": " ".join(cli)}


def _shell(word: str) -> str:
    import shlex

    return shlex.quote(word)


class _State:
    """What the server keeps: the served folder, the documents loaded, the memos."""

    def __init__(self, root: Path | None, max_upload: int, llm_base_url: str | None = None,
                 llm_model: str | None = None, llm_api_key: str | None = None) -> None:
        self.llm_base_url, self.llm_model, self.llm_api_key = llm_base_url, llm_model, llm_api_key
        self.latest: dict[str, int] = {}  # the newest request number of each pane
        self.pane_locks: dict[str, Any] = {}  # one chunking at a time per pane
        try:
            self.root = root.resolve() if root is not None else None
        except (OSError, RuntimeError) as exc:  # a symbolic link loop
            from ..errors import ConfigError

            raise ConfigError(f"root: {root} cannot be resolved ({exc})") from exc
        self.only: str | None = None  # a file given on the command line: its folder, that file alone
        if self.root is not None and self.root.is_file():
            self.root, self.only = self.root.parent, self.root.name
        self.max_upload = max_upload
        self.cwd = Path.cwd()  # where the server started: "copy as code" paths are relative to it
        self.docs: OrderedDict[str, tuple[Any, str | None]] = OrderedDict()
        self.memos: dict[str, _Memo] = {}
        self.probes: OrderedDict[str, tuple[list[Any], str]] = OrderedDict()
        self.lock = threading.Lock()
        self.counter = 0

    # documents
    def code_path(self, full: Path) -> str:
        """The path "copy as code" names: relative to the folder the server was started
        in when the file is under it, else absolute."""
        try:
            return full.relative_to(self.cwd.resolve()).as_posix()
        except ValueError:
            return full.as_posix()

    def add(self, doc: Any, source: str | None, code_path: str | None = None) -> dict[str, Any]:
        """Keep ``doc`` (named ``source``; ``code_path``: the path its code names, None for
        text not read from a file of the served folder)."""
        with self.lock:
            self.counter += 1
            key = f"d{self.counter}"
            self.docs[key] = (doc, code_path)
            while len(self.docs) > _MAX_DOCS:
                self.docs.popitem(last=False)
        return {"doc": key, "text": doc.text, "name": source or "pasted text",
                "format": doc.metadata.get("format"), "chars": len(doc.text)}

    def get(self, key: Any) -> tuple[Any, str | None]:
        with self.lock:
            if not isinstance(key, str) or key not in self.docs:
                raise ServeError(f"unknown document {key!r}: load it again (paste, upload or pick a file)", 404)
            self.docs.move_to_end(key)
            return self.docs[key]

    # paths
    def resolve(self, rel: Any) -> Path:
        """``rel`` under the served folder, resolved (symlinks followed); refused outside it."""
        if self.root is None:
            raise ServeError("no folder is served: start the server with `chunkwise serve FOLDER`", 404)
        if not isinstance(rel, str) or not rel or "\x00" in rel:
            raise ServeError("path must be a non-empty string relative to the served folder")
        try:
            full = (self.root / rel).resolve()
        except (OSError, RuntimeError) as exc:
            raise ServeError(f"path {rel!r} cannot be resolved: {exc}") from exc
        if full != self.root and not full.is_relative_to(self.root):
            raise ServeError(f"path {rel!r} is outside the served folder", 403)
        if self.only is not None and full != self.root / self.only:
            raise ServeError(f"path {rel!r} is not the file served ({self.only})", 403)
        if not full.is_file():
            raise ServeError(f"no file {rel!r} under the served folder", 404)
        return full

    def files(self) -> list[str]:
        if self.root is None:
            return []
        if self.only is not None:
            return [self.only]
        out: list[str] = []
        for top, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for n in sorted(names):
                if n.startswith("."):
                    continue
                p = Path(top) / n
                try:
                    p.resolve().relative_to(self.root)
                except (ValueError, OSError, RuntimeError):
                    # a link out of the folder, or a symbolic link loop (RuntimeError before
                    # Python 3.13, OSError after): not offered, as `chunkwise chunk` skips it
                    continue
                if not _readable(p):
                    continue  # no loader reads it (an image, an archive, binary data)
                out.append(p.relative_to(self.root).as_posix())
                if len(out) >= _MAX_FILES:
                    return out
        return out

    def embedder_for(self, model: Any) -> Any:
        from ..parsers.semantic import make_embedder

        key = "default" if model is None else str(model)
        with self.lock:
            memo = self.memos.get(key)
        if memo is None:
            inner = make_embedder(model, None, None)
            memo = _StaticMemo(inner) if hasattr(inner, "pooled_sums") else _Memo(inner)
            with self.lock:
                memo = self.memos.setdefault(key, memo)
        return memo


def _readable(path: Path) -> bool:
    """Whether a loader reads the file (``chunkwise chunk``'s detection on its first bytes)."""
    from ..loaders.base import HEAD_BYTES, detect_loader

    try:
        with path.open("rb") as f:
            head = f.read(HEAD_BYTES)
        detect_loader(path.name, head)
    except Exception:  # noqa: BLE001 - unreadable or no loader: not offered
        return False
    return True


def _load_file(path: Path, name: str, root: Path | None = None) -> Any:
    """A file read exactly as ``chunkwise chunk FILE`` reads it (:func:`chunkwise.load` of
    the path: format, code language and encoding from the file), named ``name`` (id and
    relative path, as ``chunkwise eval`` names a folder's file, so that a probe set's
    references find it)."""
    from dataclasses import replace

    from ..errors import ChunkwiseError
    from ..loaders import load
    from ..types import document_id_for_path

    def _named(message: str) -> str:
        return message.replace(path.as_posix(), name).replace(str(path), name).replace("<bytes>", name)

    try:
        doc = load(path, root=root)
    except ChunkwiseError as exc:
        message = _named(str(exc))
        raise ServeError(message if message.startswith(name) else f"{name}: {message}", 415) from exc
    except Exception as exc:  # noqa: BLE001 - a damaged file: its message, not a crash
        raise ServeError(f"{name} cannot be read: {type(exc).__name__}: {_named(str(exc))}", 415) from exc
    if "\x00" in doc.text[:8192]:
        raise ServeError(f"{name} looks binary (NUL bytes); give a text, Markdown, HTML, PDF or office file", 415)
    return replace(doc, id=document_id_for_path(name), source=name,
                   metadata={**doc.metadata, "filename": Path(name).name, "relative_path": name})


def _load_bytes(data: bytes, name: str, max_upload: int) -> Any:
    """An upload, read as ``chunkwise chunk`` reads a file of that name (written to a
    temporary folder under its own name, then :func:`_load_file`)."""
    import tempfile

    if len(data) > max_upload:
        raise ServeError(f"{name} is {len(data)} bytes; the limit is {max_upload} bytes "
                         "(start the server with a larger --max-upload)", 413)
    base = Path(name).name or "upload.txt"
    if base in (".", "..") or "\x00" in base:
        base = "upload.txt"
    with tempfile.TemporaryDirectory(prefix="chunkwise-upload-") as tmp:
        path = Path(tmp) / base
        path.write_bytes(data)
        return _load_file(path, name)


def _config(raw: Any, strategies: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ServeError("config must be an object: {strategy, chunk_size, chunk_overlap, unit, params}")
    names = {s["name"] for s in strategies["strategies"]}
    strategy = raw.get("strategy", "recursive")
    if strategy in strategies.get("llm_hidden", ()):
        raise ServeError(f"strategy {strategy!r} sends the document to a chat model, so the page offers it only "
                         "when the server is started with --llm-base-url URL (and --llm-model NAME); "
                         "use the Python API or `chunkwise chunk` otherwise", 403)
    if strategy not in names:
        raise ServeError(f"strategy {strategy!r} is unknown; choose one of {', '.join(sorted(names))}")
    out: dict[str, Any] = {"strategy": strategy}
    for key, default in (("chunk_size", 512), ("chunk_overlap", 0)):
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ServeError(f"{key} must be an integer, not {value!r}")
        out[key] = value
    out["unit"] = raw.get("unit", "chars")
    if out["unit"] not in strategies["units"]:
        raise ServeError(f"unit {out['unit']!r} is unknown; choose one of {', '.join(strategies['units'])}")
    out["tokenizer"] = raw.get("tokenizer") or "cl100k_base"
    params = raw.get("params") or {}
    if not isinstance(params, dict):
        raise ServeError("params must be an object of the strategy's parameters")
    bad = sorted(set(params) & _SKIP_PARAMS)
    if bad:
        raise ServeError(f"parameter(s) {', '.join(bad)} cannot be set from the page")
    _name_only("tokenizer", out["tokenizer"])
    _name_only("model", params.get("model"))
    defaults = next(s["parameters"] for s in strategies["strategies"] if s["name"] == strategy)
    for key, value in params.items():
        _check_type(strategy, key, value, defaults.get(key))
    out["params"] = dict(params)
    return out


def _check_type(strategy: str, key: str, value: Any, default: Any) -> None:
    """A parameter of the page has the JSON type of its default (a list for a list, a
    number for a number, ...), else a 400 naming it; a default of None takes anything."""
    if default is None or value is None:
        return
    if isinstance(default, bool):
        ok, want = isinstance(value, bool), "true or false"
    elif isinstance(default, (int, float)):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        want = "a number"
    elif isinstance(default, str):
        ok, want = isinstance(value, str), "a string"
    elif isinstance(default, list):
        ok, want = isinstance(value, list), f"a list like {json.dumps(default)[:80]}"
    else:
        return
    if not ok:
        raise ServeError(f"parameter {key} of {strategy!r} must be {want}, not {json.dumps(value)}")


def _name_only(key: str, value: Any) -> None:
    """A tokenizer or model from the page is a name: a path (which could leave the served
    folder) or an endpoint is refused."""
    if value is None:
        return
    text = str(value)
    if not isinstance(value, str) or any(c in text for c in "/\\:") or text.startswith("."):
        raise ServeError(f"{key} {value!r}: the page takes a {key} name only (no path or endpoint); "
                         "use the Python API or the command line for others")


def _chunker(state: _State, config: dict[str, Any]) -> Any:
    """The configuration's chunker; a semantic one embeds through the server's memo."""
    from ..api import make_chunker
    from ..chunkers.embedding import EmbeddingChunker
    from ..errors import ChunkwiseError

    params = dict(config["params"])
    kwargs = dict(chunk_size=config["chunk_size"], chunk_overlap=config["chunk_overlap"], unit=config["unit"],
                  tokenizer=config["tokenizer"])
    try:
        from ..registry import get_strategy

        if _is_llm(get_strategy(config["strategy"])):
            if state.llm_base_url is None:  # the page does not offer it; a request naming it is refused
                raise ServeError(f"strategy {config['strategy']!r} needs the server started with --llm-base-url", 403)
            from ..llm.client import ChatClient

            # the endpoint and key are the operator's, given on the command line; never
            # the environment's (api_key "" reads no OPENAI_API_KEY)
            params["client"] = ChatClient(params.pop("model", None) or state.llm_model or "",
                                          base_url=state.llm_base_url, api_key=state.llm_api_key or "")
        chunker = make_chunker(config["strategy"], **kwargs, **params)
        if isinstance(chunker, EmbeddingChunker) and (chunker.model is None or isinstance(chunker.model, str)):
            chunker = make_chunker(config["strategy"], **kwargs, **{**params, "model": state.embedder_for(chunker.model)})
    except TypeError as exc:  # a parameter of the wrong JSON type (a number for a list, ...)
        given = ", ".join(f"{k}={json.dumps(v)}" for k, v in config["params"].items()) or "none"
        raise ServeError(f"a parameter of strategy {config['strategy']!r} has the wrong type ({exc}); "
                         f"parameters given: {given}", 422) from exc
    except (ChunkwiseError, ValueError, ImportError) as exc:
        raise ServeError(str(exc), 422) from exc
    return chunker


def chunk_view(state: _State, doc: Any, source: str | None, config: dict[str, Any], raw: bool = False) -> Any:
    """The answer of ``/api/chunk``: chunks, statistics, the similarity curve, code
    (``raw``: the list of chunks only)."""
    from ..errors import ChunkwiseError
    from ..evaluation import chunk_stats

    t0 = time.perf_counter()
    try:
        chunker = _chunker(state, config)
        analysis = None
        if hasattr(chunker, "analyze"):
            analysis = chunker.analyze(doc)
            chunks = chunker.build_chunks(doc, analysis.spans, analysis.segments) if analysis.sentences else []
        else:
            chunks = chunker.chunk(doc)
    except TypeError as exc:  # a parameter of the wrong JSON type (a number for a list, ...)
        given = ", ".join(f"{k}={json.dumps(v)}" for k, v in config["params"].items()) or "none"
        raise ServeError(f"a parameter of strategy {config['strategy']!r} has the wrong type ({exc}); "
                         f"parameters given: {given}", 422) from exc
    except (ChunkwiseError, ValueError, ImportError) as exc:
        raise ServeError(str(exc), 422) from exc
    elapsed = (time.perf_counter() - t0) * 1000
    if raw:
        return chunks

    class _Done:  # the chunks just made, measured by chunk_stats without chunking again
        def __getattr__(self, name: str) -> Any:
            return getattr(chunker, name)

        def chunk(self, _doc: Any) -> list[Any]:
            return chunks

    stats = chunk_stats([doc], _Done(), label=config["strategy"])  # type: ignore[arg-type]
    out: dict[str, Any] = {
        "chunks": [
            {"index": c.index, "start": c.start_index, "end": c.end_index, "size": c.size,
             "boundary": c.metadata.get("boundary"), "metadata": _json_safe(c.metadata.copy()),
             "context": c.context}
            for c in chunks
        ],
        "unit": chunker.sizer.unit,
        "chunk_size": chunker.chunk_size,
        "stats": _json_safe({**stats.row(), "boundaries": stats.boundaries}),
        "code": _code(config, source),
        "elapsed_ms": round(elapsed, 2),
    }
    if analysis is not None:
        kind = getattr(chunker, "threshold_type", None)
        thr = analysis.threshold
        line = None
        if kind and not math.isnan(thr) and kind != "gradient":
            line = thr if kind == "absolute" else 1 - thr  # distance thresholds drawn as similarity
        out["semantic"] = {
            "gaps": [e for _, e in analysis.sentences[:-1]],
            "similarities": _json_safe([float(x) for x in analysis.similarities]),
            "threshold_type": kind,
            "threshold": _json_safe(line),
            "cuts": list(analysis.cuts),
        }
    return out


def query_view(state: _State, doc: Any, config: dict[str, Any], query: str, k: int,
               model: str | None) -> dict[str, Any]:
    """The answer of ``/api/query``: the ``k`` chunks of the configuration nearest to the
    query, best first, as ``{"hits": [{"index", "score"}], "model"}``.

    Method: the query and every chunk's :meth:`~chunkwise.Chunk.text_for_embedding` are
    embedded with ``model`` (default: the offline default model, vectors memoised); the
    score is the cosine similarity (the vectors are unit length), ties broken by chunk order.
    """
    import numpy as np

    chunks = [c for c in chunk_view(state, doc, None, config, raw=True) if c.metadata.get("leaf", True)]
    if not chunks:
        return {"hits": [], "model": None}
    try:
        emb = state.embedder_for(model)
        vecs = emb.embed([c.text_for_embedding() for c in chunks])
        q = emb.embed([query])[0]
    except Exception as exc:  # noqa: BLE001 - the model's message, not a crash
        raise ServeError(f"cannot embed with model {model or 'default'!r}: {exc}", 422) from exc
    scores = np.asarray(vecs, dtype=np.float32) @ np.asarray(q, dtype=np.float32)
    order = sorted(range(len(chunks)), key=lambda i: (-float(scores[i]), i))[:k]
    return {"hits": [{"index": chunks[i].index, "score": round(float(scores[i]), 4)} for i in order],
            "model": emb.name}


def _load_probes(data: bytes, name: str) -> list[Any]:
    import tempfile

    from ..errors import ChunkwiseError
    from ..evaluation import load_questions

    suffix = Path(name).suffix.lower()
    if suffix not in (".csv", ".jsonl", ".json"):
        raise ServeError(f"{name}: a probe set is Chroma's CSV (.csv) or JSON lines (.jsonl)", 415)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"probes{suffix}"
        path.write_bytes(data)
        try:
            questions = load_questions(path)
        except (ChunkwiseError, ValueError) as exc:
            raise ServeError(f"{name}: {exc}".replace(str(path), name), 422) from exc
    if not questions:
        raise ServeError(f"{name} holds no question")
    return questions


def evaluate_view(state: _State, doc: Any, questions: list[Any], config: dict[str, Any], k: int) -> dict[str, Any]:
    """The answer of ``/api/evaluate``: ``chunkwise eval``'s means for the questions of the
    probe set whose references all name this document (the others are counted as skipped).

    Method: :func:`chunkwise.evaluation.evaluate` over this one document, the default model
    (vectors memoised), top ``k``.
    """
    from ..errors import ChunkwiseError
    from ..evaluation import DocumentNames, evaluate

    names = DocumentNames([doc])
    used = [q for q in questions if q.references and all(names.get(d) is not None for d, _, _ in q.references)]
    out: dict[str, Any] = {"questions": len(used), "skipped": len(questions) - len(used), "k": k}
    if not used:
        out["means"] = None
        return out
    chunker = _chunker(state, config)
    try:
        result = evaluate([doc], used, chunker, state.embedder_for(None), k=k)
    except (ChunkwiseError, ValueError) as exc:
        raise ServeError(str(exc), 422) from exc
    out["means"] = _json_safe({key: round(float(v), 4) for key, v in result.means.items()})
    out["n_chunks"] = result.n_chunks
    return out


# -- the application ----------------------------------------------------------------------


async def _off_loop(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a daemon thread, awaited: heavy work (late chunking, embedding)
    never blocks the event loop, and a stopping server (Ctrl-C, SIGTERM) does not wait for
    it (a thread pool's workers would be joined at exit)."""
    import asyncio

    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if not done.done():
            done.set_result(value) if ok else done.set_exception(value)

    def work() -> None:
        try:
            result: tuple[bool, Any] = (True, fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting request
            result = (False, exc)
        try:
            loop.call_soon_threadsafe(settle, *result)
        except RuntimeError:  # the loop is closed: the server stopped, nobody waits
            pass

    threading.Thread(target=work, name="chunkwise-serve-work", daemon=True).start()
    return await done


def create_app(root: str | os.PathLike[str] | None = None, *, max_upload: int = DEFAULT_MAX_UPLOAD,
               llm_base_url: str | None = None, llm_model: str | None = None, llm_api_key: str | None = None) -> Any:
    """The playground as a Starlette application.

    Args:
        root: the folder whose files the page may open, or one file (opened when the page
            loads; no other file of its folder is offered); ``None``: only pasted and
            uploaded text.
        max_upload: the largest request body accepted, in bytes (413 past it).
        llm_base_url: the OpenAI-compatible endpoint the LLM strategies (``agentic``,
            ``propositions``) call; ``None`` (default): the page does not offer them and
            the API refuses them (403), so that no document leaves the machine.
        llm_model: the chat model of those strategies (the page may name another).
        llm_api_key: the key sent to ``llm_base_url``; ``OPENAI_API_KEY`` is never read.

    Returns:
        A ``starlette.applications.Starlette`` (serve it with uvicorn, or test it with
        ``starlette.testclient.TestClient``).

    Raises:
        MissingDependencyError: Starlette is not installed (extra ``serve``).
    """
    need("starlette", "starlette", "serve", "chunkwise serve")
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    state = _State(Path(root) if root is not None else None, max_upload, llm_base_url, llm_model, llm_api_key)
    cached: dict[str, Any] = {}

    def strategies() -> dict[str, Any]:
        if "s" not in cached:
            cached["s"] = _strategies(llm=state.llm_base_url is not None)
        return cached["s"]

    async def body(request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > state.max_upload:
            raise ServeError(f"the request is {declared} bytes; the limit is {state.max_upload} bytes "
                             "(start the server with a larger --max-upload)", 413)
        chunks = bytearray()
        async for part in request.stream():
            chunks += part
            if len(chunks) > state.max_upload:
                raise ServeError(f"the request is over the limit of {state.max_upload} bytes "
                                 "(start the server with a larger --max-upload)", 413)
        return bytes(chunks)

    async def json_body(request: Request) -> dict[str, Any]:
        data = await body(request)
        try:
            value = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ServeError(f"the request body is not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ServeError("the request body must be a JSON object")
        return value

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html")

    async def api_strategies(request: Request) -> Response:
        return JSONResponse(strategies())

    async def api_files(request: Request) -> Response:
        return JSONResponse({"root": str(state.root) if state.root else None, "files": state.files(),
                             "open": state.only})

    async def api_document(request: Request) -> Response:
        data = await json_body(request)
        if "text" in data:
            from ..types import Document

            if not isinstance(data["text"], str):
                raise ServeError("text must be a string")
            return JSONResponse(state.add(Document(data["text"]), None))
        if "path" in data:
            full = state.resolve(data["path"])
            size = full.stat().st_size
            if size > state.max_upload:
                raise ServeError(f"{data['path']} is {size} bytes; the limit is {state.max_upload} bytes "
                                 "(start the server with a larger --max-upload)", 413)
            rel = full.relative_to(state.root).as_posix() if state.root and full != state.root else full.name
            doc = _load_file(full, rel, root=state.root)
            return JSONResponse(state.add(doc, rel, state.code_path(full)))
        raise ServeError('give {"text": ...} or {"path": "relative/path"}')

    async def api_upload(request: Request) -> Response:
        name = request.query_params.get("name") or "upload.txt"
        data = await body(request)
        if not data:
            raise ServeError("the upload is empty")
        doc = _load_bytes(data, Path(name).name, state.max_upload)
        return JSONResponse(state.add(doc, Path(name).name))

    async def api_chunk(request: Request) -> Response:
        data = await json_body(request)
        doc, source = state.get(data.get("doc"))
        config = _config(data.get("config"), strategies())
        pane, seq = data.get("pane"), data.get("seq")
        if pane is None:
            return JSONResponse(await _off_loop(chunk_view, state, doc, source, config))
        if not isinstance(pane, str) or isinstance(seq, bool) or not isinstance(seq, int):
            raise ServeError("pane must be a string and seq an integer (the pane's request number)")
        # one chunking at a time per pane, only the newest request of the pane runs: a
        # request superseded while it waits is not started, one superseded while it runs
        # is not answered (409), so slider moves never pile up work
        superseded = ServeError("superseded by a newer request of the same pane", 409)
        with state.lock:
            if seq <= state.latest.get(pane, -1):
                raise superseded
            state.latest[pane] = seq
            lock = state.pane_locks.setdefault(pane, threading.Lock())
            while len(state.latest) > 4 * _MAX_DOCS:  # forget the oldest panes
                old = next(iter(state.latest))
                state.latest.pop(old)
                state.pane_locks.pop(old, None)

        def single_flight() -> Any:
            with lock:  # the pane's previous chunking ends first
                if state.latest.get(pane) != seq:
                    raise superseded  # a newer one came while this one waited: not started
                return chunk_view(state, doc, source, config)

        answer = await _off_loop(single_flight)
        if state.latest.get(pane) != seq:
            raise superseded
        return JSONResponse(answer)

    async def api_query(request: Request) -> Response:
        data = await json_body(request)
        doc, _ = state.get(data.get("doc"))
        config = _config(data.get("config"), strategies())
        query, k, model = data.get("query"), data.get("k", 3), data.get("model")
        if not isinstance(query, str) or not query.strip():
            raise ServeError("query must be a non-empty string")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
            raise ServeError(f"k must be an integer from 1 to 100, not {k!r}")
        _name_only("model", model)
        return JSONResponse(await _off_loop(query_view, state, doc, config, query, k, model or None))

    async def api_probes(request: Request) -> Response:
        name = Path(request.query_params.get("name") or "probes.jsonl").name
        data = await body(request)
        questions = _load_probes(data, name)
        with state.lock:
            state.counter += 1
            key = f"p{state.counter}"
            state.probes[key] = (questions, name)
            while len(state.probes) > _MAX_DOCS:
                state.probes.popitem(last=False)
        return JSONResponse({"probes": key, "name": name, "questions": len(questions)})

    async def api_evaluate(request: Request) -> Response:
        data = await json_body(request)
        doc, _ = state.get(data.get("doc"))
        with state.lock:
            found = state.probes.get(data.get("probes"))  # type: ignore[arg-type]
        if found is None:
            raise ServeError(f"unknown probe set {data.get('probes')!r}: load it again", 404)
        config = _config(data.get("config"), strategies())
        k = data.get("k", 5)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
            raise ServeError(f"k must be an integer from 1 to 100, not {k!r}")
        return JSONResponse(await _off_loop(evaluate_view, state, doc, found[0], config, k))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServeError)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def crashed(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500)

    routes = [
        Route("/", index),
        Route("/api/strategies", api_strategies),
        Route("/api/files", api_files),
        Route("/api/document", api_document, methods=["POST"]),
        Route("/api/upload", api_upload, methods=["POST"]),
        Route("/api/chunk", api_chunk, methods=["POST"]),
        Route("/api/query", api_query, methods=["POST"]),
        Route("/api/probes", api_probes, methods=["POST"]),
        Route("/api/evaluate", api_evaluate, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={ServeError: refused, HTTPException: http_error,
                                                       Exception: crashed})
    app.state.chunkwise = state
    return app
