"""`chunkwise eval`, `calibrate` and `stats` through click's CliRunner, with a test embedder."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")

from chunkwise.cli import cli

A = (
    "Alpha river flows north. Beta mountain stands tall.\n\n"
    "Gamma forest grows dense. Delta lake lies still. Epsilon cave hides bats.\n"
)
B = "Owls hunt at night. Bees make honey.\n\nWhales sing songs. Ants carry leaves. Moles dig tunnels.\n"


class BagOfWords:
    name = "test-bow-64"
    dim = 64

    def embed(self, texts):  # type: ignore[no-untyped-def]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                h = int.from_bytes(hashlib.blake2b(w.strip(".,").encode(), digest_size=4).digest(), "little")
                out[i, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


@pytest.fixture()
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    from chunkwise import embeddings

    monkeypatch.setattr(embeddings, "get_embedder", lambda model=None, **kw: BagOfWords())
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text(A, encoding="utf-8")
    (corpus / "b.md").write_text(B, encoding="utf-8")
    lines = []
    for doc, text, phrase in [
        ("a", A, "Delta lake lies still."),
        ("b", B, "Whales sing songs."),
        ("a", A, "Alpha river"),
    ]:
        s = text.index(phrase)
        lines.append(
            json.dumps(
                {
                    "question": phrase.lower(),
                    "document_id": doc,
                    "references": [{"start_index": s, "end_index": s + len(phrase)}],
                }
            )
        )
    questions = tmp_path / "questions.jsonl"
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"corpus": corpus, "questions": questions, "cache": tmp_path / "cache.sqlite", "out": tmp_path / "out"}


def _eval_args(p: dict[str, Path], *extra: str) -> list[str]:
    return [
        "eval",
        "--corpus",
        str(p["corpus"]),
        "--questions",
        str(p["questions"]),
        "--cache",
        str(p["cache"]),
        "--strategy",
        "fixed,sentence",
        "--chunk-size",
        "30,60",
        "--chunk-overlap",
        "0,10",
        "--unit",
        "chars",
        *([] if "--budget-tokens" in extra else ["--k", "2"]),
        "-o",
        str(p["out"]),
        *extra,
    ]


def test_eval_writes_table_csv_json_and_caches_embeddings(probe: dict[str, Path]) -> None:
    runner = CliRunner()
    first = runner.invoke(cli, _eval_args(probe, "--no-plot"))
    assert first.exit_code == 0, first.output
    for label in ("fixed/30/0", "fixed/60/10", "sentence/30/10", "sentence/60/0"):
        assert label in first.output
    with open(probe["out"] / "results.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 8 and {"recall", "precision", "iou", "ndcg", "mrr", "tokens"} <= set(rows[0])
    payload = json.loads((probe["out"] / "results.json").read_text(encoding="utf-8"))
    assert payload["run"]["n_questions"] == 3
    assert len(payload["per_question"]["fixed/30/0"]) == 3
    assert payload["run"]["embedded"] > 0
    second = runner.invoke(cli, _eval_args(probe, "--no-plot"))
    assert second.exit_code == 0, second.output
    again = json.loads((probe["out"] / "results.json").read_text(encoding="utf-8"))
    assert again["run"]["embedded"] == 0  # everything came from the cache
    assert again["results"] == [dict(r, seconds=r2["seconds"]) for r, r2 in zip(payload["results"], again["results"])]


def test_eval_budget_tokens_and_plot(probe: dict[str, Path]) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(cli, _eval_args(probe, "--budget-tokens", "30"))
    assert result.exit_code == 0, result.output
    rows = json.loads((probe["out"] / "results.json").read_text(encoding="utf-8"))["results"]
    for r in rows:
        assert r["k"] == max(1, round(30 / r["mean_chunk_tokens"]))
    png = (probe["out"] / "results.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_eval_reports_bad_input(probe: dict[str, Path]) -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, _eval_args(probe, "--strategy", "nosuch"))
    assert bad.exit_code == 2 and "unknown strategy" in bad.output
    bad = runner.invoke(cli, _eval_args(probe, "--chunk-size", "x"))
    assert bad.exit_code == 2 and "comma-separated" in bad.output
    probe["questions"].write_text(
        '{"question": "q", "document_id": "zz", "references": [{"start_index": 0, "end_index": 2}]}\n'
    )
    bad = runner.invoke(cli, _eval_args(probe))
    assert bad.exit_code == 2 and "not in the corpus" in bad.output


def test_calibrate_prints_the_winner(probe: dict[str, Path]) -> None:
    runner = CliRunner()
    out_json = probe["out"] / "cal.json"
    args = [
        "calibrate",
        "--corpus",
        str(probe["corpus"]),
        "--questions",
        str(probe["questions"]),
        "--cache",
        str(probe["cache"]),
        "--strategy",
        "fixed,sentence",
        "--chunk-size",
        "30,60,120",
        "--unit",
        "chars",
        "--k",
        "2",
        "--metric",
        "iou",
        "--json",
        str(out_json),
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out_json.read_text(encoding="utf-8"))
    ious = [r["iou"] for r in data["ranked"]]
    assert ious == sorted(ious, reverse=True) and data["best"]["iou"] == max(ious)
    best = data["best"]
    assert f"--strategy {best['strategy']} --chunk-size {best['chunk_size']}" in result.output
    assert "\n* " + best["config"] in result.output
    capped = runner.invoke(cli, args + ["--max-tokens", "0"])
    assert capped.exit_code == 1 and "no configuration retrieves at most" in capped.output


def test_stats_table_and_json(tmp_path: Path) -> None:
    from chunkwise import Document, make_chunker
    from chunkwise.evaluation import chunk_stats

    (tmp_path / "a.txt").write_text(A, encoding="utf-8")
    out = tmp_path / "stats.json"
    result = CliRunner().invoke(
        cli,
        [
            "stats",
            str(tmp_path / "a.txt"),
            "--strategy",
            "recursive,fixed",
            "--chunk-size",
            "40",
            "--unit",
            "chars",
            "--json",
            str(out),
            "--csv",
            str(tmp_path / "s.csv"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "recursive/40/0" in result.output and "fixed/40/0" in result.output and "cut_end" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    expected = chunk_stats([Document(A)], make_chunker("fixed", chunk_size=40, unit="chars"))
    fixed = data[1]
    assert fixed["chunks"] == expected.count and fixed["boundaries"] == expected.boundaries
    assert fixed["histogram"] == expected.histogram
    assert (tmp_path / "s.csv").read_text(encoding="utf-8").startswith("config,")


@pytest.mark.parametrize("name", ["eval", "calibrate", "stats"])
def test_help(name: str) -> None:
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0 and "--chunk-size" in result.output and "Example" in result.output


def test_eval_reads_a_nested_corpus_and_resolves_names(probe: dict[str, Path]) -> None:
    from chunkwise.loaders import load

    corpus = probe["corpus"]
    (corpus / "sub").mkdir()
    (corpus / "b.md").rename(corpus / "sub" / "b.md")
    (corpus / "sub" / "a.txt").write_text(B, encoding="utf-8")  # a second stem "a"
    lines = probe["questions"].read_text(encoding="utf-8").splitlines()
    renamed = []
    for line in lines:
        obj = json.loads(line)
        obj["document_id"] = {"a": "a.md", "b": "sub/b"}[obj["document_id"]]
        renamed.append(json.dumps(obj))
    probe["questions"].write_text("\n".join(renamed) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, _eval_args(probe, "--no-plot"))
    assert result.exit_code == 0, result.output
    run = json.loads((probe["out"] / "results.json").read_text(encoding="utf-8"))["run"]
    assert run["documents"] == ["a.md", "sub/a.txt", "b"]
    assert run["document_ids"]["b"] == load(corpus / "sub" / "b.md", root=corpus).id
    obj = json.loads(renamed[0])
    obj["document_id"] = "a"  # now names two files
    probe["questions"].write_text(json.dumps(obj) + "\n", encoding="utf-8")
    bad = CliRunner().invoke(cli, _eval_args(probe, "--no-plot"))
    assert bad.exit_code == 2 and "ambiguous" in bad.output and "sub/a.txt" in bad.output


def test_eval_embeds_with_the_retrieval_model_unless_told(
    probe: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunkwise import embeddings

    asked: list[object] = []

    def fake(model: object = None, **kw: object) -> BagOfWords:
        asked.append(model)
        return BagOfWords()

    monkeypatch.setattr(embeddings, "get_embedder", fake)
    assert CliRunner().invoke(cli, _eval_args(probe, "--no-plot")).exit_code == 0
    assert CliRunner().invoke(cli, _eval_args(probe, "--no-plot", "--model", "wordllama")).exit_code == 0
    assert asked == [embeddings.RETRIEVAL_MODEL, "wordllama"] and embeddings.RETRIEVAL_MODEL == "minilm"


def test_eval_table_and_csv_carry_the_recall_interval_and_both_ious(probe: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, _eval_args(probe, "--no-plot", "--chunk-overlap", "10"))
    assert result.exit_code == 0, result.output
    assert "recall_ci_low" in result.output and "iou_union" in result.output
    with open(probe["out"] / "results.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        assert float(r["recall_ci_low"]) <= float(r["recall"]) <= float(r["recall_ci_high"])
        # retrieved text is counted as often as it is retrieved: never above the union-based figure
        assert float(r["iou"]) <= float(r["iou_union"]) + 1e-12
        assert float(r["precision"]) <= float(r["precision_union"]) + 1e-12


def test_calibrate_refuses_a_base_url_that_is_not_one_before_any_work(probe: dict[str, Path]) -> None:
    # --llm-base-url of calibrate is the option `chunk` and `index build` share: checked when parsed
    args = ["calibrate", "--corpus", str(probe["corpus"]), "--generate-questions", "2", "--llm-model", "m",
            "--llm-base-url", "localhost:11434", "--no-llm-cache", "--cache", str(probe["cache"])]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "is not an http(s) URL" in result.output, result.output
    assert "generated" not in result.output and not probe["cache"].exists()


def _reader_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Printing on standard output fails as after `| head` stopped reading (EPIPE)."""
    import errno

    import click

    real = click.echo

    def echo(message=None, file=None, nl=True, err=False, color=None):  # type: ignore[no-untyped-def]
        if not err and file is None:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return real(message, file=file, nl=nl, err=err, color=color)

    monkeypatch.setattr(click, "echo", echo)


def test_eval_writes_its_results_when_the_reader_of_the_table_left(
    probe: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _reader_left(monkeypatch)
    result = CliRunner().invoke(cli, _eval_args(probe, "--no-plot"))
    assert result.exit_code == 0, result.output  # the table was not read; the results are written
    assert len(json.loads((probe["out"] / "results.json").read_text(encoding="utf-8"))["results"]) == 8
    assert (probe["out"] / "results.csv").stat().st_size > 0
    assert f"results written to {probe['out'].as_posix()}/: results.csv, results.json" in result.output


def test_eval_says_where_the_default_folder_is(probe: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    work = probe["corpus"].parent / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    args = _eval_args(probe, "--no-plot")
    del args[args.index("-o") : args.index("-o") + 2]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    line = "results written to chunkwise-eval/ (the default folder; -o DIR for another): results.csv, results.json"
    assert line in result.output
    assert sorted(p.name for p in (work / "chunkwise-eval").iterdir()) == ["results.csv", "results.json"]
    # given -o, the folder is named without the note
    result = CliRunner().invoke(cli, _eval_args(probe, "--no-plot"))
    assert "results written to" in result.output and "default folder" not in result.output


def test_stats_writes_its_files_when_the_reader_of_the_table_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.md").write_text(A, encoding="utf-8")
    _reader_left(monkeypatch)
    out = tmp_path / "s.json"
    args = ["stats", str(tmp_path / "a.md"), "-s", "recursive", "-u", "chars", "-n", "30,60", "--json", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert [r["config"] for r in json.loads(out.read_text(encoding="utf-8"))] == ["recursive/30/0", "recursive/60/0"]
