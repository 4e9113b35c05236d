"""Span metrics against values worked out by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.evaluation.metrics import (
    bootstrap_ci,
    intersection_length,
    mean_scores,
    score_question,
    span_length,
    union,
)


def approx(x: float) -> object:
    return pytest.approx(x, abs=1e-9)


def test_union_merges_overlapping_adjacent_nested_and_duplicate_ranges() -> None:
    spans = [("d", 5, 9), ("d", 0, 6), ("d", 9, 12), ("d", 1, 2), ("d", 20, 25), ("d", 20, 25), ("e", 3, 3)]
    assert union(spans) == {"d": [(0, 12), (20, 25)]}
    assert span_length(union(spans)) == 17


def test_intersection_length_is_per_document() -> None:
    a = union([("d", 0, 10), ("e", 0, 10)])
    b = union([("d", 5, 20), ("f", 0, 10)])
    assert intersection_length(a, b) == 5


def test_overlapping_references() -> None:
    # references [0,10) and [5,15): union [0,15), 15 chars; retrieved [0,8) covers 8 of them.
    s = score_question([("d", 0, 8)], [("d", 0, 10), ("d", 5, 15)])
    assert s.recall == approx(8 / 15)
    assert s.precision == approx(1.0)
    assert s.iou == approx(8 / 15)


def test_adjacent_references() -> None:
    # [0,5) and [5,10) form [0,10); retrieved [3,7) covers 4.
    s = score_question([("d", 3, 7)], [("d", 0, 5), ("d", 5, 10)])
    assert (s.recall, s.precision, s.iou) == (approx(0.4), approx(1.0), approx(0.4))


def test_nested_references() -> None:
    # [5,10) inside [0,20): 20 reference chars; retrieved [10,30) shares 10 of its 20.
    s = score_question([("d", 10, 30)], [("d", 0, 20), ("d", 5, 10)])
    assert s.recall == approx(0.5)
    assert s.precision == approx(0.5)
    assert s.iou == approx(10 / 30)


def test_duplicate_references_count_once() -> None:
    s = score_question([("d", 0, 10)], [("d", 0, 10), ("d", 0, 10)])
    assert (s.recall, s.precision, s.iou) == (approx(1.0), approx(1.0), approx(1.0))


def test_one_chunk_covering_two_references() -> None:
    # references [2,4) and [6,8): 4 chars, all inside the chunk [0,10).
    s = score_question([("d", 0, 10)], [("d", 2, 4), ("d", 6, 8)], candidates=[("d", 0, 10), ("d", 10, 20)])
    assert s.recall == approx(1.0)
    assert s.precision == approx(0.4)
    assert s.iou == approx(0.4)
    assert s.ndcg == approx(1.0)
    assert s.mrr == approx(1.0)
    assert s.precision_omega == approx(0.4)


def test_ranked_metrics_with_a_chunk_of_another_document_first() -> None:
    retrieved = [("e", 0, 10), ("d", 0, 10), ("d", 10, 20)]
    candidates = [("d", 0, 10), ("d", 10, 20), ("d", 20, 30), ("e", 0, 10)]
    s = score_question(retrieved, [("d", 5, 15)], candidates, tokens=[3, 4, 5])
    # gains 0, 0.5, 0.5 -> DCG = 0.5/log2(3) + 0.5/log2(4); ideal 0.5 + 0.5/log2(3) + 0.
    dcg = 0.5 / math.log2(3) + 0.5 / 2
    idcg = 0.5 + 0.5 / math.log2(3)
    assert s.ndcg == approx(dcg / idcg)
    assert s.mrr == approx(0.5)
    assert s.recall_at_k == 1.0
    assert s.recall == approx(1.0)
    # the other document's 10 characters count as retrieved: 30 retrieved, 10 relevant.
    assert s.precision == approx(10 / 30)
    assert s.iou == approx(10 / 30)
    assert s.tokens == 12
    assert s.k == 3


def test_overlapping_retrieved_chunks_counted_versus_union() -> None:
    s = score_question([("d", 0, 10), ("d", 5, 15)], [("d", 0, 15)])
    # Chroma's code sums the chunk lengths: 20 characters retrieved for 15.
    assert s.precision == approx(0.75)
    assert s.iou == approx(0.75)
    assert s.precision_union == approx(1.0)
    assert s.iou_union == approx(1.0)


def test_counted_iou_adds_the_reference_characters_not_retrieved() -> None:
    # 10 + 10 retrieved characters (5 of them twice), 20 reference characters, 5 not covered.
    s = score_question([("d", 0, 10), ("d", 5, 15), ("e", 0, 3)], [("d", 0, 20)])
    assert s.recall == approx(15 / 20)
    assert s.precision == approx(15 / 23)
    assert s.iou == approx(15 / (23 + 5))
    assert s.iou_union == approx(15 / (15 + 3 + 5))


def test_precision_omega_with_a_reference_no_candidate_covers() -> None:
    s = score_question([], [("d", 5, 15)], candidates=[("d", 0, 10), ("d", 10, 20), ("d", 20, 30)])
    assert s.precision_omega == approx(10 / 20)
    # only [0,8) exists: 3 reference chars covered; denominator 8 chunk + 7 uncovered reference chars.
    s = score_question([("d", 0, 8)], [("d", 5, 15)], candidates=[("d", 0, 8)])
    assert s.precision_omega == approx(3 / 15)


def test_empty_retrieval_scores_zero() -> None:
    s = score_question([], [("d", 0, 10)], candidates=[("d", 0, 10)])
    assert s.k == 0
    for name in ("recall", "precision", "iou", "recall_at_k", "mrr", "ndcg", "tokens"):
        assert getattr(s, name) == 0.0, name


def test_miss_gives_zero_rank_metrics() -> None:
    s = score_question([("d", 20, 30)], [("d", 0, 10)], candidates=[("d", 0, 10), ("d", 20, 30)])
    assert (s.recall_at_k, s.mrr, s.ndcg, s.recall, s.precision) == (0.0, 0.0, 0.0, 0.0, 0.0)


def test_invalid_inputs_raise() -> None:
    with pytest.raises(ValueError, match="non-empty reference"):
        score_question([("d", 0, 1)], [("d", 4, 4)])
    with pytest.raises(ValueError, match="tokens"):
        score_question([("d", 0, 1)], [("d", 0, 1)], tokens=[1, 2])


def test_mean_scores_is_the_macro_average() -> None:
    a = score_question([("d", 0, 10)], [("d", 0, 10)])
    b = score_question([], [("d", 0, 10)])
    m = mean_scores([a, b])
    assert m["recall"] == approx(0.5)
    assert m["mrr"] == approx(0.5)
    assert m["k"] == approx(0.5)
    assert mean_scores([])["iou"] == 0.0
    assert m["recall_ci_low"] <= m["recall"] <= m["recall_ci_high"]


def test_bootstrap_interval_is_deterministic_and_narrows_with_more_questions() -> None:
    values = [1.0, 0.0, 0.5, 1.0, 0.25, 0.75, 1.0, 0.0] * 4
    low, high = bootstrap_ci(values)
    assert (low, high) == bootstrap_ci(values)  # fixed seed
    mean = sum(values) / len(values)
    assert 0.0 <= low < mean < high <= 1.0
    wide = bootstrap_ci(values[:8])
    assert high - low < wide[1] - wide[0]
    assert bootstrap_ci([0.4] * 5) == (approx(0.4), approx(0.4))
    assert bootstrap_ci([]) == (0.0, 0.0)
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci(values, confidence=1.0)
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_ci(values, resamples=0)


def test_bootstrap_interval_matches_the_normal_approximation_for_many_questions() -> None:
    values = [float(i % 2) for i in range(400)]  # mean 0.5, standard error 0.025
    low, high = bootstrap_ci(values, resamples=4000)
    assert low == pytest.approx(0.5 - 1.96 * 0.025, abs=0.006)
    assert high == pytest.approx(0.5 + 1.96 * 0.025, abs=0.006)


# -- properties: the interval arithmetic equals brute-force sets of character positions ---


_span = st.tuples(st.sampled_from("de"), st.integers(0, 40), st.integers(0, 40)).map(
    lambda t: (t[0], min(t[1], t[2]), max(t[1], t[2]))
)


def _chars(spans: list[tuple[str, int, int]]) -> set[tuple[str, int]]:
    return {(d, i) for d, s, e in spans for i in range(s, e)}


@settings(max_examples=200, deadline=None)
@given(st.lists(_span, max_size=6), st.lists(_span, min_size=1, max_size=4), st.lists(_span, max_size=6))
def test_metrics_equal_brute_force_character_sets(retrieved, references, extra) -> None:  # type: ignore[no-untyped-def]
    ref = _chars(references)
    if not ref:
        return
    candidates = retrieved + extra
    s = score_question(retrieved, references, candidates)
    got = _chars(retrieved)
    inter = len(ref & got)
    assert s.recall == approx(inter / len(ref))
    assert s.precision_union == approx(inter / len(got) if got else 0.0)
    assert s.iou_union == approx(inter / len(ref | got))
    assert s.iou_union <= min(s.recall, s.precision_union) + 1e-12
    summed = sum(e - b for _, b, e in retrieved)
    assert s.precision <= s.precision_union + 1e-12 and s.iou <= s.iou_union + 1e-12
    assert s.precision == approx(inter / summed if summed else 0.0)
    assert s.iou == approx(inter / (summed + len(ref) - inter))
    assert s.iou <= min(s.recall, s.precision) + 1e-12
    touching = [c for c in candidates if _chars([c]) & ref]
    omega_den = _chars(touching) | ref
    assert s.precision_omega == approx(len(_chars(touching) & ref) / len(omega_den))
    assert 0.0 <= s.ndcg <= 1.0 + 1e-9 and 0.0 <= s.mrr <= 1.0
    assert s.recall_at_k == (1.0 if inter else 0.0)
