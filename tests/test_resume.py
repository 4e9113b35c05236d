"""``--resume`` on outputs it did not write itself: a finished run without ``--resume``, a
run to standard output that was cut short mid-line, documents added, copied and changed
since, and files it cannot append to (no content ids, Parquet)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()


def _text(i: int) -> str:
    import random

    r = random.Random(i)
    return "\n\n".join(
        ". ".join(" ".join(r.choice(WORDS) for _ in range(r.randint(4, 12))).capitalize() for _ in range(3)) + "."
        for _ in range(8)
    )


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for i in range(8):
        (root / f"d{i}.txt").write_text(_text(i), encoding="utf-8")
    return root


ARGS = ["-u", "chars", "-n", "120", "--no-progress"]


def _chunk(*args: str) -> tuple[int, str, bytes]:
    result = CliRunner().invoke(cli, ["chunk", *args, *ARGS])
    return result.exit_code, result.stderr, result.stdout_bytes


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def test_resume_continues_the_output_of_a_run_without_resume(docs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(str(docs), "-o", str(out))[0] == 0
    first = out.read_bytes()
    (docs / "d9.txt").write_text(_text(9), encoding="utf-8")  # sorts last: the file then equals a fresh run's
    code, log, _ = _chunk(str(docs), "--resume", "-j", "2", "-o", str(out))
    assert code == 0, log
    assert "8 documents already in the output" in log  # the last one (d7) checked, kept in place
    fresh = tmp_path / "fresh.jsonl"
    assert _chunk(str(docs), "-o", str(fresh))[0] == 0
    assert out.read_bytes() == fresh.read_bytes()
    assert out.read_bytes().startswith(first)
    # nothing new: the file stays as it was
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(out))
    assert code == 0 and "9 documents already in the output" in log  # the last one too: nothing is redone
    assert out.read_bytes() == fresh.read_bytes()


@pytest.mark.parametrize("cut", [0.3, 0.61, 0.9])
def test_resume_completes_standard_output_cut_short_mid_line(docs: Path, tmp_path: Path, cut: float) -> None:
    """``chunkwise chunk docs/ > out.jsonl`` interrupted: no atomic rename protects it; its
    last line is cut short. That line is dropped and its document chunked again."""
    code, _, whole = _chunk(str(docs))
    assert code == 0 and whole.count(b"\n") > 20
    at = whole.index(b"\n", int(len(whole) * cut)) - 7  # mid-line
    out = tmp_path / "out.jsonl"
    out.write_bytes(whole[:at])
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(out))
    assert code == 0, log
    assert out.read_bytes() == whole
    ids = [r["id"] for r in _records(out)]
    assert len(ids) == len(set(ids))


def test_documents_added_in_the_middle_go_at_the_end_and_copies_are_their_own_documents(
    docs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(str(docs), "-o", str(out))[0] == 0
    first = out.read_bytes()
    (docs / "d3b.txt").write_text(_text(30), encoding="utf-8")  # sorts between d3 and d4
    shutil.copyfile(docs / "d1.txt", docs / "d1copy.txt")  # the same text: the same content id, another document
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(out))
    assert code == 0, log
    fresh = tmp_path / "fresh.jsonl"
    assert _chunk(str(docs), "-o", str(fresh))[0] == 0
    got, want = _records(out), _records(fresh)
    key = lambda r: (r["document_id"], r["index"])  # noqa: E731
    assert sorted(got, key=key) == sorted(want, key=key)  # the same records, no duplicates
    order = list(dict.fromkeys(Path(r["source"]).name for r in got))
    # appended in input order, after the documents kept; the last document of the file
    # (d7) is checked in place (chunked again and compared), neither cut back nor moved
    assert order == [*(f"d{i}.txt" for i in range(8)), "d1copy.txt", "d3b.txt"]
    assert out.read_bytes().startswith(first)
    copies = {r["document_id"]: r["content_id"] for r in got if Path(r["source"]).name in ("d1.txt", "d1copy.txt")}
    assert len(copies) == 2 and len(set(copies.values())) == 1


def test_a_changed_document_is_reported_not_appended(docs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(str(docs), "-o", str(out))[0] == 0
    before = _records(out)
    (docs / "d2.txt").write_text(_text(200), encoding="utf-8")
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(out))
    assert code == 1 and "d2.txt" in log and "another text or configuration" in log
    assert _records(out) == before


def test_outputs_without_content_ids_or_in_parquet_are_refused_naming_the_fix(docs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(str(docs), "-o", str(out))[0] == 0
    lines = out.read_bytes().splitlines(keepends=True)
    old = [json.loads(line) for line in lines]
    for r in old:
        del r["content_id"]  # an output of another tool (or without content ids): nothing to recognise
    stale = tmp_path / "stale.jsonl"
    stale.write_text("".join(json.dumps(r) + "\n" for r in old), encoding="utf-8")
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(stale))
    assert code == 2 and "line 1" in log and "content_id" in log and "without --resume" in log
    assert stale.read_text(encoding="utf-8").count("\n") == len(old)  # left as it was
    # a damaged line before the end (not a cut-short last line) is refused too
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines[:3]) + lines[3][:10] + b"\n" + b"".join(lines[4:]))
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(damaged))
    assert code == 2 and "line 4" in log
    pytest.importorskip("pyarrow")
    parquet = tmp_path / "out.parquet"
    assert _chunk(str(docs), "-o", str(parquet))[0] == 0
    data = parquet.read_bytes()
    code, log, _ = _chunk(str(docs), "--resume", "-o", str(parquet))
    assert code == 2 and "JSON lines" in log and "Parquet" in log
    assert parquet.read_bytes() == data
