"""The command line: ``chunkwise chunk``, ``chunkwise strategies`` and the subcommands of
:mod:`chunkwise.commands`. Thin: every option maps onto the library's API, and the options
are declared once, in :mod:`chunkwise.commands._options`.

Exit status: 0 everything done, 1 some files failed (each reported and skipped; the rest
is complete), 2 a usage error (nothing done), 130 interrupted (Ctrl-C or SIGTERM; an
output file being written is removed and any previous one left as it was), 141 the reader
of standard output left (``| head``; nothing said).
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import math
import operator
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from .commands._llm_options import LlmOptions, llm_options
from .commands._options import (
    CLI_DEFAULTS,
    PYTHON_DEFAULTS,
    ChunkingOptions,
    InputOptions,
    chunker_and_client,
    chunking_options,
    input_options,
    parse_params,
    progress_option,
    refuse_folder,
    silence_stdout,
)
from .registry import get_strategy, strategy_names

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "Terminated", "cli", "main"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
"""The reader of standard output left (``chunkwise chunk DIR | head -1``): the command
stops quietly with 128 + SIGPIPE, the status a shell reports for ``cat`` stopped the same
way (``set -o pipefail`` treats both alike)."""

_parse_params = parse_params  # the name the commands used before the options module


class ReaderLeft(Exception):
    """The reader of standard output left (a broken pipe) while ``chunkwise chunk`` wrote
    its chunks there: the command stops quietly with :data:`EXIT_BROKEN_PIPE`."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that cleanup runs as for Ctrl-C."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while the command runs; the previous handler
    comes back afterwards. Only the main thread can install one; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_silence_stdout = silence_stdout  # the name this module used before the options module had it


class _Commands(dict):  # type: ignore[type-arg]
    """The subcommands by name. Those of :mod:`chunkwise.commands` (``lazy``: name ->
    module) are imported when first looked up, so that their modules and what they import
    (the evaluation package, for ``eval`` and ``calibrate``) load only when that command
    runs or its help is shown, not for ``chunkwise chunk``."""

    def __init__(self, lazy: dict[str, str]) -> None:
        super().__init__()
        self.lazy = lazy

    def __missing__(self, name: str) -> click.Command:
        module = self.lazy.get(name)
        if module is None:
            raise KeyError(name)
        command: click.Command = importlib.import_module(module).command
        self[name] = command
        return command

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.lazy

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[name]
        except KeyError:
            return default

    def names(self) -> list[str]:
        """Every command's name, loaded or not, sorted."""
        return sorted({*self.keys(), *self.lazy})


class _Cli(click.Group):
    """The group with chunkwise's exit statuses: 0, 1 (files failed), 2 (usage), 130
    (interrupted, SIGTERM included), and subcommands imported when used (:class:`_Commands`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        commands = self.commands
        return commands.names() if isinstance(commands, _Commands) else super().list_commands(ctx)

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command with chunkwise's warnings as one line each (:func:`_format_warning`);
        ``warnings.formatwarning`` is the caller's again afterwards (a program that runs the
        command in-process keeps its own)."""
        previous = warnings.formatwarning
        warnings.formatwarning = _format_warning
        try:
            return self._run(args, prog_name, complete_var, standalone_mode, **extra)
        finally:
            warnings.formatwarning = previous

    def _run(
        self, args: Any, prog_name: str | None, complete_var: str | None, standalone_mode: bool, **extra: Any
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        code = EXIT_OK
        try:
            with _sigterm_as_interrupt():
                rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else EXIT_OK
        except (click.Abort, KeyboardInterrupt) as exc:
            term = isinstance(exc, Terminated) or isinstance(exc.__cause__ or exc.__context__, Terminated)
            click.echo("terminated (SIGTERM)" if term else "interrupted", err=True)
            code = EXIT_INTERRUPTED
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
        except ReaderLeft:
            _silence_stdout()  # the reader of standard output left (`| head`): stop, quietly
            code = EXIT_BROKEN_PIPE
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            _silence_stdout()
            code = EXIT_BROKEN_PIPE
        sys.exit(code)


class _NothingWritten(Exception):
    """Every input failed: the output file is not replaced by an empty one."""


class _TextAsBytes:
    """A binary view of a text stream that has none (an embedding application's stdout)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, data: bytes) -> int:
        return self._stream.write(data.decode("utf-8"))

    def flush(self) -> None:
        self._stream.flush()


class _Stats:
    """Running size statistics (Welford), for the summary line."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.min: int | None = None
        self.max: int | None = None

    def add(self, x: int) -> None:
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)
        self.min = x if self.min is None else min(self.min, x)
        self.max = x if self.max is None else max(self.max, x)

    def add_many(self, xs: list[int]) -> None:
        """Add a document's sizes at once (Chan et al.'s merge of two partial results: the
        parent of a pool runs no Python loop per chunk, only the built-ins' sums)."""
        n_b = len(xs)
        if not n_b:
            return
        total = sum(xs)
        if type(total) is not int:  # a size that is not an integer: exact sums need integers
            for x in xs:
                self.add(x)
            return
        mean_b = total / n_b
        m2_b = max(0.0, sum(map(operator.mul, xs, xs)) - total * mean_b)
        n = self.n + n_b
        delta = mean_b - self.mean
        self.mean += delta * n_b / n
        self.m2 += m2_b + delta * delta * self.n * n_b / n
        self.n = n
        lo, hi = min(xs), max(xs)
        self.min = lo if self.min is None else min(self.min, lo)
        self.max = hi if self.max is None else max(self.max, hi)

    @property
    def std(self) -> float:
        return math.sqrt(self.m2 / self.n) if self.n else 0.0


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chunkwise")
def cli() -> None:
    """chunkwise: retrieval-ready chunks with exact offsets.

    Exit status: 0 done, 1 some files failed (reported and skipped), 2 usage error,
    130 interrupted.
    """


_PLAIN_FORMAT = warnings.formatwarning


def _format_warning(message: Any, category: type[Warning], filename: str, lineno: int, line: str | None = None) -> str:
    """chunkwise's own warnings (a malformed subtitle cue) as one ``warning: ...`` line on
    standard error; others as Python prints them."""
    if category.__module__.startswith("chunkwise"):
        return f"warning: {message}\n"
    return _PLAIN_FORMAT(message, category, filename, lineno, line)


def _reads_stdin(paths: tuple[Path, ...]) -> bool:
    """Whether standard input (``-``) is among the inputs."""
    return any(str(p) == "-" for p in paths)


def _files_only_format(reading: InputOptions, paths: tuple[Path, ...]) -> InputOptions:
    """``--format`` names the format of standard input; files and folders go by their suffix.
    Without ``-`` among the inputs it has no effect: a warning says so, and the run is
    recorded as one without it (its ``config_id``, so that ``--resume`` does not refuse a
    run over the same files for an option that changed nothing)."""
    if reading.fmt == "text" or _reads_stdin(paths):
        return reading
    import dataclasses

    click.echo(f"warning: --format {reading.fmt} applies to standard input (-) only; "
               "files and folders are read by their suffix, so it is ignored here", err=True)
    return dataclasses.replace(reading, fmt="text")


def _stdin_code(chunking: ChunkingOptions, reading: InputOptions, paths: tuple[Path, ...]) -> ChunkingOptions:
    """Source code on standard input (``--format code``) has no file name to tell its
    language: strategies ``auto`` and ``code`` need ``-p language=NAME`` (a usage error
    without it, before any work); with it, ``auto`` reads standard input as code."""
    if chunking.strategy not in ("auto", "code") or not _reads_stdin(paths):
        return chunking
    from .loaders.base import get_loader

    try:
        fmt = get_loader(reading.fmt).format
    except Exception:  # (an unknown format is reported where it is read)
        return chunking
    if fmt != "code":
        return chunking
    if "language" not in parse_params(chunking.params):
        from .chunkers.code import supported_languages

        raise click.UsageError(
            "--format code on standard input needs the language: add -p language=NAME (one of: "
            f"{', '.join(supported_languages())})"
        )
    if chunking.strategy == "auto" and all(str(p) == "-" for p in paths):
        import dataclasses

        return dataclasses.replace(chunking, strategy="code")
    return chunking


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, allow_dash=True))
@chunking_options()
@input_options(root=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(allow_dash=True, path_type=Path),
    callback=refuse_folder,
    default=None,
    help="Output file, written atomically: JSON lines (.jsonl, .ndjson, .json, no suffix; default, or -: "
    "standard output) or Parquet (.parquet, .pq; extra: parquet).",
)
@click.option(
    "--output-format",
    type=click.Choice(["jsonl", "parquet"]),
    default=None,
    help="Format of the output [default: by the suffix of -o]. (--format names the format of standard input.)",
)
@click.option(
    "--workers",
    "-j",
    type=click.IntRange(1, 1024),
    default=None,
    help="Processes that read and chunk, output in input order either way [default: the CPUs; 1: in this process].",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Append to the -o JSON lines file as each document is done (fsynced), skipping the documents whose "
    "content id (text + configuration) it holds: a run killed midway continues where it stopped.",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where files are read and chunked: local processes (--workers), or Ray Data tasks on a Ray cluster "
    "(extra: ray); the output is the same file either way.",
)
@click.option(
    "--ray-address",
    default=None,
    metavar="ADDR",
    help="With --engine ray: the cluster to join (ray://host:10001, host:6379, auto) [default: start a local one "
    "with --workers CPUs].",
)
@llm_options()
@progress_option
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help="Report every file skipped as it comes and name every one in the summary [default: the first 20, "
    "then only counted].",
)
@click.pass_context
def chunk_command(
    ctx: click.Context,
    paths: tuple[Path, ...],
    chunking: ChunkingOptions,
    reading: InputOptions,
    output: Path | None,
    output_format: str | None,
    workers: int | None,
    resume: bool,
    engine: str,
    ray_address: str | None,
    llm: LlmOptions,
    progress: bool | None,
    verbose: bool,
) -> None:
    """Chunk files, folders (recursively: .txt, .md, .markdown, .html, .htm, .pdf and the
    other formats a loader reads) or standard input (-) into JSON lines or Parquet (by the
    suffix of -o); -L KEY=VALUE passes a loader option (PDF: password=..., pages=1-5).

    One line per chunk: id, document_id, source, index, start_index, end_index, size, unit,
    text, context, metadata, content_id. --workers N chunks in N processes, the output the
    same as one process's; --resume continues a run that was interrupted. A summary goes to standard error. A file that cannot be read,
    decoded, chunked or written is reported with the fix and skipped, and so is a file of a
    folder in a format chunkwise does not read; the exit status is then 1. When every input
    fails, an existing -o file is left as it was.
    """
    from .commands import _chunk_run as run_
    from .commands._inputs import SHOWN, Failures
    from .corpus import default_workers

    out_format = run_.output_format(output, output_format)
    to_stdout = output is None or str(output) == "-"
    if resume and (to_stdout or out_format != "jsonl"):
        raise click.UsageError(
            "--resume appends to a JSON lines file: give -o FILE.jsonl (Parquet files are written whole)"
        )
    contextualize = llm.contextualize
    if engine == "ray" and (resume or contextualize or _reads_stdin(paths)):
        raise click.UsageError("--engine ray chunks files into a new output: leave out --resume, --contextualize and -")
    if ray_address and engine != "ray":
        raise click.UsageError("--ray-address goes with --engine ray")
    if engine == "ray" and importlib.util.find_spec("ray") is None:
        raise click.UsageError("--engine ray needs the package 'ray', which is not installed; "
                               "install the extra: pip install 'chunkwise[ray]'")
    chunking = _stdin_code(chunking, reading, paths)
    reading = _files_only_format(reading, paths)
    chunker, client = chunker_and_client(chunking, llm)
    model = client.model if client is not None else None
    missing = [str(p) for p in paths if str(p) != "-" and not os.path.lexists(p)]
    if missing and len(missing) == len(paths):  # no file to read: a usage error (exit 2), nothing done
        raise click.UsageError(
            f"no file to read: cannot read {', '.join(missing)} (no such file or folder); check the path"
        )
    show = sys.stderr.isatty() if progress is None else progress
    failures = Failures(shown=None if verbose else SHOWN, every_option="--verbose")
    # one folder, nothing to settle first: listed (with every file's size, for the bar), its files
    # classified by the workers
    stream = engine == "local" and not (llm.dry_run or resume or client is not None)
    inputs = run_.find_inputs(paths, reading.include, reading.exclude, reading.root, failures, stream=stream,
                              peek=workers or default_workers(), output=None if to_stdout else output)
    passed = run_.PassedInOrder(inputs, failures)  # the files passed over, said in input order
    if llm.dry_run or engine == "ray":
        passed.rest()
    if llm.dry_run:
        _dry_run(chunker, client, inputs, contextualize, failures, reading)
        if failures:
            click.echo(failures.summary(), err=True)
            ctx.exit(EXIT_FAILED)
        return
    stats = _Stats()
    t0 = time.perf_counter()
    counts = {"docs": 0, "nbytes": 0, "resumed": 0, "fallback": 0}
    sink, written = _chunk_sink(output, out_format, resume, to_stdout)

    def run() -> None:
        if engine == "ray":
            from .ray import run_cli

            run_cli(chunker, inputs, address=ray_address, workers=workers, encoding=reading.encoding,
                    options=dict(reading.loader_options), out_format=out_format, write=written[0], failures=failures,
                    stats=stats, counts=counts, show=show, reading=run_.reading_key(reading))
            if counts["docs"] == 0 and failures.failed(0):
                written.append("empty")
            return
        _chunk_files(chunker, client, model if contextualize else None, inputs, reading, workers,
                     out_format, written, failures, stats, counts, show, passed)

    kept = False
    try:
        sink(run)
    except _NothingWritten:
        kept = True
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise ReaderLeft() from exc  # not an OSError: click would exit 1 with it
        if to_stdout:
            raise
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from exc
    docs, nbytes = counts["docs"], counts["nbytes"]
    elapsed = time.perf_counter() - t0
    from .commands._inputs import counted

    click.echo(
        f"{counted(docs, 'document')}, {counted(stats.n, 'chunk')}; size in {chunker.sizer.unit}: mean {stats.mean:.1f}, "
        f"std {stats.std:.1f}, min {stats.min if stats.min is not None else 0}, "
        f"max {stats.max if stats.max is not None else 0}; "
        f"{nbytes / 1e6:.2f} MB in {elapsed:.2f} s ({nbytes / 1e6 / max(elapsed, 1e-9):.1f} MB/s)"
        + (f"; {counted(counts['resumed'], 'document')} already in the output" if resume else "")
        + (f" (its last one completed: {counted(counts['completed'], 'chunk')} written)" if counts.get("completed") else "")
        + (_fallback_note(counts["fallback"], resume) if counts.get("fallback") else "")
        + ("" if to_stdout else f"; nothing written, {output} left as it was" if kept else f"; written to {output}"),
        err=True,
    )
    if failures.summary():
        click.echo(failures.summary(), err=True)
    if failures.failed(counts["docs"] + counts["resumed"]):
        ctx.exit(EXIT_FAILED)


def _chunk_sink(output: Path | None, out_format: str, resume: bool, to_stdout: bool) -> tuple[Any, list[Any]]:
    """``(sink, written)``: ``sink(run)`` opens the output, calls ``run()`` and commits it
    (atomically: a temporary renamed over the file; ``--resume``: appended in place, see
    :mod:`chunkwise.commands._chunk_run`); ``written[0]`` is the callable ``run`` writes
    each document's payload with, and raises :class:`_NothingWritten` through it when
    every input failed."""
    from .export import ParquetWriter, atomic_writer

    written: list[Any] = [None]

    def sink(run: Any) -> None:
        if to_stdout:
            sys.stdout.flush()
            stream = getattr(sys.stdout, "buffer", None) or _TextAsBytes(sys.stdout)
            written[0] = stream.write
            run()
            stream.flush()
            return
        assert output is not None
        if resume:
            from .commands._chunk_run import Resume

            app = Resume(output)  # the last document is settled by run(), before any other write
            written.append(app)
            written[0] = app.write
            try:
                run()
            finally:
                app.close()
            return
        from .commands._chunk_run import remove_stale_temporaries

        remove_stale_temporaries(output)  # left by an earlier run that was killed (kill -9)
        if out_format == "parquet":
            from .errors import MissingDependencyError

            try:
                pw = ParquetWriter(output)
            except MissingDependencyError as exc:
                raise click.UsageError(str(exc)) from exc
            with pw:
                written[0] = pw.write
                run()
                if written[-1] == "empty":
                    raise _NothingWritten()
            return
        with atomic_writer(output) as fh:
            written[0] = fh.buffer.write
            run()
            if written[-1] == "empty":  # every input failed: leave a previous file as it was
                raise _NothingWritten()

    return sink, written


def _chunk_files(
    chunker: Any,
    client: Any,
    model: str | None,
    inputs: list[Any],
    reading: InputOptions,
    workers: int | None,
    out_format: str,
    written: list[Any],
    failures: Any,
    stats: _Stats,
    counts: dict[str, int],
    show: bool,
    passed: Any = None,
) -> None:
    """Read, chunk and write every input through :func:`chunkwise.corpus.ordered_map`, in
    input order; failures reported and skipped, with the files passed over when the inputs
    were gathered (``passed``, a :class:`~chunkwise.commands._chunk_run.PassedInOrder`) in
    their places; the progress bar counts bytes and files."""
    import dataclasses
    import functools

    from tqdm import tqdm

    from .commands import _chunk_run as run_
    from .corpus import _Job, config_key, default_workers, ordered_map
    from .llm.options import ConfigView

    job = _Job(
        chunker=chunker,
        reader=functools.partial(run_.read_item, encoding=reading.encoding, fmt=reading.fmt,
                                 options=dict(reading.loader_options)),
        # content ids: the chat model's name counts, not the endpoint serving it
        config=config_key(ConfigView(chunker) if client is not None else chunker,
                          *(("contextualize", model) if model else ())),
        reading=run_.reading_key(reading),
        render=run_.render_records if out_format == "parquet" else run_.render_jsonl,
        after=functools.partial(run_.situate, client=client) if model else None,
        describe=functools.partial(_describe_or_stop, encoding=reading.encoding),
        around=run_.CodeNote() if _code_without_language(chunker) else None,
        logs=True,  # a worker's warnings said here, with its file, through the progress bar
    )
    if len(written) > 1:  # --resume: the file's last document checked (and completed) in place first
        job = dataclasses.replace(job, known=written[1].settle(job, [(i, None) for i in inputs]))
        counts["completed"] = written[1].completed
    n = 1 if client is not None else (workers or default_workers())
    count = inputs.count if isinstance(inputs, run_.StreamedInputs) else len(inputs)
    n = max(1, min(n, count)) if count is not None else n

    def size(inp: Any) -> int:
        try:
            return os.path.getsize(inp.path) if inp.path is not None else 0
        except OSError:
            return 0

    sizes = None  # the bar's: each file's size (a streamed folder's from its walk)
    if show:
        sizes = [size(i) for i in inputs] if isinstance(inputs, list) else [e.size for e in inputs]
    items = run_.pool_items(inputs)
    write = written[0]
    bar = tqdm(total=sum(sizes or ()), unit="B", unit_scale=True, desc="chunking", disable=not show or sizes is None,
               file=sys.stderr)
    say = failures.echo
    if not bar.disable:  # a line said while the bar is drawn goes on a line of its own, the bar below it
        failures.echo = functools.partial(tqdm.write, file=sys.stderr)
    try:
        for k, out in enumerate(ordered_map(job, items, n, weight=run_.weight)):
            if passed is not None:
                passed.before(out.item[0])
            for line in out.logs or ():  # (a line of its own, above the bar)
                (failures.echo or functools.partial(click.echo, err=True))(line)
            if sizes is not None:
                bar.update(sizes[k])
                bar.set_postfix_str(f"{k + 1}/{len(inputs)} files", refresh=False)
            if out.failure is not None:
                failures.add(out.failure)
            elif out.skipped:
                counts["resumed"] += 1
            elif out.changed:
                failures.add(run_.changed(out.item[0].name))
            elif not out.sizes:  # no chunk: a document without text (zero bytes, white space only)
                inp = out.item[0]
                size = os.path.getsize(inp.path) if inp.path is not None and os.path.isfile(inp.path) else None
                failures.add_empty(inp.name, "zero bytes" if size == 0 or (size is None and not out.text_bytes)
                                   else "white space only" if out.text_bytes else "no text")
            else:
                fell = _fallback_chunks(out.payload) if client is not None else 0
                if fell:
                    counts["fallback"] += 1
                    if len(written) > 1:  # --resume: not written, so that the next --resume asks again
                        failures.add(_fallback_skipped(out.item[0].name, fell, len(out.sizes)))
                        continue
                    (failures.echo or functools.partial(click.echo, err=True))(
                        _fallback_line(out.item[0].name, fell, len(out.sizes)))
                write(out.payload)
                counts["docs"] += 1
                counts["nbytes"] += out.text_bytes
                stats.add_many(out.sizes)
        if passed is not None:
            passed.rest()
    finally:
        bar.close()
        failures.echo = say
    if counts["docs"] == 0 and failures.failed(0):  # no input produced a chunk: nothing written
        written.append("empty")


def _code_without_language(chunker: Any) -> bool:
    """Whether ``chunker`` is the code strategy without a language (``--strategy code``
    without ``-p language=NAME``): each document's own language, or none."""
    from .chunkers.code import CodeChunker

    return isinstance(chunker, CodeChunker) and getattr(chunker, "language", None) is None


def _describe_or_stop(exc: BaseException, item: Any, stage: str, encoding: str | None = None) -> Any:
    """A file's failure as a line of the report; a chat endpoint that cannot be used
    (:class:`chunkwise.llm.LLMError`: no server, a wrong URL, model or key, every try
    failed) stops the run instead, with one line naming the endpoint (exit 1): every other
    file would fail the same way, and no fallback is passed off as the model's chunks."""
    from .commands._chunk_run import describe
    from .llm import LLMError

    if isinstance(exc, LLMError):
        raise click.ClickException(" ".join(f"{exc}; stopped, the output left as it was".split()))
    return describe(exc, item, stage, encoding)


_FALLBACK_MARK = b'"llm_fallback": true'


def _fallback_chunks(payload: Any) -> int:
    """How many chunks of a rendered document (JSON lines bytes, or Parquet records) carry
    ``metadata["llm_fallback"]`` True (in JSON lines the key is written unescaped only as
    a key: a chunk's text has its quotes escaped)."""
    if isinstance(payload, (bytes, bytearray)):
        return payload.count(_FALLBACK_MARK)
    return sum(1 for r in payload or () if (r.get("metadata") or {}).get("llm_fallback") is True)


def _fallback_line(name: str, fell: int, total: int) -> str:
    return (
        f"fallback {name}: {fell} of {total} chunks cut by the fallback or left without a context (the chat "
        "model's answers stayed invalid or empty); "
        'metadata "llm_fallback": true; the answers were not cached, a later run asks again'
    )


def _fallback_skipped(name: str, fell: int, total: int) -> Any:
    from .commands._inputs import Skipped

    return Skipped(
        name,
        "llm fallback",
        f"{fell} of {total} chunks would be the fallback's (the chat model's answers stayed invalid); not written",
        "run the same command with --resume again to ask the model again",
    )


def _fallback_note(n: int, resume: bool) -> str:
    from .commands._inputs import counted

    if resume:
        return f"; {counted(n, 'document')} left out for the fallback (a later --resume asks the model again)"
    return f"; {counted(n, 'document')} chunked in part by the fallback (llm_fallback: true; a later run asks again)"


def _dry_run(
    chunker: Any, client: Any, inputs: Any, contextualize: bool, failures: Any, reading: InputOptions
) -> None:
    """``chunk --dry-run``: the requests, tokens and cost the chat model would get, on
    standard output; nothing is sent or written. With ``--contextualize`` after a strategy
    whose chunks depend on the model's answers, the recursive strategy's chunks at the same
    size stand in for them."""
    from .api import make_chunker
    from .commands._inputs import classify, read
    from .llm import Estimate, estimate_contextualize

    total, docs = Estimate(), 0
    stand_in = None
    for inp in inputs:
        try:
            doc = read(inp, encoding=reading.encoding, fmt=reading.fmt)
        except Exception as exc:  # noqa: BLE001 - reported, then skipped
            failures.add(classify(exc, inp, "read"))
            continue
        est = chunker.estimate([doc]) if hasattr(chunker, "estimate") else None
        asks = est is not None and est.requests > 0  # its chunks depend on the model's answers
        if est is not None:
            total = total + est
        if contextualize:
            if asks:
                stand_in = stand_in or make_chunker(
                    "recursive", chunk_size=chunker.chunk_size, chunk_overlap=chunker.chunk_overlap, unit=chunker.sizer
                )
                chunks = stand_in.chunk(doc)
            else:
                chunks = chunker.chunk(doc)
            total = total + estimate_contextualize(chunks, doc, client)
        docs += 1
    from .commands._inputs import counted

    click.echo(f"dry run, nothing sent: {counted(docs, 'document')}; {total}")


def _defaults_line(defaults: dict[str, Any], python: bool) -> str:
    if python:
        return "chunkwise.chunk(text_or_document, " + ", ".join(f"{k}={v!r}" for k, v in defaults.items()) + ")"
    return "chunkwise chunk PATH... " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in defaults.items())


@cli.command("strategies")
def strategies_command() -> None:
    """List the strategies and their parameters with defaults, and the defaults of the
    Python API and of the command line."""
    click.echo("defaults:")
    click.echo(f"    Python:       {_defaults_line(PYTHON_DEFAULTS, True)}")
    click.echo(f"    command line: {_defaults_line(CLI_DEFAULTS, False)}")
    click.echo("strategies (parameters with their defaults in Python):")
    for name in strategy_names():
        cls = get_strategy(name)
        doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
        click.echo(f"{name}: {doc}")
        for key, default in cls.parameters().items():
            click.echo(f"    {key} = {default!r}")


def _add_subcommands() -> None:
    """The commands of :mod:`chunkwise.commands` whose module is present, each imported when
    first looked up (its module's name is the command's)."""
    from .commands import COMMAND_MODULES

    modules = {mod: f"chunkwise.commands.{mod}" for mod in COMMAND_MODULES}
    commands = _Commands({mod: name for mod, name in modules.items() if importlib.util.find_spec(name) is not None})
    commands.update(cli.commands)
    cli.commands = commands


_add_subcommands()


def main() -> None:
    """Entry point of the ``chunkwise`` command."""
    cli()


if __name__ == "__main__":
    main()
