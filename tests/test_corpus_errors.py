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
