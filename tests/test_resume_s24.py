"""``chunk --resume`` on a file written with other options: the refusal names the option
that changed (``chunk_size: 96 -> 200``, ``encoding: detected -> iso8859-1``), as
``index build`` does, else this run's options; the file is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_bytes("Caf\u00e9 au lait. A second sentence here.\n\nAnother paragraph.\n".encode())
    (folder / "b.md").write_text("# Title\n\nSome text under it.\n", encoding="utf-8")
    return folder


def _chunk(docs: Path, out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["chunk", str(docs), "--no-progress", "--workers", "1", "-o", str(out), *args])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("wrote", "resumed", "said"),
    [
        ([], ["--encoding", "latin-1"], "encoding: detected -> iso8859-1"),
        (["--encoding", "cp1252"], [], "encoding: cp1252 -> detected"),
        (["-n", "96"], ["-n", "200"], "chunk_size: 96 -> 200"),
        (["-n", "96", "--chunk-overlap", "10"], ["-n", "96"], "chunk_overlap: 10 -> 0"),
        (["-u", "chars"], ["-u", "words"], "unit: 'chars' -> 'words'"),
        (["-s", "recursive"], ["-s", "sentence"], "strategy: recursive -> sentence"),
    ],
)
def test_the_refusal_names_the_option_that_changed(docs, tmp_path, wrote, resumed, said):
    out = tmp_path / "out.jsonl"
    assert _chunk(docs, out, *wrote)[0] == 0
    before = out.read_bytes()
    code, log = _chunk(docs, out, *resumed, "--resume")
    assert code == 2, log
    flat = " ".join(log.split())
    assert f"written with other chunking options: {said} (line 1 has config_id" in flat
    assert "--resume with the options that wrote it" in flat and "without --resume" in flat
    assert out.read_bytes() == before
    # with the options that wrote it, it resumes
    code, log = _chunk(docs, out, *wrote, "--resume")
    assert code == 0, log
    assert out.read_bytes() == before


def test_two_changes_are_not_searched_the_refusal_lists_this_runs_options(docs, tmp_path):
    out = tmp_path / "out.jsonl"
    assert _chunk(docs, out, "-n", "96")[0] == 0
    before = out.read_bytes()
    code, log = _chunk(docs, out, "-n", "200", "--encoding", "latin-1", "--resume")
    assert code == 2, log
    flat = " ".join(log.split())
    assert "written with other chunking options than this run's (line 1 has config_id" in flat
    assert "strategy auto, chunk_size 200, chunk_overlap 0, unit 'tokens', encoding iso8859-1): nothing was appended" in flat
    assert out.read_bytes() == before
