"""One folder streamed: :func:`chunkwise.loaders.find_files` classifies each file as it
yields it (a folder without symbolic links); ``chunkwise chunk`` lists the folder without
reading a file (:func:`chunkwise.loaders.files.list_folder`) and its workers classify each
file (:func:`~chunkwise.loaders.files.classify_entry`: the same files, formats and ids),
writing the same bytes and reporting the same skipped files (in input order, with any
number of workers, with the progress bar or without) as when it finds every file first
(several paths, or a folder with symbolic links)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.loaders import files as files_mod
from chunkwise.loaders import find_files


def _tree(root: Path) -> Path:
    (root / "b").mkdir(parents=True)
    for name in ("a.txt", "b/c.md", "b/d.txt", "e.html", "z.txt"):
        (root / name).write_text(f"# {name}\n\nSome words about {name}. And more of them.\n", encoding="utf-8")
    (root / "b" / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    return root


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    seen: list[Path] = []
    real = files_mod._classify

    def classify(path: Path, *a: object, **k: object) -> object:
        seen.append(path)
        return real(path, *a, **k)

    monkeypatch.setattr(files_mod, "_classify", classify)
    return seen


def test_one_folder_is_classified_as_it_is_yielded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path / "docs")
    seen = _counting(monkeypatch)
    skipped: list = []
    it = find_files([root], skipped=skipped)
    first = next(it)
    assert first.relative == "a.txt" and len(seen) == 1  # the rest not read yet
    rest = list(it)
    assert [f.relative for f in [first, *rest]] == ["a.txt", "b/c.md", "b/d.txt", "e.html", "z.txt"]
    assert [Path(s.path).name for s in skipped] == ["img.png"] and len(seen) == 6


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_folder_with_a_link_is_classified_whole_first_and_finds_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "docs")
    (root / "again").symlink_to(root / "b", target_is_directory=True)  # b/c.md and b/d.txt reached twice
    seen = _counting(monkeypatch)
    it = find_files([root])
    first = next(it)
    assert len(seen) == 9  # every entry classified before the first is yielded: duplicates resolved
    found = [first, *it]
    assert [f.relative for f in found] == ["a.txt", "b/c.md", "b/d.txt", "e.html", "z.txt"]


def _chunk(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["chunk", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_streamed_and_listed_folders_give_the_same_output_and_report(tmp_path: Path, workers: str) -> None:
    root = _tree(tmp_path / "docs")
    (root / "b" / "fake.docx").write_bytes(b"PK\x03\x04 not really a zip")  # fails in the worker
    outs = []
    # streamed (one folder: listed, classified by the workers), with and without the progress bar
    # (its sizes from the walk); listed and classified first (the folder named twice: found once)
    for k, (paths, bar) in enumerate((([root], "--no-progress"), ([root], "--progress"), ([root, root], "--progress"))):
        out = tmp_path / f"o{k}.jsonl"
        code, _, err = _chunk(*map(str, paths), "-u", "chars", "-n", "40", "-j", workers, bar, "-o", str(out))
        assert code == 1, err
        # the same files reported, with the same reasons (the progress bar shares standard error)
        assert "skipped 2 files: " in err
        outs.append((out.read_bytes(), sorted(re.findall(r"skipped (/[^:]+: [^;]+); fix", err))))
    assert outs[0] == outs[1] == outs[2]
    assert any("img.png" in x for x in outs[0][1]) and any("fake.docx" in x for x in outs[0][1])


def test_a_streamed_folder_without_files_is_a_usage_error_and_one_of_unsupported_files_exit_1(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = _chunk(str(empty), "--no-progress", "-o", str(tmp_path / "o.jsonl"))
    assert code == 2 and "no file to read" in err
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    previous = tmp_path / "kept.jsonl"
    previous.write_bytes(b"old\n")
    code, _, err = _chunk(str(odd), "--no-progress", "-o", str(previous))
    assert code == 1 and "img.png" in err and previous.read_bytes() == b"old\n"


# -- chunk's streamed folder: listed in the parent, classified in the workers ----------


def _odd_tree(root: Path) -> Path:
    """Good files with, in between them in sorted order, one a loader does not read
    (``b/img.png``), one that fails in its loader (``c/fake.docx``) and one undecodable
    (``d.txt``)."""
    _tree(root)
    (root / "c").mkdir()
    (root / "c" / "fake.docx").write_bytes(b"PK\x03\x04 not really a zip")
    (root / "d.txt").write_bytes(b"\xff\xfe not utf-8 \x80\x81")
    (root / ".hidden.txt").write_text("never read", encoding="utf-8")
    return root


def test_list_folder_and_classify_entry_give_the_files_find_files_gives(tmp_path: Path) -> None:
    from chunkwise.loaders.files import classify_entry, list_folder

    root = _odd_tree(tmp_path / "docs")
    for include, exclude, base in ((None, None, None), (["*.txt", "b"], ["z.txt"], None), (None, None, tmp_path)):
        skipped: list = []
        found = list(find_files([root], include=include, exclude=exclude, skipped=skipped, root=base))
        listed = list_folder(root, include=include, exclude=exclude)
        assert listed is not None
        assert [size for _, size in listed] == [(root / rel).stat().st_size for rel, _ in listed]
        entries = [classify_entry(root, rel, base) for rel, _ in listed]
        assert [e for e in entries if e.supported] == found  # same paths, roots, formats, ids
        assert [e for e in entries if not e.supported] == skipped


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_folder_with_a_link_is_not_listed_for_streaming(tmp_path: Path) -> None:
    from chunkwise.loaders.files import list_folder

    root = _tree(tmp_path / "docs")
    assert list_folder(root) is not None
    (root / "again").symlink_to(root / "b", target_is_directory=True)
    assert list_folder(root) is None  # a file reached twice: only find_files resolves it


def test_streamed_folder_reports_skipped_files_in_input_order_with_any_workers(tmp_path: Path) -> None:
    root = _odd_tree(tmp_path / "docs")
    reports, outputs = [], []
    for workers in ("1", "2"):
        out = tmp_path / f"o{workers}.jsonl"
        code, _, err = _chunk(str(root), "-u", "chars", "-n", "40", "-j", workers, "--no-progress", "-o", str(out))
        assert code == 1, err
        reports.append([line for line in err.splitlines() if line.startswith("skipped ")])
        outputs.append(out.read_bytes())
    assert reports[0] == reports[1] and outputs[0] == outputs[1]
    names = [re.match(r"skipped (\S+):", line).group(1) for line in reports[0] if ":" in line.split()[1]]
    assert [Path(n).relative_to(root).as_posix() for n in names] == ["b/img.png", "c/fake.docx", "d.txt"]
    assert "png is not a supported format" in reports[0][0] and "--exclude '*.png'" in reports[0][0]
    assert "not valid UTF-8" in reports[0][2] and ".hidden" not in "\n".join(reports[0])


@pytest.mark.parametrize("args", [["--root", "{tmp}"], ["--include", "*.md", "--include", "a.txt"], ["--exclude", "b"]])
def test_streamed_folder_with_root_and_filters_writes_what_a_listed_one_writes(tmp_path: Path, args: list) -> None:
    root = _odd_tree(tmp_path / "docs")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    outs = []
    for k, paths in enumerate(([root], [root, root])):  # streamed; listed (the folder named twice)
        out = tmp_path / f"o{k}.jsonl"
        code, _, err = _chunk(*map(str, paths), *args, "-u", "chars", "-n", "40", "-j", "2", "-o", str(out))
        assert code in (0, 1), err
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0]
    if args[0] == "--root":
        assert b'"relative_path": "docs/a.txt"' in outs[0]


def test_a_streamed_entry_travels_as_its_fields_and_is_classified_where_it_is_read(tmp_path: Path) -> None:
    import pickle

    from chunkwise.commands._chunk_run import FolderEntry, PassedOver, read_item

    root = _odd_tree(tmp_path / "docs")
    entry = FolderEntry(str(root), "b/c.md", 10)
    doc = read_item((entry, None), None, "auto", {})
    assert entry.found is not None and entry.found.format == "markdown" and doc.id == entry.found.id
    copy = pickle.loads(pickle.dumps(entry))
    assert copy.found is None and (copy.folder, copy.relative, copy.size, copy.root) == (str(root), "b/c.md", 10, None)
    with pytest.raises(PassedOver) as caught:
        read_item((FolderEntry(str(root), "b/img.png"), None), None, "auto", {})
    assert caught.value.skipped.kind == "unsupported" and caught.value.skipped.name.endswith("b/img.png")
