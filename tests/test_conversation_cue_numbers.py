"""A subtitle cue's number (or identifier) is never a chunk of its own where it fits with
its start time: also where the timing line alone fits a chunk but not with the number."""

from __future__ import annotations

import re

from invariants import check_invariants

import chunkwise
from chunkwise.loaders import parse
from chunkwise.sizers import CharSizer

SRT = "".join(
    f"{k}\n00:00:{2 * k:02d},000 --> 00:00:{2 * k + 1:02d},500\n{line}\n\n"
    for k, line in enumerate(
        [
            "Hello there, and welcome to the show.",
            "Today we talk about chunking.",
            "It splits text into pieces.",
            "Each piece fits a budget.",
            "Short one.",
            "The tenth cue has a number of two digits.",
            "So does the eleventh.",
        ],
        start=1,
    )
).replace("\n5\n", "\n10\n").replace("\n6\n", "\n11\n").replace("\n7\n", "\n12\n")
VTT = (
    "WEBVTT\n\n"
    "intro\n00:00:01.000 --> 00:00:04.000\nHello there.\n\n"
    "q-2\n00:00:04.500 --> 00:00:07.000 align:start\nFine, thanks.\n\n"
    "00:00:07.500 --> 00:00:09.000\nA cue without an identifier.\n"
)
HEADER = re.compile(r"^([^\n]+)\n(\d\d:\d\d:\d\d[,.]\d{3}) -->", re.M)


def _alone(text: str, fmt: str, size: int) -> list[str]:
    """The cue numbers (identifiers) that are a chunk of their own at ``size`` although
    they fit with their start time."""
    doc = parse(text, format=fmt)
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size)
    check_invariants(text, chunks, size, CharSizer())
    fits = {m.start(): m.group(1) for m in HEADER.finditer(text) if m.end(2) - m.start() <= size}
    return [fits[c.start_index] for c in chunks if c.start_index in fits and c.text == fits[c.start_index]]


def test_a_cue_number_goes_with_its_start_time_where_they_fit():
    doc = parse(SRT, format="srt")
    for size in (10, 20, 30, 40):
        assert _alone(SRT, "srt", size) == [], size
    texts = [c.text for c in chunkwise.chunk(doc, strategy="conversation", chunk_size=30)]
    assert texts[:2] == ["1\n00:00:02,000 -->", "00:00:03,500"]  # the timing line alone would fit
    assert "10\n00:00:10,000 -->" in texts
    texts = [c.text for c in chunkwise.chunk(doc, strategy="conversation", chunk_size=40)]
    assert texts[0].startswith("1\n00:00:02,000 --> 00:00:03,500")  # number and timing line fit: whole


def test_no_cue_number_alone_at_any_size_where_it_fits_with_its_start_time():
    for fmt, text in (("srt", SRT), ("vtt", VTT)):
        for size in range(8, 201):
            assert _alone(text, fmt, size) == [], (fmt, size)


def test_a_cue_without_a_number_keeps_its_timing_line_whole_where_it_fits():
    texts = [c.text for c in chunkwise.chunk(parse(VTT, format="vtt"), strategy="conversation", chunk_size=29)]
    assert "00:00:07.500 --> 00:00:09.000" in texts
    assert "intro\n00:00:01.000 -->" in texts
