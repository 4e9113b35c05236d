"""A lone carriage return (classic Mac OS) in the turn, topic, semantic and sentence strategies.

The packer packs a text whose lines end with a lone ``"\\r"`` as its line-feed twin (the
same text with ``"\\n"`` there: same length, same offsets). The parsers of
``conversation``, ``topic``, ``semantic`` and ``semantic_cluster`` and the sentence
windows read that twin too, so a classic Mac text gets the offsets and metadata of the
same text with line feeds. ``"\\r\\n"`` stays one line break.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.boundaries import line_feed_twin
from chunkwise.parsers.conversation import (
    cue_problems,
    find_turns,
    looks_like_conversation,
    names_carriage_return,
)
from chunkwise.sizers import CharSizer, WordSizer

CORPUS = Path(__file__).parent / "corpus"
# prose with headings, lists, a code block and numbered clauses; a stand-up transcript
_PROSE = ["structure/service-agreement.txt", "structure/features.md", "conversation/standup.txt"]
# keys whose value is text (the window) or derives from it (ids): compared apart
_TEXTUAL = {"window", "prev_id", "next_id"}


def _read(name: str) -> str:
    """A corpus file with line feeds only."""
    return (CORPUS / name).read_text(encoding="utf-8").replace("\r\n", "\n")


def _same(cr: str, got, want) -> None:
    """Chunks of a classic Mac text (``got``) against those of its line-feed twin."""
    assert [(c.start_index, c.end_index) for c in got] == [(c.start_index, c.end_index) for c in want]
    for a, b in zip(got, want):
        assert a.text == cr[a.start_index : a.end_index]
        assert (a.index, a.size, a.context) == (b.index, b.size, b.context)
        assert {k: v for k, v in a.metadata.items() if k not in _TEXTUAL} == {
            k: v for k, v in b.metadata.items() if k not in _TEXTUAL
        }
        if "window" in a.metadata:
            ws, we = a.metadata["window_start"], a.metadata["window_end"]
            assert a.metadata["window"] == cr[ws:we]


class CharEmbedder:
    """A deterministic test embedder that tells a carriage return from a line feed: a bag
    of the text's characters and words, 16-d (a sentence with a lone ``"\\r"`` embedded
    as it is gets another vector than with ``"\\n"``); ``chars=False``: the words only."""

    name = "char-bag-16"
    dim = 16

    def __init__(self, chars: bool = True):
        self.texts: list[str] = []
        self.chars = chars

    def embed(self, texts):
        import numpy as np

        self.texts += texts
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for ch in t if self.chars else "":
                out[i, ord(ch) % self.dim] += 0.2
            for w in t.lower().split():
                out[i, sum(map(ord, w.strip(".,!?:;"))) % self.dim] += 1.0
            out[i, 0] += 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)


# -- conversation ------------------------------------------------------------------------

_TRANSCRIPTS = [
    "conversation/coriolanus.txt",  # a play: the speaker alone on the line above the speech
    "conversation/standup.txt",  # "[00:00:05] Ana: ..." lines
    "conversation/interview.vtt",
    "conversation/panel.vtt",  # STYLE, REGION and NOTE blocks
    "conversation/lecture.srt",
    "conversation/support.json",
]


@pytest.mark.parametrize("name", _TRANSCRIPTS)
@pytest.mark.parametrize(
    "kw",
    [
        {"chunk_size": 60},
        {"chunk_size": 200},
        {"chunk_size": 500},
        {"chunk_size": 15, "unit": "words"},
        {"chunk_size": 120, "max_turns": 2},
        {"chunk_size": 90, "include_context_in_size": True},
        {"chunk_size": 150, "chunk_overlap": 30},
    ],
)
def test_conversation_turns_of_a_classic_mac_transcript_are_those_of_its_twin(name, kw):
    lf = _read(name)
    cr = lf.replace("\n", "\r")
    got = chunkwise.chunk(cr, strategy="conversation", **kw)
    want = chunkwise.chunk(lf, strategy="conversation", **kw)
    _same(cr, got, want)
    assert any(c.metadata["boundary"] == "turn" for c in got) or len(got) == 1


@pytest.mark.parametrize("name", _TRANSCRIPTS)
def test_the_turn_parser_reads_lone_carriage_returns_as_line_breaks(name):
    lf = _read(name)
    cr = lf.replace("\n", "\r")
    want = find_turns(lf)
    got = find_turns(cr)
    assert got == want and got.turns
    assert cue_problems(cr) == cue_problems(lf)


def test_a_classic_mac_subtitle_file_has_no_malformed_cue():
    lf = _read("conversation/lecture.srt")
    cr = lf.replace("\n", "\r")
    assert cue_problems(cr) == []
    times = ["00:00:01,000", "00:00:04,500", "00:00:08,500", "00:00:12,500"]
    assert [t.start_time for t in find_turns(cr).turns] == times
    # a malformed timing line is found at the same offset, its line without a line end
    bad = lf.replace("00:00:04,500 --> 00:00:08,000", "00:00:04,500 -> 00:00:08,000")
    bad = bad.replace("00:00:08,500 --> 00:00:12,000", "00:00:08,500 --> 00:61:12,000")
    assert cue_problems(bad.replace("\n", "\r")) == cue_problems(bad) and len(cue_problems(bad)) == 1


def test_a_turn_pattern_that_names_a_carriage_return_reads_the_text():
    cr = "Minutes\rAna: the tide is high.\rBen: how high?\rAna: very, today.\r"
    lines = r"^(?P<speaker>[A-Z]\w+): "  # line starts: the twin's
    returns = r"(?<=\r)(?P<speaker>[A-Z]\w+): "  # after a carriage return: the text's
    assert names_carriage_return(re.compile(returns)) and not names_carriage_return(re.compile(lines))
    want = ["Minutes", "Ana: the tide is high.", "Ben: how high?", "Ana: very, today."]
    for pattern in (lines, returns):
        got = chunkwise.chunk(cr, strategy="conversation", chunk_size=25, turn_pattern=pattern)
        assert [c.text for c in got] == want, pattern
        assert [c.metadata["speaker"] for c in got] == [None, "Ana", "Ben", "Ana"]
    # read in the twin, the pattern that names a carriage return would find no turn
    assert find_turns(cr.replace("\r", "\n"), pattern=re.compile(returns, re.MULTILINE)).turns == ()


@pytest.mark.parametrize("name", ["conversation/coriolanus.txt", "conversation/standup.txt", "conversation/panel.vtt"])
def test_auto_takes_a_classic_mac_transcript_for_a_conversation(name):
    lf = _read(name)
    cr = lf.replace("\n", "\r")
    assert looks_like_conversation(cr) == looks_like_conversation(lf)
    got = chunkwise.chunk(cr, strategy="auto", chunk_size=200)
    want = chunkwise.chunk(lf, strategy="auto", chunk_size=200)
    assert got[0].metadata["strategy"] == want[0].metadata["strategy"] == "conversation"
    _same(cr, got, want)


def test_a_crlf_cut_at_the_head_limit_is_no_lone_carriage_return():
    # the head looks_like_conversation reads ends between the "\r" and "\n" of a line
    # that is only a speaker's name: that "\r" is read as the "\r\n" it is part of
    crlf = "Ana: Hi there.\r\nBen: Hello.\r\nAna: Ready?\r\nBEN:\r\nYes.\r\n"
    limit = crlf.index("BEN:") + len("BEN:\r")
    assert crlf[limit - 1] == "\r" and crlf[limit] == "\n"
    assert looks_like_conversation(crlf, max_chars=limit) == looks_like_conversation(crlf, max_chars=limit + 1)
    lone = crlf.replace("\r\n", "\r")
    assert looks_like_conversation(lone, max_chars=limit - 3) is looks_like_conversation(
        lone.replace("\r", "\n"), max_chars=limit - 3
    ) is True


# -- topic -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _PROSE)
@pytest.mark.parametrize(
    "kw", [{"chunk_size": 150}, {"chunk_size": 400, "n_topics": 3}, {"chunk_size": 40, "unit": "words"}]
)
def test_topic_regions_of_a_classic_mac_text_are_those_of_its_twin(name, kw):
    pytest.importorskip("sklearn")
    lf = _read(name)
    cr = lf.replace("\n", "\r")
    got = chunkwise.chunk(cr, strategy="topic", restarts=1, **kw)
    want = chunkwise.chunk(lf, strategy="topic", restarts=1, **kw)
    _same(cr, got, want)
    assert len(got) > 1


# -- semantic, semantic_cluster ----------------------------------------------------------


@pytest.mark.parametrize("strategy", ["semantic", "semantic_cluster"])
@pytest.mark.parametrize("name", [*_PROSE[:2], "conversation/coriolanus.txt"])
@pytest.mark.parametrize(
    "kw",
    [
        {"chunk_size": 200},
        {"chunk_size": 500, "buffer_size": 1},
        {"chunk_size": 30, "unit": "words", "chunk_overlap": 5},
    ],
)
def test_semantic_groups_of_a_classic_mac_text_are_those_of_its_twin(strategy, name, kw):
    pytest.importorskip("numpy")
    lf = _read(name)
    cr = lf.replace("\n", "\r")
    emb = CharEmbedder()
    got = chunkwise.chunk(cr, strategy=strategy, model=emb, **kw)
    assert emb.texts and not any(line_feed_twin(t) for t in emb.texts)  # the twin's sentences are embedded
    want = chunkwise.chunk(lf, strategy=strategy, model=CharEmbedder(), **kw)
    _same(cr, got, want)
    assert any(isinstance(c.metadata["boundary_similarity"], float) for c in got)


def test_the_semantic_analysis_of_a_classic_mac_text_is_that_of_its_twin():
    pytest.importorskip("numpy")
    from chunkwise.chunkers.semantic import SemanticChunker

    lf = _read("structure/features.md")
    cr = lf.replace("\n", "\r")
    ch = SemanticChunker(model=CharEmbedder(), chunk_size=300)
    a, b = ch.analyze(cr), ch.analyze(lf)
    assert a.sentences == b.sentences and a.cuts == b.cuts
    assert list(a.similarities) == list(b.similarities)
    assert [(s.start, s.end) for s in a.spans] == [(s.start, s.end) for s in b.spans]
    # the fenced code block: a fence line alone is no sentence in the classic text either
    fence = re.compile(r"(?:`{3,}|~{3,})[^`\r\n]*")
    assert "````markdown\r```python" in cr and "~~~ sh" in cr
    assert not [(s, e) for s, e in a.sentences if fence.fullmatch(cr[s:e].strip())]


# -- sentence ----------------------------------------------------------------------------

_SENTENCE_OPTIONS = [
    {},
    {"overlap_sentences": 1},
    {"window_sentences": 1},
    {"window_sentences": 2, "sentences_per_chunk": 2},
    {"window_sentences": 1, "sentences_per_chunk": 3, "step": 2},
    {"sentences_per_chunk": 3, "step": 2},
]


@pytest.mark.parametrize("name", _PROSE)
@pytest.mark.parametrize("options", _SENTENCE_OPTIONS)
@pytest.mark.parametrize("size", [{"chunk_size": 80}, {"chunk_size": 300}, {"chunk_size": 12, "unit": "words"}])
def test_sentences_and_windows_of_a_classic_mac_text_are_those_of_its_twin(name, options, size):
    lf = _read(name)
    cr = lf.replace("\n", "\r")
    got = chunkwise.chunk(cr, strategy="sentence", **options, **size)
    want = chunkwise.chunk(lf, strategy="sentence", **options, **size)
    _same(cr, got, want)


def test_a_sentence_window_ends_at_a_classic_mac_line_break():
    # a heading and list items end their sentence at the line break, as with line feeds
    lf = "Setup\n\n- Install the tool\n- Run it once\n\nIt then works. Done"
    cr = lf.replace("\n", "\r")
    got = chunkwise.chunk(cr, strategy="sentence", chunk_size=100, window_sentences=1)
    assert [c.text for c in got] == ["Setup", "- Install the tool", "- Run it once", "It then works.", "Done"]
    assert got[1].metadata["window"] == "Setup\r\r- Install the tool\r- Run it once"


# -- "\r\n" and mixed line ends ----------------------------------------------------------

_STRATEGIES = [
    ("conversation", {}),
    ("topic", {"restarts": 1}),
    ("semantic", {}),
    ("semantic_cluster", {}),
    ("sentence", {"window_sentences": 1}),
    ("sentence", {"sentences_per_chunk": 2, "step": 1}),
]


def _kw(strategy: str, extra: dict, chars: bool = True) -> dict:
    if strategy == "topic":
        pytest.importorskip("sklearn")
    if strategy.startswith("semantic"):
        pytest.importorskip("numpy")
        return {**extra, "model": CharEmbedder(chars)}
    return extra


@pytest.mark.parametrize("strategy, extra", _STRATEGIES)
@pytest.mark.parametrize("name", ["conversation/standup.txt", "conversation/interview.vtt", "structure/features.md"])
def test_a_crlf_text_is_cut_where_its_line_feed_text_is(strategy, extra, name):
    # in words "\r\n" and "\n" weigh the same: the cuts map one to one (a "\r\n" text's
    # sentences are embedded as they are: the test embedder reads their words only)
    lf = _read(name)
    crlf = lf.replace("\n", "\r\n")
    assert line_feed_twin(crlf) is None
    at = [0]
    for ch in lf:
        at.append(at[-1] + (2 if ch == "\n" else 1))
    kw = {**_kw(strategy, extra, chars=False), "chunk_size": 25, "unit": "words"}
    got = chunkwise.chunk(crlf, strategy=strategy, **kw)
    want = chunkwise.chunk(lf, strategy=strategy, **kw)
    assert [(c.start_index, c.end_index) for c in got] == [(at[c.start_index], at[c.end_index]) for c in want]
    assert [c.metadata["boundary"] for c in got] == [c.metadata["boundary"] for c in want]
    check_invariants(crlf, got, 25, WordSizer(), trimmed=True, overlap_allowed=True)


@pytest.mark.parametrize("strategy, extra", _STRATEGIES)
def test_a_text_of_mixed_line_ends_is_cut_as_its_twin(strategy, extra):
    # "\r\n" lines and lone "\r" lines in one text: the twin keeps each "\r\n"
    lines = _read("conversation/standup.txt").split("\n") + _read("structure/service-agreement.txt").split("\n")
    mixed = "".join(line + ("\r\n" if i % 3 else "\r") for i, line in enumerate(lines))
    twin = line_feed_twin(mixed)
    assert twin is not None and "\r\n" in twin and twin.count("\r") == mixed.count("\r\n")
    kw = {**_kw(strategy, extra), "chunk_size": 150}
    got = chunkwise.chunk(mixed, strategy=strategy, **kw)
    want = chunkwise.chunk(twin, strategy=strategy, **{**kw, **({"model": CharEmbedder()} if "model" in kw else {})})
    _same(mixed, got, want)
    check_invariants(mixed, got, 150, CharSizer(), trimmed=True, overlap_allowed=True)


# -- generated transcripts ---------------------------------------------------------------

NL = "\x00"  # a line break of a generated text: "\r" in the classic text, "\n" in the twin
_SPEAKERS = ["Ana:", "Ben:", "Dr. Lee:", "[00:01:02] Ana:", "(10:02) Ben:", "BEN:", ""]
_WORDS = ["Hello", "there.", "Why", "not?", "Yes!", "the", "tide", "turns", "-", "1.", "é", "x" * 20, ","]


@settings(max_examples=40, deadline=None)
@given(
    lines=st.lists(
        st.tuples(
            st.sampled_from(_SPEAKERS),
            st.lists(st.sampled_from(_WORDS), max_size=8),
            st.sampled_from([NL, NL, NL + NL, NL + "  " + NL, " "]),
        ),
        min_size=1,
        max_size=20,
    ),
    size=st.integers(8, 120),
    windows=st.sampled_from([1, 2]),
)
def test_a_generated_classic_mac_transcript_is_cut_as_its_twin(lines, size, windows):
    text = "".join((who + " " if who else "") + " ".join(words) + end for who, words, end in lines)
    cr, lf = text.replace(NL, "\r"), text.replace(NL, "\n")
    if not cr.strip():
        return
    for strategy, kw in (
        ("conversation", {}),
        ("conversation", {"include_context_in_size": True, "max_turns": 2}),
        ("sentence", {"window_sentences": windows}),
    ):
        got = chunkwise.chunk(cr, strategy=strategy, chunk_size=size, **kw)
        want = chunkwise.chunk(lf, strategy=strategy, chunk_size=size, **kw)
        _same(cr, got, want)
        check_invariants(cr, got, size, CharSizer(), trimmed=True, overlap_allowed=False)
