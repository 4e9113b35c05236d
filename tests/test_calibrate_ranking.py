"""How ``calibrate`` ranks a grid and how ``eval`` compares it: recall at an equal budget by
default, a tie-break that does not depend on the order of the grid, the 95% CI notice,
over-budget rows, and the usage errors of the retrieval options. With a test embedder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")

from chunkwise.cli import cli
from chunkwise.evaluation import EvalConfig, EvaluationResult, calibrate
from chunkwise.evaluation.calibration import TIE_BREAKERS, fixed_k_warning, tie_notice
from chunkwise.evaluation.metrics import METRIC_NAMES

from test_evaluation_cli import BagOfWords, probe  # noqa: F401 - the fixture, used by name


def _result(strategy: str, size: int, **means: float) -> EvaluationResult:
    full = {m: 0.0 for m in METRIC_NAMES}
    full.update(tokens=100.0, recall_ci_low=0.0, recall_ci_high=1.0)
    full.update(means)
    cfg = EvalConfig(strategy, size)
    return EvaluationResult(cfg.label, 5, 10, float(size), [], [], full, config=cfg)


def test_ties_on_the_metric_go_to_the_tie_breakers_then_a_canonical_order() -> None:
    assert TIE_BREAKERS[0] in ("ndcg", "mrr")
    a = _result("recursive", 200, recall=0.9, ndcg=0.5, iou=0.2)
    b = _result("auto", 96, recall=0.9, ndcg=0.7, iou=0.1)
    c = _result("sentence", 64, recall=0.8, ndcg=0.9, iou=0.5)
    for grid in ([a, b, c], [c, b, a], [b, a, c]):
        best, ranked = calibrate(grid)  # default: recall
        assert best is b and ranked == [b, a, c]
    # equal on every metric: the canonical order (strategy, then size as a number), whatever the grid's order
    x, y, z = _result("auto", 128, recall=0.5), _result("auto", 96, recall=0.5), _result("markdown", 64, recall=0.5)
    for grid in ([x, y, z], [z, y, x], [z, x, y]):
        assert calibrate(grid)[1] == [y, x, z]


def test_tie_notice_when_the_intervals_overlap() -> None:
    a = _result("auto", 96, recall=0.94, recall_ci_low=0.91, recall_ci_high=0.96)
    b = _result("auto", 128, recall=0.93, recall_ci_low=0.90, recall_ci_high=0.95)
    c = _result("fixed", 800, recall=0.60, recall_ci_low=0.55, recall_ci_high=0.65)
    notice = tie_notice([a, b], "recall")
    assert notice is not None and notice.startswith("tied within the 95% CI: auto/96/0 recall 0.940 (0.910-0.960)")
    assert "auto/128/0 0.930 (0.900-0.950)" in notice
    assert tie_notice([a, c], "recall") is None and tie_notice([a], "recall") is None


def test_fixed_k_warning_says_which_way_the_metric_leans() -> None:
    small, big = _result("auto", 32), _result("auto", 512)
    iou = fixed_k_warning([small, big], "iou", 5)
    assert iou is not None and iou.startswith("WARNING: ranking by iou at a fixed k=5") and "smaller chunks" in iou
    recall = fixed_k_warning([small, big], "recall", 5)
    assert recall is not None and "larger chunks" in recall
    assert fixed_k_warning([small, _result("recursive", 32)], "iou", 5) is None  # same sizes: a fair comparison


def test_an_over_budget_configuration_does_not_win() -> None:
    huge = _result("recursive", 4000, recall=1.0, tokens=4100.0)
    huge.k, huge.budget_tokens = 1, 1000
    fair = _result("recursive", 96, recall=0.9, tokens=1010.0)
    fair.budget_tokens = 1000
    assert huge.over_budget and not fair.over_budget and huge.row()["over_budget"] is True
    best, ranked = calibrate([huge, fair])
    assert best is fair and ranked == [fair]
    assert calibrate([huge])[0] is huge  # alone, it is still the answer (and the warning says why)


def _calibrate_args(p: dict[str, Path], *extra: str) -> list[str]:
    return [
        "calibrate", "--corpus", str(p["corpus"]), "--questions", str(p["questions"]), "--cache", str(p["cache"]),
        "--unit", "chars", *extra,
    ]  # fmt: skip


def test_calibrate_defaults_rank_recall_at_the_budget(probe: dict[str, Path]) -> None:  # noqa: F811
    out = probe["out"] / "cal.json"
    result = CliRunner().invoke(
        cli, _calibrate_args(probe, "--strategy", "fixed,sentence", "--chunk-size", "10,30,60", "--json", str(out))
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["metric"] == "recall" and data["run"]["budget_tokens"] == 1000
    assert data["tie_breakers"] == ["ndcg", "mrr", "iou"]
    recalls = [r["recall"] for r in data["ranked"]]
    assert recalls == sorted(recalls, reverse=True) and data["best"]["recall"] == max(recalls)
    assert "at a budget of 1000 tokens" in result.output and "WARNING" not in result.output
    assert ("tied within the 95% CI" in result.output) == data["tied_within_ci"]


def test_calibrate_iou_at_a_fixed_k_warns_loudly(probe: dict[str, Path]) -> None:  # noqa: F811
    result = CliRunner().invoke(
        cli, _calibrate_args(probe, "--strategy", "fixed", "--chunk-size", "10,60", "--k", "2", "--metric", "iou")
    )
    assert result.exit_code == 0, result.output
    assert "WARNING: ranking by iou at a fixed k=2" in result.output and "--budget-tokens" in result.output


def test_the_winner_does_not_depend_on_the_order_of_the_grid(probe: dict[str, Path]) -> None:  # noqa: F811
    # auto and markdown chunk these .md files alike: equal scores, so the tie-break decides
    winners, rankings = [], []
    for strategies, sizes in (("auto,markdown,recursive", "30,60"), ("recursive,markdown,auto", "60,30")):
        out = probe["out"] / f"{strategies}.json"
        result = CliRunner().invoke(
            cli, _calibrate_args(probe, "-s", strategies, "-n", sizes, "--json", str(out))
        )
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text(encoding="utf-8"))
        winners.append(data["best"]["config"])
        rankings.append([r["config"] for r in data["ranked"]])
    assert winners[0] == winners[1] and rankings[0] == rankings[1]
    assert len(rankings[0]) == 6


def test_k_and_budget_together_is_a_usage_error(probe: dict[str, Path]) -> None:  # noqa: F811
    for name in ("eval", "calibrate"):
        args = [name, "--corpus", str(probe["corpus"]), "--questions", str(probe["questions"]), "--k", "3",
                "--budget-tokens", "500", "-s", "fixed", "-n", "30", "--unit", "chars"]  # fmt: skip
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2 and "--budget-tokens chooses k per configuration" in result.output


def test_eval_marks_rows_over_budget(probe: dict[str, Path]) -> None:  # noqa: F811
    out = probe["out"]
    args = ["eval", "--corpus", str(probe["corpus"]), "--questions", str(probe["questions"]), "--cache",
            str(probe["cache"]), "-s", "fixed", "-n", "20,200", "--unit", "chars", "--budget-tokens", "10",
            "--no-plot", "-o", str(out)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    rows = {r["config"]: r for r in json.loads((out / "results.json").read_text(encoding="utf-8"))["results"]}
    assert rows["fixed/200/0"]["over_budget"] is True and rows["fixed/200/0"]["k"] == 1
    assert rows["fixed/200/0"]["tokens"] > 10
    assert rows["fixed/20/0"]["over_budget"] is False
    assert "over budget: one chunk is larger than the budget (10 tokens)" in result.output
    assert "fixed/200/0" in result.output.split("over budget:")[1]


def test_eval_defaults_compare_the_defaults_of_chunk_at_the_budget(probe: dict[str, Path]) -> None:  # noqa: F811
    from chunkwise.commands._options import CLI_DEFAULTS

    out = probe["out"]
    args = ["eval", "--corpus", str(probe["corpus"]), "--questions", str(probe["questions"]), "--cache",
            str(probe["cache"]), "--no-plot", "-o", str(out)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    labels = [r["config"] for r in data["results"]]
    assert f"auto/{CLI_DEFAULTS['chunk_size']}/0" in labels
    assert {lb.split("/")[0] for lb in labels} == {"auto", "recursive", "sentence"}
    assert data["run"]["budget_tokens"] == 1000


def test_a_size_given_twice_is_one_row(probe: dict[str, Path]) -> None:  # noqa: F811
    out = probe["out"]
    args = ["eval", "--corpus", str(probe["corpus"]), "--questions", str(probe["questions"]), "--cache",
            str(probe["cache"]), "-s", "fixed,fixed", "-n", "30,30", "--unit", "chars", "--no-plot", "-o", str(out)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    rows = json.loads((out / "results.json").read_text(encoding="utf-8"))["results"]
    assert [r["config"] for r in rows] == ["fixed/30/0"]


def test_expand_window_without_windows_is_a_usage_error_before_chunking(
    probe: dict[str, Path], monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    from chunkwise.evaluation import runner

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("nothing may be evaluated")

    monkeypatch.setattr(runner, "evaluate", fail)
    base = ["eval", "--corpus", str(probe["corpus"]), "--questions", str(probe["questions"]), "--cache",
            str(probe["cache"]), "--unit", "chars", "--no-plot", "-o", str(probe["out"]), "--expand", "window"]  # fmt: skip
    result = CliRunner().invoke(cli, [*base, "-s", "sentence", "-n", "60"])
    assert result.exit_code == 2 and "window_sentences" in result.output, result.output
    monkeypatch.undo()
    from chunkwise import embeddings

    monkeypatch.setattr(embeddings, "get_embedder", lambda model=None, **kw: BagOfWords())
    ok = CliRunner().invoke(cli, [*base, "-s", "sentence", "-n", "60", "-p", "window_sentences=1"])
    assert ok.exit_code == 0, ok.output


def test_eval_reads_the_files_chunk_reads(probe: dict[str, Path]) -> None:  # noqa: F811
    corpus = probe["corpus"]
    (corpus / "tool.py").write_text("def owl():\n    return 'hoot'\n", encoding="utf-8")
    out = probe["out"]
    args = ["eval", "--corpus", str(corpus), "--questions", str(probe["questions"]), "--cache", str(probe["cache"]),
            "-s", "auto", "-n", "30", "--unit", "chars", "--no-plot", "-o", str(out)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "skipped" not in result.output
    run = json.loads((out / "results.json").read_text(encoding="utf-8"))["run"]
    assert run["documents"] == ["a", "b", "tool"]  # the .py file is read, as `chunk` reads it
    chunked = CliRunner().invoke(cli, ["chunk", str(corpus), "--chunk-size", "30", "--unit", "chars"])
    assert chunked.exit_code == 0 and "3 documents" in chunked.stderr


def test_chunk_help_says_what_auto_picks_from_the_registry() -> None:
    from chunkwise.registry import AUTO_BY_CONTENT, AUTO_BY_FORMAT

    text = " ".join(CliRunner().invoke(cli, ["chunk", "--help"]).output.split())
    for name in {*AUTO_BY_FORMAT.values(), *AUTO_BY_CONTENT}:
        assert f"{name} for " in text, name
    for fmt in ("pdf", "html", "srt", "csv"):
        assert fmt in text


# -- effective k, identical grids, every tie named, all over budget, --max-tokens --------


def test_tie_notice_names_every_overlapping_configuration_and_counts_the_rest() -> None:
    from chunkwise.evaluation.calibration import TIE_NAMES_SHOWN

    win = _result("auto", 96, recall=0.94, recall_ci_low=0.80, recall_ci_high=1.0)
    tied = [
        _result("recursive", 100 + i, recall=0.9 - i / 100, recall_ci_low=0.7, recall_ci_high=0.95) for i in range(8)
    ]
    apart = _result("fixed", 800, recall=0.3, recall_ci_low=0.2, recall_ci_high=0.4)
    notice = tie_notice([win, *tied, apart], "recall")
    assert notice is not None and "and 8 other configurations: " in notice
    for r in tied[:TIE_NAMES_SHOWN]:
        assert f"{r.label} {r.means['recall']:.3f}" in notice
    assert tied[TIE_NAMES_SHOWN].label not in notice and f"and {8 - TIE_NAMES_SHOWN} more;" in notice
    assert "fixed/800/0" not in notice
    one = _result("auto", 128, recall=0.9, recall_ci_low=0.85, recall_ci_high=0.95)
    win.scores = [object()]  # type: ignore[list-item] # one question: the singular
    two = tie_notice([win, one], "recall")
    assert two is not None and "and 1 other configuration: auto/128/0" in two and "this 1 question " in two


def test_k_is_capped_at_the_chunks_and_an_identical_grid_has_no_winner(
    probe: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    # --k larger than the collection: every row reports the k it could retrieve
    out = probe["out"] / "k.json"
    result = CliRunner().invoke(
        cli, _calibrate_args(probe, "-s", "fixed", "-n", "30,60", "--k", "500", "--json", str(out))
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text(encoding="utf-8"))["ranked"]
    assert rows and all(r["k"] == r["chunks"] < 500 for r in rows)
    assert f"at k={rows[0]['k']}," in result.output
    # one short sentence: every configuration makes the same single chunk
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    (tiny / "t.txt").write_text("Pumps start at six. Valves open at seven.\n", encoding="utf-8")
    qs = tmp_path / "tq.jsonl"
    ref = {"start_index": 0, "end_index": 19}
    qs.write_text(json.dumps({"question": "pumps", "document_id": "t", "references": [ref]}) + "\n")
    out = probe["out"] / "same.json"
    args = ["calibrate", "--corpus", str(tiny), "--questions", str(qs), "--cache", str(probe["cache"]),
            "-s", "recursive,sentence", "-n", "96,200", "--json", str(out)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "nothing to choose between the 4 configurations" in result.output and "best recall" not in result.output
    assert "tied within" not in result.output and "\n* " not in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["best"] is None and data["indistinguishable"] is True
    assert all(r["k"] == 1 == r["chunks"] for r in data["ranked"])  # a budget of 1000 tokens, but one chunk


def test_a_winner_over_budget_says_so_and_max_tokens_names_the_options(probe: dict[str, Path]) -> None:  # noqa: F811
    result = CliRunner().invoke(
        cli, _calibrate_args(probe, "-s", "fixed", "-n", "60,200", "--budget-tokens", "5")
    )
    assert result.exit_code == 0, result.output
    best_line = [ln for ln in result.output.splitlines() if ln.startswith("best ")]
    assert len(best_line) == 1 and "over budget" in best_line[0] and "--budget-tokens" in best_line[0]
    fair = CliRunner().invoke(cli, _calibrate_args(probe, "-s", "fixed", "-n", "30"))
    assert fair.exit_code == 0 and "over budget" not in fair.output
    low = CliRunner().invoke(cli, _calibrate_args(probe, "-s", "fixed", "-n", "30", "--max-tokens", "0"))
    assert low.exit_code == 1 and "--max-tokens" in low.output and "--budget-tokens" in low.output


def test_eval_names_an_empty_file_and_does_not_count_it(probe: dict[str, Path]) -> None:  # noqa: F811
    (probe["corpus"] / "empty.md").write_text("", encoding="utf-8")
    out = probe["out"]
    args = ["eval", "--corpus", str(probe["corpus"]), "--questions", str(probe["questions"]), "--cache",
            str(probe["cache"]), "-s", "fixed", "-n", "30", "--unit", "chars", "--no-plot", "-o", str(out)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "empty.md: empty document (zero bytes)" in result.output
    assert "2 documents, 3 questions" in result.output
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["run"]["documents"] == ["a", "b"]
