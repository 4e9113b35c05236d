"""The command line under failure: per-file errors skipped and summarised in every command,
no partial output, SIGTERM cleanup, exit statuses, standard input, --include/--exclude,
--encoding, and the strategy ``auto`` shared with the Python API."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli

TEXT = "First sentence here. Second one follows.\n\nA new paragraph starts here."


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _chunk(*args: str, **kw):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["chunk", "--unit", "chars", "--chunk-size", "40", *args], **kw)


# -- metadata JSON has no type for --------------------------------------------------------


def test_front_matter_date_is_written_as_iso_text(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    src = tmp_path / "post.md"
    src.write_text("---\ntitle: Post\ndate: 2024-01-02\ntags: [a, b]\n---\n# Post\n\nBody text.\n", encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    result = _chunk(str(src), "-o", str(out))
    assert result.exit_code == 0, result.output
    rows = _rows(out)
    assert rows and all(r["metadata"]["front_matter"]["date"] == "2024-01-02" for r in rows)
    assert rows[0]["metadata"]["front_matter"]["tags"] == ["a", "b"]


def test_the_library_and_the_cli_share_one_encoder() -> None:
    import datetime
    from types import MappingProxyType

    from chunkwise.export import dumps

    value = {
        "d": datetime.date(2024, 1, 2),
        "t": datetime.datetime(2024, 1, 2, 3, 4, 5),
        "m": MappingProxyType({"k": (1, 2)}),
        "s": {"b", "a"},
    }
    expected = {"d": "2024-01-02", "t": "2024-01-02T03:04:05", "m": {"k": [1, 2]}, "s": ["a", "b"]}
    assert json.loads(dumps(value)) == expected


def test_a_document_that_cannot_be_serialised_leaves_no_partial_lines(tmp_path: Path, monkeypatch) -> None:
    from chunkwise import export

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "docs" / "b.txt").write_text(TEXT, encoding="utf-8")
    real = export.dumps

    def failing(record):  # type: ignore[no-untyped-def]
        if record["source"].endswith("b.txt") and record["index"] == 1:  # the second chunk of b
            raise ValueError("Circular reference detected")
        return real(record)

    monkeypatch.setattr(export, "dumps", failing)
    monkeypatch.setattr(export, "_line", lambda *a: None)  # every line through dumps (the fast path's fallback)
    out = tmp_path / "chunks.jsonl"
    result = _chunk(str(tmp_path / "docs"), "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "b.txt (unserialisable)" in result.output
    rows = _rows(out)
    assert rows and {r["source"].rsplit("/", 1)[-1] for r in rows} == {"a.txt"}


# -- output --------------------------------------------------------------------------------


def test_output_naming_a_folder_is_a_usage_error_before_any_work(tmp_path: Path, monkeypatch) -> None:
    from chunkwise.commands import _inputs

    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    monkeypatch.setattr(_inputs, "read", lambda *a, **k: pytest.fail("read before the usage error"))
    result = _chunk(str(src), "-o", str(folder))
    assert result.exit_code == 2
    assert "is a folder" in result.output and "chunks.jsonl" in result.output
    assert list(folder.iterdir()) == []


def test_interrupt_removes_the_temporary_file_and_exits_130(tmp_path: Path, monkeypatch) -> None:
    from chunkwise.chunkers.recursive import RecursiveChunker

    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    out.write_text("previous\n", encoding="utf-8")

    def interrupted(self, doc):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(RecursiveChunker, "chunk", interrupted)
    result = _chunk(str(src), "-o", str(out))
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output
    assert out.read_text(encoding="utf-8") == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "chunks.jsonl"]


def test_the_sigterm_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGTERM)
    CliRunner().invoke(cli, ["strategies"])
    assert signal.getsignal(signal.SIGTERM) is before


def _cli_command() -> list[str]:
    script = Path(sys.executable).with_name("chunkwise")
    return [str(script)] if script.exists() else [sys.executable, "-m", "chunkwise.cli"]


def _writing(out_dir: Path) -> bool:
    """Whether a temporary in ``out_dir`` holds bytes. The run first creates and removes an
    empty probe temporary (is the folder writable?), so a listed file may be gone by the
    time it is read."""
    for p in out_dir.iterdir():
        if p.name.endswith(".tmp"):
            try:
                if p.stat().st_size > 0:
                    return True
            except FileNotFoundError:
                continue
    return False


def test_sigterm_removes_the_temporary_file_and_exits_130(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    body = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 8 + "\n\n") * 200  # 93 kB
    for i in range(300):
        (docs / f"f{i:03}.txt").write_text(body, encoding="utf-8")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "chunks.jsonl"
    proc = subprocess.Popen(
        [*_cli_command(), "chunk", str(docs), "-u", "chars", "-n", "200", "-o", str(out), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:  # wait until it is writing
            if _writing(out_dir):
                break
            time.sleep(0.01)
        assert proc.poll() is None, "finished before SIGTERM could be sent: make the input bigger"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err.decode()
    assert list(out_dir.iterdir()) == []
    assert b"Traceback" not in err


# -- per-file failures -------------------------------------------------------------------


def test_summary_counts_and_lists_skipped_files(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(TEXT, encoding="utf-8")
    for i in range(6):
        (docs / f"scan{i}.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    (docs / "z.bin").write_bytes(bytes(range(256)) * 4)
    result = _chunk(str(docs), str(tmp_path / "missing.txt"), "-o", str(tmp_path / "c.jsonl"))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    head = next(line for line in lines if line.startswith("skipped 8 files: "))
    assert "7 unsupported" in head and "1 unreadable" in head
    listed = lines[lines.index(head) + 1 :]
    assert len(listed) == 6 and listed[-1] == "  and 3 more"
    assert all(line.endswith(")") for line in listed[:5])
    # each one was reported with its fix
    assert "fix: leave such files out with --exclude '*.doc'" in result.output
    assert "missing.txt: cannot read" in result.output and "fix: check the path" in result.output
    assert "1 document, " in result.output


def test_excluded_files_are_not_reported(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(TEXT, encoding="utf-8")
    (docs / "scan.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    result = _chunk(str(docs), "--exclude", "*.doc")
    assert result.exit_code == 0, result.output
    assert "skipped" not in result.stderr


def test_undecodable_file_names_the_encoding_option(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(TEXT, encoding="utf-8")
    (docs / "b.txt").write_bytes("Café crème brûlée, déjà vu.".encode("cp1252"))
    out = tmp_path / "c.jsonl"
    result = _chunk(str(docs), "--encoding", "utf-8", "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "b.txt (undecodable)" in result.output and "--encoding" in result.output
    assert {r["source"].rsplit("/", 1)[-1] for r in _rows(out)} == {"a.txt"}
    result = _chunk(str(docs), "--encoding", "cp1252", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "Café crème" in "".join(r["text"] for r in _rows(out))


def test_unknown_encoding_is_a_usage_error(tmp_path: Path) -> None:
    result = _chunk(str(tmp_path), "--encoding", "no-such-codec")
    assert result.exit_code == 2 and "no-such-codec" in result.output


def test_stats_skips_a_bad_file_and_completes(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"caf\xe9 \xff\xfe")
    out = tmp_path / "stats.json"
    result = CliRunner().invoke(
        cli,
        ["stats", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), str(tmp_path / "nope.txt"),
         "-s", "recursive", "-n", "40", "-u", "chars", "--encoding", "utf-8", "--json", str(out)],
    )
    assert result.exit_code == 1, result.output
    assert "recursive/40/0" in result.output and "1 document;" in result.output
    assert "b.txt (undecodable)" in result.output and "nope.txt (unreadable)" in result.output
    assert json.loads(out.read_text(encoding="utf-8"))[0]["chunks"] > 0


def test_eval_skips_a_bad_corpus_file_and_completes(tmp_path: Path, monkeypatch) -> None:
    np = pytest.importorskip("numpy")
    from chunkwise import embeddings

    class Constant:
        name = "constant"

        def embed(self, texts):  # type: ignore[no-untyped-def]
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    monkeypatch.setattr(embeddings, "get_embedder", lambda model=None, **kw: Constant())
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text(TEXT, encoding="utf-8")
    (corpus / "b.md").write_bytes(b"\xff\xfe\x00 not utf-8 \x80")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"question": "first?", "document_id": "a", "references": [{"start_index": 0, "end_index": 20}]})
        + "\n"
        + json.dumps({"question": "b?", "document_id": "b", "references": [{"start_index": 0, "end_index": 2}]})
        + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli,
        ["eval", "--corpus", str(corpus), "--questions", str(questions), "--no-cache", "--no-plot",
         "-s", "fixed", "-n", "30", "-u", "chars", "--k", "1", "-o", str(tmp_path / "res")],
    )
    assert result.exit_code == 1, result.output
    assert "b.md (undecodable)" in result.output and "left out 1 of 2 questions" in result.output
    payload = json.loads((tmp_path / "res" / "results.json").read_text(encoding="utf-8"))
    assert payload["run"]["n_questions"] == 1 and payload["run"]["documents"] == ["a"]


def test_inspect_reports_an_unreadable_file(tmp_path: Path) -> None:
    # a missing path is a usage error, as in chunk (exit 2); a file that is there but cannot
    # be read (a dangling link) is a failure of that file (exit 1), with the fix
    result = CliRunner().invoke(cli, ["inspect", str(tmp_path / "nope.txt"), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 2
    assert "nope.txt (no such file or folder)" in result.output
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "gone.txt")
    result = CliRunner().invoke(cli, ["inspect", str(tmp_path / "dangling.txt"), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 1
    assert "dangling.txt: cannot read" in result.output and "fix:" in result.output


# -- inputs ---------------------------------------------------------------------------------


def test_standard_input(tmp_path: Path) -> None:
    pytest.importorskip("markdown_it")
    result = _chunk("-", "--format", "markdown", input="# Guide\n\nSome text to read.\n")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and all(r["source"] == "<stdin>" for r in rows)
    assert rows[0]["metadata"]["header_path"] == ["Guide"]  # auto: markdown for --format markdown
    plain = _chunk("-", input="# Guide\n\nSome text to read.\n")
    assert all("header_path" not in json.loads(line)["metadata"] for line in plain.stdout.splitlines())


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "drafts").mkdir(parents=True)
    (docs / "a.md").write_text("# A\n\nText a.\n", encoding="utf-8")
    (docs / "b.txt").write_text(TEXT, encoding="utf-8")
    (docs / "drafts" / "c.md").write_text("# C\n\nText c.\n", encoding="utf-8")
    (docs / "drafts" / "d.md").write_text("# D\n\nText d.\n", encoding="utf-8")
    out = tmp_path / "c.jsonl"

    def names(*args: str) -> set[str]:
        result = _chunk(str(docs), *args, "-o", str(out))
        assert result.exit_code == 0, result.output
        return {r["source"].split("/docs/", 1)[1] for r in _rows(out)}

    assert names("--include", "*.md") == {"a.md", "drafts/c.md", "drafts/d.md"}
    assert names("--include", "*.md", "--exclude", "drafts") == {"a.md"}
    result = _chunk(str(docs), "--exclude", "*.md", "--exclude", "*.txt")
    assert result.exit_code == 2 and "no file to read" in result.output
    assert names("--include", "drafts/d.md", "--include", "b.txt") == {"b.txt", "drafts/d.md"}


# -- exit statuses -------------------------------------------------------------------------


def test_exit_statuses(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    assert _chunk(str(src)).exit_code == 0
    assert _chunk(str(src), str(tmp_path / "nope.txt")).exit_code == 1
    for bad in (["--chunk-size", "0"], ["--strategy", "nosuch"], ["-p", "nosuch=1"], ["--unit", "bytes"]):
        result = _chunk(str(src), *bad)
        assert result.exit_code == 2, (bad, result.output)
    assert CliRunner().invoke(cli, ["nosuch"]).exit_code == 2
    assert CliRunner().invoke(cli, ["--help"]).exit_code == 0


def test_console_script_exit_statuses(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    run = lambda *a: subprocess.run([*_cli_command(), *a], capture_output=True)  # noqa: E731
    assert run("chunk", str(src), "-u", "chars").returncode == 0
    assert run("chunk", str(src), str(tmp_path / "nope.txt"), "-u", "chars").returncode == 1
    assert run("chunk", str(src), "-o", str(tmp_path)).returncode == 2


# -- auto, shared by the library and the command line --------------------------------------


def test_auto_strategy_in_python() -> None:
    md = "# Guide\n\nIntro text.\n\n## Install\n\nRun it.\n"
    plain = chunkwise.chunk(md, strategy="auto", chunk_size=200)
    assert [c.text for c in plain] == [c.text for c in chunkwise.chunk(md, strategy="recursive", chunk_size=200)]
    doc = chunkwise.parse(md, format="markdown")
    structured = chunkwise.chunk(doc, strategy="auto", chunk_size=200)
    assert [c.metadata["header_path"] for c in structured] == [
        c.metadata["header_path"] for c in chunkwise.chunk(doc, strategy="markdown", chunk_size=200)
    ]
    assert "auto" in chunkwise.strategy_names()
    with pytest.raises(chunkwise.ConfigError, match="nosuch"):
        chunkwise.chunk(md, strategy="auto", nosuch=1)
    # a parameter of one strategy goes to that one only
    chunker = chunkwise.make_chunker("auto", split_level=1, separators=["\n"])
    assert chunker.structured_chunker.split_level == 1 and chunker.text_chunker.separators == ["\n"]


def test_strategies_lists_auto_and_the_defaults_of_each_interface() -> None:
    result = CliRunner().invoke(cli, ["strategies"])
    assert result.exit_code == 0
    assert "\nauto: markdown for documents" in result.output
    python = next(line for line in result.output.splitlines() if "Python:" in line)
    command = next(line for line in result.output.splitlines() if "command line:" in line)
    assert "unit='chars'" in python and "chunk_size=512" in python and "strategy='auto'" in python
    from chunkwise.commands._options import CLI_DEFAULTS

    size = CLI_DEFAULTS["chunk_size"]
    assert "--unit tokens" in command and f"--chunk-size {size}" in command and "--strategy auto" in command


def test_every_command_shares_the_chunking_options() -> None:
    runner = CliRunner()
    for name in ("chunk", "stats", "eval", "calibrate", "inspect"):
        opts = {o for p in cli.commands[name].params for o in getattr(p, "opts", [])}
        shared = ("--strategy", "--chunk-size", "--chunk-overlap", "--unit", "--tokenizer", "--param", "--encoding")
        for option in shared:
            assert option in opts, (name, option)
        assert runner.invoke(cli, [name, "--help"]).exit_code == 0
    for name in ("chunk", "stats", "eval", "calibrate"):
        opts = {o for p in cli.commands[name].params for o in getattr(p, "opts", [])}
        assert {"--include", "--exclude"} <= opts, name


def test_dash_output_is_standard_output(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    result = _chunk(str(src), "-o", "-")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["text"].startswith("First sentence here.")
    assert not (tmp_path / "-").exists()


def test_inspect_exits_1_for_a_document_the_strategy_fails_on(tmp_path: Path) -> None:
    pytest.importorskip("markdown_it")
    src = tmp_path / "code.md"
    src.write_text("# T\n\n```\n" + "x = 1\n" * 50 + "```\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["inspect", str(src), "-s", "markdown", "-u", "chars", "-n", "20", "-p", "oversize=raise"]
    )
    assert result.exit_code == 1, result.output
    assert "code.md" in result.output and "oversize" in result.output


# -- a reader of standard output that leaves early (`| head`) -------------------------------


def _run_with_stdout_closed_by_reader(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the command with standard output a pipe whose reader has already left: every
    write to it fails with EPIPE (BrokenPipeError), as after `| head` stops reading."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [*_cli_command(), *args], stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120
        )
    finally:
        os.close(write_end)


def test_a_reader_that_leaves_stops_no_report_file(tmp_path: Path) -> None:
    src = tmp_path / "notes.md"
    src.write_text(("# Part\n\n" + "A sentence about pumps and valves. " * 30 + "\n\n") * 40, encoding="utf-8")
    html = tmp_path / "insp.html"
    r = _run_with_stdout_closed_by_reader(
        ["inspect", str(src), "-s", "recursive", "-u", "chars", "-n", "60", "--html", str(html)], tmp_path
    )
    assert r.returncode == 0, r.stderr  # the view was cut short, the command did its work
    assert html.is_file() and html.stat().st_size > 0 and "report written to" in r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr and "Broken pipe" not in r.stderr
    csv_path, json_path = tmp_path / "s.csv", tmp_path / "s.json"
    r = _run_with_stdout_closed_by_reader(
        ["stats", str(src), "-s", "recursive,sentence", "-u", "chars", "-n", "100,200",
         "--csv", str(csv_path), "--json", str(json_path)],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert len(json.loads(json_path.read_text(encoding="utf-8"))) == 4 and csv_path.stat().st_size > 0
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr
    # chunk's output is standard output itself: it stops, quietly, with status 141 (a
    # shell's status for cat in the same pipe), and writes no file
    r = _run_with_stdout_closed_by_reader(["chunk", str(src), "-u", "chars", "-n", "60"], tmp_path)
    assert r.returncode == 141 and "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["insp.html", "notes.md", "s.csv", "s.json"]


def test_chunk_and_stats_say_the_skipped_files_in_the_same_order_the_order_found(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.odt").write_bytes(b"PK")  # passed over by the walk
    (folder / "b.txt").write_text(TEXT, encoding="utf-8")
    (folder / "c.txt").write_bytes(b"")  # read: empty
    (folder / "d.odt").write_bytes(b"PK")
    (folder / "sub" / "e.txt").write_bytes(b"\xff\xfe\x00\xd8 broken")  # read: undecodable
    (folder / "sub" / "f.odt").write_bytes(b"PK")
    found = [f"{folder.as_posix()}/{name}" for name in ("a.odt", "c.txt", "d.odt", "sub/e.txt", "sub/f.odt")]

    def said(args: list[str]) -> list[str]:
        result = CliRunner().invoke(cli, [*args, str(folder), "-u", "chars", "-n", "40"])
        assert result.exit_code == 1, result.output
        return [line.split(": ")[0].removeprefix("skipped ") for line in result.output.splitlines()
                if line.startswith("skipped /")]

    assert said(["chunk", "-o", str(tmp_path / "out.jsonl")]) == found
    assert said(["stats", "-s", "recursive"]) == found
