"""The topic strategy packs up to chunk_size: a topic change is the strongest boundary,
not a forced cut. Paragraphs of short topics share a chunk, runts are evened out with a
neighbour, a title line goes with its body, and a text that fits is one chunk with no
topic model fitted."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

pytest.importorskip("sklearn")

import chunkwise  # noqa: E402
from chunkwise import Document  # noqa: E402
from chunkwise.chunkers import topic as topic_module  # noqa: E402
from chunkwise.chunkers.recursive import DEFAULT_LEVELS  # noqa: E402
from chunkwise.chunkers.topic import TopicChunker  # noqa: E402

PLANES = "Airplane wings lift the airplane. Pilots fly the airplane over airports with engines and wings."
DOUGH = "Pizza dough needs flour, yeast and water. Knead the pizza dough and bake the pizza in an oven."
TWO_TOPICS = "\n\n".join([PLANES, PLANES.replace("Pilots", "Crews"), DOUGH, DOUGH.replace("Knead", "Stretch")])


def _flip(paragraphs, *args, **kwargs):
    """A topic change after every paragraph (what LDA gave on short speech paragraphs)."""
    return [i % 2 for i in range(len(paragraphs))]


def _speech(n=40):
    return "\n\n".join(
        f"Paragraph {i} says a few words about item {i}." + (" More words follow here." * (i % 4))
        for i in range(n)
    )


def test_a_topic_change_is_not_a_forced_cut(monkeypatch):
    # a topic change after every paragraph used to give one chunk per paragraph
    monkeypatch.setattr(topic_module, "_lda_labels", _flip)
    text = _speech()
    chunker = TopicChunker(chunk_size=600)
    cs = chunker.chunk(text)
    check_invariants(text, cs, 600, chunker.sizer, overlap_allowed=False)
    assert len(cs) < len(text.split("\n\n")) // 3
    assert all(c.size >= 600 // 4 for c in cs)
    assert all(c.metadata["boundary"] == "topic" for c in cs[:-1])  # every paragraph break is one


def test_the_last_topic_change_that_fits_ends_the_chunk():
    # three paragraphs would fit 300 characters: the chunk still ends at the topic change
    assert len("\n\n".join(TWO_TOPICS.split("\n\n")[:3])) <= 300
    cs = chunkwise.chunk(TWO_TOPICS, strategy="topic", n_topics=2, chunk_size=300)
    parts = TWO_TOPICS.split("\n\n")
    assert [c.text for c in cs] == ["\n\n".join(parts[:2]), "\n\n".join(parts[2:])]
    assert cs[0].metadata["boundary"] == "topic"


def test_parse_gives_the_topic_changes_as_the_first_level():
    chunker = chunkwise.make_chunker("topic", n_topics=2, chunk_size=300)
    segs = chunker.parse(Document(TWO_TOPICS), chunker.sizer.measure(TWO_TOPICS))
    cut = TWO_TOPICS.index("Pizza")
    # below the topic changes: the recursive strategy's levels (sentences before soft line breaks)
    assert segs.levels[0].name == "topic" and segs.levels[1:] == DEFAULT_LEVELS
    assert list(segs.levels[0].cuts(TWO_TOPICS, 0, len(TWO_TOPICS))) == [(cut - 2, cut)]
    assert segs.regions is None


def test_a_text_that_fits_is_one_chunk_and_fits_no_model(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("no topic model for a text that fits")

    monkeypatch.setattr(topic_module, "_lda_labels", boom)
    cs = chunkwise.chunk(TWO_TOPICS, strategy="topic", n_topics=2, chunk_size=2000)
    assert [c.text for c in cs] == [TWO_TOPICS]
    cs = chunkwise.chunk("Hello there.\n\nA tiny input of two lines.", strategy="topic", chunk_size=10, unit="words")
    assert len(cs) == 1
    # with an overlap the budget is chunk_size - chunk_overlap: the text no longer fits
    called = []
    monkeypatch.setattr(topic_module, "_lda_labels", lambda p, *a, **k: called.append(1) or _flip(p))
    cs = chunkwise.chunk(TWO_TOPICS, strategy="topic", chunk_size=len(TWO_TOPICS) - 10, chunk_overlap=100)
    assert called and len(cs) == 2


def test_a_lone_dot_and_a_title_line_are_not_chunks(monkeypatch):
    # a "." paragraph between tables (finance filings), a title paragraph before its section
    monkeypatch.setattr(topic_module, "_lda_labels", _flip)
    body = "The culture was grown in a bioreactor. Samples were taken every hour for two days."
    text = "\n\n".join(
        ["net income | 26.50 | 22.92\nshares | 100.00 | 62.59", ".", "what was the cash dividend? 0.455",
         body, "Materials and Methods", "Cell culture.\n" + body, body]
    )
    cs = chunkwise.chunk(text, strategy="topic", chunk_size=160)
    texts = [c.text.strip() for c in cs]
    assert "." not in texts and "Materials and Methods" not in texts
    assert all(c.size >= 40 for c in cs)


@pytest.mark.parametrize("size", [90, 150, 400])
def test_one_topic_packs_as_the_recursive_strategy(monkeypatch, size):
    # below the topic changes the levels are recursive's: a wrapped paragraph is cut at a
    # sentence end before a line end (the paragraph, line, sentence order cut at lines)
    monkeypatch.setattr(topic_module, "_lda_labels", lambda paragraphs, *a, **k: [0] * len(paragraphs))
    para = (
        "The first sentence of a wrapped paragraph runs on\nacross a line end. The second\n"
        "sentence does too, over two lines. A third one\nfollows it here. And a fourth\nends it."
    )
    text = "\n\n".join([para, "Title line", para.replace("first", "next"), para])
    want = [(c.start_index, c.end_index) for c in chunkwise.chunk(text, strategy="recursive", chunk_size=size)]
    got = [(c.start_index, c.end_index) for c in chunkwise.chunk(text, strategy="topic", chunk_size=size)]
    assert got == want


def test_gpl_preamble_title_is_not_alone(monkeypatch):
    monkeypatch.setattr(topic_module, "_lda_labels", _flip)
    text = (
        "Everyone is permitted to copy and distribute verbatim copies\n"
        " of this license document, but changing it is not allowed.\n\n"
        "                            Preamble\n\n"
        "  The GNU General Public License is a free, copyleft license for\n"
        "software and other kinds of works.\n\n"
        "  The licenses for most software and other practical works are designed\n"
        "to take away your freedom to share and change the works."
    )
    cs = chunkwise.chunk(text, strategy="topic", chunk_size=200)
    assert "Preamble" not in [c.text.strip() for c in cs]


@settings(max_examples=30, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 60), min_size=2, max_size=14),
    labels=st.lists(st.integers(0, 2), min_size=14, max_size=14),
    size=st.integers(30, 200),
)
def test_no_runt_where_a_neighbour_has_room(lengths, labels, size):
    text = "\n\n".join(" ".join(["word"] * (n // 5 + 1))[: max(n, 1)].strip() or "w" for n in lengths)
    chunker = TopicChunker(chunk_size=size, restarts=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(topic_module, "_lda_labels", lambda paragraphs, *a, **k: labels[: len(paragraphs)])
        cs = chunker.chunk(text)
    check_invariants(text, cs, size, chunker.sizer, overlap_allowed=False)
    floor = size // 4
    for i, c in enumerate(cs):
        if c.size < floor and len(cs) > 1:
            # a runt only where joining it with a neighbour would not fit
            if i > 0:
                assert c.end_index - cs[i - 1].start_index > size
            if i + 1 < len(cs):
                assert cs[i + 1].end_index - c.start_index > size


GUIDE = (
    "Intro words about packing.\n\n"
    "# Sizes\n\n"
    "## Budgets\n\n"
    "Every level has its own size. The leaves are small.\n\n"
    "More about sizes here.\n\n"
    "# Overlap\n\n"
    "Overlap repeats the end of a chunk."
)


@pytest.mark.parametrize(
    ("labels", "cuts"),
    [
        # a change after "## Budgets" (and after "# Sizes"): before "# Sizes"
        ([0, 0, 1, 1, 1, 2, 2], [0, 4]),
        ([0, 1, 2, 2, 2, 2, 2], [0]),
        # a change after "# Overlap": before it; a text that opens with a heading keeps no cut
        ([0, 0, 0, 0, 0, 0, 1], [4]),
        ([1, 1, 1, 1, 1, 1, 1], []),
    ],
)
def test_a_topic_change_after_a_heading_moves_before_it(monkeypatch, labels, cuts):
    monkeypatch.setattr(topic_module, "_lda_labels", lambda paragraphs, *a, **k: labels[: len(paragraphs)])
    doc = Document(GUIDE, metadata={"format": "markdown"})
    chunker = TopicChunker(chunk_size=60)
    paras = chunker.paragraphs(GUIDE)
    assert len(paras) == 7

    def topic_cuts(segs):
        top = segs.levels[0]
        return [a for a, _ in top.cuts(GUIDE, 0, len(GUIDE))] if top.name == "topic" else []

    assert topic_cuts(chunker.parse(doc)) == [paras[i][1] for i in cuts]
    cs = chunker.chunk(doc)
    assert not [c.text for c in cs if c.text.lstrip().startswith("#") and "\n" not in c.text.strip()]
    check_invariants(GUIDE, cs, 60, chunker.sizer, overlap_allowed=False)
    # a plain string: a cut wherever the labels change
    changes = [i for i in range(6) if labels[i + 1] != labels[i]]
    assert topic_cuts(chunker.parse(Document(GUIDE))) == [paras[i][1] for i in changes]
