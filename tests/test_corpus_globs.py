"""``--include`` and ``exclude=`` choose files: a folder named like a file pattern
(``x.html``) is still searched and its files matched by their own names; ``--exclude``
still leaves out a folder's files by the folder's name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.commands._inputs import matches
from chunkwise.loaders import find_files
from chunkwise.loaders.files import list_folder


def _tree(tmp_path: Path) -> Path:
    top = tmp_path / "site"
    (top / "page.html").mkdir(parents=True)  # a folder named like an HTML file
    (top / "page.html" / "notes.txt").write_text("Notes kept beside the page.\n")
    (top / "page.html" / "index.html").write_text("<html><body><p>Inside the folder.</p></body></html>\n")
    (top / "a.html").write_text("<html><body><p>Top page.</p></body></html>\n")
    (top / "b.txt").write_text("Plain text.\n")
    (top / "drafts").mkdir()
    (top / "drafts" / "c.html").write_text("<html><body><p>Draft.</p></body></html>\n")
    return top


def test_include_matches_file_names_not_folder_names(tmp_path: Path) -> None:
    top = _tree(tmp_path)
    expected = ["a.html", "drafts/c.html", "page.html/index.html"]
    assert [f.relative for f in find_files([top], include=["*.html"])] == expected
    assert [f.relative for f in find_files([top, top / "drafts"], include=["*.html"])] == expected
    assert [rel for rel, _ in list_folder(top, include=["*.html"]) or []] == expected
    assert [f.relative for f in find_files([top], include=["page.html"])] == []
    inside = [f.relative for f in find_files([top], include=["page.html/*"])]
    assert inside == ["page.html/index.html", "page.html/notes.txt"]


def test_exclude_still_leaves_out_a_folder_by_its_name(tmp_path: Path) -> None:
    top = _tree(tmp_path)
    assert [f.relative for f in find_files([top], exclude=["drafts"])] == [
        "a.html", "b.txt", "page.html/index.html", "page.html/notes.txt"
    ]
    assert [f.relative for f in find_files([top], include=["*.html"], exclude=["page.html"])] == [
        "a.html", "drafts/c.html"
    ]
    assert matches("drafts/c.html", ["drafts"], folders=True)
    assert not matches("drafts/c.html", ["drafts"])
    assert not matches("page.html/notes.txt", ["*.html"])
    assert matches("page.html/index.html", ["*.html"])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_chunk_include_reads_only_matching_files(tmp_path: Path, workers: str) -> None:
    top = _tree(tmp_path)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(top), "--include", "*.html", "-j", workers, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    relative = [json.loads(line)["metadata"]["relative_path"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(set(relative)) == ["a.html", "drafts/c.html", "page.html/index.html"]
    chunks = chunkwise.chunk_corpus(top, include=["*.html"], workers=int(workers), chunk_size=100)
    assert sorted({c.metadata["relative_path"] for c in chunks}) == ["a.html", "drafts/c.html", "page.html/index.html"]
