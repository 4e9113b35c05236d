"""What :func:`chunkwise.chunk_corpus` does with the entries of a folder that the command
line reports as unreadable (a dangling or looping symbolic link, a subfolder that cannot be
listed): a failed read, raised with ``errors="raise"`` and counted with ``errors="skip"``;
files that no loader reads and empty files stay left out without raising or warning."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

import chunkwise
from chunkwise.errors import LoadError

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")


def _folder(tmp_path: Path) -> Path:
    top = tmp_path / "f"
    top.mkdir()
    (top / "a.txt").write_text("Hello there.\n")
    (top / "blank.txt").write_text("   \n")
    (top / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    (top / "z.txt").write_text("Last file.\n")
    try:
        os.symlink("nowhere.txt", top / "dang.txt")
    except OSError:  # no right to make links here
        pytest.skip("cannot make a symbolic link")
    return top


@pytest.mark.parametrize("workers", [1, 2])
def test_a_dangling_link_raises_load_error_with_errors_raise(tmp_path: Path, workers: int) -> None:
    top = _folder(tmp_path)
    with pytest.raises(LoadError, match="dangling symbolic link"):
        list(chunkwise.chunk_corpus(top, workers=workers, chunk_size=50))
    with pytest.raises(LoadError):  # as when it is named directly
        chunkwise.load(top / "dang.txt")
    skipped: list[tuple[str, str]] = []
    chunks = chunkwise.chunk_corpus(top, workers=workers, chunk_size=50, skipped=skipped)
    with pytest.raises(LoadError):
        list(chunks)
    assert skipped == [
        (os.fspath(top / "blank.txt"), "empty: no text to chunk"),
        (os.fspath(top / "dang.txt"), "read failed: LoadError: dangling symbolic link (to nowhere.txt)"),
    ]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_dangling_link_is_a_failed_read_with_errors_skip(
    tmp_path: Path, workers: int, caplog: pytest.LogCaptureFixture
) -> None:
    top = _folder(tmp_path)
    skipped: list[tuple[str, str]] = []
    with caplog.at_level(logging.INFO, logger="chunkwise"):
        chunks = list(chunkwise.chunk_corpus(top, workers=workers, chunk_size=50, errors="skip", skipped=skipped))
    assert [c.metadata["filename"] for c in chunks] == ["a.txt", "z.txt"]
    assert skipped == [
        (os.fspath(top / "blank.txt"), "empty: no text to chunk"),
        (os.fspath(top / "dang.txt"), "read failed: LoadError: dangling symbolic link (to nowhere.txt)"),
        (os.fspath(top / "img.png"), "png is not a supported format"),
    ]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # skipped= given: no warning

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="chunkwise"):
        again = list(chunkwise.chunk_corpus(top, workers=workers, chunk_size=50, errors="skip"))
    assert [c.text for c in again] == [c.text for c in chunks]
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "skipped 1 file " in warnings[0]  # the link; not the .png nor the blank file


def test_a_looping_link_is_a_failed_read(tmp_path: Path) -> None:
    top = _folder(tmp_path)
    (top / "dang.txt").unlink()
    os.symlink("loop2", top / "loop1")
    os.symlink("loop1", top / "loop2")
    with pytest.raises(LoadError, match="loop1"):
        list(chunkwise.chunk_corpus(top, workers=1, chunk_size=50))
    skipped: list[tuple[str, str]] = []
    list(chunkwise.chunk_corpus(top, workers=1, chunk_size=50, errors="skip", skipped=skipped))
    failed = [path for path, reason in skipped if reason.startswith("read failed: LoadError: cannot read")]
    assert failed == [os.fspath(top / "loop1"), os.fspath(top / "loop2")]


def test_only_unsupported_and_empty_files_never_raise(tmp_path: Path) -> None:
    top = _folder(tmp_path)
    (top / "dang.txt").unlink()
    skipped: list[tuple[str, str]] = []
    chunks = list(chunkwise.chunk_corpus(top, workers=1, chunk_size=50, skipped=skipped))  # errors="raise"
    assert [c.metadata["filename"] for c in chunks] == ["a.txt", "z.txt"]
    assert [reason for _, reason in skipped] == ["empty: no text to chunk", "png is not a supported format"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_subfolder_that_cannot_be_listed_is_a_failed_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    top = tmp_path / "U"  # one folder without links: listed here, classified by the workers
    (top / "locked").mkdir(parents=True)
    (top / "a.txt").write_text("readable\n")
    (top / "locked" / "x.txt").write_text("never seen\n")
    real = os.scandir

    def scandir(path: object = ".") -> object:  # as mode 000 for a user who is not root
        if os.path.basename(os.fspath(path)) == "locked":  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(LoadError, match="Permission denied"):
        list(chunkwise.chunk_corpus(top, workers=workers, chunk_size=50))
    skipped: list[tuple[str, str]] = []
    chunks = list(chunkwise.chunk_corpus(top, workers=workers, chunk_size=50, errors="skip", skipped=skipped))
    assert [c.metadata["filename"] for c in chunks] == ["a.txt"]
    assert skipped == [(os.fspath(top / "locked"), "read failed: LoadError: cannot read (Permission denied)")]


def test_a_missing_file_named_directly_is_not_named_twice_in_its_reason(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    skipped: list[tuple[str, str]] = []
    assert list(chunkwise.chunk_corpus([missing], workers=1, errors="skip", skipped=skipped)) == []
    assert len(skipped) == 1 and skipped[0][0] == os.fspath(missing)
    assert skipped[0][1].startswith("read failed: LoadError: ") and os.fspath(missing) not in skipped[0][1]
