"""Code chunking, Bash: a compound statement (a loop, ``if``, ``case``, a subshell) that fits
``chunk_size`` is kept whole, as a definition is, even where evening out a short chunk next
to it would have cut it between its lines (or between ``for`` and a ``do`` on its own line)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(not grammar_available("bash"), reason="tree-sitter bash grammar not installed")

# a loop of 116 characters, from a standard shell script (bzexe), between a few statements
BZEXE = """rm -f zfoo[12]$$

tail=""
IFS="${IFS= \t}"; saveifs="$IFS"; IFS="${IFS}:"
for dir in $PATH; do
  test -z "$dir" && dir=.
  if test -f $dir/tail; then
    tail="$dir/tail"
    break
  fi
done
IFS="$saveifs"
"""

# a loop of 92 characters whose "do" stands on its own line
DO_LINE = """#!/bin/sh
# Count the configuration files under /etc.
set -e
count=0
for f in /etc/*.conf
do
  echo "config file: $f"
  count=$((count + 1))
  last_one="$f"
done
echo "$count, $last_one"
"""


def chunk(src, size, **kw):
    chunks = chunkwise.chunk(src, strategy="code", language="bash", chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


def loop_of(src):
    return src[src.index("for ") : src.index("done") + 4]


def fits(size):
    return lambda s, e: e - s <= size


def test_the_loops_are_the_sizes_the_tests_need():
    assert len(loop_of(BZEXE)) == 116
    assert len(loop_of(DO_LINE)) == 92


def test_parser_lists_a_compound_statement_that_fits_once():
    loop = loop_of(BZEXE)
    s = BZEXE.index(loop)
    # the loop, not the "if" inside it (outermost only)
    assert parse_code(BZEXE, "bash", "auto", fits(120)).whole == ((s, s + len(loop)),)
    # too big: not listed, and the "if" inside it is
    inner = BZEXE[BZEXE.index("  if test") + 2 : BZEXE.index("  fi") + 4]
    i = BZEXE.index(inner)
    assert parse_code(BZEXE, "bash", "auto", fits(100)).whole == ((i, i + len(inner)),)
    # no size to fit: none
    assert parse_code(BZEXE, "bash").whole == ()


def test_parser_lists_no_function_body_and_no_plain_command():
    src = 'f() {\n  while true; do\n    x\n  done\n}\necho "a \\\n  b"\n'
    whole = parse_code(src, "bash", "auto", fits(30)).whole  # (the function does not fit)
    loop = src[src.index("while") : src.index("done") + 4]
    assert [src[s:e] for s, e in whole] == [loop]


@pytest.mark.parametrize("size", [116, 120, 124, 128])
def test_bzexe_loop_that_fits_starts_a_chunk_and_stays_whole(size):
    chunks = chunk(BZEXE, size)
    assert loop_of(BZEXE) in [c.text for c in chunks], [c.text for c in chunks]


@pytest.mark.parametrize("size", [100, 104, 110, 116])
def test_loop_with_do_on_its_own_line_is_not_cut_between_for_and_do(size):
    chunks = chunk(DO_LINE, size)
    loop = loop_of(DO_LINE)
    assert any(loop in c.text for c in chunks), [c.text for c in chunks]
    assert not any(c.text.endswith("/etc/*.conf") for c in chunks)


@settings(max_examples=40, deadline=None)
@given(
    before=st.integers(1, 6),
    body=st.integers(1, 5),
    after=st.integers(0, 3),
    kind=st.sampled_from(["for", "while", "if", "case", "subshell"]),
    slack=st.integers(0, 40),
)
def test_any_compound_statement_that_fits_is_kept_whole(before, body, after, kind, slack):
    lines = "".join(f'  echo "line {i} of the body"\n' for i in range(body))
    statement = {
        "for": f"for x in a b c\ndo\n{lines}done",
        "while": f"while read -r x; do\n{lines}done",
        "if": f'if [ -n "$x" ]; then\n{lines}else\n  echo none\nfi',
        "case": f'case "$x" in\n  a)\n{lines}  ;;\n  *) echo other ;;\nesac',
        "subshell": f"(\n  cd /tmp\n{lines})",
    }[kind]
    src = "".join(f"v{i}=value{i}\n" for i in range(before)) + statement + "\n"
    src += "".join(f"w{i}=1\n" for i in range(after))
    chunks = chunk(src, len(statement) + slack)
    assert any(statement in c.text for c in chunks), [c.text for c in chunks]
