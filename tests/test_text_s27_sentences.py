"""Sentence splitting of numbered headings and wrapped section references: an
indented "0. Definitions." is one sentence, and "section\\n    7." at a line start
carries on the sentence before it (the number of a reference, not a list item)."""

from __future__ import annotations

import pytest

import chunkwise
from chunkwise.sentences import sentence_cuts, sentence_cuts_reversed


def sents(text):
    return [text[a:b] for a, b in chunkwise.split_sentences(text)]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("  0. Definitions.\n\n  Text.", ["0. Definitions.", "Text."]),
        ("\t12. Patents.\n\n  Text here.", ["12. Patents.", "Text here."]),
        ("  5. You are not required to accept this License.", ["5. You are not required to accept this License."]),
        (
            "obey section\n    7.  This requirement modifies it.",
            ["obey section\n    7.", "This requirement modifies it."],
        ),
        ("under sections 4 and\n  5.  Those apply.", ["under sections 4 and\n  5.", "Those apply."]),
        ("as in section\r\n  7.  This ends.", ["as in section\r\n  7.", "This ends."]),
        # a reference before a lower-case word ends no sentence
        ("see note 13. benefit plans apply. Then more.", ["see note 13. benefit plans apply.", "Then more."]),
        ("item 2. properties.", ["item 2. properties."]),
    ],
)
def test_numbers_of_headings_and_references(text, want):
    assert sents(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # lists still split, also when a line ends with a word such as "item"
        ("1. First item\n2. Second item\n3. Third item", ["1. First item", "2. Second item", "3. Third item"]),
        ("Intro:\n1. First.\n2. Second.", ["Intro:", "1. First.", "2. Second."]),
        ("Steps:\n  1. Mix it\n  2. Bake it", ["Steps:", "1. Mix it", "2. Bake it"]),
        # numbers that end a sentence still do
        ("It was 1984. Then came 1985.", ["It was 1984.", "Then came 1985."]),
        ("Read section 7. Then stop.", ["Read section 7.", "Then stop."]),
        ("We sold 12. the rest stayed.", ["We sold 12.", "the rest stayed."]),
    ],
)
def test_what_still_splits(text, want):
    assert sents(text) == want


def test_reversed_cuts_agree():
    text = "  0. Definitions.\n\n  A text under section\n    7.  This one. Then item 2. properties.\n1. a\n2. b"
    assert list(sentence_cuts_reversed(text))[::-1] == list(sentence_cuts(text))


def test_gpl_sections_in_sentence_windows():
    # "0.", "1.", ... used to be sentences (chunks) of their own
    text = "\n\n".join(
        f"  {i}. Heading Number {i}.\n\n  Body of section {i} refers to section\n    {i + 1}.  It ends here."
        for i in range(6)
    )
    cs = chunkwise.chunk(text, strategy="sentence", window_sentences=2)
    assert all(len(c.text.strip()) > 3 for c in cs)
    assert cs[0].text == "0. Heading Number 0."
    assert cs[1].text.startswith("Body of section 0 refers to section\n    1.")
