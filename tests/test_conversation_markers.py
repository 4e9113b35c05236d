"""Markers of turns (a cue's number, timing line and settings, a speaker label, a
message's role, a chat export's time stamp): read behind invisible direction marks, never
a chunk of their own when they fit with the text they introduce, never repeated in the
context of a chunk that begins with them; a malformed cue's warning names the caller."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.conversation import ConversationChunker
from chunkwise.loaders import parse
from chunkwise.parsers.conversation import find_turns, looks_like_conversation
from chunkwise.sizers import CharSizer

CORPUS = Path(__file__).parent / "corpus" / "conversation"
LRM = "\u200e"

# -- WhatsApp for iOS: lines behind U+200E ----------------------------------------------

IOS = (
    f"{LRM}[12/03/2024, 10:14:01] Messages and calls are end-to-end encrypted. No one outside of this chat, "
    "not even WhatsApp, can read or listen to them.\n"
    "[12/03/2024, 10:14:30] Ana: Hi Ben, are we still meeting tomorrow?\n"
    "[12/03/2024, 10:15:03] Ben: Yes, at nine.\n"
    f"[12/03/2024, 10:15:40] Ana: {LRM}image omitted\n"
    f"{LRM}[12/03/2024, 10:16:10] Ana: {LRM}image omitted\n"
    f"{LRM}[12/03/2024, 10:17:00] Ben changed the group description\n"
    "[12/03/2024, 10:18:00] Ben: Great, see you then.\n"
)
ANDROID = (
    "12/03/2024, 10:14 - Messages and calls are end-to-end encrypted. No one outside of this chat, not even "
    "WhatsApp, can read or listen to them. Tap to learn more.\n"
    "12/03/2024, 10:14 - Ana: Hi Ben, are we still meeting tomorrow?\n"
    "12/03/2024, 10:15 - Ben: Yes, at nine.\n"
    "12/03/2024, 10:15 - Ana: <Media omitted>\n"
    "12/03/2024, 10:16 - Ana joined using this group's invite link\n"
    "12/03/2024, 10:18 - Ben: Great, see you then.\n"
)


def test_ios_lines_behind_a_left_to_right_mark_keep_their_time():
    turns = find_turns(IOS).turns
    assert [t.speaker for t in turns] == [None, "Ana", "Ben", "Ana", "Ana", None, "Ben"]
    assert [t.start_time[-8:] for t in turns] == [
        "10:14:01", "10:14:30", "10:15:03", "10:15:40", "10:16:10", "10:17:00", "10:18:00"
    ]  # fmt: skip
    # a turn starts at its line's mark (no mark is left at the end of the turn before)
    assert [t.start for t in turns] == [0, *(m.start() + 1 for m in re.finditer("\n", IOS[:-1]))]
    assert all(not IOS[t.start : t.end].endswith(LRM) for t in turns)
    assert looks_like_conversation(IOS)
    for size in (30, 60, 200):
        chunks = chunkwise.chunk(IOS, strategy="conversation", chunk_size=size)
        check_invariants(IOS, chunks, size, CharSizer())
        for c in chunks:
            t = turns[c.metadata["turn_start"]]
            assert c.metadata["start_time"] == t.start_time, (size, c.text)
            if t.speaker is None:  # a system line: no speaker, its own time
                assert c.metadata["speaker"] is None and "Ben" not in c.context, (size, c.text)
            if "image omitted" in c.text:
                assert "Ana" in c.metadata["speakers"], (size, c.text)
    first = chunkwise.chunk(IOS, strategy="conversation", chunk_size=200)[0]
    assert first.metadata["start_time"] == "12/03/2024, 10:14:01"


def test_android_lines_still_read_the_same():
    turns = find_turns(ANDROID).turns
    assert [t.speaker for t in turns] == [None, "Ana", "Ben", "Ana", None, "Ben"]
    assert [t.start_time for t in turns] == [
        "12/03/2024, 10:14", "12/03/2024, 10:14", "12/03/2024, 10:15", "12/03/2024, 10:15",
        "12/03/2024, 10:16", "12/03/2024, 10:18",
    ]  # fmt: skip
    assert looks_like_conversation(ANDROID)



def test_a_phone_number_names_its_speaker():
    """WhatsApp writes a participant who is not a contact by phone number: on iOS between
    U+202A and U+202C (often after U+200E), with no-break spaces; on Android as it is.
    The number is the speaker; a number without a time stamp or a ``+`` is not one."""
    num = "\u202a+44\u00a07700\u00a0900123\u202c"
    ios = (
        f"[12/03/2024, 09:15:02] {LRM}{num}: hello, who is bringing the keys?\n"
        "[12/03/2024, 09:15:40] Ana: I am.\n"
        f"[12/03/2024, 09:16:10] {num}: {LRM}image omitted\n"
        "[12/03/2024, 09:17:00] Ana: See you at nine.\n"
    )
    phone = "+44\u00a07700\u00a0900123"
    turns = find_turns(ios).turns
    assert [t.speaker for t in turns] == [phone, "Ana", phone, "Ana"]
    assert [t.start_time[-8:] for t in turns] == ["09:15:02", "09:15:40", "09:16:10", "09:17:00"]
    assert ios[turns[0].body :].startswith("hello") and ios[turns[2].body :].startswith(LRM + "image")
    assert looks_like_conversation(ios)
    chunks = chunkwise.chunk(ios, strategy="auto", chunk_size=40)
    check_invariants(ios, chunks, 40, CharSizer())
    assert chunks[0].metadata["speakers"] == [phone]
    assert {c.metadata["speaker"] for c in chunks} == {phone, "Ana"}
    assert any(c.context.endswith(phone + ":") for c in chunks)  # the later part of the split first turn

    android = (
        "12/03/2024, 10:14 - +44 7700 900123: Are we still on?\n"
        "12/03/2024, 10:15 - Ben: Yes.\n"
        "12/03/2024, 10:16 - 07700 900123: Good.\n"
    )
    assert [t.speaker for t in find_turns(android).turns] == ["+44 7700 900123", "Ben", "07700 900123"]
    # without a time stamp only a number with its "+" names a speaker; short numbers never
    plain = "+44 7700 900123: hello\n07700 900123: not a speaker\n[00:01] 2024: a year\n"
    assert [(t.speaker, t.end) for t in find_turns(plain).turns] == [("+44 7700 900123", len(plain) - 1)]

def test_the_cli_reads_an_ios_export_with_times_on_every_line(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    path = tmp_path / "chat.txt"
    path.write_text(IOS, encoding="utf-8")
    out = CliRunner().invoke(cli, ["chunk", str(path), "-n", "24"])
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert {r["metadata"]["strategy"] for r in rows} == {"conversation"}
    assert rows[0]["text"].startswith(LRM + "[12/03/2024, 10:14:01]")
    assert all(r["metadata"]["start_time"].startswith("12/03/2024") for r in rows)


# -- markers are never a chunk of their own when they fit with a word --------------------


def _alone(doc, chunks, size, sizer, budget=None):
    """The chunks that hold a turn's marker and no character of its text although the
    marker and the first word after it fit ``budget`` (default ``size``) together."""
    tr = ConversationChunker(chunk_size=size).transcript(doc)
    text = doc.text
    out = []
    for c in chunks:
        k = tr.turn_at(c.start_index)
        if k < 0:
            continue
        t = tr.turns[k]
        if c.start_index < t.end and c.end_index <= t.body < t.end:
            w = re.compile(r"\S+").search(text, t.body, t.end)
            if w is not None and sizer.count(text[t.start : w.end()]) <= (budget or size):
                out.append(c.text)
    return out


SRT = (
    "12\n00:00:47,789 --> 00:00:51,031\nThe tide comes in twice a day because the moon pulls the water.\n\n"
    "13\n00:00:51,231 --> 00:00:53,000\nSailors read these rhythms long before anyone could explain them.\n"
)
VTT = (
    "WEBVTT\n\n00:00:01.000 --> 00:00:04.000 align:start position:10%\n"
    "Harbour masters still print tide tables each year, for every port.\n\n"
    "00:00:04.000 --> 00:00:06.000 align:start\nFine.\n"
)


@pytest.mark.parametrize("fmt, text", [("srt", SRT), ("vtt", VTT)])
def test_a_cue_header_leads_its_text_whenever_both_fit(fmt, text):
    doc = parse(text, format=fmt)
    sizer = CharSizer()
    for size in range(20, 90, 3):
        chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size)
        check_invariants(text, chunks, size, sizer)
        assert _alone(doc, chunks, size, sizer) == [], size
    # the cases the trials found: a cue number and timing line, cue settings, alone
    texts = [c.text for c in chunkwise.chunk(parse(SRT, format="srt"), strategy="conversation", chunk_size=60)]
    assert "12\n00:00:47,789 --> 00:00:51,031" not in texts
    assert texts[0].startswith("12\n00:00:47,789 --> 00:00:51,031\nThe tide")
    texts = [c.text for c in chunkwise.chunk(parse(VTT, format="vtt"), strategy="conversation", chunk_size=70)]
    assert not any(t.endswith("position:10%") for t in texts), texts
    assert any(t.endswith("align:start position:10%\nHarbour") or "position:10%\nHarbour masters" in t for t in texts)


def test_a_speaker_label_leads_its_text_when_the_context_counts_in_the_size():
    """With ``include_context_in_size`` the later chunks of a split turn keep room for
    the context; the turn's first chunk does not, so its label fits with the first word
    ("assistant:" alone at 24 characters before)."""
    text = "user: Why?\nassistant: The tide comes in twice a day because the moon pulls the water.\n"
    meeting = (
        "[00:00:00] Dr. Lee: The tide comes in twice a day because the moon pulls the water.\n[00:00:09] Ana: Ok.\n"
    )
    sizer = CharSizer()
    for t in (text, meeting):
        doc = chunkwise.Document(t)
        for size in range(16, 60):
            chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size, include_context_in_size=True)
            check_invariants(t, chunks, size, sizer)
            assert _alone(doc, chunks, size, sizer) == [], (size, [c.text for c in chunks])
            for c in chunks:
                assert c.size + (len(c.context) + 1 if c.context else 0) <= size
    chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=24, include_context_in_size=True)
    assert "assistant:" not in [c.text for c in chunks]


@pytest.mark.parametrize("name", ["lecture.srt", "panel.vtt", "interview.vtt", "support.json", "standup.txt"])
def test_no_marker_stands_alone_in_the_test_corpus(name, cl100k):
    """The measure of the trials: marker-only chunks whose marker fits with a word, over
    sizes in characters and tokens, with and without an overlap (the budget of a turn's
    first chunk is then the size less the overlap)."""
    doc = chunkwise.load(CORPUS / name)
    chars = CharSizer()
    sizes = [*((n, "chars", chars) for n in (40, 60, 80, 120)), *((n, cl100k, cl100k) for n in (16, 24, 32))]
    for size, unit, sizer in sizes:
        for overlap in (0, size // 4):
            chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size, chunk_overlap=overlap, unit=unit)
            check_invariants(doc.text, chunks, size, sizer)
            assert _alone(doc, chunks, size, sizer, size - overlap) == [], (size, overlap)


_WORDS = "the tide comes in twice a day because moon pulls water toward it and earth turns under".split()


@st.composite
def _cue_files(draw):
    """A subtitle file: SRT or WebVTT cues with numbers or not, settings, speakers
    (``Name:``, ``<v Name>``), one or two lines of text; its format."""
    fmt = draw(st.sampled_from(["srt", "vtt"]))
    sep = "," if fmt == "srt" else "."
    parts = ["WEBVTT\n"] if fmt == "vtt" else []
    for i in range(draw(st.integers(1, 5))):
        number = f"{i + 1}\n" if fmt == "srt" or draw(st.booleans()) else ""
        setting = draw(st.sampled_from(["", " align:start", " align:start position:10%"])) if fmt == "vtt" else ""
        who = draw(st.sampled_from(["", "Ana: ", "Dr. Lee: "] + (["<v Ben>"] if fmt == "vtt" else [])))
        lines = [
            " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12)))
            for _ in range(draw(st.integers(1, 2)))
        ]
        timing = f"00:00:{i:02d}{sep}000 --> 00:00:{i + 1:02d}{sep}000{setting}"
        parts.append(f"{number}{timing}\n{who}" + "\n".join(lines) + "\n")
    return "\n".join(parts), fmt


@settings(max_examples=120, deadline=None)
@given(doc=_cue_files(), size=st.integers(12, 120))
def test_cue_markers_lead_their_text_and_are_not_repeated_in_the_context(doc, size):
    text, fmt = doc
    d = parse(text, format=fmt)
    sizer = CharSizer()
    chunks = chunkwise.chunk(d, strategy="conversation", chunk_size=size)
    check_invariants(text, chunks, size, sizer, overlap_allowed=False)
    assert _alone(d, chunks, size, sizer) == []
    for c in chunks:
        _assert_not_repeated(c)


def _assert_not_repeated(c):
    """The context adds what the chunk does not begin with: not its speaker label, not
    the time its timing line or stamp gives."""
    if not c.context:
        return
    head = c.text.lstrip("- ")
    name = re.search(r"(?:^|\] )([^\]]+):$", c.context)
    if name:
        assert not head.startswith((f"{name.group(1)}:", f"<v {name.group(1)}>")), (c.context, c.text)
    time = re.match(r"\[([^\]]+)\]", c.context)
    if time:
        assert time.group(1) not in c.text.split("\n")[0], (c.context, c.text)


# -- the context does not repeat what the chunk begins with ------------------------------


def test_an_srt_chunk_that_begins_with_the_speaker_gets_no_speaker_in_its_context():
    srt = (
        "1\n00:00:01,000 --> 00:00:03,500\nAna: Good evening, everyone, and welcome to the show about rivers.\n\n"
        "2\n00:00:04,000 --> 00:00:07,000\nBen: Thanks.\n\n"
        "3\n00:00:07,000 --> 00:0\nAna: A cue without times, with more words than fit.\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc = parse(srt, format="srt")
    for size in range(20, 80):
        for c in chunkwise.chunk(doc, strategy="conversation", chunk_size=size):
            assert "Ana:\nAna:" not in c.text_for_embedding() and "Ben:\nBen:" not in c.text_for_embedding()
            _assert_not_repeated(c)
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=40)
    first = next(c for c in chunks if c.text.startswith("Ana: Good"))
    assert first.context == "[00:00:01,000]"  # the time the chunk lacks; its speaker it holds
    later = next(c for c in chunks if c.start_index > first.start_index and c.metadata["speaker"] == "Ana")
    assert later.context == "[00:00:01,000] Ana:"
    # a chunk that holds the timing line but not the speaker gets only the speaker
    header = next(c for c in chunks if c.text.startswith("1\n00:00:01,000"))
    assert header.context in ("", "Ana:")
    vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000 align:start position:10%\n<v Ana>Hello there, how are you all?\n"
    for size in range(20, 70):
        for c in chunkwise.chunk(parse(vtt, format="vtt"), strategy="conversation", chunk_size=size):
            _assert_not_repeated(c)


# -- a malformed cue's warning points at the caller ------------------------------------------


def test_a_malformed_cue_warns_at_the_line_that_loaded_the_file(tmp_path):
    bad = "1\n00:00:01,000 --> 00:00:03\nHi.\n\n2\n00:00:04,000 --> 00:00:07,000\nBye.\n"
    path = tmp_path / "bad.srt"
    path.write_text(bad, encoding="utf-8")
    from chunkwise.loaders.subtitles import SubtitleWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunkwise.load(path)
        chunkwise.load(str(path), format="srt")
        chunkwise.load(bad.encode(), format="srt")
        chunkwise.parse(bad, format="srt")
    found = [w for w in caught if issubclass(w.category, SubtitleWarning)]
    assert len(found) == 4
    assert all(Path(w.filename).resolve() == Path(__file__).resolve() for w in found), [w.filename for w in found]
