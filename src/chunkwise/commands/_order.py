"""The order files were found in: the files to read and the files passed over, as one list.

:func:`~chunkwise.commands._inputs.gather` returns the files to read and the files of the
folders that were passed over (a format no loader reads) as two lists; a command that
reports every skipped file as it goes interleaves them with :func:`in_found_order`, so
that the skipped files come in the order :func:`chunkwise.loaders.find_files` walks
(the order of PATHS, sorted by path components inside each folder), as ``chunkwise
chunk`` reports them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._inputs import Input, Skipped

__all__ = ["folder_key", "in_found_order"]


def folder_key(paths: Sequence[Any]) -> Any:
    """A sort key of a file's path (as found: the folder given joined with the path in
    it) in :func:`chunkwise.loaders.find_files`'s order: the first of ``paths`` that is
    that file or a folder holding it, then its path components under that folder."""
    tops = [os.path.abspath(os.fspath(p)) for p in paths if str(p) != "-"]

    def key(path: str) -> tuple[int, tuple[str, ...]]:
        full = os.path.abspath(path)
        for i, top in enumerate(tops):
            if full == top:
                return i, ()
            if full.startswith(top.rstrip(os.sep) + os.sep):
                return i, Path(os.path.relpath(full, top)).parts
        return len(tops), Path(full).parts

    return key


def in_found_order(paths: Sequence[Any], inputs: Sequence[Input], skipped: Sequence[Skipped]) -> list[Input | Skipped]:
    """``inputs`` and ``skipped`` merged in the order the files were found; the inputs
    keep their own order (standard input first, as gathered), each skipped file comes
    before the first input found after it."""
    key = folder_key(paths)
    rest = sorted(skipped, key=lambda s: key(s.name))  # stable: the walk's order among equals
    out: list[Input | Skipped] = []
    j = 0
    for inp in inputs:
        if inp.path is not None:
            here = key(os.fspath(inp.path))
            while j < len(rest) and key(rest[j].name) < here:
                out.append(rest[j])
                j += 1
        out.append(inp)
    out.extend(rest[j:])
    return out
