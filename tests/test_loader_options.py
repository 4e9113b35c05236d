"""Loader options (``-L KEY=VALUE``, ``chunkwise.load(path, **options)``) in a folder of
mixed formats: an option of another format's loader is ignored, one no loader takes is an
error before any work (a usage error, exit 2, on the command line)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import ConfigError
from chunkwise.loaders import check_loader_options, loader_options


@pytest.fixture
def mixed(tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\nSome words about the project.\n", encoding="utf-8")
    (tmp_path / "plain.txt").write_text("Plain text, one line.\n", encoding="utf-8")
    (tmp_path / "page.html").write_text("<h1>Page</h1><p>A paragraph.</p>", encoding="utf-8")
    (tmp_path / "table.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    return tmp_path


def test_the_pdf_options_are_known():
    assert {"password", "pages", "ocr"} <= set(loader_options()["pdf"])
    check_loader_options({"password": "x", "pages": "1-2"})
    with pytest.raises(ConfigError, match=r"no option 'colour' in any loader.*pdf: .*password"):
        check_loader_options({"colour": "red"})


@pytest.mark.parametrize("command", ["chunk", "stats", "inspect"])
def test_a_pdf_option_does_not_skip_the_other_files_of_a_folder(mixed, command):
    target = mixed / "notes.md" if command == "inspect" else mixed  # inspect reads one file
    args = [command, str(target), "-u", "chars", "-L", "password=x", "-L", "pages=1-2"]
    if command == "stats":
        args += ["-s", "recursive", "-n", "200"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "skipped" not in result.output
    if command == "chunk":
        sources = {json.loads(line)["source"].rsplit("/", 1)[-1] for line in result.stdout.splitlines()}
        assert sources == {"notes.md", "plain.txt", "page.html", "table.csv"}


@pytest.mark.parametrize(
    "item", ["nonsense", "=x", "colour=red", "Password=x", "pages=abc", "pages=0", "pages=", "pages=5-3", "pages=-2",
             "pages=1,,2", "ocr=maybe", "ocr=eng+x"],
)
@pytest.mark.parametrize("command", ["chunk", "stats", "inspect"])
def test_an_invalid_option_is_a_usage_error_before_any_work(mixed, tmp_path, command, item):
    out = tmp_path / "out.jsonl"
    target = mixed / "notes.md" if command == "inspect" else mixed
    args = [command, str(target), "-L", item] + (["-o", str(out)] if command == "chunk" else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "--loader-option" in result.output
    assert not out.exists()


def test_the_python_api_ignores_another_formats_option_and_refuses_an_unknown_one(mixed):
    doc = chunkwise.load(mixed / "notes.md", password="x")
    assert doc.text.startswith("# Notes")
    assert chunkwise.parse(b"a,b\n1,2\n", "csv", pages="1").text
    with pytest.raises(ConfigError, match="no option 'colour'"):
        chunkwise.load(mixed / "notes.md", colour="red")


@pytest.mark.parametrize("command", ["chunk", "stats", "inspect"])
def test_a_loader_option_given_twice_is_a_usage_error(mixed, command):
    target = mixed / "notes.md" if command == "inspect" else mixed
    result = CliRunner().invoke(cli, [command, str(target), "-L", "pages=1", "-L", "pages=3"])
    assert result.exit_code == 2, result.output
    assert "pages given twice" in result.output and "pages=1,3" in result.output


def test_the_values_of_the_pdf_options_are_checked_without_a_file():
    check_loader_options({"pages": "1-5, 8, 10-", "ocr": "eng+chi_sim"})
    check_loader_options({"ocr": "false"})
    for pages, message in [("5-3", "runs backwards; give it as '3-5'"), ("0", "numbered from 1"),
                           ("x", "not a page or range")]:
        with pytest.raises(ConfigError, match=message):
            check_loader_options({"pages": pages})
    with pytest.raises(ConfigError, match="neither true/false nor Tesseract language codes"):
        check_loader_options({"ocr": "maybe"})
