"""The command line: ``chunkwise chunk``, ``chunkwise strategies`` and the subcommands of
:mod:`chunkwise.commands`. Thin: every option maps onto the library's API, and the options
are declared once, in :mod:`chunkwise.commands._options`.

Exit status: 0 everything done, 1 some files failed (each reported and skipped; the rest
is complete), 2 a usage error (nothing done), 130 interrupted (Ctrl-C or SIGTERM; an
output file being written is removed and any previous one left as it was).
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from .commands._options import (
    CLI_DEFAULTS,
    PYTHON_DEFAULTS,
    chunking_options,
    input_options,
    llm_client_or_fail,
    llm_options,
    make_chunker_or_fail,
    parse_params,
    progress_option,
    refuse_folder,
)
from .registry import get_strategy, strategy_names

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "Terminated", "cli", "main"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

_parse_params = parse_params  # the name the commands used before the options module


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


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class _Cli(click.Group):
    """The group with chunkwise's exit statuses: 0, 1 (files failed), 2 (usage), 130
    (interrupted, SIGTERM included)."""

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
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
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            _silence_stdout()  # the reader of standard output left (`| head`)
            code = EXIT_FAILED
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
    help="JSON lines file, written atomically (default, or -: standard output).",
)
@llm_options()
@progress_option
@click.pass_context
def chunk_command(
    ctx: click.Context,
    paths: tuple[Path, ...],
    strategy: str,
    chunk_size: int,
    chunk_overlap: int,
    unit: str,
    tokenizer: str,
    params: tuple[str, ...],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    root: Path | None,
    encoding: str | None,
    fmt: str,
    output: Path | None,
    llm_model: str | None,
    llm_base_url: str | None,
    llm_cache: Path | None,
    no_llm_cache: bool,
    llm_price: str | None,
    llm_concurrency: int,
    contextualize: bool,
    dry_run: bool,
    progress: bool | None,
) -> None:
    """Chunk files, folders (recursively: .txt, .md, .markdown, .html, .htm) or standard
    input (-) into JSON lines.

    One line per chunk: id, document_id, source, index, start_index, end_index, size, unit,
    text, context, metadata. A summary goes to standard error. A file that cannot be read,
    decoded, chunked or written is reported with the fix and skipped, and so is a file of a
    folder in a format chunkwise does not read; the exit status is then 1. When every input
    fails, an existing -o file is left as it was.
    """
    from tqdm import tqdm

    from .commands._inputs import Failures, classify, gather, read
    from .export import atomic_writer, chunk_record, dumps

    model = llm_model or parse_params(params).get("model")
    client = llm_client_or_fail(
        strategy, contextualize, model, llm_base_url, llm_cache, no_llm_cache, llm_price, llm_concurrency
    )
    extra = {"client": client} if client is not None and strategy in ("agentic", "propositions") else {}
    chunker = make_chunker_or_fail(strategy, chunk_size, chunk_overlap, unit, tokenizer, params, **extra)
    inputs, skipped = gather(paths, include, exclude, root)
    if not inputs and not skipped:
        raise click.UsageError(
            "no file to read under the given paths" + (" (see --include and --exclude)" if include or exclude else "")
        )
    failures = Failures()
    failures.extend(skipped)
    if dry_run:
        _dry_run(chunker, client, inputs, contextualize, failures, encoding, fmt)
        if failures:
            click.echo(failures.summary(), err=True)
            ctx.exit(EXIT_FAILED)
        return
    stats, docs, nbytes = _Stats(), 0, 0
    show = sys.stderr.isatty() if progress is None else progress
    t0 = time.perf_counter()

    def run(out: Any) -> None:
        nonlocal docs, nbytes
        for inp in tqdm(inputs, desc="chunking", unit="file", disable=not show, file=sys.stderr):
            try:
                doc = read(inp, encoding=encoding, fmt=fmt)
            except Exception as exc:  # noqa: BLE001 - every per-file failure is reported, then skipped
                failures.add(classify(exc, inp, "read", encoding))
                continue
            try:
                chunks = chunker.chunk(doc)
                if contextualize:
                    from .llm import contextualize as situate

                    chunks = situate(chunks, doc, client)
            except Exception as exc:  # noqa: BLE001
                failures.add(classify(exc, inp, "chunk"))
                continue
            try:  # the whole document, serialised before any of its lines is written
                payload = "".join(dumps(chunk_record(c, doc)) + "\n" for c in chunks).encode("utf-8")
            except Exception as exc:  # noqa: BLE001
                failures.add(classify(exc, inp, "write"))
                continue
            out.write(payload)
            docs += 1
            nbytes += len(doc.text.encode("utf-8", "surrogatepass"))
            for c in chunks:
                stats.add(c.size)

    to_stdout = output is None or str(output) == "-"
    kept = False
    try:
        if to_stdout:
            sys.stdout.flush()
            stream = getattr(sys.stdout, "buffer", None) or _TextAsBytes(sys.stdout)
            run(stream)
            stream.flush()
        else:
            assert output is not None
            with atomic_writer(output) as fh:
                run(fh.buffer)
                if docs == 0 and failures:  # every input failed: leave a previous file as it was
                    raise _NothingWritten()
    except _NothingWritten:
        kept = True
    except OSError as exc:
        if exc.errno == errno.EPIPE or to_stdout:
            raise
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from exc
    elapsed = time.perf_counter() - t0
    click.echo(
        f"{docs} documents, {stats.n} chunks; size in {chunker.sizer.unit}: mean {stats.mean:.1f}, "
        f"std {stats.std:.1f}, min {stats.min if stats.min is not None else 0}, "
        f"max {stats.max if stats.max is not None else 0}; "
        f"{nbytes / 1e6:.2f} MB in {elapsed:.2f} s ({nbytes / 1e6 / max(elapsed, 1e-9):.1f} MB/s)"
        + ("" if to_stdout else f"; nothing written, {output} left as it was" if kept else f"; written to {output}"),
        err=True,
    )
    if failures:
        click.echo(failures.summary(), err=True)
        ctx.exit(EXIT_FAILED)


def _dry_run(
    chunker: Any, client: Any, inputs: Any, contextualize: bool, failures: Any, encoding: str | None, fmt: str
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
            doc = read(inp, encoding=encoding, fmt=fmt)
        except Exception as exc:  # noqa: BLE001 - reported, then skipped
            failures.add(classify(exc, inp, "read"))
            continue
        asks = hasattr(chunker, "estimate")
        if asks:
            total = total + chunker.estimate([doc])
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
    click.echo(f"dry run, nothing sent: {docs} documents; {total}")


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
    from .commands import COMMAND_MODULES

    for mod in COMMAND_MODULES:
        name = f"chunkwise.commands.{mod}"
        if importlib.util.find_spec(name) is not None:
            cli.add_command(importlib.import_module(name).command)


_add_subcommands()


def main() -> None:
    """Entry point of the ``chunkwise`` command."""
    cli()


if __name__ == "__main__":
    main()
