"""Corpus runs on awkward trees: file names that are not UTF-8, folders that cannot be
read, files deleted during a run, workers left behind by a killed parent, and what
:func:`chunkwise.chunk_corpus` leaves out."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.types import document_id_for_path

posix_bytes_names = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="file names of arbitrary bytes are a POSIX (non-macOS) thing"
)


def _chunk(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["chunk", *args])
    return result.exit_code, result.stdout, result.stderr


def _bytes_names_tree(root: Path) -> Path:
    top = root / "T"
    top.mkdir()
    (top / "a.txt").write_text("plain name\n")
    for name, body in ((b"latin1_caf\xe9.txt", b"hello cafe\n"), (b"bad_\xff\xfe_name.md", b"# Hi\n\nbody\n")):
        with open(os.path.join(os.fsencode(top), name), "wb") as fh:
            fh.write(body)
    return top


@posix_bytes_names
@pytest.mark.parametrize("workers", ["1", "2"])
def test_files_with_names_that_are_not_utf8_are_written_with_escaped_paths(tmp_path: Path, workers: str) -> None:
    pytest.importorskip("pyarrow")
    from chunkwise.export import record_of_row

    top = _bytes_names_tree(tmp_path)
    out_j, out_p = tmp_path / "x.jsonl", tmp_path / "x.parquet"
    code, _, err = _chunk(str(top), "--workers", workers, "-o", str(out_j))
    assert code == 0, err
    assert "skipped" not in err
    records = [json.loads(line) for line in out_j.read_text(encoding="utf-8").splitlines()]
    by_name = {r["metadata"]["filename"]: r for r in records}
    assert set(by_name) == {"a.txt", "latin1_caf\\xe9.txt", "bad_\\xff\\xfe_name.md"}
    cafe = by_name["latin1_caf\\xe9.txt"]
    assert cafe["source"] == (top / "latin1_caf").as_posix() + "\\xe9.txt"
    assert cafe["metadata"]["relative_path"] == "latin1_caf\\xe9.txt"
    assert cafe["metadata"]["source"] == cafe["source"]
    # ids still hash the path itself (stable, and unchanged for ordinary names)
    assert cafe["document_id"] == document_id_for_path(os.fsdecode(b"latin1_caf\xe9.txt"))
    assert by_name["a.txt"]["document_id"] == document_id_for_path("a.txt")

    code, _, err = _chunk(str(top), "--workers", workers, "-o", str(out_p))
    assert code == 0, err
    import pyarrow.parquet as pq

    rows = [record_of_row(r) for r in pq.read_table(out_p).to_pylist()]
    assert sorted(r["source"] for r in rows) == sorted(r["source"] for r in records)


def test_a_value_that_utf8_cannot_hold_is_named_in_the_skip_message() -> None:
    import chunkwise.commands._chunk_run as run_mod
    from chunkwise.types import Document

    doc = Document("body", id="d", source="a.md", metadata={"title": "caf\udce9"})
    exc = None
    try:
        run_mod.render_jsonl(list(__import__("chunkwise").chunk(doc)), doc, "c")
    except ValueError as e:
        exc = e
    assert exc is not None and "metadata 'title'" in str(exc) and "lone surrogate" in str(exc)
    try:
        run_mod.render_records(list(__import__("chunkwise").chunk(doc)), doc, "c")
    except ValueError as e:
        assert "metadata 'title'" in str(e)
    else:
        raise AssertionError("render_records accepted a lone surrogate")


def _locked_tree(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder whose subfolder ``locked`` cannot be listed (as mode 000 for a user who is
    not root; simulated, since tests may run as root)."""
    top = root / "U"
    (top / "locked").mkdir(parents=True)
    (top / "a.txt").write_text("readable\n")
    (top / "locked" / "x.txt").write_text("never seen\n")
    real = os.scandir

    def scandir(path: object = ".") -> object:
        if os.path.basename(os.fspath(path)) == "locked":  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    return top


def test_find_files_reports_a_subfolder_it_cannot_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chunkwise.loaders import find_files

    top = _locked_tree(tmp_path, monkeypatch)
    for paths, include in (([top], None), ([top, top / "a.txt"], None), ([top], ["*.txt"]), ([top, top], ["*.txt"])):
        skipped: list = []  # streamed (one folder) and collected; --include does not hide it
        found = [f.relative for f in find_files(paths, include=include, skipped=skipped)]
        assert found == ["a.txt"]
        assert [(s.relative, s.reason) for s in skipped] == [("locked", "cannot read (Permission denied)")]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_subfolder_that_cannot_be_read_is_reported_and_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    top = _locked_tree(tmp_path, monkeypatch)
    for include in ([], ["--include", "*.txt"]):  # --include does not hide it either
        code, out, err = _chunk(str(top), "--workers", workers, *include)
        assert code == 1, err
        assert f"skipped {(top / 'locked').as_posix()}: cannot read (Permission denied); fix: check the folder" in err
        assert "1 unreadable" in err
        assert [json.loads(line)["metadata"]["filename"] for line in out.splitlines()] == ["a.txt"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads a folder of mode 000")
def test_a_subfolder_of_mode_000_is_reported(tmp_path: Path) -> None:
    top = tmp_path / "U"
    (top / "locked").mkdir(parents=True)
    (top / "a.txt").write_text("readable\n")
    os.chmod(top / "locked", 0)
    try:
        code, _, err = _chunk(str(top))
    finally:
        os.chmod(top / "locked", 0o755)
    assert code == 1 and "cannot read (Permission denied)" in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_file_deleted_during_the_run_is_unreadable_not_unsupported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    from chunkwise.loaders import files as files_mod

    top = tmp_path / "D"
    top.mkdir()
    (top / "a.txt").write_text("still here\n")
    real = files_mod._walk_relative

    def walk(folder: Path, *args: object, **kwargs: object) -> list[tuple[str, int]]:
        return sorted([*real(folder, *args, **kwargs), ("gone.txt", 5)])  # listed, then deleted

    monkeypatch.setattr(files_mod, "_walk_relative", walk)
    code, _, err = _chunk(str(top), "--workers", workers)
    assert code == 1, err
    assert f"skipped {(top / 'gone.txt').as_posix()}: does not exist" in err
    assert "1 unreadable" in err and "unsupported" not in err and "convert it" not in err


def _children(pid: int) -> dict[int, str]:
    """The live (not zombie) processes whose parent is ``pid``, with their state letter."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out[int(entry)] = fields[0]
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal: Linux only")
def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    import signal
    import subprocess
    import time

    root = tmp_path / "docs"
    root.mkdir()
    body = ("Alpha beta gamma delta. " * 40 + "\n\n") * 30
    for i in range(400):
        (root / f"f{i:04d}.txt").write_text(f"{i}\n{body}", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunkwise.cli", "chunk", str(root), "-u", "chars", "-n", "100", "-j", "2",
         "--no-progress", "-o", str(tmp_path / "out.jsonl")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
            workers = _children(proc.pid)
        if proc.poll() is not None:
            pytest.skip("the run ended before its workers were seen")
        assert len(workers) >= 2
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers still alive after their parent was killed: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in workers:  # never leave one behind, whatever the outcome
            if _alive(w):
                os.kill(w, signal.SIGKILL)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("two_paths", [False, True])
def test_chunk_corpus_reports_what_it_leaves_out(tmp_path: Path, workers: int, two_paths: bool) -> None:
    import chunkwise
    from chunkwise.errors import LoadError

    top = tmp_path / "C"
    top.mkdir()
    (top / "a.txt").write_text("Some text here.\n")
    (top / "b.odt").write_bytes(b"PK\x03\x04 not really a document")
    (top / "empty.txt").write_text("")
    other = tmp_path / "z.txt"
    other.write_text("Another file.\n")
    paths = [top, other] if two_paths else [top]
    skipped: list[tuple[str, str]] = []
    chunks = list(chunkwise.chunk_corpus(paths, workers=workers, chunk_size=50, skipped=skipped))
    assert [c.metadata["filename"] for c in chunks] == ["a.txt"] + (["z.txt"] if two_paths else [])
    reasons = dict(skipped)
    assert set(reasons) == {str(top / "b.odt"), str(top / "empty.txt")}
    assert "not a supported format" in reasons[str(top / "b.odt")]
    assert reasons[str(top / "empty.txt")] == "empty: no text to chunk"

    missing = tmp_path / "missing.txt"
    skipped = []
    with pytest.raises(LoadError):
        list(chunkwise.chunk_corpus([*paths, missing], workers=workers, chunk_size=50, skipped=skipped))
    assert skipped[-1][0] == str(missing) and skipped[-1][1].startswith("read failed: LoadError")
    skipped = []
    kept = list(
        chunkwise.chunk_corpus([*paths, missing], workers=workers, chunk_size=50, errors="skip", skipped=skipped)
    )
    assert [c.text for c in kept] == [c.text for c in chunks]
    assert str(missing) in dict(skipped) and str(top / "b.odt") in dict(skipped)
