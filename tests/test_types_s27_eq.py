"""Chunks that carry an embedding compare by value, as other chunks do."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest

from chunkwise.types import Chunk


def _chunk(embedding):
    return Chunk("Pumps start at six.", 0, 19, embedding=embedding)


@pytest.mark.parametrize("vector", [np.arange(4, dtype=np.float32), [0.5, 0.25], None])
def test_equal_to_its_copies(vector):
    c = _chunk(vector)
    assert c == copy.deepcopy(c)
    assert c == pickle.loads(pickle.dumps(c))
    assert c == dataclasses.replace(c)
    assert c in [copy.deepcopy(c)]


def test_different_vectors_differ():
    a = _chunk(np.array([1.0, 2.0], dtype=np.float32))
    assert a != _chunk(np.array([1.0, 3.0], dtype=np.float32))
    assert a != _chunk(np.array([1.0, 2.0, 0.0], dtype=np.float32))  # another shape
    assert a != _chunk(None)
    assert _chunk(None) != a


def test_other_fields_still_compared():
    c = _chunk(np.ones(3))
    assert c != dataclasses.replace(c, context="Pumps")
    assert c != dataclasses.replace(c, index=1)
    assert c.__eq__("Pumps start at six.") is NotImplemented


def test_late_chunks_compare():
    import chunkwise

    chunks = chunkwise.chunk("Pumps start at six. Valves open at seven.", strategy="late", chunk_size=30)
    assert chunks[0].embedding is not None
    assert chunks[0] == copy.deepcopy(chunks[0])
    assert chunks[-1] in copy.deepcopy(chunks)
    assert chunks[0] != chunks[-1] or len(chunks) == 1
