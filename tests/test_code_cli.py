"""Source code on standard input: ``--format code`` needs the language; the code
strategy's warning is one ``warning:`` line."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.chunkers.code import CodeWarning
from chunkwise.cli import cli

SOURCE = "import os\n\n\ndef f():\n    return 1\n\n\nclass C:\n    def m(self):\n        return 2\n"


def _run(*args: str):
    return CliRunner().invoke(cli, ["chunk", "-", "--unit", "chars", "-n", "50", *args], input=SOURCE)


@pytest.mark.parametrize("strategy", ["auto", "code"])
def test_format_code_on_stdin_without_a_language_is_a_usage_error(strategy):
    result = _run("--format", "code", "-s", strategy)
    assert result.exit_code == 2, result.output
    assert "-p language=" in result.stderr and "python" in result.stderr
    assert result.stdout == ""


def test_format_code_on_stdin_with_a_language_is_chunked_as_code():
    result = _run("--format", "code", "-p", "language=python", "-p", "merge_small_definitions=false")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["metadata"]["symbols"] for r in rows] == [[], ["f"], ["C", "C.m"]]
    assert {r["metadata"]["language"] for r in rows} == {"python"}
    assert [r["text"] for r in rows] == [c.text for c in chunkwise.chunk(
        SOURCE, strategy="code", language="python", chunk_size=50, unit="chars", merge_small_definitions=False)]


def test_code_strategy_without_a_language_warns_in_one_line():
    args = [sys.executable, "-m", "chunkwise.cli", "chunk", "-", "-s", "code", "-u", "chars", "-n", "50", "-j", "1"]
    result = subprocess.run(args, input=SOURCE, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    warning_lines = [line for line in result.stderr.splitlines() if "language" in line]
    assert len(warning_lines) == 1
    assert warning_lines[0].startswith("warning: strategy 'code' got a text without language=")
    assert "-p language=NAME" in warning_lines[0]
    assert ".py:" not in result.stderr and "UserWarning" not in result.stderr


def test_the_warning_points_at_the_caller():
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        chunkwise.chunk(SOURCE, strategy="code", chunk_size=50, unit="chars")
    assert [w.category for w in got] == [CodeWarning]
    assert got[0].filename == __file__
