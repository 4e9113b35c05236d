"""The vector file of an index (``chunkwise.index._vectors``): recall@10 against exact search
with the default settings, the tuning written next to the file, exact search below a size.

Recall is a correctness property (what fraction of the exact top 10 a query gets back), not
a speed: the vectors are seeded, the bound is the one a retrieval pipeline relies on.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("usearch")

from chunkwise.index._vectors import (  # noqa: E402
    EXACT_BELOW,
    EXPANSION_SEARCH,
    TARGET_RECALL,
    VectorFile,
    expansion_search,
    tuning_path,
)

DIM = 64
"""Small enough to build 20,000 vectors in seconds; uniformly random vectors of 64
dimensions are already hard for a graph search (64 candidates find about 75% of the top 10)."""
QUERIES = 200


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _random(n: int, seed: int) -> np.ndarray:
    return _unit(np.random.default_rng(seed).standard_normal((n, DIM)))


def _clustered(n: int, seed: int) -> np.ndarray:
    """200 random centres plus noise of 0.8 times their norm: clustered like embeddings of
    a corpus with topics."""
    rng = np.random.default_rng(seed)
    centres = _unit(rng.standard_normal((200, DIM)))
    return _unit(centres[rng.integers(0, len(centres), n)] + 0.8 * _unit(rng.standard_normal((n, DIM))))


def _exact_top(base: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    return np.argsort(-(queries @ base.T), axis=1, kind="stable")[:, :k]


def _recall(found: list[list[int]], truth: np.ndarray) -> float:
    k = truth.shape[1]
    return float(np.mean([len(set(f) & set(t.tolist())) / k for f, t in zip(found, truth)]))


def _saved(tmp_path_factory, name: str, vectors: np.ndarray):
    """``vectors`` (keys 0..n-1) built, saved and opened as ``chunkwise index`` does."""
    path = tmp_path_factory.mktemp(name) / "vectors-00000001.usearch"
    vf = VectorFile.new(DIM)
    vf.add(np.arange(len(vectors)), vectors)
    vf.save(path)
    return path, VectorFile.load(path, view=True)


@pytest.fixture(scope="module")
def random_file(tmp_path_factory):
    data = _random(EXACT_BELOW + QUERIES, seed=1)
    base, queries = data[:EXACT_BELOW], data[EXACT_BELOW:]
    path, vf = _saved(tmp_path_factory, "random", base)
    return base, queries, path, vf


@pytest.fixture(scope="module")
def clustered_file(tmp_path_factory):
    data = _clustered(EXACT_BELOW + QUERIES, seed=2)
    base, queries = data[:EXACT_BELOW], data[EXACT_BELOW:]
    path, vf = _saved(tmp_path_factory, "clustered", base)
    return base, queries, path, vf


def test_random_vectors_recall_at_10_with_default_settings(random_file):
    base, queries, _, vf = random_file
    assert len(vf) == EXACT_BELOW  # the smallest index searched through the graph by size
    truth = _exact_top(base, queries, 10)
    assert _recall([vf.search(q, 10)[0] for q in queries], truth) >= 0.95
    # the data is hard enough to test it: the fixed setting before tuning fell short
    vf._index.expansion_search = EXPANSION_SEARCH
    assert _recall([vf._index.search(q, 10).keys.tolist() for q in queries], truth) < 0.95


def test_clustered_vectors_are_searched_through_the_graph_with_recall(clustered_file):
    base, queries, _, vf = clustered_file
    assert vf.tuning is not None and not vf.tuning.exact
    assert EXPANSION_SEARCH <= vf.tuning.expansion and vf.tuning["recall"] >= TARGET_RECALL
    for k in (10, 50):
        truth = _exact_top(base, queries, k)
        found = [vf.search(q, k)[0] for q in queries]
        assert all(len(f) == k for f in found)
        assert _recall(found, truth) >= 0.95, k


def test_similarities_are_cosines_best_first(clustered_file):
    base, queries, _, vf = clustered_file
    keys, sims = vf.search(queries[0], 10)
    assert sims == sorted(sims, reverse=True)
    assert np.allclose(sims, base[keys] @ queries[0], atol=1e-4)


def test_the_tuning_is_written_next_to_the_file_and_read_back(clustered_file):
    _, _, path, vf = clustered_file
    written = json.loads(tuning_path(path).read_text(encoding="utf-8"))
    assert tuning_path(path).name == "vectors-00000001.usearch.search.json"
    assert written == dict(vf.tuning) and written["count"] == EXACT_BELOW and written["sample"] == 100


def test_a_changed_index_is_tuned_again_when_saved(clustered_file, tmp_path):
    base, _, path, _ = clustered_file
    vf = VectorFile.load(path, view=False)
    assert vf.tuning is not None
    vf.add([len(base)], base[:1])
    assert vf.tuning is None  # measured on other vectors
    vf.save(tmp_path / "v.usearch")
    again = VectorFile.load(tmp_path / "v.usearch", view=True)
    assert again.tuning["count"] == len(base) + 1 and len(again) == len(base) + 1


@pytest.mark.parametrize("harm", ["missing", "garbled", "another count"])
def test_without_a_usable_tuning_the_size_rule_searches(clustered_file, tmp_path, harm):
    base, queries, path, _ = clustered_file
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    side = tuning_path(copy)
    if harm == "garbled":
        side.write_text("{not json", encoding="utf-8")
    elif harm == "another count":
        side.write_text(json.dumps({"count": 7, "exact": True}), encoding="utf-8")
    vf = VectorFile.load(copy, view=True)
    assert vf.tuning is None
    truth = _exact_top(base, queries, 10)
    assert _recall([vf.search(q, 10)[0] for q in queries], truth) >= 0.95


def test_a_small_index_is_searched_exactly(tmp_path):
    data = _random(600, seed=3)
    base, queries = data[:500], data[500:]
    vf = VectorFile.new(DIM)
    vf.add(np.arange(500), base)
    vf.save(tmp_path / "v.usearch")
    vf = VectorFile.load(tmp_path / "v.usearch", view=True)
    assert vf.tuning["exact"] and vf.tuning["sample"] == 0  # nothing to measure below the size
    truth = _exact_top(base, queries, 10)
    assert [vf.search(q, 10)[0] for q in queries] == truth.tolist()
    assert vf.search(queries[0], 1000)[0] == _exact_top(base, queries[:1], 500)[0].tolist()
    assert vf.search(queries[0], 0) == ([], [])


def test_expansion_grows_with_k_and_without_tuning_with_size():
    assert expansion_search(10**6, 10, 100) == 100
    assert expansion_search(10**6, 50, 100) == 500  # about as many candidates per neighbour
    assert expansion_search(10**6, 5, 100) == 100
    assert expansion_search(30_000, 200, 64) == 1280
    untuned = [expansion_search(n, 10) for n in (20_000, 100_000, 200_000, 1_000_000, 10_000_000)]
    assert untuned == sorted(untuned) and untuned[0] == EXPANSION_SEARCH and untuned[3] > untuned[1]
    assert all(expansion_search(n, k) >= k for n in (1, 10**5, 10**7) for k in (1, 10, 100, 1000))
