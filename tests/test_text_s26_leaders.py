"""Dot leaders in tables of contents and indexes are not sentence ends.

A table of contents line is a title, a run of dots (spaced ". . . ." in PDFs, "......"
in plain text) and a page number. Each dot of the run used to end a sentence, so a
packer that prefers sentence ends to plain line breaks cut inside the line and the page
number went to the next chunk.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import split_sentences
from chunkwise.sentences import sentence_cuts, sentence_cuts_reversed

CORPUS = Path(__file__).parent / "corpus" / "pdf"

SPACED_TOC = (
    "Table of Contents\n\n"
    "1 Introduction . . . . . . . . . . . . . . . . . . . . . . . . 1\n"
    "2 ASN.1 structure handling . . . . . . . . . . . . . . . . . . 2\n"
    "2.1 ASN.1 syntax. . . . . . . . . . . . . . . . . . . . . . . . 2\n"
    "2.2 What is a bug? . . . . . . . . . . . . . . . . . . . . . . 3\n"
    "2.3 Why is R named R?. . . . . . . . . . . . . . . . . . . . . 4\n"
    "Preface . . . . . . . . . . . . . . . . . . . . . . . . . . . . iv\n"
)
PLAIN_TOC = (
    "Contents\n\n"
    "1.  Introduction ........................................    1\n"
    "    1.1  man-db .........................................    1\n"
    "    1.2  The manual page system .........................   12\n"
    "Encodings ............................................. 4, 27, 31\n"
    "Sockets …………………… A-3\n"
)


def _lines_whole(text: str) -> bool:
    """Whether every sentence of ``text`` is made of whole lines."""
    for a, b in sentence_cuts(text):
        if "\n" not in text[a:b]:
            return False
    return True


@pytest.mark.parametrize("toc", [SPACED_TOC, PLAIN_TOC], ids=["spaced", "plain"])
def test_no_sentence_end_inside_a_toc_line(toc):
    assert _lines_whole(toc)
    sentences = [toc[a:b] for a, b in split_sentences(toc)]
    assert all(not s.startswith(".") for s in sentences)


def test_reversed_cuts_agree():
    for toc in (SPACED_TOC, PLAIN_TOC):
        assert list(sentence_cuts_reversed(toc)) == list(sentence_cuts(toc))[::-1]


def test_toc_chunks_keep_page_numbers_on_their_line():
    # each line is about 60 characters: a chunk of 150 holds two lines, cut at a line break
    chunks = chunkwise.chunk(SPACED_TOC, strategy="recursive", chunk_size=150)
    for c in chunks:
        assert c.text == SPACED_TOC[c.start_index : c.end_index]
        assert c.start_index == 0 or SPACED_TOC[c.start_index - 1] == "\n"
        assert c.end_index == len(SPACED_TOC.rstrip()) or SPACED_TOC[c.end_index] == "\n"


def _cuts_inside_leader_lines(text: str, chunks) -> list[str]:
    """The chunk boundaries that fall inside a line with a dot leader (not at its end)."""
    out = []
    for c, d in zip(chunks, chunks[1:]):
        if "\n" in text[c.end_index : d.start_index]:
            continue
        line = text[text.rfind("\n", 0, c.end_index) + 1 : text.find("\n", d.start_index)]
        if ". . . . ." in line:
            out.append(line)
    return out


def test_pdf_table_of_contents_is_cut_at_line_ends():
    """The R FAQ's contents (131 entries, several ending in "?"): no chunk begins
    with the rest of a dot leader (17 did), no cut inside an entry's line (18)."""
    doc = chunkwise.load(CORPUS / "R-FAQ.pdf")
    chunks = chunkwise.chunk(doc, chunk_size=200, unit="tokens")
    assert not [c.text[:40] for c in chunks if c.text.startswith(".")]
    assert sum(". . . . ." in c.text for c in chunks) > 10
    assert _cuts_inside_leader_lines(doc.text, chunks) == []


def test_sentence_strategy_cuts_contents_at_entry_ends():
    """The sentence strategy has no line level: an entry's line end is a sentence end
    (the strategy cut inside the lines, at the leader's dots, then at words: 42 cuts
    inside the contents and index lines of R-data.pdf)."""
    doc = chunkwise.load(CORPUS / "R-data.pdf")
    chunks = chunkwise.chunk(doc, strategy="sentence", chunk_size=200, unit="tokens")
    assert sum(". . . . ." in c.text for c in chunks) > 10
    assert _cuts_inside_leader_lines(doc.text, chunks) == []


def test_entry_ends():
    text = "Contents\n\n1 Intro . . . . . 1\n2 Why? . . . . 3\n  2.1 More .... iv\nIndex ..... 4, 27\nEnd"
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "Contents",
        "1 Intro . . . . . 1",
        "2 Why? . . . . 3",
        "2.1 More .... iv",
        "Index ..... 4, 27",
        "End",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an ellipsis keeps its rule: no end before a lower-case word
        ("Wait... then go. Wait... Then go.", ["Wait... then go.", "Wait...", "Then go."]),
        # spaced dots are one ellipsis (each dot was a sentence end)
        ("I thought . . . maybe. More to come soon . . .", ["I thought . . . maybe.", "More to come soon . . ."]),
        ("It stopped . . . Then it rained.", ["It stopped . . .", "Then it rained."]),
        # three dots before a number in prose: still an ellipsis, not a leader
        ("I waited... 10 minutes passed.", ["I waited...", "10 minutes passed."]),
        ("Totals: see p. 12. The end.", ["Totals: see p. 12.", "The end."]),
        # one full stop before a page number on its own line still ends a sentence
        ("Chapter one ends here.\n12\nChapter two", ["Chapter one ends here.", "12\nChapter two"]),
    ],
)
def test_prose_dots(text, expected):
    assert [text[a:b] for a, b in split_sentences(text)] == expected


_title = st.text(alphabet="abcdefghij KLMNOP", min_size=1, max_size=30).map(str.strip).filter(bool)
_leader = st.tuples(st.integers(4, 40), st.sampled_from([".", ". ", "\u2026"])).map(lambda t: (t[1] * t[0]).rstrip())
_page = st.one_of(st.integers(1, 9999).map(str), st.sampled_from(["i", "iv", "xii", "A-3", "3-12", "4, 27"]))
_sep = st.sampled_from([" ", "  ", "", ". "])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_title, _sep, _leader, st.sampled_from([" ", "    "]), _page), min_size=1, max_size=8))
def test_generated_tables_of_contents(entries):
    text = "\n".join(f"{t}{s}{leader}{gap}{p}" for t, s, leader, gap, p in entries) + "\nThe end."
    cuts = list(sentence_cuts(text))
    assert [text[a:b] for a, b in cuts] == ["\n"] * len(entries)  # every entry ends at its line end
    assert list(sentence_cuts_reversed(text)) == cuts[::-1]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(_title, _sep, _leader, st.sampled_from([" ", "    "]), _page), min_size=1, max_size=5),
    st.data(),
)
def test_cuts_in_a_window(entries, data):
    """A span that starts inside an entry (between its last dot and its line end) has the
    entry's cut too: the cuts of a span are those of the whole text inside it."""
    text = "\n".join(f"{t}{s}{leader}{gap}{p}" for t, s, leader, gap, p in entries) + "\nThe end."
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    whole = [(a, b) for a, b in sentence_cuts(text) if a > start and b < end]
    assert list(sentence_cuts(text, start, end)) == whole
    assert list(sentence_cuts_reversed(text, start, end)) == whole[::-1]
