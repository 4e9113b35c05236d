"""The conversation strategy across writing systems and small sizes: speaker names
written with combining marks (Thai, Hindi, decomposed Latin), full-width colons, scripts
without letter case, empty chat records, lone punctuation and SRT cue numbers."""

from __future__ import annotations

import unicodedata

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise import Document
from chunkwise.sizers import CharSizer
from chunkwise.parsers.conversation import _MARKS, find_turns

THAI = (
    "สมชาย: สวัสดีครับ วันนี้ว่างไหม\n"
    "สมหญิง: ว่างค่ะ มีอะไรหรือเปล่า\n"
    "สมชาย: ไปกินข้าวกันไหมครับ\n"
    "สมหญิง: ได้ค่ะ\n"
)
HINDI = "सीता: नमस्ते राम।\nराम: नमस्ते सीता, कैसी हो?\nसीता: मैं ठीक हूँ।\nराम: अच्छा।\n"
NFD = unicodedata.normalize("NFD", "Zoë: Hello there.\nJosé: Hi Zoë.\nZoë: How are you?\nJosé: Fine.\n")


# -- names written with combining marks ---------------------------------------------------


@pytest.mark.parametrize(
    "text, speakers",
    [
        (THAI, ["สมชาย", "สมหญิง", "สมชาย", "สมหญิง"]),
        (HINDI, ["सीता", "राम", "सीता", "राम"]),
        (NFD, [unicodedata.normalize("NFD", n) for n in ("Zoë", "José", "Zoë", "José")]),
        ("สมชาย ใจดี: สวัสดี\nสมหญิง รักไทย: ดีค่ะ\n", ["สมชาย ใจดี", "สมหญิง รักไทย"]),
    ],
    ids=["thai", "hindi", "nfd-latin", "thai-two-words"],
)
def test_names_with_combining_marks_are_speakers(text, speakers):
    """A vowel sign or a decomposed accent inside a name (Unicode Mn/Mc) does not end
    it: each line is its own speaker's turn, not more text of the turn before."""
    turns = find_turns(text).turns
    assert [t.speaker for t in turns] == speakers
    chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer())
    # each chunk names the speakers of the turns it holds, and only those
    for c in chunks:
        held = [t.speaker for t in turns if t.start < c.end_index and c.start_index < t.end]
        assert c.metadata["speakers"] == list(dict.fromkeys(held)), (c.text, c.metadata["speakers"])


def test_the_mark_class_holds_every_combining_mark():
    """The blocks scanned for combining marks hold every mark of this Python's Unicode
    database (a new Unicode version with marks elsewhere fails here)."""
    import re

    marks = re.compile(f"[{_MARKS}]")
    missing = [
        hex(c) for c in range(0x110000) if unicodedata.category(chr(c))[0] == "M" and not marks.match(chr(c))
    ]
    assert not missing, missing[:20]
    assert not marks.match("a") and not marks.match("1") and not marks.match(":")
