"""chunk_dataset(errors="report"/"skip"): a file that gives no chunk (zero bytes, white
space only) is reported as chunk_corpus lists it in ``skipped``, not dropped silently.
The batch function runs here without a Ray cluster (on a pyarrow table, as a task gets
it); the command line's ``--engine ray`` keeps its own report of empty files."""

from __future__ import annotations

import functools
import logging

import pytest

pytest.importorskip("ray.data")
pa = pytest.importorskip("pyarrow")

import chunkwise  # noqa: E402
import chunkwise.ray as cray  # noqa: E402


def _files(tmp_path):
    files = {
        "a.txt": b"Some text here. More text follows.\n",
        "empty.txt": b"",
        "ws.txt": b"  \n\t\n",
        "bin.txt": bytes(range(256)) * 12,
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return files


def _batch(tmp_path, files):
    return pa.table({"bytes": list(files.values()), "path": [str(tmp_path / n) for n in files]})


def _run(tmp_path, files, errors, empty=True):
    chunker = chunkwise.make_chunker("auto", chunk_size=300)
    naming = functools.partial(cray._by_root, str(tmp_path))
    table = cray._chunk_batch(
        _batch(tmp_path, files), chunker=chunker, config=cray.config_key(chunker), naming=naming, encoding=None,
        options={}, errors=errors, describe=cray._describe, empty=empty,
    )
    return table.to_pylist()


def test_report_names_every_file_local_skips(tmp_path):
    files = _files(tmp_path)
    rows = _run(tmp_path, files, "report")
    reported = sorted(r["source"].rsplit("/", 1)[-1] for r in rows if r["error"] is not None)
    skipped: list[tuple[str, str]] = []
    list(chunkwise.chunk_corpus(str(tmp_path), strategy="auto", chunk_size=300, errors="skip", skipped=skipped))
    assert reported == sorted(p.rsplit("/", 1)[-1] for p, _ in skipped) == ["bin.txt", "empty.txt", "ws.txt"]
    by_name = {r["source"].rsplit("/", 1)[-1]: r["error"] for r in rows if r["error"] is not None}
    local = {p.rsplit("/", 1)[-1]: reason for p, reason in skipped}
    assert by_name["empty.txt"].endswith(": " + local["empty.txt"])
    assert by_name["ws.txt"].endswith(": empty: no text to chunk")
    assert [r["text"] for r in rows if r["error"] is None] == ["Some text here. More text follows."]


def test_skip_logs_the_empty_files(tmp_path, caplog):
    files = _files(tmp_path)
    with caplog.at_level(logging.INFO, logger="chunkwise.ray"):
        rows = _run(tmp_path, files, "skip")
    assert [r["text"] for r in rows] == ["Some text here. More text follows."]
    assert "error" not in rows[0]
    logged = caplog.text
    assert "empty.txt: empty: no text to chunk" in logged and "ws.txt: empty: no text to chunk" in logged


def test_the_command_line_engine_keeps_its_own_empty_report(tmp_path):
    # (chunk --engine ray reports a document without rows itself, as "zero bytes" etc.)
    files = _files(tmp_path)
    rows = _run(tmp_path, files, "report", empty=False)
    assert sorted(r["source"].rsplit("/", 1)[-1] for r in rows if r["error"] is not None) == ["bin.txt"]
