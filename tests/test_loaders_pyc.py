"""Compiled files in a source folder: a folder search passes over ``__pycache__`` folders
as it passes over hidden ones, and a compiled file met anyway (a ``.pyc`` beside its
source, an object file, a shared library, a Java class) is an unsupported binary format
with the ``--exclude`` hint, not text in an unknown encoding."""

from __future__ import annotations

import importlib.util
import json
import py_compile

import pytest

from chunkwise.errors import UnsupportedFormatError
from chunkwise.loaders import find_files, load

SOURCE = "def add(a, b):\n    return a + b\n\n\nprint(add(1, 2))\n"


def _package(tmp_path):
    root = tmp_path / "pkg"
    root.mkdir()
    src = root / "mod.py"
    src.write_text(SOURCE, encoding="utf-8")
    pyc = importlib.util.cache_from_source(str(src))
    py_compile.compile(str(src), cfile=pyc, doraise=True)
    return root, pyc


def test_a_folder_search_passes_over_pycache(tmp_path):
    root, _ = _package(tmp_path)
    skipped: list = []
    found = [f.path.relative_to(root).as_posix() for f in find_files([root], skipped=skipped)]
    assert found == ["mod.py"]
    assert skipped == []
    # with hidden files: the bytecode is seen, and left out as a format no loader handles
    found = [f.path.relative_to(root).as_posix() for f in find_files([root], skipped=skipped, hidden=True)]
    assert found == ["mod.py"]
    assert [f.path.relative_to(root).as_posix()[:16] for f in skipped] == ["__pycache__/mod."]


def test_the_cli_chunks_a_source_folder_with_pycache_without_error(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    root, _ = _package(tmp_path)
    out = tmp_path / "x.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(root), "-u", "chars", "-n", "400", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all("pycache" not in json.dumps(r.get("metadata", {})) for r in rows)
    assert "".join(r["text"] for r in rows).replace("\n", "") == SOURCE.replace("\n", "")


@pytest.mark.parametrize("suffix", [".pyc", ".pyo", ".o", ".so", ".class", ".dll"])
def test_compiled_files_are_unsupported_binary(tmp_path, suffix):
    root, pyc = _package(tmp_path)
    path = root / ("mod" + suffix)
    with open(pyc, "rb") as fh:
        path.write_bytes(fh.read())
    with pytest.raises(UnsupportedFormatError) as info:
        load(path)
    assert "encoding" not in str(info.value)


def test_the_cli_reports_a_pyc_beside_its_source_as_unsupported_with_the_exclude_hint(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    root, pyc = _package(tmp_path)
    with open(pyc, "rb") as fh:
        (root / "mod.pyc").write_bytes(fh.read())
    out = tmp_path / "x.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(root), "-u", "chars", "-n", "400", "-o", str(out)])
    assert result.exit_code == 1
    assert "--exclude '*.pyc'" in result.output
    assert "--encoding" not in result.output
    assert "unsupported" in result.output and "undecodable" not in result.output
