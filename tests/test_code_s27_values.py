"""The code strategy's parse builds its atoms and regions without the frozen dataclasses'
``__init__`` (a blank of the same slots, then ``__class__``): they are the values the
constructors give."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from chunkwise.chunkers import code as code_module
from chunkwise.chunkers.code import CodeChunker
from chunkwise.segments import Atom, Region
from chunkwise.types import Document

CORPUS = Path(__file__).parent / "corpus" / "code"


def test_the_fast_constructors_are_in_use():
    assert code_module._atom is code_module._swap_atom
    assert code_module._region is code_module._swap_region


@pytest.mark.parametrize(("lang", "name"), [("python", None), ("go", "shapes.go"), ("c", "strbuf.c")])
def test_atoms_and_regions_equal_the_constructed_ones(lang, name):
    source = Path(code_module.__file__) if name is None else CORPUS / name
    text = source.read_text(encoding="utf-8")
    chunker = CodeChunker(language=lang, chunk_size=300)
    doc = Document(text)
    segments = chunker.parse(doc, chunker.sizer.measure(text))
    assert len(segments.atoms) > 5 and len(segments.regions) > 3
    for a in segments.atoms:
        made = Atom(a.start, a.end, a.kind, a.cuts, a.cut_name)
        assert type(a) is Atom and a == made and hash(a) == hash(made) and repr(a) == repr(made)
        assert pickle.loads(pickle.dumps(a)) == a == copy.deepcopy(a) and replace(a, kind="x").kind == "x"
        with pytest.raises(AttributeError):
            a.start = 0  # type: ignore[misc]  # (frozen, as made by the constructor)
    for r in segments.regions:
        made = Region(r.start, r.end, r.reserve, r.end_boundary, r.levels, r.level)
        assert type(r) is Region and r == made and hash(r) == hash(made)
        assert pickle.loads(pickle.dumps(r)) == r
