"""The command line: ``chunkwise chunk``, ``chunkwise strategies`` and the subcommands of
:mod:`chunkwise.commands`. Thin: every option maps onto the library's API."""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import click

from .api import make_chunker
from .errors import ChunkwiseError
from .loaders import find_files, load
from .registry import get_strategy, strategy_names

__all__ = ["cli", "main"]


def _parse_params(items: tuple[str, ...]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--param")
        key, raw = item.split("=", 1)
        try:
            params[key.strip().replace("-", "_")] = json.loads(raw)
        except json.JSONDecodeError:
            params[key.strip().replace("-", "_")] = raw
    return params


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chunkwise")
def cli() -> None:
    """chunkwise: retrieval-ready chunks with exact offsets."""


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--strategy",
    "-s",
    default="auto",
    show_default=True,
    help="Strategy name (see `chunkwise strategies`); auto: markdown for .md/.html files, recursive for the rest.",
)
@click.option("--chunk-size", "-n", default=512, show_default=True, type=int, help="Largest chunk, in --unit.")
@click.option("--chunk-overlap", default=0, show_default=True, type=int, help="Overlap of consecutive chunks, in --unit.")
@click.option("--unit", "-u", default="tokens", show_default=True, type=click.Choice(["chars", "words", "tokens"]))
@click.option("--tokenizer", default="cl100k_base", show_default=True, help="Encoding name or tokenizer.json path (unit tokens).")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="A strategy parameter (JSON value), repeatable.")
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None, help="JSON lines file (default: standard output).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on standard error (default: when it is a terminal).")
def chunk_command(
    paths: tuple[Path, ...],
    strategy: str,
    chunk_size: int,
    chunk_overlap: int,
    unit: str,
    tokenizer: str,
    params: tuple[str, ...],
    output: Path | None,
    progress: bool | None,
) -> None:
    """Chunk files or folders (recursively: .txt, .md, .markdown, .html, .htm) into JSON lines.

    One line per chunk: id, document_id, source, index, start_index, end_index, size, unit,
    text, context, metadata. A summary goes to standard error. A file that cannot be read
    or decoded is reported and skipped; the exit status is then 1.
    """
    from tqdm import tqdm

    from .export import atomic_writer, chunk_record

    common = {"chunk_size": chunk_size, "chunk_overlap": chunk_overlap, "unit": unit, "tokenizer": tokenizer}
    try:
        extra = _parse_params(params)
        if strategy == "auto":
            text_chunker = make_chunker("recursive", **common, **extra)
            structured_chunker = make_chunker("markdown", **common, **extra)
        else:
            text_chunker = structured_chunker = make_chunker(strategy, **common, **extra)
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    chunker = text_chunker
    files = list(find_files(paths))
    stats, failed, docs, nbytes = _Stats(), [], 0, 0
    show = sys.stderr.isatty() if progress is None else progress
    t0 = time.perf_counter()

    def run(out: Any) -> None:
        nonlocal docs, nbytes
        for path in tqdm(files, desc="chunking", unit="file", disable=not show, file=sys.stderr):
            try:
                doc = load(path)
                structured = doc.metadata.get("format") in ("markdown", "html")
                chunks = (structured_chunker if structured else text_chunker).chunk(doc)
            except (ChunkwiseError, OSError, UnicodeError) as exc:
                failed.append(path)
                click.echo(f"error: {exc}", err=True)
                continue
            docs += 1
            nbytes += len(doc.text.encode("utf-8", "surrogatepass"))
            for c in chunks:
                stats.add(c.size)
                out.write(json.dumps(chunk_record(c, doc), ensure_ascii=False))
                out.write("\n")

    if output is None:
        run(sys.stdout)
    else:
        with atomic_writer(output) as fh:
            run(fh)
    elapsed = time.perf_counter() - t0
    unit_name = chunker.sizer.unit
    click.echo(
        f"{docs} documents, {stats.n} chunks; size in {unit_name}: mean {stats.mean:.1f}, std {stats.std:.1f}, "
        f"min {stats.min if stats.min is not None else 0}, max {stats.max if stats.max is not None else 0}; "
        f"{nbytes / 1e6:.2f} MB in {elapsed:.2f} s ({nbytes / 1e6 / max(elapsed, 1e-9):.1f} MB/s)"
        + (f"; {len(failed)} failed" if failed else "")
        + (f"; written to {output}" if output else ""),
        err=True,
    )
    if failed:
        sys.exit(1)


@cli.command("strategies")
def strategies_command() -> None:
    """List the strategies and their parameters with defaults."""
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
