"""``chunkwise calibrate``: the chunking configuration that maximises a metric on a probe set."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ChunkwiseError
from ..evaluation.calibration import CALIBRATION_METRICS
from .eval import TABLE_COLUMNS, build_grid, eval_options, grid_options, run_grid

__all__ = ["command"]


@click.command("calibrate")
@eval_options
@grid_options
@click.option(
    "--metric",
    "-m",
    default="iou",
    show_default=True,
    type=click.Choice(CALIBRATION_METRICS),
    help="The mean metric to maximise.",
)
@click.option(
    "--max-tokens",
    type=click.FloatRange(min=0),
    default=None,
    help="Only configurations retrieving at most this many tokens per question (mean) compete.",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the ranked table and the winner as JSON.",
)
@click.pass_context
def command(
    ctx: click.Context,
    corpus: Path,
    questions: Path,
    k: int,
    budget_tokens: int | None,
    model: str | None,
    cache_path: Path | None,
    no_cache: bool,
    only_referenced: bool,
    progress: bool | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    encoding: str | None,
    strategy: str,
    chunk_size: str,
    chunk_overlap: str,
    unit: str,
    tokenizer: str,
    params: tuple[str, ...],
    metric: str,
    max_tokens: float | None,
    json_path: Path | None,
) -> None:
    """Grid-search the chunking configuration that maximises --metric.

    Evaluates every configuration as `chunkwise eval` does (same options, same cache),
    ranks them by the mean of --metric (optionally among those retrieving at most
    --max-tokens per question, or with k set per configuration by --budget-tokens), prints
    the ranked table with the winner marked `*`, and ends with the winner's options.

    Example:

        chunkwise calibrate --corpus data/chroma_eval/corpora --questions data/chroma_eval/questions.csv
        --strategy recursive --chunk-size 100,200,400 --metric iou --budget-tokens 1000
    """
    from ..evaluation import calibrate
    from ..evaluation.report import format_table, write_json

    configs = build_grid(strategy, chunk_size, chunk_overlap, unit, tokenizer, params)
    results, info, failures = run_grid(
        corpus,
        questions,
        configs,
        k,
        budget_tokens,
        model,
        cache_path,
        no_cache,
        only_referenced,
        progress,
        include,
        exclude,
        encoding,
    )
    try:
        best, ranked = calibrate(results, metric, max_tokens)
    except ChunkwiseError as exc:
        raise click.ClickException(str(exc)) from exc
    rows = [r.row() for r in ranked]
    columns = list(TABLE_COLUMNS)
    if metric not in columns:
        columns.insert(1, metric)
    click.echo(format_table(rows, columns, mark=0))
    cfg = best.config
    assert cfg is not None  # results of a grid always carry their configuration
    click.echo(
        f"best {metric}: {best.means[metric]:.4f} with --strategy {cfg.strategy} --chunk-size {cfg.chunk_size} "
        f"--chunk-overlap {cfg.chunk_overlap} --unit {cfg.unit} (k={best.k}, {best.means['tokens']:.0f} tokens per question)"
    )
    if json_path is not None:
        write_json(
            {"run": info, "metric": metric, "max_tokens": max_tokens, "best": best.row(), "ranked": rows}, json_path
        )
    if failures:
        click.echo(failures.summary(), err=True)
        ctx.exit(1)
