"""Conversations by speaker turns: transcripts, chat logs, subtitles, JSON chat messages.

The turn parser (:mod:`chunkwise.parsers.conversation`) finds every turn with exact
offsets -- its speaker, its times, whether it asks a question -- and the one packer packs
them:

* a turn is atomic while it fits (its exact size in the unit: a cheap upper bound only
  rules turns in, never out): a chunk ends between turns (the strongest boundary);
* a turn larger than the budget starts a chunk (no piece of it joins the text before:
  a cue's number never ends the cue before) and is split like ``recursive`` splits text
  (paragraphs, lines, sentences, words; in JSON messages also the escaped line breaks of
  the content); its marker goes with the first word when both fit (never a chunk of its
  own then: a cue's number, timing line and settings lead the cue's first word even where
  that cuts its first line), else its speaker's label goes with the first word, else it
  is cut after the marker; every chunk that starts inside it has its speaker (and time)
  in ``chunk.context`` (``"Ana:"``, ``"[00:01:02] Ana:"``; less what the chunk itself
  begins with) and ``metadata["speaker"]``;
* a question turn stays with the answer that follows when both fit in one chunk
  (``pair_questions``; in JSON chat messages a prompt, ``user``, before a reply,
  ``assistant``, is paired as a question is); when the answer does not fit even alone and
  the question takes at most half the budget, the question starts the chunk of the
  answer's first part instead of standing alone (a chunk of nothing but a question
  answers nothing, yet it is what a searched question resembles most). With an overlap,
  an answer larger than ``chunk_size - chunk_overlap`` that fits ``chunk_size`` is not
  cut: it goes whole with its question when both fit ``chunk_size``, else alone;
* ``max_turns`` bounds the turns of a chunk (the turns are taken in consecutive groups of
  at most ``max_turns``, a question not parted from its answer, and each group is packed
  on its own); each JSON list of messages is a conversation packed on its own.

Method:
    Turn-atomic dialogue chunking with speaker attribution (the behaviour asked of
    chonkie in its issue #658; LangChain and LlamaIndex have no dialogue splitter), on
    chunkwise's one packer: turns are atoms and the strongest level, question-answer
    pairs are glue.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..boundaries import LINE, Level, PositionsLevel, RegexLevel, line_feed_twin
from ..errors import ConfigError
from ..merge import Span
from ..packer import OVERSIZE_POLICIES, OversizePolicy, pack_segments
from ..parsers.conversation import VTT_BLOCK, Transcript, Turn, find_turns, names_carriage_return
from ..registry import register
from ..segments import Atom, Label, Region, Segments
from ..sizers import Measure
from ..types import Document
from .base import BaseChunker
from .recursive import DEFAULT_LEVELS
from .table import _Within, size_bound

__all__ = ["ConversationChunker"]

_KEY = "_conversation"
_SPACE = re.compile(r"\s*")
_WORD_END = re.compile(r"\s")

# the line breaks of a JSON string's content, written as escapes: a cut after them
_ESCAPED_PARAGRAPH = RegexLevel("paragraph", re.compile(r"(?:\\r)?\\n(?:\\r)?\\n(?:\\[rnt])*"), keep_separator="end")
_ESCAPED_LINE = RegexLevel("line", re.compile(r"(?:\\r)?\\n(?:\\t)*"), keep_separator="end")
# a sentence too big for a chunk is cut after a comma, semicolon or colon before a word
_PHRASE = RegexLevel("clause", re.compile(r"(?<=[,;:])[ \t]+"), whitespace=True)
# inside a turn: the recursive levels, with clauses between sentences and words
_INNER: tuple[Level, ...] = (*DEFAULT_LEVELS[:-2], _PHRASE, *DEFAULT_LEVELS[-2:])
# inside a cue: its lines before its sentences (a cue's number, timing line and text
# lines are lines of their own, and a subtitle line is a unit of display)
_CUE_INNER: tuple[Level, ...] = (*DEFAULT_LEVELS[:3], LINE, *(lv for lv in _INNER[3:] if lv is not LINE))


@dataclass(frozen=True, eq=False)
class _Info:
    """The label value: the transcript and its turn starts, for the enrichment pass."""

    transcript: Transcript
    starts: tuple[int, ...]
    parts: tuple[tuple[int, int], ...] = ()


def _head_parts(text: str, t: Turn) -> tuple[int, int]:
    """Where turn ``t``'s marker writes its start time and its speaker before the turn's
    text (offsets; -1: not written there): a chunk that holds one of them needs it in no
    context."""
    if t.head is None:
        return -1, -1
    h0, h1 = t.head[0], min(t.head[1], t.body) if t.head[0] < t.body else -1
    if h1 < 0:  # a head after the text (a message whose role follows its content)
        return -1, -1
    tp = text.find(t.start_time, h0, h1) if t.start_time else -1
    np_ = text.rfind(t.speaker, h0, h1) if t.speaker else -1
    return tp, np_


def _span(t: Turn) -> tuple[int, int]:
    return t.start, t.end


# a WebVTT block that is not a cue: its keyword and the first word of its text
_BLOCK_WORD = re.compile(r"(?:NOTE|STYLE|REGION)[ \t]*\r?\n?[ \t]*\S+")

# a WebVTT file's header line (a title may follow it): with the "Kind:" and "Language:"
# lines under it, the header that leads the first cue
_VTT_HEADER = re.compile(r"\ufeff?WEBVTT(?=[ \t\r\n]|$)")


# chat messages: a prompt's role and the roles that answer it (OpenAI, ShareGPT,
# Gemini, Open Assistant); a prompt is paired with the reply after it as a question is
_PROMPT_ROLES = frozenset({"user", "human", "prompter"})
_REPLY_ROLES = frozenset({"assistant", "gpt", "model", "bot", "ai", "chatgpt", "claude"})


def _stamp_end(text: str, t: Turn) -> int:
    """Where the time stamp that starts turn ``t`` ends (after its closing bracket), or
    ``t.start`` when it has none."""
    if t.start_time is None:
        return t.start
    i = text.find(t.start_time, t.start, t.body)
    if i < 0:
        return t.start
    e = i + len(t.start_time)
    if e < t.body and text[e] in ")]":
        e += 1
    return e


def _name_start(text: str, t: Turn, cue: bool) -> int:
    """Where the label naming turn ``t``'s speaker starts in its marker: the speaker's
    name in a speaker line (after its time stamp); in a cue, the line that names it
    (``Ana: ...``, ``<v Ana>...``, ``- [Ana] ...``); -1 when the marker names nobody
    before the text."""
    np_ = _head_parts(text, t)[1]
    if np_ < 0 or not cue:
        return np_
    s = text.rfind("\n", t.start, np_) + 1
    while s < np_ and text[s] in " \t":
        s += 1
    return s if s > t.start else -1


def _asks(t: Turn, u: Turn, chat: bool) -> bool:
    """Whether turn ``t`` asks what ``u`` answers: a question followed by another speaker,
    or in chat messages a prompt followed by a reply (``user`` then ``assistant``)."""
    if t.question:
        return t.speaker is None or u.speaker is None or t.speaker != u.speaker
    if not chat or t.speaker is None or u.speaker is None:
        return False
    return t.speaker.casefold() in _PROMPT_ROLES and u.speaker.casefold() in _REPLY_ROLES


def _pairs(turns: tuple[Turn, ...], chat: bool = False) -> list[int]:
    """Indices ``k`` of questions kept with the answer ``k + 1`` (see :func:`_asks`);
    pairs never chain (a question that answers one is not paired again)."""
    out: list[int] = []
    k = 0
    while k + 1 < len(turns):
        if _asks(turns[k], turns[k + 1], chat):
            out.append(k)
            k += 2
        else:
            k += 1
    return out


@register("conversation")
@dataclass(frozen=True, kw_only=True)
class ConversationChunker(BaseChunker):
    """Chunk dialogue by speaker turns, with the speaker of a split turn in ``context``.

    Args:
        chunk_size, chunk_overlap, unit, tokenizer: see :class:`BaseChunker` (an overlap
            stays inside its conversation or turn group).
        turn_pattern: a regular expression (a string or compiled pattern, read with
            ``re.MULTILINE``) that starts a turn at each match, for formats not recognised
            without it; its group ``speaker`` (or ``name``; one of them is required) names
            the speaker and ``time`` the time. Default: detected (see :func:`chunkwise.parsers.conversation.find_turns`:
            ``Name: text`` lines with optional time stamps, chat exports, SRT and WebVTT
            cues, JSON chat messages).
        max_turns: the most turns a chunk holds (None: no bound but the size).
        pair_questions: keep a question turn (ending with ``?``, or by ``Q``/``Question``;
            in JSON chat messages also a ``user``/``human`` prompt before an
            ``assistant``/``gpt``/``model`` reply) with the answer after it when both fit
            in one chunk; when the answer alone is larger than the budget and the
            question at most half of it, the question goes with the answer's first part
            (with an overlap: only an answer larger than ``chunk_size``, or one that
            fits ``chunk_size`` with its question; see the module's notes).
        oversize: a turn larger than ``chunk_size``: ``"split"`` (default; by paragraphs,
            lines, sentences, words), ``"keep"`` whole (flagged ``metadata["oversize"]``)
            or ``"raise"`` :class:`~chunkwise.errors.OversizeError`.
        include_context_in_size: count ``chunk.context`` (and the line break after it)
            against ``chunk_size``: the chunks of a turn too big for one chunk, from a
            split turn to the next turn that starts a chunk, keep room for the longest
            speaker context of such a turn, except the turn's first chunk (it holds the
            speaker line and gets no context; with ``chunk_overlap`` it keeps the room
            too); a context over half the budget loses its time, then is left out.
        speaker_context: put the speaker (and time) of a split turn in ``chunk.context``
            (default). False: ``context`` stays empty, the speaker is only in
            ``metadata["speaker"]``, and the chunk is embedded as its own text -- for chat
            logs whose speakers are roles (``user``, ``assistant``), where the same role
            word in front of most chunks makes them alike to an embedding model
            (EVALUATION.md, "Conversations").

    Text with no turns is packed as ``"recursive"`` packs it; text before the first turn
    (a title) is packed with the turns. A WebVTT header (``WEBVTT``, a title after it,
    ``Kind:``/``Language:`` lines) not followed by a ``NOTE``, ``STYLE`` or ``REGION`` block
    leads the first cue: it is in the chunk of that cue whenever the two fit (with the
    cue's marker and first word when the cue is too big for a chunk), and a question pair
    that starts at the first cue starts at the header.

    Chunk metadata: ``speakers`` (the speakers of the chunk's turns in order of first
    appearance), ``speaker`` (the speaker of the turn the chunk starts in, None outside
    turns), ``turn_start`` and ``turn_end`` (0-based numbers of the first and last turn the
    chunk holds, both included; None outside turns), ``start_time``/``end_time`` when the
    source gives times (as written there: the first turn's start and the last turn's end,
    or its start when turns have no end time; ``start_time`` absent when the first turn
    has no time, as untimed turns of a transcript timed only in places have;
    ``end_time`` present whenever ``start_time`` is: when the last turn has no time, the
    latest time of the chunk's turns, the first turn's own when it is the only one).
    ``chunk.context`` is ``"Speaker:"`` (after ``"[time] "`` when known) for every chunk of a split turn that does not itself name
    the speaker before the turn's text (a later part of a split turn; any part of a JSON
    message whose role comes after its content, the part holding the role included),
    less what of the marker the chunk holds (a chunk that begins ``Ana: ...`` after a cut
    below a cue's timing line gets ``"[00:00:01,000]"``; one that holds the timing line
    but not the speaker gets ``"Ana:"``); with ``include_context_in_size``, a context the
    chunk has no room for is shortened to the speaker, else left out; else ``""``
    (always ``""`` with ``speaker_context=False``).

    Raises:
        ConfigError: an invalid parameter (a pattern that does not compile, has no
            group ``speaker`` or ``name``, or matches the empty string; ``max_turns`` < 1;
            an unknown ``oversize``).
        OversizeError: see ``oversize``.

    Method:
        Turn-atomic packing on the one packer (see the module docstring).

    Example:
        >>> text = "Ana: Is the backup done?\\nBen: Yes, at nine.\\nAna: Thanks.\\n"
        >>> [(c.text, c.metadata["speakers"]) for c in ConversationChunker(chunk_size=45).chunk(text)]
        [('Ana: Is the backup done?\\nBen: Yes, at nine.', ['Ana', 'Ben']), ('Ana: Thanks.', ['Ana'])]
    """

    turn_pattern: str | re.Pattern[str] | None = None
    max_turns: int | None = None
    pair_questions: bool = True
    oversize: OversizePolicy = "split"
    include_context_in_size: bool = False
    speaker_context: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        p = self.turn_pattern
        compiled: re.Pattern[str] | None = None
        if p is not None:
            if isinstance(p, re.Pattern):
                compiled = re.compile(p.pattern, p.flags | re.MULTILINE) if isinstance(p.pattern, str) else None
                if compiled is None:
                    raise ConfigError("turn_pattern must be a str pattern, not a bytes pattern")
            elif isinstance(p, str):
                try:
                    compiled = re.compile(p, re.MULTILINE)
                except re.error as exc:
                    raise ConfigError(f"turn_pattern {p!r} is not a valid regular expression ({exc}); fix it") from None
            else:
                raise ConfigError(f"turn_pattern must be a regular expression (str or re.Pattern), not {p!r}")
            if not {"speaker", "name"} & set(compiled.groupindex):
                raise ConfigError(
                    f"turn_pattern {compiled.pattern!r} has no named group for the speaker; name the part that "
                    "matches the speaker (?P<speaker>...), for example r'^(?P<speaker>[A-Z][a-z]+):' "
                    "(and (?P<time>...) for a time, when there is one)"
                )
            if compiled.match("") is not None:
                raise ConfigError(
                    f"turn_pattern {compiled.pattern!r} matches the empty string; make it match a turn's marker "
                    "(for example r'^(?P<speaker>[A-Z][a-z]+):')"
                )
        object.__setattr__(self, "_pattern", compiled)
        m = self.max_turns
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
            raise ConfigError(f"max_turns must be None or an integer >= 1, not {m!r}")
        if not isinstance(self.pair_questions, bool):
            raise ConfigError(f"pair_questions must be True or False, not {self.pair_questions!r}")
        if self.oversize not in OVERSIZE_POLICIES:
            raise ConfigError(f"oversize must be one of 'split', 'keep', 'raise', not {self.oversize!r}")
        if not isinstance(self.include_context_in_size, bool):
            raise ConfigError(f"include_context_in_size must be True or False, not {self.include_context_in_size!r}")
        if not isinstance(self.speaker_context, bool):
            raise ConfigError(f"speaker_context must be True or False, not {self.speaker_context!r}")

    def transcript(self, document: Document) -> Transcript:
        """The turns of ``document`` (see :func:`chunkwise.parsers.conversation.find_turns`)."""
        meta = document.metadata
        roles = meta.get("roles") if meta.get("format") == "chat" else None
        starts = meta.get("turn_offsets") if roles is not None else None
        found = find_turns(
            document.text,
            format=meta.get("format"),
            pattern=self._pattern,  # type: ignore[attr-defined]
            roles=list(roles) if roles is not None else None,
            starts=list(starts) if starts is not None else None,
        )
        firsts = meta.get("conversation_starts") if found.kind == "chat" else None
        if firsts:  # the chat loader's conversations (message k is turn k)
            n = len(found.turns)
            found = replace(found, conversations=tuple(k for k in firsts if 0 < k < n))
        return found

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """The turn level over the recursive levels (inside turns that may not fit and the
        text before the first turn), an atom per such turn, the glue of each question to
        its answer, regions (conversations, ``max_turns`` groups) and one label carrying
        the transcript to the enrichment pass.

        A text whose lines end with a lone carriage return (a classic Mac OS file) is read
        as its twin with line feeds there (same length, same offsets), as the packer
        packs it; sizes are the text's own (``measure``). A ``turn_pattern`` that names a
        carriage return itself reads the text as it is."""
        twin = line_feed_twin(document.text)
        if twin is not None and not names_carriage_return(self._pattern):  # type: ignore[attr-defined]
            document = replace(document, text=twin)
        text = document.text
        n = len(text)
        tr = self.transcript(document)
        turns = tr.turns
        starts = tuple(t.start for t in turns)
        label = Label(0, n, _KEY, _Info(tr, starts, tuple(_head_parts(text, t) for t in turns)), "overlap")
        inner: tuple[Level, ...] = _INNER
        if tr.kind == "json":
            inner = (_ESCAPED_PARAGRAPH, _ESCAPED_LINE, *inner)
        elif tr.kind == "subtitles":
            inner = _CUE_INNER
        if not turns:
            return Segments(levels=inner, labels=(label,), twin=twin)
        bound = size_bound(self._sizer, text)
        size = self._size(text, bound, measure)
        reserve = self._reserve(turns, bound, size) if self.include_context_in_size else 0
        # a turn that fits has no cut inside (turns are atomic while they fit): the inner
        # levels cut only the text before the first turn and the turns that do not fit,
        # and only those need an atom (for the oversize policy), start a chunk and glue
        # their marker (a turn's speaker and time go with its first word). The cheap
        # bound only rules turns in: a bound over the budget says nothing of the size
        # ("assistant: Hello! How can I help?" is 34 characters, 9 tokens), so such a
        # turn is measured as the packer measures an atom (a turn taken for too big on
        # its bound was cut while it fitted, and its prompt was parted from it)
        budget = self.chunk_size - self.chunk_overlap - reserve
        big = [t for t in turns if bound(t.start, t.end) > budget and size(t.start, t.end, budget) > budget]
        inside_s = [t.start for t in big]
        inside_e = [t.end for t in big]
        if turns[0].start > 0:
            inside_s.insert(0, 0)
            inside_e.insert(0, turns[0].start)
        # text between turns (a WebVTT NOTE block): a turn boundary where it starts, and
        # the inner levels cut inside it; in subtitles it is packed apart from the cues
        # (a region of its own), as is the header before the first cue when it holds such
        # a block (a bare "WEBVTT" line goes with the first cue)
        cuts_at = list(starts)
        apart: list[int] = []
        subtitles = tr.kind == "subtitles"
        if subtitles and VTT_BLOCK.search(text, 0, turns[0].start):
            apart.append(turns[0].start)
        # a bare WebVTT header ("WEBVTT", a title, "Kind:" and "Language:" lines) leads
        # the first cue: it is a prefix of that cue for the glue below (the header with
        # the cue when both fit, with its marker and first word when the cue does not
        # fit; a question pair that starts at the first cue starts at the header), so it
        # is never a chunk of its own where the cue fits with it
        lead_in = turns[0].start
        if subtitles and not apart:
            h = _SPACE.match(text, 0, lead_in).end()  # type: ignore[union-attr]
            if _VTT_HEADER.match(text, h, lead_in) is not None and (
                (big and big[0] is turns[0]) or size(h, turns[0].end, budget) <= budget
            ):
                lead_in = h
        gaps = [(t.end, u.start) for t, u in zip(turns, turns[1:])]
        gaps.append((turns[-1].end, n))
        blocks: list[tuple[int, int]] = []  # a WebVTT block's keyword and first word
        for g0, g1 in gaps:
            g = _SPACE.match(text, g0, g1).end()  # type: ignore[union-attr]
            if g < g1:
                cuts_at.append(g)
                inside_s.append(g)
                inside_e.append(g1)
                if subtitles:
                    apart += [g, g1] if g1 < n else [g]
        if subtitles:
            for m in VTT_BLOCK.finditer(text):
                k = _BLOCK_WORD.match(text, m.end() - len(m.group().rsplit(None, 1)[-1]))
                if k is not None:  # with the first line of its text, else its first word
                    le = text.find("\n", k.end())
                    le = len(text) if le < 0 else le
                    while text[le - 1] in " \t\r":
                        le -= 1
                    blocks += [(k.start(), le), k.span()]
        order = sorted(range(len(inside_s)), key=inside_s.__getitem__)
        inside_s, inside_e = [inside_s[i] for i in order], [inside_e[i] for i in order]
        cuts_at.sort()
        levels = (
            PositionsLevel("turn", cuts_at, cuts_at),
            *(_Within(lv.name, lv, inside_s, inside_e) for lv in inner),
        )
        atoms = tuple(Atom(t.start, t.end, "turn") for t in big)
        chat = tr.kind in ("json", "chat")
        pairs = _pairs(turns, chat) if self.pair_questions and (self.max_turns or 2) >= 2 else []
        # a question whose answer does not fit goes with the answer's first part, when the
        # question takes at most half the budget: a question alone is a chunk that answers
        # nothing, yet it is what a question searched for resembles most
        # (with an overlap, an answer larger than the budget that fits ``chunk_size``, less
        # the reserve, is packed whole: with its question where both fit that, else as a
        # chunk of its own, and the question is not glued to its first part)
        wide = budget + self.chunk_overlap if self.oversize != "keep" else budget
        lead = {
            k for k in pairs
            if size(*_span(turns[k + 1]), budget) > budget >= 2 * size(*_span(turns[k]), budget)
            and (
                wide == budget
                or size(*_span(turns[k + 1]), wide) > wide
                or size(lead_in if k == 0 else turns[k].start, turns[k + 1].end, wide) <= wide
            )
        }
        # the marker (a speaker line's "Name:", a cue's number, timing line, settings and
        # speaker, a message's role) is a prefix of the turn's text, never a chunk of its
        # own: it goes with the first word whenever both fit the budget of the turn's
        # first chunk (which keeps no room for a context unless there is an overlap), even
        # when that cuts the first line of a cue after a word. Only when they do not fit
        # together (a short turn just over the budget: "Ben: Goodbye." in 12) is the cut
        # after the marker taken, better than one inside the word that leaves its
        # punctuation alone
        first = budget + (0 if self.chunk_overlap else reserve)
        fits = self._word_fits
        # a NOTE, STYLE or REGION keyword is never a chunk of its own where the first line
        # (else the first word) of its block fits with it
        glue: list[tuple[int, int]] = []
        for b0, b1 in zip(blocks[::2], blocks[1::2]):
            glue += [b0] if size(*b0, budget) <= budget else [b1] if size(*b1, budget) <= budget else []
        for t in big:
            if not t.start < t.body < t.end:
                continue
            if t is turns[0] and lead_in < t.start:
                if fits(text, t, bound, first, lead_in):
                    glue.append((lead_in, t.body + 1))
                    continue
                lead_in = t.start  # the header does not fit with the cue's first word
            if fits(text, t, bound, first):
                glue.append((t.start, t.body + 1))
                continue
            # else the speaker's label still goes with the first word when they fit (a
            # time stamp before it is cut off, not the name: "[00:00:00]" then "Dr. Lee:
            # The tide", rather than "[00:00:00] Dr." then "Lee:")
            s0 = _name_start(text, t, subtitles)
            if s0 > t.start and fits(text, t, bound, first, s0):
                glue.append((s0, t.body + 1))
        # a turn's time stamp is never cut inside: when the marker and first word do not
        # fit together, the stamp still holds together (a cue: its number and timing line,
        # else the timing line, else its times; see _cue_glue)
        if subtitles:
            glue += [g for t in big for g in self._cue_glue(text, t, bound, first)]
        else:
            glue += [(t.start, e) for t in big if (e := _stamp_end(text, t)) > t.start + 1]
        if lead_in < turns[0].start:
            glue.append((lead_in, turns[0].end))  # binds only where the two fit

        def begin(k: int) -> int:
            return lead_in if k == 0 else turns[k].start

        glue += [(begin(k), turns[k + 1].end) for k in pairs if k not in lead]
        glue += [(begin(k), turns[k + 1].body + 1) for k in lead if turns[k + 1].body < turns[k + 1].end]
        # regions: each conversation after the first, and each group of max_turns turns
        firsts = set(tr.conversations)
        if self.max_turns is not None:
            paired = set(pairs)
            k = 0
            while k < len(turns):
                firsts.add(k)
                j = k + self.max_turns
                if j < len(turns) and (j - 1) in paired and j - 1 > k:
                    j -= 1  # a question starts the next group, with its answer
                k = j
        # a turn that does not fit starts a chunk: no piece of it joins the text before
        # (a cue's number at the end of the cue before, "everyone.\nBen:" ending a chunk)
        led = {turns[k + 1].start: begin(k) for k in lead}
        led.setdefault(turns[0].start, lead_in)
        heads = (led.get(t.start, t.start) for t in big)
        cuts = sorted({*(starts[k] for k in firsts if k > 0), *apart, *(h for h in heads if h > 0)})
        regions = None
        if cuts or reserve:
            # the context's room is kept in the regions that start at a turn too big for
            # a chunk (the only turns whose chunks get a context), not elsewhere
            held = {led.get(t.start, t.start) for t in big}
            bounds = [0, *cuts, n]
            regions = tuple(
                Region(
                    bounds[i],
                    bounds[i + 1],
                    reserve if bounds[i] in held else 0,
                    "turn" if i + 2 < len(bounds) else "end",
                )
                for i in range(len(bounds) - 1)
            )
        segs = Segments(
            levels=levels,
            regions=regions,
            atoms=atoms,
            glue=tuple(glue),
            labels=(label,),
            atom_levels_at=1,
            twin=twin,
        )
        if reserve and regions and not self.chunk_overlap:
            segs = replace(segs, regions=self._first_free(document, measure, segs))
        return segs

    def _first_free(self, document: Document, measure: Measure | None, segs: Segments) -> tuple[Region, ...]:
        """The regions with the first chunk of each turn too big for a chunk kept free of
        the context's reserve: that chunk holds the turn's speaker line and gets no
        context. One packing without the reserve finds where that chunk ends; its region
        is split there (the first part packs as that one chunk, the rest keeps the
        reserve). Not done with an overlap, which would not cross the split."""
        text = document.text
        regions = segs.regions or ()
        m = measure if measure is not None else self._sizer.measure(text)
        free = tuple(replace(r, reserve=0) for r in regions)
        spans = pack_segments(text, m, replace(segs, regions=free), self.pack_config())
        starts = [sp.start for sp in spans]
        out: list[Region] = []
        for r in regions:
            k = bisect_left(starts, r.start)
            if r.reserve and k < len(spans) and spans[k].end < r.end:
                out.append(Region(r.start, spans[k].end, 0, spans[k].boundary, r.levels, r.level))
                out.append(Region(spans[k].end, r.end, r.reserve, r.end_boundary, r.levels, r.level))
            else:
                out.append(r)
        return tuple(out)

    def _size(
        self, text: str, bound: Callable[[int, int], int], measure: Measure | None
    ) -> Callable[[int, int, int], int]:
        """``size(start, end, budget)``: the size of ``text[start:end]`` (a turn) as the
        packer sizes an atom against ``budget`` -- the cheap bound where it is at most
        half the budget (then the size is too, and all the callers ask is whether it
        fits, or fits twice), else the measure's size where that is within the budget or
        exact, else a count (an estimate from token offsets over the budget is counted).
        The bound is an upper bound only: a bound over the budget settles nothing."""
        count = self._sizer.count

        def size(s: int, e: int, budget: int) -> int:
            b = bound(s, e)
            if 2 * b <= budget:
                return b
            if measure is None:
                return count(text[s:e])
            n = measure.size(s, e)
            return n if n <= budget or measure.is_exact else measure.exact(s, e)

        return size

    def _word_fits(
        self, text: str, t: Turn, bound: Callable[[int, int], int], budget: int, start: int | None = None
    ) -> bool:
        """Whether turn ``t``'s marker (from ``start``, default the turn's start) and the
        first word of its text (to the next whitespace) fit ``budget`` together."""
        s = t.start if start is None else start
        m = _WORD_END.search(text, t.body, t.end)
        e = m.start() if m is not None else t.end
        return bound(s, e) <= budget or self._sizer.count(text[s:e]) <= budget

    def _cue_glue(self, text: str, t: Turn, bound: Callable[[int, int], int], budget: int) -> list[tuple[int, int]]:
        """The ranges of a cue's header kept whole, the largest that fits: its number and
        timing line (settings included); its number and start time (and the arrow), even
        where the timing line alone fits; the timing line (a cue without a number, or one
        whose number and start time do not fit together); its times, and the end time with the settings; its times (else
        each time, the arrow with the start time or else the end time), the settings with
        the first word of the cue's text (else the settings) -- so that ``align:start``,
        a cue's number or its ``-->`` is not a chunk alone wherever something next to it
        fits with it."""
        if t.start_time is None:
            return []
        i = text.find(t.start_time, t.start, t.body)
        if i < 0:
            return []
        nl = text.find("\n", i, t.body)
        le = nl if nl >= 0 else t.body
        while le > i and text[le - 1] in " \t\r":
            le -= 1
        t0 = i + len(t.start_time)
        j = text.find(t.end_time, t0, le) if t.end_time else -1
        t1 = j + len(t.end_time) if j >= 0 and t.end_time else t0

        def ok(a: int, b: int) -> bool:
            return bound(a, b) <= budget or self._sizer.count(text[a:b]) <= budget

        if ok(t.start, le):
            return [(t.start, le)]
        # else the cue's number (or identifier) goes with its start time where the two
        # fit, even where the timing line alone would fit: alone it is a chunk that says
        # nothing
        s = t.start if t.start < i and ok(t.start, t0) else i
        if s == i and ok(i, le):  # the timing line holds together: cut at a line break
            return [(i, le)]
        if s == i and t1 < le and j >= 0 and ok(j, le):  # settings after the end time go with it
            return [(i, j - 1 if j - 1 > i else j), (j, le)]
        if j < 0:
            out = [(s, t0)]
        elif s == i and ok(i, t1):
            out = [(i, t1)]
        else:
            # the start time with the arrow, else the arrow with the end time (never an
            # arrow alone), the end time with the settings where they fit
            a = text.find("-->", t0, j)
            if j - 1 > s and ok(s, j - 1):
                out, rest = [(s, j - 1)], j
            else:
                out, rest = [(s, t0)], a if 0 <= a and ok(a, t1) else j
            if t1 < le and ok(rest, le):
                return [*out, (rest, le)]
            out.append((rest, t1))
        if t1 < le:  # settings that do not fit with the end time go with the text's first word
            s0 = _SPACE.match(text, t1, le).end()  # type: ignore[union-attr]
            w = _WORD_END.search(text, t.body, t.end)
            e = w.start() if w is not None else t.end
            out.append((s0, e) if e > t.body and ok(s0, e) else (s0, le))
        return out

    def pack_options(self) -> dict[str, Any]:
        return {"oversize": self.oversize}

    def _label(self, t: Turn, time: bool = True, speaker: bool = True) -> str:
        """The context naming turn ``t`` (``"[time] Speaker:"``; without the time or the
        speaker when ``time`` or ``speaker`` is False); when it counts in the size, at
        most half the budget: without the time, else nothing."""
        if not self.speaker_context:
            return ""
        name = f"{t.speaker}{t.colon}" if t.speaker and speaker else ""
        full = " ".join(p for p in (f"[{t.start_time}]" if t.start_time and time else "", name) if p)
        if not self.include_context_in_size or not full:
            return full
        half = (self.chunk_size - self.chunk_overlap) // 2
        for c in (full, name):
            if c and self._sizer.count(c + "\n") <= half:
                return c
        return ""

    def _reserve(
        self, turns: tuple[Turn, ...], bound: Callable[[int, int], int], size: Callable[[int, int, int], int]
    ) -> int:
        """Units of the budget kept for the context (at most half the budget): the
        largest context of a turn that is split, a turn whose size is over the budget
        less the reserve. The least such reserve: from none, the reserve grows to the
        largest context of the turns over the budget it leaves until no other turn is
        over it (a turn that fits is never split, and its context takes no room from
        the turns that are)."""
        budget = self.chunk_size - self.chunk_overlap
        counts: dict[str, int] = {}
        reserve = 0
        while True:
            b = budget - reserve
            most = reserve
            for t in turns:
                if bound(t.start, t.end) > b and size(t.start, t.end, b) > b:
                    c = self._label(t)
                    if c:
                        n = counts.get(c)
                        if n is None:
                            n = counts[c] = self._sizer.count(c + "\n")
                        most = max(most, n)
            most = min(most, budget // 2)
            if most <= reserve:
                return reserve
            reserve = most

    def context(self, metadata: Mapping[str, Any], span: Span) -> str:
        """Sets the chunk's ``speakers``, ``speaker``, ``turn_start``/``turn_end`` and
        times; returns ``"[time] Speaker:"`` for a chunk that does not hold the text
        naming the speaker of the turn it starts in."""
        info = metadata.pop(_KEY, None) if isinstance(metadata, dict) else None
        if not isinstance(info, _Info):
            return ""
        meta: dict[str, Any] = metadata  # type: ignore[assignment]
        turns, starts = info.transcript.turns, info.starts
        k1 = bisect_left(starts, span.end) - 1  # the last turn starting before the end
        k0 = bisect_right(starts, span.start) - 1  # the turn holding the first character
        if k0 >= 0 and span.start >= turns[k0].end:
            k0 = -1  # the chunk starts after that turn's end (text between turns)
            first = bisect_right(starts, span.start)
        else:
            first = max(k0, 0)
        if k1 < first:
            meta.update(speakers=[], speaker=None, turn_start=None, turn_end=None)
            return ""
        held = turns[first : k1 + 1]
        speakers: dict[str, None] = {}
        for t in held:
            if t.speaker is not None:
                speakers.setdefault(t.speaker, None)
        meta["speakers"] = list(speakers)
        meta["speaker"] = turns[k0].speaker if k0 >= 0 else None
        meta["turn_start"], meta["turn_end"] = first, k1
        # the times of the chunk's first and last turns: in a transcript timed only in
        # places, a turn of no time gives none (another turn's time would be wrong)
        t0 = held[0].start_time
        t1 = held[-1].end_time or held[-1].start_time
        if t0 is not None:
            meta["start_time"] = t0
            if t1 is None:  # the last turn has no time: the latest time the chunk gives
                t1 = next(t.end_time or t.start_time for t in reversed(held) if t.end_time or t.start_time)
        if t1 is not None:
            meta["end_time"] = t1
        if k0 < 0:
            return ""
        t = turns[k0]
        # the chunk names the speaker itself when it holds the turn's head and no text of
        # the turn before it: a head written after the text (a message whose role follows
        # its content) names a turn only in a chunk that also holds the turn's start
        if t.head is not None and span.start <= min(t.head[0], t.body) and t.head[1] <= span.end:
            return ""
        # a chunk that starts inside the marker (a cue's timing line or speaker after a
        # cut): what it holds of the marker is not repeated in the context ("Ana:" over a
        # chunk that begins "Ana: Good evening")
        tp, np_ = info.parts[k0] if k0 < len(info.parts) else (-1, -1)
        time = not (0 <= tp and span.start <= tp and tp + len(t.start_time or "") <= span.end)
        speaker = not (0 <= np_ and span.start <= np_ and np_ + len(t.speaker or "") <= span.end)
        label = self._label(t, time, speaker)
        if label and self.include_context_in_size:
            # counted in the size: a context the chunk has no room for (the turn's first
            # chunk, packed without the reserve, cut inside its marker at a tiny budget)
            # is shortened to the speaker, else left out
            count = self._sizer.count
            for c in (label, self._label(t, False, speaker)):
                if c and span.size + count(c + "\n") <= self.chunk_size:
                    return c
            return ""
        return label
