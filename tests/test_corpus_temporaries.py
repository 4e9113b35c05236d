"""The hidden temporary file of ``-o`` left by a run killed with ``kill -9`` is removed by
a later run, once no process holds it; a concurrent run's temporary and the user's own
files are never touched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.commands._chunk_run import STALE_AFTER, _held_open, remove_stale_temporaries

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="open files read from /proc: Linux")


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def _temporary(out: Path, suffix: str = "k3j_9x0q", body: bytes = b'{"id": "0123456789abcdef", "document_id"') -> Path:
    tmp = out.with_name(f".{out.name}.{suffix}.tmp")
    tmp.write_bytes(body)
    _age(tmp, STALE_AFTER + 60)
    return tmp


@linux
def test_a_stale_temporary_is_removed_and_one_held_open_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    tmp = _temporary(out)
    with open(tmp, "rb"):  # a run still writing it: this process holds it open
        assert remove_stale_temporaries(out) == []
        assert tmp.exists()
    assert remove_stale_temporaries(out) == [tmp]
    assert not tmp.exists()


def test_only_old_temporaries_of_this_output_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    empty = _temporary(out, "aaaaaaaa", b"")  # killed before its first line
    parquet = _temporary(out, "bbbbbbbb", b"PAR1\x15\x04")
    young = _temporary(out, "cccccccc")
    _age(young, 1)  # changed a second ago: perhaps a run on another machine writing it
    notes = _temporary(out, "notes123", b"my own notes\n")  # a user's file named alike
    short = _temporary(out, "abc")  # not a name the writers give
    other = _temporary(tmp_path / "other.jsonl", "dddddddd")
    folder = out.with_name(f".{out.name}.eeeeeeee.tmp")
    folder.mkdir()
    link = out.with_name(f".{out.name}.ffffffff.tmp")
    link.symlink_to(other)
    _age(link, STALE_AFTER + 60)
    assert sorted(remove_stale_temporaries(out)) == [empty, parquet]
    for kept in (young, notes, short, other, folder, link):
        assert os.path.lexists(kept), kept
    assert remove_stale_temporaries(out, now=time.time() + STALE_AFTER + 5) == [young]


def _big_folder(root: Path, files: int = 400) -> Path:
    root.mkdir()
    body = ("Alpha beta gamma delta. " * 40 + "\n\n") * 30
    for i in range(files):
        (root / f"f{i:04d}.txt").write_text(f"{i}\n{body}", encoding="utf-8")
    return root


@linux
def test_the_temporary_of_a_run_killed_with_kill_9_is_removed_by_the_next_resume(tmp_path: Path) -> None:
    root = _big_folder(tmp_path / "docs")
    out = tmp_path / "out.jsonl"
    out.write_text("")  # a previous output: left as it was by the killed run
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunkwise.cli", "chunk", str(root), "-u", "chars", "-n", "100", "-j", "2",
         "--no-progress", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        temporaries: list[Path] = []
        while proc.poll() is None and time.monotonic() < deadline:
            temporaries = [p for p in tmp_path.iterdir() if p.name.startswith(".out.jsonl.") and p.stat().st_size]
            if temporaries:
                break
            time.sleep(0.02)
        if proc.poll() is not None:
            pytest.skip("the run ended before it was killed")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    [tmp] = temporaries
    deadline = time.monotonic() + 10  # its workers die with it (parent-death signal)
    while _held_open({os.path.realpath(tmp)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tmp.exists() and out.read_text() == ""
    _age(tmp, STALE_AFTER + 1)

    small = tmp_path / "small"
    small.mkdir()
    (small / "a.txt").write_text("Pumps start at six.\n")
    result = CliRunner().invoke(cli, ["chunk", str(small), "-u", "chars", "--resume", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert not tmp.exists()
    assert [json.loads(line)["source"] for line in out.read_text().splitlines()] == [(small / "a.txt").as_posix()]


@linux
@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_plain_run_removes_a_killed_runs_temporary_of_its_output(tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"chunks.{fmt}"
    stale = _temporary(out)
    young = out.with_name(f".{out.name}.young123.tmp")
    young.write_bytes(b"")  # a concurrent run's, just made: kept
    mine = tmp_path / f".{out.name}.notes.txt"
    mine.write_text("the user's own file")
    _age(mine, STALE_AFTER + 60)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Pumps start at six.\n")
    result = CliRunner().invoke(cli, ["chunk", str(folder), "-u", "chars", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert not stale.exists() and young.exists() and mine.read_text() == "the user's own file"
    assert out.stat().st_size > 0


@pytest.mark.parametrize("extra", [[], ["--workers", "1"], ["--resume"], ["--include", "*.txt", "--include", "*.jsonl"]])
def test_an_output_inside_the_folder_read_is_not_read_back(tmp_path: Path, extra: list[str]) -> None:
    folder = tmp_path / "corp"
    folder.mkdir()
    (folder / "a.txt").write_text("Pumps start at six.\n")
    (folder / "b.md").write_text("# Tanks\n\nTanks fill by eight.\n")
    out = folder / "out.jsonl"
    stale = _temporary(out)  # a killed run's temporary, in the folder read: not an input either
    for _ in range(2):
        result = CliRunner().invoke(cli, ["chunk", str(folder), "-u", "chars", "-o", str(out), *extra])
        assert result.exit_code == 0, result.stderr
        sources = [json.loads(line)["source"] for line in out.read_text().splitlines()]
        expected = ["a.txt"] if "--include" in extra else ["a.txt", "b.md"]
        assert sorted(Path(s).name for s in sources) == expected, sources
    assert not stale.exists() or "--resume" not in extra
    other = tmp_path / "other.jsonl"  # a JSON lines file that is not this run's output is read
    (folder / "data.jsonl").write_text('{"text": "Valves open at seven."}\n')
    result = CliRunner().invoke(cli, ["chunk", str(folder), "-u", "chars", "-o", str(other), *extra])
    assert result.exit_code == 0, result.stderr
    assert "data.jsonl" in other.read_text() and "out.jsonl" in other.read_text()
