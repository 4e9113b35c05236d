"""One folder streamed into the pool: :func:`chunkwise.loaders.find_files` classifies each
file as it yields it (a folder without symbolic links), and ``chunkwise chunk`` writes the
same bytes and reports the same skipped files whether it streams the folder (no progress
bar) or finds every file first (``--progress``)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.loaders import files as files_mod
from chunkwise.loaders import find_files


def _tree(root: Path) -> Path:
    (root / "b").mkdir(parents=True)
    for name in ("a.txt", "b/c.md", "b/d.txt", "e.html", "z.txt"):
        (root / name).write_text(f"# {name}\n\nSome words about {name}. And more of them.\n", encoding="utf-8")
    (root / "b" / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    return root


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    seen: list[Path] = []
    real = files_mod._classify

    def classify(path: Path, *a: object, **k: object) -> object:
        seen.append(path)
        return real(path, *a, **k)

    monkeypatch.setattr(files_mod, "_classify", classify)
    return seen


def test_one_folder_is_classified_as_it_is_yielded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path / "docs")
    seen = _counting(monkeypatch)
    skipped: list = []
    it = find_files([root], skipped=skipped)
    first = next(it)
    assert first.relative == "a.txt" and len(seen) == 1  # the rest not read yet
    rest = list(it)
    assert [f.relative for f in [first, *rest]] == ["a.txt", "b/c.md", "b/d.txt", "e.html", "z.txt"]
    assert [Path(s.path).name for s in skipped] == ["img.png"] and len(seen) == 6


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_folder_with_a_link_is_classified_whole_first_and_finds_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "docs")
    (root / "again").symlink_to(root / "b", target_is_directory=True)  # b/c.md and b/d.txt reached twice
    seen = _counting(monkeypatch)
    it = find_files([root])
    first = next(it)
    assert len(seen) == 9  # every entry classified before the first is yielded: duplicates resolved
    found = [first, *it]
    assert [f.relative for f in found] == ["a.txt", "b/c.md", "b/d.txt", "e.html", "z.txt"]


def _chunk(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["chunk", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_streamed_and_listed_folders_give_the_same_output_and_report(tmp_path: Path, workers: str) -> None:
    root = _tree(tmp_path / "docs")
    (root / "b" / "fake.docx").write_bytes(b"PK\x03\x04 not really a zip")  # fails in the worker
    outs = []
    for bar in ("--no-progress", "--progress"):  # the bar needs every file's size: the files are listed first
        out = tmp_path / f"o{bar}.jsonl"
        code, _, err = _chunk(str(root), "-u", "chars", "-n", "40", "-j", workers, bar, "-o", str(out))
        assert code == 1, err
        # the same files reported, with the same reasons (a streamed folder reports a file passed
        # over when the walk meets it; the progress bar shares the lines of standard error)
        assert "skipped 2 files: " in err
        outs.append((out.read_bytes(), sorted(re.findall(r"skipped (/[^:]+: [^;]+); fix", err))))
    assert outs[0] == outs[1]
    assert any("img.png" in x for x in outs[0][1]) and any("fake.docx" in x for x in outs[0][1])


def test_a_streamed_folder_without_files_is_a_usage_error_and_one_of_unsupported_files_exit_1(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = _chunk(str(empty), "--no-progress", "-o", str(tmp_path / "o.jsonl"))
    assert code == 2 and "no file to read" in err
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    previous = tmp_path / "kept.jsonl"
    previous.write_bytes(b"old\n")
    code, _, err = _chunk(str(odd), "--no-progress", "-o", str(previous))
    assert code == 1 and "img.png" in err and previous.read_bytes() == b"old\n"
