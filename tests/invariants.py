"""The chunk contract every strategy must keep, as reusable assertions for tests."""

from __future__ import annotations

import re


def cluster_boundaries(text: str) -> set[int]:
    """All extended grapheme cluster boundaries of ``text`` (UAX #29, via regex \\X)."""
    import regex

    out = {0}
    for m in regex.finditer(r"\X", text, flags=regex.DOTALL):
        out.add(m.end())
    return out


def check_invariants(text, chunks, chunk_size, sizer, *, trimmed=True, overlap_allowed=True):
    """Assert the contract of every chunker on one result; returns nothing."""
    bounds = cluster_boundaries(text)
    prev_start, prev_end = -1, 0
    covered = bytearray(len(text))
    for i, c in enumerate(chunks):
        assert 0 <= c.start_index < c.end_index <= len(text), (i, c.start_index, c.end_index)
        assert c.text == text[c.start_index : c.end_index], i
        assert c.text.strip(), f"chunk {i} is empty or whitespace-only"
        assert c.start_index > prev_start, f"chunk {i} out of order"
        if not overlap_allowed:
            assert c.start_index >= prev_end, f"chunk {i} overlaps chunk {i - 1}"
        assert c.start_index in bounds and c.end_index in bounds, f"chunk {i} cuts a grapheme cluster"
        assert c.index == i
        if trimmed:
            assert not c.text[-1].isspace(), f"chunk {i} ends with whitespace"
            assert not c.text[0].isspace() or (len(c.text) > 1 and not c.text[1].isspace()), f"chunk {i} starts with whitespace"
        size = sizer.count(c.text)
        assert c.size == size, f"chunk {i}: size {c.size} but the sizer counts {size}"
        if c.metadata.get("oversize"):
            assert size > chunk_size
            # only a single grapheme cluster may exceed the budget in the core strategies
            assert len(cluster_boundaries(c.text)) == 2, f"chunk {i} is oversize but not one cluster"
        else:
            assert size <= chunk_size, f"chunk {i} has {size} > {chunk_size} {sizer.unit}"
        covered[c.start_index : c.end_index] = b"\x01" * (c.end_index - c.start_index)
        prev_start, prev_end = c.start_index, c.end_index
    lost = [i for i, ch in enumerate(text) if not covered[i] and not ch.isspace()]
    assert not lost, f"{len(lost)} characters lost, first at {lost[0]}: {text[max(0, lost[0] - 10):lost[0] + 10]!r}"


# a thematic break on a line of its own, at the top level (``---``, ``***``, ``___``, up to
# three spaces before it; or only ``<hr>`` tags), or a line of link targets only (HTML
# anchors ``<a id="x"></a>``, MyST targets ``(label)=``): a heading with only these under
# it is empty, as the markdown strategy reads it, and leads the section after it
_RULE_LINE = re.compile(
    r"^(?:[ ]{0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})|[ \t]*<hr\b[^>\n]*>(?:[ \t]*<hr\b[^>\n]*>)*"
    r"|[ \t]*<a[ \t]+(?:id|name)[ \t]*=[^>\n]*>(?:[ \t]*</a>)?(?:[ \t]*<a[ \t]+(?:id|name)[ \t]*=[^>\n]*>(?:[ \t]*</a>)?)*"
    r"|[ \t]*\([^()\s][^()\n]*\)=)[ \t\r]*$",
    re.MULTILINE | re.IGNORECASE,
)


def trailing_headings(text, headings):
    """Where the headings with nothing after them but headings and thematic breaks start
    (``len(text)`` when the text does not end so): such headings go with the chunk before
    them when it has room."""
    tail = len(text)
    for h in reversed(headings):
        if _RULE_LINE.sub("", text[h.end : tail]).strip():
            break
        tail = h.start
    else:  # headings only (after thematic breaks, if any)
        if headings and not _RULE_LINE.sub("", text[:tail]).strip():
            tail = 0
    return tail


def path_offset(chunk, starts, tail):
    """The offset whose header path a chunk has: its last heading inside it that is not
    one of the trailing ones (``tail``: :func:`trailing_headings`), else its start; a chunk
    of trailing headings only has the path of the last of them."""
    inside = [at for at in starts if chunk.start_index < at < chunk.end_index]
    body = [at for at in inside if at < tail]
    if body:
        return body[-1]
    return inside[-1] if inside and chunk.start_index >= tail else chunk.start_index


def check_sections(text, chunks, headings):
    """No chunk holds text of two sections: a heading may lie inside a chunk only when
    everything before it in the chunk is headings and thematic breaks (empty headings
    glued to the section that follows them), or when only headings and thematic breaks
    follow it up to the end of the text (they go with the chunk before them)."""
    tail = trailing_headings(text, headings)
    for i, c in enumerate(chunks):
        inside = [h for h in headings if c.start_index < h.start < c.end_index and h.start < tail]
        if not inside:
            continue
        last = inside[-1]
        # (a heading may start before the chunk: its leading whitespace is trimmed off)
        spans = [(h.start, h.end) for h in headings if h.start < last.start and h.end > c.start_index]
        rest = list(text[c.start_index : last.start])
        for s, e in spans:
            for k in range(max(s, c.start_index), min(e, last.start)):
                if rest[k - c.start_index] not in "\r\n":  # keep line ends: a rule after a heading is a line of its own
                    rest[k - c.start_index] = " "
        assert _RULE_LINE.sub("", "".join(rest)).strip() == "", f"chunk {i} holds text of two sections"


def table_row_cells(text):
    """Every row of every Markdown table of ``text``: ``(start, end, [cell edges])`` (edges:
    the row's start, each cut between cells, the row's end; the end trimmed of white space)."""
    from chunkwise._text import trim_end
    from chunkwise.parsers.markdown import MarkdownParser

    out = []
    for b in MarkdownParser().parse(text).blocks:
        if b.kind != "table" or b.table is None:
            continue
        p = b.start
        while p < b.end:
            q = text.find("\n", p, b.end)
            q = b.end if q < 0 else q + 1
            e = trim_end(text, p, q)
            cuts = [c for c in b.table.cell_cuts(text, p, e) if p < c < e]
            out.append((p, e, [p, *cuts, e]))
            p = q
    return out
