"""Sentence segmentation: the hard cases named in the issue, with exact offsets."""

from __future__ import annotations

import pytest

from chunkwise import split_sentences

CASES = [
    ("Ms. Ortiz paid 3.5 units. She left. Mr. Diaz stayed late.", ["Ms. Ortiz paid 3.5 units.", "She left.", "Mr. Diaz stayed late."]),
    ("Dr. Smith arrived. Prof. Jones did not.", ["Dr. Smith arrived.", "Prof. Jones did not."]),
    ("Use tools, e.g. hammers. They help.", ["Use tools, e.g. hammers.", "They help."]),
    ("The U.S. Army came. It stayed.", ["The U.S. Army came.", "It stayed."]),
    ("We moved to the U.S. The weather was fine.", ["We moved to the U.S.", "The weather was fine."]),
    ("It was 9 p.m. Friday. Then rain.", ["It was 9 p.m. Friday.", "Then rain."]),
    ("The dose is 2.5 mg. Take it daily.", ["The dose is 2.5 mg.", "Take it daily."]),
    ("Steps:\n1. Open the box.\n2. Remove the lid.\n3. Done", ["Steps:", "1. Open the box.", "2. Remove the lid.", "3. Done"]),
    ("Visit https://example.com/a.b. Then write to a.b@example.org. Thanks!", ["Visit https://example.com/a.b.", "Then write to a.b@example.org.", "Thanks!"]),
    ("Wait... what happened? Nothing... Really.", ["Wait... what happened?", "Nothing...", "Really."]),
    ('He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
    ("It ended (finally.) Next one.", ["It ended (finally.)", "Next one."]),
    ("Really?! Yes.", ["Really?!", "Yes."]),
    ("J. K. Rowling wrote it. Fig. 3 shows why.", ["J. K. Rowling wrote it.", "Fig. 3 shows why."]),
    ("今天天气很好。我们去公园！你呢？", ["今天天气很好。", "我们去公园！", "你呢？"]),
    ("「你好。」他说。", ["「你好。」", "他说。"]),
    ("First paragraph without end\n\nSecond one", ["First paragraph without end", "Second one"]),
    ("No terminator at all", ["No terminator at all"]),
    ("He lives on Main St. He is nice. St. Louis is far.", ["He lives on Main St.", "He is nice.", "St. Louis is far."]),
    ("revenue rose 5% in 2017. the company paid $3 million. debt fell.", ["revenue rose 5% in 2017.", "the company paid $3 million.", "debt fell."]),
    ("Apple Inc. and Google agreed. Prices etc. fell.", ["Apple Inc. and Google agreed.", "Prices etc. fell."]),
    ("", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:30] for c in CASES])
def test_sentences(text, expected):
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == expected
    assert all(a < b for a, b in spans) and all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))


def test_offsets_in_a_span():
    text = "Skip this. Keep one. Keep two. Skip too."
    spans = split_sentences(text, 11, 30)
    assert [text[a:b] for a, b in spans] == ["Keep one.", "Keep two."]
