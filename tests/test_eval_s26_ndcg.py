"""nDCG with overlapping spans (sentence windows, merged parents, chunk overlap).

A span's gain is the share of the reference characters it covers that no higher-ranked
span covered; the ideal DCG is that of the best ranking of k spans (Järvelin &
Kekäläinen 2002). So a ranking whose first span holds the whole answer scores 1 at any k,
and text that two spans share earns its gain once.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.evaluation.metrics import _best_coverage, intersection_length, score_question, union

np = pytest.importorskip("numpy")

from test_expand import Words as HashedWords  # noqa: E402


def _windows(n_sentences: int, size: int, w: int) -> list[tuple[str, int, int]]:
    """The windows of n sentences of ``size`` characters, ``w`` sentences either side."""
    return [("d", max(0, i - w) * size, min(n_sentences, i + w + 1) * size) for i in range(n_sentences)]


def test_first_window_holding_the_answer_scores_one_at_every_k() -> None:
    # 10 sentences of 20 characters, windows of +-2 sentences; the answer is sentence 5.
    cands = _windows(10, 20, 2)
    ref = [("d", 100, 120)]
    # five windows hold the whole answer; the run returns one of them first, then others
    for k in (1, 2, 3, 8):
        retrieved = [cands[5], ("d", 0, 20), ("d", 180, 200), ("e", 0, 50)][:k] + [("e", 50 + i, 51 + i) for i in range(max(0, k - 4))]
        s = score_question(retrieved, ref, cands)
        assert s.recall == 1.0 and s.mrr == 1.0
        assert s.ndcg == pytest.approx(1.0)


def test_the_answer_retrieved_twice_earns_its_gain_once() -> None:
    # two overlapping windows both hold the answer: the second adds nothing
    ref = [("d", 100, 120)]
    cands = _windows(10, 20, 2)
    s = score_question([cands[5], cands[6]], ref, cands)
    assert s.ndcg == pytest.approx(1.0)
    # the answer at rank 2 only: DCG 1/log2(3); the ideal has it at rank 1
    s = score_question([cands[0], cands[5]], ref, cands)
    assert s.ndcg == pytest.approx(1 / math.log2(3))


def test_overlapping_chunks_split_the_gain_by_new_characters() -> None:
    # reference [0, 30); chunks [0, 20) then [10, 30): gains 20/30 and 10/30
    ref = [("d", 0, 30)]
    cands = [("d", 0, 20), ("d", 10, 30), ("d", 30, 50)]
    s = score_question([("d", 10, 30), ("d", 0, 20)], ref, cands)
    dcg = (20 / 30) + (10 / 30) / math.log2(3)
    idcg = (20 / 30) + (10 / 30) / math.log2(3)  # the best ordering: either 20-character one first
    assert s.ndcg == pytest.approx(dcg / idcg)
    assert s.ndcg == pytest.approx(1.0)
    s = score_question([("d", 30, 50), ("d", 10, 30)], ref, cands)
    assert s.ndcg == pytest.approx((20 / 30 / math.log2(3)) / idcg)


def test_disjoint_spans_keep_the_textbook_values() -> None:
    retrieved = [("e", 0, 10), ("d", 0, 10), ("d", 10, 20)]
    candidates = [("d", 0, 10), ("d", 10, 20), ("d", 20, 30), ("e", 0, 10)]
    s = score_question(retrieved, [("d", 5, 15)], candidates)
    dcg = 0.5 / math.log2(3) + 0.5 / 2
    idcg = 0.5 + 0.5 / math.log2(3)
    assert s.ndcg == pytest.approx(dcg / idcg)


_span = st.tuples(st.sampled_from("de"), st.integers(0, 40), st.integers(1, 20)).map(lambda t: (t[0], t[1], t[1] + t[2]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_span, min_size=1, max_size=7, unique=True), st.lists(_span, min_size=1, max_size=3), st.integers(1, 4))
def test_best_coverage_is_the_best_choice_of_j_spans(spans, refs, k) -> None:
    ref = union(refs)
    got = _best_coverage(spans, ref, k)
    for j in range(k + 1):
        brute = max(
            (intersection_length(ref, union(list(c))) for c in itertools.combinations(spans, min(j, len(spans)))),
            default=0,
        )
        assert got[j] == brute


@settings(max_examples=200, deadline=None)
@given(st.lists(_span, min_size=1, max_size=6), st.lists(_span, min_size=1, max_size=6), st.lists(_span, min_size=1, max_size=2))
def test_ndcg_is_at_most_the_best_ordering_and_one_when_first_holds_all(retrieved, cands, refs) -> None:
    s = score_question(retrieved, refs, cands)
    assert 0.0 <= s.ndcg <= 1.0 + 1e-9
    # no ordering of retrieved spans scores above 1 either
    for perm in itertools.islice(itertools.permutations(retrieved), 50):
        assert score_question(list(perm), refs, cands).ndcg <= 1.0 + 1e-9
    ref = union(refs)
    (doc, ranges), = ref.items() if len(ref) == 1 else ((None, None),)
    if doc is not None:
        whole = (doc, ranges[0][0], ranges[-1][1])
        assert score_question([whole, *retrieved], refs, cands).ndcg == pytest.approx(1.0)


class Words(HashedWords):
    """The hashed bag of words of test_expand, 64 wide."""

    name = "test-words-s26"
    dim = 64


TOPICS = ["owls", "bees", "whales", "ants", "pumps", "valves", "tanks", "pipes", "gears", "belts", "wires", "fans"]
TEXT = " ".join(f"The {t} sentence number {i} talks about {t} only." for i, t in enumerate(TOPICS))


def test_evaluate_window_ndcg_does_not_fall_as_k_grows_when_rank_one_holds_the_answer() -> None:
    from chunkwise.evaluation import Question, evaluate

    doc = chunkwise.Document(TEXT, id="d")
    part = "The tanks sentence number 6 talks about tanks only."
    s = TEXT.index(part)
    q = Question(id="q", text="tanks tanks tanks", references=(("d", s, s + len(part)),))
    chunker = chunkwise.make_chunker("sentence", chunk_size=30, unit="words", window_sentences=2)
    for how in ("window", "none"):
        for k in (1, 2, 3, 8):
            res = evaluate([doc], [q], chunker, Words(), k=k, expand=how)
            sc = res.scores[0]
            assert sc.recall == 1.0 and sc.mrr == 1.0
            assert sc.ndcg == pytest.approx(1.0), (how, k)
