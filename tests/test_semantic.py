"""The semantic family: "semantic", "semantic_cluster", "topic", "late"."""

from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

import chunkwise
from chunkwise.chunkers.semantic import (
    SemanticChunker,
    breakpoints,
    cluster_segments,
    segmentation_score,
    threshold_value,
)
from chunkwise.embeddings import EmbeddingCache
from chunkwise.errors import ConfigError
from chunkwise.thresholds import merge_small_groups

THREE_TOPICS = (
    "The Wright brothers made the first powered airplane flight in 1903. "
    "Orville and Wilbur Wright had built gliders at Kitty Hawk for several years before. "
    "Their aircraft, the Flyer, stayed in the air for twelve seconds on its first flight. "
    "To make pizza dough, mix flour, water, yeast and a pinch of salt in a bowl. "
    "Knead the dough for ten minutes until it is smooth and elastic. "
    "Let the dough rise in a warm place for an hour before shaping the pizza. "
    "The solar system has eight planets that orbit the Sun. "
    "Jupiter is the largest planet, and Mercury is the closest one to the Sun. "
    "The outer planets are gas giants with many moons and rings."
)
TOPIC_STARTS = ["The Wright brothers", "To make pizza dough", "The solar system"]


class HashEmbedder:
    """Fast deterministic test embedder: a bag of hashed words, 16-d, counting its texts."""

    name = "hash-bag-16"
    dim = 16

    def __init__(self):
        self.calls = 0

    def embed(self, texts):
        self.calls += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                h = hashlib.blake2b(w.strip(".,!?").encode("utf-8", "surrogatepass"), digest_size=2).digest()
                out[i, h[0] % self.dim] += 1.0 if h[1] % 2 else -1.0
            out[i, 0] += 0.01  # never an all-zero row
        return out / np.linalg.norm(out, axis=1, keepdims=True)


# -- thresholds, worked out by hand ---------------------------------------------------------

SIMS = [0.9, 0.8, 0.1, 0.85, 0.3]  # distances 0.1 0.2 0.9 0.15 0.7 (sorted: .1 .15 .2 .7 .9)


@pytest.mark.parametrize(
    ("kind", "value", "expect_threshold", "expect_cuts"),
    [
        ("percentile", 50, 0.2, [2, 4]),  # median distance 0.2
        ("percentile", 80, 0.74, [2]),  # position 3.2: 0.7 + 0.2 * (0.9 - 0.7)
        ("standard_deviation", 1, 0.41 + 0.3261901286, [2]),  # mean 0.41, population std sqrt(0.1064)
        ("interquartile", 1, 0.41 + 0.55, []),  # q25 0.15, q75 0.7
        ("interquartile", 0.5, 0.41 + 0.275, [2, 4]),
        ("gradient", 50, 0.1, [1, 4]),  # gradient of distances: .1 .4 -.025 -.1 .55, median .1
        ("absolute", 0.5, 0.5, [2, 4]),  # similarities below 0.5
    ],
)
def test_threshold_types_by_hand(kind, value, expect_threshold, expect_cuts):
    assert threshold_value(SIMS, kind, value) == pytest.approx(expect_threshold, abs=1e-9)
    assert breakpoints(SIMS, kind, value) == expect_cuts


def test_thresholds_of_no_similarities():
    assert breakpoints([], "percentile", 95) == []
    assert breakpoints([0.3], "gradient", 50) == []


def test_small_groups_join_their_more_similar_neighbour():
    # sentence sizes 9, 50, 60, 6 (a unit of the caller's choice); every gap is a cut
    sizes = [9, 50, 60, 6]

    def size(a, b):
        return sum(sizes[a:b])

    assert merge_small_groups([0, 1, 2], [0.1, 0.5, 0.2], 4, size, 0) == [0, 1, 2]
    assert merge_small_groups([0, 1, 2], [0.1, 0.5, 0.2], 4, size, 40) == [1]  # the end groups join inwards
    # a small group in the middle joins the side it is more similar to
    assert merge_small_groups([0, 1], [0.9, 0.2], 3, lambda a, b: sum([50, 5, 50][a:b]), 20) == [1]
    assert merge_small_groups([0, 1], [0.2, 0.9], 3, lambda a, b: sum([50, 5, 50][a:b]), 20) == [0]
    # nothing can reach the floor: everything becomes one group
    assert merge_small_groups([0, 1], [0.2, 0.9], 3, lambda a, b: b - a, 10) == []


def test_min_chunk_size_counts_in_the_unit_and_binds_threshold_cuts():
    # each sentence its own topic: absolute threshold cuts at every gap
    text = "Aa one. Bb two. Cc three. Dd four. Ee five. Ff six."

    def fn(texts):
        return [[1.0 if t[0] == ch else 0.0 for ch in "ABCDEF"] for t in texts]

    ch = SemanticChunker(model=fn, chunk_size=200, threshold_type="absolute", threshold=0.5)
    assert ch.floor == 50
    chunks = ch.chunk(text)  # 51 characters, every group under a quarter of 200: one chunk
    assert [c.text for c in chunks] == [text]
    ch = SemanticChunker(model=fn, chunk_size=40, threshold_type="absolute", threshold=0.5, min_chunk_size=16)
    assert ch.floor == 16
    texts = [c.text for c in ch.chunk(text)]
    assert "".join(texts).replace(" ", "") == text.replace(" ", "")
    assert all(len(t) >= 16 for t in texts), texts
    # a floor above chunk_size cannot be met: refused, naming the parameter
    with pytest.raises(ConfigError, match="min_chunk_size"):
        SemanticChunker(model=fn, chunk_size=20, threshold_type="absolute", threshold=0.5, min_chunk_size=30)


# -- the real default model --------------------------------------------------------------------


def _need_default():
    try:
        from chunkwise.embeddings import get_embedder

        get_embedder()
    except ImportError as exc:
        pytest.skip(f"semantic extra not installed: {exc}")


@pytest.mark.parametrize(("kind", "value"), [("percentile", 75), ("standard_deviation", 1.0), ("interquartile", 0.5)])
def test_three_topics_give_three_chunks_with_default_model(kind, value):
    _need_default()
    # the topics are 188-237 characters: chunk_size 700 keeps them over the floor (175)
    chunks = chunkwise.chunk(THREE_TOPICS, strategy="semantic", chunk_size=700, threshold_type=kind, threshold=value)
    assert [c.text.split(",")[0][: len(s)] for c, s in zip(chunks, TOPIC_STARTS)] == TOPIC_STARTS
    assert len(chunks) == 3
    assert [c.metadata["boundary"] for c in chunks] == ["semantic", "semantic", "end"]
    sims = [c.metadata["boundary_similarity"] for c in chunks]
    assert sims[2] is None and all(s < 0.2 for s in sims[:2])


def test_three_topics_with_minilm():
    try:
        chunks = chunkwise.chunk(
            THREE_TOPICS,
            strategy="semantic",
            chunk_size=700,
            model="minilm",
            threshold_type="percentile",
            threshold=75,
        )
    except ImportError as exc:
        pytest.skip(f"MiniLM files not installed: {exc}")
    assert [c.text[: len(s)] for c, s in zip(chunks, TOPIC_STARTS)] == TOPIC_STARTS and len(chunks) == 3


def test_three_topics_with_semantic_cluster():
    _need_default()
    chunks = chunkwise.chunk(THREE_TOPICS, strategy="semantic_cluster", chunk_size=300)
    starts = [c.start_index for c in chunks]
    for s in TOPIC_STARTS[1:]:
        assert THREE_TOPICS.index(s) in starts
    assert all(c.size <= 300 for c in chunks)


@pytest.mark.parametrize("text", ["", "   \n\n  ", "Only one sentence here."])
def test_degenerate_inputs(text):
    _need_default()
    chunks = chunkwise.chunk(text, strategy="semantic", chunk_size=200)
    assert [c.text for c in chunks] == ([text] if text.strip() else [])


def test_giant_sentence_without_punctuation_is_capped():
    _need_default()
    text = " ".join(["status green value nominal check passed"] * 60)
    chunks = chunkwise.chunk(text, strategy="semantic", chunk_size=512)
    assert len(chunks) > 1 and all(c.size <= 512 for c in chunks)
    assert all(text[c.end_index : c.end_index + 1] in ("", " ") for c in chunks)


# -- the hard cap --------------------------------------------------------------------------------


def test_group_over_the_cap_splits_at_weakest_similarity():
    # identical vectors except one weak link: no threshold cut, the cap splits at the weak link
    text = "Aa one. Aa two. Aa three. Bb four. Aa five. Aa six."

    def fn(texts):
        return [[1.0, 0.0] if t.startswith("Aa") else [0.6, 0.8] for t in texts]

    ch = SemanticChunker(model=fn, chunk_size=30, threshold_type="absolute", threshold=0.0)
    chunks = ch.chunk(text)
    assert [c.text for c in chunks] == ["Aa one. Aa two. Aa three.", "Bb four. Aa five. Aa six."]
    assert chunks[0].metadata["boundary"] == "semantic_split"
    assert chunks[0].metadata["boundary_similarity"] == pytest.approx(0.6)


FURNACE = (
    "Overview. The furnace heats the steel bars to a high heat. The steel bars then cool slowly in the furnace "
    "hall. Workers check each steel bar for cracks after cooling. Cracked bars go back to the furnace for a "
    "second heat. The finished bars are stacked and shipped to the rail yard. Trains leave the rail yard every "
    "morning. Noted."
)


def _furnace_model(texts):
    # the one-word sentences are unlike everything: the weakest links are next to them
    return [[0.0, 1.0] if len(t) < 10 else [1.0, 0.2 * (len(t) % 3)] for t in texts]


def test_the_size_cap_split_keeps_the_floor():
    # no threshold cut (absolute -1); 325 characters over a cap of 200: the weakest links
    # would leave "Overview." or "Noted." alone, the floor (50) moves the cut inwards
    ch = SemanticChunker(model=_furnace_model, chunk_size=200, threshold_type="absolute", threshold=-1.0)
    texts = [c.text for c in ch.chunk(FURNACE)]
    assert len(texts) >= 2 and all(len(t) >= 50 for t in texts), texts
    assert texts[0].startswith("Overview. The furnace") and texts[-1].endswith("every morning. Noted.")
    assert all(c.metadata["boundary"] in ("semantic_split", "end") for c in ch.chunk(FURNACE))
    # the same with a threshold that cuts at both one-word sentences
    ch = SemanticChunker(model=_furnace_model, chunk_size=200, threshold_type="absolute", threshold=0.5)
    texts = [c.text for c in ch.chunk(FURNACE)]
    assert all(len(t) >= 50 for t in texts), texts


def test_parse_hands_the_packer_groups_scored_cuts_and_labels():
    ch = SemanticChunker(model=_furnace_model, chunk_size=200, threshold_type="absolute", threshold=0.5)
    doc = chunkwise.Document(FURNACE)
    segs = ch.parse(doc)
    sents = chunkwise.split_sentences(FURNACE)
    assert segs.overlap_across_regions and [lv.name for lv in segs.levels] == ["sentence"]
    assert segs.regions[0].start == 0 and segs.regions[-1].end == len(FURNACE)
    assert [r.end_boundary for r in segs.regions] == ["semantic"] * (len(segs.regions) - 1) + ["end"]
    assert segs.scored.name == "semantic_split"
    assert list(segs.scored.starts) == [e for _, e in sents[:-1]]
    assert list(segs.scored.ends) == [s for s, _ in sents[1:]]
    a = ch.analyze(doc)
    assert a.segments == segs and len(a.similarities) == len(sents) - 1
    assert [(c.start_index, c.end_index) for c in ch.chunk(doc)] == [(sp.start, sp.end) for sp in a.spans]
    assert [c.metadata["boundary_similarity"] for c in ch.build_chunks(doc, a.spans, a.segments)] == [
        c.metadata["boundary_similarity"] for c in ch.chunk(doc)
    ]


def test_boundary_similarity_on_every_chunk():
    emb = HashEmbedder()
    text = "One two three four five six seven eight nine ten eleven twelve. " + " ".join(
        f"Sentence {i} is about topic {i % 4}." for i in range(20)
    )
    for kw in ({"chunk_size": 60}, {"chunk_size": 80, "chunk_overlap": 20}, {"chunk_size": 10, "unit": "words"}):
        for strategy in ("semantic", "semantic_cluster"):
            chunks = chunkwise.chunk(text, strategy=strategy, model=emb, **kw)
            sents = {e: k for k, (_, e) in enumerate(chunkwise.split_sentences(text))}
            for c in chunks:
                sim = c.metadata["boundary_similarity"]
                if c.end_index == len(text.rstrip()) or c.end_index not in sents:
                    assert sim is None  # the end, or inside a sentence (the word fallback)
                else:
                    assert isinstance(sim, float)


def test_overlap_and_words_unit_keep_the_cap():
    emb = HashEmbedder()
    text = " ".join(f"Sentence number {i} talks about topic {i % 3} here." for i in range(40))
    for kw in (
        {"unit": "words", "chunk_size": 30, "chunk_overlap": 5},
        {"unit": "chars", "chunk_size": 200, "chunk_overlap": 40},
    ):
        for strategy in ("semantic", "semantic_cluster"):
            chunks = chunkwise.chunk(text, strategy=strategy, model=emb, **kw)
            assert chunks and all(c.size <= kw["chunk_size"] for c in chunks)
            assert all(c.text == text[c.start_index : c.end_index] for c in chunks)


def test_config_errors_name_the_parameter():
    with pytest.raises(ConfigError, match="threshold_type"):
        SemanticChunker(threshold_type="median")
    with pytest.raises(ConfigError, match="percentile"):
        SemanticChunker(threshold=150)
    with pytest.raises(ConfigError, match="min_chunk_size"):
        SemanticChunker(min_chunk_size=0)
    with pytest.raises(ConfigError, match="buffer_size"):
        SemanticChunker(buffer_size=-1)
    with pytest.raises(ConfigError, match="n_topics"):
        chunkwise.make_chunker("topic", n_topics=1)
    with pytest.raises(ConfigError, match="base_strategy|unknown"):
        chunkwise.make_chunker("late", base_strategy="nope")


def test_buffer_window_embeds_neighbours():
    seen = []

    def fn(texts):
        seen.extend(texts)
        return [[1.0, float(len(t))] for t in texts]

    text = "One. Two. Three."
    SemanticChunker(model=fn, buffer_size=1).chunk(text)
    assert seen == ["One. Two.", "One. Two. Three.", "Two. Three."]


# -- no embedding twice --------------------------------------------------------------------------


def test_rechunking_with_other_threshold_and_size_embeds_nothing(tmp_path):
    emb = HashEmbedder()
    docs = [THREE_TOPICS, " ".join(f"Line {i} of the second document is here." for i in range(30))]
    cache = tmp_path / "emb.sqlite"
    for d in docs:
        chunkwise.chunk(d, strategy="semantic", chunk_size=400, model=emb, cache=cache)
    first = emb.calls
    assert first > 0
    for d in docs:
        chunkwise.chunk(
            d, strategy="semantic", chunk_size=400, model=emb, cache=cache, threshold_type="absolute", threshold=0.3
        )
        chunkwise.chunk(d, strategy="semantic", chunk_size=150, model=emb, cache=cache)
        chunkwise.chunk(d, strategy="semantic_cluster", chunk_size=250, model=emb, cache=EmbeddingCache(cache))
    assert emb.calls == first


# -- the DP against brute force ------------------------------------------------------------------


def _brute(sim, sizes, budget, max_sentences, min_size=0):
    """(fewest runts, best score) over every segmentation within the cap."""
    n = len(sizes)
    best = (np.inf, -np.inf)
    for mask in itertools.product([0, 1], repeat=n - 1):
        cuts = [i + 1 for i, m in enumerate(mask) if m]
        bounds = [0, *cuts, n]
        segs = list(itertools.pairwise(bounds))
        ok = all(
            (b - a == 1 or sum(sizes[a:b]) <= budget) and (max_sentences is None or b - a <= max_sentences)
            for a, b in segs
        )
        if ok:
            runts = sum(sum(sizes[a:b]) < min_size for a, b in segs) if len(segs) > 1 else 0
            score = segmentation_score(sim, segs)
            if runts < best[0] or (runts == best[0] and score > best[1]):
                best = (runts, score)
    return best


@pytest.mark.parametrize("seed", range(25))
def test_cluster_dp_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 9))
    v = rng.normal(size=(n, 4))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    sim = v @ v.T
    sizes = [int(x) for x in rng.integers(1, 10, size=n)]
    budget = int(rng.integers(5, 25))
    max_sentences = None if seed % 3 else int(rng.integers(1, 4))
    segs, score = cluster_segments(sim, sizes, budget, max_sentences)
    assert [a for a, _ in segs] == sorted(a for a, _ in segs) and segs[0][0] == 0 and segs[-1][1] == n
    assert all(b2 == a1 for (_, b2), (a1, _) in itertools.pairwise(segs))
    assert all(
        (b - a == 1 or sum(sizes[a:b]) <= budget) and (max_sentences is None or b - a <= max_sentences) for a, b in segs
    )
    assert score == pytest.approx(segmentation_score(sim, segs), abs=1e-9)
    assert score == pytest.approx(_brute(sim, sizes, budget, max_sentences)[1], abs=1e-9)


@pytest.mark.parametrize("seed", range(40))
def test_cluster_dp_with_a_floor_has_the_fewest_runts_then_the_best_score(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(1, 10))
    v = rng.normal(size=(n, 4))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    sim = v @ v.T
    sizes = [int(x) for x in rng.integers(1, 12, size=n)]
    budget = int(rng.integers(5, 30))
    min_size = int(rng.integers(0, budget // 2 + 2))
    max_sentences = None if seed % 4 else int(rng.integers(1, 4))
    segs, score = cluster_segments(sim, sizes, budget, max_sentences, min_size)
    runts = sum(sum(sizes[a:b]) < min_size for a, b in segs) if len(segs) > 1 else 0
    want_runts, want_score = _brute(sim, sizes, budget, max_sentences, min_size)
    assert runts == want_runts
    assert score == pytest.approx(want_score, abs=1e-9)
    assert score == pytest.approx(segmentation_score(sim, segs), abs=1e-9)


# -- topic -----------------------------------------------------------------------------------


def test_topic_cuts_where_the_topic_changes():
    pytest.importorskip("sklearn")
    planes = "Airplane wings lift the airplane. Pilots fly the airplane over airports with engines and wings."
    dough = "Pizza dough needs flour, yeast and water. Knead the pizza dough and bake the pizza in an oven."
    text = "\n\n".join([planes, planes.replace("Pilots", "Crews"), dough, dough.replace("Knead", "Stretch")])
    chunks = chunkwise.chunk(text, strategy="topic", n_topics=2, chunk_size=300)
    assert [c.text for c in chunks] == ["\n\n".join(text.split("\n\n")[:2]), "\n\n".join(text.split("\n\n")[2:])]
    assert chunks[0].metadata["boundary"] == "topic"


# -- late chunking ---------------------------------------------------------------------------


class CharTokenEmbedder(HashEmbedder):
    """Token vectors for each word, made contextual by mixing in the document mean."""

    name = "char-token-toy"

    def embed_tokens(self, text, window_overlap=0):
        import re

        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        if not words:
            return np.zeros((0, self.dim), dtype=np.float32), np.zeros((0, 2), dtype=np.int64)
        vecs = self.embed([text[a:b] for a, b in words])
        vecs = vecs + vecs.mean(0)
        return vecs.astype(np.float32), np.asarray(words, dtype=np.int64)


def test_late_chunks_carry_normalised_embeddings_from_token_spans():
    text = "Alpha beta gamma. Delta epsilon zeta. Eta theta iota."
    chunks = chunkwise.chunk(text, strategy="late", chunk_size=20, model=CharTokenEmbedder())
    assert [c.text for c in chunks] == ["Alpha beta gamma.", "Delta epsilon zeta.", "Eta theta iota."]
    for c in chunks:
        assert c.embedding.shape == (16,) and abs(float(np.linalg.norm(c.embedding)) - 1) < 1e-5
        assert c.metadata["late"] is True


def test_late_with_minilm_adds_context():
    text = (
        "Berlin is the capital and largest city of Germany. "
        "Its more than 3.85 million inhabitants make it the most populous city of the European Union. "
        "The city is also one of the states of Germany."
    )
    try:
        chunks = chunkwise.chunk(text, strategy="late", chunk_size=100)
    except ImportError as exc:
        pytest.skip(f"MiniLM files not installed: {exc}")
    from chunkwise.embeddings import get_embedder

    emb = get_embedder("minilm")
    q = emb.embed(["Berlin"])[0]
    alone = emb.embed([c.text for c in chunks])
    late = np.stack([c.embedding for c in chunks])
    # "The city is also ..." mentions no Berlin: late chunking carries it in (paper, table 1)
    assert late[-1] @ q > alone[-1] @ q
    assert len(chunks) == 3 and all(c.size <= 100 for c in chunks)


def test_late_packs_what_its_base_strategy_parses():
    late = chunkwise.make_chunker("late", chunk_size=30, base_strategy="recursive", model=CharTokenEmbedder())
    doc = chunkwise.Document("Alpha beta gamma. Delta epsilon zeta.\n\nEta theta iota.")
    assert late.parse(doc) == late.base.parse(doc) and late.pack_config() == late.base.pack_config()
    assert [c.text for c in late.chunk(doc)] == [c.text for c in late.base.chunk(doc)]


def test_late_needs_token_vectors():
    with pytest.raises(ConfigError, match="token"):
        chunkwise.chunk("One. Two.", strategy="late", model=HashEmbedder())


def test_importing_the_strategies_loads_no_numpy():
    code = "import sys, chunkwise; chunkwise.strategy_names(); import chunkwise.embeddings; print('numpy' in sys.modules, 'tokenizers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
