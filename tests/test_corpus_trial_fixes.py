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
