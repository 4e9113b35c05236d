"""A sentence of punctuation alone (a lone "." line after a table, as in financial
filings) joins the sentence before it in the semantic strategies: no chunk is "." alone."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

import chunkwise  # noqa: E402
from chunkwise.parsers.semantic import join_bare_sentences  # noqa: E402

# an excerpt of a financial question-answering corpus: a table, a lone ".", questions
FILING = (
    "and what was it in the first quarter? 0.45\n"
    "\n"
    "what was, then, the change in that cash dividend throughout 2002?\n"
    "\n"
    "the following graph compares the cumulative 5-year total return to shareholders of cadence design systems, inc. 2019s common stock relative to the cumulative total returns of the s & p 500 index, the nasdaq composite index and the s & p information technology index. the graph assumes that the value of the investment in the company 2019s common stock and in each of the indexes (including reinvestment of dividends) was $100 on december 29, 2001 and tracks it through december 30, 2006. comparison of 5 year cumulative total return* among cadence design systems, inc., the s & p 500 index, the nasdaq composite index and the s & p information technology index 12/30/0612/31/051/1/051/3/0412/28/0212/29/01 cadence design systems, inc. nasdaq composite s & p information technology s & p 500 * $100 invested on 12/29/01 in stock or on 12/31/01 in index-incuding reinvestment of dividends. indexes calculated on month-end basis. copyright b7 2007, standard & poor 2019s, a division of the mcgraw-hill companies, inc. all rights reserved. www.researchdatagroup.com/s&p.htm december 29, december 28, january 3, january 1, december 31, december 30.\n"
    "\n"
    "- | december 29 2001 | december 28 2002 | january 3 2004 | january 1 2005 | december 31 2005 | december 30 2006\n"
    "cadence design systems inc. | 100.00 | 54.38 | 81.52 | 61.65 | 75.54 | 79.96\n"
    "s & p 500 | 100.00 | 77.90 | 100.24 | 111.15 | 116.61 | 135.03\n"
    "nasdaq composite | 100.00 | 71.97 | 107.18 | 117.07 | 120.50 | 137.02\n"
    "s & p information technology | 100.00 | 62.59 | 92.14 | 94.50 | 95.44 | 103.47\n"
    "\n"
    ".\n"
    "\n"
    "what was the performance value of the cadence design systems inc in 2004? 81.52\n"
    "\n"
    "what was, then, the change in its performance value, considering 2004 and the original amount invested in it in 2001?\n"
    "\n"
    "jpmorgan chase & co./2007 annual report 31 the following section provides a comparative discussion of jpmorgan chase 2019s consolidated results of operations on a reported basis for the three-year period ended december 31, 2007. factors that relate primarily to a single business segment are discussed in more detail within that business segment than they are in this consolidated sec- tion. for a discussion of the critical accounting estimates used by the firm that affect the consolidated results of operations, see pages 96 201398 of this annual report. revenue."
)


def test_no_lone_dot_chunk_in_a_filing():
    # the "." used to be a chunk of 1 token (the question after it moved to the next chunk)
    cs = chunkwise.chunk(FILING, strategy="semantic", chunk_size=200, unit="tokens")
    assert [c.text for c in cs if not any(ch.isalnum() for ch in c.text)] == []
    assert "\n\n." in "".join(c.text for c in cs)


@pytest.mark.parametrize("strategy", ["semantic", "semantic_cluster"])
def test_no_punctuation_chunk(strategy):
    text = "\n\n".join(
        f"Row {i} | {i}.50 | {i * 3}.25\nRow {i + 1} | {i}.75 | {i * 2}.00\n\n.\n\nWhat was the value in 200{i}? {i}.5"
        for i in range(8)
    )
    for size in (30, 45, 60, 90):
        cs = chunkwise.chunk(text, strategy=strategy, chunk_size=size, unit="tokens")
        assert all(any(ch.isalnum() for ch in c.text) for c in cs), size


@pytest.mark.parametrize(
    ("text", "sents", "want"),
    [
        ("a | 1.50\n\n.\n\nNext one.", [(0, 8), (10, 11), (13, 22)], [(0, 11), (13, 22)]),
        ("...\n\nFirst. Second.", [(0, 3), (5, 11), (12, 19)], [(0, 11), (12, 19)]),
        ("One.\n\n* * *\n\n---", [(0, 4), (6, 11), (13, 16)], [(0, 16)]),
        ("Only. Words.", [(0, 5), (6, 12)], [(0, 5), (6, 12)]),
        ("...\n\n!!!", [(0, 3), (5, 8)], [(0, 3), (5, 8)]),
    ],
)
def test_join_bare_sentences(text, sents, want):
    assert join_bare_sentences(text, sents) == want
