"""``chunkwise stats``: chunk statistics per configuration, no embeddings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ._inputs import Failures, Input, Skipped, classify, counted, emptiness, gather, read
from ._order import in_found_order
from ._options import ChunkingOptions, InputOptions, echo_view, input_options, json_option
from .eval import grid_options

__all__ = ["command"]

_COLUMNS = ("config", "chunks", "mean", "std", "min", "max", "fill", "mid_sentence", "heading_only", "small")


class _Guarded:
    """A chunker whose failure on one document is reported and counted as no chunks."""

    def __init__(self, chunker: Any, label: str, failures: Failures, names: dict[int, Input]) -> None:
        self._chunker, self._label, self._failures, self._names = chunker, label, failures, names

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chunker, name)

    def chunk(self, doc: Any) -> list[Any]:
        try:
            return list(self._chunker.chunk(doc))
        except Exception as exc:  # noqa: BLE001 - reported with its fix, then skipped
            s = classify(exc, self._names.get(id(doc), Input(None)), "chunk")
            self._failures.add(replace(s, reason=f"{s.reason} (configuration {self._label})"))
            return []


def _bars(hist: list[int]) -> str:
    blocks = " ▁▂▃▄▅▆▇█"
    top = max(hist) if hist and max(hist) else 1
    return "".join(blocks[round(v / top * 8)] for v in hist)


@click.command("stats")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, allow_dash=True))
@grid_options
@input_options(root=True)
@json_option("the statistics")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the statistics as CSV.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Taken as chunk and eval take it, so scripts can pass it to every command; stats draws no "
    "progress bar either way.",
)
@click.pass_context
def command(
    ctx: click.Context,
    paths: tuple[Path, ...],
    chunking: ChunkingOptions,
    reading: InputOptions,
    json_path: Path | None,
    csv_path: Path | None,
    progress: bool | None,
) -> None:
    """Chunk statistics of each configuration over files or folders (no embeddings).

    Per configuration: chunk count; size mean, std, min, max in --unit; fill (mean size /
    chunk size); mid_sentence (share of chunks that stop inside a sentence); the mix of
    boundary rules at the cuts (paragraph, line, sentence, word, hard, end, ...); and a
    histogram of sizes in ten bins of the chunk size, then one bin for oversize chunks.
    Empty documents (zero bytes, white space only) are skipped and named, not counted.

    Example:

        chunkwise stats data/chroma_eval/corpora --strategy recursive,fixed --chunk-size 200,400
    """
    from ..evaluation import chunk_stats
    from ..evaluation.report import format_table, write_csv, write_json

    configs = chunking.grid()
    inputs, skipped = gather(paths, reading.include, reading.exclude, reading.root)
    failures = Failures()
    docs: list[Any] = []
    names: dict[int, Input] = {}
    for inp in in_found_order(paths, inputs, skipped):  # skipped files said in the order found
        if isinstance(inp, Skipped):
            failures.add(inp)
            continue
        try:
            doc = read(inp, encoding=reading.encoding, fmt=reading.fmt)
        except Exception as exc:  # noqa: BLE001 - reported with its fix, then skipped
            failures.add(classify(exc, inp, "read", reading.encoding))
            continue
        why = emptiness(doc, inp)
        if why:  # nothing to measure: reported, not counted as a document of no chunks
            failures.add_empty(inp.name, why)
            continue
        docs.append(doc)
        names[id(doc)] = inp
    if not docs:
        if failures.summary():
            if failures.empty:
                click.echo("no document with text: nothing to measure", err=True)
            click.echo(failures.summary(), err=True)
            ctx.exit(1)
        raise click.UsageError("no file to read under the given paths")
    stats = [
        chunk_stats(docs, _Guarded(cfg.make_chunker(), cfg.label, failures, names), label=cfg.label)
        for cfg in configs
    ]
    rows = [s.row() for s in stats]
    kinds = sorted({k for s in stats for k in s.boundaries})
    cut_cols = [f"cut_{k}" for k in kinds]
    table_rows = [dict(r, histogram=_bars(s.histogram)) for r, s in zip(rows, stats)]
    # the files first: a reader of the table that leaves early (`| head`) stops neither
    if json_path is not None:
        write_json([dict(r, boundaries=s.boundaries) for r, s in zip(rows, stats)], json_path)
    if csv_path is not None:
        write_csv(rows, csv_path)
    echo_view(format_table(table_rows, list(_COLUMNS) + cut_cols + ["histogram"]))
    click.echo(
        f"{counted(len(docs), 'document')}; sizes in {stats[0].unit}; histogram: 10 bins of chunk size, then oversize",
        err=True,
    )
    if failures.summary():
        click.echo(failures.summary(), err=True)
    if failures:
        ctx.exit(1)
