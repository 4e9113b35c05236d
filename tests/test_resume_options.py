"""``config_id``: every record of ``chunkwise chunk`` carries a hash of the chunking
configuration alone, and ``--resume`` refuses a file written with other options before
appending anything (a usage error, the file as it was). Files written before the key keep
their behaviour: other options there are reported document by document as ``changed``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.corpus import config_id, config_key
from chunkwise.export import chunk_record, dumps, jsonl_lines, parquet_row, record_of_row

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()


def _text(i: int, paragraphs: int = 12) -> str:
    r = random.Random(i)
    return "\n\n".join(
        ". ".join(" ".join(r.choice(WORDS) for _ in range(r.randint(4, 12))).capitalize() for _ in range(3)) + "."
        for _ in range(paragraphs)
    )


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(5):
        (folder / f"d{i}.{'md' if i % 2 else 'txt'}").write_text(_text(i), encoding="utf-8")
    return folder


def _chunk(docs: Path, out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["chunk", str(docs), "-u", "chars", "--no-progress", "--workers", "1", "-o", str(out), *args]
    )
    return result.exit_code, result.stderr


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def _without_config_id(data: bytes) -> bytes:
    return re.sub(rb', "config_id": "[0-9a-f]{16}"}\n', b"}\n", data)


def test_every_record_carries_one_config_id_next_to_the_content_id(docs: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _chunk(docs, a, "-n", "96")[0] == 0
    assert _chunk(docs, b, "-n", "50")[0] == 0
    ra, rb = _records(a), _records(b)
    assert all(list(r)[-2:] == ["content_id", "config_id"] for r in ra + rb)
    assert list(ra[0])[:-1] == [*chunk_record(chunkwise.Chunk("x", 0, 1, 1), chunkwise.Document("x")), "content_id"]
    ids_a, ids_b = {r["config_id"] for r in ra}, {r["config_id"] for r in rb}
    assert len(ids_a) == len(ids_b) == 1 and ids_a != ids_b
    assert re.fullmatch(r"[0-9a-f]{16}", ids_a.pop())
    assert len({r["content_id"] for r in ra}) == 5  # one per document, as before


def test_config_id_hashes_the_configuration_alone() -> None:
    k1 = config_key(chunkwise.make_chunker("recursive", chunk_size=96, unit="chars"))
    k2 = config_key(chunkwise.make_chunker("recursive", chunk_size=50, unit="chars"))
    assert config_id(k1) == config_id(k1) != config_id(k2)
    assert re.fullmatch(r"[0-9a-f]{16}", config_id(k1))


@pytest.mark.parametrize("cut", [0.3, 0.61, 1.0])
def test_resume_with_other_options_is_refused_and_the_file_left_alone(docs: Path, tmp_path: Path, cut: float) -> None:
    full = tmp_path / "full.jsonl"
    assert _chunk(docs, full, "-n", "96")[0] == 0
    out = tmp_path / "t.jsonl"
    data = full.read_bytes()[: int(len(full.read_bytes()) * cut)]  # a run killed midway (or finished)
    out.write_bytes(data)
    for other in (["-n", "50"], ["-n", "96", "--chunk-overlap", "10"], ["-n", "96", "-s", "sentence"]):
        code, log = _chunk(docs, out, *other, "--resume")
        assert code == 2, log
        assert "written with other chunking options" in log and "without --resume" in log
        assert "--resume with the options that wrote it" in log
        assert out.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no lock or temporary left
    # with the options that wrote it, the file is completed as an uninterrupted run writes it
    code, log = _chunk(docs, out, "-n", "96", "--resume")
    assert code == 0, log
    assert out.read_bytes() == full.read_bytes()


def test_resume_with_the_same_options_after_a_kill_equals_an_uninterrupted_run(docs: Path, tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    assert _chunk(docs, full, "-n", "80")[0] == 0
    whole = full.read_bytes()
    out = tmp_path / "t.jsonl"
    for at in sorted({1, 57, len(whole) // 3, len(whole) // 2 + 13, len(whole) - 5, whole.index(b"\n") + 1}):
        out.write_bytes(whole[:at])
        code, log = _chunk(docs, out, "-n", "80", "--resume")
        assert code == 0, (at, log)
        assert out.read_bytes() == whole, at


def test_a_file_without_config_id_still_resumes(docs: Path, tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    assert _chunk(docs, full, "-n", "80")[0] == 0
    old = _without_config_id(full.read_bytes())
    assert b'"config_id"' not in old
    out = tmp_path / "t.jsonl"
    out.write_bytes(old[: len(old) // 2])
    code, log = _chunk(docs, out, "-n", "80", "--resume")
    assert code == 0, log
    got, want = _records(out), _records(full)
    strip = [{k: v for k, v in r.items() if k != "config_id"} for r in got]
    assert strip == [{k: v for k, v in r.items() if k != "config_id"} for r in want]
    # the old lines are kept as they were; what this run wrote carries its config_id
    assert {r.get("config_id") for r in got} <= {None, want[0]["config_id"]}
    # other options on an old file: today's behaviour, document by document (no refusal)
    out.write_bytes(old)
    code, log = _chunk(docs, out, "-n", "50", "--resume")
    assert code == 1 and "5 changed" in log and "written with other chunking options" not in log
    assert out.read_bytes() == old


def test_an_edited_document_under_the_same_options_is_still_reported_changed(docs: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert _chunk(docs, out, "-n", "80")[0] == 0
    before = out.read_bytes()
    (docs / "d0.txt").write_text(_text(99), encoding="utf-8")
    code, log = _chunk(docs, out, "-n", "80", "--resume")
    assert code == 1 and "d0.txt (changed)" in log and "written with other chunking options" not in log
    assert out.read_bytes() == before


def test_parquet_output_has_the_config_id_column(docs: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    jl, pa_out = tmp_path / "a.jsonl", tmp_path / "a.parquet"
    assert _chunk(docs, jl, "-n", "96")[0] == 0
    assert _chunk(docs, pa_out, "-n", "96")[0] == 0
    table = pq.read_table(str(pa_out))
    names = table.column_names
    assert names[names.index("content_id") + 1] == "config_id"
    assert table.column("config_id").to_pylist() == [r["config_id"] for r in _records(jl)]
    assert [record_of_row(r) for r in table.to_pylist()] == _records(jl)


def test_jsonl_lines_with_a_config_id_equal_the_records_written_by_dumps() -> None:
    doc = chunkwise.Document(text=_text(3), id="d", source="d.txt", metadata={"k": [1, "two"]})
    chunks = chunkwise.make_chunker("recursive", chunk_size=120, unit="chars").chunk(doc)
    want = "".join(dumps({**chunk_record(c, doc), "content_id": "c1", "config_id": "f" * 16}) + "\n" for c in chunks)
    assert jsonl_lines(chunks, doc, "c1", "f" * 16) == want.encode("utf-8")
    # without a content id there is no config id either; without a config id, the lines as before
    assert jsonl_lines(chunks, doc, None, "f" * 16) == jsonl_lines(chunks, doc)
    assert b"config_id" not in jsonl_lines(chunks, doc, "c1")


def test_record_of_row_keeps_a_config_id_and_leaves_out_a_missing_one() -> None:
    doc = chunkwise.Document(text="Some text here.", id="d", source="d.txt")
    (chunk,) = chunkwise.chunk(doc)
    rec = {**chunk_record(chunk, doc), "content_id": "c"}
    assert record_of_row(parquet_row(rec)) == rec
    assert "config_id" not in record_of_row(parquet_row(rec))
    cfg = "0123456789abcdef"
    assert record_of_row(parquet_row({**rec, "config_id": cfg})) == {**rec, "config_id": cfg}


def test_resume_with_another_root_is_refused_and_the_file_left_alone(docs: Path, tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    assert _chunk(docs, full, "-n", "80")[0] == 0
    out = tmp_path / "t.jsonl"
    data = full.read_bytes()[: len(full.read_bytes()) // 2]  # a run killed midway, without --root
    for other in (["--root", str(tmp_path)], ["--root", str(docs)], ["--encoding", "latin-1"]):
        out.write_bytes(data)
        code, log = _chunk(docs, out, "-n", "80", "--resume", *other)
        assert code == 2, (other, log)
        assert "written with other chunking options" in log and "without --resume" in log
        assert out.read_bytes() == data
    code, log = _chunk(docs, out, "-n", "80", "--resume")
    assert code == 0, log
    assert out.read_bytes() == full.read_bytes()


def test_the_same_root_spelt_otherwise_resumes(docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = tmp_path / "full.jsonl"
    assert _chunk(docs, full, "-n", "80", "--root", str(tmp_path))[0] == 0
    whole = full.read_bytes()
    monkeypatch.chdir(docs)
    out = tmp_path / "t.jsonl"
    for spelt in (str(tmp_path) + "/", "..", "../", str(docs / "..")):
        out.write_bytes(whole[: len(whole) // 2])
        code, log = _chunk(docs, out, "-n", "80", "--resume", "--root", spelt)
        assert code == 0, (spelt, log)
        assert out.read_bytes() == whole, spelt


def test_an_encoding_change_is_refused_and_the_same_codec_spelt_otherwise_resumes(docs: Path, tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    assert _chunk(docs, full, "-n", "80", "--encoding", "latin-1")[0] == 0
    whole = full.read_bytes()
    out = tmp_path / "t.jsonl"
    for other in ([], ["--encoding", "utf-8"]):
        out.write_bytes(whole[: len(whole) // 2])
        code, log = _chunk(docs, out, "-n", "80", "--resume", *other)
        assert code == 2 and "written with other chunking options" in log, (other, log)
        assert out.read_bytes() == whole[: len(whole) // 2]
    code, log = _chunk(docs, out, "-n", "80", "--resume", "--encoding", "ISO-8859-1")
    assert code == 0, log
    assert out.read_bytes() == whole


def test_loader_options_enter_the_config_id(docs: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _chunk(docs, a, "-n", "80")[0] == 0
    code, log = _chunk(docs, b, "-n", "80", "-L", "pages=1")
    if code != 0:
        pytest.skip(f"no such loader option here: {log}")
    assert {r["config_id"] for r in _records(a)} != {r["config_id"] for r in _records(b)}


def test_workers_and_progress_leave_the_output_as_it_is(docs: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _chunk(docs, a, "-n", "80")[0] == 0
    result = CliRunner().invoke(cli, ["chunk", str(docs), "-u", "chars", "-n", "80", "--workers", "3",
                                      "--progress", "-o", str(b)])
    assert result.exit_code == 0, result.output
    assert a.read_bytes() == b.read_bytes()
    half = a.read_bytes()[: len(a.read_bytes()) // 2]
    b.write_bytes(half)
    result = CliRunner().invoke(cli, ["chunk", str(docs), "-u", "chars", "-n", "80", "--workers", "2",
                                      "--progress", "--resume", "-o", str(b)])
    assert result.exit_code == 0, result.output
    assert b.read_bytes() == a.read_bytes()
