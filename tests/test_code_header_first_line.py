"""No chunk ends with a definition header (or the ``{`` that opens its body) while the
header and its first line fit together: not where the packer evens out two chunks, nor
where it moves a comment line to the next chunk. A header ends a chunk only when it must:
its first line does not fit beside it, a nested definition kept whole comes first, its
decorators take the room, or the header around it is part of the same piece."""

import ast
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])
needs_js = pytest.mark.skipif(not grammar_available("javascript"), reason="needs tree-sitter-javascript")

# (the shape of ast._Unparser.visit_Call: at 100 characters the header and its first line
# fit, the next statement alone is a runt, and evening the two out took the cut after the
# header)
VISIT = (
    "class Unparser:\n"
    "    x = 1\n"
    "\n"
    "    def visit_Call(self, node):\n"
    "        self.set_precedence(_Precedence.ATOM, node.func)\n"
    "        self.traverse(node.func)\n"
    '        with self.delimit("(", ")"):\n'
    "            comma = False\n"
    "            for e in node.args:\n"
    "                if comma:\n"
    '                    self.write(", ")\n'
    "                else:\n"
    "                    comma = True\n"
    "                self.traverse(e)\n"
)


def chunk(src, size, language="python", **kw):
    chunks = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


def _headers(text):
    """``(line start, header end, first line end, decorators start, node, parent)`` of
    every def and class whose body starts on a later line."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    out = []

    def walk(node, parent):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                hs = offsets[child.lineno - 1] + child.col_offset
                bs = offsets[child.body[0].lineno - 1] + child.body[0].col_offset
                brk = text.rfind("\n", hs, bs)
                if brk >= 0:
                    he = text.rfind(":", hs, brk) + 1
                    fe = text.find("\n", bs)
                    fe = len(text) if fe < 0 else fe
                    ds = hs
                    if child.decorator_list:
                        ds = offsets[child.decorator_list[0].lineno - 1]
                    out.append((text.rfind("\n", 0, ds) + 1, he, fe, child, parent))
                walk(child, child)
            else:
                walk(child, parent)

    walk(ast.parse(text), None)
    return out


def _trimmed_ends(text, chunks):
    ends = set()
    for c in chunks:
        e = c.end_index
        while text[e - 1].isspace():
            e -= 1
        ends.add(e)
    return ends


@pytest.mark.parametrize("parser", PARSERS)
def test_header_not_alone_where_evening_out_looks_for_a_cut(parser):
    out = [c.text for c in chunk(VISIT, 100, parser=parser)]
    assert not any(t.rstrip().endswith("def visit_Call(self, node):") for t in out), out
    assert any(
        "    def visit_Call(self, node):\n        self.set_precedence(_Precedence.ATOM, node.func)" in t for t in out
    ), out


@pytest.mark.parametrize("parser", PARSERS)
def test_header_not_left_behind_by_a_comment_line_moved_forward(parser):
    # a comment line that reads as a title is moved to the chunk after it, when a cut
    # lies before it: not the cut right after a header that fits with it
    src = (
        "class Store:\n    x = 1\n\n"
        "    def _check_conflict(self, action):\n\n"
        "        # find all options that conflict with this option\n"
        "        confl_optionals = []\n"
        "        for option_string in action.option_strings:\n"
        "            if option_string in self._option_string_actions:\n"
        "                confl_optional = self._option_string_actions[option_string]\n"
        "                confl_optionals.append((option_string, confl_optional))\n"
    )
    out = [c.text for c in chunk(src, 100, parser=parser)]
    assert not any(t.rstrip().endswith("def _check_conflict(self, action):") for t in out), out


@pytest.mark.parametrize("parser", PARSERS)
def test_starred_parameters_line_ends_the_header(parser):
    # a header's last line that starts with "**" is not a comment line: the header ends
    # after it, and it keeps its docstring's first line
    src = (
        "def suite(module=None, globs=None, extraglobs=None, test_finder=None,\n"
        "          **options):\n"
        '    """\n'
        "    Convert doctest tests for a module to a unittest test suite.\n"
        "\n"
        "    This converts each documentation string in a module that\n"
        "    contains doctest tests to a unittest test case.\n"
        '    """\n'
        "    if test_finder is None:\n"
        "        test_finder = DocTestFinder()\n"
    )
    out = [c.text for c in chunk(src, 150, parser=parser)]
    assert not out[0].rstrip().endswith("**options):"), out
    header = "def suite(module=None, globs=None, extraglobs=None, test_finder=None,\n          **options):"
    assert out[0].startswith(header + '\n    """'), out


@pytest.mark.parametrize("parser", PARSERS)
def test_decorators_stay_with_a_header_in_a_chain(parser):
    # the class header, the decorator and the method header fit with the method's first
    # line: no cut between them (evening out took the one after the decorator)
    src = (
        "class _TupleType(_SpecialGenericAlias, _root=True):\n"
        "    @_tp_cache\n"
        "    def __getitem__(self, params):\n"
        "        if not isinstance(params, tuple):\n"
        "            params = (params,)\n"
        "        if len(params) >= 2 and params[-1] is ...:\n"
        '            msg = "Tuple[t, ...]: t must be a type."\n'
        "            params = tuple(_type_check(p, msg) for p in params[:-1])\n"
        "            return self.copy_with((*params, _TypingEllipsis))\n"
    )
    for size in (100, 150, 200):
        out = [c.text for c in chunk(src, size, parser=parser)]
        assert not any(t.splitlines()[-1].lstrip().startswith("@") for t in out), (size, out)
    out = [c.text for c in chunk(src, 150, parser=parser)]
    assert out[0].endswith("    def __getitem__(self, params):\n        if not isinstance(params, tuple):"), out


@pytest.mark.parametrize("parser", PARSERS)
def test_header_chain_that_does_not_fit_ends_with_the_inner_header(parser):
    # the class header, the method header and its first line do not fit together: one
    # header must end a chunk, and the chunk starts at the class header (as before)
    src = (
        "class Chunk:\n"
        "    def __init__(self, file, align=True, bigendian=True, inclheader=False):\n"
        "        import struct\n"
        "        self.closed = False\n"
        "        self.align = align\n"
        "        self.file = file\n"
    )
    out = [c.text for c in chunk(src, 100, parser=parser)]
    assert out[0] == "class Chunk:\n    def __init__(self, file, align=True, bigendian=True, inclheader=False):", out


@needs_js
def test_javascript_brace_header_keeps_its_first_line():
    src = (
        "class Unpack {\n"
        "    x = 1;\n"
        "    [ENSURE_NO_SYMLINK](_entry, cwd, parts, done, onError) {\n"
        "        if (this.preservePaths || parts.length === 0)\n"
        "            return done();\n"
        "        let t = cwd;\n"
        "        for (const p of parts) {\n"
        "            t = path.resolve(t, p);\n"
        "            const [er, st] = lstatSync(t);\n"
        "            if (er)\n"
        "                return done();\n"
        "            if (st.isSymbolicLink())\n"
        "                return onError(new SymlinkError(t, path.resolve(cwd, parts.join('/'))));\n"
        "        }\n"
        "        done();\n"
        "    }\n"
        "}\n"
    )
    for size in (120, 150):  # (the header and its first line: 114 characters)
        out = [c.text for c in chunk(src, size, language="javascript")]
        assert not any(t.rstrip().endswith("onError) {") for t in out), (size, out)


def _unforced_header_ends(text, chunks, size):
    """The headers that end a chunk though they fit with their first line, their
    decorators, a nested definition that comes first and the header around them."""
    ends = _trimmed_ends(text, chunks)
    found = []
    for ls, he, fe, node, parent in _headers(text):
        if he not in ends or fe - ls > size:
            continue
        if isinstance(node.body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # (a nested definition first: kept whole, it may not fit beside the header)
        found.append((node.name, text[ls:he]))
    return found


_NAME = st.sampled_from(["total", "count", "value", "result", "items", "node", "x"])
# (short lines too: a runt after the header and its first line is what evening out moves)
_LINE = st.builds(
    lambda a, b, n: f"{a} = {b} + {'1' * n}", _NAME, _NAME, st.one_of(st.integers(1, 3), st.integers(1, 70))
)


@st.composite
def _functions(draw):
    """A module of top-level functions (no decorators, no nested definitions): every
    header that ends a chunk while it fits with its first line is a fault."""
    parts = []
    for k in range(draw(st.integers(1, 3))):
        params = ", ".join(draw(st.lists(_NAME, min_size=0, max_size=4)))
        body = []
        for _ in range(draw(st.integers(1, 8))):
            block = draw(st.lists(_LINE, min_size=1, max_size=3))
            if draw(st.booleans()):
                body.append(f"    if {draw(_NAME)}:\n" + "\n".join(f"        {line}" for line in block))
            else:
                body.append(f"    {block[0]}")
        parts.append(f"def f{k}({params}):\n" + "\n".join(body) + "\n")
    return "\n\n".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(src=_functions(), size=st.integers(40, 160), parser=st.sampled_from(PARSERS))
@example(
    src="def f0(value):\n    if items:\n        x = x + " + "1" * 45 + "\n        count = count + 111111111\n"
    "        value = total + 111\n    if count:\n        result = x + 1\n    result = value + 111\n",
    size=40,
    parser="auto",
)
def test_no_header_ends_a_chunk_while_it_fits_with_its_first_line(src, size, parser):
    chunks = chunk(src, size, parser=parser)
    assert not _unforced_header_ends(src, chunks, size), [c.text for c in chunks]


@pytest.mark.parametrize("name", ["ast.py", "argparse.py", "typing.py", "ipaddress.py"])
@pytest.mark.parametrize("size", [100, 150, 200])
def test_standard_library_headers_end_a_chunk_only_when_forced(name, size):
    path = Path(sysconfig.get_paths()["stdlib"]) / name
    if not path.exists():
        pytest.skip(f"{name} not found")
    text = path.read_text(encoding="utf-8")
    chunks = chunkwise.chunk(text, strategy="code", language="python", chunk_size=size)
    ends = _trimmed_ends(text, chunks)
    heads = _headers(text)
    by_node = {id(node): (ls, parent) for ls, he, fe, node, parent in heads}
    for ls, he, fe, node, parent in heads:
        if he not in ends or fe - ls > size:
            continue
        if isinstance(node.body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # (a nested definition kept whole comes first)
        # a header chain: the headers around it, while each definition is the first item
        # of the one around it
        start, cur = ls, node
        while parent is not None and id(parent) in by_node and parent.body[0] is cur:
            start, cur = by_node[id(parent)][0], parent
            parent = by_node[id(parent)][1]
        assert fe - start > size, (name, size, text[ls:fe])
