"""Corpus runs: ``--workers`` (byte-identical to one process), ``--resume`` (after a killed
run, and on a file cut at any byte), Parquet (round trip against JSON lines), the output
format by suffix, and :func:`chunkwise.chunk_corpus`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.corpus import _Job, config_key, ordered_map

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron".split()


def _text(i: int, paragraphs: int = 12) -> str:
    import random

    r = random.Random(i)
    paras = []
    for _ in range(paragraphs):
        sentences = [
            " ".join(r.choice(WORDS) for _ in range(r.randint(4, 14))).capitalize() for _ in range(r.randint(1, 5))
        ]
        paras.append(". ".join(sentences) + ".")
    return "\n\n".join(paras)


@pytest.fixture()
def mixed(tmp_path: Path) -> Path:
    """A folder of every common text format, with one undecodable file among them."""
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    for i in range(6):
        (root / f"t{i}.txt").write_text(_text(i), encoding="utf-8")
    (root / "t6.txt").write_text(_text(0), encoding="utf-8")  # the same text as t0: the same content id
    guide = "# Guide\n\n## Install\n\n" + _text(7) + "\n\n## Use\n\n" + _text(8)
    (root / "sub" / "guide.md").write_text(guide, encoding="utf-8")
    page = "<h1>Page</h1><p>" + _text(9).replace("\n\n", "</p><p>") + "</p>"
    (root / "sub" / "page.html").write_text(page, encoding="utf-8")
    table = "name,value\n" + "".join(f"row{i},{i * i}\n" for i in range(40))
    (root / "sub" / "table.csv").write_text(table, encoding="utf-8")
    (root / "sub" / "bad.txt").write_bytes(b"\xff\xfe not utf-8 \x80\x81")
    return root


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["chunk", *args])
    return result.exit_code, result.output


def test_two_workers_write_the_same_bytes_as_one_and_report_the_bad_file(mixed: Path, tmp_path: Path) -> None:
    outs, logs = [], []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        code, log = _run(str(mixed), "-u", "chars", "-n", "120", "--workers", workers, "--no-progress", "-o", str(out))
        assert code == 1, log  # the bad file is reported and skipped
        outs.append(out.read_bytes())
        logs.append([line for line in log.splitlines() if line.startswith("skipped")])
    assert outs[0] == outs[1]
    assert logs[0] == logs[1] and any("bad.txt" in line and "not valid UTF-8" in line for line in logs[1])
    records = [json.loads(line) for line in outs[1].decode().splitlines()]
    sources = list(dict.fromkeys(r["source"] for r in records))
    assert len(sources) == 10 and not any(s.endswith("bad.txt") for s in sources)
    assert all(len(r["content_id"]) == 16 for r in records)
    # every document's text is covered by its chunks, in order (nothing lost, nothing reordered)
    by_doc: dict[str, list[dict]] = {}
    for r in records:
        by_doc.setdefault(r["document_id"], []).append(r)
    for rs in by_doc.values():
        assert [r["index"] for r in rs] == list(range(len(rs)))
        assert all(a["end_index"] <= b["start_index"] for a, b in zip(rs, rs[1:]))


def test_one_bad_file_among_good_ones_with_two_workers(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    for i in range(5):
        (root / f"{i}.txt").write_text(_text(i), encoding="utf-8")
    (root / "2b.docx").write_bytes(b"PK\x03\x04 not really a zip")
    out = tmp_path / "out.jsonl"
    code, log = _run(str(root), "-u", "chars", "-n", "200", "-j", "2", "--no-progress", "-o", str(out))
    assert code == 1
    assert "skipped" in log and "2b.docx" in log and "5 documents" in log
    sources = list(dict.fromkeys(json.loads(line)["source"] for line in out.read_text().splitlines()))
    assert [Path(s).name for s in sources] == ["0.txt", "1.txt", "2.txt", "3.txt", "4.txt"]


def _cli_command() -> list[str]:
    script = Path(sys.executable).with_name("chunkwise")
    return [str(script)] if script.exists() else [sys.executable, "-m", "chunkwise.cli"]


def _kept_documents(whole: bytes, size: int) -> int:
    """How many documents of the output ``whole`` have a complete line in its first ``size``
    bytes: those written whole, and the one whose write a kill stopped after a line, which
    ``--resume`` completes in place."""
    firsts: dict[str, int] = {}
    pos = 0
    for line in whole.splitlines(keepends=True):
        pos += len(line)
        firsts.setdefault(json.loads(line)["document_id"], pos)
    return sum(end <= size for end in firsts.values())


def _resumed(log: str) -> int:
    import re

    m = re.search(r"(\d+) documents? already in the output", log)
    assert m, log
    return int(m.group(1))


def test_resume_after_a_killed_run_completes_it_without_duplicates(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    for i in range(500):
        (root / f"f{i:04d}.txt").write_text(_text(i, 24), encoding="utf-8")
    args = [str(root), "-u", "chars", "-n", "150", "-j", "2", "--no-progress"]
    whole = tmp_path / "whole.jsonl"
    subprocess.run([*_cli_command(), "chunk", *args, "-o", str(whole)], check=True, capture_output=True)
    part = tmp_path / "part.jsonl"
    proc = subprocess.Popen(
        [*_cli_command(), "chunk", *args, "--resume", "-o", str(part)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while (not part.exists() or part.stat().st_size < 20_000) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    killed = proc.poll() is None
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    size = part.stat().st_size
    if killed:  # killed midway: part of the output only
        assert 0 < size < whole.stat().st_size
        assert proc.returncode == -signal.SIGKILL
    killed_bytes = part.read_bytes()
    assert whole.read_bytes().startswith(killed_bytes)  # written in input order, whatever the worker
    result = subprocess.run(
        [*_cli_command(), "chunk", *args, "--resume", "-o", str(part)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    # every document begun before the kill is kept where it was (completed in place), none written again
    assert _resumed(result.stderr) == _kept_documents(whole.read_bytes(), size)
    assert part.read_bytes() == whole.read_bytes()
    ids = [json.loads(line)["id"] for line in part.read_text().splitlines()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("cut", [0, 1, 0.37, 0.5, 0.999, -1])
def test_resume_repairs_a_file_cut_at_any_byte(mixed: Path, tmp_path: Path, cut: float) -> None:
    """A kill can stop a write anywhere: mid-line, at a line's end, inside a document."""
    args = [str(mixed), "-u", "chars", "-n", "100", "--no-progress"]
    whole = tmp_path / "whole.jsonl"
    assert _run(*args, "-o", str(whole))[0] == 1
    data = whole.read_bytes()
    at = len(data) if cut == -1 else int(len(data) * cut) if isinstance(cut, float) else cut
    part = tmp_path / "part.jsonl"
    part.write_bytes(data[:at])
    code, log = _run(*args, "--resume", "-j", "2", "-o", str(part))
    assert code == 1, log  # the bad file, again
    assert part.read_bytes() == data
    assert _resumed(log) == _kept_documents(data, at)  # the last document begun is kept in place, not redone


def test_resume_around_every_document_end_keeps_the_whole_documents_in_place(mixed: Path, tmp_path: Path) -> None:
    """Killed right after a document's write, one byte before its end, or a few bytes into
    the next document's first line: the documents written whole are neither cut back nor
    chunked into the file again, and the file ends as an uninterrupted run's."""
    args = [str(mixed), "-u", "chars", "-n", "100", "--no-progress", "-j", "1"]
    whole = tmp_path / "whole.jsonl"
    assert _run(*args, "-o", str(whole))[0] == 1
    data = whole.read_bytes()
    ends, pos, last = [], 0, None
    for line in data.splitlines(keepends=True):
        did = json.loads(line)["document_id"]
        if last is not None and did != last:
            ends.append(pos)
        last, pos = did, pos + len(line)
    assert len(ends) >= 8
    part = tmp_path / "part.jsonl"
    for end in ends:
        for at in (end - 1, end, end + 5):
            part.write_bytes(data[:at])
            code, log = _run(*args, "--resume", "-o", str(part))
            assert code == 1, log
            assert part.read_bytes() == data, at
            assert _resumed(log) == _kept_documents(data, at), (at, log)


def test_resume_refuses_what_it_cannot_append_to(mixed: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"id": "x"}\n')
    code, log = _run(str(mixed), "--resume", "-o", str(foreign))
    assert code == 2 and "line 1" in log and "without --resume" in log
    assert foreign.read_text() == '{"id": "x"}\n'
    code, log = _run(str(mixed), "--resume", "-o", str(tmp_path / "c.parquet"))
    assert code == 2 and "JSON lines" in log
    code, log = _run(str(mixed), "--resume")
    assert code == 2 and "-o FILE.jsonl" in log


def test_resume_with_another_configuration_is_refused(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    _run(str(mixed), "-u", "chars", "-n", "100", "--resume", "--no-progress", "-o", str(out))
    before = out.read_bytes()
    code, log = _run(str(mixed), "-u", "chars", "-n", "300", "--resume", "--no-progress", "-o", str(out))
    # refused before any work (the lines' config_id is another run's): nothing appended, no document twice
    assert code == 2 and "written with other chunking options" in log and "without --resume" in log
    assert out.read_bytes() == before


def test_parquet_round_trip_equals_json_lines(mixed: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    args = [str(mixed), "-u", "chars", "-n", "80", "--no-progress"]
    assert _run(*args, "-o", str(tmp_path / "c.jsonl"))[0] == 1
    assert _run(*args, "-j", "2", "-o", str(tmp_path / "c.parquet"))[0] == 1
    assert _run(*args, "--output-format", "parquet", "-o", str(tmp_path / "c.data"))[0] == 1
    lines = [json.loads(line) for line in (tmp_path / "c.jsonl").read_text().splitlines()]
    table = pq.read_table(tmp_path / "c.parquet")
    assert table.num_rows == len(lines)
    assert (tmp_path / "c.data").read_bytes() == (tmp_path / "c.parquet").read_bytes()
    for row, line in zip(table.to_pylist(), lines):
        assert json.loads(row["metadata"]) == line["metadata"]
        assert {k: row[k] for k in line if k != "metadata"} == {k: v for k, v in line.items() if k != "metadata"}
        assert row["header_path"] == line["metadata"].get("header_path")
        assert row["boundary"] == line["metadata"]["boundary"]
    assert any(row["header_path"] for row in table.to_pylist())
    assert not list(tmp_path.glob(".c.parquet.*"))  # no temporary left


def test_parquet_writer_streams_row_groups(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from chunkwise.export import ParquetWriter, chunk_record

    doc = chunkwise.Document(_text(3, 40), source="x.txt")
    chunks = chunkwise.chunk(doc, chunk_size=60)
    with ParquetWriter(tmp_path / "x.parquet", row_group_size=10) as w:
        for c in chunks:
            w.write([chunk_record(c, doc)])
    meta = pq.ParquetFile(tmp_path / "x.parquet").metadata
    assert meta.num_rows == len(chunks) and meta.num_row_groups == -(-len(chunks) // 10)
    with pytest.raises(RuntimeError), ParquetWriter(tmp_path / "x.parquet") as w:
        w.write([chunk_record(chunks[0], doc)])
        raise RuntimeError("stop")
    assert pq.ParquetFile(tmp_path / "x.parquet").metadata.num_rows == len(chunks)  # left as it was


@pytest.mark.parametrize("name", ["x.csv", "x.txt", "chunks.parquet.bak"])
def test_an_unknown_output_suffix_is_a_usage_error_naming_the_formats(mixed: Path, tmp_path: Path, name: str) -> None:
    code, log = _run(str(mixed), "-o", str(tmp_path / name))
    assert code == 2 and "jsonl" in log and "parquet" in log and "--output-format" in log
    assert not (tmp_path / name).exists()
    code, log = _run(str(mixed), "--output-format", "parquet")
    assert code == 2 and "FILE.parquet" in log


def test_chunk_corpus_yields_lazily_the_same_chunks_for_any_workers(mixed: Path) -> None:
    (mixed / "sub" / "bad.txt").unlink()
    gen = chunkwise.chunk_corpus(mixed, chunk_size=100, workers=2)
    assert isinstance(gen, types.GeneratorType)
    two = list(gen)
    one = list(chunkwise.chunk_corpus(mixed, chunk_size=100, workers=1))
    assert [c.to_dict() for c in two] == [c.to_dict() for c in one]
    expected = []
    for f in chunkwise.loaders.find_files([mixed]):
        expected += chunkwise.chunk(chunkwise.load(f), chunk_size=100)  # auto, as chunk_corpus
    assert [c.to_dict() for c in one] == [c.to_dict() for c in expected]


def test_chunk_corpus_errors_raise_or_skip(mixed: Path) -> None:
    with pytest.raises(chunkwise.LoadError, match="bad.txt"):
        list(chunkwise.chunk_corpus(mixed, chunk_size=100, workers=2, encoding="utf-8"))
    kept = list(chunkwise.chunk_corpus(mixed, chunk_size=100, workers=2, encoding="utf-8", errors="skip"))
    assert kept and not any(c.metadata.get("filename") == "bad.txt" for c in kept)
    with pytest.raises(chunkwise.ConfigError, match="workers"):
        list(chunkwise.chunk_corpus(mixed, workers=0))
    with pytest.raises(chunkwise.ConfigError, match="errors"):
        list(chunkwise.chunk_corpus(mixed, errors="ignore"))


def _read_text(item: str) -> chunkwise.Document:
    return chunkwise.Document(item)


def test_the_pool_holds_a_bounded_window_of_documents() -> None:
    """Memory is bounded by the window, not the corpus: items are pulled one per result."""
    pulled = []

    def items():
        for i in range(200):
            pulled.append(i)
            yield _text(i, 2)

    job = _Job(chunker=chunkwise.make_chunker("recursive", chunk_size=50), reader=_read_text, config="k")
    results = ordered_map(job, items(), workers=2, window=6, batch=3)
    first = next(results)
    assert first.chunks and len(pulled) <= (6 + 1) * 3
    rest = list(results)
    assert len(rest) == 199 and len(pulled) == 200
    assert [c.text for c in rest[-1].chunks] == [c.text for c in chunkwise.chunk(_text(199, 2), chunk_size=50)]


def test_content_ids_follow_text_and_configuration() -> None:
    a = chunkwise.make_chunker("recursive", chunk_size=50)
    b = chunkwise.make_chunker("recursive", chunk_size=60)
    assert config_key(a) == config_key(chunkwise.make_chunker("recursive", chunk_size=50)) != config_key(b)
    counted = chunkwise.make_chunker("recursive", chunk_size=50, unit="tokens", tokenizer=lambda t: len(t.split()))
    assert " at 0x" in repr(counted) and "0x" not in config_key(counted)  # the same key in every run


def test_tasks_by_weight_hold_a_bounded_number_of_bytes_and_files() -> None:
    from chunkwise.corpus import BATCH_BYTES, BATCH_MAX, _batches

    sizes = [10_000] * 100 + [BATCH_BYTES * 3] + [1] * 200 + [BATCH_BYTES // 2 + 1] * 5
    tasks = list(_batches(iter(range(len(sizes))), 4, lambda i: sizes[i]))
    assert [i for t in tasks for i in t] == list(range(len(sizes)))  # every item once, in order
    for t in tasks:
        assert 1 <= len(t) <= BATCH_MAX
        assert len(t) == 1 or sum(sizes[i] for i in t) <= BATCH_BYTES  # a heavier item travels alone
    assert [100] in tasks  # the large file
    assert max(len(t) for t in tasks) == BATCH_MAX  # the tiny files, 64 a task
    assert [len(t) for t in _batches(iter(range(10)), 4, None)] == [4, 4, 2]


def test_weighted_tasks_give_the_outcomes_in_input_order_with_their_items() -> None:
    texts = [_text(i, 1 + i % 7) for i in range(120)]
    job = _Job(chunker=chunkwise.make_chunker("recursive", chunk_size=80), reader=_read_text, config="k")
    outs = list(ordered_map(job, iter(texts), workers=2, weight=len))
    assert [o.item for o in outs] == texts
    assert [[c.text for c in o.chunks] for o in outs] == [
        [c.text for c in chunkwise.chunk(t, chunk_size=80)] for t in texts
    ]


def test_size_statistics_of_whole_documents_equal_those_of_one_chunk_at_a_time() -> None:
    """``chunk`` adds each document's sizes at once (the pool's parent does O(1) work per
    document): the summary's mean, std, min and max are those of adding them one by one."""
    import random

    from chunkwise.cli import _Stats

    r = random.Random(5)
    docs = [[r.randint(1, 2000) for _ in range(r.randint(0, 300))] for _ in range(200)] + [[7], [], [10**6]]
    one, many = _Stats(), _Stats()
    for sizes in docs:
        for s in sizes:
            one.add(s)
        many.add_many(sizes)
    assert (many.n, many.min, many.max) == (one.n, one.min, one.max)
    assert many.mean == pytest.approx(one.mean, rel=1e-12) and many.std == pytest.approx(one.std, rel=1e-9)
    floats = _Stats()
    floats.add_many([1.5, 2.5])  # sizes of a custom measure need not be integers
    assert (floats.n, floats.mean, floats.min) == (2, 2.0, 1.5)


def _render_repeated(chunks: list, doc: chunkwise.Document, cid: str) -> bytes:
    """A payload of bytes whose length follows the text (the spool's case: JSON lines)."""
    if not chunks:
        return b""
    times = 40_000 if doc.text.startswith("Large") else 1
    return (cid + "|" + "|".join(c.text for c in chunks) + "\n").encode() * times


def test_payloads_that_are_bytes_come_back_through_the_spool_files_whole_and_in_order() -> None:
    from chunkwise.corpus import _context, _Spool

    texts = [_text(i, 1 + i % 5) for i in range(150)]
    texts[40] = "Large " + texts[40]  # about 10 MB of lines: its slot file is cut back once read
    texts[41] = ""  # no chunk: an empty payload
    job = _Job(chunker=chunkwise.make_chunker("recursive", chunk_size=80), reader=_read_text, config="k",
               render=_render_repeated)
    one = list(ordered_map(job, iter(texts), workers=1))
    two = list(ordered_map(job, iter(texts), workers=2, weight=len))
    assert [o.payload for o in two] == [o.payload for o in one]
    assert len(two[40].payload) > _Spool.SHRINK and two[41].payload == b"" and two[41].sizes == []
    assert all(o.spooled == -1 and o.item == t for o, t in zip(two, texts))
    if _Spool.usable(_context()):  # POSIX with fork: the slots are unnamed files, closed after the run
        spool = _Spool(2)
        assert [os.fstat(fd).st_nlink for fd in spool.fds] == [0, 0]
        spool.close()


def test_chunk_corpus_of_one_folder_classifies_in_the_workers_what_find_files_finds(mixed: Path) -> None:
    from chunkwise.corpus import _listed

    (mixed / "sub" / "bad.txt").unlink()
    (mixed / "sub" / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)  # passed over, never raised
    root = mixed.parent
    assert _listed([mixed], None, None, root) is not None  # the workers classify the listed files
    for kwargs in ({}, {"root": root}, {"include": ["*.txt", "sub"], "exclude": ["t1.txt"]}):
        expected = []
        for f in chunkwise.loaders.find_files([mixed], **kwargs):
            expected += chunkwise.chunk(chunkwise.load(f), chunk_size=100)  # auto, as chunk_corpus
        for workers in (1, 2):
            got = list(chunkwise.chunk_corpus(mixed, chunk_size=100, workers=workers, **kwargs))
            assert [c.to_dict() for c in got] == [c.to_dict() for c in expected]
    with pytest.raises(chunkwise.ConfigError, match="not inside root"):
        list(chunkwise.chunk_corpus(mixed, chunk_size=100, workers=2, root=mixed / "sub"))


def test_without_spool_files_the_payloads_travel_through_the_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    from chunkwise import corpus

    texts = [_text(i, 2) for i in range(30)]
    job = _Job(chunker=chunkwise.make_chunker("recursive", chunk_size=80), reader=_read_text, config="k",
               render=_render_repeated)
    one = [o.payload for o in ordered_map(job, iter(texts), workers=1)]

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(corpus, "_write_at", full)  # the forked workers inherit it: every task's write fails
    assert [o.payload for o in ordered_map(job, iter(texts), workers=2)] == one
    monkeypatch.setattr(corpus._Spool, "__init__", full)  # no temporary folder at all
    assert [o.payload for o in ordered_map(job, iter(texts), workers=2)] == one
