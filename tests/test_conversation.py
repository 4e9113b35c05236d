"""The conversation strategy: turn formats, turn integrity, speaker context, question
pairs, max_turns, the chat and subtitle loaders and auto's choice."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise import ConfigError, Document
from chunkwise.chunkers.conversation import ConversationChunker
from chunkwise.errors import OversizeError, ParseError
from chunkwise.loaders import parse
from chunkwise.parsers.conversation import find_turns, looks_like_conversation
from chunkwise.registry import auto_strategy
from chunkwise.sizers import CharSizer, WordSizer

CORPUS = Path(__file__).parent / "corpus" / "conversation"


def _chunks(text, **params):
    params.setdefault("unit", "chars")
    return chunkwise.chunk(text, strategy="conversation", **params)


def _turn_of(chunks, needle):
    return [c for c in chunks if needle in c.text]


# -- turn formats ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, speakers, times",
    [
        ("Ana: Hi.\nBen: Hello.\n", ["Ana", "Ben"], [None, None]),
        ("[00:01:02] Ana: Hi.\n[00:01:09] Ben: Hello.\n", ["Ana", "Ben"], ["00:01:02", "00:01:09"]),
        (
            "2024-01-02 10:00 - Ana: Hi.\n2024-01-02 10:01 - Ben: Hello.\n",
            ["Ana", "Ben"],
            ["2024-01-02 10:00", "2024-01-02 10:01"],
        ),
        (
            "1/2/24, 10:00 - Ana: Hi.\n[1/2/24, 10:01:30] Ben: Hello.\n",
            ["Ana", "Ben"],
            ["1/2/24, 10:00", "1/2/24, 10:01:30"],
        ),
        ("Q: Why?\nA: Because.\n", ["Q", "A"], [None, None]),
        ("User: Hi.\nAssistant: Hello.\n", ["User", "Assistant"], [None, None]),
        ("**Dr. Lee:** Hi.\n**Speaker 2:** Hello.\n", ["Dr. Lee", "Speaker 2"], [None, None]),
        ("<ana> hi there\n<ben> hello\n", ["ana", "ben"], [None, None]),
        (
            '[{"role": "user", "content": "Hi."}, {"role": "assistant", "content": "Hello."}]',
            ["user", "assistant"],
            [None, None],
        ),
        (
            "[{'content': 'Hi.', 'role': 'user'}, {'content': 'Hello.', 'role': 'assistant'}]",
            ["user", "assistant"],
            [None, None],
        ),
        ('[{"from": "human", "value": "Hi."}, {"from": "gpt", "value": "Hello."}]', ["human", "gpt"], [None, None]),
        (
            "1\n00:00:01,000 --> 00:00:02,000\nAna: Hi.\n\n2\n00:00:02,500 --> 00:00:03,000\nBen: Hello.\n",
            ["Ana", "Ben"],
            ["00:00:01,000", "00:00:02,500"],
        ),
        (
            "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ana>Hi.\n\n00:02.000 --> 00:03.000\n<v.loud Ben>Hello.\n",
            ["Ana", "Ben"],
            ["00:01.000", "00:02.000"],
        ),
    ],
)
def test_turn_formats_are_recognised_without_configuration(text, speakers, times):
    t = find_turns(text)
    assert [x.speaker for x in t.turns] == speakers
    assert [x.start_time for x in t.turns] == times
    for x in t.turns:  # a turn is a span of the text, trimmed
        assert text[x.start : x.end].strip() == text[x.start : x.end]
    cs = _chunks(text, chunk_size=500)
    assert len(cs) == 1 and cs[0].metadata["speakers"] == speakers
    assert (cs[0].metadata["turn_start"], cs[0].metadata["turn_end"]) == (0, 1)
    if times[0] is not None:
        assert cs[0].metadata["start_time"] == times[0]
    else:
        assert "start_time" not in cs[0].metadata


def test_subtitle_cues_carry_both_times_and_prose_lines_are_not_turns():
    t = find_turns("1\n00:00:01,000 --> 00:00:02,000\nHi.\n")
    assert (t.turns[0].start_time, t.turns[0].end_time) == ("00:00:01,000", "00:00:02,000")
    prose = "It goes on: for a while, with colons: many.\nAnd then: more.\n"
    assert find_turns(prose).kind == "none"
    names = [t.speaker for t in find_turns("Dr. Lee: hi\nSpeaker 2: yo\nana: ok\n").turns]
    assert names == ["Dr. Lee", "Speaker 2", "ana"]


def test_a_transcript_timed_in_places_gives_no_time_to_untimed_turns():
    text = "[00:01:02] Ana: Hi there.\nBen: Hello.\n[00:01:09] Ana: How are you?\nBen: Fine, thanks.\n"
    for size in (14, 30, 45, 200):
        cs = _chunks(text, chunk_size=size)
        check_invariants(text, cs, size, CharSizer(), overlap_allowed=False)
        for c in cs:
            first, last = c.metadata["turn_start"], c.metadata["turn_end"]
            if first in (1, 3):  # the chunk starts in a turn of no time: no start time
                assert "start_time" not in c.metadata, (size, c.text, c.metadata)
            else:
                assert c.metadata["start_time"] == ("00:01:02" if first == 0 else "00:01:09")
            if last in (1, 3) and "start_time" not in c.metadata:
                assert "end_time" not in c.metadata, (size, c.text, c.metadata)
            else:
                # end_time whenever start_time: the latest time of the chunk's turns
                latest = max(k for k in (0, 2) if first <= k <= last)
                assert c.metadata["end_time"] == ("00:01:02" if latest == 0 else "00:01:09")
    whole = _chunks(text, chunk_size=200)
    assert len(whole) == 1 and whole[0].metadata["start_time"] == "00:01:02"
    assert whole[0].metadata["end_time"] == "00:01:09"


def test_turn_pattern_reads_another_format():
    text = ">> ANA (09:00) hello there\n>> BEN (09:01) why?\n>> ANA (09:02) because\n"
    pat = r"^>> (?P<speaker>[A-Z]+) \((?P<time>[\d:]+)\)"
    cs = _chunks(text, chunk_size=200, turn_pattern=pat)
    assert cs[0].metadata["speakers"] == ["ANA", "BEN"]
    assert (cs[0].metadata["start_time"], cs[0].metadata["end_time"]) == ("09:00", "09:02")
    small = _chunks(text, chunk_size=12, turn_pattern=re.compile(pat))
    later = [c for c in small if "there" in c.text and not c.text.startswith(">>")]
    assert later and all(c.context == "[09:00] ANA:" for c in later)


# -- turns whole, split turns attributed ---------------------------------------------------


CASE_042 = (
    "Ana: The backup job failed twice last week.\nBen: Was it the disk or the network?\n"
    "Ana: The network. The link to the second site dropped during the copy, and the retry started from zero "
    "instead of resuming, so the window ran out before it could finish.\nBen: Then let us add resume support first.\n"
)


def test_short_turns_whole_and_a_long_turn_split_with_its_speaker():
    cs = _chunks(CASE_042, chunk_size=80)
    for turn in ("Ana: The backup job failed twice last week.", "Ben: Was it the disk or the network?"):
        assert any(turn in c.text for c in cs)
    parts = [c for c in cs if "retry" in c.text or "window ran out" in c.text]
    assert parts and all(c.context == "Ana:" and c.metadata["speaker"] == "Ana" for c in parts)
    assert all(c.metadata["turn_start"] == c.metadata["turn_end"] == 2 for c in parts)
    # the chunk that holds the turn's "Ana:" needs no context
    head = next(c for c in cs if "Ana: The network." in c.text)
    assert head.context == ""


def test_a_speaker_marker_never_ends_a_chunk():
    """The marker goes with the first word while both fit; only when they do not ("Ben:
    short." in 10) is it a chunk of its own, the word in the next with its speaker as
    context (better than a chunk of the lone ".")."""
    text = "Ana: " + "word " * 30 + "\nBen: short.\n"
    for size in (10, 12, 20, 33):  # from the marker and the first word up
        chunks = _chunks(text, chunk_size=size)
        assert "Ana:" not in [c.text for c in chunks]
        assert ("Ben:" in [c.text for c in chunks]) == (size < len("Ben: short."))
        assert all(any(ch.isalnum() for ch in c.text) for c in chunks), size


def test_question_is_kept_with_its_answer_when_both_fit():
    text = "Ana: We shipped the patch today.\nBen: Did it fix the crash?\nAna: Yes, it did.\n"
    paired = _chunks(text, chunk_size=60)
    assert any("Did it fix" in c.text and "Yes, it did" in c.text for c in paired)
    apart = _chunks(text, chunk_size=60, pair_questions=False)
    assert not any("Did it fix" in c.text and "Yes, it did" in c.text for c in apart)
    assert any("shipped" in c.text and "Did it fix" in c.text for c in apart)


def test_question_leads_the_first_part_of_an_answer_too_big_for_a_chunk():
    answer = "Ana: " + " ".join(f"Step {k} restarts the link." for k in range(12))
    text = "Ben: Was it the disk or the network?\n" + answer + "\nBen: Thanks.\n"
    for size in (80, 120, 200):
        cs = _chunks(text, chunk_size=size)
        check_invariants(text, cs, size, CharSizer(), overlap_allowed=False)
        first = _turn_of(cs, "Was it the disk")
        assert len(first) == 1 and first[0].text.startswith("Ben: Was it")
        assert "Ana: Step 0" in first[0].text and first[0].metadata["speakers"] == ["Ben", "Ana"]
        assert first[0].context == "" and first[0].metadata["turn_end"] == 1
        rest = [c for c in cs if c.start_index > first[0].start_index and c.metadata["speaker"] == "Ana"]
        assert rest and all(c.context == "Ana:" for c in rest)
    # a question over half the budget stays a chunk of its own; pair_questions=False too
    long_q = "Ben: " + "Was it the disk, the cable or the network, " * 2 + "or what?\n"
    cs = _chunks(long_q + answer + "\n", chunk_size=120)
    assert cs[0].text == long_q.strip()
    cs = _chunks(text, chunk_size=120, pair_questions=False)
    assert cs[0].text == "Ben: Was it the disk or the network?"


def test_chat_prompt_is_paired_with_its_reply_like_a_question():
    msgs = [
        {"role": "user", "content": "Summarise the meeting notes."},
        {"role": "assistant", "content": "Three decisions. " + "The budget was approved for the year. " * 6},
        {"role": "user", "content": "Thanks."},
        {"role": "assistant", "content": "You are welcome."},
    ]
    text = json.dumps(msgs)
    cs = _chunks(text, chunk_size=140)
    check_invariants(text, cs, 140, CharSizer(), overlap_allowed=False)
    first = _turn_of(cs, "Summarise")[0]
    assert "Three decisions" in first.text and first.metadata["speakers"] == ["user", "assistant"]
    assert any("Thanks." in c.text and "You are welcome." in c.text for c in cs)  # a small pair, whole
    # in a line transcript a statement is not a prompt: only a question pairs
    lines = "user: Summarise the notes.\nassistant: " + "The budget was approved. " * 6 + "\n"
    cs = _chunks(lines, chunk_size=80)
    assert cs[0].text == "user: Summarise the notes."


def test_speaker_context_false_leaves_the_context_empty():
    text = "Ana: " + " ".join(f"Step {k} restarts the link." for k in range(12)) + "\nBen: Thanks.\n"
    on = _chunks(text, chunk_size=80)
    off = _chunks(text, chunk_size=80, speaker_context=False)
    assert [(c.start_index, c.end_index) for c in on] == [(c.start_index, c.end_index) for c in off]
    assert any(c.context == "Ana:" for c in on)
    assert all(c.context == "" and c.text_for_embedding() == c.text for c in off)
    assert [c.metadata["speaker"] for c in on] == [c.metadata["speaker"] for c in off]
    sized = _chunks(text, chunk_size=80, speaker_context=False, include_context_in_size=True)
    assert [(c.start_index, c.end_index) for c in sized] == [(c.start_index, c.end_index) for c in off]


def test_max_turns_bounds_the_turns_of_a_chunk():
    text = "".join(f"{'Ana' if k % 2 else 'Ben'}: line {k}.\n" for k in range(11))
    for m in (1, 2, 3, 5):
        cs = _chunks(text, chunk_size=1000, max_turns=m)
        assert all(c.metadata["turn_end"] - c.metadata["turn_start"] + 1 <= m for c in cs)
        assert len(cs) == -(-11 // m)


@pytest.mark.parametrize("unit", ["chars", "words"])
def test_context_counted_in_the_size(unit):
    text = (CORPUS / "standup.txt").read_text(encoding="utf-8") * 2
    sizer = CharSizer() if unit == "chars" else WordSizer()
    for size in (30, 45, 80, 200) if unit == "chars" else (8, 12, 30):
        cs = _chunks(text, chunk_size=size, unit=sizer, include_context_in_size=True)
        check_invariants(text, cs, size, sizer, overlap_allowed=False)
        for c in cs:
            full = f"{c.context}\n{c.text}" if c.context else c.text
            assert sizer.count(full) <= size, (size, c.context, c.text)
        assert any(c.context for c in cs)



@pytest.mark.parametrize(
    ("unit", "size", "other"),
    [
        ("chars", 80, "[00:00:09] Dr. Elizabeth Montgomery-Smith: Thank you, that is clear to me.\n"),
        ("chars", 100, "[00:00:09] Dr. Elizabeth Montgomery-Smith: Thank you, that is clear to me.\n"),
        # tokens: the cheap bound (UTF-8 bytes) is over half the budget, the size is not
        ("tokens", 60, "[00:00:09] Доктор Елизавета Монтгомери: Спасибо, всё понятно.\n"),
    ],
)
def test_the_context_reserve_comes_from_the_turns_that_are_split(unit, size, other):
    """With ``include_context_in_size`` the room kept for the context is that of the
    turns that are split: a turn that fits, however long its speaker's name, leaves the
    chunks of another speaker's split turn as they are without it."""
    long_turn = "Ana: " + " ".join(f"Step {k} restarts the link." for k in range(12)) + "\n"

    def spans(text):
        chunks = _chunks(text, chunk_size=size, unit=unit, include_context_in_size=True)
        assert any(c.context == "Ana:" for c in chunks)
        return [(c.start_index, c.end_index, c.context) for c in chunks if c.end_index < len(long_turn)]

    assert spans(long_turn + other) == spans(long_turn)
    fits = _chunks(long_turn + other, chunk_size=size, unit=unit, include_context_in_size=True)
    assert fits[-1].text == other.strip() and fits[-1].context == ""

def test_oversize_policies_for_a_long_turn():
    text = "Ana: " + "a b c d e f g h. " * 10 + "\nBen: ok.\n"
    kept = _chunks(text, chunk_size=40, oversize="keep")
    assert kept[0].metadata["oversize"] and kept[0].text.startswith("Ana:") and kept[0].text.endswith("h.")
    with pytest.raises(OversizeError, match="turn"):
        _chunks(text, chunk_size=40, oversize="raise")


def test_json_messages_in_text_are_conversations_and_roles_are_speakers():
    conv = lambda k: repr([  # noqa: E731 - a Python repr of chat messages, as the chat-log corpus has
        {"content": f"Question {k}: what does the module do? " * 2, "role": "user"},
        {"content": f"It parses things.\n\nFirst it reads {k}. Then it writes. " * 4, "role": "assistant"},
    ])
    text = conv(1) + "\n" + conv(2) + "\n"
    t = find_turns(text)
    assert t.kind == "json" and [x.speaker for x in t.turns] == ["user", "assistant"] * 2
    assert t.conversations == (2,)
    cs = _chunks(text, chunk_size=120)
    check_invariants(text, cs, 120, CharSizer())
    second = text.index("[", 1)
    assert not any(c.start_index < second < c.end_index for c in cs)  # no chunk spans two conversations
    inside = [c for c in cs if c.metadata["speaker"] == "assistant" and "'role'" not in c.text]
    assert inside and all(c.context == "assistant:" for c in inside)
    assert any(c.metadata["boundary"] == "paragraph" for c in cs)  # escaped line breaks of the content


@pytest.mark.parametrize(
    "text",
    [
        "{'role': [" * 2000,  # a thousand unclosed values: one bracket pass, not one per value
        '{"role": "x", "content": "' * 500,
        "[{'content': 'cut off by the end of the file, with an escaped \\' quote",
        '[{"role": "user", "content": [{"type": "text", "text": "parts"}]}, {"role": "bot", "content": "ok"}]',
        "WEBVTT\n\n00:01.000 --> 00:02.000\n\n\n-->\n1\n",
    ],
)
def test_hostile_json_and_cues_keep_the_contract(text):
    cs = _chunks(text, chunk_size=50)
    check_invariants(text, cs, 50, CharSizer())
    if "parts" in text:
        assert [t.speaker for t in find_turns(text).turns] == ["user", "bot"]


# -- properties over generated transcripts ---------------------------------------------

WORDS = [
    "the", "backup", "failed.", "Why?", "network,", "ok", "résumé", "日本語です。", "👍🏽", "x" * 25, "e\u0301", "2.5", "Dr."
]
NAMES = ["Ana", "Ben", "Dr. Chen", "Q", "A", "User", "SPEAKER_01"]


@st.composite
def transcripts(draw):
    turns = draw(st.lists(st.tuples(
        st.sampled_from(NAMES),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=30),
        st.booleans(),  # a time stamp
        st.sampled_from([" ", " ", "\n"]),  # how words are joined inside the turn
    ), min_size=1, max_size=10))
    nl = draw(st.sampled_from(["\n", "\r\n", "\n\n"]))
    out, spans = [], []
    pos = 0
    for k, (name, words, stamp, join) in enumerate(turns):
        head = (f"[00:{k:02d}:00] " if stamp else "") + f"{name}:"
        line = f"{head} {join.join(words)}"
        spans.append((pos, pos + len(line), name, pos + len(head)))
        out.append(line)
        pos += len(line) + len(nl)
    return nl.join(out) + nl, spans


@settings(max_examples=150, deadline=None)
@given(doc=transcripts(), size=st.integers(8, 120), unit=st.sampled_from(["chars", "words"]), pair=st.booleans())
def test_turns_never_split_while_they_fit_and_split_turns_name_their_speaker(doc, size, unit, pair):
    text, spans = doc
    sizer = CharSizer() if unit == "chars" else WordSizer()
    turns = find_turns(text).turns
    assert [(t.start, t.end, t.speaker) for t in turns] == [(s, e, n) for s, e, n, _ in spans]
    cs = _chunks(text, chunk_size=size, unit=sizer, pair_questions=pair)
    check_invariants(text, cs, size, sizer, overlap_allowed=False)
    for s, e, name, head_end in spans:
        if sizer.count(text[s:e]) <= size:  # a turn that fits is in one chunk
            assert any(c.start_index <= s and e <= c.end_index for c in cs), (s, e)
        for c in cs:
            if s < c.start_index < e:  # a chunk that starts inside the turn is attributed
                assert c.metadata["speaker"] == name
                if c.start_index >= head_end:
                    assert c.context.endswith(f"{name}:")
    for c in cs:
        held = [k for k, (s, e, _, _) in enumerate(spans) if s < c.end_index and c.start_index < e]
        assert (c.metadata["turn_start"], c.metadata["turn_end"]) == (held[0], held[-1])
        assert c.metadata["speakers"] == list(dict.fromkeys(spans[k][2] for k in held))


@settings(max_examples=60, deadline=None)
@given(doc=transcripts(), size=st.integers(20, 200), most=st.integers(1, 4))
def test_max_turns_holds_on_generated_transcripts(doc, size, most):
    text, spans = doc
    cs = _chunks(text, chunk_size=size, max_turns=most)
    check_invariants(text, cs, size, CharSizer(), overlap_allowed=False)
    assert all(c.metadata["turn_end"] - c.metadata["turn_start"] < most for c in cs)


def test_tokens_and_overlap_keep_the_contract(cl100k):
    cs = chunkwise.chunk(CASE_042, strategy="conversation", chunk_size=20, chunk_overlap=5, unit=cl100k)
    check_invariants(CASE_042, cs, 20, cl100k, overlap_allowed=True)
    assert all(c.context == "Ana:" for c in cs if "retry" in c.text and not c.text.startswith("Ana:"))


# -- loaders and auto -------------------------------------------------------------------


def test_chat_json_loads_one_turn_per_line_with_exact_offsets():
    doc = chunkwise.load(CORPUS / "support.json")
    src = json.loads((CORPUS / "support.json").read_text(encoding="utf-8"))["messages"]
    assert doc.metadata["format"] == "chat" and doc.metadata["json_path"] == "$.messages"
    assert doc.metadata["roles"] == ["system", "user", "assistant"] and doc.metadata["messages"] == len(src)
    assert doc.text == "".join(f"{m['role']}: {m['content']}\n" for m in src)
    assert auto_strategy(doc) == "conversation"
    cs = chunkwise.chunk(doc, strategy="auto", chunk_size=80)
    check_invariants(doc.text, cs, 80, CharSizer())
    for c in cs:  # turn k is message k of the source list
        first = src[c.metadata["turn_start"]]
        assert c.metadata["speaker"] == first["role"]
        assert c.text.startswith(f"{first['role']}:") or c.text in first["content"]
        if not c.text.startswith(f"{first['role']}:"):
            assert c.context == f"{first['role']}:"


def test_chat_shapes_and_ambiguous_content_lines():
    share = parse('{"conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello"}]}', "chat")
    assert share.text == "human: Hi\ngpt: Hello\n" and share.metadata["json_path"] == "$.conversations"
    parts = parse('[{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]',
                  "chat")
    assert parts.text == "user: a\nb\n"
    # a content line that reads like a turn: the turn offsets are recorded, turns stay exact
    doc = parse('[{"role": "user", "content": "Say it"}, '
                '{"role": "assistant", "content": "Fine.\\nuser: not a turn"}]', "chat")
    assert doc.metadata["turn_offsets"] == [0, 13]
    cs = chunkwise.chunk(doc, strategy="conversation", chunk_size=500)
    assert cs[0].metadata["turn_end"] == 1
    plain = parse('[{"role": "user", "content": "Hi"}]', format="chat")
    assert "turn_offsets" not in plain.metadata


def test_json_that_is_not_a_chat():
    with pytest.raises(ParseError, match="chat messages"):
        parse('{"a": 1}', format="chat")
    with pytest.raises(ParseError, match="not JSON"):
        parse("[{", format="chat")
    doc = parse('{"a": 1}', format="json")
    assert doc.metadata["format"] == "json" and doc.text == '{"a": 1}'
    assert auto_strategy(doc) == "recursive"


@pytest.mark.parametrize("name, fmt", [("lecture.srt", "srt"), ("interview.vtt", "vtt")])
def test_subtitles_load_as_they_are_and_auto_chunks_them_by_cue(name, fmt):
    path = CORPUS / name
    doc = chunkwise.load(path)
    assert doc.metadata["format"] == fmt
    assert doc.text == path.read_bytes().decode("utf-8")  # line ends kept: offsets index the file
    assert auto_strategy(doc) == "conversation"
    cs = chunkwise.chunk(doc, strategy="auto", chunk_size=70)
    check_invariants(doc.text, cs, 70, CharSizer())
    cues = find_turns(doc.text, format=fmt).turns
    assert cues
    for t in cues:  # a cue that fits lies in one chunk
        if t.end - t.start <= 70:
            assert any(c.start_index <= t.start and t.end <= c.end_index for c in cs)
    timed = [c for c in cs if c.metadata["turn_start"] is not None]
    assert timed and all("start_time" in c.metadata and "end_time" in c.metadata for c in timed)


def test_subtitles_are_recognised_by_their_content():
    from chunkwise.loaders import detect_loader

    assert detect_loader("captions", b"\xef\xbb\xbfWEBVTT\n\n00:01.000 --> 00:02.000\nHi\n").format == "vtt"
    assert detect_loader("captions", b"1\r\n00:00:01,000 --> 00:00:02,000\r\nHi\r\n").format == "srt"


def test_auto_picks_conversation_for_text_that_is_mostly_turns():
    text = (CORPUS / "standup.txt").read_text(encoding="utf-8")
    assert looks_like_conversation(text) and auto_strategy(text) == "conversation"
    assert auto_strategy(chunkwise.load(CORPUS / "standup.txt")) == "conversation"
    cs = chunkwise.chunk(text, strategy="auto", chunk_size=100)
    assert cs[-1].metadata["speakers"] == ["Ana"]
    for prose in (
        "Title: Report\nAuthor: Ana\nDate: May\nStatus: draft\n\nThe text begins here.\n",
        "Note: one.\nNote: two.\nA long paragraph of prose follows here without any speaker at all.\n" * 2,
        "Ana: hi\n" + "plain prose line\n" * 10,
    ):
        assert not looks_like_conversation(prose) and auto_strategy(prose) == "recursive"
    assert auto_strategy(Document(text, metadata={"format": "markdown"})) == "markdown"


# -- configuration ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, match",
    [
        ({"turn_pattern": "("}, "turn_pattern"),
        ({"turn_pattern": r"^(?P<speaker>\w*)"}, "empty string"),
        ({"turn_pattern": r"^[A-Z]+:"}, r"turn_pattern .* no named group for the speaker.*\(\?P<speaker>"),
        ({"turn_pattern": r"^(\w+):"}, "turn_pattern"),
        ({"turn_pattern": 3}, "turn_pattern"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"pair_questions": "yes"}, "pair_questions"),
        ({"oversize": "drop"}, "oversize"),
        ({"include_context_in_size": 1}, "include_context_in_size"),
        ({"speaker_context": "no"}, "speaker_context"),
    ],
)
def test_invalid_parameters_raise_config_error(params, match):
    with pytest.raises(ConfigError, match=match):
        ConversationChunker(**params)


def test_chunker_pickles_with_its_pattern_and_is_deterministic():
    ch = ConversationChunker(chunk_size=60, turn_pattern=re.compile(r"^(?P<speaker>\w+)>"), max_turns=2)
    back = pickle.loads(pickle.dumps(ch))
    text = "ana> hi\nben> hello\nana> bye\n"
    assert [c.id for c in back.chunk(text)] == [c.id for c in ch.chunk(text)]
    assert [c.metadata["speakers"] for c in ch.chunk(text)] == [["ana", "ben"], ["ana"]]


def test_text_without_turns_is_packed_like_recursive():
    text = "Plain prose. " * 30
    conv = _chunks(text, chunk_size=100)
    rec = chunkwise.chunk(text, strategy="recursive", chunk_size=100, unit="chars")
    assert [(c.start_index, c.end_index) for c in conv] == [(c.start_index, c.end_index) for c in rec]
    assert all(c.metadata["speakers"] == [] and c.metadata["turn_start"] is None for c in conv)


def test_doctests_of_the_conversation_modules():
    import doctest
    import importlib

    for name in (
        "chunkwise.chunkers.conversation",
        "chunkwise.parsers.conversation",
        "chunkwise.loaders.chat",
        "chunkwise.loaders.subtitles",
    ):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0, name
