"""The C part of Python's structural scan against the Python code it mirrors.

``chunkwise.parsers._code_scan`` (built at install where a compiler is found) must give
what the pure Python scan gives, value for value: the same structures (definitions,
statements, cuts, top-level items, imports, compound statements kept whole, line and
token cuts) and None for the same files. Compared on the standard library's own modules
(a sample by default; every module with ``CHUNKWISE_SCAN_FULL=1``) and on generated
Python-like text (tabs, carriage returns, unbalanced brackets, strings, comments,
backslash continuations, non-ASCII names). Without the C module these tests skip, and
the pure path runs everywhere else.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.parsers import code_scan
from chunkwise.parsers.code_scan import scan_python

NATIVE = code_scan._native
FULL = bool(os.environ.get("CHUNKWISE_SCAN_FULL"))
needs_native = pytest.mark.skipif(NATIVE is None, reason="the C scan is not built here (no compiler at install)")


def _reading(st_):
    """Every value of a structure, the lazy cuts included (read over its whole text)."""
    if st_ is None:
        return None
    return (st_, list(st_.lazy_lines(0, 10**9)) if st_.lazy_lines else None)


def _scan(text: str, native, fits=None, keep=None):
    saved = code_scan._native
    code_scan._native = native
    try:
        found = scan_python(text, fits, keep)
        return _reading(found), (list(found.lazy_tokens(0, len(text))) if found is not None else None)
    finally:
        code_scan._native = saved


def _budget(size: int):
    return lambda a, b: b - a <= size


def _same(text: str) -> None:
    for size in (None, 60, 400, 1000):
        fits = None if size is None else _budget(size)
        pure = _scan(text, None, fits, fits)
        native = _scan(text, NATIVE, fits, fits)
        assert native == pure, size


def _stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)


def _read(p: Path) -> str | None:
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


# -- the pure path can be chosen ----------------------------------------------------------


def test_the_pure_path_is_chosen_by_the_environment():
    """CHUNKWISE_PURE_SCAN=1 leaves the C module unused (and its absence is no error)."""
    code = "from chunkwise.parsers import code_scan; print(code_scan._native is None)"
    env = {**os.environ, "CHUNKWISE_PURE_SCAN": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env.pop("CHUNKWISE_PURE_SCAN")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    built = importlib.util.find_spec("chunkwise.parsers._code_scan") is not None
    assert out.stdout.strip() == str(not built)


def test_the_pure_path_scans_alone():
    text = "import os\n\n\ndef f(a,\n      b):\n    '''doc\n    more'''\n    return a  # c\n"
    (found, _), _ = _scan(text, None, _budget(10), _budget(10))
    assert found.parser == "scan"
    assert [d.qualname for d in found.definitions] == ["f"]
    assert found.imports == ((0, 9),)


# -- the standard library ------------------------------------------------------------------


@needs_native
def test_the_standard_library_line_pass():
    """The line pass on one module in three of the standard library (every module with
    CHUNKWISE_SCAN_FULL=1)."""
    files = _stdlib_files()
    assert len(files) > 100
    for p in files if FULL else files[::3]:
        text = _read(p)
        if text is None:
            continue
        found = NATIVE.lines(text)
        saved = code_scan._native
        code_scan._native = None
        try:
            pure = _pure_lines(text)
        finally:
            code_scan._native = saved
        assert found == pure, p


def _pure_lines(text: str):
    """What the C module's ``lines`` gives, by the Python code."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None
    masked = code_scan._mask_continued(text)
    if masked is None:
        return None
    mtext, opaque, continued = masked
    if ("\t" in mtext or "\f" in mtext) and code_scan._BAD_INDENT.search(mtext):
        return None
    sc = code_scan._Scanner(text, mtext, None)
    sc.continued = continued
    try:
        sc.lines()
        if continued:
            sc.continuations()
    except code_scan._Fail:
        return None
    return (mtext, opaque, continued, sc.starts, sc.inds, sc.ends, sc.code_ends, sc.cstarts, sc.cends, sc.cinds,
            sc.ops, sc.nxt, sc.after_cont)


@needs_native
@pytest.mark.parametrize("part", range(4))
def test_the_standard_library_structures(part):
    """Whole structures, at four budgets, on one module in 15 of the standard library (every
    module with CHUNKWISE_SCAN_FULL=1)."""
    files = _stdlib_files()[part::4]
    if not FULL:
        files = files[::15]
    read = 0
    for p in files:
        text = _read(p)
        if text is None:
            continue
        read += 1
        _same(text)
    assert read > 10


# -- generated text -----------------------------------------------------------------------

_HEADERS = [
    ("def f(x):", []), ("async def g(a, *, b=1) -> int:", []), ("class A(B, metaclass=M):", []),
    ("def h(a,\n      b):  # c", []), ("class 変(object):", []), ("if x:", ["elif y:", "else:"]),
    ("try:", ["except E as e:", "except:", "else:", "finally:"]), ("for i in x:", ["else:"]),
    ("while x:", ["else:"]), ("with a as b:", []), ("async with x:", []), ("match x:", []), ("case 1:", []),
    ("if (a and\n        b):", ["else:"]),
]
_SIMPLE = [
    "return x", "pass", "break", "continue", "raise E", "import os", "from . import a",
    "from __future__ import annotations", "global g", "del x", "assert x", "x = 1", "x = 1  # c", "x = (1,\n2)",
    "f(a, [b,\n   c])", "y = \\\n    1", "y = \\\n\n", "s = '''a\nb'''", 's = """x\n  y"""', "'str'",
    '"s\\"t"', "λ = 1", "変数 = 'ü'", "def ф(x): return x", "if x: pass", "class D: pass", "lambda: 0",
    "x[1:2]", "a = b if c else d", "print(f'{x}')", "x = 1; y = 2", "match = 1", "case = 2", "type X = int",
    "d = {\n  'a': 1,\n}", "# comment", "#", "", "@dec",
]
_HOSTILE = [
    "\t", "\f", "\r", "(", ")", "]", "'", '"', "'''", "\\", "  x", "else:", "except:", "@d", "def", ":",
    " \t", "\x0b", "\u3000", "\x85",
]


@st.composite
def _python_like(draw):
    """Python-like source: blocks of statements, mostly well formed, with a hostile line now
    and then (a stray bracket or quote, a tab, a lone carriage return, a clause out of place)."""
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    out: list[str] = []

    def block(ind: int, depth: int) -> None:
        for _ in range(draw(st.integers(1, 4))):
            pre = " " * ind
            r = draw(st.integers(0, 19))
            if r == 0:
                out.append(draw(st.sampled_from(["", " ", "    ", "\t"])) + draw(st.sampled_from(_HOSTILE)) + nl)
            elif r < 7 and depth < 4:
                head, clauses = draw(st.sampled_from(_HEADERS))
                if head.startswith(("def", "class")) and draw(st.booleans()):
                    out.append(pre + "@dec" + nl)
                if draw(st.integers(0, 3)) == 0:
                    out.append(pre + "# above" + nl)
                out.append(pre + head.replace("\n", nl) + nl)
                if draw(st.integers(0, 4)) == 0:
                    out.append(" " * (ind + draw(st.sampled_from([0, 2, 4, 8]))) + "# in" + nl)
                step = draw(st.sampled_from([4, 4, 2, 8]))
                block(ind + step, depth + 1)
                for clause in clauses:
                    if draw(st.booleans()):
                        out.append(pre + clause + nl)
                        block(ind + step, depth + 1)
            else:
                line = draw(st.sampled_from(_SIMPLE))
                out.append(pre + line.replace("\n", nl) + nl)
            if draw(st.integers(0, 4)) == 0:
                out.append(nl)

    block(0, 0)
    return "".join(out)


_FRAGMENTS = ["def f():", "class A:", "    ", "\t", "\n", "\r\n", "\r", "\\\n", "(", ")", "[", "]", "{", "}",
              "'", '"', "'''", '"""', "#", "# c", ":", "@d", "else:", "x", "ü", "変", "\\", "\f", " ", "1",
              "return", "if x:", "pass"]


@needs_native
@settings(max_examples=int(os.environ.get("CHUNKWISE_HYPOTHESIS_EXAMPLES", "60")) * 5)
@given(_python_like())
def test_generated_python_like_text(text):
    _same(text)


@needs_native
@settings(max_examples=int(os.environ.get("CHUNKWISE_HYPOTHESIS_EXAMPLES", "60")) * 5)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=60).map("".join))
def test_generated_fragments(text):
    _same(text)


@needs_native
@given(st.text(max_size=200))
def test_generated_any_text(text):
    _same(text)


@needs_native
def test_some_valid_files_are_scanned_by_both():
    """The generated text above is not all refused: a few written here are read."""
    for text in ["def f(x):\n    return x\n", "class A:\r\n    x = (1,\r\n    2)\r\n", "y = \\\n  1\n\n\nz = 2\n",
                 "変数 = '''a\nb'''\n# c\nif x:\n    pass\nelse:\n    pass\n"]:
        (found, _), _ = _scan(text, NATIVE, _budget(60), _budget(60))
        assert found is not None and found.parser == "scan", text
        _same(text)


# -- the edges: deep nesting, callbacks that raise ----------------------------------------


def _nested(depth: int) -> str:
    return "".join(" " * (4 * d) + f"if x{d}:\n" for d in range(depth)) + " " * (4 * depth) + "pass\n"


@needs_native
@pytest.mark.parametrize("depth", [3, 39, 41, 60, 400])
def test_deep_nesting(depth):
    """Blocks nested deeper than the C walk goes are walked by the Python code (from the
    lines the C pass found); nesting too deep for Python's stack gives None both ways."""
    text = _nested(depth)
    _same(text)
    found = NATIVE.scan(text, None, None, code_scan.Definition, None)
    assert found is not None and found[0] is (depth <= 40)


@needs_native
@pytest.mark.parametrize("error", [ValueError, IndexError, KeyError])
def test_a_budget_that_raises(error):
    """What ``fits`` raises does what it does in the Python code: ValueError and IndexError
    give None (a parser reads the file), others go to the caller."""
    text = "def f():\n    return 1\n\n\nclass A:\n    x = 1\n"

    def fits(a, b):
        raise error("budget")

    outcomes = []
    for native in (None, NATIVE):
        try:
            outcomes.append(_scan(text, native, fits, fits)[0])
        except KeyError as exc:
            outcomes.append(repr(exc))
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0] is None) == (error is not KeyError)


@needs_native
def test_the_budget_is_asked_the_same_questions():
    """fits and keep are called with the same arguments, in the same order."""
    text = _read(Path(sysconfig.get_paths()["stdlib"]) / "textwrap.py") or _nested(5)
    asked: dict[object, list] = {None: [], NATIVE: []}
    for native in (None, NATIVE):
        def fits(a, b, log=asked[native]):
            log.append(("fits", a, b))
            return b - a <= 500

        def keep(a, b, log=asked[native]):
            log.append(("keep", a, b))
            return b - a <= 300

        _scan(text, native, fits, keep)
    assert asked[None] == asked[NATIVE]
    assert len(asked[None]) > 10
