"""The structural scan of Python (``parser="scan"``, the default for Python).

Judged against two parsers it does not share code with: the standard library's ``ast``
(definitions, qualified names, whole statements) and the tree-sitter grammar (the same
definitions, starts, ends and signatures), on modules of the interpreter's own standard
library (read at test time, skipped when absent) and on constructs written here. A file
the scan cannot vouch for goes to a parser, and still chunks.
"""

from __future__ import annotations

import ast
import importlib.util
import sysconfig
from pathlib import Path

import pytest
from invariants import check_invariants

from chunkwise.chunkers.code import CodeChunker
from chunkwise.parsers.code import _from_tree_sitter, parse_code
from chunkwise.parsers.code_languages import LANGUAGES
from chunkwise.parsers.code_scan import scan_python
from chunkwise.sizers import CharSizer

MODULES = [
    "argparse.py", "json/decoder.py", "textwrap.py", "dataclasses.py", "functools.py", "typing.py",
    "calendar.py", "shlex.py", "string.py", "difflib.py", "inspect.py", "pathlib.py", "enum.py",
    "_pydecimal.py", "email/message.py", "http/client.py", "logging/__init__.py", "asyncio/tasks.py",
    "collections/__init__.py", "unittest/case.py",
]
HAS_TS = importlib.util.find_spec("tree_sitter") is not None and importlib.util.find_spec("tree_sitter_python")


def _stdlib(name: str) -> str:
    path = Path(sysconfig.get_paths()["stdlib"]) / name
    if not path.is_file():
        pytest.skip(f"the standard library's {name} is not here")
    return path.read_text(encoding="utf-8")


def _fits(size: int):
    return CodeChunker(language="python", chunk_size=size)._fits(CharSizer().measure(""))


def _ast_definitions(text: str) -> list[tuple[str, int]]:
    """(qualified name, line of the ``def``/``class`` keyword) of every definition."""
    out: list[tuple[str, int]] = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = f"{prefix}.{child.name}" if prefix else child.name
                out.append((q, child.lineno))
                walk(child, q)
            else:
                walk(child, prefix)

    walk(ast.parse(text), "")
    return sorted(out, key=lambda x: x[1])


def _scan_definitions(text: str, st) -> list[tuple[str, int]]:
    return sorted(((d.qualname, text.count("\n", 0, d.head) + 1) for d in st.definitions), key=lambda x: x[1])


@pytest.mark.skipif(not HAS_TS, reason="tree-sitter-python is not installed")
@pytest.mark.parametrize("size", [300, 1000])
@pytest.mark.parametrize("module", MODULES)
def test_the_same_definitions_as_the_grammar(module, size):
    text = _stdlib(module)
    fits = _fits(size)
    scan = scan_python(text, fits)
    assert scan is not None and scan.parser == "scan"
    tree = _from_tree_sitter(text, LANGUAGES["python"], fits)

    def facts(st):
        return [(d.qualname, d.start, d.head, d.end, d.node_type, d.parent, d.signature) for d in st.definitions]

    assert facts(scan) == facts(tree)
    assert scan.imports == tree.imports


@pytest.mark.parametrize("module", MODULES)
def test_structure_on_the_standard_library(module):
    """At 1000 characters: the contract holds, no definition that fits (as ``ast`` sees
    it, decorators included) is split, every chunk not marked as a part parses as whole
    statements, and the definitions are those ``ast`` finds."""
    text = _stdlib(module)
    assert _scan_definitions(text, parse_code(text, "python")) == _ast_definitions(text)
    chunks = CodeChunker(language="python", chunk_size=1000).chunk(text)
    check_invariants(text, chunks, 1000, CharSizer(), trimmed=False, overlap_allowed=False)
    lines = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def pos(line: int, col: int) -> int:  # (ast's columns count UTF-8 bytes)
        return lines[line - 1] + len(text[lines[line - 1] :].encode("utf-8")[:col].decode("utf-8", "ignore"))

    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            s = pos(node.lineno, node.col_offset)
            for d in node.decorator_list:
                s = min(s, text.rfind("@", 0, pos(d.lineno, d.col_offset)))
            e = pos(node.end_lineno, node.end_col_offset)
            if e - s <= 1000:
                assert any(c.start_index <= s and e <= c.end_index for c in chunks), node.name
    for c in chunks:
        if not c.metadata["split_part"]:
            ast.parse(c.text.strip("\n") if not c.text[:1].isspace() else "if 1:\n" + c.text)


TRICKY = '''"""Module docstring.

def not_a_function():
    pass
"""
import os, \\
    sys
from __future__ import annotations

X = [
1, 2,
]  # closing at column 0


@first
@second(
    arg=1,
)
async def fetch(a,
                b: dict[str, int] = {"k": (1, 2)}) -> "A:B":  # a note
    # a comment at the top of the body
    s = """
class NotAClass:
    pass
"""
# a comment at column 0 inside the body
    if a:
        return 1
    elif b:
        return 2
    else:
        return 3


class Shape(Base, metaclass=Meta):
    match = 1  # a name, not a statement

    def area(self): return 0

    def kind(self, x):
        match x:
            case 1:
                return "one"
            case _:
                return "many"

    class Inner:
        def deep(self):
            try:
                pass
            except (ValueError,
                    TypeError):
                pass
            finally:
                pass


def last(): pass
'''


def test_tricky_constructs_match_ast():
    st = scan_python(TRICKY, None)
    assert st is not None
    assert _scan_definitions(TRICKY, st) == _ast_definitions(TRICKY)
    fetch = next(d for d in st.definitions if d.name == "fetch")
    assert TRICKY[fetch.start :].startswith("@first") and TRICKY[fetch.head :].startswith("async def fetch")
    assert fetch.signature.startswith("async def fetch(a,")
    for size in (80, 200, 400, 2000):
        chunks = CodeChunker(language="python", chunk_size=size).chunk(TRICKY)
        check_invariants(TRICKY, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
        assert all(c.metadata["language"] == "python" for c in chunks)
    # the closed and the opened reading give the same definitions
    closed = scan_python(TRICKY, _fits(400))
    assert [(d.qualname, d.start, d.head, d.end) for d in closed.definitions] == [
        (d.qualname, d.start, d.head, d.end) for d in st.definitions
    ]


@pytest.mark.parametrize(
    "text",
    [
        "x = '''never closed\ndef f():\n    pass\n",
        "x = 'open\n",
        "def f():\n\treturn 1\n",  # tabs
        "x = 1\n    y = 2\n",  # an unexpected indent
        "if x:\n        a = 1\n    b = 2\n",  # a dedent to no open level
        "def f():\nx = 1\n",  # a header without a block
        "@decorator\nx = 1\n",  # a decorator without a definition
        "else:\n    pass\n",  # a clause without its statement
        "x = (1,\n",  # a bracket never closed
        "x = 1)\n",
    ],
)
def test_what_the_scan_cannot_vouch_for_goes_to_a_parser(text):
    assert scan_python(text, None) is None
    st = parse_code(text, "python")
    assert st.parser in ("tree-sitter", "ast", "lines")
    chunks = CodeChunker(language="python", chunk_size=20).chunk(text)
    check_invariants(text, chunks, 20, CharSizer(), trimmed=False, overlap_allowed=False)


def test_a_long_line_is_cut_between_tokens_never_inside_one():
    call = "value = compute(" + ", ".join(f"name_{i} ** 2 // 3" for i in range(40)) + ', "a b c", rb"x y")\n'
    text = f"def big(a):\n    {call}    return value\n"
    chunks = CodeChunker(language="python", chunk_size=60).chunk(text)
    check_invariants(text, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    tokens = {"**", "//", '"a b c"', 'rb"x y"'} | {f"name_{i}" for i in range(40)}
    for a, b in zip(chunks, chunks[1:]):
        joint = text[a.end_index - 3 : b.start_index + 3]
        assert not any(t in joint and t not in a.text and t not in b.text for t in tokens), joint


def test_parser_scan_is_python_only():
    from chunkwise.errors import ConfigError

    with pytest.raises(ConfigError, match="parser"):
        CodeChunker(language="go", parser="scan")
    with pytest.raises(ConfigError, match="parser"):
        parse_code("package main\n", "go", parser="scan")


def test_nesting_deeper_than_the_stack_is_left_to_a_parser():
    text = "".join("    " * i + f"if x{i}:\n" for i in range(600)) + "    " * 600 + "pass\n"
    assert scan_python(text, None) is None
    shallow = "".join("    " * i + f"if x{i}:\n" for i in range(60)) + "    " * 60 + "pass\n"
    assert scan_python(shallow, None) is not None


def test_the_mask_keeps_offsets_and_hides_strings_and_comments():
    from chunkwise.parsers.code_scan import _mask

    text = "x = {'a#': [1]}  # it's (\ny = \"\"\"\n(\"\"\" + \\\n    b'\\''\n"
    masked, multiline = _mask(text)
    assert len(masked) == len(text)
    assert masked.splitlines()[0] == "x = (____: (1))  ########"
    assert masked.count("\n") == 2  # the line break inside the string is hidden, and the one after "\"
    assert multiline == [(text.index('"""'), text.index('"""', text.index('"""') + 3) + 3)]
    assert _mask("x = 'open\n") is None


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("overlap", [0, 40])
def test_line_numbers_are_those_of_the_text(newline, overlap):
    """``start_line``/``end_line`` counted from the chunk before (``\\n`` files) or read
    from a list of line starts (a carriage return in the file), with or without overlap."""
    text = TRICKY.replace("\n", newline)
    for size in (120, 400):
        chunks = CodeChunker(language="python", chunk_size=size, chunk_overlap=overlap).chunk(text)
        assert len(chunks) > 2
        for c in chunks:
            assert c.metadata["start_line"] == text.count("\n", 0, c.start_index) + 1
            assert c.metadata["end_line"] == text.count("\n", 0, max(c.start_index, c.end_index - 1)) + 1


def test_describe_in_any_order_gives_the_same_metadata():
    st = scan_python(TRICKY, _fits(200))
    spans = [(c.start_index, c.end_index) for c in CodeChunker(language="python", chunk_size=200).chunk(TRICKY)]
    forward = [st.describe(TRICKY, s, e) for s, e in spans]
    backward = [st.describe(TRICKY, s, e) for s, e in reversed(spans)]
    assert forward == backward[::-1]


@pytest.mark.parametrize("module", MODULES[:6])
def test_statements_are_listed_in_order_outer_first(module):
    text = _stdlib(module)
    st = scan_python(text, _fits(1000))
    assert list(st.statements) == sorted(st.statements, key=lambda s: (s[0], -s[1]))
    assert all(text[s:e].strip() for s, e, _t in st.statements)


def _cuts_are_gaps(text: str, st) -> None:
    assert list(st.cuts) == sorted(set(st.cuts))
    for a, b, indent, kind in st.cuts:
        assert 0 < a < b and text[a:b].isspace() and kind in (0, 1, 2), (a, b)
        assert text[b - indent : b] == " " * indent and text[b - indent - 1] in "\r\n"


@pytest.mark.parametrize("module", MODULES[:8])
def test_every_cut_is_the_whitespace_between_a_line_end_and_a_statement(module):
    text = _stdlib(module)
    for fits in (None, _fits(1000)):
        _cuts_are_gaps(text, scan_python(text, fits))
    _cuts_are_gaps(TRICKY, scan_python(TRICKY, None))


def test_a_cut_after_a_backslash_continuation_starts_after_the_backslash():
    text = "def f():\n    x = 1 \\\n\n    y = 2\n    return x\n\n\nz = 3\n"
    ast.parse(text)
    for fits in (None, _fits(1000)):
        st = scan_python(text, fits)
        _cuts_are_gaps(text, st)
    st = scan_python(text, None)
    y = text.index("y = 2")
    assert [c for c in st.cuts if c[1] == y] == [(text.index("\\") + 1, y, 4, 1)]
    assert [text[s:e] for s, e, _t in st.statements[1:]] == ["x = 1", "y = 2", "return x", "z = 3"]
    # a line that begins with a backslash continuation: no cut before it (a cut is whitespace)
    text = "def k():\n    \\\n    q = 5\n\n\nz = 6\n"
    ast.parse(text)
    st = scan_python(text, None)
    _cuts_are_gaps(text, st)
    assert [text[b:].split("\n")[0] for _a, b, _i, _k in st.cuts] == ["z = 6"]


def test_comment_lines_go_with_the_statement_below_them_unless_a_blank_line_follows():
    text = "def f():\n    a = 1  # on a\n    # above b\n    b = 2\n    # alone\n\n    c = 3\n    return c\n"
    for fits in (None, _fits(20)):
        st = scan_python(text, fits)
        assert [(text[s:e], t) for s, e, t in st.statements[1:]] == [
            ("a = 1  # on a", "expression_statement"),
            ("# above b\n    b = 2", "expression_statement"),
            ("# alone", "comment"),
            ("c = 3", "expression_statement"),
            ("return c", "return_statement"),
        ]
        assert [text[b:].split("\n")[0] for _a, b, _i, _k in st.cuts] == [
            "a = 1  # on a", "# above b", "# alone", "c = 3", "return c"]
        _cuts_are_gaps(text, st)


def test_a_lone_carriage_return_is_read_as_a_line_break():
    # parse_code hands the scan a copy with line feeds there (same length): the scan
    # itself still refuses a lone carriage return
    text = "def f():\n    return 1\r\ndef g():\r    pass\n"
    assert scan_python(text, None) is None
    st = parse_code(text, "python")
    assert st.parser == "scan" and [d.qualname for d in st.definitions] == ["f", "g"]
    chunks = CodeChunker(language="python", chunk_size=20).chunk(text)
    check_invariants(text, chunks, 20, CharSizer(), trimmed=False, overlap_allowed=False)
