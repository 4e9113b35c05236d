"""The conversation strategy on real-world shapes: the chat-log corpus's split turns,
WebVTT blocks that are not cues, labels that are not speakers, chat data sets."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise import Document
from chunkwise.chunkers.conversation import ConversationChunker
from chunkwise.loaders import parse
from chunkwise.parsers.conversation import find_turns, looks_like_conversation
from chunkwise.registry import auto_strategy
from chunkwise.sizers import CharSizer, WordSizer

ROOT = Path(__file__).resolve().parents[1]
CHATLOGS = ROOT / "data" / "chroma_eval" / "corpora" / "chatlogs.md"
CORPUS = Path(__file__).parent / "corpus" / "conversation"


# -- every chunk of a split turn names its speaker ----------------------------------------


def _split_turn_chunks(doc, chunks, transcript):
    """The chunks lying inside one turn that is not held whole by a chunk."""
    turns = transcript.turns
    whole = {k for k, t in enumerate(turns) for c in chunks if c.start_index <= t.start and t.end <= c.end_index}
    out = []
    for c in chunks:
        k = transcript.turn_at(c.start_index)
        if k >= 0 and k not in whole and c.start_index < turns[k].end:
            out.append((c, turns[k]))
    return out


@pytest.mark.parametrize("size, unit", [(200, "chars"), (500, "chars"), (1000, "chars"), (60, "words")])
def test_chat_log_corpus_split_turns_all_carry_their_speaker(size, unit):
    """The corpus holds Python reprs of message lists whose role comes after the content
    (``{'content': "...", 'role': 'assistant'}``): the last part of a split message holds
    the role, yet still gets the speaker in its context."""
    doc = chunkwise.load(CHATLOGS)
    sizer = CharSizer() if unit == "chars" else WordSizer()
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size, unit=sizer)
    check_invariants(doc.text, chunks, size, sizer, overlap_allowed=False)
    transcript = ConversationChunker(chunk_size=size).transcript(doc)
    assert transcript.kind == "json"
    parts = _split_turn_chunks(doc, chunks, transcript)
    assert parts
    named = [(c, t) for c, t in parts if t.speaker is not None]
    assert named and all(c.context == f"{t.speaker}:" for c, t in named), [
        (c.text[:60], c.context) for c, t in named if c.context != f"{t.speaker}:"
    ]
    holding_role = [c for c, t in named if c.start_index > t.start and t.head[1] <= c.end_index]
    assert holding_role  # the parts that hold "'role': ..." at their end are among them


def test_a_message_cut_off_before_its_role_is_a_turn_of_no_speaker():
    text = "[{'content': 'Why?', 'role': 'user'}, {'content': 'Because the file was cut off here"
    turns = find_turns(text).turns
    assert [t.speaker for t in turns] == ["user", None]
    assert text[turns[1].start :].startswith("{'content': 'Because")
    cs = chunkwise.chunk(text, strategy="conversation", chunk_size=30, unit="chars")
    check_invariants(text, cs, 30, CharSizer(), overlap_allowed=False)
    assert all(c.metadata["speaker"] is None and c.context == "" for c in cs if "Because" in c.text)


def test_a_head_first_message_split_names_its_speaker_only_where_the_role_is_not_held():
    content = "First part of a long answer. " * 6
    text = json.dumps([{"role": "assistant", "content": content}])
    cs = chunkwise.chunk(text, strategy="conversation", chunk_size=60, unit="chars")
    assert len(cs) > 2
    assert cs[0].context == "" and '"role": "assistant"' in cs[0].text
    assert all(c.context == "assistant:" for c in cs[1:])


# -- WebVTT: NOTE, STYLE and REGION blocks are no cue's text ------------------------------


def test_vtt_blocks_are_not_cue_text_and_are_packed_apart():
    doc = chunkwise.load(CORPUS / "panel.vtt")
    assert doc.metadata["format"] == "vtt" and auto_strategy(doc) == "conversation"
    turns = find_turns(doc.text, format="vtt").turns
    assert [t.speaker for t in turns] == ["Moderator", "Priya Raman", "Moderator", "Priya Raman", "Tomasz"]
    assert [t.start_time for t in turns][:2] == ["00:00:00.000", "00:00:04.200"]
    for t in turns:
        cue = doc.text[t.start : t.end]
        assert not any(word in cue for word in ("NOTE", "STYLE", "REGION", "::cue", "TODO"))
    for size in (60, 150, 1000, 5000):
        cs = chunkwise.chunk(doc, strategy="auto", chunk_size=size, unit="chars")
        check_invariants(doc.text, cs, size, CharSizer(), overlap_allowed=False)
        for c in cs:
            block = any(w in c.text for w in ("NOTE", "STYLE", "REGION"))
            cue = "-->" in c.text or c.metadata["speaker"] is not None
            assert not (block and cue), (size, c.text)  # a block never shares a chunk with a cue
            if block:
                assert c.metadata["speakers"] == [] and c.metadata["speaker"] is None and c.context == ""
        if size >= 1000:  # whole cues together, blocks on their own
            assert sum(1 for c in cs if c.metadata["speakers"]) >= 1
            assert any(c.text.startswith("NOTE The next cue") for c in cs)


def test_a_note_between_srt_like_cues_in_plain_text_ends_the_cue():
    text = "WEBVTT\n\n00:01.000 --> 00:02.000\nAna: Hi.\n\nNOTE a comment\n\n00:02.000 --> 00:03.000\nBen: Bye.\n"
    turns = find_turns(text).turns
    assert [text[t.start : t.end] for t in turns] == [
        "00:01.000 --> 00:02.000\nAna: Hi.",
        "00:02.000 --> 00:03.000\nBen: Bye.",
    ]
    cs = chunkwise.chunk(text, strategy="conversation", chunk_size=500, unit="chars")
    assert [c.text for c in cs] == [
        "WEBVTT\n\n00:01.000 --> 00:02.000\nAna: Hi.",
        "NOTE a comment",
        "00:02.000 --> 00:03.000\nBen: Bye.",
    ]


# -- labels are not speakers; prose is not a conversation --------------------------------


RECIPE = """Lemon drizzle cake

Serves: 8
Prep time: 20 minutes

Ingredients: 225 g butter, 225 g caster sugar, 4 eggs, 225 g self-raising flour, 2 lemons.

Method: Heat the oven to 180 C. Beat the butter and sugar until pale, then add the eggs one
at a time. Fold in the flour and the zest of one lemon.

Note: the cake is done when a skewer comes out clean.
Tip: warm the lemons first and they give more juice.
Note: keeps for three days in a tin.
Warning: the tin is hot.
"""

README = """frobnicate
==========

Example: frobnicate --all
Example: frobnicate --dry-run src/
Note: the cache lives in ~/.cache/frobnicate.
Note: delete it to start again.
Warning: --all rewrites files in place.
Warning: there is no undo.
Usage: frobnicate [OPTIONS] PATH
"""

GIT_LOG = """commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904
Author: Ana Lima <ana@example.org>
Date:   Mon Jan 6 10:00:00 2025 +0100

    parser: accept CRLF line ends

    Signed-off-by: Ana Lima <ana@example.org>
    Reviewed-by: Ben Okafor <ben@example.org>

commit 7d1f3c2e
Author: Ben Okafor <ben@example.org>
Date:   Tue Jan 7 11:00:00 2025 +0100

    cli: add --quiet

    Signed-off-by: Ben Okafor <ben@example.org>
"""

DEB_COPYRIGHT = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: frobnicate
Source: https://example.org/frobnicate

Files: *
Copyright: 2020 Ana Lima
License: MIT

Files: debian/*
Copyright: 2021 Ben Okafor
License: MIT
"""

CHANGELOG = """v1.2.0
cli: add --quiet
cli: colour the summary
build: drop the old toolchain
build: test on arm64
api: rename frob() to frobnicate()
"""

STEPS = "Step 1: unpack.\nStep 2: configure.\nStep 1: again.\nStep 2: build.\n"


@pytest.mark.parametrize(
    "text", [RECIPE, README, GIT_LOG, DEB_COPYRIGHT, CHANGELOG, STEPS],
    ids=["recipe", "readme", "git-log", "debian-copyright", "changelog", "steps"],
)
def test_labels_and_records_are_not_conversations(text):
    assert not looks_like_conversation(text)
    assert auto_strategy(text) == "recursive"
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "text"})) == "recursive"


@pytest.mark.parametrize("text", [RECIPE, README, DEB_COPYRIGHT, STEPS])
def test_labels_are_not_speakers_even_when_the_strategy_is_asked_for(text):
    speakers = {t.speaker for t in find_turns(text).turns}
    assert not speakers & {"Note", "Tip", "Warning", "Ingredients", "Method", "Serves", "Prep time", "Example",
                           "Usage", "Files", "Copyright", "License", "Format", "Source", "Step 1", "Step 2"}
    cs = chunkwise.chunk(text, strategy="conversation", chunk_size=120, unit="chars")
    check_invariants(text, cs, 120, CharSizer(), overlap_allowed=False)


def test_dialogue_still_detected_next_to_labels():
    text = (
        "Interview, 3 May\n\n"
        "Ana: Where did the project start?\n"
        "Ben: In a garage, with two laptops.\n"
        "Note: the recording drops for a minute here.\n"
        "Ana: And the first users?\n"
        "Ben: Friends, then their friends.\n"
        "user: is this a chat role?\n"
        "assistant: yes, roles count as speakers.\n"
    )
    assert looks_like_conversation(text) and auto_strategy(text) == "conversation"
    turns = find_turns(text).turns
    assert [t.speaker for t in turns] == ["Ana", "Ben", "Ana", "Ben", "user", "assistant"]
    assert "Note: the recording" in text[turns[1].start : turns[1].end]  # a label continues the turn


def test_a_list_that_repeats_one_label_does_not_alternate():
    text = "".join(f"Ana: item {k}\n" for k in range(6)) + "Ben: one\nBen: two\n"
    assert not looks_like_conversation(text)


def _debian_docs(limit: int = 400) -> list[Path]:
    root = Path("/usr/share/doc")
    if not root.is_dir():
        return []
    names = ("README", "NEWS", "changelog", "copyright", "TODO", "FAQ")
    found = sorted(
        p for p in root.glob("*/*") if p.is_file() and not p.is_symlink() and p.name.startswith(names)
    )
    return found[:limit]


def test_debian_documentation_is_never_taken_for_a_conversation():
    """README, NEWS, changelog and copyright files as Debian installs them (git logs with
    ``Author:``/``Date:``, copyright ``Files:``/``License:`` records, changelogs with
    ``cli:`` topics, ``Note:`` lines): none reads as a transcript."""
    paths = _debian_docs()
    if len(paths) < 20:
        pytest.skip("no Debian documentation here")
    read = 0
    wrong = []
    for p in paths:
        raw = p.read_bytes()[:200_000]
        if p.suffix == ".gz":
            try:
                raw = gzip.decompress(p.read_bytes())[:200_000]
            except (OSError, EOFError):
                continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        read += 1
        if looks_like_conversation(text):
            wrong.append(str(p))
    assert read >= 20 and not wrong, wrong


# -- chat data sets: ShareGPT and OpenAI shapes ---------------------------------------------


SHAREGPT = [
    {"id": "a1", "conversations": [{"from": "human", "value": "What is RAG?"},
                                   {"from": "gpt", "value": "Retrieval-augmented generation."}]},
    {"id": "a2", "conversations": [{"from": "system", "value": "Be brief."},
                                   {"from": "human", "value": "And chunking?"},
                                   {"from": "gpt", "value": "Cutting documents into retrievable pieces."}]},
]


@pytest.mark.parametrize(
    "value, path, roles, firsts",
    [
        (SHAREGPT[0], "$.conversations", ["human", "gpt"], None),
        (SHAREGPT, "$[*].conversations", ["human", "gpt", "system"], [0, 2]),
        ({"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]},
         "$.messages", ["user", "assistant"], None),
        ([{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]},
          {"messages": [{"role": "user", "content": "Bye"}, {"role": "assistant", "content": "Ciao"}]}],
         "$[*].messages", ["user", "assistant"], [0, 2]),
    ],
    ids=["sharegpt-record", "sharegpt-list", "openai-messages", "openai-list"],
)
def test_chat_data_set_shapes_load_as_chats(tmp_path, value, path, roles, firsts):
    f = tmp_path / "chats.json"
    f.write_text(json.dumps(value), encoding="utf-8")
    doc = chunkwise.load(f)
    assert doc.metadata["format"] == "chat" and doc.metadata["json_path"] == path
    assert doc.metadata["roles"] == roles
    assert doc.metadata.get("conversation_starts") == firsts
    assert auto_strategy(doc) == "conversation"
    cs = chunkwise.chunk(doc, strategy="auto", chunk_size=2000, unit="chars")
    check_invariants(doc.text, cs, 2000, CharSizer(), overlap_allowed=False)
    records = value if isinstance(value, list) else [value]
    key = path.rsplit(".", 1)[1]
    assert len(cs) == len(records)  # each conversation packed on its own
    for c, rec in zip(cs, records):
        msgs = rec[key]
        assert c.metadata["turn_end"] - c.metadata["turn_start"] + 1 == len(msgs)
        for m in msgs:
            assert (m.get("value") or m.get("content")) in c.text


def test_a_list_mixing_chats_and_other_records_is_plain_json():
    doc = parse(json.dumps([SHAREGPT[0], {"id": "x", "text": 1}]), format="json")
    assert doc.metadata["format"] == "json"


def test_the_readme_says_what_auto_picks():
    """The README's command-line section lists what ``auto`` chooses: every strategy of
    ``AUTO_BY_FORMAT`` and a suffix of each format's loader."""
    from chunkwise.loaders import get_loader
    from chunkwise.registry import AUTO_BY_FORMAT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    para = readme[readme.index("`auto` means `markdown`"):]
    para = para[: para.index("\n\n")]
    for strategy in {*AUTO_BY_FORMAT.values(), "recursive"}:
        assert f"`{strategy}`" in para, strategy
    for fmt in AUTO_BY_FORMAT:
        suffixes = get_loader(fmt).suffixes
        if fmt == "chat":
            suffixes = (".json",)
        assert not suffixes or any(f"`{s}`" in para for s in suffixes), fmt


# -- real dialogue: a play -----------------------------------------------------------------


def test_a_play_is_a_conversation_by_its_speakers():
    text = (CORPUS / "coriolanus.txt").read_text(encoding="utf-8")
    assert looks_like_conversation(text) and auto_strategy(text) == "conversation"
    turns = find_turns(text).turns
    speakers = [t.speaker for t in turns]
    assert set(speakers) == {"First Citizen", "All", "Second Citizen", "VOLUMNIA", "VIRGILIA", "Gentlewoman"}
    assert "sincerely" not in speakers  # a verse line with a colon is no speaker
    volumnia = [t for t in turns if t.speaker == "VOLUMNIA"][1]
    assert "sincerely: had I a dozen sons" in text[volumnia.start : volumnia.end]
    for size in (60, 200, 600):
        cs = chunkwise.chunk(text, strategy="auto", chunk_size=size, unit="chars")
        check_invariants(text, cs, size, CharSizer(), overlap_allowed=False)
        for t in turns:
            if t.end - t.start <= size:  # a speech that fits is whole
                assert any(c.start_index <= t.start and t.end <= c.end_index for c in cs), (size, t.speaker)
        for c in cs:
            k = find_turns(text).turn_at(c.start_index)
            if k >= 0 and c.start_index > turns[k].start and c.start_index < turns[k].end:
                assert c.context == f"{turns[k].speaker}:"


def test_headings_over_lists_and_records_are_not_plays():
    release_notes = "".join(
        f"## 1.{k}.0\n\nENHANCEMENTS:\n* Added support for thing {k}\n* Faster start\n\n"
        f"BUG FIXES:\n* Fixed crash {k}\n\n" for k in range(4)
    )
    shortlog = "".join(f"Ana Lima ({k + 2}):\n      parser: fix {k}\n      cli: add {k}\n\n"
                       f"Ben Okafor (1):\n      docs: typo {k}\n\n" for k in range(4))
    pins = "".join(f"Package: *\nPin: release a={s}\nPin-Priority: {p}\n\n"
                   for s, p in (("stable", 500), ("testing", 101), ("unstable", 99)))
    for text in (release_notes, shortlog, pins):
        assert not looks_like_conversation(text), text[:40]
    qa = "".join(f"Q: question {k}?\nA: answer {k}.\n\n" for k in range(5))
    assert looks_like_conversation(qa)  # two keys repeated: a dialogue, not records


@st.composite
def _vtt_files(draw):
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    parts = ["WEBVTT"]
    cues = []
    for k in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            kind = draw(st.sampled_from(["NOTE", "STYLE", "REGION"]))
            body = draw(st.sampled_from(["", " a note", nl + "two" + nl + "lines", nl + "::cue { color: red }"]))
            parts.append(kind + body)
        words = draw(st.lists(st.sampled_from(["Hi.", "the", "backup", "failed?", "日本語。", "👍🏽", "x" * 30]),
                              min_size=1, max_size=12))
        voice = draw(st.sampled_from(["", "<v Ana>", "<v.loud Ben>", "Ana: "]))
        ident = draw(st.sampled_from(["", f"{k + 1}{nl}", f"cue-{k}{nl}"]))
        parts.append(f"{ident}00:0{k}.000 --> 00:0{k}.900{nl}{voice}{' '.join(words)}")
        cues.append(" ".join(words))
    if draw(st.booleans()):
        parts.append("NOTE the end")
    return (nl + nl).join(parts) + nl, cues


@settings(max_examples=120, deadline=None)
@given(doc=_vtt_files(), size=st.integers(10, 300))
def test_generated_vtt_blocks_never_join_a_cue(doc, size):
    text, cues = doc
    turns = find_turns(text, format="vtt").turns
    assert len(turns) == len(cues)
    for t, words in zip(turns, cues):
        cue = text[t.start : t.end]
        assert cue.rstrip().endswith(words) and not any(k in cue for k in ("NOTE", "STYLE", "REGION"))
    cs = chunkwise.chunk(Document(text, metadata={"format": "vtt"}), strategy="conversation", chunk_size=size,
                         unit="chars")
    check_invariants(text, cs, size, CharSizer(), overlap_allowed=False)
    for c in cs:
        if any(k in c.text for k in ("NOTE", "STYLE", "REGION")):
            assert "-->" not in c.text and c.metadata["speakers"] == []


def test_a_lower_case_participant_who_speaks_often_stays_a_speaker():
    chat = "".join(f"{n}: line {k}\n" for k, n in enumerate(["Ana", "Ben", "Cy", "Dee", "bob"] * 3))
    assert [t.speaker for t in find_turns(chat).turns].count("bob") == 3
    once = "".join(f"{n}: line {k}\n" for k, n in enumerate(["Ana", "Ben"] * 4)) + "Ana: we said\nfirst: it was late\n"
    assert "first" not in {t.speaker for t in find_turns(once).turns}


# -- tool calls are turns --------------------------------------------------------------

_TOOL_CHAT = [
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": '{"temp": 12}'},
    {"role": "assistant", "content": "Checking the wind too.", "function_call": {"name": "get_wind", "arguments": "{}"}},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_rain", "input": {"city": "Paris"}}]},
    {"role": "assistant", "content": "It is 12 degrees."},
]


def test_chat_loader_keeps_tool_calls_and_tool_replies_as_turns():
    doc = parse(json.dumps({"messages": _TOOL_CHAT}).encode(), format="json")
    assert doc.metadata["format"] == "chat" and doc.metadata["messages"] == 6
    assert doc.text == (
        "user: Weather in Paris?\n"
        'assistant: get_weather({"city": "Paris"})\n'
        'tool: {"temp": 12}\n'
        "assistant: Checking the wind too.\nget_wind({})\n"
        'assistant: get_rain({"city": "Paris"})\n'
        "assistant: It is 12 degrees.\n"
    )
    ch = ConversationChunker(chunk_size=30, unit="chars")
    turns = ch.transcript(doc).turns
    assert [t.speaker for t in turns] == [m["role"] for m in _TOOL_CHAT]
    assert doc.text[turns[1].start : turns[1].end] == 'assistant: get_weather({"city": "Paris"})'
    chunks = ch.chunk(doc)
    check_invariants(doc.text, chunks, 30, CharSizer(), overlap_allowed=False)
    assert any("get_weather" in c.text and c.metadata["speaker"] == "assistant" for c in chunks)


@pytest.mark.parametrize("dump", [json.dumps, repr])
def test_tool_call_messages_in_json_text_are_turns_of_their_role(dump):
    text = dump(_TOOL_CHAT)
    t = find_turns(text)
    assert t.kind == "json" and [x.speaker for x in t.turns] == [m["role"] for m in _TOOL_CHAT]
    call = t.turns[1]
    assert "get_weather" in text[call.start : call.end] and text[call.body] == "["  # the calls are its text
    chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=60, unit="chars")
    check_invariants(text, chunks, 60, CharSizer(), overlap_allowed=False)
    assert all(c.metadata["speaker"] == "assistant" for c in chunks if "get_weather" in c.text)
    # a message of no text and no call still continues the turn before it, as other JSON records do
    assert find_turns(json.dumps([{"name": "a", "value": None}, {"name": "b", "value": 3}])).kind == "none"
