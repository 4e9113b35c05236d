"""Command-line behaviour found by a trial over a messy tree: stopping a run with workers
at once, and the rest of the session's command-line fixes."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

import chunkwise
from chunkwise.corpus import _Job, ordered_map

# -- an interrupted run with workers stops at once ----------------------------------------


def _slow_reader(item: str) -> chunkwise.Document:
    """``slow:FOLDER``: writes its pid to FOLDER/started, then works 20 s and writes
    FOLDER/finished; any other item is a short text."""
    if item.startswith("slow:"):
        folder = Path(item[5:])
        (folder / "started").write_text(str(os.getpid()))
        time.sleep(20)
        (folder / "finished").write_text("done")
    return chunkwise.Document(f"Text {item}. " * 5)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a child not yet reaped is a zombie: gone too
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process checks")
def test_closing_a_run_early_ends_the_documents_in_work(tmp_path: Path) -> None:
    """Ctrl-C, SIGTERM or an early close: the pool is not waited for (a large document under
    a semantic strategy takes seconds); the worker chunking one is ended, its work lost."""
    job = _Job(chunker=chunkwise.make_chunker("recursive", chunk_size=50), reader=_slow_reader, config="k")
    items = ["a", f"slow:{tmp_path}", *(f"b{i}" for i in range(20))]
    results = ordered_map(job, iter(items), workers=2, batch=1)
    assert next(results).document_id is not None
    deadline = time.monotonic() + 30
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    pid = int((tmp_path / "started").read_text())
    results.close()
    assert _gone(pid)
    assert not (tmp_path / "finished").exists()


def test_a_run_read_to_its_end_is_unchanged() -> None:
    job = _Job(chunker=chunkwise.make_chunker("recursive", chunk_size=50), reader=_slow_reader, config="k")
    items = [f"t{i}" for i in range(30)]
    one = [[c.text for c in o.chunks] for o in ordered_map(job, iter(items), workers=1)]
    two = [[c.text for c in o.chunks] for o in ordered_map(job, iter(items), workers=2, batch=2)]
    assert one == two and len(one) == 30


# -- index build --rebuild re-embeds everything ---------------------------------------------


def test_rebuild_with_the_same_settings_re_embeds_every_document(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("usearch")
    from test_index import CountingEmbedder, _chunker, _folder

    from chunkwise.index import Index, build_index

    src = _folder(tmp_path)
    first = build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    emb = CountingEmbedder()
    again = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb, rebuild=True)
    expected = sorted(c.text_for_embedding() for f in sorted(src.iterdir())
                      for c in _chunker().chunk(chunkwise.load(f, root=src)))
    assert sorted(emb.texts) == expected and again.embedded == len(expected) > 0
    assert len(again.changed) == 3 and not again.unchanged and again.generation == first.generation + 1
    with Index(tmp_path / "ix", model=emb) as index:
        assert index.info()["chunks"] == len(expected)  # the old chunks replaced, not doubled
    # without --rebuild nothing is embedded again
    quiet = CountingEmbedder()
    assert build_index([src], tmp_path / "ix", chunker=_chunker(), model=quiet).embedded == 0 and quiet.texts == []


# -- a warning while the progress bar is drawn: on a line of its own -----------------------


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_loader_warning_is_not_written_into_the_progress_bar(tmp_path: Path, workers: str) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(4):
        (docs / f"a{i}.txt").write_text("Plain text here. " * 50, encoding="utf-8")
    (docs / "b.txt").write_bytes(("Caf\u00e9 au lait. " * 40).encode("utf-8") + b"\xff\xfe bad" + b" More words." * 20)
    result = CliRunner().invoke(cli, ["chunk", str(docs), "-o", str(tmp_path / "o.jsonl"), "--progress", "-j", workers])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.split("\n") if "UTF-8 with" in line]
    assert len(said) == 1
    assert said[0].rsplit("\r", 1)[-1].startswith(f"{docs / 'b.txt'}: UTF-8 with 2 invalid byte sequence"), said
    assert "chunking" in result.output  # the bar was drawn


# -- skipped files are reported in input order --------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_skipped_files_are_reported_in_input_order(tmp_path: Path, workers: str) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "a_empty.txt").write_bytes(b"")  # found to be empty when read
    (docs / "b.so").write_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 60)  # passed over when the folder is listed
    (docs / "c.md").write_text("# C\n\nSome text to chunk.\n", encoding="utf-8")
    (docs / "d_empty.txt").write_bytes(b"   \n")
    (docs / "e.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    (docs / "sub" / "f.txt").write_text("More text.\n", encoding="utf-8")
    (docs / "z_link.md").symlink_to(docs / "c.md")  # a link: the folder is gathered, not streamed
    result = CliRunner().invoke(cli, ["chunk", str(docs), "-o", str(tmp_path / "o.jsonl"), "-j", workers,
                                      "--no-progress", "--verbose"])
    assert result.exit_code == 1, result.output  # unsupported files: a failure
    said = [line.split(":", 1)[0].rsplit("/", 1)[-1] for line in result.output.splitlines()
            if line.startswith("skipped ") and ":" in line and not line.startswith("skipped 4 files")]
    assert said == ["a_empty.txt", "b.so", "d_empty.txt", "e.png"]
    listed = [line.strip().split(" ", 1)[0].rsplit("/", 1)[-1] for line in result.output.splitlines()
              if line.startswith("  ")]
    assert listed == said


# -- a reader of standard output that leaves (`| head -1`) -----------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_chunk_stops_quietly_with_141_when_the_reader_leaves(tmp_path: Path, workers: str) -> None:
    import subprocess

    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(6):
        (docs / f"n{i}.md").write_text(("# Part\n\n" + "A sentence about pumps. " * 30 + "\n\n") * 20, encoding="utf-8")
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader left before the first line
    try:
        r = subprocess.run([sys.executable, "-m", "chunkwise", "chunk", str(docs), "-j", workers, "--no-progress"],
                           stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=120)
    finally:
        os.close(write_end)
    assert r.returncode == 141, r.stderr
    assert r.stderr == ""  # nothing said: no traceback, no summary
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs"]  # no file written


def test_index_build_says_a_loader_warning_above_its_progress_bar(tmp_path: Path, monkeypatch) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("usearch")
    import logging

    from click.testing import CliRunner
    from test_index import CountingEmbedder, _folder

    from chunkwise import embeddings
    from chunkwise.cli import cli

    monkeypatch.setattr(embeddings, "RETRIEVAL_MODEL", CountingEmbedder())
    src = _folder(tmp_path)
    (src / "bad.txt").write_bytes(("Caf\u00e9 au lait. " * 40).encode("utf-8") + b"\xff\xfe bad" + b" More." * 20)
    logger = logging.getLogger("chunkwise")
    before = (list(logger.handlers), logger.propagate)
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(tmp_path / "ix"), "-n", "20", "--progress"])
    assert r.exit_code == 0, r.output
    said = [line for line in r.output.split("\n") if "UTF-8 with" in line]
    assert len(said) == 1 and said[0].rsplit("\r", 1)[-1].startswith(f"{src / 'bad.txt'}: UTF-8 with 2 invalid"), said
    assert "indexing" in r.output
    assert (list(logger.handlers), logger.propagate) == before  # the logger as it was
