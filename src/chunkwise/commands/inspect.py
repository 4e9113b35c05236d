"""``chunkwise inspect FILE``: see where a strategy cuts, and why.

Prints the chunks with their boundaries marked (kind of cut, size, and for the semantic
strategies the similarity at the cut) and, with ``--plot out.png``, draws the similarity
of consecutive sentences with the threshold line and the chosen boundaries (matplotlib,
imported only then).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import click

from ._options import ChunkingOptions, InputOptions, chunking_options, echo_view, input_options, refuse_folder

__all__ = ["command", "plot_analysis", "render_chunks"]


def render_chunks(chunks: list[Any], width: int = 0) -> str:
    """A text view: each chunk's header line (index, offsets, size; its pages ``p. 3`` or
    ``p. 3-4`` when the document has a page map; its header path ``A > B`` when it has
    one), its text, and a marked line at each cut. ``width`` > 0 shortens each chunk's
    text to that many characters (middle elided)."""
    lines: list[str] = []
    for c in chunks:
        body = c.text
        if width and len(body) > width:
            half = max(1, width // 2 - 2)
            body = f"{body[:half]} ... {body[-half:]}"
        head = f"[{c.index}] {c.start_index}:{c.end_index}  {c.size} {c.unit}"
        first, last = c.metadata.get("page_number"), c.metadata.get("page_end")
        if first is not None:
            head += f"  p. {first}" + (f"-{last}" if last is not None and last != first else "")
        path = c.metadata.get("header_path")
        if path:
            head += "  " + " > ".join(map(str, path))
        lines.append(head)
        lines.append(body)
        kind = c.metadata.get("boundary", "")
        if c.index < len(chunks) - 1 or kind != "end":
            sim = c.metadata.get("boundary_similarity")
            extra = f", similarity {sim:.3f}" if isinstance(sim, float) else ""
            lines.append(f"──── cut: {kind}{extra} " + "─" * 20)
    return "\n".join(lines)


def plot_analysis(analysis: Any, threshold_type: str | None, out: Path, title: str = "") -> None:
    """Draw the similarity curve, the threshold line and the boundaries to ``out`` (PNG, SVG, PDF).

    Raises:
        MissingDependencyError: matplotlib is not installed (extra ``plot``).
    """
    from ..embeddings._common import need

    need("matplotlib", "matplotlib", "plot", "chunkwise inspect --plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sims = [float(x) for x in analysis.similarities]
    fig, ax = plt.subplots(figsize=(max(6.0, min(24.0, len(sims) * 0.15)), 4.0))
    xs = [i + 0.5 for i in range(len(sims))]  # the gap after sentence i
    ax.plot(xs, sims, marker="o", markersize=3, linewidth=1, label="similarity of consecutive sentences")
    thr = analysis.threshold
    if threshold_type and not math.isnan(thr):
        if threshold_type == "absolute":
            ax.axhline(thr, color="red", linestyle="--", label=f"threshold ({threshold_type}) {thr:.3f}")
        elif threshold_type != "gradient":  # distance threshold: similarity 1 - d
            ax.axhline(1 - thr, color="red", linestyle="--", label=f"threshold ({threshold_type}) {1 - thr:.3f}")
    for k, c in enumerate(analysis.cuts):
        ax.axvline(c + 0.5, color="green", alpha=0.5, linewidth=1, label="semantic cut" if k == 0 else None)
    starts = {a: i for i, (a, _) in enumerate(analysis.sentences)}
    cuts = set(analysis.cuts)
    first = True
    for s in analysis.spans[1:]:
        i = starts.get(s.start)
        if i is not None and i > 0 and (i - 1) not in cuts:
            ax.axvline(i - 0.5, color="orange", alpha=0.6, linestyle=":", label="size cut" if first else None)
            first = False
    ax.set_xlabel("sentence")
    ax.set_ylabel("cosine similarity")
    ax.set_title(title or "semantic boundaries")
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


@click.command("inspect")
@click.argument("path", metavar="FILE", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True))
@chunking_options(
    strategy="semantic",
    strategy_help="Strategy (see `chunkwise strategies`). Here the default is semantic, to show where "
    "the similarity of sentences cuts (chunk's default is auto: markdown for Markdown and HTML, table for "
    "CSV and TSV, recursive for the rest); give -s auto to see what chunk would do.",
)
@input_options(globs=False, root=True)
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    callback=refuse_folder,
    help="Write the similarity curve here (PNG/SVG/PDF; semantic strategies).",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    callback=refuse_folder,
    help="Also write the playground's view of this configuration as one static HTML file.",
)
@click.option(
    "--width",
    default=0,
    show_default=True,
    type=int,
    help="Shorten each chunk's text to this many characters (0: full).",
)
@click.pass_context
def command(
    ctx: click.Context,
    path: Path,
    chunking: ChunkingOptions,
    reading: InputOptions,
    plot: Path | None,
    html_path: Path | None,
    width: int,
) -> None:
    """Show the chunks of FILE with their boundaries marked; --plot draws the similarity curve.

    The strategy is semantic unless -s names another (chunk's default is auto). A file
    without text (zero bytes, white space only) is reported as skipped, with 0 chunks and
    exit status 1 (no input produced a chunk).
    """
    from ..errors import ChunkwiseError, ConfigError
    from ._inputs import Failures, Input, classify, counted, emptiness, read

    chunker = chunking.chunker()
    strategy, root, encoding = chunking.strategy, reading.root, reading.encoding
    if plot is not None and not hasattr(chunker, "analyze"):
        raise click.UsageError(f"--plot needs a semantic strategy ('semantic', 'semantic_cluster'), not {strategy!r}")
    if str(path) == "-":
        inp = Input(None, named=True)
    else:
        if root is not None:
            from ..loaders import relative_id_path

            try:
                relative_id_path(path, root)
            except ConfigError as exc:
                raise click.UsageError(f"{exc} (--root must contain the file)") from exc
        if not os.path.lexists(path):  # as chunk says it: a usage error (exit 2), nothing read
            raise click.UsageError(
                f"no file to read: cannot read {path.as_posix()} (no such file or folder); check the path"
            )
        inp = Input(path, root=root, named=True)
    failures = Failures()
    try:
        doc = read(inp, encoding=encoding, fmt=reading.fmt)
    except Exception as exc:  # noqa: BLE001 - reported with its fix
        failures.add(classify(exc, inp, "read", encoding))
        ctx.exit(1)
    why = emptiness(doc, inp)
    if why:  # nothing to show: said, not a silent "0 chunks"; no input produced a chunk: status 1
        failures.add_empty(inp.name, why)
        click.echo(f"0 chunks, strategy {strategy}, unit {chunker.sizer.unit}", err=True)
        click.echo(failures.summary(), err=True)
        ctx.exit(1)
    try:
        analysis = None
        try:
            if hasattr(chunker, "analyze"):
                analysis = chunker.analyze(doc)
                chunks = chunker.build_chunks(doc, analysis.spans, analysis.segments)
            else:
                chunks = chunker.chunk(doc)
        except (ConfigError, ImportError):  # the options: a usage error, below
            raise
        except Exception as exc:  # noqa: BLE001 - this document: reported with its fix
            failures.add(classify(exc, inp, "chunk"))
            ctx.exit(1)
        # the files first: a reader of the view that leaves early (`| head`) stops none of them
        written = []
        if plot is not None and analysis is not None:
            title = f"{inp.name.rsplit('/', 1)[-1]}: {strategy}"
            plot_analysis(analysis, getattr(chunker, "threshold_type", None), plot, title=title)
            written.append(f"plot written to {plot}")
        if html_path is not None:
            from ..serve import ServeError
            from ..serve.report import write_report

            try:
                write_report(html_path, doc, chunking.settings(), inp.name if inp.path is not None else None)
            except ServeError as exc:
                raise click.UsageError(f"--html: {exc}") from exc
            written.append(f"report written to {html_path}")
        echo_view(render_chunks(chunks, width))
        summary = f"{counted(len(chunks), 'chunk')}, strategy {strategy}, unit {chunker.sizer.unit}"
        if analysis is not None:
            summary += f"; {len(analysis.sentences)} sentences, {len(analysis.cuts)} semantic cut(s)"
            if not math.isnan(analysis.threshold):
                kind = getattr(chunker, "threshold_type", "")
                if kind in ("absolute", "gradient"):
                    summary += f", threshold {analysis.threshold:.4f} ({kind})"
                else:  # a distance threshold: report it as a similarity, as the plot does
                    summary += f", threshold: similarity {1 - analysis.threshold:.4f} ({kind})"
        click.echo(summary, err=True)
        for line in written:
            click.echo(line, err=True)
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    except ImportError as exc:
        raise click.UsageError(str(exc)) from exc
