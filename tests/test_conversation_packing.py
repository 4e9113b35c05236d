"""How the ``conversation`` strategy packs turns as ``chunk_size`` changes.

Over every chunk size, in tokens, words and characters, on chat JSONL, SubRip, WebVTT and
WhatsApp-style transcripts:

(a) a turn that fits ``chunk_size`` is never cut;
(b) a prompt or question that fits together with the reply after it is in the chunk that
    holds the start of that reply (a ``user`` prompt before an ``assistant`` reply; a
    question before another speaker's turn; pairs do not chain);
(c) a WebVTT header (``WEBVTT``, a title, ``Kind:``/``Language:`` lines) never stands
    alone when the first cue fits with it: it leads that cue, and counts as part of it
    for (b).

A turn's size is its exact size in the unit: a cheap upper bound of it (characters for
tokens, say) once made turns that fit look too big, and those were cut, and started a
chunk of their own, parting a prompt from its reply.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.parsers.conversation import VTT_BLOCK, find_turns
from chunkwise.sizers import CharSizer, WordSizer, get_sizer

from invariants import check_invariants

_PROMPTS = frozenset({"user", "human"})
_REPLIES = frozenset({"assistant", "gpt"})


def _sizer(unit):
    if unit == "tokens":
        pytest.importorskip("numpy")
        return get_sizer("tokens")
    return CharSizer() if unit == "chars" else WordSizer()


def _pairs(doc):
    """The (prompt, reply) turn pairs of ``doc``, as the README defines them: a question
    (a turn ending with ``?``) before another speaker's turn, or in a chat a ``user``
    prompt before an ``assistant`` reply; a turn that answers is not paired again; no
    pair crosses from one conversation to the next."""
    turns = find_turns(
        doc.text,
        format=doc.metadata.get("format"),
        roles=doc.metadata.get("roles"),
        starts=doc.metadata.get("turn_offsets"),
    ).turns
    chat = doc.metadata.get("format") == "chat"
    firsts = set(doc.metadata.get("conversation_starts") or ())
    out, k = [], 0
    while k + 1 < len(turns):
        t, u = turns[k], turns[k + 1]
        if t.question:
            asks = t.speaker is None or u.speaker is None or t.speaker != u.speaker
        else:
            asks = chat and t.speaker in _PROMPTS and u.speaker in _REPLIES
        if asks and k + 1 not in firsts:
            out.append((k, k + 1))
            k += 2
        else:
            k += 1
    return turns, out


def _header(doc, turns):
    """Where a bare WebVTT header starts (None: the document has none)."""
    text = doc.text
    if doc.metadata.get("format") != "vtt" or not turns or VTT_BLOCK.search(text, 0, turns[0].start):
        return None
    h = len(text) - len(text.lstrip())
    return h if text.startswith("WEBVTT", h) and h < turns[0].start else None


def violations(doc, size, unit, **options):
    """The chunks of ``doc`` (checked against the chunk contract) and the violations of
    (a), (b) and (c) among them, as ``(rule, text)`` pairs."""
    sizer = _sizer(unit)
    text = doc.text
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size, unit=sizer, **options)
    check_invariants(text, chunks, size, sizer, overlap_allowed=False)
    spans = [(c.start_index, c.end_index) for c in chunks]

    def holding(pos):
        return next((s, e) for s, e in spans if s <= pos < e)

    turns, pairs = _pairs(doc)
    head = _header(doc, turns)
    out = []
    for t in turns:  # (a)
        if sizer.count(text[t.start : t.end]) <= size and not any(s <= t.start and t.end <= e for s, e in spans):
            out.append(("a", text[t.start : t.end]))
    for k, j in pairs:  # (b)
        s0 = head if k == 0 and head is not None else turns[k].start
        if sizer.count(text[s0 : turns[j].end]) <= size and holding(turns[k].start)[1] <= turns[j].body:
            out.append(("b", text[turns[k].start : turns[j].end]))
    if head is not None and sizer.count(text[head : turns[0].end]) <= size:  # (c)
        if holding(head)[1] < turns[0].end:
            out.append(("c", text[head : turns[0].end]))
    return chunks, out


# -- the cases found by hand ---------------------------------------------------------------

CHAT = (
    json.dumps(
        {
            "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "Hello! How can I help?"},
                {"role": "user", "content": "What is the capital of France?"},
                {"role": "assistant", "content": "Paris is the capital of France. It is also its largest city."},
            ]
        }
    )
    + "\n"
)


@pytest.mark.parametrize("size", [12, 15, 20, 25, 30, 40])
@pytest.mark.parametrize("pair", [True, False])
def test_a_chat_turn_that_fits_is_whole_and_a_prompt_goes_with_its_reply(size, pair):
    pytest.importorskip("numpy")
    doc = chunkwise.parse(CHAT, format="jsonl")
    chunks, bad = violations(doc, size, "tokens", pair_questions=pair)
    texts = [c.text for c in chunks]
    assert "assistant: Hello! How can I help?" in "\n".join(texts)  # (a): 9 tokens, never cut
    if size >= 13 and pair:  # "user: Hi" + the reply: 13 tokens
        assert texts[0].startswith("user: Hi\nassistant: Hello! How can I help?")
    if pair:
        assert bad == []
    if size >= 20:  # no 3-token "user: Hi" alone when the reply fits with it
        assert texts[0] != "user: Hi"


def test_the_webvtt_header_leads_the_first_cue_that_fits_with_it():
    pytest.importorskip("numpy")
    vtt = (
        "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nHello there, how are you?\n\n"
        "00:00:04.000 --> 00:00:08.000\nFine, thanks, and you?\n"
    )
    doc = chunkwise.parse(vtt, format="vtt")
    chunks, bad = violations(doc, 30, "tokens")
    assert bad == []
    assert chunks[0].text == "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nHello there, how are you?"
    # header, question and answer (52 tokens) do not fit in 48: the header stays with the
    # question (it is part of the first cue), the answer goes to the next chunk
    chunks, bad = violations(doc, 48, "tokens")
    assert bad == [] and chunks[0].text.startswith("WEBVTT") and chunks[0].text.endswith("how are you?")
    assert [c.text[:6] for c in violations(doc, 52, "tokens")[0]] == ["WEBVTT"]


def test_a_webvtt_header_with_kind_and_language_leads_a_first_cue_too_big_for_a_chunk():
    vtt = "WEBVTT\nKind: captions\nLanguage: en\n\n00:01.000 --> 00:04.000\n" + "word " * 40 + "end.\n"
    doc = chunkwise.parse(vtt, format="vtt")
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=30, unit="words")
    check_invariants(doc.text, chunks, 30, WordSizer(), overlap_allowed=False)
    assert chunks[0].text.startswith("WEBVTT\nKind: captions\nLanguage: en\n\n00:01.000 --> 00:04.000\nword")
    # a header followed by a NOTE block is packed apart from the cues, as before
    noted = "WEBVTT\n\nNOTE made by hand\n\n00:01.000 --> 00:04.000\nHi.\n"
    cs = chunkwise.chunk(chunkwise.parse(noted, format="vtt"), strategy="conversation", chunk_size=200)
    assert [c.text for c in cs] == ["WEBVTT\n\nNOTE made by hand", "00:01.000 --> 00:04.000\nHi."]


# -- generated conversations ------------------------------------------------------------------

_WORDS = [
    "the", "chain", "slips", "when", "I", "pedal", "hard.", "ok", "résumé", "日本語です。", "👍🏽", "e\u0301",
    "x" * 30, "2.5", "Dr.", "https://example.org/a/b?c=d", "don't", "«quoted»", "tab\there",
    "why", "now,", "it",
]  # fmt: skip
_QUESTION = st.booleans()


@st.composite
def _content(draw, *, question=False, lines=True):
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=draw(st.sampled_from([3, 12, 60]))))
    gaps = [" ", " ", " ", "\n"] if lines else [" "]
    seps = draw(st.lists(st.sampled_from(gaps), min_size=len(words), max_size=len(words)))
    body = "".join(w + s for w, s in zip(words, seps)).strip()
    body = body.rstrip("?")
    return body + ("?" if question else ".")


@st.composite
def chat_jsonl(draw):
    records = []
    for _ in range(draw(st.integers(1, 3))):
        messages = []
        if draw(st.booleans()):
            messages.append({"role": "system", "content": draw(_content())})
        for _ in range(draw(st.integers(1, 4))):
            messages.append({"role": "user", "content": draw(_content(question=draw(_QUESTION)))})
            messages.append({"role": "assistant", "content": draw(_content())})
        records.append({"messages": messages})
    ascii_ = draw(st.booleans())
    return chunkwise.parse("".join(json.dumps(r, ensure_ascii=ascii_) + "\n" for r in records), format="jsonl")


_SPEAKERS = ["Ana", "Ben", "Dr. Chen", "SPEAKER_01"]


def _cues(draw):
    cues = []
    for k in range(draw(st.integers(1, 8))):
        speaker = draw(st.sampled_from([None, *_SPEAKERS]))
        text = draw(_content(question=draw(_QUESTION)))
        cues.append((k, speaker, text))
    return cues


@st.composite
def srt(draw):
    out = []
    for k, speaker, text in _cues(draw):
        label = f"{speaker.upper()}: " if speaker else ""
        out.append(f"{k + 1}\n00:00:{k:02d},000 --> 00:00:{k + 1:02d},500\n{label}{text}\n")
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    return chunkwise.parse("\n".join(out).replace("\n", nl), format="srt")


@st.composite
def vtt(draw):
    head = draw(st.sampled_from(["WEBVTT", "WEBVTT - A talk", "WEBVTT\nKind: captions\nLanguage: en"]))
    out = [head + "\n"]
    for k, speaker, text in _cues(draw):
        number = f"{k + 1}\n" if draw(st.booleans()) else ""
        setting = draw(st.sampled_from(["", " align:start", " position:10% line:0"]))
        voice = f"<v {speaker}>" if speaker else ""
        out.append(f"{number}00:{k:02d}.000 --> 00:{k + 1:02d}.500{setting}\n{voice}{text}\n")
    return chunkwise.parse("\n".join(out), format="vtt")


@st.composite
def whatsapp(draw):
    out = ["12/03/2024, 09:20 - Messages and calls are end-to-end encrypted."] if draw(st.booleans()) else []
    for k in range(draw(st.integers(2, 10))):
        speaker = draw(st.sampled_from(_SPEAKERS[:3]))
        text = draw(_content(question=draw(_QUESTION), lines=False))
        out.append(f"12/03/2024, 09:{k:02d} - {speaker}: {text}")
    return chunkwise.parse("\n".join(out) + "\n", format="text")


_UNITS = st.sampled_from(["tokens", "words", "chars"])


@pytest.mark.parametrize("documents", [chat_jsonl, srt, vtt, whatsapp], ids=["chat", "srt", "vtt", "whatsapp"])
@settings(max_examples=60, deadline=None)
@given(data=st.data(), size=st.integers(8, 200), unit=_UNITS)
def test_turns_prompts_and_headers_hold_together_over_chunk_sizes(documents, data, size, unit):
    doc = data.draw(documents())
    _, bad = violations(doc, size, unit)
    assert bad == [], bad[:3]


# -- a sweep over every size ---------------------------------------------------------------

_SWEEP = {
    "chat": (
        json.dumps(
            {
                "messages": [
                    {"role": "system", "content": "You help the customers of a bicycle shop."},
                    {"role": "user", "content": "Hi"},
                    {"role": "assistant", "content": "Hello! How can I help?"},
                    {"role": "user", "content": "My chain keeps slipping when I pedal hard. What should I check?"},
                    {
                        "role": "assistant",
                        "content": "A slipping chain usually means a worn chain or cassette, or a gear out of "
                        "adjustment. Measure the chain first: past 0.75 percent of stretch, replace it.\n\nThen "
                        "shift through every gear on a stand and turn the barrel adjuster a quarter turn at a time.",
                    },
                    {"role": "user", "content": "Thanks!"},
                    {"role": "assistant", "content": "You're welcome. Ride safely."},
                ]
            }
        )
        + "\n"
        + json.dumps({"messages": [{"role": "user", "content": "ok"}, {"role": "assistant", "content": "Bonjour."}]})
        + "\n",
        "jsonl",
    ),
    "srt": (
        "1\n00:00:01,000 --> 00:00:03,500\nANA: Good evening, and welcome.\n\n"
        "2\n00:00:03,000 --> 00:00:05,500\nBEN: Why do rivers flood?\n\n"
        "3\n00:00:05,000 --> 00:00:07,500\nANA: Most floods come after days of rain on ground that is already "
        "soaked, when the soil cannot take up any more water.\n\n"
        "4\n00:00:07,000 --> 00:00:09,500\nBEN: Give the river room.\n",
        "srt",
    ),
    "vtt": (
        "WEBVTT\nKind: captions\nLanguage: en\n\n"
        "00:00:01.000 --> 00:00:03.500\n<v Ana>Good evening, and welcome.\n\n"
        "00:00:03.000 --> 00:00:05.500 align:start\n<v Ben>Why do rivers flood?\n\n"
        "00:00:05.000 --> 00:00:07.500\n<v Ana>Most floods come after days of rain on ground that is already "
        "soaked.\n\n00:00:07.000 --> 00:00:09.500\nWetlands upstream hold water back.\n",
        "vtt",
    ),
    "whatsapp": (
        "12/03/2024, 09:21 - Ana: Morning! Is the van free on Saturday?\n12/03/2024, 09:23 - Ben: Yes\n"
        "12/03/2024, 09:23 - Ben: I need it back by six though, we're driving to my parents' place for dinner.\n"
        "12/03/2024, 09:30 - Ana: Can you leave the keys with Carla?\n"
        "12/03/2024, 09:31 - Ben: Sure. She'll be home all morning, just ring twice because the bell is weak.\n",
        "text",
    ),
}


@pytest.mark.parametrize("name", sorted(_SWEEP))
def test_no_violation_at_any_size_from_8_to_200_tokens(name):
    pytest.importorskip("numpy")
    text, fmt = _SWEEP[name]
    doc = chunkwise.parse(text, format=fmt)
    found = {}
    for size in range(8, 201):
        _, bad = violations(doc, size, "tokens")
        if bad:
            found[size] = bad
    assert found == {}
