"""Conversations: the speaker turns of a transcript, chat log or subtitle file.

:func:`find_turns` reads a text into a :class:`Transcript` -- its turns in order, each
with its span, speaker, times and whether it asks a question -- with exact offsets
(half-open ``str`` indices of the text). Formats recognised without configuration:

* lines that start a turn: ``Name: text``, ``名字：text`` (a full-width colon), ``**Name:** text``, ``<nick> text``,
  ``[00:01:02] Name: text``, ``(10:02) Name: text``, chat exports such as
  ``2024-01-02 10:00 - Name: text``, ``1/2/24, 10:00 - Name: text`` or
  ``[1/2/24, 10:00:00] Name: text``; ``Q:``/``A:`` and ``User:``/``Assistant:`` are
  names like any other; invisible direction marks before the time stamp or the name
  (U+200E, which WhatsApp for iOS writes before system and media lines) are read as
  space, the turn starting at the line; a phone number after a time stamp (or starting with
  ``+``) is a speaker too (a chat export's participant who is not a contact:
  ``[12/03/2024, 09:15:02] +44 7700 900123: text``, on iOS between direction marks).
  Lines that start no turn continue the turn before them;
* SRT and WebVTT cues (a cue is a turn; its times are the cue's; a speaker from WebVTT's
  ``<v Name>`` or a ``Name:`` at the start of the cue text; a later line of the cue that
  names another speaker, ``- JOHN: Out where?``, is a turn of its own with the cue's times);
* JSON chat messages anywhere in the text (``[{"role": "user", "content": "..."}]``,
  a Python ``repr`` of such a list, ShareGPT's ``{"from": ..., "value": ...}``): each
  message object is a turn whose speaker is its role; each list is a conversation;
* with ``pattern=`` (a regular expression, multi-line), a turn starts at each match,
  its speaker from the group ``speaker`` (or ``name``), its time from ``time``.

:func:`looks_like_conversation` is the cheap check ``auto`` makes on plain text.

A lone carriage return (a classic Mac OS file) ends a line as a line feed does: the
public functions read a text that has one as its twin with line feeds there
(:func:`chunkwise.boundaries.line_feed_twin`; same length, same offsets), as the packer
packs it.

Method:
    Line-oriented turn recognition as in transcript and chat-export tools (WhatsApp,
    Slack and meeting-transcript formats); cue grammar of SRT and W3C WebVTT; a small
    scanner for JSON and Python literals (strings with escapes, nested values skipped),
    tolerant of a truncated last message.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..boundaries import line_feed_twin

__all__ = ["LINE_TURN", "VTT_BLOCK", "Transcript", "Turn", "find_turns", "looks_like_conversation"]


def _mark_class() -> str:
    """The combining marks (Unicode categories Mn, Mc, Me) as the inside of a regular
    expression character class: ``\\w`` of :mod:`re` does not match them, so without
    them a name written with vowel signs or decomposed accents (Thai ``สมหญิง``, Hindi
    ``सीता``, ``Zoe`` + U+0308) is not a word. Scans only the blocks that hold marks (a
    test checks that they hold every mark of this Python's Unicode database)."""
    import unicodedata

    category = unicodedata.category
    ranges: list[tuple[int, int]] = []
    for lo, hi in _MARK_BLOCKS:
        for c in range(lo, hi + 1):
            if category(chr(c))[0] == "M":
                if ranges and ranges[-1][1] == c - 1:
                    ranges[-1] = (ranges[-1][0], c)
                else:
                    ranges.append((c, c))
    return "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)


_MARK_BLOCKS = (
    (0x0300, 0x1DFF), (0x20D0, 0x20FF), (0x2CEF, 0x2DFF), (0x302A, 0x309A), (0xA66F, 0xABED),
    (0xFB1E, 0xFB1E), (0xFE00, 0xFE2F), (0x101FD, 0x11FFF), (0x16AF0, 0x16FF1), (0x1BC9D, 0x1BC9E),
    (0x1CF00, 0x1CF46), (0x1D165, 0x1D244), (0x1DA00, 0x1DAAF), (0x1E000, 0x1E94A), (0xE0100, 0xE01EF),
)  # fmt: skip
_MARKS = _mark_class()
# a name: a letter, then letters, digits, combining marks and name punctuation; 1-4 words
_NAME = rf"[^\W\d_][\w{_MARKS}.'\u2019&-]*(?:[ \t][\w{_MARKS}.'\u2019&()-]+){{0,3}}"
# the colon after a name: ``:`` before a space or the line's end, or the full-width
# ``\uff1a`` of Chinese and Japanese text (the speech follows it with no space)
_COLON = r"(?::(?:\*\*|__)?(?=[ \t]|\r?$)|\uff1a(?:\*\*|__)?)"
_CLOCK = r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?"
_DATE = r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})"
_STAMP = rf"(?:{_DATE},?[ \tT]+{_CLOCK}|{_CLOCK}|{_DATE})"
# the invisible direction marks a chat export may write before a line's time stamp or
# name (WhatsApp for iOS: U+200E before a system line or a media line), read as space:
# left-to-right and right-to-left marks, the Arabic letter mark, the embeddings,
# overrides and isolates, and a byte-order mark
_BIDI = r"\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\ufeff"
_LEAD = rf"[ \t{_BIDI}]*"
# a phone number that names a speaker (WhatsApp writes the number of a participant who is
# not a contact: "+44 7700 900123", between U+202A and U+202C on iOS, with no-break spaces)
_PHONE = r"\+?\d[\d \u00a0\u202f().-]{4,22}\d"

LINE_TURN = re.compile(
    rf"""^{_LEAD}
    (?:
        \[(?P<t1>{_STAMP})\]{_LEAD}(?:-[ \t]+)?
      | \((?P<t2>{_STAMP})\){_LEAD}(?:-[ \t]+)?
      | (?P<t3>{_STAMP})[ \t]+(?:-[ \t]+)?
    )?
    (?:
        (?:\*\*|__)?(?P<speaker>{_NAME}?)(?:\*\*|__)?[ \t]*{_COLON}
      | <(?P<nick>[\w.@|-]{{1,30}})>(?=[ \t])
      | [{_BIDI}]*(?P<phone>{_PHONE})[{_BIDI}]*[ \t]*{_COLON}
    )""",
    re.MULTILINE | re.VERBOSE,
)
"""A line that starts a turn (the default line format): an optional time stamp, then a
speaker name (1 to 4 words, at most 40 characters) and a colon, an IRC ``<nick>``, or a
phone number and a colon (a speaker only after a time stamp or with its ``+``: see
:func:`_phone`)."""


def _phone(m: re.Match[str]) -> str | None:
    """The phone number a :data:`LINE_TURN` match names as its speaker (a chat export's
    participant who is not a contact: ``[12/03/2024, 09:15:02] +44 7700 900123: hi``), or
    None: seven digits or more, after a time stamp or starting with ``+``."""
    phone = m.group("phone")
    if phone is None or sum(c.isdigit() for c in phone) < 7:
        return None
    if phone[0] != "+" and not (m.group("t1") or m.group("t2") or m.group("t3")):
        return None
    return phone

_MAX_NAME = 40
_QUESTION_SPEAKERS = frozenset({"q", "question"})
_QUESTION_END = re.compile(r"[?\uff1f\u061f\u037e][\s\"'\u201d\u2019)\]*_]*$")

# SRT / WebVTT cue timing: "00:00:01,000 --> 00:00:04,000" (hours optional in WebVTT)
_CUE_TIME = r"(?:\d{1,3}:)?\d{1,2}:\d{2}[.,]\d{1,3}"
_TIMING = re.compile(
    rf"^[ \t]*(?P<start>{_CUE_TIME})[ \t]+-->[ \t]+(?P<end>{_CUE_TIME})[^\n]*$", re.MULTILINE
)
VTT_BLOCK = re.compile(r"(?:^|\n)[ \t]*\r?\n[ \t]*(?:NOTE|STYLE|REGION)(?=[ \t\r\n]|$)")
"""A WebVTT block that is not a cue (``NOTE``, ``STYLE``, ``REGION``), from the blank
line before it."""
_VOICE = re.compile(r"<v(?:\.[\w.-]+)?[ \t]+(?P<speaker>[^>\n]{1,40})>")
_LINE_VOICE = re.compile(r"[ \t]*(?:-[ \t]*)?" + _VOICE.pattern)
"""A cue text line that opens with a WebVTT voice span (``<v Ben>``, ``- <v.loud Ben>``)."""
_CUE_SPEAKER = re.compile(
    rf"[ \t]*(?:-[ \t]*)?(?:\[(?P<b>{_NAME})\](?=[ \t]|$)|(?P<speaker>{_NAME})(?::(?=[ \t]|$)|\uff1a))"
)

# JSON chat messages: an object whose first key names a role or content
_ROLE_KEYS = ("role", "from", "speaker", "author", "name", "sender", "user")
_CONTENT_KEYS = ("content", "value", "text", "message")
_CALL_KEYS = ("tool_calls", "function_call")  # OpenAI: a message that calls tools
_MESSAGE_START = re.compile(
    r"""\{[ \t\r\n]*(?P<q>['"])(?:role|content|from|value|speaker|author|text|sender|message|name)(?P=q)[ \t]*:"""
)
_STRING = {
    '"': re.compile(r'"(?:[^"\\\n]|\\.)*"?'),
    "'": re.compile(r"'(?:[^'\\\n]|\\.)*'?"),
}
_KEY_STRING = re.compile(r"""(['"])((?:(?!\1)[^\\\n]|\\.)*)\1[ \t\r\n]*:[ \t\r\n]*""")
_SCALAR = re.compile(r"[^,}\]\n]*")
_WS = re.compile(r"[ \t\r\n]*")


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a conversation.

    Attributes:
        start, end: its span (characters): from its marker (a speaker line, a cue, a
            message object) to the last non-whitespace character before the next turn
            (a cue: before a WebVTT ``NOTE``, ``STYLE`` or ``REGION`` block; text between
            turns belongs to none).
        speaker: the speaker as written (``"Ana"``, ``"Q"``, ``"assistant"``), or None.
        start_time, end_time: times as written in the source (``"00:01:02"``,
            ``"2024-01-02 10:00"``, ``"00:00:01,000"``), or None.
        head: the span of the text naming its speaker and time (the ``Name:`` of a line,
            a cue's number and timing line, a message's role), or None: a chunk holding
            it names the turn itself; one that does not gets the speaker in its context.
        question: whether the turn asks a question (its text ends with a question mark,
            or its speaker is ``Q``/``Question``).
        body: where the turn's own text starts (after a speaker line's ``Name:``, a
            cue's timing line and voice, a message's opening up to its content).
        colon: the colon the source writes after the speaker (``":"``, or the
            full-width ``"\uff1a"`` of ``张三：你好``), for a context naming the speaker.
    """

    start: int
    end: int
    speaker: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    head: tuple[int, int] | None = None
    question: bool = False
    body: int = 0
    colon: str = ":"


@dataclass(frozen=True, slots=True)
class Transcript:
    """The turns of a text.

    Attributes:
        kind: the format read: ``"lines"``, ``"subtitles"``, ``"json"``, ``"chat"``
            (a document of the chat loader), ``"pattern"`` (``turn_pattern=``) or
            ``"none"`` (no turn found).
        turns: the turns in document order (spans do not overlap).
        conversations: indices of the turns that start a new conversation after the
            first (a JSON list of messages after another).
    """

    kind: str
    turns: tuple[Turn, ...] = ()
    conversations: tuple[int, ...] = ()

    def starts(self) -> list[int]:
        """The start offsets of the turns."""
        return [t.start for t in self.turns]

    def turn_at(self, offset: int) -> int:
        """The index of the turn whose span starts at or before ``offset`` (-1: none)."""
        return bisect_right(self.starts(), offset) - 1


_Mark = tuple  # (start, body start, speaker, start_time, end_time, head[, body end])


_SPACE_RUN = re.compile(r"\s*")


def _close(text: str, marks: list[_Mark]) -> list[Turn]:
    """Turns from their marks ``(start, body, speaker, start_time, end_time, head)`` and
    optionally where the body ends (a message's content; default: the turn's end): each
    runs to the next one's start (trailing whitespace trimmed)."""
    out: list[Turn] = []
    n = len(text)
    nxt = [m[0] for m in marks[1:]]
    nxt.append(n)
    space = _SPACE_RUN.match
    question_end = _QUESTION_END.search
    for mark, stop in zip(marks, nxt):
        s, body, speaker, t0, t1, head = mark[0], mark[1], mark[2], mark[3], mark[4], mark[5]
        e = stop
        while e > s and text[e - 1].isspace():
            e -= 1
        if e <= s:
            continue
        be = mark[6] if len(mark) > 6 and mark[6] < e else e
        b = space(text, body, e).end() if body < e else e  # type: ignore[union-attr]
        if speaker is not None and speaker.casefold() in _QUESTION_SPEAKERS:
            question = True
        else:
            question = question_end(text, be - 8 if be - 8 > body else body, be) is not None
        colon = ":"
        if head is not None and speaker is not None and text[s] not in "{[" and "\uff1a" in text[head[0] : head[1]]:
            colon = "\uff1a"
        out.append(Turn(s, e, speaker, t0, t1, head, question, b if b > s else s, colon))
    return out


# -- lines ------------------------------------------------------------------------


def _line_marks(text: str, pattern: re.Pattern[str], default: bool) -> list[_Mark]:
    marks: list[_Mark] = []
    append = marks.append
    if default:
        lower: list[bool] = []  # a "name" that starts with a lower-case letter
        for m in pattern.finditer(text):
            speaker = m.group("speaker") or m.group("nick")
            if not _is_name(speaker):
                speaker = _phone(m)
                if speaker is None:
                    continue
            s, e = m.span()
            while text[s] in " \t":
                s += 1
            t = m.group("t1") or m.group("t2") or m.group("t3")
            name = speaker.strip()
            append((s, e, name, t, None, (s, e)))
            lower.append(
                m.group("nick") is None and t is None and name[0].islower() and name.casefold() not in _ROLE_NAMES
            )
        # where the speakers' names are capitalised (four turns in five or more), a
        # lower-case word before a colon that comes back less than three times is a line
        # of verse or prose ("Hear me profess / sincerely: had I ..."), not a speaker (a
        # participant of a chat with a lower-case name speaks more often, or has a time)
        if len(lower) >= 5 and 5 * sum(lower) <= len(lower):
            seen: dict[str, int] = {}
            for mk, low in zip(marks, lower):
                if low:
                    seen[mk[2]] = seen.get(mk[2], 0) + 1
            marks = [mk for mk, low in zip(marks, lower) if not low or seen[mk[2]] >= 3]
        if any(mk[3] is not None for mk in marks):
            marks = _stamp_marks(text, marks)
        return marks
    names = pattern.groupindex
    for m in pattern.finditer(text):
        s, e = m.span()
        if s == e:
            continue
        speaker = (m.group("speaker") if "speaker" in names else None) or (m.group("name") if "name" in names else None)
        t = m.group("time") if "time" in names else None
        while s < e and text[s] in " \t":
            s += 1
        append((s, e, speaker.strip() if speaker else None, t, None, (s, e)))
    return marks


# a line that starts with a time stamp but names no speaker: a chat export's system line
# ("12/03/2024, 09:21 - Ana joined using this group's invite link")
_STAMP_LINE = re.compile(
    rf"^{_LEAD}(?:\[(?P<t1>{_STAMP})\]{_LEAD}(?:-[ \t]+)?|\((?P<t2>{_STAMP})\){_LEAD}(?:-[ \t]+)?"
    rf"|(?P<t3>{_STAMP})[ \t]+-[ \t]+)(?=\S)",
    re.MULTILINE,
)


def _stamp_marks(text: str, marks: list[_Mark]) -> list[_Mark]:
    """``marks`` (turn lines of a text whose turns carry times) with a turn of no speaker
    at each other line that starts with a time stamp (a chat export's system line: a
    member joined, the chat is encrypted), so that it is not read as the words of the
    speaker before it."""
    taken = {mk[0] for mk in marks}
    extra: list[_Mark] = []
    for m in _STAMP_LINE.finditer(text):
        s = m.start()
        while text[s] in " \t":
            s += 1
        if s in taken:
            continue
        extra.append((s, m.end(), None, m.group("t1") or m.group("t2") or m.group("t3"), None, (s, m.end())))
    return sorted(marks + extra, key=lambda mk: mk[0]) if extra else marks


# labels that introduce a field, an admonition or a part of a document, not a person:
# ``Note:``, ``Ingredients:``, ``Author:``, ``Signed-off-by:``, ``Step 2:``
_LABELS = frozenset(
    """
    note notes nb n.b. warning warnings caution danger important attention tip tips hint
    remark remarks see aside disclaimer update edit todo fixme xxx bug bugs fix fixes
    example examples e.g. usage syntax output input result results returns return
    parameters arguments args options default defaults type types value values
    ingredients ingredient directions instructions method preparation serves servings
    yield makes equipment
    title subtitle author authors date updated created modified version status subject
    summary description abstract keywords tags tag category categories source sources
    license licence copyright url urls homepage website web email e-mail phone tel fax
    address location contact contacts from to cc bcc reply-to sent via
    signed-off-by reviewed-by acked-by tested-by reported-by co-authored-by suggested-by
    requested-by closes change-id commit merge cherry-picked
    package maintainer depends section priority architecture origin format files
    what why when where how who prerequisites requirements
    step chapter part figure fig table appendix item exercise solution lemma theorem proof
    definition
    """.split()
)
_COUNT = re.compile(r"\(\d+\)$")  # ``Jeff King (5):``: a shortlog's count of commits
_FILE_LIKE = re.compile(r"\w\.[a-z]{1,4}$")  # ``Lower.c``, ``autogen.sh``: a file, not a name


def _is_name(speaker: str | None) -> bool:
    """Whether a ``Name:`` of :data:`LINE_TURN` reads as a speaker: at most 40 characters,
    every word after the first capitalised (or of a script without case) or a number (``Dr. Lee``, ``Speaker 2``; not
    ``It goes on``), not a label of a field, an admonition or a part of a document
    (``Note``, ``Ingredients``, ``Author``, ``Signed-off-by``, ``Step 2``: see
    ``_LABELS``; its first word decides) and not a file name (``setup.py``)."""
    if not speaker or len(speaker) > _MAX_NAME:
        return False
    words = speaker.split()
    first = words[0].strip("*_").casefold()
    if first in _LABELS or first.endswith("-by") or _FILE_LIKE.search(words[0]):
        return False
    if len(words) == 1:
        return True
    if _COUNT.search(speaker):
        return False
    # a capital, or a letter of a script without case (Thai, Chinese, Arabic names)
    return all((w[0].isalpha() and not w[0].islower()) or w[0].isdigit() or w[0] == "(" for w in words[1:])


def line_turns(text: str, pattern: re.Pattern[str] | None = None) -> list[Turn]:
    """Turns that start at lines matching ``pattern`` (default :data:`LINE_TURN`)."""
    return _close(text, _line_marks(text, pattern or LINE_TURN, pattern is None))


# -- subtitles --------------------------------------------------------------------


_ARROW_LINE = re.compile(r"^[ \t]*[^\n]*-->[^\n]*$", re.MULTILINE)


def _time_ok(value: str) -> bool:
    """Whether a cue time is in range: minutes and seconds below 60."""
    parts = value.replace(",", ".").split(":")
    return int(parts[-1].split(".")[0]) < 60 and int(parts[-2]) < 60


def _cue_start(text: str, ts: int) -> int:
    """The start of the cue whose timing line starts at ``ts``: the identifier line right
    above it (a cue number), else the timing line."""
    if ts == 0:
        return ts
    prev_end = ts - 1
    if text[prev_end] == "\n" and prev_end > 0 and text[prev_end - 1] == "\r":
        prev_end -= 1
    prev_start = text.rfind("\n", 0, prev_end) + 1
    line = text[prev_start:prev_end]
    if line.strip() and "-->" not in line and not line.lstrip().startswith(("WEBVTT", "NOTE")):
        return prev_start + (len(line) - len(line.lstrip()))
    return ts


def _block_head(text: str, ts: int) -> bool:
    """Whether the line at ``ts`` starts a block (after a blank line, a ``WEBVTT`` header
    line or the text's start) or follows a line that does (a cue identifier)."""
    for _ in range(2):
        if ts == 0:
            return True
        prev_end = ts - 1
        if prev_end > 0 and text[prev_end - 1] == "\r":
            prev_end -= 1
        prev_start = text.rfind("\n", 0, prev_end) + 1
        line = text[prev_start:prev_end]
        if not line.strip() or line.lstrip().startswith("WEBVTT"):
            return True
        ts = prev_start
    return False


def cue_problems(text: str) -> list[tuple[int, str, str]]:
    """The malformed timing lines of a subtitle text: ``(offset, line, why)`` for each
    line with ``-->`` at a cue's head (first line of a block, or after its identifier)
    that is not ``start --> end`` with two well-formed times (``00:00:01,000``,
    ``00:01.000``: milliseconds given, minutes and seconds below 60). Such a cue is read
    as a turn without times (its text kept). Lines may end with a lone carriage return."""
    return _cue_problems(line_feed_twin(text) or text)


def _cue_problems(text: str) -> list[tuple[int, str, str]]:
    """:func:`cue_problems` of a text without a lone carriage return."""
    out: list[tuple[int, str, str]] = []
    for m in _ARROW_LINE.finditer(text):
        line = m.group().strip()
        s = m.start() + (len(m.group()) - len(m.group().lstrip()))
        t = _TIMING.match(text, m.start())
        if t is not None and t.end() == m.end():
            bad = [v for v in (t.group("start"), t.group("end")) if not _time_ok(v)]
            if bad:
                out.append((s, line, f"time {bad[0]} out of range (minutes and seconds are 00 to 59)"))
            continue
        if _block_head(text, s):
            out.append((s, line, "not a timing line start --> end (times like 00:00:01,000 or 00:01.000)"))
    return out


def subtitle_turns(text: str, strict: bool = False) -> list[Turn]:
    """SRT and WebVTT cues: a cue (its number or identifier line, its timing line, its
    text) is a turn; WebVTT's ``NOTE``, ``STYLE`` and ``REGION`` blocks are no cue's
    text (a cue ends at the blank line before one; the block lies between turns). Each
    cue is read on its own: a cue whose timing line is malformed or out of range (see
    :func:`cue_problems`) is a turn without times, its text kept -- in a subtitle file
    (``strict``) or among well-formed cues -- not text of the cue before it."""
    marks = []
    problems = {off: why for off, _, why in _cue_problems(text)}
    for m in _TIMING.finditer(text):
        ts = m.start()
        while text[ts] in " \t":
            ts += 1
        if ts in problems:
            continue
        start = _cue_start(text, ts)  # an identifier line right above it belongs to the cue
        body = m.end()
        while body < len(text) and text[body] in "\r\n":
            body += 1
        speaker, head_end = _cue_speaker(text, body, len(text), names_only=False) or (None, m.end())
        marks.append((start, head_end, speaker, m.group("start"), m.group("end"), (start, head_end)))
    if problems and (strict or marks):
        for ts in problems:
            start = _cue_start(text, ts)
            nl = text.find("\n", ts)
            body = nl + 1 if nl >= 0 else len(text)
            while body < len(text) and text[body] in "\r\n":
                body += 1
            line_end = nl if nl >= 0 else len(text)
            if text[line_end - 1 : line_end] == "\r":
                line_end -= 1
            speaker, head_end = _cue_speaker(text, body, len(text)) or (None, line_end)
            marks.append((start, head_end, speaker, None, None, (start, head_end)))
        marks.sort(key=lambda mk: mk[0])
    marks = _cue_lines(text, marks)
    turns = _close(text, marks)
    # a WebVTT NOTE, STYLE or REGION block after a cue is not the cue's text: the cue ends
    # at the blank line before it, and the block lies between turns
    for k, t in enumerate(turns):
        b = VTT_BLOCK.search(text, t.body, t.end)
        if b is not None:
            e = b.start()
            while e > t.body and text[e - 1].isspace():
                e -= 1
            turns[k] = replace(t, end=max(e, t.body if t.body > t.start else t.start + 1))
    return turns


_NEXT_LINE = re.compile(r"\r?\n")


def _cue_lines(text: str, marks: list[_Mark]) -> list[_Mark]:
    """Cue marks with a turn added at each later line of a cue's text that names another
    speaker (``MARY: Out.`` then ``- JOHN: Out where?``): that line is a turn of its own,
    with the cue's times; a ``Name:`` that reads as a label (``Note:``) is not a speaker."""
    out: list[_Mark] = []
    for k, mk in enumerate(marks):
        out.append(mk)
        stop = marks[k + 1][0] if k + 1 < len(marks) else len(text)
        for nl in _NEXT_LINE.finditer(text, mk[1], stop):
            found = _cue_speaker(text, nl.end(), stop, voice=_LINE_VOICE)
            if found is None:
                continue
            name, end = found
            s = nl.end()
            while text[s] in " \t":
                s += 1
            out.append((s, end, name, mk[3], mk[4], (s, end)))
    return out


def _cue_speaker(
    text: str, pos: int, stop: int, *, voice: re.Pattern[str] = _VOICE, names_only: bool = True
) -> tuple[str, int] | None:
    """The speaker a cue text line at ``pos`` names and where its marker ends: a WebVTT
    voice span (``<v Ben>``, whatever the name looks like), else ``Name:`` / ``[Name]``
    (with ``names_only``, not a label such as ``Note:``); None when it names none."""
    v = voice.match(text, pos, stop)
    if v is not None:
        return v.group("speaker").strip(), v.end()
    c = _CUE_SPEAKER.match(text, pos, stop)
    if c is None:
        return None
    name = (c.group("b") or c.group("speaker")).strip()
    if names_only and not _is_name(name):
        return None
    return name, c.end()


# -- JSON chat messages ----------------------------------------------------------


_BRACKET_OR_QUOTE = re.compile(r"""["'{}\[\]]""")


def _closers(text: str) -> dict[int, int]:
    """For each ``{`` and ``[`` of ``text`` that is closed, the offset after its closing
    bracket: one pass left to right, strings skipped whole (a string runs to the end of
    its line at most)."""
    out: dict[int, int] = {}
    stack: list[int] = []
    search = _BRACKET_OR_QUOTE.search
    i = 0
    while (m := search(text, i)) is not None:
        j = m.start()
        ch = text[j]
        if ch in _STRING:
            i = _STRING[ch].match(text, j).end()  # type: ignore[union-attr]
            continue
        if ch in "{[":
            stack.append(j)
        elif stack:
            out[stack.pop()] = j + 1
        i = j + 1
    return out


def _skip_value(text: str, i: int, n: int, closers: list[dict[int, int]]) -> int:
    """The end of the JSON or Python value starting at ``i``: a string, an object or list
    skipped whole (one never closed runs to the end of the text), or a scalar.
    ``closers`` holds :func:`_closers` of the text once a value needs it (computed then,
    once: a text of a thousand unclosed ``[`` costs one pass, not a thousand)."""
    c = text[i] if i < n else ""
    if c in _STRING:
        return _STRING[c].match(text, i).end()  # type: ignore[union-attr]
    if c in "{[":
        if not closers:
            closers.append(_closers(text))
        return closers[0].get(i, n)
    return _SCALAR.match(text, i).end()  # type: ignore[union-attr]


def _message(text: str, i: int, closers: list[dict[int, int]]) -> tuple[int, dict[str, tuple[int, int, str]]] | None:
    """The message object starting at ``text[i] == "{"``: its end and its string fields
    ``key -> (value start, value end, raw value)`` (inside the quotes; for an object or
    list value, the whole value and ``""``), or None."""
    n = len(text)
    j = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
    fields: dict[str, tuple[int, int, str]] = {}
    while j < n:
        if text[j] == "}":
            return j + 1, fields
        k = _KEY_STRING.match(text, j)
        if k is None:
            return None
        key = k.group(2)
        j = k.end()
        if j >= n:
            break
        e = _skip_value(text, j, n, closers)
        if text[j] in _STRING:
            close = e - 1 if e - 1 > j and text[e - 1] == text[j] else e
            fields[key] = (j + 1, close, text[j + 1 : close])
        elif text[j] in "{[":  # content parts: the whole value
            fields[key] = (j, e, "")
        elif key in _CONTENT_KEYS and text.startswith(("null", "None"), j):  # a tool call's "content": null
            fields[key] = (j, j, "")
        j = _WS.match(text, e).end()  # type: ignore[union-attr]
        if j < n and text[j] == ",":
            j = _WS.match(text, j + 1).end()  # type: ignore[union-attr]
        elif j >= n or text[j] != "}":
            if j < n and text[j] == "\n" or j >= n:
                break  # cut off: the message ends where its text does
            return None
    return (j if j <= n else n), fields


def json_turns(text: str) -> tuple[list[Turn], list[int]]:
    """JSON chat messages anywhere in ``text``: turns and the indices of turns that start
    a new conversation (a message right after ``[``, after the first)."""
    marks = []
    new_conv: list[int] = []
    pos = 0
    n = len(text)
    closers: list[dict[int, int]] = []
    for m in _MESSAGE_START.finditer(text):
        i = m.start()
        if i < pos:
            continue
        found = _message(text, i, closers)
        if found is None:
            continue
        end, fields = found
        role_key = next((k for k in _ROLE_KEYS if k in fields and fields[k][2].strip()), None)
        content_key = next((k for k in _CONTENT_KEYS if k in fields), None)
        calls_key = next((k for k in _CALL_KEYS if k in fields), None)
        if content_key is None or fields[content_key][0] == fields[content_key][1]:
            content_key = calls_key  # a tool call: its calls are the message's text
        if content_key is None:
            continue
        cs, ce, _ = fields[content_key]
        if role_key is None:
            # a message cut off before its role (a truncated file): a turn of no known
            # speaker when it follows a message of the list, rather than text of the turn
            # before it (which would give its words to the wrong speaker)
            if not marks or text[end - 1] == "}" or text[pos:i].strip() not in ("", ","):
                continue
            marks.append((i, cs, None, None, None, None, ce))
            pos = end
            continue
        rs, re_, role = fields[role_key]
        # the list's "[" goes with its first message
        p = i - 1
        while p >= 0 and text[p] in " \t\r\n":
            p -= 1
        start = i
        if p >= 0 and text[p] == "[":
            start = p
            if marks:
                new_conv.append(len(marks))
        marks.append((start, cs, role.strip() or None, None, None, (max(rs - 1, i), min(re_ + 1, n)), ce))
        pos = end
    return _close(text, marks), new_conv  # a turn starts with "{" or "[": none is dropped


# -- the chat loader's documents -------------------------------------------------


def chat_turns(text: str, roles: Sequence[str], starts: Sequence[int] | None = None) -> list[Turn]:
    """Turns of a document made by the chat loader: one ``role: content`` turn per
    message. ``starts`` (when the loader recorded them: a content line that reads like a
    turn) are the exact turn starts; else a turn starts at each line ``role: `` of a role
    in ``roles``."""
    ordered = sorted({r for r in roles if r}, key=len, reverse=True)
    if not ordered:
        return []
    if starts is None:
        alts = "|".join(re.escape(r) for r in ordered)
        starts = [m.start() for m in re.finditer(rf"^(?:{alts}):(?=[ \t]|$)", text, re.MULTILINE)]
    marks = []
    for s in starts:
        role = next((r for r in ordered if text.startswith(r + ":", s)), None)
        if role is None:
            continue
        marks.append((s, s + len(role) + 1, role, None, None, (s, s + len(role) + 1)))
    return _close(text, marks)


# -- the entry points ------------------------------------------------------------


def find_turns(
    text: str,
    *,
    format: str | None = None,
    pattern: re.Pattern[str] | None = None,
    roles: Sequence[str] | None = None,
    starts: Sequence[int] | None = None,
) -> Transcript:
    """The turns of ``text``.

    Args:
        text: the document text.
        format: the document's ``metadata["format"]`` (``"chat"``, ``"srt"``, ``"vtt"``
            read their own way; anything else is detected).
        pattern: a compiled multi-line pattern that starts a turn at each match (groups
            ``speaker`` or ``name``, and ``time``, optional); replaces detection.
        roles, starts: for a ``"chat"`` document, its roles and, when recorded, its turn
            starts (see :func:`chat_turns`).

    Returns:
        A :class:`Transcript`. Detection order: subtitle cues, JSON chat messages, then
        turn lines; the first format that finds turns wins. A text whose lines end with
        a lone carriage return is read as its line-feed twin (the same offsets), unless
        ``pattern`` names a carriage return itself (:func:`names_carriage_return`).

    Example:
        >>> t = find_turns("Ana: Hi.\\nBen: Why?\\nAna: Because.\\n")
        >>> [(x.speaker, x.start, x.end, x.question) for x in t.turns]
        [('Ana', 0, 8, False), ('Ben', 9, 18, True), ('Ana', 19, 32, False)]
    """
    twin = line_feed_twin(text)
    if twin is not None and not names_carriage_return(pattern):
        text = twin
    if pattern is not None:
        turns = _close(text, _line_marks(text, pattern, False))
        return Transcript("pattern" if turns else "none", tuple(turns))
    if format == "chat" and roles is not None:
        turns = chat_turns(text, roles, starts)
        if turns:
            return Transcript("chat", tuple(turns))
    if format in ("srt", "vtt") or "-->" in text:
        turns = subtitle_turns(text, strict=format in ("srt", "vtt"))
        if turns:
            return Transcript("subtitles", tuple(turns))
    if "{" in text:
        jt, conv = json_turns(text)
        if jt:
            return Transcript("json", tuple(jt), tuple(conv))
    turns = line_turns(text)
    if turns:
        return Transcript("lines", tuple(turns))
    return Transcript("none")


def names_carriage_return(pattern: re.Pattern[str] | None) -> bool:
    """Whether a turn pattern names a carriage return itself (the character, or ``\\r``):
    such a pattern reads a text with a lone carriage return as it is, not as its
    line-feed twin, as a separator that names one does for the packer."""
    if pattern is None:
        return False
    from ..packer import _NAMES_CR

    return _NAMES_CR.search(pattern.pattern) is not None


_LINE_END = re.compile(r"[ \t]*(?:\r?\n|$)")
# below a line: (blank lines, then) a list item or an indented line
_LIST_BELOW = re.compile(r"[ \t]*(?:\r?\n[ \t]*)*\r?\n(?:[ \t]*(?:[-*+\u2022]|\d{1,3}[.)])[ \t]|(?: {4}|\t)[ \t]*\S)")
_ROLE_NAMES = frozenset({"user", "assistant", "system", "human", "gpt", "bot", "ai", "model", "q", "a"})


def looks_like_conversation(text: str, *, max_chars: int = 20_000) -> bool:
    """Whether a plain text reads as a transcript: among its first ``max_chars``
    characters, at least four turn lines (:data:`LINE_TURN`) whose speaker reads as a
    person (a name that starts with a capital letter or a letter of a script without
    case -- Chinese, Arabic, Thai --, an IRC ``<nick>``, or a chat role: ``user``,
    ``assistant``, ``Q``, ...; not a label such as ``Note:``), making at
    least half of the non-blank lines; at least two speakers who speak twice or more;
    and the speaker changes at least at every other turn.

    A play or screenplay, whose speaker stands alone on a line above the speech, needs
    turn lines in a fifth of the lines only (when four turns in five are written so);
    a name alone above a list or indented lines is a heading, not a speaker. Records
    (blocks of the same three or more ``Key:`` lines, as in Debian's control files) are
    not a conversation.

    Why each rule: a README's ``Note:`` or ``Warning:`` lines and a recipe's
    ``Ingredients:`` are labels, not speakers (the label list, and labels seldom make
    half the lines); a changelog's ``cli:``, ``build:`` prefixes are lower-case topics;
    a list whose lines all start with the same label does not alternate; dialogue needs
    two voices that each come back. Tested on the README, NEWS, changelog and copyright
    files of a Debian system (none is taken for a conversation) and on a play.

    Cheap (one regular expression over the first lines): ``auto`` asks it of plain text.

    Example:
        >>> looks_like_conversation("Ana: Hi.\\nBen: Hello.\\nAna: Ready?\\nBen: Yes.\\n")
        True
        >>> looks_like_conversation("Title: A report\\nAuthor: Ana\\nDate: today\\n\\nText.\\n")
        False
    """
    # (lone carriage returns end lines: the head read as its line-feed twin; one more
    # character read, so that a "\r\n" cut at the limit is no lone "\r")
    twin = line_feed_twin(text[: max_chars + 1])
    head = (twin or text)[:max_chars]
    lines = sum(1 for line in head.splitlines() if line.strip())
    if lines < 4:
        return False
    counts: dict[str, int] = {}
    turns = changes = alone = listed = 0
    last = None
    for m in LINE_TURN.finditer(head):
        nick = m.group("nick")
        speaker = m.group("speaker") or nick
        if not _is_name(speaker):
            speaker = nick = _phone(m)  # a phone number reads as a person, as a nick does
            if speaker is None:
                continue
        key = speaker.strip().casefold()
        if nick is None and speaker[:1].islower() and key not in _ROLE_NAMES:
            continue  # ``cli:``, ``tests:``: a topic of a changelog line
        turns += 1
        counts[key] = counts.get(key, 0) + 1
        changes += last is not None and key != last
        last = key
        if _LINE_END.match(head, m.end()) is not None:
            alone += 1
            listed += _LIST_BELOW.match(head, m.end()) is not None
    # a play or screenplay names the speaker on a line of its own, the speech below it:
    # there turn lines are fewer (a fifth of the lines or more, when four in five turns
    # have their speaker alone on the line); a heading over a list or indented lines
    # ("ENHANCEMENTS:" over "* ..." items, "Jeff King (5):" over commit subjects) is not
    share = 5 if 5 * alone >= 4 * turns else 2
    if turns < 4 or share * turns < lines or 2 * changes < turns - 1 or 2 * listed >= turns:
        return False
    return sum(1 for c in counts.values() if c >= 2) >= 2 and not _records(head)


def _records(head: str) -> bool:
    """Whether ``head`` is a run of records (Debian control files, mail headers): most of
    its blocks of two or more ``Key:`` lines (blocks split at blank lines; labels
    counted too) give the same sequence of three or more distinct keys."""
    blocks: dict[tuple[str, ...], int] = {}
    for block in re.split(r"\n[ \t]*\r?\n", head):
        keys = tuple(
            (m.group("speaker") or "").strip().casefold() for m in LINE_TURN.finditer(block) if m.group("speaker")
        )
        if len(keys) >= 2:
            blocks[keys] = blocks.get(keys, 0) + 1
    if not blocks:
        return False
    keys, n = max(blocks.items(), key=lambda kv: kv[1])
    return n >= 2 and len(set(keys)) >= 3 and 2 * n >= sum(blocks.values())


def speakers_in_order(turns: Iterable[Turn]) -> list[str]:
    """The speakers of ``turns`` in order of first appearance (None left out)."""
    seen: dict[str, None] = {}
    for t in turns:
        if t.speaker is not None and t.speaker not in seen:
            seen[t.speaker] = None
    return list(seen)
