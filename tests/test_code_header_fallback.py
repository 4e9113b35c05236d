"""A definition's header line whose first body line does not fit beside it ends a
chunk after the header (the header alone), never between its tokens: the cut after a
header is the weakest line cut, still stronger than any cut inside a line."""

import ast
import sysconfig
from pathlib import Path

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

PY = "def process(items, flag=False):\n    total = 0\n    total = total + 1\n    return total\n"
PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])
needs_js = pytest.mark.skipif(not grammar_available("javascript"), reason="needs tree-sitter-javascript")


def texts(src, size, language="python", **kw):
    chunks = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return [c.text for c in chunks]


@pytest.mark.parametrize("parser", PARSERS)
def test_python_header_kept_whole(parser):
    assert texts(PY, 40, parser=parser) == [
        "def process(items, flag=False):",
        "    total = 0\n    total = total + 1",
        "    return total",
    ]


@pytest.mark.parametrize("parser", PARSERS)
def test_class_header_kept_whole(parser):
    src = "class A:\n    def f(self, aaaaaa, bbbbbb):\n        return aaaaaa\n"
    assert texts(src, 40, parser=parser) == ["class A:", "    def f(self, aaaaaa, bbbbbb):", "        return aaaaaa"]


@needs_js
def test_javascript_header_kept_whole():
    src = "function processItems(items, flag) {\n  let total = 0;\n  total = total + 1;\n  return total;\n}\n"
    out = texts(src, 40, language="javascript")
    assert out[0] == "function processItems(items, flag) {"
    assert not any(t.lstrip().startswith(("{", ":")) for t in out)


@pytest.mark.parametrize("parser", PARSERS)
def test_header_and_first_line_together_when_they_fit(parser):
    assert texts(PY, 50, parser=parser)[0] == "def process(items, flag=False):\n    total = 0"


@pytest.mark.parametrize("parser", PARSERS)
def test_header_goes_with_its_docstring_first_lines(parser):
    # the header and the whole docstring do not fit: the docstring is cut between its
    # lines, and the header stays with its first lines (no header alone, no token cut)
    doc = "".join(f"    line {i} of a long docstring that goes on\n" for i in range(8))
    src = 'def handler(request, response=None):\n    """Handle it.\n\n' + doc + '    """\n    return request\n'
    out = texts(src, 200, parser=parser)
    assert out[0].startswith('def handler(request, response=None):\n    """Handle it.')
    assert all(src[src.index(t) - 1] == "\n" or src.index(t) == 0 for t in out)


@pytest.mark.parametrize("parser", PARSERS)
def test_header_longer_than_chunk_size_is_cut_inside(parser):
    src = "def f(" + ", ".join(f"arg{i}" for i in range(20)) + "):\n    return 1\n"
    out = texts(src, 40, parser=parser)
    assert len(out) > 2 and out[-1].endswith("return 1")


def _header_spans(text):
    """(header start, header end) of every def and class (the colon included)."""
    spans = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            hs = offsets[node.lineno - 1] + node.col_offset
            bs = offsets[node.body[0].lineno - 1] + node.body[0].col_offset
            he = text.rfind(":", hs, text.rfind("\n", hs, bs) if "\n" in text[hs:bs] else bs) + 1
            if he > hs:
                spans.append((text.rfind("\n", 0, hs) + 1, hs, he))
    return spans


@pytest.mark.parametrize("name", ["json/decoder.py", "argparse.py", "_pyio.py", "base64.py"])
@pytest.mark.parametrize("size", [200, 400, 512, 1000])
def test_standard_library_header_lines_not_cut_between_tokens(name, size):
    path = Path(sysconfig.get_paths()["stdlib"]) / name
    if not path.exists():
        pytest.skip(f"{name} not found")
    text = path.read_text(encoding="utf-8")
    chunks = chunkwise.chunk(text, strategy="code", language="python", chunk_size=size)
    starts = [c.start_index for c in chunks]
    for ls, hs, he in _header_spans(text):
        if he - ls > size:
            continue  # (a header line longer than a chunk: cut inside, as it must)
        for s in starts:
            # a chunk may start at a line of a multi-line header, never inside a line of it
            assert not (hs < s < he and text[text.rfind("\n", 0, s) + 1 : s].strip()), (name, size, text[hs:he])
