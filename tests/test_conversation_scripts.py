"""The conversation strategy across writing systems and small sizes: speaker names
written with combining marks (Thai, Hindi, decomposed Latin), full-width colons, scripts
without letter case, empty chat records, lone punctuation and SRT cue numbers."""

from __future__ import annotations

import json
import unicodedata

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise import Document
from chunkwise.loaders.chat import chat_conversations
from chunkwise.sizers import CharSizer
from chunkwise.parsers.conversation import _MARKS, find_turns, looks_like_conversation
from chunkwise.registry import auto_strategy

THAI = (
    "สมชาย: สวัสดีครับ วันนี้ว่างไหม\n"
    "สมหญิง: ว่างค่ะ มีอะไรหรือเปล่า\n"
    "สมชาย: ไปกินข้าวกันไหมครับ\n"
    "สมหญิง: ได้ค่ะ\n"
)
HINDI = "सीता: नमस्ते राम।\nराम: नमस्ते सीता, कैसी हो?\nसीता: मैं ठीक हूँ।\nराम: अच्छा।\n"
NFD = unicodedata.normalize("NFD", "Zoë: Hello there.\nJosé: Hi Zoë.\nZoë: How are you?\nJosé: Fine.\n")


# -- names written with combining marks ---------------------------------------------------


@pytest.mark.parametrize(
    "text, speakers",
    [
        (THAI, ["สมชาย", "สมหญิง", "สมชาย", "สมหญิง"]),
        (HINDI, ["सीता", "राम", "सीता", "राम"]),
        (NFD, [unicodedata.normalize("NFD", n) for n in ("Zoë", "José", "Zoë", "José")]),
        ("สมชาย ใจดี: สวัสดี\nสมหญิง รักไทย: ดีค่ะ\n", ["สมชาย ใจดี", "สมหญิง รักไทย"]),
    ],
    ids=["thai", "hindi", "nfd-latin", "thai-two-words"],
)
def test_names_with_combining_marks_are_speakers(text, speakers):
    """A vowel sign or a decomposed accent inside a name (Unicode Mn/Mc) does not end
    it: each line is its own speaker's turn, not more text of the turn before."""
    turns = find_turns(text).turns
    assert [t.speaker for t in turns] == speakers
    chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer())
    # each chunk names the speakers of the turns it holds, and only those
    for c in chunks:
        held = [t.speaker for t in turns if t.start < c.end_index and c.start_index < t.end]
        assert c.metadata["speakers"] == list(dict.fromkeys(held)), (c.text, c.metadata["speakers"])


def test_the_mark_class_holds_every_combining_mark():
    """The blocks scanned for combining marks hold every mark of this Python's Unicode
    database (a new Unicode version with marks elsewhere fails here)."""
    import re

    marks = re.compile(f"[{_MARKS}]")
    missing = [
        hex(c) for c in range(0x110000) if unicodedata.category(chr(c))[0] == "M" and not marks.match(chr(c))
    ]
    assert not missing, missing[:20]
    assert not marks.match("a") and not marks.match("1") and not marks.match(":")


# -- the full-width colon of Chinese and Japanese transcripts ------------------------------


CJK = "张三：你好，我们今天开会吗？\n李四：开，下午三点在会议室。\n张三：好的，我会准时到。\n李四：谢谢。\n"


def test_a_full_width_colon_marks_a_turn_and_the_context_keeps_it():
    """``张三：你好`` is a turn of 张三 (the speech follows the full-width colon with no
    space); a chunk inside a split turn names its speaker with the colon the source used."""
    turns = find_turns(CJK).turns
    assert [t.speaker for t in turns] == ["张三", "李四", "张三", "李四"]
    assert [t.colon for t in turns] == ["\uff1a"] * 4
    assert [CJK[t.body : t.end] for t in turns][1] == "开，下午三点在会议室。"
    chunks = chunkwise.chunk(CJK, strategy="conversation", chunk_size=10)
    check_invariants(CJK, chunks, 10, CharSizer())
    inside = [c for c in chunks if c.context]
    assert inside, "some turn is split at 10 characters"
    for c in inside:
        assert c.context == c.metadata["speaker"] + "\uff1a"
        assert c.metadata["speakers"] == [c.metadata["speaker"]]
    # an ASCII colon still needs a space after it, and keeps ":" in the context
    assert find_turns("Ana: Hi.\nBen: Hello.\n").turns[0].colon == ":"
    assert find_turns("http://example.org\nsee:this\n").kind == "none"


def test_a_full_width_colon_names_a_subtitle_speaker():
    srt = "1\n00:00:01,000 --> 00:00:02,000\n张三：你好。\n\n2\n00:00:02,500 --> 00:00:04,000\n李四：你好！\n"
    assert [t.speaker for t in find_turns(srt, format="srt").turns] == ["张三", "李四"]


# -- auto: dialogue in scripts without letter case ----------------------------------------


ARABIC = "أحمد: مرحبا، كيف حالك؟\nسارة: بخير، شكرا. وأنت؟\nأحمد: أنا بخير أيضا.\nسارة: هذا جميل.\n"
JAPANESE = "田中：おはようございます。\n山田：おはよう。今日は早いですね。\n田中：はい、会議があるので。\n山田：頑張ってください。\n"


@pytest.mark.parametrize("text", [CJK, ARABIC, THAI, JAPANESE], ids=["chinese", "arabic", "thai", "japanese"])
def test_auto_picks_conversation_for_dialogue_in_scripts_without_case(text):
    """A name of a script without capitals reads as a person, as a capitalised one does:
    the same rules then decide (names that recur and alternate, half the lines)."""
    assert looks_like_conversation(text)
    assert auto_strategy(text) == "conversation"


@pytest.mark.parametrize(
    "text",
    [
        # one caseless "name" over every line: it does not alternate
        "".join(f"注意：第{k}项内容。\n" for k in range(6)),
        # caseless labels that come back once each: no two speakers speak twice
        "标题：报告\n作者：张三\n日期：今天\n摘要：内容很多。\n正文开始。\n",
        # turn lines that are a minority of the text
        "张三：你好。\n" + "这是一段很长的说明文字。\n" * 6 + "李四：好。\n张三：嗯。\n李四：对。\n",
    ],
    ids=["one-label", "labels-once", "minority"],
)
def test_caseless_labels_are_still_not_conversations(text):
    assert not looks_like_conversation(text)


# -- chat data sets with an empty conversation ----------------------------------------------


def test_an_empty_record_of_a_chat_data_set_is_skipped(tmp_path):
    """``[{"conversations": [...]}, {"conversations": []}]`` is still a chat: the empty
    record adds no turn, and does not turn the file into plain JSON."""
    value = [
        {"conversations": [{"from": "human", "value": "Hi?"}, {"from": "gpt", "value": "Hello."}]},
        {"conversations": []},
        {"conversations": [{"from": "human", "value": "Bye?"}, {"from": "gpt", "value": "Ciao."}]},
    ]
    path = tmp_path / "sharegpt.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    doc = chunkwise.load(path)
    assert doc.metadata["format"] == "chat"
    assert doc.metadata["json_path"] == "$[*].conversations"
    assert doc.metadata["messages"] == 4 and doc.metadata["conversation_starts"] == [0, 2]
    assert doc.text == "human: Hi?\ngpt: Hello.\n\nhuman: Bye?\ngpt: Ciao.\n"
    assert auto_strategy(doc) == "conversation"
    # an empty record last, or first, is skipped as well
    for records in (value[:2], value[1:]):
        assert chat_conversations(records) is not None
    # only empty records, or an empty record next to one that is not a chat: not a chat
    assert chat_conversations([{"conversations": []}]) is None
    assert chat_conversations([{"conversations": []}, {"id": 1}]) is None
    assert chat_conversations([value[0], {"conversations": []}, {"id": 1}]) is None


# -- no chunk of lone punctuation -----------------------------------------------------------


def test_a_short_turn_over_the_budget_is_cut_after_its_speaker_not_before_its_full_stop():
    text = "Ana: Good morning everyone.\nBen: Goodbye.\n"
    chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=12)
    check_invariants(text, chunks, 12, CharSizer())
    assert [(c.text, c.context) for c in chunks][-2:] == [("Ben:", ""), ("Goodbye.", "Ben:")]
    for size in range(len("everyone."), 30):  # from the longest word up
        for c in chunkwise.chunk(text, strategy="conversation", chunk_size=size):
            assert any(ch.isalnum() for ch in c.text), (size, c.text)
            assert not c.text.endswith("Ben:") or c.text == "Ben:", (size, c.text)


# -- an SRT cue's number goes with its cue -------------------------------------------------


SRT = (
    "1\r\n00:00:03,273 --> 00:00:04,416\r\nMy name is Abaddon.\r\n\r\n"
    "2\r\n00:00:04,417 --> 00:00:06,051\r\nAnd who is the Warrior of Hell?\r\n\r\n"
    "3\r\n00:00:06,053 --> 00:00:07,085\r\nI am your king.\r\n\r\n"
    "4\r\n00:00:07,087 --> 00:00:08,353\r\nAs for her...\r\n"
)


@pytest.mark.parametrize("unit", ["chars", "words"])
def test_a_cue_number_starts_its_cue_s_chunk_at_every_size(unit):
    """A cue that does not fit starts a chunk: its number is never the end of the chunk
    before (``"...Abaddon.\\n\\n2"``); a turn's marker never ends a chunk holding the turn
    before."""
    doc = chunkwise.parse(SRT, format="srt")
    turns = find_turns(SRT, format="srt").turns
    for size in range(4 if unit == "words" else 12, 80 if unit == "chars" else 20):
        chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=size, unit=unit)
        assert chunks[0].metadata.get("strategy", "conversation") == "conversation"
        for c in chunks:
            for t in turns:
                assert not (c.start_index < t.start < c.end_index and c.end_index <= t.body), (size, c.text)


# -- a cue of two speakers -----------------------------------------------------------------


def test_a_later_line_of_a_cue_that_names_another_speaker_is_its_turn():
    srt = (
        "1\r\n00:00:01,000 --> 00:00:02,000\r\nMARY: Out.\r\n- JOHN: Out where?\r\n\r\n"
        "2\r\n00:00:03,000 --> 00:00:04,000\r\nWhere it is.\r\nNote: a label, not a speaker.\r\n"
    )
    turns = find_turns(srt, format="srt").turns
    assert [(t.speaker, t.start_time, t.end_time) for t in turns] == [
        ("MARY", "00:00:01,000", "00:00:02,000"),
        ("JOHN", "00:00:01,000", "00:00:02,000"),
        (None, "00:00:03,000", "00:00:04,000"),
    ]
    assert srt[turns[1].start : turns[1].end] == "- JOHN: Out where?" and turns[1].question
    chunks = chunkwise.chunk(chunkwise.parse(srt, format="srt"), strategy="conversation", chunk_size=14)
    check_invariants(srt, chunks, 14, CharSizer())
    assert any(c.metadata["speaker"] == "JOHN" for c in chunks)
    # the error for an unknown parameter lists turn_pattern
    with pytest.raises(chunkwise.ConfigError, match="turn_pattern"):
        chunkwise.chunk(srt, strategy="conversation", turn_patern=r"^(?P<speaker>\w+):")
