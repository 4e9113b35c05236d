"""``chunkwise eval``: evaluate a grid of chunking configurations on a labelled probe set."""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..errors import ChunkwiseError
from ..evaluation.expand import EXPANSIONS
from ._inputs import Failures, Input, classify, counted, passed_over
from ._options import (
    EVAL_GRID_DEFAULTS,
    ChunkingOptions,
    InputOptions,
    build_grid,
    chunking_options,
    echo_view,
    given_explicitly,
    input_options,
    loader_options_of,
    option_group,
    progress_option,
)

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_K",
    "TABLE_COLUMNS",
    "EvalOptions",
    "build_grid",
    "command",
    "grid_options",
    "load_corpus_files",
    "load_inputs",
    "make_embedder",
]

TABLE_COLUMNS = (
    "config",
    "k",
    "chunks",
    "recall",
    "recall_ci_low",
    "recall_ci_high",
    "precision",
    "iou",
    "iou_union",
    "precision_omega",
    "recall_at_k",
    "mrr",
    "ndcg",
    "tokens",
    "over_budget",
)

DEFAULT_BUDGET_TOKENS = 1000
"""``eval`` and ``calibrate`` compare configurations at this many retrieved cl100k tokens
per question unless ``--k`` is given (EVALUATION.md's headline budget)."""

DEFAULT_K = 5
"""The k passed to the evaluation when configurations are compared at a budget (each then
chooses its own k; ``run.k`` of ``results.json`` is null and ``run.k_by_config`` holds them)."""


grid_options = chunking_options(grid=True, grid_defaults=EVAL_GRID_DEFAULTS)
"""The options shared by ``eval`` and ``calibrate``: the configuration grid (declared in
:mod:`chunkwise.commands._options`; its defaults :data:`EVAL_GRID_DEFAULTS` include the
defaults of ``chunk``)."""


def retrieval_depth(k: int | None, budget_tokens: int | None) -> tuple[int, int | None]:
    """``(k, budget_tokens)`` from ``--k`` and ``--budget-tokens``: an equal budget of
    :data:`DEFAULT_BUDGET_TOKENS` unless ``--k`` is given (then the same k for every
    configuration, no budget).

    Raises:
        click.UsageError: both are given (the budget would override k).
    """
    if k is not None and budget_tokens is not None:
        raise click.UsageError(
            f"--k {k} and --budget-tokens {budget_tokens} both given: --budget-tokens chooses k per configuration; "
            "give --k for the same k everywhere, or --budget-tokens for an equal budget"
        )
    if k is not None:
        return k, None
    return DEFAULT_K, DEFAULT_BUDGET_TOKENS if budget_tokens is None else budget_tokens


def over_budget_warning(results: Sequence[Any]) -> str | None:
    """``over budget: one chunk is larger than the budget ...`` naming the configurations
    that retrieved more than the budget with one chunk per question, or None."""
    over = [r for r in results if getattr(r, "over_budget", False)]
    if not over:
        return None
    names = ", ".join(f"{r.label} ({r.means['tokens']:.0f} tokens)" for r in over)
    return (
        f"over budget: one chunk is larger than the budget ({over[0].budget_tokens} tokens), so k=1 retrieves more: "
        f"{names}; these rows are not compared at an equal budget (smaller --chunk-size, or a larger --budget-tokens)"
    )


@dataclass(frozen=True)
class EvalOptions:
    """The options of ``eval`` and ``calibrate`` that say what is evaluated and how it is
    retrieved: the corpus folder and how its files are read (``reading``), the probe set
    (``questions``; None: ``calibrate`` generates them), ``k`` or ``budget_tokens``, the
    embedding ``model`` and its cache, ``only_referenced``, ``progress``."""

    corpus: Path
    questions: Path | None
    k: int | None
    budget_tokens: int | None
    model: str | None
    cache_path: Path | None
    no_cache: bool
    only_referenced: bool
    progress: bool | None
    reading: InputOptions

    def depth(self) -> tuple[int, int | None]:
        """``(k, budget_tokens)``: :func:`retrieval_depth` of ``--k`` and ``--budget-tokens``."""
        return retrieval_depth(self.k, self.budget_tokens)

    def corpus_files(self) -> tuple[list[Any], Failures, list[Any]]:
        """:func:`load_corpus_files` of ``--corpus``, read as ``reading`` says."""
        r = self.reading
        return load_corpus_files(self.corpus, r.include, r.exclude, r.encoding)


def eval_options(fn: Callable[..., Any] | None = None, *, questions_required: bool = True) -> Any:
    """The options of ``eval`` and ``calibrate``: data, retrieval, embedder, progress, and
    the shared ``--include``, ``--exclude``, ``--encoding``, ``-L`` for the files of
    --corpus; the command gets them as ``evaluation``, an :class:`EvalOptions`.

    Used bare (``@eval_options``) or called (``@eval_options(questions_required=False)``:
    ``calibrate``, whose questions may be generated instead)."""
    if fn is None:
        return lambda f: eval_options(f, questions_required=questions_required)
    opts = [
        click.option(
            "--corpus",
            required=True,
            type=click.Path(exists=True, file_okay=False, path_type=Path),
            help="Folder of corpus files, read as `chunkwise chunk FOLDER` reads it (searched recursively; every "
            "format chunkwise reads). Documents get the ids of `chunkwise chunk`; questions name them by file stem, "
            "relative path or id.",
        ),
        click.option(
            "--questions",
            required=questions_required,
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Probe set: Chroma's questions CSV or chunkwise JSON lines."
            + ("" if questions_required else " Or --generate-questions N instead."),
        ),
        click.option(
            "--k",
            "k",
            default=None,
            type=click.IntRange(min=1),
            help="Chunks retrieved per question, the same for every configuration, instead of an equal token "
            "budget (at a fixed k, recall favours large chunks and IoU small ones).",
        ),
        click.option(
            "--budget-tokens",
            type=click.IntRange(min=1),
            default=None,
            help=f"Choose k per configuration so each retrieves about this many cl100k tokens per question "
            f"[default: {DEFAULT_BUDGET_TOKENS} unless --k is given]. A configuration whose one chunk is larger "
            "than the budget retrieves more (k is at least 1) and is marked over_budget.",
        ),
        click.option(
            "--model",
            default=None,
            help="Embedding model (see chunkwise.embeddings.get_embedder) [default: minilm, all-MiniLM-L6-v2, the "
            "offline model that retrieves best; wordllama is about a hundred times faster].",
        ),
        click.option(
            "--cache",
            "cache_path",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Embedding cache file [default: $XDG_CACHE_HOME/chunkwise/embeddings.sqlite].",
        ),
        click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache."),
        click.option(
            "--only-referenced",
            is_flag=True,
            help="Index only the documents some question refers to (default: every file of --corpus).",
        ),
        progress_option,
    ]
    names = tuple(f.name for f in dataclasses.fields(EvalOptions))
    return input_options(format=False)(option_group(opts, "evaluation", EvalOptions, names)(fn))


def default_cache_path() -> Path:
    """``$XDG_CACHE_HOME/chunkwise/embeddings.sqlite`` (``~/.cache`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "chunkwise" / "embeddings.sqlite"


def make_embedder(model: str | None, cache_path: Path | None, no_cache: bool) -> Any:
    """The embedder for ``--model`` (default :data:`chunkwise.embeddings.RETRIEVAL_MODEL`),
    wrapped in the on-disk cache unless ``--no-cache``."""
    from ..embeddings import RETRIEVAL_MODEL, CachedEmbedder, EmbeddingCache, get_embedder

    embedder = get_embedder(RETRIEVAL_MODEL if model is None else model)
    if no_cache:
        return embedder
    return CachedEmbedder(embedder, EmbeddingCache(cache_path or default_cache_path()))


def load_corpus_files(
    corpus: Path, include: Sequence[str] = (), exclude: Sequence[str] = (), encoding: str | None = None
) -> tuple[list[Any], Failures, list[Any]]:
    """The documents of a corpus folder, read by :func:`chunkwise.evaluation.load_corpus`
    as ``chunkwise chunk FOLDER`` reads it: every file a loader handles (recursively; the
    ids of ``chunkwise chunk``), with each file that cannot be read reported and skipped
    instead of stopping. A file no loader handles, or an empty document, is reported and
    left out as ``chunk`` reports it.

    Returns:
        The documents, the failures (reported on standard error) and the
        :class:`~chunkwise.evaluation.SkippedFile` records of the files skipped.
    """
    from ..evaluation import load_corpus

    skipped: list[Any] = []
    try:
        docs = load_corpus(
            corpus,
            None,
            encoding=encoding,
            include=list(include) or None,
            exclude=list(exclude) or None,
            skipped=skipped,
            loader_options=loader_options_of(),
        )
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    failures = Failures()
    for s in skipped:
        if s.error is not None:
            failures.add(classify(s.error, Input(s.path, root=corpus), "read", encoding))
        else:
            failures.add(passed_over(s.path, s.reason, s.relative))
    from ..evaluation.probes import SkippedFile
    from ._inputs import emptiness

    kept = []
    for d in docs:  # an empty document is skipped and named, as `chunk` does
        path = Path(d.source) if d.source else None
        why = emptiness(d, Input(path, root=corpus) if path is not None else None)
        if why is None:
            kept.append(d)
            continue
        failures.add_empty(d.source or d.id, why)
        rel = str(d.metadata.get("relative_path", d.id))
        skipped.append(SkippedFile(path or Path(rel), rel, f"empty document ({why})"))
    return kept, failures, skipped


def load_inputs(
    corpus: Path,
    questions: Path,
    only_referenced: bool,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    encoding: str | None = None,
) -> tuple[list[Any], list[Any], Failures]:
    """Documents and questions, checked against each other (the questions' document names
    resolved to the documents' ids), and the corpus files skipped.

    A question about a skipped file is left out (and counted); one about a document the
    corpus never had is a usage error.
    """
    from ..evaluation import DocumentNames, check_questions, load_questions

    docs, failures, skipped = load_corpus_files(corpus, include, exclude, encoding)
    try:
        qs = load_questions(questions)
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    if not qs:
        raise click.UsageError(f"{questions} holds no question")
    names = DocumentNames(docs)
    gone = DocumentNames((s.id, s.relative) for s in skipped)
    try:
        lost = {d for q in qs for d, _, _ in q.references if names.get(d) is None and d in gone}
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    if lost:
        kept = [q for q in qs if not any(d in lost for d, _, _ in q.references)]
        if len(kept) < len(qs):
            click.echo(
                f"left out {len(qs) - len(kept)} of {len(qs)} questions: they refer to skipped files "
                f"({', '.join(sorted(lost)[:5])})",
                err=True,
            )
        qs = kept
    if not docs:
        click.echo(failures.summary(), err=True)
        raise click.ClickException(f"no file of {corpus} could be read")
    if not qs:
        click.echo(failures.summary(), err=True)
        raise click.ClickException("no question left: every question refers to a skipped file")
    try:
        qs = check_questions(qs, docs)  # references now name document ids
        if only_referenced:
            wanted = {d for q in qs for d, _, _ in q.references}
            docs = [d for d in docs if d.id in wanted]
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    return docs, qs, failures


def run_grid(
    evaluation: EvalOptions,
    configs: Sequence[Any],
    k: int,
    budget_tokens: int | None,
    expand: str = "none",
    merge_ratio: float = 0.5,
    budget_per_question: bool = False,
) -> tuple[list[Any], dict[str, Any], Failures]:
    """Evaluate the grid on ``evaluation``'s corpus and questions, at ``k`` or
    ``budget_tokens`` (:meth:`EvalOptions.depth`); returns the results, a run description
    (for JSON and logs) and the corpus files skipped. ``expand`` names what is returned
    for the chunks matched (:mod:`chunkwise.evaluation.expand`)."""
    from ..evaluation import DocumentNames, evaluate_grid

    corpus, questions, r = evaluation.corpus, evaluation.questions, evaluation.reading
    if questions is None:
        raise click.UsageError("give --questions FILE")
    docs, qs, failures = load_inputs(corpus, questions, evaluation.only_referenced, r.include, r.exclude, r.encoding)
    names = DocumentNames(docs)
    try:
        embedder = make_embedder(evaluation.model, evaluation.cache_path, evaluation.no_cache)
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    show = sys.stderr.isatty() if evaluation.progress is None else evaluation.progress
    t0 = time.perf_counter()
    try:
        results = evaluate_grid(
            docs,
            qs,
            configs,
            embedder,
            k,
            budget_tokens=budget_tokens,
            progress=show,
            expand=expand,
            merge_ratio=merge_ratio,
            budget_per_question=budget_per_question,
        )
    except ChunkwiseError as exc:
        raise click.ClickException(str(exc)) from exc
    elapsed = time.perf_counter() - t0
    info = {
        "corpus": str(corpus),
        "questions": str(questions),
        "documents": [names.name_of(d.id) for d in docs],
        "document_ids": {names.name_of(d.id): d.id for d in docs},
        "n_questions": len(qs),
        "model": getattr(embedder, "name", repr(embedder)),
        # at a budget each configuration has its own k: run.k is the fixed --k only (else
        # null); k_by_config is the k each configuration retrieved with (its rows' k)
        "k": k if budget_tokens is None else None,
        "k_by_config": {r.label: r.k for r in results},
        "budget_tokens": budget_tokens,
        "expand": expand,
        "budget_per_question": budget_per_question,
        "seconds": round(elapsed, 2),
        "embedded": getattr(embedder, "calls", None),
        "skipped": [{"file": f.name, "kind": f.kind, "reason": f.reason} for f in failures.items],
    }
    return results, info, failures


def check_expansion_fits(configs: Sequence[Any], expand: str) -> None:
    """Refuse, before any chunking, an expansion the grid's chunks cannot carry:
    ``window`` needs every configuration to make sentence windows (``-s sentence -p
    window_sentences=N``); ``parent`` and ``merged`` need the parents, which only
    ``-s hierarchical`` makes (without ``-p leaves_only=true``).

    Raises:
        click.UsageError: a configuration that cannot carry the expansion (exit 2).
    """
    if expand in ("parent", "merged"):
        lacking = []
        for c in configs:
            chunker = c.make_chunker()
            if getattr(chunker, "leaves_only", None) is not False:  # not a hierarchy, or its leaves alone
                lacking.append(c.label + (" (leaves_only)" if getattr(chunker, "leaves_only", False) else ""))
        if lacking:
            raise click.UsageError(
                f"--expand {expand} returns the parents of the chunks matched, and {', '.join(lacking)} "
                f"{'makes' if len(lacking) == 1 else 'make'} none: only --strategy hierarchical (without "
                "-p leaves_only=true) supports it; use --expand none or window for the other strategies"
            )
        return
    if expand != "window":
        return
    lacking = [c.label for c in configs if not getattr(c.make_chunker(), "window_sentences", 0)]
    if lacking:
        raise click.UsageError(
            f"--expand window returns each chunk's sentence window, and {', '.join(lacking)} makes none: use "
            "--strategy sentence -p window_sentences=N (N >= 1)"
        )


def _summary(info: dict[str, Any]) -> str:
    embedded = info["embedded"]
    what = f"; {embedded} texts embedded (the rest from the cache)" if embedded is not None else ""
    return (
        f"{counted(len(info['documents']), 'document')}, {counted(info['n_questions'], 'question')}, model {info['model']}; "
        f"{info['seconds']:.1f} s{what}"
    )


@click.command("eval")
@eval_options
@grid_options
@click.option(
    "--output-dir",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("chunkwise-eval"),
    show_default=True,
    help="Where results.csv, results.json and results.png go.",
)
@click.option(
    "--expand",
    type=click.Choice(EXPANSIONS),
    default="none",
    show_default=True,
    help="What is returned, and scored, for the chunks matched: the chunk itself, its sentence window "
    "(sentence strategy with -p window_sentences=N), its parent, or auto-merged parents (hierarchical "
    "strategy: only the leaves are matched). Tokens and --budget-tokens count what is returned.",
)
@click.option(
    "--merge-ratio",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.5,
    show_default=True,
    help="For --expand merged: the share of a parent's children that must be matched for the parent to "
    "replace them.",
)
@click.option(
    "--budget-per-question",
    is_flag=True,
    help="With --budget-tokens: each question gets its best spans while their tokens stay within the budget "
    "(at least one), instead of one k for all (k from the mean span). Always so for --expand merged.",
)
@click.option(
    "--plot/--no-plot",
    default=True,
    show_default=True,
    help="Write results.png (needs matplotlib: pip install 'chunkwise[eval]').",
)
@click.pass_context
def command(
    ctx: click.Context,
    evaluation: EvalOptions,
    chunking: ChunkingOptions,
    expand: str,
    merge_ratio: float,
    budget_per_question: bool,
    output_dir: Path,
    plot: bool,
) -> None:
    """Evaluate chunking configurations by retrieval on a labelled probe set.

    Every combination of --strategy, --chunk-size and --chunk-overlap chunks all of
    --corpus; the chunks are embedded (cached on disk, so a re-run embeds nothing) and the
    top --k chunks of the whole collection are retrieved for each question. Scores (span
    recall with its 95% bootstrap interval over questions, precision, IoU, precision_omega
    after Chroma's "Evaluating Chunking Strategies for Retrieval", 2024, retrieved text
    counted as often as it is retrieved, as in the report's code; iou_union counts it once;
    recall@k, MRR, nDCG@k; tokens retrieved) are printed as a table and written to
    OUTPUT_DIR/results.csv, results.json (with per-question scores) and results.png.

    Example:

        chunkwise eval --corpus data/chroma_eval/corpora --questions data/chroma_eval/questions.csv
        --strategy recursive,sentence --chunk-size 200,400 --chunk-overlap 0,100

    Without --k, configurations are compared at an equal budget of 1000 retrieved tokens
    per question (k chosen per configuration); --k N retrieves N chunks for every one.
    Without --strategy and --chunk-size, the grid is the defaults of `chunkwise chunk`
    (auto) against recursive and sentence, at the default size, 200 and 400 tokens.
    """
    from ..evaluation.report import format_table, plot_results, write_csv, write_json

    if expand != "merged" and given_explicitly("merge_ratio", ctx):
        raise click.UsageError(f"--merge-ratio goes with --expand merged (not --expand {expand}); leave it out")
    k, budget_tokens = evaluation.depth()
    configs = chunking.grid()
    check_expansion_fits(configs, expand)
    results, info, failures = run_grid(evaluation, configs, k, budget_tokens, expand, merge_ratio, budget_per_question)
    rows = [r.row() for r in results]
    # the files first: a reader of the table that leaves early (`| head`) stops none of them
    write_csv(rows, output_dir / "results.csv")
    payload = {
        "run": info,
        "results": rows,
        "per_question": {
            r.label: [dict(id=qid, **s.as_dict()) for qid, s in zip(r.question_ids, r.scores)] for r in results
        },
    }
    write_json(payload, output_dir / "results.json")
    written = [output_dir / "results.csv", output_dir / "results.json"]
    no_plot = None
    if plot:
        try:
            plot_results(rows, output_dir / "results.png")
            written.append(output_dir / "results.png")
        except ImportError as exc:
            no_plot = f"warning: no plot: {exc}"
    columns = [c for c in TABLE_COLUMNS if c != "over_budget" or any(r.over_budget for r in results)]
    echo_view(format_table(rows, columns))
    warning = over_budget_warning(results)
    if warning:
        click.echo(warning, err=True)
    click.echo(_summary(info), err=True)
    if no_plot:
        click.echo(no_plot, err=True)
    where = f"{output_dir.as_posix().rstrip('/')}/"
    if not given_explicitly("output_dir", ctx):  # a folder made where the command runs: said where
        where += " (the default folder; -o DIR for another)"
    click.echo(f"results written to {where}: " + ", ".join(p.name for p in written), err=True)
    if failures:
        click.echo(failures.summary(), err=True)
        ctx.exit(1)
