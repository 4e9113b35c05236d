"""The command line: chunking files and folders, failures reported, output atomic."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli


@pytest.fixture()
def corpus(tmp_path):
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("First sentence here. Second one follows.\n\nA new paragraph.", encoding="utf-8")
    (root / "sub" / "b.md").write_text("# Title\n\nSome *markdown* text.\n", encoding="utf-8")
    (root / "sub" / "bad.txt").write_bytes(b"\xff\xfe not utf-8 \x80\x81")
    (root / "ignored.bin").write_bytes(b"\x00\x01")
    return root


def test_chunk_writes_json_lines_and_reports_bad_files(corpus, tmp_path):
    out = tmp_path / "out" / "chunks.jsonl"
    out.parent.mkdir()  # -o does not create folders
    result = CliRunner().invoke(cli, ["chunk", str(corpus), "--unit", "chars", "--chunk-size", "30", "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "bad.txt" in result.output and "not valid UTF-8" in result.output
    assert "2 documents" in result.output and "skipped 2 files: " in result.output
    assert "ignored.bin (unsupported)" in result.output and "bad.txt (undecodable)" in result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    sources = {r["source"] for r in rows}
    assert {s.rsplit("/", 1)[-1] for s in sources} == {"a.txt", "b.md"}
    for r in rows:
        assert set(r) == {"id", "document_id", "source", "index", "start_index", "end_index", "size", "unit", "text", "context", "metadata", "content_id",
                          "config_id"}  # config_id: the options alone (what --resume checks)
        text = open(r["source"], encoding="utf-8").read()
        assert text[r["start_index"] : r["end_index"]] == r["text"]
        assert r["size"] <= 30 and r["unit"] == "chars"
    a_rows = [r for r in rows if r["source"].endswith("a.txt")]
    assert [r["text"] for r in a_rows] == ["First sentence here.", "Second one follows.", "A new paragraph."]


def test_chunk_to_stdout_with_tokens_and_params(corpus):
    pytest.importorskip("numpy")
    result = CliRunner().invoke(
        cli, ["chunk", str(corpus / "a.txt"), "-s", "sentence", "-n", "8", "-p", "overlap_sentences=1"]
    )
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and all(r["unit"] == "tokens:cl100k_base" and r["size"] <= 8 for r in rows)
    assert "1 document, 2 chunks" in result.stderr and "MB/s" in result.stderr


def test_failed_run_leaves_previous_output_untouched(tmp_path):
    out = tmp_path / "chunks.jsonl"
    out.write_text("previous\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path / "missing.txt"), "--chunk-size", "0", "-o", str(out)])
    assert result.exit_code != 0
    assert "chunk_size (0 tokens) must be greater than 0" in result.output
    assert out.read_text(encoding="utf-8") == "previous\n"
    assert [p.name for p in tmp_path.iterdir()] == ["chunks.jsonl"]


def test_missing_file_is_reported(tmp_path):
    # the only path named does not exist: no file to read, a usage error (README's exit table)
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path / "nope.txt"), "--unit", "chars"])
    assert result.exit_code == 2
    assert "nope.txt" in result.output and "cannot read" in result.output and "no file to read" in result.output
    # beside a file that is read, a missing one is a failure of that file (exit 1)
    (tmp_path / "a.txt").write_text("Owls hunt at night.", encoding="utf-8")
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path / "a.txt"), str(tmp_path / "nope.txt"), "--unit", "chars"])
    assert result.exit_code == 1 and "nope.txt: cannot read" in result.output


def test_strategies_lists_parameters_and_defaults():
    result = CliRunner().invoke(cli, ["strategies"])
    assert result.exit_code == 0
    for name in ("fixed", "recursive", "sentence"):
        assert f"\n{name}: " in "\n" + result.output
    assert "overlap_sentences = 0" in result.output and "separators = None" in result.output


def test_help_texts():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0 and "chunk" in result.output and "strategies" in result.output
    result = CliRunner().invoke(cli, ["chunk", "--help"])
    assert result.exit_code == 0
    for option in ("--strategy", "--chunk-size", "--chunk-overlap", "--unit", "--tokenizer", "--output", "--param"):
        assert option in result.output


def test_auto_strategy_reads_markdown_structure(corpus, tmp_path):
    out = tmp_path / "chunks.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(corpus), "--unit", "chars", "-n", "200", "-o", str(out)])
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    md = [r for r in rows if r["source"].endswith("b.md")]
    txt = [r for r in rows if r["source"].endswith("a.txt")]
    assert md and all(r["metadata"]["header_path"] == ["Title"] for r in md), result.output
    assert md[0]["context"] == "Title"
    assert txt and all("header_path" not in r["metadata"] for r in txt)


def test_output_file_gets_the_usual_mode(tmp_path):
    import os

    src = tmp_path / "a.txt"
    src.write_text("Some text here.", encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    old = os.umask(0o022)
    try:
        result = CliRunner().invoke(cli, ["chunk", str(src), "--unit", "chars", "-o", str(out)])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert oct(out.stat().st_mode & 0o777) == oct(0o644)


def test_option_groups_reach_a_command_as_values(tmp_path):
    """The shared option groups hand a command one value each (chunking, reading, llm), the
    options' defaults and given values in it, -L included; every option of a group is a
    field of its value."""
    import click

    from chunkwise.commands._llm_options import LlmOptions, llm_options
    from chunkwise.commands._options import ChunkingOptions, InputOptions, chunking_options, input_options

    got = {}

    @click.command()
    @click.argument("path")
    @chunking_options()
    @input_options(root=True)
    @llm_options()
    @click.option("--own", default=1, type=int)
    def probe(**values):
        got.update(values)

    r = CliRunner().invoke(probe, ["x", "-n", "40", "-p", "a=1", "--include", "*.md", "-L", "pages=1-2",
                                   "--root", str(tmp_path), "--llm-model", "m", "--dry-run", "--own", "3"])
    assert r.exit_code == 0, r.output
    assert set(got) == {"path", "chunking", "reading", "llm", "own"} and got["own"] == 3
    assert got["chunking"] == ChunkingOptions("auto", 40, 0, "tokens", "cl100k_base", ("a=1",))
    assert got["reading"] == InputOptions(include=("*.md",), root=tmp_path, loader_options={"pages": "1-2"})
    assert got["llm"] == LlmOptions(model="m", dry_run=True)
    names = {p.name for p in probe.params}
    assert names >= {"strategy", "chunk_size", "chunk_overlap", "unit", "tokenizer", "params", "include", "exclude",
                     "root", "encoding", "fmt", "llm_model", "llm_base_url", "llm_cache", "no_llm_cache",
                     "llm_price", "llm_concurrency", "contextualize", "dry_run"}


@pytest.mark.parametrize(
    "command",
    [
        ["chunk"],
        ["inspect", "-s", "recursive"],
        ["stats", "-s", "recursive"],
    ],
)
@pytest.mark.parametrize("unit", ["chars", "words"])
def test_tokenizer_with_a_unit_that_counts_no_tokens_is_a_usage_error(tmp_path, command, unit):
    src = tmp_path / "a.txt"
    src.write_text("First sentence here. Second one follows.", encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    args = [*command, str(src), "-u", unit, "-n", "20", "--tokenizer", "o200k_base"]
    if command[0] == "chunk":
        args += ["-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output  # nothing done
    assert f"--tokenizer o200k_base goes with --unit tokens, not --unit {unit}" in result.output
    assert not out.exists()
    # without --tokenizer, or with --unit tokens, the same command runs
    del args[args.index("--tokenizer") : args.index("--tokenizer") + 2]
    assert CliRunner().invoke(cli, args).exit_code == 0
    args[args.index("-u") + 1] = "tokens"
    assert CliRunner().invoke(cli, [*args, "--tokenizer", "cl100k_base"]).exit_code == 0


def test_importing_the_cli_loads_no_subcommand_nor_the_evaluation_and_llm_packages():
    """`chunkwise chunk` does not pay for eval, calibrate, index, ...: each command's module
    (and the evaluation package it imports) loads when the command is looked up."""
    import subprocess
    import sys

    code = (
        "import sys, json\n"
        "import chunkwise.cli as c\n"
        "names = lambda: sorted(m for m in sys.modules if m.startswith(('chunkwise.evaluation', 'chunkwise.llm', "
        "'chunkwise.commands.')) and not m.startswith('chunkwise.commands._'))\n"
        "out = {'import': names(), 'listed': c.cli.list_commands(None), 'in': 'eval' in c.cli.commands}\n"
        "out['after_listing'] = names()\n"
        "c.cli.commands['eval']\n"
        "out['after_eval'] = names()\n"
        "print(json.dumps(out))\n"
    )
    out = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert out["import"] == [] and out["after_listing"] == []
    assert out["listed"] == ["calibrate", "chunk", "eval", "index", "inspect", "serve", "stats", "strategies"]
    assert out["in"] is True
    assert "chunkwise.commands.eval" in out["after_eval"] and "chunkwise.evaluation" in out["after_eval"]
    assert "chunkwise.commands.calibrate" not in out["after_eval"]


def test_warnings_are_one_line_during_a_run_and_python_s_format_comes_back(monkeypatch):
    """The CLI prints chunkwise's warnings as `warning: ...` while it runs; a program that
    calls it in-process (CliRunner, cli.main) gets its own warnings.formatwarning back."""
    import warnings

    before = warnings.formatwarning
    shown: list[str] = []

    def show(message, category, filename, lineno, file=None, line=None):
        shown.append(warnings.formatwarning(message, category, filename, lineno, line))

    monkeypatch.setattr(warnings, "showwarning", show)
    args = ["chunk", "-", "-s", "code", "-u", "chars", "-n", "50", "-j", "1"]
    result = CliRunner().invoke(cli, args, input="def f():\n    return 1\n")
    assert result.exit_code == 0, result.output
    assert [s for s in shown if "language" in s][0].startswith("warning: strategy 'code' got a text without language=")
    assert warnings.formatwarning is before
    assert CliRunner().invoke(cli, ["chunk", "no-such-file.txt"]).exit_code != 0
    assert warnings.formatwarning is before
    cli.main(["strategies"], standalone_mode=False)
    assert warnings.formatwarning is before
