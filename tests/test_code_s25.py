"""Code chunking: a compound statement (a loop, ``if``, ``try``, ``with``, ``switch``) that fits
the budget is kept whole inside a definition too big for a chunk, as Bash's are -- in Python
(the scan, tree-sitter and the standard library's ``ast``) and the tree-sitter languages,
without an overlap (an overlap never ends inside an atom). Evening out a short chunk next
to one no longer cuts it between its lines. A Bash loop after a pipe or ``||`` on its line
is kept whole too."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])
LANGS = [lang for lang in ("python", "javascript", "c", "go", "rust") if grammar_available(lang)]


def function(lang, before, body, after):
    """A function with ``before`` statements, a loop of ``body`` lines, ``after`` statements;
    the function and the loop (from the start of its line)."""
    if lang == "python":
        pre = "".join(f"    value_{i} = compute({i})\n" for i in range(before))
        loop = "for item in items:\n" + "".join(f"        total += item * {i}\n" for i in range(body))
        loop = loop.rstrip()
        post = "".join(f"    result_{i} = finish({i})\n" for i in range(after))
        return "def work(items):\n" + pre + "    " + loop + "\n" + post + "    return total\n", "    " + loop
    if lang == "javascript":
        pre = "".join(f"  const value{i} = compute({i});\n" for i in range(before))
        loop = "for (const item of items) {\n" + "".join(f"    total += item * {i};\n" for i in range(body)) + "  }"
        post = "".join(f"  const result{i} = finish({i});\n" for i in range(after))
        return "function work(items) {\n" + pre + "  " + loop + "\n" + post + "  return total;\n}\n", "  " + loop
    if lang == "c":
        pre = "".join(f"  int value{i} = compute({i});\n" for i in range(before))
        loop = "for (int i = 0; i < n; i++) {\n" + "".join(f"    total += items[i] * {i};\n" for i in range(body)) + "  }"
        post = "".join(f"  int result{i} = finish({i});\n" for i in range(after))
        return "int work(int *items, int n) {\n" + pre + "  " + loop + "\n" + post + "  return total;\n}\n", "  " + loop
    if lang == "go":
        pre = "".join(f"\tvalue{i} := compute({i})\n" for i in range(before))
        loop = "for _, item := range items {\n" + "".join(f"\t\ttotal += item * {i}\n" for i in range(body)) + "\t}"
        post = "".join(f"\tresult{i} := finish({i})\n" for i in range(after))
        return "func work(items []int) int {\n" + pre + "\t" + loop + "\n" + post + "\treturn total\n}\n", "\t" + loop
    assert lang == "rust"
    pre = "".join(f"    let value{i} = compute({i});\n" for i in range(before))
    loop = "for item in items {\n" + "".join(f"        total += item * {i};\n" for i in range(body)) + "    }"
    post = "".join(f"    let result{i} = finish({i});\n" for i in range(after))
    return "fn work(items: &[i32]) -> i32 {\n" + pre + "    " + loop + "\n" + post + "    total\n}\n", "    " + loop


def chunk(src, lang, size, overlap=0, **kw):
    chunks = chunkwise.chunk(src, strategy="code", language=lang, chunk_size=size, chunk_overlap=overlap, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


def fits(size):
    return lambda s, e: e - s <= size


def held(chunks, piece):
    return any(piece.strip() in c.text for c in chunks)


# -- the parser lists them ------------------------------------------------------------


@pytest.mark.parametrize("parser", PARSERS)
def test_python_parsers_list_the_outermost_compound_statement_that_fits(parser):
    src, loop = function("python", 2, 3, 1)
    src = src.replace("        total += item * 1\n", "        if item:\n            total += 1\n")
    loop = loop.replace("        total += item * 1\n", "        if item:\n            total += 1\n")
    s = src.index(loop.strip())
    size = len(loop) + 10  # (the loop fits, the function does not)
    whole = parse_code(src, "python", parser, fits(size)).whole
    assert [src[a:b] for a, b in whole] == [loop.strip()]
    assert whole == ((s, s + len(loop.strip())),)
    # ``keep`` alone (a context counted in the size: nothing is left closed), the same
    assert parse_code(src, "python", parser, None, fits(size)).whole == whole
    # too small: the "if" inside it, not the loop
    inner = "if item:\n            total += 1"
    got = parse_code(src, "python", parser, fits(len(inner) + 12)).whole
    assert [src[a:b] for a, b in got] == [inner]
    # no size: none
    assert parse_code(src, "python", parser).whole == ()


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "python"])
def test_tree_sitter_languages_list_the_loop_that_fits(lang):
    src, loop = function(lang, 2, 3, 1)
    whole = parse_code(src, lang, "auto", fits(len(loop) + 5)).whole
    assert [src[a:b] for a, b in whole] == [loop.strip()]


@pytest.mark.parametrize(
    "lang,src,statement",
    [
        ("java", "class A {\n  void f() {\n    x();\n    for (int i : xs) {\n      a(i);\n    }\n  }\n}\n",
         "for (int i : xs) {\n      a(i);\n    }"),
        ("csharp", "class A {\n  void F() {\n    X();\n    foreach (var i in xs) {\n      A(i);\n    }\n  }\n}\n",
         "foreach (var i in xs) {\n      A(i);\n    }"),
        ("ruby", "def f\n  x\n  while a\n    b\n  end\nend\n", "while a\n    b\n  end"),
        ("kotlin", "fun f() {\n  x()\n  when (x) {\n    1 -> c()\n  }\n}\n", "when (x) {\n    1 -> c()\n  }"),
        ("swift", "func f() {\n  x()\n  guard a else {\n    return\n  }\n}\n", "guard a else {\n    return\n  }"),
        ("php", "<?php\nfunction f() {\n  x();\n  foreach ($a as $b) {\n    a($b);\n  }\n}\n",
         "foreach ($a as $b) {\n    a($b);\n  }"),
        ("typescript", "function f(): void {\n  x();\n  switch (x) {\n    case 1: y();\n  }\n}\n",
         "switch (x) {\n    case 1: y();\n  }"),
    ],
)
def test_other_languages_list_their_compound_statements(lang, src, statement):
    if not grammar_available(lang):
        pytest.skip(f"no {lang} grammar")
    whole = parse_code(src, lang, "auto", fits(len(statement) + 6)).whole
    assert [src[a:b] for a, b in whole] == [statement]


# -- the chunks keep them whole -------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    lang=st.sampled_from(LANGS),
    before=st.integers(1, 4),
    body=st.integers(2, 4),
    after=st.integers(0, 3),
    slack=st.integers(0, 200),
)
def test_a_loop_that_fits_is_kept_whole_in_a_function_too_big(lang, before, body, after, slack):
    src, loop = function(lang, before, body, after)
    size = min(len(loop) + slack, len(src) - 1)
    chunks = chunk(src, lang, size)
    assert held(chunks, loop), (size, [c.text for c in chunks])


@pytest.mark.parametrize("parser", PARSERS)
def test_python_loop_evening_out_took_a_cut_in(parser):
    # (1 statement, a loop of 2 lines, none after: the chunk of "return total" was evened
    # out with a cut between the loop's lines at 74-80 characters)
    src, loop = function("python", 1, 2, 0)
    for size in range(len(loop), len(src)):
        chunks = chunk(src, "python", size, parser=parser)
        assert held(chunks, loop), (size, [c.text for c in chunks])


@pytest.mark.parametrize("parser", PARSERS)
def test_a_header_keeps_its_first_line_before_a_loop_that_does_not_fit_with_it(parser):
    # the loop is the body's first statement and does not fit with the header: the loop is
    # cut, the header is not left alone at the end of a chunk
    src = (
        "def work(items, weights, offsets):\n"
        "    for item, weight, offset in zip(items, weights, offsets):\n"
        "        total += item * weight + offset\n"
        "        count += 1\n"
        "    return total / count\n"
    )
    loop = src[src.index("    for") : src.index("count += 1") + 10]
    header = "def work(items, weights, offsets):"
    for size in range(len(loop), len(header) + len(loop)):
        chunks = chunk(src, "python", size, parser=parser)
        out = [c.text for c in chunks]
        assert out[0].startswith(header + "\n    for item"), (size, out)
        assert all(c.end_index == len(src) or src[c.end_index] == "\n" for c in chunks), (size, out)


def test_a_compound_statement_at_the_top_level_is_kept_whole():
    src = (
        "import sys\n\n"
        "VALUES = [1, 2, 3]\n"
        "if sys.platform == 'win32':\n"
        "    VALUES.append(4)\n"
        "    VALUES.append(5)\n"
        "else:\n"
        "    VALUES.append(6)\n"
        "TOTAL = sum(VALUES)\n"
    )
    statement = src[src.index("if sys") : src.index("(6)") + 3]
    for size in range(len(statement), len(src)):
        for parser in PARSERS:
            assert held(chunk(src, "python", size, parser=parser), statement), (size, parser)


# -- Bash: a loop after a pipe or a list operator on its line --------------------------

BASH = [
    ("x=1\ny=2\nfind . -name '*.c' | while read f; do\n  echo \"file: $f\"\n  wc -l \"$f\"\ndone\nz=3\n",
     "while read f; do\n  echo \"file: $f\"\n  wc -l \"$f\"\ndone"),
    ("x=1\ny=2\ntest -d /tmp || {\n  echo \"no tmp dir here\"\n  exit 1\n}\nz=3\n",
     "{\n  echo \"no tmp dir here\"\n  exit 1\n}"),
    ("x=1\ny=2\ncd /tmp && for f in *; do\n  echo \"file: $f\"\n  wc -l \"$f\"\ndone\nz=3\n",
     "for f in *; do\n  echo \"file: $f\"\n  wc -l \"$f\"\ndone"),
]


@pytest.mark.skipif(not grammar_available("bash"), reason="tree-sitter bash grammar not installed")
@pytest.mark.parametrize("src,loop", BASH)
def test_bash_loop_after_a_pipe_or_list_operator_is_kept_whole(src, loop):
    for size in range(len(loop), len(src)):
        chunks = chunk(src, "bash", size)
        assert held(chunks, loop), (size, [c.text for c in chunks])


@pytest.mark.skipif(not grammar_available("bash"), reason="tree-sitter bash grammar not installed")
def test_bash_parser_lists_the_loop_from_its_own_start_when_the_pipe_does_not_fit():
    src, loop = BASH[0]
    s = src.index(loop)
    line = src[src.index("find") : s + len(loop)]
    # the whole pipeline fits: it is listed (from the start of its line)
    assert parse_code(src, "bash", "auto", fits(len(line))).whole == ((src.index("find"), s + len(loop)),)
    # only the loop fits: the loop
    assert parse_code(src, "bash", "auto", fits(len(loop))).whole == ((s, s + len(loop)),)
