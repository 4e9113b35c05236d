"""The index: an empty source list is refused, the constructor's model is checked and used,
and a query returns k results when expanded results join (window, parents, merged)."""

from __future__ import annotations

import hashlib

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("usearch")

import chunkwise  # noqa: E402
from chunkwise.errors import ConfigError  # noqa: E402
from chunkwise.index import Index  # noqa: E402


class Bag:
    """Deterministic bag of hashed words in 32 dimensions."""

    name = "hash-bag-s26"
    dim = 32

    def embed(self, texts):  # type: ignore[no-untyped-def]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                h = hashlib.blake2b(w.strip(".,;:!?").encode(), digest_size=2).digest()
                out[i, h[0] % self.dim] += 1.0 if h[1] % 2 else -1.0
            out[i, 0] += 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _chunker():
    return chunkwise.make_chunker("sentence", chunk_size=40)


@pytest.mark.parametrize("empty", [[], (), "iterator"])
def test_an_empty_build_is_refused_and_keeps_the_index(tmp_path, empty):
    emb = Bag()
    with Index(tmp_path / "ix", model=emb) as ix:
        ix.build([chunkwise.Document("The pump moves water.", id="pumps")], chunker=_chunker())
        docs = iter([chunkwise.Document("The pump moves water.", id="pumps")])
        if empty == "iterator":
            ix.build(docs, chunker=_chunker())  # uses the iterator up
            empty = docs
        with pytest.raises(ConfigError, match=r"no document was given.*nothing was changed in the index"):
            ix.build(empty, chunker=_chunker())
        assert [h.chunk.document_id for h in ix.query("pump", k=3)] == ["pumps"]
        assert ix.info()["documents"] == 1


def test_an_empty_first_build_creates_no_index(tmp_path):
    with pytest.raises(ConfigError, match=r"no document was given.*was not created"):
        Index(tmp_path / "new", model=Bag()).build([], chunker=_chunker())
    assert not (tmp_path / "new").exists()


def test_removing_a_document_is_a_build_without_it(tmp_path):
    docs = [chunkwise.Document("The pump moves water.", id="pumps"), chunkwise.Document("A valve opens.", id="valves")]
    with Index(tmp_path / "ix", model=Bag()) as ix:
        ix.build(docs, chunker=_chunker())
        report = ix.build(docs[1:], chunker=_chunker())
        assert report.removed == ("pumps",)


def test_an_unknown_model_is_refused_by_the_constructor(tmp_path):
    with pytest.raises(ConfigError, match=r"model 'nope' is unknown"):
        Index(tmp_path / "ix", model="nope")
    assert not (tmp_path / "ix").exists()


def test_the_constructors_model_builds_the_index(tmp_path):
    emb = Bag()
    with Index(tmp_path / "ix", model=emb) as ix:
        report = ix.build([chunkwise.Document("The pump moves water.", id="pumps")], chunker=_chunker())
        assert report.model == "hash-bag-s26"
        assert ix.info()["model"] == "hash-bag-s26"
        assert ix.query("pump", k=1)[0].chunk.document_id == "pumps"


WORDS = "owls bees whales ants pumps valves tanks".split()
TEXTS = {f"d{i}": " ".join(f"The {w} sentence {j} is about {w}." for j in range(3)) for i, w in enumerate(WORDS)}


def _windowed(tmp_path):
    """Seven documents of three sentences; a window of one sentence either side, so the
    windows of one document join into the whole document."""
    ix = Index(tmp_path / "ix", model=Bag())
    docs = [chunkwise.Document(t, id=d) for d, t in TEXTS.items()]
    ix.build(docs, chunker=chunkwise.make_chunker("sentence", chunk_size=8, unit="words", window_sentences=1))
    return ix


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_window_query_returns_k_distinct_spans(tmp_path, k):
    with _windowed(tmp_path) as ix:
        hits = ix.query("tanks tanks tanks pumps owls", k=k, returns="window")
        assert len(hits) == k
        assert [h.rank for h in hits] == list(range(1, k + 1))
        assert hits[0].chunk.document_id == "d6"  # the tanks document first: its three sentences, one span
        assert len({h.chunk.document_id for h in hits}) == k  # one span a document: k documents
        for h in hits:
            text = TEXTS[h.chunk.document_id]
            assert h.chunk.text == text[h.chunk.start_index : h.chunk.end_index]
        matched = [m for h in hits for m in h.matched]
        assert len(matched) == len(set(matched))


def test_window_query_returns_what_the_index_holds_when_it_holds_fewer(tmp_path):
    with _windowed(tmp_path) as ix:
        hits = ix.query("tanks", k=50, returns="window")
        assert sorted(h.chunk.document_id for h in hits) == sorted(TEXTS)
        assert all(h.chunk.text == TEXTS[h.chunk.document_id] for h in hits)


def test_chunks_query_is_unchanged(tmp_path):
    with _windowed(tmp_path) as ix:
        assert len(ix.query("tanks pumps", k=3)) == 3
        assert len(ix.query("tanks pumps", k=50)) == 3 * len(TEXTS)


def test_parents_query_returns_k_distinct_parents(tmp_path):
    text = " ".join(t for t in TEXTS.values()) * 2
    with Index(tmp_path / "ix", model=Bag()) as ix:
        ix.build(
            [chunkwise.Document(text, id="d")],
            chunker=chunkwise.make_chunker("hierarchical", chunk_sizes=[60, 12], unit="words"),
        )
        for how in ("parents", "merged"):
            hits = ix.query("tanks pumps", k=3, returns=how)
            assert len(hits) == 3, how
            assert len({(h.chunk.start_index, h.chunk.end_index) for h in hits}) == 3
