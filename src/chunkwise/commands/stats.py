"""``chunkwise stats``: chunk statistics per configuration, no embeddings."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ChunkwiseError
from .eval import build_grid, grid_options

__all__ = ["command"]

_COLUMNS = ("config", "chunks", "mean", "std", "min", "max", "fill", "mid_sentence")


def _bars(hist: list[int]) -> str:
    blocks = " ▁▂▃▄▅▆▇█"
    top = max(hist) if hist and max(hist) else 1
    return "".join(blocks[round(v / top * 8)] for v in hist)


@click.command("stats")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@grid_options
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the statistics as JSON.",
)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the statistics as CSV.",
)
def command(
    paths: tuple[Path, ...],
    strategy: str,
    chunk_size: str,
    chunk_overlap: str,
    unit: str,
    tokenizer: str,
    params: tuple[str, ...],
    json_path: Path | None,
    csv_path: Path | None,
) -> None:
    """Chunk statistics of each configuration over files or folders (no embeddings).

    Per configuration: chunk count; size mean, std, min, max in --unit; fill (mean size /
    chunk size); mid_sentence (share of chunks that stop inside a sentence); the mix of
    boundary rules at the cuts (paragraph, line, sentence, word, hard, end, ...); and a
    histogram of sizes in ten bins of the chunk size, then one bin for oversize chunks.

    Example:

        chunkwise stats data/chroma_eval/corpora --strategy recursive,fixed --chunk-size 200,400
    """
    from ..evaluation import chunk_stats
    from ..evaluation.report import format_table, write_csv, write_json
    from ..loaders import find_files, load

    configs = build_grid(strategy, chunk_size, chunk_overlap, unit, tokenizer, params)
    try:
        docs = [load(p) for p in find_files(paths)]
    except (ChunkwiseError, OSError, UnicodeError) as exc:
        raise click.ClickException(str(exc)) from exc
    if not docs:
        raise click.UsageError("no file to read under the given paths")
    stats = [chunk_stats(docs, cfg.make_chunker(), label=cfg.label) for cfg in configs]
    rows = [s.row() for s in stats]
    kinds = sorted({k for s in stats for k in s.boundaries})
    cut_cols = [f"cut_{k}" for k in kinds]
    table_rows = [dict(r, histogram=_bars(s.histogram)) for r, s in zip(rows, stats)]
    click.echo(format_table(table_rows, list(_COLUMNS) + cut_cols + ["histogram"]))
    click.echo(
        f"{len(docs)} documents; sizes in {stats[0].unit}; histogram: 10 bins of chunk size, then oversize", err=True
    )
    if json_path is not None:
        write_json([dict(r, boundaries=s.boundaries) for r, s in zip(rows, stats)], json_path)
    if csv_path is not None:
        write_csv(rows, csv_path)
