"""Core invariants of the semantic family on hostile text (Hypothesis, fast test embedder)."""

from __future__ import annotations

import hashlib
import re

import pytest

np = pytest.importorskip("numpy")
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants
from test_invariants import hostile

from chunkwise.api import make_chunker
from chunkwise.sizers import CharSizer, WordSizer


class HashEmbedder:
    """Fast deterministic test embedder: hashed words into 8 dimensions; word token vectors."""

    name = "hash-bag-8"
    dim = 8

    def embed(self, texts):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.split():
                h = hashlib.blake2b(w.encode("utf-8", "surrogatepass"), digest_size=2).digest()
                out[i, h[0] % self.dim] += 1.0 if h[1] % 2 else -1.0
            out[i, 0] += 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def embed_tokens(self, text, window_overlap=0):
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        vecs = self.embed([text[a:b] for a, b in spans]) if spans else np.zeros((0, self.dim), np.float32)
        return vecs + (vecs.mean(0) if len(vecs) else 0), np.asarray(spans, dtype=np.int64).reshape(-1, 2)


CONFIGS = [
    ("semantic", {}),
    ("semantic", {"threshold_type": "absolute", "threshold": 0.3, "min_chunk_size": 2}),
    ("semantic", {"threshold_type": "gradient", "buffer_size": 1}),
    ("semantic", {"threshold_type": "standard_deviation", "threshold": 0.5}),
    ("semantic", {"threshold_type": "interquartile"}),
    ("semantic_cluster", {}),
    ("semantic_cluster", {"max_sentences": 3}),
    ("late", {}),
]


def _sizer(kind, cl100k):
    return {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]


def _spans(chunks):
    return [
        (c.start_index, c.end_index, c.metadata.get("boundary"), c.metadata.get("boundary_similarity")) for c in chunks
    ]


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@pytest.mark.parametrize(("strategy", "params"), CONFIGS)
@given(text=hostile, size=st.integers(1, 80), overlap_ratio=st.sampled_from([0, 0, 0.25]))
def test_invariants(request, kind, strategy, params, text, size, overlap_ratio):
    sizer = _sizer(kind, request.getfixturevalue("cl100k") if kind == "tokens" else None)
    overlap = min(size - 1, int(size * overlap_ratio))
    if "min_chunk_size" in params:  # (a floor above chunk_size is refused)
        params = {**params, "min_chunk_size": min(params["min_chunk_size"], size)}
    chunker = make_chunker(strategy, chunk_size=size, chunk_overlap=overlap, unit=sizer, model=HashEmbedder(), **params)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, sizer, overlap_allowed=overlap > 0)
    assert _spans(chunker.chunk(text)) == _spans(chunks)  # deterministic
    if strategy == "late":
        assert all(c.embedding is not None and c.embedding.shape == (8,) for c in chunks)


@given(paragraphs=st.lists(hostile, max_size=5), size=st.integers(1, 150))
def test_topic_invariants(paragraphs, size):
    pytest.importorskip("sklearn")
    text = "\n\n".join(paragraphs)
    chunker = make_chunker("topic", chunk_size=size, n_topics=2, restarts=1)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, CharSizer(), overlap_allowed=False)
    assert _spans(chunker.chunk(text)) == _spans(chunks)
