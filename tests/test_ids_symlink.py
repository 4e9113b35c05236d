"""A file reached through a symbolic link has the document id (and chunk ids) it has when
reached directly: the id derives from its real path relative to the root's real path,
wherever the real file is under the real root; a link that leads out of the root keeps
the path as seen under the root. Source and file name stay as typed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import ConfigError, LoadError
from chunkwise.loaders import find_files, relative_id_path
from chunkwise.types import document_id_for_path

TEXT = "# Pumps\n\nPumps start at six.\n\n## Valves\n\nValves open at seven and close at nine.\n"


def _link(link: Path, target: str | Path) -> None:
    try:
        link.symlink_to(target)
    except (OSError, NotImplementedError, AttributeError) as exc:  # Windows without the privilege
        pytest.skip(f"symbolic links not permitted here: {exc}")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``ids/a/f.md``, ``ids/b/f.md`` (another text), ``ids/link`` -> ``a``, ``ids/flink.md``
    -> ``a/f.md``; the working directory is ``ids``."""
    top = tmp_path / "ids"
    (top / "a").mkdir(parents=True)
    (top / "b").mkdir()
    (top / "a" / "f.md").write_text(TEXT, encoding="utf-8")
    (top / "b" / "f.md").write_text("Another text.\n", encoding="utf-8")
    _link(top / "link", "a")
    _link(top / "flink.md", Path("a", "f.md"))
    monkeypatch.chdir(top)
    return top


def _records(args: list[str]) -> list[dict]:
    result = CliRunner().invoke(cli, ["chunk", *args, "--no-progress"])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_load_gives_a_linked_file_the_id_of_the_real_file(tree: Path) -> None:
    direct = chunkwise.load("a/f.md")
    assert direct.id == document_id_for_path("f.md")  # a regular file: as ever
    for typed in ("flink.md", "link/f.md", "./a/../a/f.md", tree / "flink.md"):
        doc = chunkwise.load(typed)
        assert doc.id == direct.id, typed
    flink = chunkwise.load("flink.md")
    assert flink.source == "flink.md" and flink.metadata["filename"] == "flink.md"  # as typed
    assert flink.metadata["relative_path"] == "f.md"  # the path the id derives from


def test_load_with_a_root_resolves_links_under_it(tree: Path) -> None:
    want = document_id_for_path("a/f.md")
    for typed in ("a/f.md", "link/f.md", "flink.md", tree / "link" / "f.md"):
        for root in (".", tree):
            doc = chunkwise.load(typed, root=root)
            assert doc.id == want, (typed, root)
            assert doc.metadata["relative_path"] == "a/f.md"
    assert chunkwise.load("link/f.md", root=".").source == "link/f.md"
    # inside the root once resolved, though not as typed
    assert chunkwise.load("link/f.md", root="a").id == document_id_for_path("f.md")
    with pytest.raises(ConfigError, match="not inside root"):
        chunkwise.load("b/f.md", root="a")


def test_chunk_ids_follow(tree: Path) -> None:
    ids = {
        typed: [c.id for c in chunkwise.chunk(chunkwise.load(typed, root="."), strategy="markdown", chunk_size=40)]
        for typed in ("a/f.md", "flink.md", "link/f.md")
    }
    assert len(ids["a/f.md"]) > 1
    assert ids["flink.md"] == ids["a/f.md"] == ids["link/f.md"]


@pytest.mark.parametrize("root", [[], ["--root", "."]])
def test_cli_gives_one_id_to_every_spelling(tree: Path, root: list[str]) -> None:
    runs = {typed: _records([typed, *root]) for typed in ("a/f.md", "./a/../a/f.md", "link/f.md", "flink.md")}
    first = runs["a/f.md"]
    assert first and first[0]["document_id"] == document_id_for_path("a/f.md" if root else "f.md")
    for typed, records in runs.items():
        assert [(r["id"], r["document_id"]) for r in records] == [(r["id"], r["document_id"]) for r in first], typed
        assert records[0]["source"] == Path(typed).as_posix()  # the path as typed


def test_a_linked_folder_under_the_root(tree: Path) -> None:
    # the root scanned: the file reached twice is found once, by its path without the link
    found = list(find_files([tree]))
    assert [(f.relative, f.path) for f in found if f.path.name == "f.md"] == [
        ("a/f.md", tree / "a" / "f.md"), ("b/f.md", tree / "b" / "f.md"),
    ]
    # the linked folder named alone, or before the real one: the real file's path under the root
    for paths in (["link"], ["link", "a"], ["a", "link"], ["flink.md", "link"]):
        ids = {f.id for f in find_files(paths, root=".")}
        assert ids == {document_id_for_path("a/f.md")}, paths
    # the same in the command's streamed and listed runs (a folder without a link below it)
    for workers in ("1", "2"):
        records = _records(["link", "--root", ".", "-j", workers])
        assert {r["document_id"] for r in records} == {document_id_for_path("a/f.md")}
        assert {r["source"] for r in records} == {"link/f.md"}


@pytest.mark.parametrize("workers", [1, 2])
def test_chunk_corpus_resolves_a_linked_folder_under_the_root(tree: Path, workers: int) -> None:
    chunks = list(chunkwise.chunk_corpus("link", root=".", workers=workers, chunk_size=40))
    direct = list(chunkwise.chunk_corpus("a", root=".", workers=workers, chunk_size=40))
    assert len(chunks) > 1
    assert [c.id for c in chunks] == [c.id for c in direct]
    assert {c.document_id for c in chunks} == {document_id_for_path("a/f.md")}


def test_a_root_reached_through_a_link_changes_nothing(tree: Path, tmp_path: Path) -> None:
    _link(tmp_path / "alias", tree)
    for top in (tree, tmp_path / "alias"):
        assert {f.relative for f in find_files([top / "a"], root=top)} == {"a/f.md"}
        assert {f.relative for f in find_files([top / "a"])} == {"f.md"}
        assert chunkwise.load(top / "flink.md", root=top).id == document_id_for_path("a/f.md")


def test_a_link_out_of_the_root_keeps_the_path_as_seen(tree: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.md").write_text("Outside the tree.\n", encoding="utf-8")
    _link(tree / "ext", outside)
    _link(tree / "xlink.md", outside / "x.md")
    assert relative_id_path("ext/x.md", ".") == "ext/x.md"
    assert relative_id_path("xlink.md", ".") == "xlink.md"
    assert chunkwise.load("ext/x.md", root=".").id == document_id_for_path("ext/x.md")
    # one file reached through two links out of the root: found once, by the deeper path
    found = [f.relative for f in find_files(["."])]
    assert found == ["a/f.md", "b/f.md", "ext/x.md"]
    # named directly, without a root: the name of the file it leads to, wherever it lies
    assert chunkwise.load("xlink.md").id == document_id_for_path("x.md")


def test_two_files_alike_named_directly_disambiguate_by_real_paths(tree: Path) -> None:
    plain = [f.relative for f in find_files(["a/f.md", "b/f.md"])]
    linked = [f.relative for f in find_files(["flink.md", "b/f.md"])]
    assert plain == ["a/f.md", "b/f.md"]
    assert linked == plain
    assert [f.relative for f in find_files(["flink.md"])] == ["f.md"]
    assert [f.path for f in find_files(["flink.md"])] == [Path("flink.md")]


def test_a_loop_of_links_is_reported_not_followed(tree: Path) -> None:
    _link(tree / "loop1.md", "loop2.md")
    _link(tree / "loop2.md", "loop1.md")
    _link(tree / "a" / "up", "..")  # a folder loop
    skipped: list = []
    found = list(find_files(["."], skipped=skipped))
    assert {f.relative for f in found} == {"a/f.md", "b/f.md"}
    assert {s.relative for s in skipped} >= {"loop1.md", "loop2.md"}
    assert all(s.reason.startswith("cannot read") for s in skipped if s.relative.startswith("loop"))
    assert relative_id_path("loop1.md", ".") in {"loop1.md", "loop2.md"}  # no crash, no endless walk
    with pytest.raises(LoadError):
        chunkwise.load("loop1.md")
    result = CliRunner().invoke(cli, ["chunk", "loop1.md", "--no-progress"])
    assert result.exit_code != 0 and "loop1.md" in result.output


def test_files_without_links_keep_their_ids(tmp_path: Path) -> None:
    top = tmp_path / "docs"
    (top / "guide").mkdir(parents=True)
    (top / "guide" / "a.md").write_text(TEXT, encoding="utf-8")
    (top / "b.txt").write_text("Plain.\n", encoding="utf-8")
    assert {f.relative for f in find_files([top])} == {"guide/a.md", "b.txt"}
    assert {f.relative for f in find_files([top / "guide"], root=tmp_path)} == {"docs/guide/a.md"}
    assert {f.relative for f in find_files([top / "guide" / "a.md", top / "b.txt"])} == {"a.md", "b.txt"}
    assert chunkwise.load(top / "guide" / "a.md").id == document_id_for_path("a.md")
    assert chunkwise.load(top / "guide" / "a.md", root=top).id == document_id_for_path("guide/a.md")
    with pytest.raises(ConfigError):
        relative_id_path(top / "b.txt", top / "guide")
    assert os.path.isfile(top / "b.txt")


def test_a_listed_folder_gives_each_file_the_path_relative_id_path_gives(tree: Path, tmp_path: Path) -> None:
    from chunkwise.loaders.files import classify_entry

    (tree / "a" / "sub").mkdir()
    (tree / "a" / "sub" / "g.md").write_text("G.\n", encoding="utf-8")
    _link(tmp_path / "alias", tree)
    _link(tree / "b" / "toa", Path("..", "a"))
    folders = [tree / "a", tree / "link", tmp_path / "alias" / "a", tree / "b" / "toa", tree / "a" / "sub"]
    roots = [tree, tmp_path / "alias", tree / "a", tree / "link", tree / "b", tree / "a" / "sub", tmp_path]
    checked = 0
    for folder in folders:
        for root in roots:
            for rel in ("f.md", "sub/g.md"):
                if not (folder / rel).exists():
                    continue
                try:
                    want = relative_id_path(folder / rel, root)
                except ConfigError:
                    with pytest.raises(ConfigError):
                        classify_entry(folder, rel, root)
                    continue
                assert classify_entry(folder, rel, root).relative == want, (folder, root, rel)
                checked += 1
    assert checked > 20
    assert relative_id_path(tree / "b" / "toa" / "f.md", tree) == "a/f.md"
    assert relative_id_path(tree / "a" / "sub" / "g.md", tree / "link") == "sub/g.md"
