"""evaluate(), the exact index, probe sets, calibration and chunk statistics."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from chunkwise import ConfigError, Document, make_chunker
from chunkwise.errors import LoadError
from chunkwise.loaders import load
from chunkwise.types import document_id_for_path
from chunkwise.evaluation import (
    EvalConfig,
    ExactIndex,
    Question,
    calibrate,
    check_questions,
    choose_k,
    chunk_stats,
    evaluate,
    evaluate_grid,
    load_corpus,
    load_questions,
    make_grid,
    score_question,
)


class BagOfWords:
    """A deterministic test embedder: hashed bag of lower-cased words, L2-normalised."""

    name = "test-bow-64"
    dim = 64

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.calls += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                w = w.strip(".,;:!?")
                h = int.from_bytes(hashlib.blake2b(w.encode(), digest_size=4).digest(), "little")
                out[i, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


A = "Alpha river flows north. Beta mountain stands tall. Gamma forest grows dense. Delta lake lies still."
B = "Owls hunt at night. Bees make honey. Whales sing songs. Ants carry leaves."


def docs() -> list[Document]:
    return [Document(A, id="a"), Document(B, id="b")]


def span_of(doc: str, text: str, phrase: str) -> tuple[str, int, int]:
    s = text.index(phrase)
    return (doc, s, s + len(phrase))


def q(text: str, *refs: tuple[str, int, int]) -> Question:
    return Question(text, tuple(refs))


def test_k_larger_than_the_collection_retrieves_every_chunk() -> None:
    chunker = make_chunker("sentence", chunk_size=30, unit="chars")
    n = sum(len(chunker.chunk(d)) for d in docs())
    ref = span_of("a", A, "Beta mountain stands tall.")
    res = evaluate(docs(), [q("mountain", ref)], chunker, BagOfWords(), k=50)
    s = res.scores[0]
    assert res.n_chunks == n and s.k == n
    assert s.recall == 1.0 and s.recall_at_k == 1.0
    covered = sum(c.end_index - c.start_index for d in docs() for c in chunker.chunk(d))
    assert s.precision == pytest.approx((ref[2] - ref[1]) / covered)


def test_the_matching_sentence_ranks_first() -> None:
    chunker = make_chunker("sentence", chunk_size=30, unit="chars")
    ref = span_of("b", B, "Whales sing songs.")
    res = evaluate(docs(), [q("whales sing songs", ref)], chunker, BagOfWords(), k=2)
    s = res.scores[0]
    assert s.mrr == 1.0 and s.ndcg == 1.0 and s.recall == 1.0
    assert s.tokens > 0
    assert res.means["recall"] == 1.0


def test_budget_tokens_sets_k_from_the_mean_chunk_size() -> None:
    chunker = make_chunker("fixed", chunk_size=20, unit="chars")
    ref = span_of("a", A, "Gamma forest")
    res = evaluate(docs(), [q("gamma", ref)], chunker, BagOfWords(), k=1, budget_tokens=20)
    assert res.k == choose_k(20, res.mean_chunk_tokens)
    assert res.k > 1
    assert choose_k(1000, 200) == 5 and choose_k(10, 200) == 1
    with pytest.raises(ConfigError, match="budget_tokens"):
        choose_k(0, 10)


def test_expand_returns_parent_spans_with_the_same_metrics() -> None:
    chunker = make_chunker("sentence", chunk_size=30, unit="chars")
    ref = span_of("a", A, "Delta lake lies still.")
    whole = {"a": len(A), "b": len(B)}
    res = evaluate(
        docs(),
        [q("delta lake", ref)],
        chunker,
        BagOfWords(),
        k=5,
        expand=lambda c: (c.document_id, 0, whole[c.document_id]),
    )
    s = res.scores[0]
    assert s.k == 2  # five children, two distinct parents
    assert s.recall == 1.0
    assert s.precision == pytest.approx((ref[2] - ref[1]) / (len(A) + len(B)))
    # the same numbers as scoring the parent spans directly
    parents = [("a", 0, len(A)), ("b", 0, len(B))]
    direct = score_question(parents, [ref], parents)
    assert (s.recall, s.precision, s.iou, s.precision_omega) == (
        direct.recall,
        direct.precision,
        direct.iou,
        direct.precision_omega,
    )


def test_references_are_checked_against_the_corpus() -> None:
    chunker = make_chunker("fixed", chunk_size=20, unit="chars")
    with pytest.raises(ConfigError, match="not in the corpus"):
        evaluate(docs(), [q("x", ("zz", 0, 3))], chunker, BagOfWords())
    with pytest.raises(ConfigError, match="past the end"):
        evaluate(docs(), [q("x", ("a", 0, 10_000))], chunker, BagOfWords())
    bad = Question("x", (("a", 0, 5),), ("nope!",))
    with pytest.raises(ConfigError, match="does not match"):
        check_questions([bad], docs())
    with pytest.raises(ConfigError, match="k"):
        evaluate(docs(), [q("x", ("a", 0, 3))], chunker, BagOfWords(), k=0)
    with pytest.raises(ConfigError, match="no reference"):
        Question("x", ())
    with pytest.raises(ConfigError, match="non-empty"):
        Question("x", (("a", 5, 5),))


def test_exact_index_orders_by_score_then_row_and_caps_k() -> None:
    vecs = np.array([[1, 0], [0, 1], [1, 0], [0.6, 0.8]], dtype=np.float32)
    index = ExactIndex(vecs)
    ids, scores = index.search(np.array([[1, 0]], dtype=np.float32), 10)
    assert ids == [[0, 2, 3, 1]]
    assert scores[0][0] == pytest.approx(1.0) and scores[0][2] == pytest.approx(0.6)
    ids, _ = index.search(np.array([[1, 0]], dtype=np.float32), 2)
    assert ids == [[0, 2]]
    with pytest.raises(ValueError, match="match"):
        index.search(np.zeros((1, 3), dtype=np.float32), 1)


def test_load_chroma_csv_and_jsonl(tmp_path: Path) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text(A, encoding="utf-8")
    (tmp_path / "corpus" / "b.txt").write_text(B, encoding="utf-8")
    refs = json.dumps(
        [{"content": "Bees make honey.", "start_index": B.index("Bees"), "end_index": B.index("Bees") + 16}]
    )
    csv_path = tmp_path / "q.csv"
    csv_path.write_text(
        'question,references,corpus_id\n"Who makes honey?","' + refs.replace('"', '""') + '",b\n', encoding="utf-8"
    )
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text(
        json.dumps(
            {
                "question": "Who makes honey?",
                "document_id": "b",
                "id": "q1",
                "references": [{"start_index": B.index("Bees"), "end_index": B.index("Bees") + 16}],
            }
        )
        + "\n\n",
        encoding="utf-8",
    )
    corpus = load_corpus(tmp_path / "corpus")
    folder = tmp_path / "corpus"
    assert [d.id for d in corpus] == [load(folder / name, root=folder).id for name in ("a.md", "b.txt")]
    assert [d.id for d in load_corpus(tmp_path / "corpus", ids="stem")] == ["a", "b"]
    from_csv, from_jsonl = load_questions(csv_path), load_questions(jsonl)
    assert from_csv[0].references == from_jsonl[0].references == (("b", B.index("Bees"), B.index("Bees") + 16),)
    assert from_csv[0].contents == ("Bees make honey.",)
    assert from_jsonl[0].id == "q1"
    resolved = check_questions(from_csv + from_jsonl, corpus)
    assert [r.references[0][0] for r in resolved] == [corpus[1].id, corpus[1].id]
    assert [r.id for r in resolved] == [q.id for q in from_csv + from_jsonl]  # a question keeps its id
    (tmp_path / "bad.jsonl").write_text('{"question": "x"}\n', encoding="utf-8")
    with pytest.raises(LoadError, match="bad.jsonl:1"):
        load_questions(tmp_path / "bad.jsonl")
    with pytest.raises(LoadError, match="does not exist"):
        load_corpus(tmp_path / "missing")


def test_grid_and_calibration() -> None:
    configs = make_grid(["fixed", "sentence"], [20, 40], [0, 10, 30], unit="chars")
    labels = [c.label for c in configs]
    assert "fixed/20/30" not in labels and "fixed/40/30" in labels and len(configs) == 10
    with pytest.raises(ConfigError, match="no valid configuration"):
        make_grid(["fixed"], [10], [10])
    questions = [
        q("beta mountain", span_of("a", A, "Beta mountain stands tall.")),
        q("ants carry leaves", span_of("b", B, "Ants carry leaves.")),
    ]
    emb = BagOfWords()
    results = evaluate_grid(docs(), questions, configs[:4], emb, k=2)
    assert [r.config for r in results] == configs[:4]
    best, ranked = calibrate(results, "iou")
    assert best.means["iou"] == max(r.means["iou"] for r in results)
    assert [r.means["iou"] for r in ranked] == sorted((r.means["iou"] for r in results), reverse=True)
    cap = min(r.means["tokens"] for r in results)
    best_capped, ranked_capped = calibrate(results, "recall", max_tokens=cap)
    assert best_capped is ranked_capped[0]
    assert all(r.means["tokens"] <= cap for r in ranked_capped)
    with pytest.raises(ConfigError, match="at most"):
        calibrate(results, "recall", max_tokens=cap - 1)
    with pytest.raises(ConfigError, match="metric"):
        calibrate(results, "speed")
    assert isinstance(configs[0], EvalConfig) and configs[0].make_chunker().chunk_size == 20


def test_chunk_stats_by_hand() -> None:
    text = "One two. Three four five six seven eight nine ten eleven twelve."
    chunker = make_chunker("fixed", chunk_size=20, unit="chars")
    chunks = chunker.chunk(text)
    s = chunk_stats([Document(text)], chunker)
    sizes = [c.size for c in chunks]
    assert s.count == len(chunks)
    assert s.mean == pytest.approx(sum(sizes) / len(sizes))
    assert (s.min, s.max) == (min(sizes), max(sizes))
    assert s.fill == pytest.approx(sum(sizes) / len(sizes) / 20)
    assert sum(s.boundaries.values()) == len(chunks) and s.boundaries.get("end") == 1
    assert sum(s.histogram) == len(chunks) and len(s.histogram) == 11
    ends_sentence = sum(1 for c in chunks if c.text.rstrip().endswith("."))
    assert s.mid_sentence == pytest.approx(1 - ends_sentence / len(chunks))
    empty = chunk_stats([Document("")], chunker)
    assert empty.count == 0 and empty.mean == 0.0


def test_importing_the_evaluation_package_loads_no_numpy() -> None:
    code = "import sys, chunkwise.evaluation, chunkwise.commands.eval; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- one id for one file: names in probe sets resolved to the ids load gives ------------------


def _nested_corpus(root: Path) -> Path:
    corpus = root / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "a.md").write_text(A, encoding="utf-8")
    (corpus / "sub" / "b.txt").write_text(B, encoding="utf-8")
    (corpus / "sub" / "a.txt").write_text(B, encoding="utf-8")  # a second stem "a"
    return corpus


def test_load_corpus_gives_the_ids_and_texts_of_load(tmp_path: Path) -> None:
    corpus = _nested_corpus(tmp_path)
    docs_ = load_corpus(corpus)
    assert [d.metadata["relative_path"] for d in docs_] == ["a.md", "sub/a.txt", "sub/b.txt"]
    for d in docs_:
        same = load(corpus / d.metadata["relative_path"], root=corpus)
        assert (d.id, d.text, dict(d.metadata)) == (same.id, same.text, dict(same.metadata))


def test_document_names_stem_relative_path_and_id(tmp_path: Path) -> None:
    from chunkwise.evaluation import DocumentNames

    docs_ = load_corpus(_nested_corpus(tmp_path))
    a, sub_a, sub_b = docs_
    names = DocumentNames(docs_)
    for name in ("b", "sub/b.txt", "sub/b", sub_b.id):
        assert names.resolve(name) == sub_b.id
    assert names.resolve("a.md") == a.id and names.resolve("sub/a.txt") == sub_a.id
    with pytest.raises(ConfigError, match=r"ambiguous.*a\.md, sub/a\.txt"):
        names.resolve("a")
    with pytest.raises(ConfigError, match="no document"):
        names.resolve("c")
    assert [names.name_of(d.id) for d in docs_] == ["a.md", "sub/a.txt", "b"]
    question = q("who makes honey", span_of("a", B, "Bees make honey."))
    with pytest.raises(ConfigError, match="ambiguous"):
        check_questions([question], docs_)
    by_path = q("who makes honey", span_of("sub/a.txt", B, "Bees make honey."))
    assert check_questions([by_path], docs_)[0].references[0][0] == sub_a.id


def test_scores_do_not_depend_on_how_documents_are_named(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text(A, encoding="utf-8")
    (corpus / "b.txt").write_text(B, encoding="utf-8")
    questions = [
        q("beta mountain", span_of("a", A, "Beta mountain stands tall.")),
        q("ants carry leaves", span_of("b", B, "Ants carry leaves."), span_of("a", A, "Delta lake")),
    ]
    chunker = make_chunker("sentence", chunk_size=30, unit="chars")
    by_path = evaluate(load_corpus(corpus), questions, chunker, BagOfWords(), k=2)
    by_stem = evaluate(load_corpus(corpus, ids="stem"), questions, chunker, BagOfWords(), k=2)
    assert by_path.scores == by_stem.scores and by_path.means == by_stem.means
    assert by_path.question_ids == by_stem.question_ids == [x.id for x in questions]


def test_load_corpus_reports_files_it_cannot_read(tmp_path: Path) -> None:
    from chunkwise.evaluation import SkippedFile

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text(A, encoding="utf-8")
    (corpus / "bad.txt").write_bytes(b"\xff\xfe\x00 not utf-8 \x80")
    (corpus / "scan.pdf").write_bytes(b"%PDF-1.7\n")  # damaged: reported, then skipped
    (corpus / "notes.html").write_text("<p>Hi</p>", encoding="utf-8")
    with pytest.raises(LoadError, match="bad.txt"):
        load_corpus(corpus)
    skipped: list[SkippedFile] = []
    docs_ = load_corpus(corpus, skipped=skipped)
    assert [d.metadata["relative_path"] for d in docs_] == ["a.md"]
    assert sorted(s.relative for s in skipped) == ["bad.txt", "notes.html", "scan.pdf"]
    bad = next(s for s in skipped if s.relative == "bad.txt")
    assert isinstance(bad.error, LoadError) and bad.id == document_id_for_path("bad.txt")
    assert next(s for s in skipped if s.relative == "notes.html").error is None  # a suffix not asked for
    assert [d.metadata["relative_path"] for d in load_corpus(corpus, exclude=["bad.txt", "*.pdf"])] == ["a.md"]
    assert load_corpus(corpus, include=["*.md"])[0].id == docs_[0].id
