"""The --exclude hint of a skipped .gz file names its kind (``*.tar.gz``), never every .gz."""

from __future__ import annotations

from pathlib import Path

from chunkwise.commands._inputs import exclude_hint, passed_over


def test_exclude_hint_of_compressed_files():
    assert exclude_hint(Path("d/src.tar.gz")) == "*.tar.gz"
    assert exclude_hint(Path("d/README.md.gz"), "pkg/README.md.gz") == "pkg/README.md.gz"
    assert exclude_hint(Path("d/NEWS.gz"), "pkg/NEWS.gz") == "pkg/NEWS.gz"
    assert exclude_hint(Path("d/photo.png")) == "*.png"  # unchanged for other files
    assert exclude_hint(Path("d/a.md"), "x/a.md") == "x/a.md"


def test_a_skipped_tar_gz_suggests_its_own_glob():
    s = passed_over(Path("doc/src.tar.gz"), "binary data (gzip-compressed) is not a supported format", "src.tar.gz")
    assert s.kind == "unsupported" and "--exclude '*.tar.gz'" in s.fix
