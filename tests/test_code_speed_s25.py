"""The scan's shortcuts give what the longer reading gave: whether a backslash
continuation outside strings hides a line break (read off the masked pieces, not by
counting line breaks), and the compound statements kept whole with the statement atoms
(sorted once)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.chunkers.code import CodeChunker
from chunkwise.parsers.code_scan import _mask, _mask_continued, scan_python


def _counted(text: str) -> bool:
    """The reading by counts: the line breaks the mask hides are not all in strings."""
    masked, opaque = _mask(text)  # type: ignore[misc]
    return text.count("\n") - masked.count("\n") > sum(text.count("\n", a, b) for a, b in opaque)


PIECES = ["\\\n", "\\\r\n", "'", '"', "'''", '"""', "#", "\n", "x", " ", "(", ")", "\\", "\r\n", "a = 1\n", "s = '''a\nb'''\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_continued_is_what_the_counts_say(parts: list[str]) -> None:
    text = "".join(parts)
    found = _mask_continued(text)
    if found is None:
        assert _mask(text) is None
        return
    assert _mask(text) == found[:2]
    assert found[2] is _counted(text)


def test_continued_examples() -> None:
    assert _mask_continued("x = 1 + \\\n    2\n")[2] is True  # type: ignore[index]
    assert _mask_continued('s = """a\\\nb"""\n')[2] is False  # type: ignore[index]  (in a string)
    assert _mask_continued("s = '''a\nb'''\nt = 1\n")[2] is False  # type: ignore[index]
    assert _mask_continued("# a comment \\\nx = 1\n")[2] is False  # type: ignore[index]


def test_a_cut_after_a_continuation_then_a_blank_line_starts_after_it() -> None:
    src = "x = 1 + \\\n\ny = 2\nz = 3\n"
    found = scan_python(src)
    assert found is not None
    # (no cut starts before the backslash: the text before the next line ends after it)
    assert all(a >= src.index("\\") + 1 for a, _b, *_ in found.cuts)


def test_statements_kept_whole_and_statement_atoms_together() -> None:
    # a compound statement that fits (kept whole) and a statement larger than the
    # budget that fits without the comments above it (an atom of its own)
    body = "".join(f"    v{i} = {i}\n" for i in range(6))
    comment = "".join(f"# note {i} on the table below\n" for i in range(4))
    table = "TABLE = [\n" + "".join(f"    {i},\n" for i in range(12)) + "]\n"
    src = f"if True:\n{body}\n\n{comment}{table}\n\nfor k in range(3):\n{body}"
    chunks = CodeChunker(language="python", chunk_size=150).chunk(src)
    texts = [c.text for c in chunks]
    assert "".join(texts).replace("\n", "") == src.replace("\n", "")
    loop = f"for k in range(3):\n{body}".rstrip("\n")
    assert any(t == loop for t in texts)
    assert any(t.startswith("TABLE = [") and t.endswith("]") for t in texts)
    assert all(c.text == src[c.start_index : c.end_index] for c in chunks)
