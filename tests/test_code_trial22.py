"""The ``code`` strategy on a second round of user-trial cases.

* minified code: items that share a line are packed together, and a lone ";" or ","
  belongs to the item before it (no tiny chunks);
* no chunk ends with the header of a definition whose body is in the next chunk;
* SQL: a CREATE TYPE with properties is named after the type, not its first property;
* parser="ast" on a file with a syntax error warns instead of silently losing every symbol;
* include_imports: a chunk before the imports (a licence comment) gets no imports context;
* the strategy's flags must be booleans.
"""

import re
import sysconfig
from pathlib import Path

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.code import CodeChunker, CodeWarning
from chunkwise.errors import ConfigError
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

needs_js = pytest.mark.skipif(not grammar_available("javascript"), reason="needs tree-sitter-javascript")


@needs_js
def test_definitions_on_one_line_share_a_chunk():
    src = "function a(){return 1};function b(){return 2};function c(){return 3}\n"
    chunks = chunkwise.chunk(src, strategy="code", language="javascript", chunk_size=1500)
    assert [c.text for c in chunks] == [src.rstrip("\n")]
    assert chunks[0].metadata["symbols"] == ["a", "b", "c"]


@needs_js
def test_minified_file_gives_full_chunks():
    src = "".join(f"function f{k}(a,b){{var c=a+b*{k};return c}};var v{k}=f{k}(1,2);" for k in range(400)) + "\n"
    chunks = chunkwise.chunk(src, strategy="code", language="javascript", chunk_size=500)
    check_invariants(src, chunks, 500, CharSizer())
    assert all(c.text.strip(";,") for c in chunks)
    # every chunk but the last holds at least a quarter of the budget
    assert all(c.size >= 125 for c in chunks[:-1])
    assert len(chunks) <= -(-len(src) // 400)


@needs_js
def test_definitions_on_their_own_lines_still_start_chunks():
    src = "function a(){return 1};\nfunction b(){return 2};\n"
    chunks = chunkwise.chunk(
        src, strategy="code", language="javascript", chunk_size=1500, merge_small_definitions=False
    )
    assert [c.metadata["symbols"] for c in chunks] == [["a"], ["b"]]
    assert chunks[0].text == "function a(){return 1};"


HEADER = re.compile(r"^\s*(async\s+)?(def|class)\b.*:\s*$")


def _ends_with_header(chunks):
    return [c.text for c in chunks[:-1] if HEADER.match(c.text.rstrip().splitlines()[-1])]


def test_class_whose_first_method_is_too_big_keeps_its_header():
    body = "".join(f"        x{i} = compute({i}, {i + 1}, {i + 2})\n" for i in range(40))
    src = "import os\n\n\nclass Meta(type):\n    def __new__(cls, name, bases, ns):\n" + body + "        return x0\n"
    for parser in ("auto", "ast"):
        chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=600, parser=parser)
        assert not _ends_with_header(chunks), parser
        first = next(c for c in chunks if "class Meta" in c.text)
        assert "def __new__" in first.text


def test_function_header_stays_with_its_docstring():
    doc = '    """' + " ".join(["Convert other to a number."] * 8) + '\n    """\n'
    body = "".join(f"    if other == {i}:\n        return {i}\n" for i in range(12))
    src = "##### Helpers ####\n\ndef convert(other, raiseit=False):\n" + doc + body
    for parser in ("auto", "ast"):
        chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=400, parser=parser)
        assert not _ends_with_header(chunks), parser


@pytest.mark.skipif(not grammar_available("bash"), reason="needs tree-sitter-bash")
def test_bash_function_name_stays_with_its_brace():
    body = "".join(f'    local v{i}="$1"  # value number {i}\n' for i in range(20))
    src = "# remove a file\n# and its backups\nhandle_deleted()\n{\n" + body + "}\n"
    chunks = chunkwise.chunk(src, strategy="code", language="bash", chunk_size=300)
    assert not any(c.text.rstrip().endswith("handle_deleted()") for c in chunks)


def test_standard_library_typing_namedtuplemeta():
    path = Path(sysconfig.get_paths()["stdlib"]) / "typing.py"
    if not path.exists():
        pytest.skip("no typing.py")
    text = path.read_text(encoding="utf-8")
    chunks = chunkwise.chunk(text, strategy="code", language="python", chunk_size=1500)
    assert not any(c.text.strip() == "class NamedTupleMeta(type):" for c in chunks)


needs_sql = pytest.mark.skipif(not grammar_available("sql"), reason="needs tree-sitter-sql")


@needs_sql
def test_create_type_symbol():
    src = (
        "CREATE TYPE cube (\n\tINTERNALLENGTH = variable,\n\tINPUT = cube_in,\n\tOUTPUT = cube_out\n);\n\n"
        "CREATE TABLE t (a int);\n\nCREATE INDEX ix ON t (a);\n"
    )
    chunks = chunkwise.chunk(src, strategy="code", language="sql", chunk_size=120, merge_small_definitions=False)
    assert [c.metadata["symbols"] for c in chunks] == [["cube"], ["t"], ["ix"]]


SYNTAX_ERROR = "def a(x):\n    return x +* 2\n\n\ndef b(y):\n    return y\n"


def test_ast_syntax_error_warns():
    with pytest.warns(CodeWarning, match="syntax error"):
        chunks = chunkwise.chunk(SYNTAX_ERROR, strategy="code", language="python", chunk_size=30, parser="ast")
    assert "".join(c.text for c in chunks).replace("\n", "") == SYNTAX_ERROR.replace("\n", "")


def test_auto_recovers_without_warning(recwarn):
    chunks = chunkwise.chunk(SYNTAX_ERROR, strategy="code", language="python", chunk_size=30)
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["a", "b"]
    assert not [w for w in recwarn if issubclass(w.category, CodeWarning)]


needs_go = pytest.mark.skipif(not grammar_available("go"), reason="needs tree-sitter-go")

GO_LICENCE = """// Copyright 2024 The Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
\t"fmt"
\t"os"
)

func main() {
\tfmt.Println(os.Args[0])
\tfmt.Println("a fairly long line to make this function bigger than the budget")
}
"""


@needs_go
def test_licence_chunk_gets_no_imports():
    chunks = chunkwise.chunk(GO_LICENCE, strategy="code", language="go", chunk_size=100, include_imports=True)
    imports_end = GO_LICENCE.index(")\n") + 1
    before = [c for c in chunks if c.end_index <= GO_LICENCE.index("package")]
    after = [c for c in chunks if c.start_index >= imports_end]
    assert before and after
    assert all(c.context == "" for c in before)
    assert all(c.context.startswith('package main\nimport (') for c in after)


@pytest.mark.parametrize("flag", ["include_imports", "include_context_in_size", "merge_small_definitions"])
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_non_bool_flag_raises(flag, value):
    with pytest.raises(ConfigError, match=flag):
        CodeChunker(language="python", **{flag: value})
    with pytest.raises(ValueError, match=flag):
        chunkwise.chunk("x = 1\n", strategy="code", language="python", **{flag: value})


def test_bool_flags_accepted():
    assert CodeChunker(language="python", include_imports=True, include_context_in_size=False).include_imports


@pytest.mark.skipif(not grammar_available("javascript"), reason="needs tree-sitter-javascript")
def test_javascript_header_stays_with_its_body_when_the_first_statement_is_long():
    long_line = "    const first = " + " + ".join(f"value{i}" for i in range(30)) + ";\n"
    src = "function total(value) {\n" + long_line + "".join(f"    step({i});\n" for i in range(5)) + "}\n"
    chunks = chunkwise.chunk(src, strategy="code", language="javascript", chunk_size=300)
    check_invariants(src, chunks, 300, CharSizer(), trimmed=False, overlap_allowed=False)
    assert not any(c.text.rstrip().endswith("{") for c in chunks)
    assert chunks[0].text.startswith("function total(value) {\n    const first")
