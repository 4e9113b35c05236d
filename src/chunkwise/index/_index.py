"""The index: build (incremental, one transaction) and query."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ChunkwiseError, ConfigError
from ..llm.options import FALLBACK_KEY
from ..types import Chunk, Document
from . import _store as store
from ._vectors import VectorFile, vector_path

__all__ = ["RETURNS", "BuildReport", "Hit", "Index", "build_index", "query"]

RETURNS = ("chunks", "parents", "window", "merged")
"""What :meth:`Index.query` can return: the chunks matched, or their expansion (see
``chunkwise.evaluation.expand``): the parent chunk of a hierarchy, the sentence window,
or auto-merging (a parent instead of most of its children)."""

_EXPANSION = {"chunks": "none", "parents": "parent", "window": "window", "merged": "merged"}


@dataclass(frozen=True)
class Hit:
    """One result of a query.

    Attributes:
        rank: 1 for the best.
        score: cosine similarity of the query and the best chunk matched.
        chunk: what is returned: the chunk matched (``returns="chunks"``) or its
            expansion; ``chunk.text == document.text[chunk.start_index:chunk.end_index]``.
        source: the document's source path.
        matched: ids of the chunks matched that this result stands for.
    """

    rank: int
    score: float
    chunk: Chunk
    source: str | None
    matched: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: rank, score, source, then the chunk's fields, then matched."""
        return {
            "rank": self.rank,
            "score": round(self.score, 6),
            "source": self.source,
            **self.chunk.to_dict(),
            "matched": list(self.matched),
        }


@dataclass(frozen=True)
class BuildReport:
    """What a build did. Document ids in each tuple; ``embedded``: chunks embedded.

    ``fallback``: documents (among ``added`` and ``changed``) of which some part was
    chunked by an LLM strategy's fallback because the model's answers stayed invalid
    (their chunks carry ``metadata["llm_fallback"]`` True). They are stored, so that the
    index holds every document, but not as final: the next build chunks them again (and
    asks the model again), whatever changed.
    """

    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    fallback: tuple[str, ...] = ()
    embedded: int = 0
    chunks: int = 0
    documents: int = 0
    generation: int = 0
    rebuilt: bool = False
    seconds: float = 0.0
    model: str = ""

    def summary(self) -> str:
        """One line: the counts of the build (``1 document``, ``2 documents``), its time
        and the documents chunked in part by an LLM strategy's fallback."""
        return (
            f"{_counted(self.documents, 'document')}, {_counted(self.chunks, 'chunk')} in the index "
            f"(generation {self.generation}); "
            f"{len(self.added)} added, {len(self.changed)} changed, {len(self.removed)} removed, "
            f"{len(self.unchanged)} unchanged; {_counted(self.embedded, 'chunk')} embedded with {self.model}"
            + (" (rebuilt)" if self.rebuilt else "")
            + f" in {self.seconds:.2f} s"
            + (
                f"; {_counted(len(self.fallback), 'document')} chunked in part by the fallback (invalid or empty "
                "answers of the chat model), to be chunked again by the next build"
                if self.fallback
                else ""
            )
        )


@dataclass
class _Pending:
    fallback: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    vectors: list[tuple[int, Any]] = field(default_factory=list)
    removed_keys: list[int] = field(default_factory=list)
    embedded: int = 0
    chunkless: int = 0
    """Documents chunked into no chunk."""


def _embedder_spec(model: Any) -> str | None:
    """What the index records to build the embedder again: a model name or an absolute
    model folder; None for an embedder object (the user passes it again)."""
    if isinstance(model, (str, os.PathLike)):
        spec = os.fspath(model)
        return os.path.abspath(spec) if os.path.exists(spec) else spec  # a model folder, from any directory
    return None


def _recorded_model(meta: dict[str, str]) -> str | None:
    """The model an existing index was built with, as :func:`get_embedder` takes it; None
    for a new index or one built with an embedder object. ``"default"`` is what indexes of
    chunkwise 0.x recorded for the model that was then the default (WordLlama): the model's
    recorded name stands for it, so such an index keeps its model."""
    spec = meta.get("model_spec", "")
    if spec == "default":
        return meta.get("model") or None
    return spec or None


@contextlib.contextmanager
def _build_lock(folder: Path) -> Iterator[None]:
    """One build at a time per index folder (an advisory lock on ``build.lock``)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: SQLite's own lock serialises builds
        yield
        return
    with open(folder / "build.lock", "a+") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise ChunkwiseError(f"another build of the index {folder} is running; wait for it to finish") from None
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


class _NothingToIndex(ConfigError):
    """A build whose sources gave nothing to index: no document with text, or documents
    of which none gave a chunk. Raised inside the build's transaction: nothing is changed,
    and an index that did not exist is not created (``not_created``: its folder)."""

    def __init__(self, reason: str, not_created: str | None = None) -> None:
        self.reason = reason
        self.not_created = not_created
        if not_created is None:
            what = (
                "nothing was changed in the index (a build makes it hold exactly its sources: it would remove the "
                "others)"
            )
        else:
            what = f"the index {not_created} was not created"
        super().__init__(f"{reason}; {what}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.not_created))


def _documents(sources: Iterable[Any], root: Any = None) -> Iterator[Document]:
    from ..loaders import find_files, load

    paths: list[Any] = []
    for s in sources:
        if isinstance(s, Document):
            yield s
        elif isinstance(s, (str, os.PathLike)):
            paths.append(s)
        else:
            raise ConfigError(f"sources must be Documents or paths, not {type(s).__name__}")
    if paths:
        read = 0
        for f in find_files(paths, root=root):
            doc = load(f)
            read += bool(doc.text.strip())
            yield doc
        if not read:  # raised inside the build's transaction: nothing is changed
            raise _NothingToIndex(f"no file under {', '.join(os.fspath(p) for p in paths)} gave a document with text")


class Index:
    """An embedded vector index of chunks in a folder: SQLite (documents, chunks with their
    metadata and hierarchy, embeddings) and one usearch HNSW file of the embedded chunks.

    Args:
        path: the index folder (created by the first :meth:`build`).
        model: the embedder for queries, and for :meth:`build` when it is given no
            ``model`` (anything :func:`chunkwise.embeddings.get_embedder` takes); default:
            the model the index was built with, by the name recorded.

    Raises:
        ConfigError: an unknown ``model`` name or an unusable model path.
        MissingDependencyError: the extra the model needs is not installed.

    Consistency: a build is one SQLite transaction (write-ahead log) that also names the
    vector file of its generation, written whole before the commit; a query reads the
    generation and the rows in one read transaction. A reader therefore sees the state
    before a build or after it, never a mix, and a build killed at any point leaves the
    previous state, queryable.

    Method:
        Vector search by HNSW (usearch), exact below 20,000 vectors; chosen by
        measurement against sqlite-vec, LanceDB, hnswlib and faiss (``BENCHMARKS.md``).

    Example:
        >>> import tempfile, chunkwise
        >>> from chunkwise.index import Index
        >>> embed = lambda texts: [[1.0, float("cat" in t)] for t in texts]
        >>> docs = [chunkwise.Document("A cat sat.", id="a"), chunkwise.Document("Dogs ran.", id="b")]
        >>> with tempfile.TemporaryDirectory() as d:
        ...     index = Index(d, model=embed)
        ...     _ = index.build(docs, model=embed)
        ...     [h.chunk.text for h in index.query("cat", k=1)]
        ['A cat sat.']
    """

    def __init__(self, path: str | os.PathLike[str], *, model: Any = None) -> None:
        self.path = Path(path)
        self._model = model
        # an unknown model is refused here, as build(model=...) refuses it
        self._given: Any = _get_embedder(model) if model is not None else None
        self._embedder: Any = self._given
        self._con: sqlite3.Connection | None = None
        self._vectors: tuple[int, VectorFile] | None = None

    # -- reading -----------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._con is None:
            try:
                self._con = store.connect(self.path)
            except FileNotFoundError:
                raise ConfigError(
                    f"{self.path} is not a chunkwise index (no {store.DB_NAME}); build it first: "
                    f"chunkwise index build PATH... --index {self.path}"
                ) from None
        return self._con

    def close(self) -> None:
        """Close the database connection and the vector file."""
        if self._con is not None:
            self._con.close()
            self._con = None
        self._vectors = None

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def info(self) -> dict[str, Any]:
        """The index's settings and counts: model, dim, config, generation, documents, chunks."""
        con = self._connection()
        with store.database_errors(self.path), _read(con):
            meta = store.read_meta(con)
            docs = con.execute("select count(*) from documents").fetchone()[0]
            chunks = con.execute("select count(*) from chunks").fetchone()[0]
        return {**meta, "documents": docs, "chunks": chunks}

    def _query_embedder(self, meta: dict[str, str]) -> Any:
        if self._embedder is None:
            model = self._model
            if model is None:
                model = _recorded_model(meta)
                if model is None:
                    raise ConfigError(
                        f"the index {self.path} was built with an embedder object ({meta.get('model')}); "
                        "pass the same embedder: Index(path, model=...)"
                    )
            self._embedder = _get_embedder(model)
        name = getattr(self._embedder, "name", "")
        if name != meta.get("model"):
            raise ConfigError(
                f"the index {self.path} was built with the model {meta.get('model')!r}, not {name!r}: vectors of "
                "two models cannot be compared; query it with the model it was built with (leave --model out), "
                "or rebuild it with the new one: chunkwise index build ... --model MODEL --rebuild"
            )
        return self._embedder

    def _vector_file(self, generation: int) -> VectorFile:
        if self._vectors is None or self._vectors[0] != generation:
            self._vectors = (generation, VectorFile.load(vector_path(self.path, generation), view=True))
        return self._vectors[1]

    def query(self, text: str, k: int = 5, *, returns: str = "chunks") -> list[Hit]:
        """The ``k`` chunks nearest to ``text`` (cosine), best first, or their expansions.

        Args:
            text: the question.
            k: how many results to return. One result can stand for several chunks
                matched (overlapping windows joined into one span, two chunks of one
                parent, children merged into their parent): then the fewest best chunks
                that give ``k`` distinct results are matched, so ``k`` results come back
                unless the index holds fewer.
            returns: ``"chunks"``, ``"parents"``, ``"window"`` or ``"merged"`` (see
                :data:`RETURNS`).

        Returns:
            :class:`Hit` values, rank 1 first.

        Raises:
            ConfigError: ``k < 1``, an empty (or white-space) ``text``, an unknown
                ``returns`` or one the index's chunks do not support, a folder that is not
                an index, or a model other than the index's.
            ChunkwiseError: the index's database or vector file is damaged.
        """
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigError(f"k must be an integer of 1 or more, not {k!r}")
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(f"the question must hold a word, not {text!r}; give the text to search for")
        if returns not in RETURNS:
            raise ConfigError(f"returns={returns!r} is unknown; use one of {', '.join(RETURNS)}")
        with store.database_errors(self.path):
            if returns != "chunks":
                supported = self.returns()
                if returns not in supported:
                    raise ConfigError(self._cannot_return(returns, supported))
            return self._search(text, k, returns)

    def returns(self) -> tuple[str, ...]:
        """What :meth:`query` can return from this index, decided by the chunks stored
        (not by the chunker's type): ``chunks`` always; ``parents`` and ``merged`` when
        chunks have a ``parent_id`` and every parent is stored; ``window`` when every
        embedded chunk has a sentence window (``window_start``, ``window_end``).

        Recorded by each build; read from the chunks for an index built before that.
        """
        con = self._connection()
        with store.database_errors(self.path), _read(con):
            meta = store.read_meta(con)
            if "generation" not in meta:
                return ("chunks",)
            if "returns" in meta:
                return tuple(r for r in meta["returns"].split(",") if r)
            return store.supported_returns(con)

    def _search(self, text: str, k: int, returns: str) -> list[Hit]:
        con = self._connection()
        missing = None
        for _ in range(5):
            with _read(con):
                meta = store.read_meta(con)
                if "generation" not in meta:
                    return []
                embedder = self._query_embedder(meta)
                generation = int(meta["generation"])
                try:
                    vf = self._vector_file(generation)
                except FileNotFoundError:
                    if missing == generation:  # not replaced by a build since the last read: lost
                        raise ChunkwiseError(self._restore_vectors(generation, "is missing")) from None
                    missing = generation  # a build may have replaced it since this snapshot: read again
                    continue
                except ValueError as exc:
                    raise ChunkwiseError(self._restore_vectors(generation, f"is damaged ({exc})")) from None
                import numpy as np

                vec = np.asarray(embedder.embed([text]), dtype=np.float32)[0]
                depth = k
                while True:
                    keys, sims = vf.search(vec, depth)
                    hits = self._hits(con, keys, sims, returns, k)
                    if len(hits) >= k or len(keys) < depth or depth >= len(vf):
                        return hits
                    # joined windows, shared parents, merged children: match more chunks
                    depth = min(len(vf), 2 * depth + 8)
        raise ChunkwiseError(f"the vector file of {self.path} kept changing during the query; try again")

    def _hits(self, con: sqlite3.Connection, keys: list[int], sims: list[float], returns: str, k: int) -> list[Hit]:
        """The first ``k`` results of the chunks matched (``keys``, best first): the
        chunks, or the expansion of the fewest best of them that gives ``k`` results (all
        of them when none does)."""
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        rows = {r[0]: r for r in con.execute(f"select {store.CHUNK_COLUMNS} from chunks where key in ({marks})", keys)}
        matched = [(store.row_to_chunk(rows[key]), s) for key, s in zip(keys, sims) if key in rows]
        doc_ids = sorted({c.document_id for c, _ in matched})
        dmarks = ",".join("?" * len(doc_ids))
        sources = dict(con.execute(f"select id, source from documents where id in ({dmarks})", doc_ids).fetchall())
        if returns == "chunks":
            return [Hit(i + 1, s, c, sources.get(c.document_id), (c.id,)) for i, (c, s) in enumerate(matched[:k])]
        by_doc: dict[str, list[Chunk]] = {d: [] for d in doc_ids}
        for row in con.execute(
            f"select {store.CHUNK_COLUMNS} from chunks where document_id in ({dmarks}) order by document_id, position",
            doc_ids,
        ):
            by_doc[row[2]].append(store.row_to_chunk(row))
        texts = dict(con.execute(f"select id, text from documents where id in ({dmarks})", doc_ids).fetchall())
        from ._expand import expand_hits

        try:
            # each result stands for one matched chunk or more: fewer than k chunks never give k
            for m in range(min(k, len(matched)), len(matched) + 1):
                expanded = expand_hits(_EXPANSION[returns], matched[:m], by_doc, texts)
                if len(expanded) >= k:
                    break
        except ConfigError as exc:
            raise ConfigError(self._cannot_return(returns, store.supported_returns(con))) from exc
        return [
            Hit(i + 1, score, chunk, sources.get(chunk.document_id), ids)
            for i, (chunk, score, ids) in enumerate(expanded[:k])
        ]

    def _restore_vectors(self, generation: int, what: str) -> str:
        return (
            f"the vector file {vector_path(self.path, generation).name} of the index {self.path} {what}; the "
            f"vectors are also in the database: run the same chunkwise index build PATH... --index {self.path} "
            "again to write it anew (nothing is re-embedded)"
        )

    def _cannot_return(self, returns: str, supported: Sequence[str]) -> str:
        """Why ``returns`` does not apply to this index (what its chunks support), and the
        build that makes it apply."""
        if returns == "window":
            need, how = "a sentence window on every embedded chunk", "-s sentence -p window_sentences=N"
        else:
            need, how = "parents stored for them (a hierarchy)", "-s hierarchical"
            try:
                config = str(self.info().get("config", ""))
            except Exception:  # noqa: BLE001 - the message only
                config = ""
            if "leaves_only=True" in config:
                need = "parents stored for them (a hierarchy built with leaves_only stores none)"
                how = "-s hierarchical without -p leaves_only=true"
        return (
            f"--return {returns} (returns={returns!r}) needs chunks with {need}, which the index {self.path} "
            f"does not hold; it supports --return {'|'.join(supported)}. To get it, rebuild with chunkwise "
            f"index build PATH... --index {self.path} {how} --rebuild"
        )

    # -- building ----------------------------------------------------------------------

    def build(
        self,
        sources: Iterable[Document | str | os.PathLike[str]],
        *,
        chunker: Any = None,
        model: Any = None,
        rebuild: bool = False,
        keep: Sequence[str] = (),
        root: str | os.PathLike[str] | None = None,
        batch_size: int = 64,
        on_document: Callable[[Document, str], None] | None = None,
        on_error: Callable[[Document, BaseException], bool] | None = None,
    ) -> BuildReport:
        """Make the index hold exactly ``sources``, re-embedding only what changed.

        A document whose content hash (text, metadata, chunking configuration, model) is
        the one stored is left as it is; a new or changed one is chunked and its chunks
        embedded (leaves only, for a hierarchy: ``metadata["leaf"]`` false is stored but
        not embedded); a document of the index that is not among ``sources`` (nor in
        ``keep``) is deleted with its chunks. All of it is one transaction.

        Args:
            sources: :class:`Document` values or paths (files or folders, read by the
                loaders: :func:`chunkwise.loaders.find_files` and :func:`chunkwise.load`).
            chunker: a chunker (:func:`chunkwise.make_chunker`); default: the default of
                :func:`chunkwise.make_chunker` (recursive, 512 characters).
            model: the embedder (anything :func:`chunkwise.embeddings.get_embedder`
                takes); default: the ``model`` given to :class:`Index`, else the model
                the index was built with, else
                :data:`chunkwise.embeddings.RETRIEVAL_MODEL` (all-MiniLM-L6-v2, the offline
                model that retrieves best; ``"wordllama"`` embeds much faster and
                retrieves worse).
            rebuild: re-chunk and re-embed every document, changed or not (a new model
                file, a chunker fixed in place); needed when the chunking configuration or
                the model differs from the one the index was built with (without it, such
                a build is refused).
            keep: ids of documents to keep as they are although not among ``sources`` (a
                file that could not be read this time).
            root: the folder document ids are relative to, for paths.
            batch_size: texts per call of the embedder.
            on_document: called with each document and ``"added"``, ``"changed"`` or
                ``"unchanged"`` (progress).
            on_error: called when chunking or embedding a document fails; when it returns
                true the document is skipped (what the index held for it is kept), else
                the build stops and nothing changes.

        Returns:
            A :class:`BuildReport`.

        Raises:
            ConfigError: another configuration or model than the index's without
                ``rebuild``; two documents with one id; no source at all (an empty list,
                an iterator already used up), paths among ``sources`` under which no file
                gave a document with text, or documents of which none gave a chunk
                (nothing is changed; a new index is not created); an invalid argument.
            ChunkwiseError: another build of the same folder is running; the index's
                database is damaged or cannot be written.
            MissingDependencyError: usearch (``chunkwise[index]``) or the model's extra.
        """
        from ..api import make_chunker

        t0 = time.perf_counter()
        if chunker is None:
            chunker = make_chunker()
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ConfigError(f"batch_size must be an integer of 1 or more, not {batch_size!r}")
        if model is None and self._model is not None:
            model, given = self._model, self._given  # the model given to Index(path, model=...)
        else:
            given = _get_embedder(model) if model is not None else None  # an unknown model: refused before any write
        self.close()
        created = [p for p in (self.path, self.path / "build.lock") if not p.exists()]
        self.path.mkdir(parents=True, exist_ok=True)
        try:
            report, embedder, settled = self._build(
                sources, chunker, model, given, rebuild, keep, root, batch_size, on_document, on_error
            )
        except _NothingToIndex as exc:
            if exc.not_created is not None:  # the database is gone: the lock file and the folder too
                for path in reversed(created):
                    with contextlib.suppress(OSError):  # a folder only when empty
                        if path.is_dir():
                            path.rmdir()
                        else:
                            path.unlink()
            raise
        self._embedder = embedder if self._model is None or self._model is model else None
        return _replace(report, seconds=time.perf_counter() - t0, rebuilt=report.rebuilt and settled)

    def _build(
        self,
        sources: Iterable[Any],
        chunker: Any,
        model: Any,
        given: Any,
        rebuild: bool,
        keep: Sequence[str],
        root: Any,
        batch_size: int,
        on_document: Callable[[Document, str], None] | None,
        on_error: Callable[[Document, BaseException], bool] | None,
    ) -> tuple[BuildReport, Any, bool]:
        """The build in the index's folder, under its lock: the report, the embedder and
        whether the index held documents before."""
        from ..embeddings import RETRIEVAL_MODEL

        with _build_lock(self.path), store.database_errors(self.path):
            new = not (self.path / store.DB_NAME).exists()
            con = store.connect(self.path, create=True)
            try:
                meta = store.read_meta(con)
                if meta.get("format", store.FORMAT) != store.FORMAT:
                    raise ConfigError(
                        f"the index {self.path} has format {meta['format']}, this chunkwise writes "
                        f"{store.FORMAT}; build a new index in another folder"
                    )
                # the settings are the index's once it holds a document: a first build that
                # failed, or that committed no document, binds no later build to its settings
                settled = bool(meta.get("generation")) and _has_documents(con)
                if model is None:
                    model = _recorded_model(meta) if settled else None
                    if model is None:
                        model = RETRIEVAL_MODEL
                embedder = given if given is not None else _get_embedder(model)
                name = str(getattr(embedder, "name", ""))
                config = store.config_of(chunker)
                full = False
                if settled:
                    differs = []
                    if meta.get("config") != config:
                        differs.append(store.config_change(meta.get("config", ""), config))
                    if meta.get("model") != name:
                        differs.append(f"embedding model: {meta.get('model')!r} -> {name!r}")
                    if differs and not rebuild:
                        raise ConfigError(
                            f"the index {self.path} was built with another configuration ("
                            + "; ".join(differs)
                            + "); rebuild it with --rebuild (rebuild=True: re-embeds every document) "
                            "or build into another folder"
                        )
                    full = bool(differs) or rebuild  # --rebuild re-embeds everything, settings changed or not
                elif meta.get("generation"):
                    # no document committed: whatever the settings were, start afresh (the
                    # previous vector file may be of another model's dimension)
                    full = True
                report = self._write(
                    con,
                    meta,
                    sources,
                    chunker,
                    embedder,
                    config,
                    full,
                    keep,
                    root,
                    batch_size,
                    on_document,
                    on_error,
                    _embedder_spec(model),
                )
            except _NothingToIndex as exc:
                if not new:
                    raise
                con.close()  # a database this build created, holding nothing: removed under the lock
                for name in (store.DB_NAME, f"{store.DB_NAME}-wal", f"{store.DB_NAME}-shm"):
                    (self.path / name).unlink(missing_ok=True)
                raise _NothingToIndex(exc.reason, os.fspath(self.path)) from None
            finally:
                con.close()
        return report, embedder, settled

    def _write(
        self,
        con: sqlite3.Connection,
        meta: dict[str, str],
        sources: Iterable[Any],
        chunker: Any,
        embedder: Any,
        config: str,
        full: bool,
        keep: Sequence[str],
        root: Any,
        batch_size: int,
        on_document: Callable[[Document, str], None] | None,
        on_error: Callable[[Document, BaseException], bool] | None,
        spec: str | None,
    ) -> BuildReport:
        name = str(getattr(embedder, "name", ""))
        old_gen = int(meta.get("generation", "0") or 0)
        new_gen = old_gen + 1
        new_file = vector_path(self.path, new_gen)
        p = _Pending()
        seen: set[str] = set()
        failed: set[str] = set()
        committed = False
        con.execute("begin immediate")
        try:
            stored = dict(con.execute("select id, content_hash from documents"))
            for doc in _documents(sources, root):
                if doc.id in seen:
                    raise ConfigError(
                        f"two documents have the id {doc.id!r} ({doc.source}); give each document its own id"
                    )
                seen.add(doc.id)
                digest = store.content_hash(doc, config, name)
                if not full and stored.get(doc.id) == digest:
                    p.unchanged.append(doc.id)
                    if on_document:
                        on_document(doc, "unchanged")
                    continue
                try:
                    chunks = chunker.chunk(doc)
                    leaves = [c for c in chunks if c.metadata.get("leaf", True)]
                    vectors = _embed(embedder, leaves, batch_size)
                except Exception as exc:
                    if on_error is None or not on_error(doc, exc):
                        raise
                    failed.add(doc.id)  # reported by on_error; what the index held is kept
                    continue
                p.chunkless += not chunks
                p.embedded += len(leaves)
                if any(c.metadata.get(FALLBACK_KEY) for c in chunks):
                    digest = store.not_final(digest)  # never equal to a content hash: chunked again next time
                    p.fallback.append(doc.id)
                if doc.id in stored:
                    p.removed_keys += _delete_document(con, doc.id)
                    p.changed.append(doc.id)
                else:
                    p.added.append(doc.id)
                store.insert_document(con, doc, digest)
                p.vectors += store.insert_chunks(con, chunks, vectors)
                if on_document:
                    on_document(doc, "changed" if doc.id in stored else "added")
            if not seen:
                raise _NothingToIndex(
                    "no document was given to build from (sources is empty, or an iterator that was already used "
                    "up); to remove documents, build again from the documents to keep; to empty the index, delete "
                    "its folder"
                )
            if not p.unchanged and len(failed) + p.chunkless == len(seen):
                raise _NothingToIndex(_no_chunk(len(seen), len(failed)))
            kept = tuple(d for d in (*keep, *sorted(failed)) if d in stored and (d not in seen or d in failed))
            removed = sorted(set(stored) - seen - set(kept) - failed)
            for doc_id in removed:
                p.removed_keys += _delete_document(con, doc_id)
            if old_gen and not (full or p.added or p.changed or removed) and _usable(vector_path(self.path, old_gen)):
                n_docs = con.execute("select count(*) from documents").fetchone()[0]
                n_chunks = con.execute("select count(*) from chunks").fetchone()[0]
                con.execute("rollback")  # nothing changed: no new generation
                committed = True
                return BuildReport(
                    unchanged=tuple(p.unchanged),
                    kept=kept,
                    chunks=n_chunks,
                    documents=n_docs,
                    generation=old_gen,
                    model=name,
                )
            vf = self._next_vectors(con, old_gen, full, int(embedder.dim), p)
            vf.save(new_file)
            store.write_meta(
                con,
                {
                    "format": store.FORMAT,
                    "generation": new_gen,
                    "config": config,
                    "model": name,
                    "model_spec": spec or "",
                    "dim": int(embedder.dim),
                    "returns": ",".join(store.supported_returns(con)),
                },
            )
            n_docs = con.execute("select count(*) from documents").fetchone()[0]
            n_chunks = con.execute("select count(*) from chunks").fetchone()[0]
            con.execute("commit")
            committed = True
        finally:
            if not committed:
                with contextlib.suppress(sqlite3.Error):
                    con.execute("rollback")
                with contextlib.suppress(OSError):
                    new_file.unlink()
        _remove_old_files(self.path, keep_from=old_gen)
        return BuildReport(
            added=tuple(p.added),
            changed=tuple(p.changed),
            unchanged=tuple(p.unchanged),
            removed=tuple(removed),
            kept=kept,
            fallback=tuple(p.fallback),
            embedded=p.embedded,
            chunks=n_chunks,
            documents=n_docs,
            generation=new_gen,
            rebuilt=full,
            model=name,
        )

    def _next_vectors(self, con: sqlite3.Connection, old_gen: int, full: bool, dim: int, p: _Pending) -> VectorFile:
        """The previous generation's vectors with the removed keys taken out and the new
        ones added; all the embeddings of the database when there is no usable previous
        file (a first build, a rebuild, a lost file)."""
        import numpy as np

        vf: VectorFile | None = None
        if old_gen and not full:
            with contextlib.suppress(FileNotFoundError, RuntimeError, ValueError):
                vf = VectorFile.load(vector_path(self.path, old_gen), view=False)
            if vf is not None:
                vf.remove(p.removed_keys)
                if p.vectors:
                    vf.add([k for k, _ in p.vectors], np.stack([v for _, v in p.vectors]))
                return vf
        vf = VectorFile.new(dim)
        keys, vecs = [], []
        for key, blob in con.execute("select key, embedding from chunks where embedding is not null order by key"):
            keys.append(key)
            vecs.append(np.frombuffer(blob, dtype=np.float32))
        if keys:
            vf.add(keys, np.stack(vecs))
        return vf


def _no_chunk(read: int, failed: int) -> str:
    """Why a build whose documents gave no chunk changes nothing."""
    why = [f"{failed} failed to chunk"] if failed else []
    if read - failed:
        why.append(f"{read - failed} chunked into none")
    return f"none of the {_counted(read, 'document')} read gave a chunk ({', '.join(why)})"


def _has_documents(con: sqlite3.Connection) -> bool:
    return con.execute("select exists(select 1 from documents)").fetchone()[0] == 1


def _get_embedder(model: Any) -> Any:
    """:func:`chunkwise.embeddings.get_embedder`, whose message for an unknown name names
    the index's default (the retrieval model), not the library's."""
    from ..embeddings import RETRIEVAL_MODEL, get_embedder

    try:
        return get_embedder(model)
    except ConfigError as exc:
        text = str(exc)
        marker = "is unknown; use 'wordllama', "
        if marker not in text:
            raise
        rest = text.split(marker, 1)[1]
        raise ConfigError(
            f"model {model!r} is unknown; leave --model out for the index's model (a new index: "
            f"{RETRIEVAL_MODEL!r}), or use 'wordllama', {rest}"
        ) from None


def _counted(n: int, noun: str) -> str:
    """``1 document``, ``2 documents``: a count and its noun, plural unless 1."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _embed(embedder: Any, chunks: Sequence[Chunk], batch_size: int) -> dict[str, Any]:
    """Chunk id -> float32 vector, ``batch_size`` texts per call of the embedder."""
    import numpy as np

    out: dict[str, Any] = {}
    dim = int(embedder.dim)
    for a in range(0, len(chunks), batch_size):
        batch = chunks[a : a + batch_size]
        vecs = np.asarray(embedder.embed([c.text_for_embedding() for c in batch]), dtype=np.float32)
        if vecs.shape != (len(batch), dim):
            raise ChunkwiseError(
                f"the embedder {getattr(embedder, 'name', '')!r} returned shape {vecs.shape} for {len(batch)} texts "
                f"of dimension {dim}"
            )
        out.update((c.id, v) for c, v in zip(batch, vecs))
    return out


def _replace(report: BuildReport, **changes: Any) -> BuildReport:
    import dataclasses

    return dataclasses.replace(report, **changes)


def _delete_document(con: sqlite3.Connection, doc_id: str) -> list[int]:
    keys = [
        k for (k,) in con.execute("select key from chunks where document_id = ? and embedding is not null", (doc_id,))
    ]
    con.execute("delete from chunks where document_id = ?", (doc_id,))
    con.execute("delete from documents where id = ?", (doc_id,))
    return keys


def _usable(path: Path) -> bool:
    """Whether the vector file at ``path`` exists and opens (a lost or damaged one is
    written again from the database's embeddings by the next build)."""
    try:
        VectorFile.load(path, view=True)
    except (FileNotFoundError, ValueError):
        return False
    return True


def _remove_old_files(folder: Path, keep_from: int) -> None:
    """Delete the vector files older than ``keep_from`` (the generation before the new
    one stays, for a reader that read it a moment ago) and temporary files."""
    for f in folder.glob("vectors-*.usearch*"):
        stem = f.name.split(".", 1)[0]
        try:
            gen = int(stem.split("-", 1)[1])
        except ValueError:
            continue
        if gen < keep_from or f.name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                f.unlink()


@contextlib.contextmanager
def _read(con: sqlite3.Connection) -> Iterator[None]:
    """A read transaction: every select inside sees one snapshot."""
    con.execute("begin")
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            con.execute("commit")


def build_index(
    sources: Iterable[Document | str | os.PathLike[str]],
    path: str | os.PathLike[str],
    *,
    chunker: Any = None,
    model: Any = None,
    rebuild: bool = False,
    root: str | os.PathLike[str] | None = None,
    **chunk_options: Any,
) -> BuildReport:
    """Build or update the index in the folder ``path`` from ``sources`` (see
    :meth:`Index.build`); ``chunk_options`` (``strategy``, ``chunk_size``, ``unit``, ...)
    make the chunker when ``chunker`` is not given.

    Raises:
        ConfigError: ``chunker`` together with chunk options; see :meth:`Index.build`.
    """
    from ..api import make_chunker

    if chunk_options:
        if chunker is not None:
            raise ConfigError(f"give a chunker or chunk options ({', '.join(sorted(chunk_options))}), not both")
        chunk_options.setdefault("strategy", "recursive")
        chunker = make_chunker(**chunk_options)
    with Index(path) as index:
        return index.build(sources, chunker=chunker, model=model, rebuild=rebuild, root=root)


def query(
    path: str | os.PathLike[str], text: str, k: int = 5, *, returns: str = "chunks", model: Any = None
) -> list[Hit]:
    """The ``k`` best results for ``text`` from the index in ``path`` (see :meth:`Index.query`)."""
    with Index(path, model=model) as index:
        return index.query(text, k, returns=returns)
