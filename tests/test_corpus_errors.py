"""What :func:`chunkwise.chunk_corpus` does with files that fail: a file deleted during the
run is a failed read (raised with ``errors="raise"``), and what is skipped is reported in
input order, without printing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import chunkwise
from chunkwise.errors import LoadError


def _folder(tmp_path: Path, n: int = 6) -> Path:
    top = tmp_path / "docs"
    top.mkdir()
    for i in range(n):
        (top / f"f{i}.txt").write_text(f"File number {i}. It has two sentences.\n")
    return top


def _listed_then_deleted(monkeypatch: pytest.MonkeyPatch, name: str = "gone.txt") -> None:
    """Every folder walk also lists ``name``, a file that is not there: deleted after the
    folder was listed."""
    from chunkwise.loaders import files as files_mod

    real = files_mod._walk_relative

    def walk(folder: Path, *args: object, **kwargs: object) -> list[tuple[str, int]]:
        return sorted([*real(folder, *args, **kwargs), (name, 5)])

    monkeypatch.setattr(files_mod, "_walk_relative", walk)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("two_paths", [False, True])
def test_a_file_deleted_during_the_run_raises_with_errors_raise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, two_paths: bool
) -> None:
    top = _folder(tmp_path)
    other = tmp_path / "z.txt"
    other.write_text("Another file.\n")
    paths = [top, other] if two_paths else [top]  # two paths: find_files; one folder: listed, read by the workers
    _listed_then_deleted(monkeypatch)
    gone = os.fspath(top / "gone.txt")
    with pytest.raises(LoadError, match="gone.txt"):
        list(chunkwise.chunk_corpus(paths, workers=workers, chunk_size=60))
    skipped: list[tuple[str, str]] = []
    chunks = list(chunkwise.chunk_corpus(paths, workers=workers, chunk_size=60, errors="skip", skipped=skipped))
    assert len({c.metadata["source"] for c in chunks}) == (7 if two_paths else 6)
    assert [path for path, _ in skipped] == [gone]
    assert skipped[0][1].startswith("read failed: LoadError")


def test_a_file_deleted_while_the_corpus_is_chunked(tmp_path: Path) -> None:
    top = _folder(tmp_path)
    chunks = chunkwise.chunk_corpus(top, workers=1, chunk_size=60)
    first = next(chunks)  # the folder is listed, the first file read
    assert first.metadata["filename"] == "f0.txt"
    (top / "f3.txt").unlink()
    with pytest.raises(LoadError, match="f3.txt"):
        list(chunks)


def _mixed(tmp_path: Path) -> Path:
    """Files that are read, passed over (a format no loader reads), failed (not UTF-8 with
    ``encoding="utf-8"``) and empty, interleaved in sorted order, in a folder and a subfolder."""
    top = tmp_path / "mixed"
    (top / "sub").mkdir(parents=True)
    for i, kind in enumerate(["bad", "odt", "ok", "empty", "bad", "ok", "odt", "bad"]):
        for where in (top, top / "sub"):
            if kind == "bad":
                (where / f"f{i}.txt").write_bytes(b"\xff\xfe not utf-8 \x80")
            elif kind == "odt":
                (where / f"f{i}.odt").write_bytes(b"PK\x03\x04 not really a document")
            elif kind == "empty":
                (where / f"f{i}.txt").write_text("")
            else:
                (where / f"f{i}.txt").write_text(f"Readable file {i}.\n")
    return top


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("two_paths", [False, True])
def test_skipped_files_come_in_input_order(tmp_path: Path, workers: int, two_paths: bool) -> None:
    top = _mixed(tmp_path)
    other = tmp_path / "z.txt"
    other.write_text("Another file.\n")
    paths = [top, other] if two_paths else [top]
    skipped: list[tuple[str, str]] = []
    chunks = chunkwise.chunk_corpus(paths, workers=workers, chunk_size=60, encoding="utf-8", errors="skip",
                                    skipped=skipped)
    assert [c.metadata["relative_path"] for c in chunks] == ["f2.txt", "f5.txt", "sub/f2.txt", "sub/f5.txt"] + (
        ["z.txt"] if two_paths else []
    )
    left_out = ["f0.txt", "f1.odt", "f3.txt", "f4.txt", "f6.odt", "f7.txt"]
    assert [path for path, _ in skipped] == [os.fspath(top / name) for name in left_out] + [
        os.fspath(top / "sub" / name) for name in left_out
    ]
    reasons = [reason.split(":")[0] for _, reason in skipped[:6]]
    assert reasons == ["read failed", "odt is not a supported format", "empty", "read failed",
                       "odt is not a supported format", "read failed"]


def _stderr_of_a_run(tmp_path: Path, give_skipped: bool) -> str:
    import subprocess
    import sys

    top = _mixed(tmp_path)
    code = (
        "import chunkwise, sys\n"
        f"kwargs = {{'skipped': []}} if {give_skipped} else {{}}\n"
        "chunks = list(chunkwise.chunk_corpus(sys.argv[1], workers=2, chunk_size=60, encoding='utf-8',"
        " errors='skip', **kwargs))\n"
        "assert chunks\n"
    )
    run = subprocess.run([sys.executable, "-c", code, os.fspath(top)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stderr


def test_errors_skip_does_not_print_a_line_per_file(tmp_path: Path) -> None:
    err = _stderr_of_a_run(tmp_path, give_skipped=False)  # no logging configured: Python's last resort prints
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "skipped 6 files" in lines[0] and "skipped=[]" in lines[0]


def test_errors_skip_prints_nothing_when_skipped_is_given(tmp_path: Path) -> None:
    assert _stderr_of_a_run(tmp_path, give_skipped=True) == ""
