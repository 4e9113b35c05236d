"""Ray Data: chunkwise.ray.chunk_dataset and ``chunkwise chunk --engine ray`` on a local
Ray cluster the tests start (2 CPUs), against the single-process run; and the README's Ray
example.

Run by ``tests/test_ray.py`` in a process of its own (a Ray runtime that aborts must not
take the test session with it): ``python -m pytest tests/ray_cases.py``. Ray is the extra
``chunkwise[ray]`` (not in ``all``: about 240 MB installed; the ``test`` extra, which CI
installs, brings it); without it these tests skip."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray Data tests need the ray extra: pip install 'chunkwise[ray]'")
pytest.importorskip("pyarrow", reason="Ray Data needs pyarrow")

import chunkwise  # noqa: E402
from chunkwise import ConfigError  # noqa: E402
from chunkwise.corpus import config_id, config_key, content_id  # noqa: E402
from chunkwise.export import chunk_record  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
STRUCTURE = ROOT / "tests" / "corpus" / "structure"


def test_readme_ray_example_runs():
    """The README's Ray block (a ```py block: run here, not by test_readme, in this process
    of its own); it starts and stops its own local cluster, so it runs before the others."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```py\n(.*?)```", readme, flags=re.S) if "chunkwise.ray" in b]
    assert len(blocks) == 1
    assert not ray.is_initialized()
    namespace = {"__name__": "readme"}
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(blocks[0], "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert namespace["chunks"].count() == len(
        list(chunkwise.chunk_corpus(ROOT / "data" / "chroma_eval" / "corpora", strategy="markdown", chunk_size=512,
                                    workers=1))
    )
    assert not ray.is_initialized()


@pytest.fixture(scope="module")
def cluster():
    if ray.is_initialized():
        pytest.skip("a Ray runtime is already initialised in this process")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Markdown, HTML and text files in nested folders, one of them not a PDF at all."""
    root = tmp_path_factory.mktemp("corpus")
    for name in ("sqlite-cli.md", "sqlite-wal.html", "municipal-code.txt", "sqlite-quirks.html", "features.md"):
        shutil.copy(STRUCTURE / name, root / name)
    (root / "nested").mkdir()
    shutil.copy(STRUCTURE / "service-agreement.txt", root / "nested" / "agreement.txt")
    (root / "nested" / "empty.txt").write_text("", encoding="utf-8")
    return root


def _key(rec):
    meta = rec["metadata"] if isinstance(rec["metadata"], dict) else json.loads(rec["metadata"])
    return (rec["document_id"], rec["index"], rec["start_index"], rec["end_index"], rec["id"], rec["text"],
            rec["context"], rec["size"], rec["unit"], json.dumps(meta, sort_keys=True))


def test_chunk_dataset_gives_the_chunks_of_the_single_process_run(cluster, corpus):
    import chunkwise.ray as cray

    params = {"strategy": "auto", "chunk_size": 300, "chunk_overlap": 30}
    files = ray.data.read_binary_files(str(corpus), include_paths=True)
    ds = cray.chunk_dataset(files, root=str(corpus), **params)
    rows = ds.take_all()
    local = list(chunkwise.chunk_corpus(corpus, workers=1, **params))
    assert len(rows) == len(local) > 100
    assert sorted(_key(r) for r in rows) == sorted(_key(chunk_record(c, chunkwise.Document(''))) for c in local)
    assert list(rows[0]) == list(cray.COLUMNS)
    # the content id is the one --resume recognises
    chunker = chunkwise.make_chunker("auto", chunk_size=300, chunk_overlap=30)
    doc = chunkwise.load(corpus / "features.md", root=corpus)
    mine = {r["content_id"] for r in rows if r["document_id"] == doc.id}
    assert mine == {content_id(doc.text, config_key(chunker))}


def test_write_parquet_round_trip(cluster, corpus, tmp_path):
    import pyarrow.parquet as pq

    import chunkwise.ray as cray

    files = ray.data.read_binary_files(str(corpus), include_paths=True)
    chunks = cray.chunk_dataset(files, strategy="recursive", chunk_size=500, root=str(corpus))
    chunks.write_parquet(str(tmp_path / "out"))
    table = pq.read_table(str(tmp_path / "out"))
    assert table.column_names == list(cray.COLUMNS)
    texts = table.column("text").to_pylist()
    local = list(chunkwise.chunk_corpus(corpus, strategy="recursive", chunk_size=500, workers=1))
    assert sorted(texts) == sorted(c.text for c in local)
    for row in table.to_pylist():  # every row is a span of its file's document
        doc = chunkwise.load(corpus / json.loads(row["metadata"])["relative_path"], root=corpus)
        assert doc.text[row["start_index"] : row["end_index"]] == row["text"]


def test_failed_files_raise_skip_or_report(cluster, tmp_path):
    import chunkwise.ray as cray

    (tmp_path / "good.txt").write_text("A good file. With two sentences.", encoding="utf-8")
    (tmp_path / "bad.pdf").write_bytes(b"this is not a PDF")
    files = ray.data.read_binary_files(str(tmp_path), include_paths=True)
    reported = cray.chunk_dataset(files, chunk_size=100, root=str(tmp_path), errors="report").take_all()
    errors = [r for r in reported if r["error"] is not None]
    assert len(errors) == 1 and errors[0]["source"].endswith("bad.pdf") and "read" in errors[0]["error"]
    assert [r["text"] for r in reported if r["error"] is None] == ["A good file. With two sentences."]
    skipped = cray.chunk_dataset(files, chunk_size=100, root=str(tmp_path), errors="skip").take_all()
    assert [r["text"] for r in skipped] == ["A good file. With two sentences."]
    with pytest.raises(Exception, match="bad.pdf"):
        cray.chunk_dataset(files, chunk_size=100, root=str(tmp_path)).take_all()
    with pytest.raises(ConfigError, match="errors="):
        cray.chunk_dataset(files, errors="ignore")
    with pytest.raises(ConfigError, match="read_binary_files"):
        cray.chunk_dataset(ray.data.from_items([{"text": "x"}]))


def test_cli_engine_ray_writes_the_same_file_as_the_local_engine(cluster, corpus, tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    (tmp_path / "in").mkdir()
    shutil.copytree(corpus, tmp_path / "in" / "docs")
    (tmp_path / "in" / "docs" / "broken.pdf").write_bytes(b"not a PDF either")
    args = ["chunk", str(tmp_path / "in" / "docs"), "--strategy", "markdown", "--chunk-size", "200"]
    local = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "local.jsonl"), "--workers", "1"])
    remote = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "ray.jsonl"), "--engine", "ray"])
    assert local.exit_code == remote.exit_code == 1, (local.output, remote.output)
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "ray.jsonl").read_bytes()
    skipped = [line for line in local.output.splitlines() if line.startswith("skipped ")]
    assert skipped and skipped == [line for line in remote.output.splitlines() if line.startswith("skipped ")]
    def summary(output):
        return next(line for line in output.splitlines() if re.match(r"\d+ documents?, \d+ chunks?;", line)).split(";")[:2]

    assert summary(remote.output) == summary(local.output)
    assert summary(remote.output)[0].startswith("6 documents, ")  # the empty file is skipped, named
    assert any("empty.txt: empty document (zero bytes)" in line for line in skipped)
    # Parquet too
    local_pq = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "local.parquet")])
    ray_pq = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "ray.parquet"), "--engine", "ray"])
    assert local_pq.exit_code == ray_pq.exit_code == 1
    import pyarrow.parquet as pq

    assert pq.read_table(str(tmp_path / "local.parquet")).equals(pq.read_table(str(tmp_path / "ray.parquet")))


def test_cli_engine_ray_usage_errors(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    (tmp_path / "a.txt").write_text("Some text.", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    bad = CliRunner().invoke(cli, ["chunk", str(tmp_path / "a.txt"), "-o", str(out), "--engine", "ray", "--resume"])
    assert bad.exit_code == 2 and "--engine ray" in bad.output
    bad = CliRunner().invoke(cli, ["chunk", str(tmp_path / "a.txt"), "-o", str(out), "--ray-address", "auto"])
    assert bad.exit_code == 2 and "--ray-address goes with --engine ray" in bad.output


def test_rows_read_back_as_the_records_of_the_json_lines_output(cluster, tmp_path):
    import chunkwise.ray as cray
    from chunkwise.commands._chunk_run import render_jsonl
    from chunkwise.export import dumps

    (tmp_path / "a.md").write_text("# Title\n\nSome text. More text here.\n\n## Part\n\nThe end.", encoding="utf-8")
    files = ray.data.read_binary_files(str(tmp_path / "a.md"), include_paths=True)
    rows = cray.chunk_dataset(files, strategy="markdown", chunk_size=20).take_all()
    chunker = chunkwise.make_chunker("markdown", chunk_size=20)
    doc = chunkwise.load(tmp_path / "a.md")
    config = config_key(chunker)
    expected = render_jsonl(chunker.chunk(doc), doc, content_id(doc.text, config), config_id(config))
    assert "".join(dumps(r) + "\n" for r in cray.records_of(rows)).encode("utf-8") == expected
