"""``chunk --resume`` holds a lock on its output for the whole run: a second run on the
same ``-o`` is refused before it touches the file, a run killed with ``kill -9`` does not
block the next one, the lock file is never an input, and an output that already holds a
document twice (two runs at once, before the lock) is cleaned by the next ``--resume``."""

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
from chunkwise.commands import _chunk_run

posix = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="SIGSTOP and SIGKILL: POSIX")
WORDS = "pump valve tank pipe gauge motor filter seal flange bolt".split()


def _folder(root: Path, n: int, paragraphs: int = 6) -> Path:
    import random

    root.mkdir()
    for i in range(n):
        r = random.Random(i)
        paras = [
            ". ".join(" ".join(r.choice(WORDS) for _ in range(r.randint(4, 12))).capitalize() for _ in range(3)) + "."
            for _ in range(paragraphs)
        ]
        (root / f"f{i:04d}.txt").write_text("\n\n".join(paras), encoding="utf-8")
    return root


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["chunk", *args])
    return result.exit_code, result.output


def _cli_command() -> list[str]:
    script = Path(sys.executable).with_name("chunkwise")
    return [str(script)] if script.exists() else [sys.executable, "-m", "chunkwise.cli"]


def _lock_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.lock")


def test_a_held_lock_refuses_a_resume_run_and_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs", 3)
    out = tmp_path / "out.jsonl"
    args = [str(docs), "-u", "chars", "-n", "120", "--no-progress", "-o", str(out)]
    assert _run(*args)[0] == 0
    before = out.read_bytes()
    out.write_bytes(before[: len(before) // 2])  # an interrupted run to continue
    half = out.read_bytes()
    with _chunk_run.OutputLock(out):  # another run writing it
        code, log = _run(*args, "--resume")
        assert code == 2, log
        assert str(out) in log and "another run" in log
        assert out.read_bytes() == half
    code, log = _run(*args, "--resume")  # released: the run goes ahead
    assert code == 0, log
    assert out.read_bytes() == before
    assert not _lock_path(out).exists()  # removed at the end


def _wait_stopped(pid: int) -> None:
    """Wait until the process ``pid`` is stopped (state ``T`` in ``/proc``; a moment
    where there is no ``/proc``)."""
    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not stat.exists():
            time.sleep(0.5)
            return
        if stat.read_text().rsplit(")", 1)[1].split()[0] in ("T", "t"):
            return
        time.sleep(0.005)


def _reference_run(tmp_path: Path, *folder: int) -> tuple[list[str], Path]:
    """The arguments of a one-worker run over a new folder (``_folder``'s sizes), and the
    output of an uninterrupted run with them, to compare a resumed output against."""
    docs = _folder(tmp_path / "docs", *folder)
    args = [str(docs), "-u", "chars", "-n", "150", "-j", "1", "--no-progress"]
    whole = tmp_path / "whole.jsonl"
    subprocess.run([*_cli_command(), "chunk", *args, "-o", str(whole)], check=True, capture_output=True)
    return args, whole


@posix
def test_a_concurrent_resume_run_is_refused_and_a_killed_run_blocks_nothing(tmp_path: Path) -> None:
    args, whole = _reference_run(tmp_path, 400, 16)
    out = tmp_path / "out.jsonl"
    first = subprocess.Popen([*_cli_command(), "chunk", *args, "--resume", "-o", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while (not out.exists() or out.stat().st_size < 5_000) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if first.poll() is not None:
            pytest.skip("the first run ended before the second could start")
        os.kill(first.pid, signal.SIGSTOP)  # still holding the lock, frozen mid-run
        _wait_stopped(first.pid)  # (the signal is delivered asynchronously: a write may be under way)
        size = out.stat().st_size
        second = subprocess.run([*_cli_command(), "chunk", *args, "--resume", "-o", str(out)],
                                capture_output=True, text=True)
        assert second.returncode == 2, second.stderr
        assert "another run" in second.stderr and str(out) in second.stderr
        assert out.stat().st_size == size  # not touched
    finally:
        os.kill(first.pid, signal.SIGKILL)  # killed outright, with the lock held
        first.wait()
    third = subprocess.run([*_cli_command(), "chunk", *args, "--resume", "-o", str(out)],
                           capture_output=True, text=True)
    assert third.returncode == 0, third.stderr
    assert out.read_bytes() == whole.read_bytes()
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(ids) == len(set(ids))


def test_two_resume_runs_at_once_write_every_chunk_once(tmp_path: Path) -> None:
    args, whole = _reference_run(tmp_path, 150, 10)
    out = tmp_path / "out.jsonl"
    procs = [subprocess.Popen([*_cli_command(), "chunk", *args, "--resume", "-o", str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    codes = sorted(p.wait() for p in procs)
    assert codes in ([0, 0], [0, 2])  # one refused, or the second started after the first ended
    assert out.read_bytes() == whole.read_bytes()


def test_a_stale_lock_file_is_not_an_input_and_blocks_nothing(tmp_path: Path) -> None:
    docs = _folder(tmp_path / "docs", 3)
    out = docs / "out.jsonl"  # the output inside the folder chunked
    _lock_path(out).write_bytes(b"")  # left by a run killed outright
    code, log = _run(str(docs), "-u", "chars", "-n", "120", "--no-progress", "--include", "*", "--resume",
                     "-o", str(out))
    assert code == 0, log
    assert "3 documents" in log and "skipped" not in log and ".lock" not in log
    assert {json.loads(line)["source"] for line in out.read_text().splitlines()} == {
        str(docs / f"f{i:04d}.txt") for i in range(3)
    }
    assert not _lock_path(out).exists()
    own = _chunk_run._own_output(out)
    assert own is not None and own(str(_lock_path(out))) and not own(str(docs / "f0000.txt"))


def _blocks(data: bytes) -> list[bytes]:
    """The output's documents, each its lines together."""
    blocks: list[bytes] = []
    last = None
    for line in data.splitlines(keepends=True):
        did = json.loads(line)["document_id"]
        if did != last:
            blocks.append(b"")
            last = did
        blocks[-1] += line
    return blocks


@pytest.mark.parametrize("shape", ["interleaved", "appended", "lines"])
def test_resume_removes_the_duplicates_that_two_runs_at_once_left(tmp_path: Path, shape: str) -> None:
    docs = _folder(tmp_path / "docs", 5)
    out = tmp_path / "out.jsonl"
    args = [str(docs), "-u", "chars", "-n", "120", "--no-progress", "-o", str(out)]
    assert _run(*args)[0] == 0
    whole = out.read_bytes()
    blocks = _blocks(whole)
    if shape == "interleaved":  # two runs, each document written by both, one after the other
        doubled = b"".join(b + b for b in blocks)
    elif shape == "appended":  # a whole second run after the first
        doubled = whole + whole
    else:  # a document's lines mixed with its copy's (a write cut in two)
        first = blocks[1].splitlines(keepends=True)
        doubled = blocks[0] + b"".join(first[:1]) + blocks[1] + b"".join(first[1:]) + b"".join(blocks[2:4])
    out.write_bytes(doubled)
    code, log = _run(*args, "--resume")
    assert code == 0, log
    assert out.read_bytes() == whole
    assert "duplicate" in log


def test_an_output_folder_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc")
    docs = _folder(tmp_path / "docs", 1)
    for extra in ([], ["--resume"]):
        code, log = _run(str(docs), "--no-progress", "-o", "/proc/x.jsonl", *extra)
        assert code == 2, log
        assert "cannot write to the folder /proc" in log, log


def test_without_a_locking_module_a_resume_run_goes_ahead_unlocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_chunk_run, "LOCKING", None)  # neither fcntl nor msvcrt
    docs = _folder(tmp_path / "docs", 2)
    out = tmp_path / "out.jsonl"
    args = [str(docs), "-u", "chars", "-n", "120", "--no-progress", "-o", str(out)]
    with _chunk_run.OutputLock(out):
        assert not _lock_path(out).exists()
        code, log = _run(*args, "--resume")
    assert code == 0, log
    assert "2 documents" in log and "cannot be locked" in log and not _lock_path(out).exists()
