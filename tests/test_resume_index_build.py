"""``chunkwise index build`` and the options of ``chunkwise chunk``: ``--workers`` is
refused with a plain reason; files skipped under the progress bar are each said on a line
of their own."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli

np = pytest.importorskip("numpy")
pytest.importorskip("usearch")


class _HashEmbedder:
    """A bag of hashed words in 16 dimensions: offline, deterministic."""

    name = "hash-bag-16"
    dim = 16

    def embed(self, texts: list[str]) -> object:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                out[i, hashlib.blake2b(w.encode(), digest_size=1).digest()[0] % self.dim] += 1.0
            out[i, 0] += 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for i in range(3):
        (root / f"d{i}.txt").write_text(f"The pump number {i} moves water uphill. " * 5, encoding="utf-8")
    for i in range(3):
        (root / f"e{i}.txt").write_bytes(b"")  # empty: skipped and named
    return root


def test_index_build_refuses_workers_saying_why(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    for flag in ("--workers", "-j"):
        r = CliRunner().invoke(cli, ["index", "build", str(root), "--index", str(tmp_path / "ix"), flag, "2"])
        assert r.exit_code == 2 and "one process" in r.output and "leave out --workers" in r.output, r.output
        assert "No such option" not in r.output
    assert not (tmp_path / "ix").exists()


def test_index_build_says_each_skipped_file_on_a_line_of_its_own(tmp_path: Path, monkeypatch) -> None:
    from chunkwise import embeddings

    monkeypatch.setattr(embeddings, "RETRIEVAL_MODEL", _HashEmbedder())
    root = _folder(tmp_path)
    r = CliRunner().invoke(cli, ["index", "build", str(root), "--index", str(tmp_path / "ix"), "--progress",
                                 "-u", "chars", "-n", "60"])
    assert r.exit_code == 0, r.output
    assert "indexing" in r.stderr  # the bar was drawn
    pieces = [p for p in re.split(r"[\r\n]", r.stderr) if "skipped " in p and "empty document" in p]
    assert len(pieces) == 3
    assert all(p.startswith("skipped ") for p in pieces), pieces
