"""Files skipped by ``chunkwise chunk``: each reported on a line of its own under the
progress bar, the first 20 as they come, then only counted (``--verbose``: every one)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from chunkwise.cli import cli


def _folder(tmp_path: Path, bad: int) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for i in range(6):
        (root / f"d{i}.txt").write_text(f"Document {i}. " * 40, encoding="utf-8")
    for i in range(bad):
        (root / f"e{i:02d}.txt").write_bytes(b"")  # empty: skipped and named
    return root


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["chunk", *args, "-u", "chars", "-n", "200", "-j", "1"])
    return result.exit_code, result.stderr


def test_a_skipped_file_is_said_on_a_line_of_its_own_under_the_progress_bar(tmp_path: Path) -> None:
    root = _folder(tmp_path, 3)
    code, log = _run(str(root), "-o", str(tmp_path / "out.jsonl"), "--progress")
    assert code == 0 and "chunking" in log  # the bar was drawn
    pieces = [p for p in re.split(r"[\r\n]", log) if "skipped " in p and ": empty document" in p]
    assert len(pieces) == 3
    assert all(p.startswith("skipped ") for p in pieces), pieces  # never after the bar's text


def test_only_the_first_skipped_files_are_said_then_counted(tmp_path: Path) -> None:
    root = _folder(tmp_path, 30)
    code, log = _run(str(root), "-o", str(tmp_path / "out.jsonl"), "--no-progress")
    assert code == 0
    said = [line for line in log.splitlines() if line.startswith("skipped ") and "empty document" in line]
    assert len(said) == 20
    assert "only the first 20 are reported" in log and "--verbose reports every one" in log
    assert "skipped 30 files: 30 empty" in log and "  and 25 more" in log
    code, log = _run(str(root), "-o", str(tmp_path / "out.jsonl"), "--no-progress", "--verbose")
    said = [line for line in log.splitlines() if line.startswith("skipped ") and "empty document" in line]
    assert code == 0 and len(said) == 30 and "only the first" not in log
    assert "and 25 more" not in log and "  docs/e29.txt (empty: zero bytes)" in log.replace(str(tmp_path) + "/", "")
