"""The ``code`` strategy on cases found in user trials.

* a classic Mac OS file (lone carriage returns) is chunked as its line-feed twin;
* comment lines after a definition's last line of code do not make it be split;
* the signature in a chunk's context stops before the comment lines that open the body;
* a definition on one line too big for a chunk names the definitions inside it;
* a JavaScript class expression assigned after a syntax error is a definition;
* :class:`~chunkwise.parsers.code.Definition` keeps its behaviour as a value.
"""

from __future__ import annotations

import copy
import pickle
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.code import CodeChunker
from chunkwise.parsers.code import Definition, grammar_available, parse_code
from chunkwise.sizers import CharSizer


def _stdlib(name: str) -> str:
    path = Path(sysconfig.get_paths()["stdlib"]) / name
    if not path.is_file():
        pytest.skip(f"the standard library's {name} is not here")
    return path.read_text(encoding="utf-8")


def _spans(chunks) -> list[tuple[int, int]]:
    return [(c.start_index, c.end_index) for c in chunks]


_JS = pytest.mark.skipif(not grammar_available("javascript"), reason="tree-sitter JavaScript grammar not installed")


# -- 1. lone carriage returns ---------------------------------------------------------------


@pytest.mark.parametrize("size", [200, 400, 1000])
def test_a_classic_mac_file_is_chunked_as_its_line_feed_twin(size):
    lf = _stdlib("json/decoder.py")
    cr = lf.replace("\n", "\r")
    chunker = CodeChunker(language="python", chunk_size=size)
    a, b = chunker.chunk(lf), chunker.chunk(cr)
    # (at 1000: 22 chunks against 21 before, some starting after their indentation)
    assert _spans(b) == _spans(a)
    check_invariants(cr, b, size, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [c.text.replace("\r", "\n") for c in b] == [c.text for c in a]
    assert [(c.metadata["symbols"], c.metadata["start_line"], c.metadata["end_line"], c.context) for c in b] == [
        (c.metadata["symbols"], c.metadata["start_line"], c.metadata["end_line"], c.context) for c in a
    ]
    assert [c.size for c in b] == [c.size for c in a]


def test_a_classic_mac_file_in_tokens_keeps_each_chunk_within_the_budget(cl100k):
    # "\r\r" is two tokens where "\n\n" is one: the twin's cuts are kept only where the
    # chunks of the text itself fit; sizes are the text's own
    lf = _stdlib("json/decoder.py")
    cr = lf.replace("\n", "\r")
    assert cl100k.count(cr) > cl100k.count(lf)
    for size in (100, 256):
        chunks = CodeChunker(language="python", chunk_size=size, unit=cl100k).chunk(cr)
        check_invariants(cr, chunks, size, cl100k, trimmed=False, overlap_allowed=False)
    # where every chunk fits, the twin's cuts
    small = "import os\r\rdef f(a):\r    return a\r\r\rclass K:\r    def m(self):\r        return 1\r"
    twin = small.replace("\r", "\n")
    chunker = CodeChunker(language="python", chunk_size=60, unit=cl100k)
    assert _spans(chunker.chunk(small)) == _spans(chunker.chunk(twin))


def test_a_classic_mac_file_with_imports_in_context_reads_them_from_the_text():
    src = "from os import (\r    path,\r    sep,\r)\r\r\rdef f(a):\r    return path.join(a, sep)\r"
    chunks = CodeChunker(language="python", chunk_size=60, include_imports=True).chunk(src)
    assert [c.metadata["symbols"] for c in chunks] == [[], ["f"]]
    assert chunks[1].context == "from os import (\r    path,\r    sep,\r)"


_PIECES = [
    "def f(a, b):\n", "    return a + b\n", "class C:\n", "    def m(self):\n", "        pass\n", "@dec\n",
    "# comment\n", "    # note\n", '"""doc\nstring"""\n', "import os\n", "x = [1,\n     2]\n", "if x:\n",
    "else:\n", "\n\n", "    ", "\t", "s = 'a b c'\n", "longidentifier_" * 4, "(", ")", ":",
    "function g() {\n", "}\n", "  return 1;\n", "/** doc */\n", "export class K {\n", "  // note\n",
]


@settings(max_examples=80, deadline=None)
@given(pieces=st.lists(st.sampled_from(_PIECES), max_size=40), size=st.integers(20, 300),
       reading=st.sampled_from(["python auto", "python ast", "python tree-sitter", "typescript tree-sitter",
                                "c tree-sitter"]))
def test_any_classic_mac_text_has_the_cuts_of_its_line_feed_twin(pieces, size, reading):
    language, parser = reading.split()
    if parser == "tree-sitter" and not grammar_available(language):
        return
    lf = "".join(pieces)
    cr = lf.replace("\n", "\r")
    chunker = CodeChunker(language=language, chunk_size=size, parser=parser)
    a, b = chunker.chunk(lf), chunker.chunk(cr)
    check_invariants(cr, b, size, CharSizer(), trimmed=False, overlap_allowed=False)
    assert _spans(b) == _spans(a)
    assert [c.metadata["symbols"] for c in b] == [c.metadata["symbols"] for c in a]


# -- 2. comments after a definition's last line of code -------------------------------------


@pytest.mark.parametrize("parser", ["auto", "tree-sitter", "ast"])
def test_a_comment_after_a_definition_does_not_make_it_split(parser):
    if parser == "tree-sitter" and not grammar_available("python"):
        pytest.skip("tree-sitter-python is not installed")
    text = _stdlib("zipfile.py")
    start = text.index("        def addToZip(")
    code_end = text.index("os.path.join(zippath, nm))", start) + len("os.path.join(zippath, nm))")
    assert text[code_end:].lstrip().startswith("# else: ignore")
    assert code_end - text.index("def addToZip(") <= 400
    chunks = CodeChunker(language="python", chunk_size=400, parser=parser).chunk(text)
    check_invariants(text, chunks, 400, CharSizer(), trimmed=False, overlap_allowed=False)
    # the definition is whole in one chunk (it was cut in two), the comment in the next
    # one with the code after it
    whole = [c for c in chunks if c.start_index <= start + 8 and code_end <= c.end_index]
    assert len(whole) == 1 and whole[0].metadata["symbols"] == ["main.addToZip"]
    after = chunks[whole[0].index + 1]
    assert after.text.lstrip().startswith("# else: ignore") and "with ZipFile(zip_name" in after.text


@pytest.mark.parametrize("parser", ["auto", "tree-sitter"])  # (ast: a definition ends at its last statement)
def test_a_trailing_comment_stays_with_its_definition_when_both_fit(parser):
    if parser == "tree-sitter" and not grammar_available("python"):
        pytest.skip("tree-sitter-python is not installed")
    body = "".join(f"        total += item_{i}\n" for i in range(4))
    method = f"    def total(self):\n        total = 0\n{body}        return total\n        # note: no cache\n"
    text = f"class Bill:\n{method}\n    def other(self):\n        return 2\n"
    with_comment = len(method.rstrip())
    code_only = len(method[: method.index("        # note")].rstrip())
    both = CodeChunker(language="python", chunk_size=with_comment + 5, parser=parser).chunk(text)
    assert any(c.text.endswith("return total\n        # note: no cache") for c in both)
    tight = CodeChunker(language="python", chunk_size=code_only + 2, parser=parser).chunk(text)
    check_invariants(text, tight, code_only + 2, CharSizer(), trimmed=False, overlap_allowed=False)
    kept = [c for c in tight if "Bill.total" in c.metadata["symbols"]]
    assert len(kept) == 1 and kept[0].text.endswith("return total") and "def total" in kept[0].text
    assert tight[kept[0].index + 1].text.lstrip().startswith("# note: no cache")


# -- 3. the signature in context ----------------------------------------------------------------


_BODY = "".join(f"    value_{i} = compute(argument_{i})\n" for i in range(12))
_SPLIT = f"@dec\ndef big(a,\n        b):\n    # leading comment\n    # second\n    x = 1\n{_BODY}    return x\n"


@pytest.mark.parametrize("parser", ["auto", "tree-sitter", "ast"])
def test_the_signature_of_a_split_function_stops_before_its_body_comments(parser):
    if parser == "tree-sitter" and not grammar_available("python"):
        pytest.skip("tree-sitter-python is not installed")
    chunks = CodeChunker(language="python", chunk_size=150, parser=parser).chunk(_SPLIT)
    assert len(chunks) > 2
    # decorators stay out of it, as before; the def lines only
    assert {c.context for c in chunks[1:]} == {"def big(a,\n        b):"}
    (d,) = parse_code(_SPLIT, "python", parser).definitions
    assert d.signature == "def big(a,\n        b):"


@pytest.mark.parametrize(
    "language, text, want",
    [
        ("ruby", "class A\n  # c\n  def f(a)\n    # lead\n    x = 1\n  end\nend\n", ["class A", "  def f(a)"]),
        ("java", "class A {\n  int f(int a)\n  // lead\n  {\n    return 1;\n  }\n}\n", ["class A", "  int f(int a)"]),
        ("c", "int\nf(int a)\n/* between\n * lines */\n{\n  return a;\n}\n", ["int\nf(int a)"]),
        ("php", "<?php\nfunction f($a)\n// lead\n{\n  return 1;\n}\n", ["function f($a)"]),
        ("python", "def f(a='''\n# in a string'''):\n    # c\n    return a\n", ["def f(a='''\n# in a string'''):"]),
    ],
)
def test_signatures_leave_out_the_comment_lines_after_the_header(language, text, want):
    if language != "python" and not grammar_available(language):
        pytest.skip(f"the grammar of {language} is not installed")
    assert [d.signature for d in parse_code(text, language).definitions] == want


# -- 4. a definition on one line too big for a chunk ------------------------------------------------


@_JS
@pytest.mark.parametrize("size, overlap", [(20, 0), (40, 0), (30, 5), (200, 10)])
def test_a_one_line_definition_names_the_definitions_inside_it(size, overlap):
    text = "const x = 1;\nclass A { m() { return 1 } n() { return 2 } }\n"
    chunks = chunkwise.chunk(text, strategy="code", language="javascript", chunk_size=size, chunk_overlap=overlap)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    assert sorted(set(symbols)) == ["A", "A.m", "A.n"]
    if not overlap:
        # the inner definitions that fit are not cut
        for inner in ("m() { return 1 }", "n() { return 2 }"):
            assert any(inner in c.text for c in chunks), (inner, [c.text for c in chunks])


# -- 5. a class expression assigned after a syntax error -------------------------------------------


_BROKEN = "function f( {\n  let x = 1\n}\n\n"
_METHOD = " {\n  m() {\n    return 1;\n  }\n}\n"


@_JS
@pytest.mark.parametrize(
    "line, name, signature",
    [
        ("const B = class", "B", "const B = class"),
        ("exports.B = class", "B", "exports.B = class"),
        ("var B = class C extends D", "C", "var B = class C extends D"),
    ],
)
@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_a_class_assigned_after_a_syntax_error_is_a_definition(line, name, signature, language):
    if not grammar_available(language):
        pytest.skip(f"the grammar of {language} is not installed")
    text = _BROKEN + "// its doc\n" + line + _METHOD
    structure = parse_code(text, language)
    assert structure.has_errors
    assert [(d.qualname, d.signature, d.parent) for d in structure.definitions] == [
        (name, signature, -1), (f"{name}.m", "  m()", 0)
    ]
    chunks = chunkwise.chunk(
        text, strategy="code", language=language, chunk_size=200, merge_small_definitions=False
    )
    check_invariants(text, chunks, 200, CharSizer(), trimmed=False, overlap_allowed=False)
    # it starts its own chunk, with the comment above it, as the declaration would
    assert [c.text for c in chunks] == [_BROKEN.rstrip(), "// its doc\n" + line + _METHOD.rstrip()]
    assert chunks[1].metadata["symbols"] == [name, f"{name}.m"]


@_JS
def test_a_class_assigned_after_a_syntax_error_inside_a_block():
    text = "x = 1;\nif (a) {\n  y(;\n  this.B = class {\n    m() {\n      return 1;\n    }\n  }\n}\n"
    structure = parse_code(text, "javascript")
    assert [d.qualname for d in structure.definitions] == ["B", "B.m"]
    chunks = chunkwise.chunk(text, strategy="code", language="javascript", chunk_size=60)
    check_invariants(text, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    assert any(c.text.startswith("  this.B = class {") and c.metadata["symbols"] == ["B", "B.m"] for c in chunks)


# -- 6. Definition as a value ----------------------------------------------------------------------


def test_definition_is_an_immutable_value():
    d = Definition(1, 2, 30, "load", "Store.load", "function_definition", "    def load(self):", 0)
    assert (d.start, d.head, d.end, d.name, d.qualname, d.node_type, d.signature, d.parent, d.container) == (
        1, 2, 30, "load", "Store.load", "function_definition", "    def load(self):", 0, False
    )
    assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
    assert d == Definition(1, 2, 30, "load", "Store.load", "function_definition", "    def load(self):", 0, False)
    assert d != Definition(1, 2, 30, "load", "Store.load", "function_definition", "    def load(self):", 0, True)
    assert hash(d) == hash(copy.copy(d)) and len({d, copy.copy(d)}) == 1
    # equal to another Definition only, and not ordered
    fields = (1, 2, 30, "load", "Store.load", "function_definition", "    def load(self):", 0, False)
    assert d != fields and fields != d and not (d == fields)
    with pytest.raises(TypeError):
        _ = d < d
    with pytest.raises(AttributeError):
        d.start = 5  # type: ignore[misc]
    assert repr(d).startswith("Definition(start=1, head=2, end=30, name='load'")
