"""A folder reached both directly and through a symbolic link: the file's path without the
link is the one kept, whatever the order of the arguments and however the root was typed."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.loaders import find_files

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """``root/real/f.txt``; ``root/a/b/deep`` and ``root/alias`` link to ``real`` (the
    deeper link, and one that sorts first); ``typed`` is a link to ``root`` itself."""
    root = tmp_path / "root"
    (root / "real").mkdir(parents=True)
    (root / "real" / "f.txt").write_text("Pumps start at six.\n")
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "deep").symlink_to(Path("..", "..", "real"))
    (root / "alias").symlink_to("real")
    typed = tmp_path / "typed"
    typed.symlink_to("root")
    return root, typed


def test_the_path_without_a_link_wins_however_the_root_is_typed(tmp_path: Path) -> None:
    root, typed = _tree(tmp_path)
    for top in (root, typed):
        found = list(find_files([top]))
        assert [(f.relative, f.path) for f in found] == [("real/f.txt", top / "real" / "f.txt")]
    assert list(find_files([root]))[0].id == list(find_files([typed]))[0].id


def test_the_choice_does_not_depend_on_the_order_of_the_arguments(tmp_path: Path) -> None:
    root, typed = _tree(tmp_path)
    for top in (root, typed):
        for paths in ([top / "alias", top / "real"], [top / "real", top / "alias"]):
            found = list(find_files(paths))
            assert [f.path for f in found] == [top / "real" / "f.txt"], paths


def test_a_file_reached_only_through_links_keeps_a_links_path(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.txt").write_text("Valves open at seven.\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "l2").symlink_to(outside)
    (root / "l1").symlink_to(outside)
    found = list(find_files([root]))
    assert [(f.relative, f.path) for f in found] == [("l1/x.txt", root / "l1" / "x.txt")]
    assert [f.relative for f in find_files([root / "l2", root / "l1"])] == ["x.txt"]
    assert [f.path for f in find_files([root / "l2", root / "l1"])] == [root / "l1" / "x.txt"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_chunk_writes_the_real_path_as_source(tmp_path: Path, workers: str) -> None:
    root, typed = _tree(tmp_path)
    lines = {}
    for top in (root, typed):
        out = tmp_path / f"{top.name}.jsonl"
        result = CliRunner().invoke(cli, ["chunk", str(top), "-u", "chars", "-j", workers, "-o", str(out)])
        assert result.exit_code == 0, result.stderr
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [r["source"] for r in records] == [(top / "real" / "f.txt").as_posix()]
        assert records[0]["metadata"]["relative_path"] == "real/f.txt"
        lines[top.name] = records
    assert lines["root"][0]["document_id"] == lines["typed"][0]["document_id"]
    chunks = list(chunkwise.chunk_corpus(typed, workers=int(workers), chunk_size=50))
    assert [c.metadata["source"] for c in chunks] == [os.fspath(typed / "real" / "f.txt")]
