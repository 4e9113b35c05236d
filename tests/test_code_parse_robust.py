"""The ``code`` strategy on text that does not parse: no crash of the process.

* tree-sitter's ``first_child_for_byte`` crashed the process (a segmentation fault) on an
  ERROR node whose children leave out part of its text (C# and SQL prose); the children
  are now found by a binary search over ``child(i)``;
* a byte offset inside a lone surrogate (read by tree-sitter byte by byte) maps to the
  character's start, not past the end of the text (an IndexError);
* a fuzz batch over every supported language runs in a child process, where a crash shows
  as its exit status.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.code import supported_languages
from chunkwise.parsers.code import _first_child_ending_after, _Offsets, grammar_available
from chunkwise.sizers import CharSizer

_PROSE_CS = '-n t d not\ntion of "get" may or may not be relevant.'
_PROSE_SQL = (
    "Git is an Open Source project covered by the GNU General Public\n"
    "License version 2 (some parts of it are under different licenses,\n"
    "compatible with the GPLv2). It was originally written by Linus\n"
    "Torvalds with help of a group of hackers around the net."
)


def _run_child(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``code`` run by this Python in a child process that imports this chunkwise."""
    src = str(Path(chunkwise.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)


@pytest.mark.parametrize(("language", "text"), [("csharp", _PROSE_CS), ("sql", _PROSE_SQL)])
def test_prose_that_does_not_parse_does_not_crash(language: str, text: str) -> None:
    if not grammar_available(language):
        pytest.skip(f"no grammar for {language}")
    code = (
        "import chunkwise\n"
        f"text = {text!r}\n"
        "for size in (10, 20, 40, 60):\n"
        "    for overlap in (0, size // 4):\n"
        f"        chunks = chunkwise.chunk(text, strategy='code', language={language!r},\n"
        "                                 chunk_size=size, chunk_overlap=overlap)\n"
        "        assert all(c.text == text[c.start_index:c.end_index] for c in chunks)\n"
        "print('ok')\n"
    )
    out = _run_child(code)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    assert out.stdout.strip() == "ok"
    chunks = chunkwise.chunk(text, strategy="code", language=language, chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer())


def test_first_child_ending_after_matches_the_children() -> None:
    if not grammar_available("csharp"):
        pytest.skip("no grammar for csharp")
    from chunkwise.parsers.code import tree_sitter_parser

    tree = tree_sitter_parser("csharp").parse(_PROSE_CS.encode())
    work = [tree.root_node]
    seen = 0
    while work:
        node = work.pop()
        kids = node.children
        for byte in range(node.start_byte, node.end_byte + 2):
            want = next((k for k in kids if k.end_byte > byte), None)
            got = _first_child_ending_after(node, byte)
            assert (got is None) == (want is None)
            if got is not None:
                assert (got.start_byte, got.end_byte, got.type) == (want.start_byte, want.end_byte, want.type)
            seen += 1
        work.extend(kids)
    assert seen > 50


def test_byte_inside_a_lone_surrogate_maps_to_its_start() -> None:
    text = "a\ud800b"
    data = text.encode("utf-8", "surrogatepass")  # a, 3 bytes, b
    off = _Offsets(text, data)
    assert [off(b) for b in range(len(data) + 1)] == [0, 1, 1, 1, 2, 3]
    assert [off.to_byte(c) for c in range(len(text) + 1)] == [0, 1, 4, 5]


@pytest.mark.parametrize(("language", "text"), [("rust", "/*\n\ud800"), ("c", "'''%eg~c\\f\ud800")])
def test_lone_surrogate_at_the_end(language: str, text: str) -> None:
    if not grammar_available(language):
        pytest.skip(f"no grammar for {language}")
    chunks = chunkwise.chunk(text, strategy="code", language=language, chunk_size=10)
    check_invariants(text, chunks, 10, CharSizer())


_FUZZ = r'''
import warnings
warnings.simplefilter("ignore")
from hypothesis import HealthCheck, given, settings, strategies as st
import chunkwise
from chunkwise.chunkers.code import supported_languages

LANGS = sorted(supported_languages())
SEED = """/* Add an entry to the list. If out of memory, free the
   list and return NULL. */
#region Setup
-- a comment
SELECT a, b FROM t WHERE x = 'y';
class A { public int F(int x) { return x; } }
def f(x):
    'doc'
    return {"a": [1, 2]}
fn main() { let s = "é😀"; }
func (r *R) Get() error { return nil }
function g(a) { return `t${a}`; }
<?php echo $x; ?>
if [ -n "$x" ]; then echo "$x"; fi
#endregion
-n t d not
tion of "get" may or may not be relevant.
Git is an Open Source project covered by the GNU General Public
License version 2 (some parts of it are under different licenses,
compatible with the GPLv2). It was originally written by Linus
Torvalds with help of a group of hackers around the net.
"""
PIECES = ["{", "}", "(", ")", "[", "]", ";", ",", "'", '"', "`", "/*", "*/", "//", "--", "#", "\n", "\n\n",
          "\r\n", "\t", "    ", "x", "é", "\u2028", "\x00", "\ud800", "\\", "<?php", "?>", "#region", "$"]


@st.composite
def mangled(draw):
    lines = SEED.split("\n")
    a = draw(st.integers(0, len(lines) - 1))
    b = draw(st.integers(a + 1, len(lines)))
    part = lines[a:b]
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(part) - 1))
        j = draw(st.integers(0, len(part[i])))
        part[i] = part[i][:j] + draw(st.sampled_from(PIECES)) + part[i][j:]
    return "\n".join(part)


texts = st.one_of(st.lists(st.sampled_from(PIECES + ["ab", "if", "class", "def", "SELECT"]), min_size=1,
                           max_size=40).map("".join),
                  mangled(),
                  st.text(min_size=1, max_size=60))


@settings(max_examples=MAX, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(LANGS), texts, st.sampled_from([5, 10, 20, 40, 80]), st.booleans())
def run(language, text, size, overlap):
    ov = size // 4 if overlap else 0
    chunks = chunkwise.chunk(text, strategy="code", language=language, chunk_size=size, chunk_overlap=ov)
    assert all(c.text == text[c.start_index:c.end_index] for c in chunks)


# every window of one to four lines of SEED, in every language, at two sizes
lines = SEED.split("\n")
for language in LANGS:
    for a in range(len(lines)):
        for b in range(a + 1, min(a + 4, len(lines)) + 1):
            text = "\n".join(lines[a:b])
            if text.strip():
                for size in (13, 40):
                    chunks = chunkwise.chunk(text, strategy="code", language=language, chunk_size=size)
                    assert all(c.text == text[c.start_index:c.end_index] for c in chunks)
run()
print("ok")
'''


def test_fuzz_batch_in_a_child_process() -> None:
    """Hypothesis-made and mangled text in every supported language, at small sizes, with
    and without an overlap: the child process exits 0 (a crash would kill it)."""
    if not all(grammar_available(lang) for lang in supported_languages()):
        pytest.skip("a grammar is missing")
    out = _run_child(_FUZZ.replace("MAX", "300"), timeout=300)
    assert out.returncode == 0, (out.returncode, out.stderr[-3000:])
    assert out.stdout.strip().endswith("ok")
