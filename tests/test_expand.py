"""Expansions (none, window, parent, merged): what a retriever returns for the chunks it
matched, on hand-made hierarchies that follow the metadata contract, on the real
hierarchical and sentence-window strategies, and through evaluate() and the CLI."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import ConfigError
from chunkwise.evaluation.expand import EXPANSIONS, Expander, Returned, expand
from chunkwise.types import Chunk

TEXT = "".join(chr(ord("a") + i % 26) for i in range(120))


def _chunk(cid: str, start: int, end: int, level: int, parent: str | None, children: list[str]) -> Chunk:
    return Chunk(
        text=TEXT[start:end],
        start_index=start,
        end_index=end,
        index=0,
        size=end - start,
        unit="chars",
        document_id="doc",
        metadata={"level": level, "parent_id": parent, "child_ids": children, "leaf": not children},
        id=cid,
    )


def hierarchy() -> dict[str, Chunk]:
    """Three levels: root [0,120) > A [0,40) with leaves a1, a2 and B [40,120) with leaves
    b1, b2, b3."""
    spec = [
        ("root", 0, 120, 0, None, ["A", "B"]),
        ("A", 0, 40, 1, "root", ["a1", "a2"]),
        ("a1", 0, 20, 2, "A", []),
        ("a2", 20, 40, 2, "A", []),
        ("B", 40, 120, 1, "root", ["b1", "b2", "b3"]),
        ("b1", 40, 60, 2, "B", []),
        ("b2", 60, 90, 2, "B", []),
        ("b3", 90, 120, 2, "B", []),
    ]
    return {s[0]: _chunk(*s) for s in spec}


def _ids(returned: list[Returned]) -> list[str | None]:
    return [r.chunk_id for r in returned]


def test_none_returns_each_span_once_at_its_first_rank():
    h = hierarchy()
    out = expand([h["b1"], h["a1"], h["b1"]], "none", chunks=h)
    assert _ids(out) == ["b1", "a1"]
    assert out[0].span == ("doc", 40, 60) and out[0].hits == ("b1",)


def test_parent_returns_the_parent_span_once_with_every_hit_it_stands_for():
    h = hierarchy()
    out = expand([h["b2"], h["a1"], h["b1"], h["root"]], "parent", chunks=h)
    assert _ids(out) == ["B", "A", "root"]  # the top level returns itself
    assert out[0].hits == ("b2", "b1") and out[0].span == ("doc", 40, 120)


def test_merged_replaces_children_when_at_least_the_ratio_is_matched():
    h = hierarchy()
    # A: 2 of 2 children; B: 1 of 3; the root then has A (1 of 2) -> merged at 0.5
    assert _ids(expand([h["b1"], h["a1"], h["a2"]], "merged", chunks=h)) == ["root"]
    # at 0.75 the root needs both of its children: A alone is not enough
    out = expand([h["b1"], h["a1"], h["a2"]], "merged", chunks=h, merge_ratio=0.75)
    assert _ids(out) == ["b1", "A"]
    assert out[1].hits == ("a1", "a2")  # A takes the rank of its best child (a1, rank 1)


def test_merged_is_at_least_the_ratio_not_more_than():
    h = hierarchy()
    # B has three children: 2/3 >= 0.6 merges, 1/3 does not
    assert _ids(expand([h["b3"], h["b1"]], "merged", chunks=h, merge_ratio=0.6)) == ["B"]
    assert _ids(expand([h["b3"], h["a1"]], "merged", chunks=h, merge_ratio=0.6)) == ["b3", "a1"]
    assert _ids(expand([h["a1"]], "merged", chunks=h, merge_ratio=0.5)) == ["root"]  # 1/2 at every level


def test_merged_recurses_up_the_levels_and_keeps_rank_order():
    h = hierarchy()
    hits = [h["b2"], h["a2"], h["b3"], h["a1"]]
    out = expand(hits, "merged", chunks=h, merge_ratio=0.6)
    # B (2 of 3) and A (2 of 2) merge; then the root has both children (2 of 2)
    assert _ids(out) == ["root"] and out[0].hits == ("b2", "a2", "b3", "a1")
    out = expand([h["b2"], h["a2"], h["b3"]], "merged", chunks=h, merge_ratio=0.6)
    assert _ids(out) == ["B", "a2"]  # B at b2's rank, a2 (1 of 2 < 0.6) stays


def test_merged_drops_a_chunk_inside_a_returned_ancestor():
    h = hierarchy()
    out = expand([h["b1"], h["B"]], "merged", chunks=h, merge_ratio=1.0)
    assert _ids(out) == ["B"] and out[0].hits == ("b1", "B")


def test_window_returns_the_window_span():
    text = "Pumps start at six. Valves open at seven. Tanks fill by eight. Trucks leave at nine."
    chunks = chunkwise.chunk(text, strategy="sentence", chunk_size=100, window_sentences=1)
    out = expand([chunks[2], chunks[2]], "window")
    assert [text[r.start : r.end] for r in out] == ["Valves open at seven. Tanks fill by eight. Trucks leave at nine."]
    assert out[0].chunk_id is None and out[0].hits == (chunks[2].id,)
    # overlapping windows come back once, their union, at the first one's rank
    out = expand([chunks[2], chunks[1], chunks[2]], "window")
    assert [(r.start, r.end, r.chunk_id) for r in out] == [(0, len(text), None)]
    assert out[0].hits == (chunks[2].id, chunks[1].id)


def _windowed(cid: str, start: int, end: int, w_start: int, w_end: int, doc: str = "doc") -> Chunk:
    meta = {"window_start": w_start, "window_end": w_end, "window": TEXT[w_start:w_end]}
    return Chunk(TEXT[start:end], start, end, size=end - start, unit="chars", document_id=doc, metadata=meta, id=cid)


def test_window_joins_overlaps_transitively_keeps_touching_and_other_documents_apart():
    c = {
        "a": _windowed("a", 10, 20, 0, 30),
        "b": _windowed("b", 50, 60, 40, 70),
        "c": _windowed("c", 30, 40, 25, 45),  # reaches both a's and b's windows
        "d": _windowed("d", 75, 80, 70, 90),  # touches b's window: stays apart
        "e": _windowed("e", 12, 18, 10, 20, doc="other"),  # same offsets, another document
        "f": _windowed("f", 12, 18, 0, 30),  # the same window as a: once
    }
    out = expand([c["d"], c["a"], c["e"], c["f"], c["b"], c["c"]], "window")
    assert [(r.document_id, r.start, r.end) for r in out] == [("doc", 70, 90), ("doc", 0, 70), ("other", 10, 20)]
    assert out[1].hits == ("a", "f", "b", "c") and out[0].hits == ("d",) and out[2].hits == ("e",)


def test_index_window_return_and_eval_window_are_the_same_spans():
    from chunkwise.index._expand import expand_hits

    text = "Owls hunt at night. Bees make honey in hives. Whales sing long songs. Ants carry green leaves. Cats nap."
    chunks = chunkwise.chunk(chunkwise.Document(text, id="d"), strategy="sentence", chunk_size=30, window_sentences=1)
    rng = random.Random(5)
    for _ in range(30):
        hits = rng.sample(chunks, rng.randint(1, len(chunks)))
        evaluated = [r.span for r in Expander(chunks, "window").expand(hits)]
        indexed = expand_hits("window", [(h, 1.0) for h in hits], {"d": chunks}, {"d": text})
        assert [(c.document_id, c.start_index, c.end_index) for c, _, _ in indexed] == evaluated
        covered = [k for _, s, e in evaluated for k in range(s, e)]
        assert len(covered) == len(set(covered))  # no character returned twice


@pytest.mark.parametrize(
    ("how", "kwargs", "fragment"),
    [
        ("parents", {}, "expand must be one of 'none', 'window', 'parent', 'merged'"),
        ("merged", {"merge_ratio": 0}, "merge_ratio (0) must be a number above 0 and at most 1"),
        ("merged", {"merge_ratio": 1.5}, "merge_ratio (1.5)"),
        ("window", {}, "window_sentences=N"),
        ("parent", {}, "strategy='hierarchical'"),
    ],
)
def test_invalid_expansions_name_the_fix(how, kwargs, fragment):
    flat = chunkwise.chunk("One. Two. Three.", strategy="sentence", chunk_size=5)
    with pytest.raises(ConfigError) as err:
        Expander(flat, how, **kwargs)
    assert fragment in str(err.value)


def test_a_parent_not_among_the_chunks_is_an_error():
    h = hierarchy()
    leaves = [c for c in h.values() if c.metadata["leaf"]]
    with pytest.raises(ConfigError, match="not among the chunks.*without leaves_only"):
        expand(leaves[:1], "parent", chunks=leaves)


def test_searchable_chunks_are_the_leaves_for_parent_and_merged():
    chunks = list(hierarchy().values())
    assert [chunks[i].id for i in Expander(chunks, "merged").searchable()] == ["a1", "a2", "b1", "b2", "b3"]
    assert len(Expander(chunks, "none").searchable()) == len(chunks)


PROSE = " ".join(
    f"Sentence {i} of the report says that {w} matters. "
    + ("\n\n" if i % 5 == 4 else "")
    for i, w in enumerate(["water", "power", "roads", "schools", "parks", "trains", "food", "air"] * 6)
)


def _tree():
    return chunkwise.chunk(PROSE, strategy="hierarchical", chunk_sizes=[120, 40, 12], unit="words")


def test_merging_every_leaf_of_the_real_hierarchy_gives_the_top_level():
    chunks = _tree()
    leaves = [c for c in chunks if c.metadata["leaf"]]
    roots = [(c.start_index, c.end_index) for c in chunks if c.metadata["level"] == 0]
    out = expand(leaves, "merged", chunks=chunks, merge_ratio=1.0)
    assert [(r.start, r.end) for r in out] == roots
    assert len(roots) > 1 and len(leaves) > 3 * len(roots)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), ratio=st.sampled_from([0.3, 0.5, 0.67, 1.0]), how=st.sampled_from(EXPANSIONS))
def test_expansions_of_the_real_hierarchy_cover_every_hit(seed, ratio, how):
    chunks = _tree()
    if how == "window":
        return  # the hierarchy has no windows (its own test above)
    by_id = {c.id: c for c in chunks}
    leaves = [c for c in chunks if c.metadata["leaf"]]
    rng = random.Random(seed)
    hits = rng.sample(leaves, rng.randint(1, len(leaves)))
    out = expand(hits, how, chunks=chunks, merge_ratio=ratio)
    spans = [r.span for r in out]
    assert len(set(spans)) == len(spans)  # each span once
    # every hit is inside the span returned for it, and each hit is accounted for once
    rank = {c.id: i for i, c in enumerate(hits)}
    assert sorted(i for r in out for i in r.hits) == sorted(rank)
    for r in out:
        assert r.chunk_id is not None and by_id[r.chunk_id].start_index == r.start
        for hid in r.hits:
            assert r.start <= by_id[hid].start_index and by_id[hid].end_index <= r.end
    # rank order: each returned span at the rank of its best hit
    firsts = [min(rank[i] for i in r.hits) for r in out]
    assert firsts == sorted(firsts)
    if how == "merged":  # no returned span inside another
        for a in out:
            for b in out:
                assert a is b or not (b.start <= a.start and a.end <= b.end)


# -- through evaluate() and the CLI --------------------------------------------------------

np = pytest.importorskip("numpy")


class Words:
    """A deterministic test embedder: hashed bag of lower-cased words."""

    name = "test-words-32"
    dim = 32

    def embed(self, texts):  # type: ignore[no-untyped-def]
        import hashlib

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                h = hashlib.blake2b(w.strip(".,").encode(), digest_size=4).digest()
                out[i, int.from_bytes(h, "little") % self.dim] += 1.0
        n = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(n == 0, 1.0, n)


def _question(text: str, part: str):
    from chunkwise.evaluation import Question

    s = text.index(part)
    return Question(id="q", text=part, references=(("d", s, s + len(part)),))


def test_evaluate_scores_the_windows_returned_and_counts_their_tokens():
    from chunkwise.evaluation import evaluate

    text = "Owls hunt at night. Bees make honey in hives. Whales sing long songs. Ants carry green leaves."
    doc = chunkwise.Document(text, id="d")
    q = _question(text, "Whales sing long songs.")
    chunker = chunkwise.make_chunker("sentence", chunk_size=50, window_sentences=1)
    plain = evaluate([doc], [q], chunker, Words(), k=1)
    window = evaluate([doc], [q], chunker, Words(), k=1, expand="window")
    assert plain.scores[0].recall == 1.0 and window.scores[0].recall == 1.0
    assert window.n_chunks == plain.n_chunks == 4
    returned = "Bees make honey in hives. Whales sing long songs. Ants carry green leaves."
    assert window.scores[0].precision == pytest.approx(len("Whales sing long songs.") / len(returned))
    assert window.scores[0].tokens > plain.scores[0].tokens  # tokens count what is returned
    # at a budget, k counts returned windows: fewer of them than sentences
    small = evaluate([doc], [q], chunker, Words(), budget_tokens=24)
    wide = evaluate([doc], [q], chunker, Words(), budget_tokens=24, expand="window")
    assert wide.k < small.k


def test_evaluate_window_joins_overlapping_windows_as_index_query_does():
    from chunkwise.evaluation import evaluate

    text = "Owls hunt at night. Bees make honey in hives. Whales sing long songs. Ants carry green leaves."
    doc = chunkwise.Document(text, id="d")
    q = _question(text, "Whales sing long songs.")
    q = type(q)(id="q", text="whales sing long songs bees make honey", references=q.references)
    chunker = chunkwise.make_chunker("sentence", chunk_size=50, window_sentences=1)
    res = evaluate([doc], [q], chunker, Words(), k=2, expand="window", token_sizer=chunkwise.get_sizer("chars"))
    # the two best sentences (Bees, Whales) have overlapping windows: one span, the whole text
    assert res.scores[0].tokens == len(text)
    assert res.scores[0].precision == pytest.approx(len("Whales sing long songs.") / len(text))


def test_evaluate_merged_stays_within_the_budget():
    from chunkwise.evaluation import evaluate

    doc = chunkwise.Document(PROSE, id="d")
    q = _question(PROSE, "Sentence 12 of the report says that parks matters.")
    chunker = chunkwise.make_chunker("hierarchical", chunk_sizes=[120, 40, 12], unit="words")
    for budget in (20, 60, 200):
        res = evaluate([doc], [q], chunker, Words(), budget_tokens=budget, expand="merged")
        assert res.scores[0].tokens <= budget or res.k == 1
        assert res.scores[0].k >= 1
    parent = evaluate([doc], [q], chunker, Words(), k=2, expand="parent")
    assert parent.scores[0].recall == 1.0
    with pytest.raises(ConfigError, match="window_sentences"):
        evaluate([doc], [q], chunker, Words(), k=2, expand="window")
    with pytest.raises(ConfigError, match="expand must be one of"):
        evaluate([doc], [q], chunker, Words(), k=2, expand="grandparent")


def test_cli_expand_window(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import chunkwise.embeddings as embeddings
    from chunkwise.cli import cli

    monkeypatch.setattr(embeddings, "get_embedder", lambda model=None, **kw: Words())
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = "Owls hunt at night. Bees make honey in hives. Whales sing long songs. Ants carry green leaves.\n"
    (corpus / "animals.txt").write_text(text, encoding="utf-8")
    s = text.index("Whales")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"question": "whales sing", "document_id": "animals", "references": [
            {"start_index": s, "end_index": s + len("Whales sing long songs.")}]}) + "\n",
        encoding="utf-8",
    )
    args = ["eval", "--corpus", str(corpus), "--questions", str(questions), "--strategy", "sentence",
            "--chunk-size", "50", "--unit", "chars", "-p", "window_sentences=1", "--k", "1", "--no-cache",
            "--no-plot", "-o", str(tmp_path / "out")]
    result = CliRunner().invoke(cli, [*args, "--expand", "window"])
    assert result.exit_code == 0, result.output
    row = json.loads((tmp_path / "out" / "results.json").read_text())["results"][0]
    assert row["config"].endswith("expand=window") and row["recall"] == 1.0 and row["precision"] < 1.0
    bad = CliRunner().invoke(cli, [*args, "--expand", "parent"])
    assert bad.exit_code == 2 and "only --strategy hierarchical" in bad.output, bad.output
    # refused before any work: a grid with one hierarchy and one other strategy writes nothing
    out = tmp_path / "grid"
    grid = ["eval", "--corpus", str(corpus), "--questions", str(questions), "--strategy", "hierarchical,recursive",
            "--chunk-size", "20", "--unit", "chars", "--k", "1", "--no-cache", "--no-plot", "-o", str(out)]
    bad = CliRunner().invoke(cli, [*grid, "--expand", "merged"])
    assert bad.exit_code == 2 and "recursive/20/0" in bad.output and "hierarchical/20/0" not in bad.output, bad.output
    assert not out.exists()
    bad = CliRunner().invoke(cli, [*grid[:6], "hierarchical", *grid[7:], "-p", "leaves_only=true", "--expand", "parent"])
    assert bad.exit_code == 2 and "(leaves_only)" in bad.output, bad.output
    ok = CliRunner().invoke(cli, [*grid[:6], "hierarchical", *grid[7:], "--expand", "merged", "--merge-ratio", "1"])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(cli, [*grid[:6], "hierarchical", *grid[7:], "--merge-ratio", "0.7"])
    assert bad.exit_code == 2 and "--merge-ratio goes with --expand merged" in bad.output, bad.output


def test_budget_per_question_keeps_each_question_within_the_budget():
    from chunkwise.evaluation import evaluate

    doc = chunkwise.Document(PROSE, id="d")
    qs = [_question(PROSE, f"Sentence {i} of the report says that {w} matters.") for i, w in [(12, "parks"), (3, "schools")]]
    qs = [type(q)(id=f"q{i}", text=q.text, references=q.references) for i, q in enumerate(qs)]
    chunker = chunkwise.make_chunker("sentence", chunk_size=60, unit="words", window_sentences=1)
    for how in ("none", "window"):
        res = evaluate([doc], qs, chunker, Words(), budget_tokens=70, budget_per_question=True, expand=how)
        for s in res.scores:
            assert 1 <= s.k and (s.tokens <= 70 or s.k == 1)
        fixed = evaluate([doc], qs, chunker, Words(), budget_tokens=70, expand=how)
        assert len({s.k for s in fixed.scores}) == 1  # the mean rule: one k for every question
    none = evaluate([doc], qs, chunker, Words(), budget_tokens=70, budget_per_question=True)
    window = evaluate([doc], qs, chunker, Words(), budget_tokens=70, budget_per_question=True, expand="window")
    assert window.means["k"] < none.means["k"]  # windows are larger: fewer of them fit


def test_doctests_of_the_window_and_expansion_modules():
    import doctest
    import importlib

    for name in ("chunkwise.evaluation.expand", "chunkwise.chunkers.sentence"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0, name


def test_expand_none_by_name_is_the_default():
    from chunkwise.evaluation import evaluate

    doc = chunkwise.Document(PROSE, id="d")
    q = _question(PROSE, "Sentence 12 of the report says that parks matters.")
    chunker = chunkwise.make_chunker("sentence", chunk_size=20, unit="words")
    for kw in ({"k": 3}, {"budget_tokens": 50}):
        a = evaluate([doc], [q], chunker, Words(), **kw)
        b = evaluate([doc], [q], chunker, Words(), expand="none", **kw)
        assert a.scores == b.scores and a.k == b.k


def test_merged_without_a_merge_scores_as_none():
    """With nothing merged, ``merged`` returns the leaves ``none`` returns: the same rows.
    The ideal DCG and precision_omega count what a flat run could return (the leaves),
    not every level of the hierarchy as separate candidates."""
    from chunkwise.evaluation import evaluate

    doc = chunkwise.Document(PROSE, id="d")
    qs = [_question(PROSE, f"Sentence {i} of the report says that") for i in (3, 12, 30)]
    qs = [type(q)(id=f"q{i}", text=q.text, references=q.references) for i, q in enumerate(qs)]
    chunker = chunkwise.make_chunker("hierarchical", chunk_sizes=[120, 40, 12], unit="words")
    tree = chunker.chunk(doc)
    assert all(len(c.metadata["child_ids"]) >= 2 for c in tree if c.metadata["child_ids"])  # k=1 merges nothing
    for k in (1,):
        none = evaluate([doc], qs, chunker, Words(), k=k, expand="none", merge_ratio=1.0)
        merged = evaluate([doc], qs, chunker, Words(), k=k, expand="merged", merge_ratio=1.0)
        assert [s.as_dict() for s in merged.scores] == [s.as_dict() for s in none.scores]
        assert merged.row() | {"config": "", "seconds": 0} == none.row() | {"config": "", "seconds": 0}
    # the whole answer in the rank-1 leaf: nDCG 1 under both
    assert any(s.recall == 1.0 and s.ndcg == 1.0 for s in merged.scores)
