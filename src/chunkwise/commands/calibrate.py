"""``chunkwise calibrate``: the chunking configuration that maximises a metric on a probe set."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path
from typing import Any

import click

from ..errors import ChunkwiseError
from ._inputs import counted
from ..evaluation.calibration import CALIBRATION_METRICS, DEFAULT_METRIC, TIE_BREAKERS
from ._llm_options import LlmOptions, default_llm_cache, llm_options
from ._options import ChunkingOptions, json_option
from .eval import TABLE_COLUMNS, EvalOptions, eval_options, grid_options, over_budget_warning, run_grid

__all__ = ["command"]


@click.command("calibrate")
@eval_options(questions_required=False)
@grid_options
@click.option(
    "--metric",
    "-m",
    default=DEFAULT_METRIC,
    show_default=True,
    type=click.Choice(CALIBRATION_METRICS),
    help="The mean metric to maximise, at an equal token budget unless --k is given; ties broken by "
    + ", then ".join(TIE_BREAKERS)
    + ", then the configuration's name. At a fixed --k, IoU and precision favour the smallest chunks and recall "
    "the largest (a warning says so).",
)
@click.option(
    "--max-tokens",
    type=click.FloatRange(min=0),
    default=None,
    help="Only configurations retrieving at most this many tokens per question (mean) compete.",
)
@click.option(
    "--generate-questions",
    "generate",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Without --questions: N probe questions generated from the corpus by the chat model (--llm-model), "
    "one per sampled passage, its answer excerpts as references. An approximation of real questions.",
)
@llm_options(
    dry_run=False,
    contextualize=False,
    helps={
        "llm_model": "Chat model that writes the questions.",
        "llm_base_url": "OpenAI-compatible API root, e.g. http://localhost:11434/v1 for Ollama [default: "
        "$OPENAI_BASE_URL, else OpenAI's]; the key is read from $OPENAI_API_KEY.",
        "llm_concurrency": "Chat requests at once.",
    },
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the passages sampled for questions.")
@click.option(
    "--save-questions",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the generated questions here (JSON lines; reuse them with --questions).",
)
@json_option("the ranked table and the winner")
@click.pass_context
def command(
    ctx: click.Context,
    evaluation: EvalOptions,
    chunking: ChunkingOptions,
    metric: str,
    max_tokens: float | None,
    generate: int | None,
    llm: LlmOptions,
    seed: int,
    save_questions: Path | None,
    json_path: Path | None,
) -> None:
    """Grid-search the chunking configuration that maximises --metric.

    Evaluates every configuration as `chunkwise eval` does (same options, same cache, k
    chosen per configuration for an equal budget of 1000 retrieved tokens unless --k or
    --budget-tokens says otherwise), ranks them by the mean of --metric (default recall;
    ties broken by nDCG, MRR, IoU, then the configuration's name; optionally among those
    retrieving at most --max-tokens per question), prints the ranked table with the
    winner marked `*`, a notice naming every configuration whose 95% confidence interval
    overlaps the winner's, and ends with the winner's options (said to be over budget when
    every competing row is). k is at most the number of chunks. When every configuration
    gave the same chunks and scores, it says there is nothing to choose between them.

    Example:

        chunkwise calibrate --corpus data/chroma_eval/corpora --questions data/chroma_eval/questions.csv
        --strategy auto,recursive --chunk-size 64,96,128,200

    A corpus without labelled questions: --generate-questions N --llm-model NAME (and
    --llm-base-url) has the chat model write N questions, one per passage sampled from the
    corpus, with the excerpts that answer them as references; the grid is then scored on
    those. Generated questions approximate a user's (they reuse the passage's words):
    use them to rank configurations, not as absolute scores.

    Example:

        chunkwise calibrate --corpus docs/ --generate-questions 100 --llm-model llama3.1
        --llm-base-url http://localhost:11434/v1 --save-questions probes.jsonl
        --strategy auto --chunk-size 64,96,128,256
    """
    if (evaluation.questions is None) == (generate is None):
        raise click.UsageError("give --questions FILE or --generate-questions N (with --llm-model), one of them")
    if evaluation.questions is not None and (save_questions is not None or llm.model is not None):
        raise click.UsageError("--save-questions and --llm-model go with --generate-questions, not --questions")
    k, budget_tokens = evaluation.depth()
    configs = chunking.grid()
    with tempfile.TemporaryDirectory(prefix="chunkwise-calibrate-") as tmp:
        if evaluation.questions is None:
            questions = _generate(evaluation, generate or 0, llm, seed, save_questions or Path(tmp) / "questions.jsonl",
                                  kept=save_questions is not None)
            evaluation = dataclasses.replace(evaluation, questions=questions)
        _rank(ctx, evaluation, configs, k, budget_tokens, metric, max_tokens, json_path, generate is not None)


def _generate(evaluation: EvalOptions, n: int, llm: LlmOptions, seed: int, out: Path, kept: bool = True) -> Path:
    """Generate ``n`` questions from the corpus's documents; write them to ``out`` (named
    in the message only when ``kept``: a temporary file is gone after the run)."""
    from ..evaluation import DocumentNames
    from ..evaluation.generate import MIN_PASSAGE_WORDS, generate_questions, write_questions
    from ..llm import ChatClient

    corpus, llm_model = evaluation.corpus, llm.model
    if not llm_model:
        raise click.UsageError("--generate-questions needs --llm-model NAME (the chat model the server serves)")
    docs, failures, _ = evaluation.corpus_files()
    if not docs:
        click.echo(failures.summary(), err=True)
        raise click.ClickException(f"no file of {corpus} could be read")
    cache = None if llm.no_cache else llm.cache or default_llm_cache()
    names = DocumentNames(docs)
    counts: dict[str, int] = {}
    try:
        client = ChatClient(llm_model, base_url=llm.base_url, cache=cache, concurrency=llm.concurrency)
        qs = generate_questions(docs, client, n, seed=seed, names=[names.name_of(d.id) for d in docs], counts=counts)
    except ChunkwiseError as exc:
        message = str(exc)
        if "base_url" in message and "--llm-base-url" not in message:
            message += " (the server's URL: --llm-base-url URL)"
        raise click.ClickException(message) from exc
    if not qs:
        asked = counts.get("asked", 0)
        if not asked:
            raise click.ClickException(
                f"no passage of at least {MIN_PASSAGE_WORDS} words in {counted(len(docs), 'document')} of {corpus}: nothing to "
                "ask questions about (give a larger corpus, or labelled questions with --questions)"
            )
        raise click.ClickException(
            f"the chat model gave no usable question for {counted(asked, 'passage')} (each answer was not a JSON question "
            f"with excerpts copied from the passage, asked twice); try another --llm-model"
        )
    write_questions(qs, out)
    where = f" into {out}" if kept else " (not kept: --save-questions FILE keeps them)"
    click.echo(
        f"generated {counted(len(qs), 'question')} from {counted(len(docs), 'document')} with {llm_model} ({client.requests} requests, "
        f"{client.cache_hits} from the cache){where}; generated questions approximate real ones",
        err=True,
    )
    return out


def _rank(
    ctx: click.Context,
    evaluation: EvalOptions,
    configs: list[Any],
    k: int,
    budget_tokens: int | None,
    metric: str,
    max_tokens: float | None,
    json_path: Path | None,
    generated: bool,
) -> None:
    from ..evaluation import calibrate
    from ..evaluation.calibration import fixed_k_warning, indistinguishable, tie_notice
    from ..evaluation.report import format_table, write_json

    results, info, failures = run_grid(evaluation, configs, k, budget_tokens)
    try:
        best, ranked = calibrate(results, metric, max_tokens)
    except ChunkwiseError as exc:
        raise click.ClickException(str(exc)) from exc
    left_out = [r for r in results if r not in ranked]
    rows = [r.row() for r in ranked]
    columns = [c for c in TABLE_COLUMNS if c != "over_budget" or any(r.over_budget for r in results)]
    if metric not in columns:
        columns.insert(1, metric)
    same = indistinguishable(results)
    click.echo(format_table(rows, columns, mark=None if same else 0))
    if budget_tokens is None:
        warning = fixed_k_warning(results, metric, k)
        if warning:
            click.echo(warning, err=True)
    over = over_budget_warning(results)
    if over:
        click.echo(over + ("; left out of the ranking" if any(r.over_budget for r in left_out) else ""), err=True)
    notice = None if same else tie_notice(ranked, metric)
    if notice:
        click.echo(notice)
    cfg = best.config
    assert cfg is not None  # results of a grid always carry their configuration
    at = f"at a budget of {budget_tokens} tokens, k={best.k}" if budget_tokens is not None else f"at k={best.k}"
    if same:
        click.echo(
            f"nothing to choose between the {len(results)} configurations: each gave the same "
            f"{counted(best.n_chunks, 'chunk')} and the same scores on every question "
            f"({metric} {best.means[metric]:.4f}, "
            f"{at}); a larger corpus or more questions can tell them apart"
        )
    else:
        over = ""
        if best.over_budget:
            over = (
                "; over budget: its single chunk, as every competing configuration's, is larger than the budget "
                f"of {budget_tokens} tokens "
                "(raise --budget-tokens or lower --chunk-size)"
            )
        click.echo(
            f"best {metric}: {best.means[metric]:.4f} with --strategy {cfg.strategy} --chunk-size {cfg.chunk_size} "
            f"--chunk-overlap {cfg.chunk_overlap} --unit {cfg.unit} ({at}, {best.means['tokens']:.0f} tokens per "
            f"question){over}"
        )
    if json_path is not None:
        write_json(
            {
                "run": {**info, "generated_questions": generated},
                "metric": metric,
                "tie_breakers": [m for m in TIE_BREAKERS if m != metric],
                "tied_within_ci": notice is not None,
                "indistinguishable": same,
                "max_tokens": max_tokens,
                "best": None if same else best.row(),
                "ranked": rows,
            },
            json_path,
        )
    if failures:
        click.echo(failures.summary(), err=True)
        ctx.exit(1)
