"""Chunks that help retrieval, on real documents: no heading-only chunk, few runts.

On the bundled corpora always, and on the Markdown documentation that Debian packages
install under /usr/share/doc when it is there (skipped otherwise).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import chunkwise
from chunkwise.evaluation.diagnostics import chunk_stats, is_heading_only

pytest.importorskip("markdown_it")
pytest.importorskip("numpy")

CORPORA = Path(__file__).resolve().parents[1] / "data" / "chroma_eval" / "corpora"
DEBIAN_DOCS = Path("/usr/share/doc")


def _debian_markdown(limit: int = 80) -> list[Path]:
    if not DEBIAN_DOCS.is_dir():
        return []
    found = sorted(p for p in DEBIAN_DOCS.rglob("*.md") if p.is_file() and p.stat().st_size > 1000)
    return found[:limit]


def _check(docs, strategy):
    chunker = chunkwise.make_chunker(strategy, chunk_size=512, unit="tokens")
    stats = chunk_stats(docs, chunker)
    assert stats.count > 0
    if strategy == "markdown":
        assert stats.heading_only == 0.0, "a heading-only chunk"
    assert stats.small < 0.02, f"{stats.small:.1%} of chunks under a quarter of chunk_size"


@pytest.mark.parametrize("strategy", ["markdown", "recursive"])
def test_bundled_corpora(strategy):
    docs = [chunkwise.load(p) for p in sorted(CORPORA.glob("*.md"))]
    _check(docs, strategy)


@pytest.mark.parametrize("strategy", ["markdown", "recursive"])
def test_debian_documentation(strategy):
    paths = _debian_markdown()
    if len(paths) < 10:
        pytest.skip("no Markdown documentation under /usr/share/doc")
    docs = []
    for p in paths:
        try:
            docs.append(chunkwise.load(p))
        except chunkwise.ChunkwiseError:
            continue
    _check(docs, strategy)


def test_heading_only_detection():
    assert is_heading_only("## Intro")
    assert is_heading_only("# A\n\n## B")
    assert is_heading_only("Title\n=====")
    assert not is_heading_only("# A\n\nBody.")
    assert not is_heading_only("- item")
    assert not is_heading_only("---")


def test_heading_goes_with_its_body_when_the_body_is_bigger_than_a_chunk():
    body = " ".join(f"Sentence number {i} says something." for i in range(40))
    text = f"# Guide\n\n## Intro\n\n{body}\n\n## Next\n\nShort body.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=200)
    assert not any(is_heading_only(c.text) for c in chunks)
    assert chunks[0].text.startswith("# Guide\n\n## Intro\n\nSentence number 0")
    assert chunks[0].metadata["header_path"] == ["Guide", "Intro"]


def test_wrapped_prose_is_cut_at_sentences_not_at_line_wraps():
    text = (
        "The licence is granted to any person obtaining a copy of this software, to deal in the\n"
        "software without restriction. The above copyright notice shall be included in all\n"
        "copies or substantial portions of the software. The software is provided as is, without\n"
        "warranty of any kind. In no event shall the authors be liable for any claim, damages or\n"
        "other liability arising from the software or its use. This notice is\n"
        "provided."
    )
    chunks = chunkwise.chunk(text, chunk_size=200)
    assert all(c.text[-1] == "." for c in chunks), [c.text[-20:] for c in chunks]
    assert min(c.size for c in chunks) >= 50


def test_sentence_step_larger_than_sentences_per_chunk_is_an_error():
    with pytest.raises(chunkwise.ConfigError, match="step"):
        chunkwise.make_chunker("sentence", sentences_per_chunk=3, step=5)


def test_a_runt_joins_its_neighbour_and_titles_start_chunks():
    text = (
        "Methods\n\n" + "We measured the thing carefully. " * 6 + "\n\nResults\n\n"
        + "The thing was large, as expected. " * 6 + "\n\nDiscussion\n\nShort."
    )
    chunks = chunkwise.chunk(text, chunk_size=250)
    assert all(c.size >= 250 // 4 for c in chunks), [c.text for c in chunks]
    # no chunk ends with a title: each title starts the chunk of its text
    for c in chunks[:-1]:
        assert not c.text.endswith(("Results", "Discussion", "Methods")), c.text[-30:]


def test_form_feed_is_a_page_break_and_sets_page_numbers():
    text = "First page text here.\fSecond page text.\fThird."
    chunks = chunkwise.chunk(text, chunk_size=30)
    assert [(c.text, c.metadata["page_number"], c.metadata["page_end"]) for c in chunks] == [
        ("First page text here.", 1, 1),
        ("Second page text.\fThird.", 2, 3),
    ]


def test_heading_goes_with_a_first_block_that_fits_alone_but_not_with_it():
    md = "# Guide\n\nIntro.\n\n## Logging\n\n- " + "word " * 48 + "\n- second item\n"
    chunks = chunkwise.chunk(md, strategy="markdown", chunk_size=250)
    assert not any(is_heading_only(c.text) for c in chunks), [c.text[:30] for c in chunks]
    assert any(c.text.startswith("## Logging\n\n- word") for c in chunks)
    # oversize="keep" keeps the item whole: the heading may then be alone (nothing permits)
    kept = chunkwise.chunk(md, strategy="markdown", chunk_size=250, oversize="keep")
    assert any(c.text.startswith("- word") for c in kept)


def test_sentence_overlap_adds_no_chunk_inside_its_predecessor_and_few_runts():
    docs = [chunkwise.load(p) for p in sorted(CORPORA.glob("*.md"))]
    chunker = chunkwise.make_chunker("sentence", chunk_size=200, unit="tokens", overlap_sentences=1)
    for doc in docs:
        chunks = chunker.chunk(doc)
        for a, b in zip(chunks, chunks[1:]):
            assert not (a.start_index <= b.start_index and b.end_index <= a.end_index), b.text[:40]
    assert chunk_stats(docs, chunker).small < 0.02
