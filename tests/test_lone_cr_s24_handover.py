"""The line-feed twin is made once per document: the parser hands the packer the twin it read.

Also: a SubRip file with lone carriage returns is sniffed and routed as subtitles, and its
warnings give the line of a malformed timing line.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

import chunkwise
from chunkwise import boundaries
from chunkwise.loaders.subtitles import SrtLoader, looks_like_subtitles

CORPUS = Path(__file__).parent / "corpus"


def _counting(monkeypatch) -> list[bool]:
    """Count every line_feed_twin call that makes a twin, wherever it is imported."""
    made: list[bool] = []
    real = boundaries.line_feed_twin

    def counted(text):
        twin = real(text)
        made.append(twin is not None)
        return twin

    for name, mod in list(sys.modules.items()):
        if name.startswith("chunkwise") and getattr(mod, "line_feed_twin", None) is real:
            monkeypatch.setattr(mod, "line_feed_twin", counted)
    return made


@pytest.mark.parametrize(
    "strategy, kw",
    [
        ("code", {"language": "python"}),
        ("conversation", {}),
        ("sentence", {"window_sentences": 1}),
        ("topic", {"restarts": 1}),
        ("semantic", {}),
        ("semantic_cluster", {}),
    ],
)
def test_the_twin_is_made_once_per_document(monkeypatch, strategy, kw):
    if strategy == "topic":
        pytest.importorskip("sklearn")
    if strategy.startswith("semantic"):
        pytest.importorskip("numpy")
        kw = {"model": lambda texts: [[1.0, float("cat" in t)] for t in texts]}
    if strategy == "code":
        lf = "".join(f"def f{i}(a):\n    return a * {i}\n\n\n" for i in range(20))
    else:
        lf = (CORPUS / "conversation/standup.txt").read_text(encoding="utf-8")
    cr = lf.replace("\n", "\r")
    want = chunkwise.chunk(lf, strategy=strategy, chunk_size=120, **kw)
    made = _counting(monkeypatch)
    got = chunkwise.chunk(cr, strategy=strategy, chunk_size=120, **kw)
    assert sum(made) == 1
    assert [(c.start_index, c.end_index) for c in got] == [(c.start_index, c.end_index) for c in want]


def test_a_classic_mac_subrip_file_is_read_as_subtitles():
    lf = (CORPUS / "conversation/lecture.srt").read_text(encoding="utf-8").replace("\r\n", "\n")
    cr = lf.replace("\n", "\r")
    assert looks_like_subtitles(cr) and SrtLoader().sniff(cr.encode())
    got = chunkwise.chunk(cr, strategy="auto", chunk_size=100)
    want = chunkwise.chunk(lf, strategy="auto", chunk_size=100)
    assert got[0].metadata["strategy"] == want[0].metadata["strategy"] == "conversation"
    assert [(c.start_index, c.end_index) for c in got] == [(c.start_index, c.end_index) for c in want]
    bad = cr.replace("00:00:08,500 --> 00:00:12,000", "00:00:08,500 --> 00:61:12,000")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc = SrtLoader().parse_text(bad, source="a.srt")
    assert doc.metadata["warnings"][0].startswith("a.srt: line 10: ")
