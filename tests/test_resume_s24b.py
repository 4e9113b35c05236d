"""``chunk --resume`` on a file written with other options: a changed ``--tokenizer`` or
``-p`` parameter is named as the sizes are; the list given when no single change is found
holds every option that enters the ``config_id`` (the tokenizer and ``-p`` parameters too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("A first sentence here. A second one.\n\nAnother paragraph.\n", encoding="utf-8")
    (folder / "b.md").write_text("# Title\n\nSome text.\n\n## Part\n\nMore text under it.\n", encoding="utf-8")
    return folder


def _chunk(docs: Path, out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["chunk", str(docs), "--no-progress", "--workers", "1", "-o", str(out), *args])
    return result.exit_code, " ".join(result.stderr.split())


@pytest.mark.parametrize(
    ("wrote", "resumed", "said"),
    [
        ([], ["--tokenizer", "o200k_base"], "tokenizer: 'cl100k_base' -> 'o200k_base'"),
        (["--tokenizer", "o200k_base"], [], "tokenizer: 'o200k_base' -> 'cl100k_base'"),
        (["-s", "markdown"], ["-s", "markdown", "-p", "split_level=2"], "split_level: 6 -> 2"),
        (["-p", "split_level=3"], [], "split_level: 3 -> 6"),
        ([], ["-p", 'row_format="kv"'], "row_format: 'text' -> 'kv'"),
        (["-s", "recursive", "-p", 'keep_separator="end"'], ["-s", "recursive"], "keep_separator: 'end' -> 'start'"),
        (["-s", "markdown", "-p", "include_context_in_size=true"], ["-s", "markdown"],
         "include_context_in_size: True -> False"),
    ],
)
def test_a_changed_tokenizer_or_parameter_is_named(docs, tmp_path, wrote, resumed, said):
    out = tmp_path / "out.jsonl"
    assert _chunk(docs, out, *wrote)[0] == 0
    before = out.read_bytes()
    code, log = _chunk(docs, out, *resumed, "--resume")
    assert code == 2, log
    assert f"written with other chunking options: {said} (line 1 has config_id" in log
    assert out.read_bytes() == before
    code, log = _chunk(docs, out, *wrote, "--resume")
    assert code == 0, log
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("resumed", "listed"),
    [
        (["-n", "200", "--tokenizer", "o200k_base"],
         "strategy auto, chunk_size 200, chunk_overlap 0, unit 'tokens', tokenizer 'o200k_base'): nothing"),
        (["-s", "markdown", "-p", "split_level=2", "--root", "{root}"],
         "strategy markdown, chunk_size 96, chunk_overlap 0, unit 'tokens', split_level 2, root {root}): nothing"),
        (["-n", "200", "-p", 'row_format="kv"', "-p", "header_rows=2"],
         "strategy auto, chunk_size 200, chunk_overlap 0, unit 'tokens', row_format 'kv', header_rows 2): nothing"),
    ],
)
def test_two_changes_list_every_option_of_the_config_id(docs, tmp_path, resumed, listed):
    out = tmp_path / "out.jsonl"
    assert _chunk(docs, out)[0] == 0
    before = out.read_bytes()
    code, log = _chunk(docs, out, *(a.format(root=tmp_path) for a in resumed), "--resume")
    assert code == 2, log
    assert "written with other chunking options than this run's (line 1 has config_id" in log
    assert listed.format(root=tmp_path) in log
    assert out.read_bytes() == before


def test_the_options_of_the_default_run_list_no_setting_beyond_the_sizes(docs, tmp_path):
    out = tmp_path / "out.jsonl"
    assert _chunk(docs, out, "-n", "200", "--encoding", "latin-1")[0] == 0
    code, log = _chunk(docs, out, "-n", "96", "--resume")
    assert code == 2, log
    assert "(line 1 has config_id" in log
    assert "strategy auto, chunk_size 96, chunk_overlap 0, unit 'tokens'): nothing" in log
