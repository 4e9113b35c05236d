"""The title rule (:mod:`chunkwise.titles`) gives what it gave before its fast paths.

The functions as they were before (a branch per kind of line, a copy of the line for the
underline test, the regular expression for every line that starts with a space) are kept
here as the oracle; :func:`~chunkwise.titles.ends_with_title` and
:func:`~chunkwise.titles.title_start` must answer exactly as they do, at every line end of
real documents (Markdown, reStructuredText in docstrings, plain text, CRLF) and at every
position of generated hostile text (emoji, CJK, combining marks, CRLF, tabs, form feeds,
other whitespace, underlines and ATX headings of every kind).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkwise.titles import ends_with_title, title_start

ROOT = Path(__file__).resolve().parent.parent

# -- the oracle: the rule as it was ----------------------------------------------------------

_TITLE_END = frozenset(".!?;:,)]}\"'\u3002\uff01\uff1f")
_ATX = re.compile(r"[ ]{0,3}#{1,6}[ \t]")
_UNDERLINE_FIRST = frozenset("=-~^*#+")
_MAX_TITLE = 100


def _old_title_start(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in " \t\r":
        end -= 1
    if end <= start:
        return -1
    ls = text.rfind("\n", max(start, end - _MAX_TITLE - 1), end) + 1
    if ls <= start or ls == end:
        return -1
    c = text[ls]
    if c not in _UNDERLINE_FIRST and c != " ":
        k = ls - 2
        while k >= start and text[k] in " \t\r":
            k -= 1
        if k < start or text[k] != "\n":
            return -1
        if text[end - 1] in _TITLE_END or (c.isspace() and not text[ls:end].strip()):
            return -1
        return ls
    head = ls
    line = text[ls:end]
    if _old_is_underline(line):
        head = text.rfind("\n", max(start, ls - _MAX_TITLE - 2), ls - 1) + 1
        if head <= start or not text[head : ls - 1].strip():
            return -1
    elif not _ATX.match(line) and (text[end - 1] in _TITLE_END or not line.strip()):
        return -1
    k, breaks = head - 1, 0
    while k >= start and text[k].isspace():
        breaks += text[k] == "\n"
        k -= 1
    return head if breaks >= 2 else -1


def _old_is_underline(line: str) -> bool:
    body = line.lstrip(" ")
    if len(line) - len(body) > 3:
        return False
    body = body.rstrip(" \t")
    return len(body) >= 3 and body[0] in _UNDERLINE_FIRST and not body.strip(body[0])


def _old_ends_with_title(text: str, end: int) -> bool:
    k = end - 1
    while k >= 0 and text[k] in " \t\r":
        k -= 1
    if k < 0:
        return False
    if text[k] in _TITLE_END:
        ls = text.rfind("\n", max(0, k - _MAX_TITLE), k + 1) + 1
        if ls > k or text[ls] not in "# " or _ATX.match(text, ls, k + 1) is None:
            return False
    if _old_title_start(text, max(0, end - 300), end) >= 0:
        return True
    if end > 300:
        return False
    ls = text.rfind("\n", 0, end) + 1
    if ls == 0 or not text[:ls].strip():
        return _old_title_start("\n\n" + text[:end], 0, end + 2) >= 0
    return False


# -- comparing -------------------------------------------------------------------------------


def _check(text: str, end: int) -> None:
    """Both functions at ``end``, ``title_start`` from the starts the packer uses (300
    characters back, the text's start) and from the paragraph's start."""
    assert ends_with_title(text, end) is _old_ends_with_title(text, end), (text[max(0, end - 120) : end], end)
    para = text.rfind("\n\n", 0, end)
    for start in {max(0, end - 300), 0, max(0, para), max(0, end - 3)}:
        assert title_start(text, start, end) == _old_title_start(text, start, end), (text[start:end][-120:], start, end)


def _every_position(text: str) -> None:
    for end in range(len(text) + 1):
        _check(text, end)


def _documents() -> list[Path]:
    paths = sorted(ROOT.glob("*.md")) + sorted((ROOT / "data").rglob("*.md"))
    paths += sorted((ROOT / "tests" / "corpus" / "structure").glob("*.md"))
    paths += sorted((ROOT / "tests" / "corpus" / "structure").glob("*.txt"))
    paths += sorted((ROOT / "src" / "chunkwise").glob("*.py"))  # docstrings: reStructuredText
    return [p for p in paths if p.is_file()]


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.name)
def test_every_line_end_of_real_documents(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    ends = {m.start() for m in re.finditer(r"[ \t\r]*\n", text)}  # before a line's trailing spaces
    ends |= {m.start() for m in re.finditer(r"\n", text)}  # after them (and a CR)
    ends |= {m.end() for m in re.finditer(r"\n[ \t]*\n", text)}  # after a blank line
    ends |= set(range(min(len(text), 700)))  # every position at the start (no blank line before)
    ends.add(len(text))
    titles = 0
    for end in sorted(ends):
        _check(text, end)
        titles += _old_ends_with_title(text, end)
    # the same documents with CRLF line ends, every tenth line end
    crlf = text.replace("\n", "\r\n")
    for end in sorted(m.start() for m in re.finditer(r"\r\n", crlf))[::10]:
        _check(crlf, end)
    if path.suffix == ".md" and text.count("\n#") > 2:
        assert titles  # (headings are there: the comparison saw titles, not only rejections)


def test_the_documents_are_there():
    names = {p.name for p in _documents()}
    assert {"README.md", "titles.py", "finance.md"} <= names


# -- generated hostile text ------------------------------------------------------------------

PIECES = [
    "a", "word", "Word", "Title", " ", "  ", "   ", "    ", "\t", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n",
    "\r", " \n \n ", "\n\t\n", "\n \n", "\f", "\n\f\n", "\x0b", "\x1c", "\u3000", "\u00a0", "\u2028", "\u2029",
    "\u0085", ".", ". ", "! ", "? ", ":", "::", ";", ",", ")", "]", "}", '"', "'", "\u3002", "\uff01", "\uff1f",
    "e\u0301", " \u0301", "\u0300", "\U0001f600", "\U0001f469\u200d\U0001f4bb", "\u6f22\u5b57", "\u0e44\u0e17\u0e22",
    "#", "##", "# ", "## Head", "####### x", "#\t", " #", "  #", "   #", "    # x", "=", "==", "===", "=====",
    "---", "- - -", "~~~", "^^^", "***", "###", "+++", "=-=", "   ===", "    ===", "=== ", "===\t", "===\r",
    "Title\n=====\n\n", "Sub\n---\n\n", "# Head\n\n", "## Head?\n\n", "   # x\n", "Install\n\n", ".. note::\n\n",
    "   indented line\n", "dbus (1.14) unstable; urgency=medium\n\n", "x" * 30, "y " * 20, "\n" * 9, " " * 70,
    "z" * 101, "w" * 99, "   # Head.\n\n", "  ## Sub:\n", " ### x?\n", "    # no.\n", "#.\n", "#\tTab.\n",
    "###### six!\n", "####### seven.\n", "   #no space.\n", "  =====\n", "   -----\n", "    ~~~~~\n",
]
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
ALPHABET = " \t\r\n\f\x0b\u3000\u00a0\u2028=-~^*#+.:)'ax\u0301\u6f22\U0001f600"


@given(text=texts)
def test_every_position_of_generated_text(text):
    _every_position(text)


@given(text=st.text(alphabet=ALPHABET, max_size=60))
def test_every_position_of_random_characters(text):
    _every_position(text)


@given(
    head=st.text(alphabet=ALPHABET, max_size=400),
    text=texts,
    crlf=st.booleans(),
)
def test_past_the_first_300_characters(head, text, crlf):
    # the start of the text is out of reach: the rule reads at most 300 characters back
    text = ("lorem ipsum dolor. " * 20 + head + "\n\n" + text)
    if crlf:
        text = text.replace("\n", "\r\n")
    for end in range(380, len(text) + 1):
        _check(text, end)


@given(line=st.text(alphabet=" \t=-~^*#+x\u00a0\r", max_size=12), before=st.sampled_from(["", "Title", "  ", "\n"]))
def test_underlines(line, before):
    text = "Intro.\n\n" + before + "\n" + line
    _every_position(text)


def test_known_answers():
    # (a hand-checked sample, so the oracle itself is pinned)
    cases = {
        ("Install\n\nRun it.", 7): True,
        ("Run it.", 7): False,
        ("Text.\n\nTitle\n=====\n\nBody.", 18): True,
        ("Text.\n\n# Heading.\n\nBody.", 17): True,
        ("Text.\n\n    # code.\n\nBody.", 18): False,
        ("Text.\nnot a title\n\nBody.", 17): False,
        ("Text.\n\n  ===\n\nBody.", 12): False,
        ("Text.\n\n # Head.\n\nBody.", 15): True,
        ("Text.\n\n  # Head.\n\nBody.", 16): True,
        ("Text.\n\n   # Head.\n\nBody.", 17): True,
        ("Text.\n\n    # Head.\n\nBody.", 18): False,
        ("Text.\n\nTitle\n   ===\n\nBody.", 19): True,
        ("Text.\n\nTitle\n    ===\n\nBody.", 20): False,
    }
    # a line longer than the window read (no line break in it) after an ATX heading that
    # starts the text: no title, near the start and past the first 300 characters
    long = "# Head\n" + "x" * 120 + "."
    cases[(long, len(long))] = False
    cases[("# Head " + "x" * 120 + ".", 128)] = False
    cases[("# Head\n\n" + "y " * 200 + "z" * 120 + ".", 529)] = False
    for (text, end), want in cases.items():
        assert ends_with_title(text, end) is want, (text, end)
        assert _old_ends_with_title(text, end) is want, (text, end)
    assert title_start("Some text.\n\nInstall\n\nRun it.", 0, 19) == 12
