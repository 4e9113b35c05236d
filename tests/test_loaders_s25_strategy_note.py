"""`chunkwise chunk file.csv --strategy code`: the warning says what the file is, why the code
strategy does not apply and which strategy does, once per format; the output is unchanged."""

from __future__ import annotations

import json
import warnings

import pytest
from click.testing import CliRunner

from chunkwise.chunkers.code import CodeWarning
from chunkwise.cli import cli
from chunkwise.commands._chunk_run import CodeNote
from chunkwise.loaders import load

CSV = "name,age,city\nalice,30,paris\nbob,25,rome\n"


@pytest.fixture
def shown(monkeypatch):
    lines: list[str] = []

    def show(message, category, filename, lineno, file=None, line=None):
        lines.append(warnings.formatwarning(message, category, filename, lineno, line))

    monkeypatch.setattr(warnings, "showwarning", show)
    return lines


def _run(args: list[str], input: str | None = None):
    result = CliRunner().invoke(cli, ["chunk", *args, "-u", "chars", "-n", "200", "-j", "1"], input=input)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def test_a_csv_file_under_strategy_code_is_named_with_the_strategy_that_fits(tmp_path, shown):
    (tmp_path / "people.csv").write_text(CSV)
    (tmp_path / "more.csv").write_text(CSV)
    (tmp_path / "guide.md").write_text("# Guide\n\nText.\n")
    records = _run([str(tmp_path), "-s", "code"])
    notes = [s for s in shown if "not source code" in s]
    assert not [s for s in shown if "without language=" in s]
    assert len(notes) == 2  # one per format, not one per file
    csv = next(s for s in notes if "csv" in s)
    assert csv.startswith("warning: more.csv is a csv file, not source code")
    assert "--strategy table" in csv and "-p language=NAME" in csv and "split at blank lines and lines only" in csv
    md = next(s for s in notes if "markdown" in s)
    assert md.startswith("warning: guide.md is a markdown file") and "--strategy markdown" in md
    assert [r["source"] for r in records] == [str(tmp_path / n) for n in ("guide.md", "more.csv", "people.csv")]


def test_the_output_is_the_same_as_before(tmp_path, shown):
    """Only the warning changes: the records are those the code chunker gives anyway."""
    from chunkwise.api import make_chunker

    path = tmp_path / "people.csv"
    path.write_text(CSV)
    records = _run([str(path), "-s", "code"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chunks = make_chunker("code", chunk_size=200, unit="chars").chunk(load(path))
    assert [r["text"] for r in records] == [c.text for c in chunks]


def test_csv_on_standard_input_is_named_by_its_format(shown):
    _run(["-", "-s", "code", "--format", "csv"], input=CSV)
    notes = [s for s in shown if "not source code" in s]
    assert len(notes) == 1 and notes[0].startswith("warning: <stdin> is csv (--format csv), not source code")


def test_text_on_standard_input_keeps_the_request_for_a_language(shown):
    _run(["-", "-s", "code"], input="def f():\n    return 1\n")
    assert [s for s in shown if "got a text without language=" in s]
    assert not [s for s in shown if "not source code" in s]


def test_a_language_given_or_a_source_file_gets_no_note(tmp_path, shown):
    (tmp_path / "people.csv").write_text(CSV)
    (tmp_path / "x.py").write_text("def f():\n    return 1\n")
    _run([str(tmp_path / "x.py"), "-s", "code"])
    _run([str(tmp_path / "people.csv"), "-s", "code", "-p", "language=python"])
    assert not [s for s in shown if "not source code" in s or "without language=" in s]


def test_other_warnings_pass_through(tmp_path):
    path = tmp_path / "people.csv"
    path.write_text(CSV)
    doc = load(path)
    note = CodeNote()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with note(doc):
            warnings.warn("strategy 'code' got a text without language= (one of: python)", CodeWarning)
            warnings.warn("something else", UserWarning)
        with note(doc):  # the same format again: no second note
            warnings.warn("strategy 'code' got a text without language= (one of: python)", CodeWarning)
    texts = [str(w.message) for w in caught]
    assert len(texts) == 2 and texts[0].startswith("people.csv is a csv file") and texts[1] == "something else"
    assert caught[0].category is CodeWarning
