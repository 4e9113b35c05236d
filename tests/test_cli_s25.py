"""``python -m chunkwise``, and ``--format`` given with files only (it names the format of
standard input): a warning, and a run recorded as one without it."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from chunkwise.cli import cli


def test_python_dash_m_runs_the_command_line():
    out = subprocess.run([sys.executable, "-m", "chunkwise", "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Usage: chunkwise ")
    assert "chunk" in out.stdout


def _run(tmp_path, *args):
    return CliRunner().invoke(cli, ["chunk", *args, "--no-progress", "--workers", "1"])


def test_format_with_files_only_warns_and_changes_nothing(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text("# Title\n\nSome text under the title.\n\n## Two\n\nMore text.\n", encoding="utf-8")
    plain, given = tmp_path / "plain.jsonl", tmp_path / "given.jsonl"
    r1 = _run(tmp_path, str(doc), "-o", str(plain))
    r2 = _run(tmp_path, str(doc), "--format", "pdf", "-o", str(given))
    assert r1.exit_code == 0 and r2.exit_code == 0, (r1.output, r2.output)
    assert "--format pdf applies to standard input (-) only" in r2.output
    assert "--format" not in r1.output
    # the same records, config_id included: the option changed nothing
    assert plain.read_bytes() == given.read_bytes()
    assert json.loads(plain.read_text(encoding="utf-8").splitlines()[0])["metadata"]["format"] == "markdown"


def test_resume_is_not_refused_for_a_format_that_did_not_apply(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text("# Title\n\nSome text under the title.\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert _run(tmp_path, str(doc), "-o", str(out)).exit_code == 0
    before = out.read_bytes()
    r = _run(tmp_path, str(doc), "--format", "markdown", "--resume", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "1 document already in the output" in r.output
    assert out.read_bytes() == before


def test_format_still_applies_to_standard_input(tmp_path):
    r = CliRunner().invoke(cli, ["chunk", "-", "--format", "markdown", "--no-progress"], input="# T\n\nbody text\n")
    assert r.exit_code == 0, r.output
    assert "applies to standard input" not in r.output
    first = json.loads(next(line for line in r.output.splitlines() if line.startswith("{")))
    assert first["metadata"]["format"] == "markdown"


def test_resume_summary_counts_the_chunks_that_complete_the_last_document(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        body = "\n\n".join(f"## Part {k}\n\n" + " ".join(f"word{i}{k}{j}" for j in range(60)) for k in range(5))
        (docs / f"d{i}.md").write_text(f"# Doc {i}\n\n{body}\n", encoding="utf-8")
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert _run(tmp_path, str(docs), "-o", str(full)).exit_code == 0
    lines = full.read_bytes().splitlines(keepends=True)
    last_doc = [json.loads(line)["document_id"] for line in lines]
    first_of_last = last_doc.index(last_doc[-1])
    assert len(lines) - first_of_last >= 3  # the last document has several chunks
    # a killed run: the last document's first chunk and half of its second line
    part.write_bytes(b"".join(lines[: first_of_last + 1]) + lines[first_of_last + 1][:20])
    r = _run(tmp_path, str(docs), "--resume", "-o", str(part))
    assert r.exit_code == 0, r.output
    assert part.read_bytes() == full.read_bytes()
    written = len(lines) - first_of_last - 1
    assert f"3 documents already in the output (its last one completed: {written} chunks written)" in r.output
    # a second resume has nothing to complete
    r = _run(tmp_path, str(docs), "--resume", "-o", str(part))
    assert "3 documents already in the output;" in r.output and "completed" not in r.output
