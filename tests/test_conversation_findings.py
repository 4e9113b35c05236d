"""Findings of a first use of conversations, chat and subtitle loading (one test each)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.conversation import ConversationChunker
from chunkwise.loaders import parse
from chunkwise.sizers import CharSizer


def test_content_parts_are_flattened_never_dumped_as_json():
    msgs = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,BBBB"}},
                {"type": "input_audio", "input_audio": {"data": "CCCC", "format": "wav"}},
                {"type": "file", "file": {"file_data": "DDDD"}},
                {"type": "thinking", "thinking": "hmm"},
                {"type": "refusal", "text": "no"},
            ],
        },
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "look", "input": {"q": 1}}]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": "A dot."}]}],
        },
        {"role": "assistant", "content": "A dot."},
    ]
    text = parse(json.dumps(msgs), format="chat").text
    assert text == (
        "user: What is this?\n[image]\n[image]\n[audio]\n[file]\n[thinking]\nno\n"
        'assistant: look({"q": 1})\nuser: A dot.\nassistant: A dot.\n'
    )
    for data in ("AAAA", "BBBB", "CCCC", "DDDD", "{"):
        assert data not in text.replace('{"q"', "")


WHATSAPP = (
    "12/03/2024, 09:20 - Messages and calls are end-to-end encrypted. No one outside of this chat, "
    "not even WhatsApp, can read or listen to them.\n"
    "12/03/2024, 09:21 - Ben Costa: Morning all, the deploy is at ten.\n"
    "12/03/2024, 09:21 - Ana Lima joined using this group's invite link\n"
    "12/03/2024, 09:22 - Ana Lima: Hi! What did I miss?\n"
    "[12/03/2024, 09:23] Ben Costa: Only the deploy time.\n"
)


def test_whatsapp_system_lines_are_turns_of_no_speaker_and_stamps_stay_whole():
    from chunkwise.parsers.conversation import find_turns, speakers_in_order

    turns = find_turns(WHATSAPP).turns
    assert [t.speaker for t in turns] == [None, "Ben Costa", None, "Ana Lima", "Ben Costa"]
    assert [t.start_time for t in turns] == ["12/03/2024, 09:20", *["12/03/2024, 09:21"] * 2, "12/03/2024, 09:22"] + [
        "12/03/2024, 09:23"
    ]
    assert speakers_in_order(turns) == ["Ben Costa", "Ana Lima"]
    for size in (20, 25, 30, 45, 60):
        chunks = chunkwise.chunk(WHATSAPP, strategy="conversation", chunk_size=size)
        check_invariants(WHATSAPP, chunks, size, CharSizer())
        for c in chunks:
            assert c.text not in ("12/03/2024,", "[12/03/2024,"), (size, c.text)
            if "joined" in c.text or "encrypted" in c.text:
                assert c.metadata["speaker"] is None and c.metadata["speakers"] == [], (size, c.text)
                assert "Ben" not in c.context


SRT = (
    "1\n00:00:01,000 --> 00:00:03,500\nAna: Good evening, everyone.\n\n"
    "2\n00:00:04,000 --> 00:00:07,000\nTonight we talk about rivers.\nBen: And about bridges!\n\n"
    "3\n00:00:07,500 --> 00:00:10,000\n- Where do we start?\n- At the source.\n"
)
VTT = (
    "WEBVTT\n\n00:00:01.000 --> 00:00:03.500 align:start position:10%\n<v Ana>Hello there, how are you doing today?\n\n"
    "00:00:04.000 --> 00:00:06.000 align:start\nFine thanks.\n"
)


def test_cue_headers_are_cut_at_line_breaks_never_inside_a_time():
    import re

    stamp = re.compile(r"\d\d:\d\d:\d\d[,.]\d{3}")
    for fmt, text in (("srt", SRT), ("vtt", VTT)):
        doc = parse(text, format=fmt)
        for size in (15, 20, 30, 40, 60):
            chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size)
            check_invariants(text, chunks, size, CharSizer())
            spans = [m.span() for m in stamp.finditer(text)]
            for c in chunks:
                # no chunk starts or ends inside a time
                for a, b in spans:
                    assert not a < c.start_index < b and not a < c.end_index < b, (fmt, size, c.text)
                # the second cue's settings fit with a neighbour from 20 characters on
                # (the first cue's, 24 characters of settings, do not below 40)
                if size >= 20 and c.start_index > VTT.index("Fine") - 30:
                    assert c.text.strip() not in ("align:start", "position:10%"), (fmt, size, c.text)
    # at 40 the first cue's marker (its number, timing line and "Ana:") and first word do
    # not fit together: the cut after the timing line is the best left; the second cue's
    # do fit (39 characters): its marker never stands alone, it leads the first word
    texts = [c.text for c in chunkwise.chunk(parse(SRT, format="srt"), strategy="conversation", chunk_size=40)]
    assert texts[:4] == [
        "1\n00:00:01,000 --> 00:00:03,500",
        "Ana: Good evening, everyone.",
        "2\n00:00:04,000 --> 00:00:07,000\nTonight",
        "we talk about rivers.",
    ]
    # at 30 the timing line (29 characters) fits but not with the number: the number goes
    # with the start time and the arrow, never a chunk of its own
    texts = [c.text for c in chunkwise.chunk(parse(SRT, format="srt"), strategy="conversation", chunk_size=30)]
    assert texts[:3] == ["1\n00:00:01,000 -->", "00:00:03,500", "Ana: Good evening, everyone."]



def test_a_cue_number_or_arrow_is_not_a_chunk_alone_where_it_fits_with_a_time():
    """Where a cue's timing line does not fit a chunk, its number goes with its start
    time, and its arrow with a time: neither is a chunk of its own when it fits with
    one (a number alone is left only where even the start time does not fit with it)."""
    vtt = "WEBVTT\n\nintro\n00:00.000 --> 00:03.500\nHello there.\n\nq-2\n00:04.000 --> 00:06.000\nFine.\n"
    for fmt, text, line in (("srt", SRT, 29), ("vtt", vtt, 23)):  # below the timing line's length
        doc = parse(text, format=fmt)
        for size in range(16, line):
            chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size)
            check_invariants(text, chunks, size, CharSizer())
            texts = [c.text for c in chunks]
            assert not {"1", "2", "3", "intro", "q-2", "-->"} & set(texts), (fmt, size, texts)
    texts = [c.text for c in chunkwise.chunk(parse(SRT, format="srt"), strategy="conversation", chunk_size=20)]
    assert texts[:3] == ["1\n00:00:01,000 -->", "00:00:03,500", "Ana: Good evening,"]


def test_a_webvtt_block_keyword_is_not_a_chunk_alone():
    """``NOTE``, ``STYLE`` and ``REGION`` go with the first line of their block where it
    fits, else with its first word: never a chunk of their own where that fits."""
    text = (Path(__file__).parent / "corpus" / "conversation" / "panel.vtt").read_text(encoding="utf-8")
    doc = parse(text, format="vtt")
    for size in range(14, 80):  # "REGION\nid:fred": 14 characters
        chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size)
        check_invariants(text, chunks, size, CharSizer())
        texts = [c.text for c in chunks]
        assert not {"NOTE", "STYLE", "REGION"} & set(texts), (size, texts)
    texts = [c.text for c in chunkwise.chunk(doc, strategy="conversation", chunk_size=50)]
    assert "NOTE\nCaptions checked against the recording." in texts

def test_context_room_is_kept_only_in_chunks_that_get_a_context():
    text = (
        "[00:00:01] Ana: This is a long turn that will not fit in one chunk at all, no way.\n"
        "[00:00:09] Ben: Ok.\n[00:00:10] Ana: Fine.\n"
    )
    for size in (40, 50, 64):
        chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=size, include_context_in_size=True)
        check_invariants(text, chunks, size, CharSizer())
        assert chunks[0].context == ""
        # the first chunk uses the whole budget: the next word would not have fitted
        nxt = text[chunks[0].end_index :].split()[0]
        assert len(text[chunks[0].start_index : chunks[0].end_index] + " " + nxt) > size
        for c in chunks:
            assert c.size + (len(c.context) + 1 if c.context else 0) <= size
    assert chunkwise.chunk(text, strategy="conversation", chunk_size=40, include_context_in_size=True)[0].text == (
        "[00:00:01] Ana: This is a long turn that"
    )


def test_the_cli_reads_subtitles_and_chats_from_standard_input():
    from click.testing import CliRunner

    from chunkwise.cli import cli
    from chunkwise.commands._options import FORMATS
    from chunkwise.loaders import registered_loaders
    from chunkwise.registry import auto_strategy

    assert {"srt", "vtt", "chat", "json"} <= set(FORMATS)
    assert set(FORMATS) == {ld.format for ld in registered_loaders()} | {"text"}
    runner = CliRunner()
    for fmt, text in (("srt", SRT), ("vtt", VTT), ("chat", json.dumps([{"role": "user", "content": "Hi?"}]))):
        result = runner.invoke(cli, ["chunk", "-", "--format", fmt, "-u", "chars", "-n", "200"], input=text)
        assert result.exit_code == 0, result.output
        first = json.loads(result.stdout.splitlines()[0])
        assert first["metadata"]["format"] == fmt
        assert "speakers" in first["metadata"]
    # auto on raw subtitle text (standard input read as text) picks the conversation strategy
    assert auto_strategy(SRT) == auto_strategy(VTT) == "conversation"
    assert auto_strategy("1. Buy milk\n2. Call Ana\n") == "recursive"
    result = runner.invoke(cli, ["chunk", "-", "-s", "auto", "-u", "chars", "-n", "200"], input=SRT)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["metadata"]["start_time"] == "00:00:01,000"


def test_jsonl_chat_records_and_nested_messages_load_as_chats(tmp_path):
    records = [
        {"messages": [{"role": "user", "content": "Hi? " * 5}, {"role": "assistant", "content": "Hello. " * 6}]},
        {"messages": [{"role": "user", "content": "Bye?"}, {"role": "assistant", "content": "Ciao."}]},
    ]
    f = tmp_path / "chats.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    doc = chunkwise.load(f)
    assert doc.metadata["format"] == "chat" and doc.metadata["json_path"] == "$[*].messages"
    assert doc.metadata["conversation_starts"] == [0, 2] and doc.metadata["messages"] == 4
    second = doc.text.index("user: Bye?")
    for size in (12, 20, 40, 80, 400):
        chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=size)
        check_invariants(doc.text, chunks, size, CharSizer())
        # a record boundary is never crossed: no chunk holds text of both records
        assert all(c.end_index <= second or c.start_index >= second for c in chunks), size
    # JSON lines that are not chats are records, as written
    g = tmp_path / "rows.jsonl"
    g.write_text('{"id": 1, "text": "a"}\n{"id": 2, "text": "b"}\n', encoding="utf-8")
    assert chunkwise.load(g).metadata["format"] == "jsonl"
    # messages one or two levels down under a key
    deep = {"data": {"chat": {"messages": records[1]["messages"]}}}
    h = tmp_path / "nested.json"
    h.write_text(json.dumps(deep), encoding="utf-8")
    doc = chunkwise.load(h)
    assert (doc.metadata["format"], doc.metadata["json_path"]) == ("chat", "$.data.chat.messages")
    assert doc.text == "user: Bye?\nassistant: Ciao.\n"
    doc = parse(json.dumps({"export": records[0]["messages"]}), format="json")
    assert doc.metadata["json_path"] == "$.export"
    assert parse(json.dumps({"a": {"b": {"c": {"messages": records[1]["messages"]}}}}), format="json").metadata[
        "format"
    ] == "json"


BROKEN_SRT = (
    "1\n00:00:01,000 --> 00:00:0x,500\nAna: Hi.\n\n"
    "2\n00:00:04 --> 00:00:07\nBen: Hello.\n\n"
    "3\n99:99:99,999 --> 00:00:01,000\nAna: Backwards time.\n\n"
    "4\n00:00:08,000 --> 00:00:09,000\nBen: Fine.\n\n"
    "foo\nbar --> baz\nloose text\n"
)
BROKEN_VTT = "WEBVTT\n\n00:01.000 --> 00:04\n<v Ana>Broken end.\n\n00:05.000 --> 00:06.000\n<v Ben>Bye.\n"


def test_each_cue_is_read_on_its_own_and_bad_timings_are_reported():
    import warnings

    import pytest

    from chunkwise.loaders.subtitles import SubtitleWarning

    with pytest.warns(SubtitleWarning) as caught:
        doc = parse(BROKEN_SRT, format="srt", source="b.srt")
    notes = doc.metadata["warnings"]
    assert [str(w.message) for w in caught] == notes and len(notes) == 4
    assert notes[0].startswith("b.srt: line 2: '00:00:01,000 --> 00:00:0x,500'")
    assert "line 6" in notes[1] and "out of range" in notes[2] and "'bar --> baz'" in notes[3]
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=60)
    check_invariants(BROKEN_SRT, chunks, 60, CharSizer())
    got = [(c.text.split("\n")[-1], c.metadata["speakers"], c.metadata.get("start_time")) for c in chunks]
    assert got == [
        ("Ana: Hi.", ["Ana"], None),
        ("Ben: Hello.", ["Ben"], None),
        ("Ana: Backwards time.", ["Ana"], None),
        ("Ben: Fine.", ["Ben"], "00:00:08,000"),
        ("loose text", [], None),
    ]
    # one bad end time in WebVTT loses only its own cue's times
    with pytest.warns(SubtitleWarning):
        doc = parse(BROKEN_VTT, format="vtt")
    chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=60)
    assert [(c.metadata["speakers"], c.metadata.get("start_time")) for c in chunks] == [
        (["Ana"], None),
        (["Ben"], "00:05.000"),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "warnings" not in parse(SRT, format="srt").metadata


def test_the_cli_prints_subtitle_warnings_on_standard_error(tmp_path):
    import subprocess
    import sys

    f = tmp_path / "b.srt"
    f.write_text(BROKEN_SRT, encoding="utf-8")
    args = [sys.executable, "-m", "chunkwise.cli", "chunk", "b.srt", "-u", "chars", "-n", "200", "-j", "1"]
    result = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("warning: ")]
    assert len(lines) == 4 and lines[0].startswith("warning: b.srt: line 2: "), result.stderr
    assert len(result.stdout.splitlines()) == 2


def test_end_time_is_given_whenever_start_time_is():
    text = "[00:01] Ana: Hello there.\nBen: Hi.\n[00:05] Ana: Ready?\nBen: Yes.\n"
    for size in (20, 40, 200):
        for c in chunkwise.chunk(text, strategy="conversation", chunk_size=size):
            if "start_time" in c.metadata:
                assert "end_time" in c.metadata, (size, c.text)
    (one,) = chunkwise.chunk("[00:01] Ana: Hello there.\nBen: Hi.\n", strategy="conversation", chunk_size=200)
    assert (one.metadata["start_time"], one.metadata["end_time"]) == ("00:01", "00:01")
    (two,) = chunkwise.chunk(text, strategy="conversation", chunk_size=200)
    assert (two.metadata["start_time"], two.metadata["end_time"]) == ("00:01", "00:05")


_PIECES = [
    "1\n", "00:00:01,000 --> 00:00:02,000", "00:00:0x,5 --> 1", "99:99:99,999 --> 00:00:01,000", "bar --> baz",
    "00:01.000 --> 00:04 align:start", "WEBVTT", "\n", "\n\n", "Ana: Hi there.", "<v Ben>Yo.", "12/03/2024, 09:21 - ",
    "Ana Lima joined", "Ben: ", "word ", "\r\n", " ",
]  # fmt: skip


def test_hostile_subtitle_and_chat_export_text_keeps_the_invariants():
    import warnings

    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.sampled_from(_PIECES), max_size=30), st.sampled_from(["srt", "vtt", "text"]), st.integers(8, 80))
    def run(pieces, fmt, size):
        text = "".join(pieces)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            doc = parse(text, format=fmt)
        for extra in ({}, {"include_context_in_size": True}):
            chunks = chunkwise.chunk(doc, strategy="conversation", chunk_size=size, **extra)
            check_invariants(text, chunks, size, CharSizer())
            assert chunks == chunkwise.chunk(doc, strategy="conversation", chunk_size=size, **extra)

    run()


def test_document_lists_stay_off_the_chunks() -> None:
    """A loader's per-document lists (cue warnings, where each chat starts) are not copied
    onto every chunk: they stay on the document."""
    import chunkwise

    bad = "1\n00:00:01,000 --> 00:00:02,000\nAna: Hi.\n\n2\nbar --> baz\nBen: Hello there.\n"
    with pytest.warns(UserWarning):
        doc = chunkwise.parse(bad, format="srt")
    assert doc.metadata.get("warnings")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=20)
    assert chunks and all("warnings" not in c.metadata for c in chunks)
    chats = '{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"}]}\n' * 2
    cdoc = chunkwise.parse(chats, format="jsonl")
    assert cdoc.metadata.get("conversation_starts")
    assert all("conversation_starts" not in c.metadata for c in chunkwise.chunk(cdoc, strategy="auto"))


def test_a_later_voice_span_in_a_cue_is_a_turn_of_its_own() -> None:
    """``<v Ben>`` on a later line of a cue opened by ``<v Ana>`` is Ben's turn, as a
    ``Ben:`` line is (with or without ``</v>``, a class, a leading dash)."""
    import chunkwise

    for second in ("<v Ben>Yes it is.", "- <v.loud Ben>Yes it is.</v>"):
        vtt = f"WEBVTT\n\n00:08.000 --> 00:10.000\n<v Ana>That is bad news for everyone.</v>\n{second}\n"
        chunks = chunkwise.chunk(vtt, strategy="conversation", chunk_size=40)
        assert all(c.text == vtt[c.start_index : c.end_index] and c.text.strip() for c in chunks)
        ben = [c for c in chunks if "Yes it is." in c.text]
        assert ben and ben[-1].metadata["speakers"][-1] == "Ben"
        whole = chunkwise.chunk(vtt, strategy="conversation", chunk_size=400)
        assert whole[0].metadata["speakers"] == ["Ana", "Ben"]


def test_a_jsonl_record_of_no_message_is_skipped_not_the_whole_file() -> None:
    import chunkwise

    t = (
        '{"messages":[{"role":"user","content":"Q?"},{"role":"assistant","content":"A."}]}\n'
        '{"messages": []}\n'
        '{"messages":[{"role":"user","content":"Q2?"}]}\n'
    )
    doc = chunkwise.parse(t, format="jsonl")
    assert doc.metadata["format"] == "chat" and doc.text == "user: Q?\nassistant: A.\n\nuser: Q2?\n"
    assert chunkwise.parse('{"messages": []}\n{"messages": []}\n', format="jsonl").metadata["format"] == "jsonl"
