"""Ids: documents by their path relative to the root given, chunks by span and text."""

from __future__ import annotations

import os

import pytest

import chunkwise
from chunkwise.errors import ConfigError
from chunkwise.loaders import find_files, load
from chunkwise.types import Document, chunk_id, document_id_for, document_id_for_path


def _tree(root):
    (root / "guide").mkdir(parents=True)
    (root / "a.md").write_text("# A\n\nAlpha text here.\n", encoding="utf-8")
    (root / "guide" / "b.txt").write_text("Beta sentence one. Beta sentence two.\n", encoding="utf-8")
    return root


def _ids(paths):
    return {f.relative: (load(f).id, [c.id for c in chunkwise.chunk(load(f), chunk_size=20)]) for f in find_files(paths)}


def test_same_ids_from_relative_absolute_and_another_cwd(tmp_path, monkeypatch):
    root = _tree(tmp_path / "work" / "docs")
    absolute = _ids([root])
    assert set(absolute) == {"a.md", "guide/b.txt"}
    assert absolute["guide/b.txt"][0] == document_id_for_path("guide/b.txt")
    monkeypatch.chdir(tmp_path / "work")
    assert _ids(["docs"]) == absolute
    assert _ids(["./docs/"]) == absolute
    monkeypatch.chdir(root / "guide")
    assert _ids([".."]) == absolute
    assert _ids([os.path.join("..", "..", "docs")]) == absolute


def test_a_file_named_directly_is_relative_to_its_parent(tmp_path, monkeypatch):
    root = _tree(tmp_path / "docs")
    assert load(root / "guide" / "b.txt").id == document_id_for_path("b.txt")
    monkeypatch.chdir(root)
    assert load("guide/b.txt").id == document_id_for_path("b.txt")
    assert load("guide/b.txt", root=".").id == document_id_for_path("guide/b.txt")
    assert load("guide/b.txt").source == "guide/b.txt"  # source stays the path as given
    with pytest.raises(ConfigError, match="not inside root"):
        load(root / "a.md", root=root / "guide")


def test_a_file_and_its_folder_give_each_document_once(tmp_path):
    root = _tree(tmp_path / "docs")
    for order in ([root / "guide" / "b.txt", root], [root, root / "guide" / "b.txt"], [root, root, root / "guide"]):
        found = list(find_files(order))
        assert sorted(f.relative for f in found) == ["a.md", "guide/b.txt"]  # the folder's path wins
        ids = [load(f).id for f in found]
        assert len(set(ids)) == len(ids)


def test_different_files_with_the_same_name_get_different_ids(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Docs\n", encoding="utf-8")
    (tmp_path / "other" / "a.md").write_text("# Other\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = list(find_files(["docs/a.md", "other/a.md"]))
    assert [f.relative for f in found] == ["docs/a.md", "other/a.md"]  # relative to the common folder
    assert len({load(f).id for f in found}) == 2
    found = list(find_files(["docs", "other"]))  # two folders holding a.md
    assert [f.relative for f in found] == ["docs/a.md", "other/a.md"]


def test_chunk_id_changes_with_the_text():
    doc = Document("Hello world. Bye.", source="x.txt")
    edited = Document("Jello world. Bye.", source="x.txt")
    assert doc.id == edited.id
    a, b = chunkwise.chunk(doc, chunk_size=12), chunkwise.chunk(edited, chunk_size=12)
    assert [(c.start_index, c.end_index) for c in a] == [(c.start_index, c.end_index) for c in b]
    assert a[0].id != b[0].id and a[1].id == b[1].id
    assert a[0].id == chunk_id(doc.id, a[0].start_index, a[0].end_index, a[0].text)
    assert [c.id for c in chunkwise.chunk(doc, chunk_size=12)] == [c.id for c in a]


def test_a_document_from_a_string_keeps_a_text_hash_id():
    assert Document("same text").id == Document("same text").id == document_id_for("same text")
    assert Document("same text").id != Document("other text").id
