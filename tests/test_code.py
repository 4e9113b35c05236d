"""The ``code`` strategy: syntax-tree chunking of source files.

Real code: modules of the interpreter's own standard library (read at test time, skipped
when absent) and the small files of tests/corpus/code (one or more per language; origins
in its SOURCES.md). On every file and size: the chunk contract holds, no chunk splits a
definition that fits the budget, and every chunk either parses as whole statements or is
marked ``split_part``.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sysconfig
from pathlib import Path

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.code import CodeChunker, supported_languages
from chunkwise.errors import ConfigError, MissingDependencyError
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.parsers.code_languages import LANGUAGES, resolve_language
from chunkwise.sizers import CharSizer

CORPUS = Path(__file__).parent / "corpus" / "code"
FILES = sorted(p for p in CORPUS.iterdir() if p.suffix not in (".md", ".txt"))  # (not SOURCES.md, licences)
STDLIB_MODULES = [
    "json/decoder.py",
    "textwrap.py",
    "shlex.py",
    "string.py",
    "functools.py",
    "dataclasses.py",
    "argparse.py",
    "calendar.py",
]
HAS_TS = importlib.util.find_spec("tree_sitter") is not None


def _stdlib(name: str) -> Path:
    path = Path(sysconfig.get_paths()["stdlib"]) / name
    if not path.is_file():
        pytest.skip(f"the standard library's {name} is not here")
    return path


def _needs(language: str) -> None:
    if language != "python" and not grammar_available(language):
        pytest.skip(f"the tree-sitter grammar of {language} is not installed")


def _parses(text: str, language: str) -> bool:
    """Whether ``text`` parses without a syntax error in ``language``."""
    if language == "python":
        try:
            ast.parse(text)
        except SyntaxError:
            return False
        return True
    if language == "php" and not text.lstrip().startswith("<?php"):
        text = "<?php\n" + text
    st = parse_code(text + "\n", language)  # a C macro or a Go declaration ends at a line end
    return not st.has_errors


def _check_file(text: str, language: str, size: int, parser: str = "auto") -> list:
    sizer = CharSizer()
    chunks = CodeChunker(language=language, chunk_size=size, parser=parser).chunk(text)
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    structure = parse_code(text, language, parser)
    # no chunk splits a definition that fits the budget
    for d in structure.definitions:
        if d.container:
            continue
        s, e = d.start, d.end
        if e - s <= size:
            assert any(c.start_index <= s and e <= c.end_index for c in chunks), (
                f"{d.qualname} ({e - s} chars) fits {size} but is split"
            )
    # every chunk is whole statements, or says it is a part
    if not structure.has_errors:
        for c in chunks:
            if not c.metadata["split_part"]:
                assert _parses(c.text, language), f"chunk {c.index} does not parse: {c.text[:200]!r}"
    for c in chunks:
        assert c.metadata["language"] == language
        assert 1 <= c.metadata["start_line"] <= c.metadata["end_line"]
        assert c.metadata["start_line"] == text.count("\n", 0, c.start_index) + 1
    return chunks


# -- real code ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [300, 1200])
@pytest.mark.parametrize("module", STDLIB_MODULES)
def test_stdlib_modules(module, size):
    text = _stdlib(module).read_text(encoding="utf-8")
    _check_file(text, "python", size)


@pytest.mark.parametrize("module", STDLIB_MODULES[:4])
def test_stdlib_without_tree_sitter_gives_the_same_chunks(module):
    """The standard library's ast reads Python much as the tree-sitter grammar does."""
    text = _stdlib(module).read_text(encoding="utf-8")
    by_ast = _check_file(text, "python", 800, parser="ast")
    if not grammar_available("python"):
        pytest.skip("tree-sitter-python is not installed")
    by_ts = CodeChunker(language="python", chunk_size=800).chunk(text)
    # the same whole chunks and the same definitions (split parts may differ: ast has no
    # node for an "else:" line, the grammar has one)
    whole = [(c.start_index, c.end_index) for c in by_ast if not c.metadata["split_part"]]
    assert whole == [(c.start_index, c.end_index) for c in by_ts if not c.metadata["split_part"]]
    assert [s for c in by_ast for s in c.metadata["symbols"]] == [s for c in by_ts for s in c.metadata["symbols"]]


@pytest.mark.parametrize("size", [120, 400, 2000])
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_files(path, size):
    doc = chunkwise.load(path)
    language = doc.metadata["language"]
    assert doc.metadata["format"] == "code"
    _needs(language)
    assert not parse_code(doc.text, language).has_errors, "the corpus file itself must parse"
    _check_file(doc.text, language, size)


def _chunks_read_whole_tree(monkeypatch, chunker: CodeChunker, text: str) -> list:
    """The chunks when every node of the syntax tree is read (no definition left closed)."""
    with monkeypatch.context() as m:
        m.setattr(CodeChunker, "_fits", lambda self, measure: None)
        return chunker.chunk(text)


def _facts(chunks) -> list:
    return [(c.start_index, c.end_index, c.context, dict(c.metadata)) for c in chunks]


@pytest.mark.skipif(not HAS_TS, reason="tree-sitter is not installed")
@pytest.mark.parametrize("size,unit", [(120, "chars"), (400, "chars"), (1000, "chars"), (64, "tokens")])
def test_definitions_that_fit_are_not_read_inside_and_nothing_changes(request, monkeypatch, size, unit):
    """A definition that fits (with its comments) is an atom: the parser reads only the
    definitions inside it (one query), not its statements -- the chunks, their context and
    metadata are the same as when the whole tree is read, for every language."""
    sizer = CharSizer() if unit == "chars" else request.getfixturevalue("cl100k")
    texts = [(chunkwise.load(p).text, chunkwise.load(p).metadata["language"]) for p in FILES]
    texts += [(_stdlib(m).read_text(encoding="utf-8"), "python") for m in STDLIB_MODULES[:3]]
    read_less = 0
    for text, language in texts:
        if not grammar_available(language):
            continue
        chunker = CodeChunker(language=language, chunk_size=size, unit=sizer)
        assert _facts(chunker.chunk(text)) == _facts(_chunks_read_whole_tree(monkeypatch, chunker, text)), language
        lean = parse_code(text, language, fits=chunker._fits(sizer.measure(text)))
        full = parse_code(text, language)
        # the same definitions (those inside closed ones found by the query), fewer statements
        assert [(d.qualname, d.head, d.end) for d in lean.definitions] == [
            (d.qualname, d.head, d.end) for d in full.definitions
        ]
        read_less += len(lean.statements) < len(full.statements)
    assert read_less >= 5


@pytest.mark.skipif(not HAS_TS, reason="tree-sitter is not installed")
def test_closed_definitions_out_of_walk_order_and_long_lines(monkeypatch):
    """Definitions left closed are met out of document order (the walk is depth first: a
    small function after a big class before the class's small methods); a long line after
    them must still be cut between tokens, as when the whole tree is read."""
    methods = "".join(f"    def m{i}(self, x):\n        return x + {i}\n\n" for i in range(12))
    long_call = "    value = compute(" + ", ".join(f"argument_{i}" for i in range(60)) + ")\n"
    text = (
        f"class Big:\n{methods}\n"
        "def small(a):\n    return a\n\n\n"
        f"def big(a):\n    first = 1\n{long_call}    return value\n"
    )
    chunker = CodeChunker(language="python", chunk_size=200)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 200, CharSizer(), trimmed=False, overlap_allowed=False)
    assert _facts(chunks) == _facts(_chunks_read_whole_tree(monkeypatch, chunker, text))
    cut = [c for c in chunks if "argument_" in c.text]
    assert len(cut) > 1 and all(c.metadata["part_of"] == "big" for c in cut)


def test_corpus_covers_every_language():
    found = {chunkwise.load(p).metadata["language"] for p in FILES}
    assert found | {"python"} == set(LANGUAGES)


@pytest.mark.parametrize("size", [60, 500])
def test_token_sizes(cl100k, size):
    text = _stdlib("textwrap.py").read_text(encoding="utf-8")
    chunks = CodeChunker(language="python", chunk_size=size, unit=cl100k).chunk(text)
    check_invariants(text, chunks, size, cl100k, trimmed=False, overlap_allowed=False)


# -- boundaries --------------------------------------------------------------------------

SOURCE = '''import json
import os

LIMIT = 10


@cached
def load(path):
    """Read one JSON file."""
    with open(path) as fh:
        return json.load(fh)


class Store:
    """Keeps things."""

    def __init__(self, root):
        self.root = root

    def path(self, name):
        return os.path.join(self.root, name)

    def save(self, name, data):
        with open(self.path(name), "w") as fh:
            json.dump(data, fh)
'''


def test_each_top_level_definition_starts_a_chunk():
    chunks = CodeChunker(language="python", chunk_size=1000, merge_small_definitions=False).chunk(SOURCE)
    assert [c.text.splitlines()[0] for c in chunks] == ["import json", "@cached", "class Store:"]
    assert chunks[1].metadata["symbols"] == ["load"]
    assert chunks[2].metadata["symbols"] == ["Store", "Store.__init__", "Store.path", "Store.save"]
    assert chunks[2].metadata["node_types"] == ["class_definition"]
    assert chunks[0].metadata["node_types"] == ["import_statement", "expression_statement"]
    assert [(c.metadata["start_line"], c.metadata["end_line"]) for c in chunks] == [(1, 4), (7, 11), (14, 25)]
    assert not any(c.metadata["split_part"] for c in chunks)
    assert all(c.context == "" for c in chunks)


def test_a_class_too_big_is_split_at_its_methods_with_its_signature_in_context():
    chunks = CodeChunker(language="python", chunk_size=130).chunk(SOURCE)
    store = [c for c in chunks if c.metadata.get("part_of", "").startswith("Store")]
    assert len(store) >= 2
    texts = [c.text for c in store]
    # each method is whole, and a chunk starts at the beginning of its line
    assert any(t.startswith("    def path(self, name):") for t in texts)
    assert any(t.startswith("    def save(self, name, data):") for t in texts)
    later = [c for c in store if not c.text.startswith("class")]
    assert later and all(c.context == "class Store:" for c in later)
    assert all(c.metadata["split_part"] for c in store)


def test_a_function_too_big_is_split_between_statements_never_inside_a_token():
    body = "".join(f"    value_{i} = compute_something(argument_{i}, other_{i})\n" for i in range(30))
    text = f"def big(a, b):\n{body}    return value_0\n"
    chunks = CodeChunker(language="python", chunk_size=200).chunk(text)
    assert len(chunks) > 3
    for c in chunks:
        assert c.text.lstrip().startswith(("def big", "value_", "return"))
        assert c.metadata["part_of"] == "big"
    assert all(c.context == "def big(a, b):" for c in chunks[1:])


def test_a_single_long_line_is_cut_between_tokens():
    text = "x = [" + ", ".join(f"item_{i}" for i in range(200)) + "]\n"
    chunks = CodeChunker(language="python", chunk_size=100).chunk(text)
    for c in chunks:
        for word in c.text.replace(",", " ").replace("[", " ").replace("]", " ").split():
            assert word in ("x", "=") or word.startswith("item_") and word[5:].isdigit(), word
    check_invariants(text, chunks, 100, CharSizer(), trimmed=False, overlap_allowed=False)


def test_decorators_and_doc_comments_stay_with_their_definition():
    ts = (
        "/**\n * Split one CSV line into cells.\n */\nfunction parseLine(line: string): string[] {\n"
        '  return line.split(",");\n}\n\n/** Read rows. */\n@logged\nexport async function readRows(t: string) {\n'
        "  return t.split('\\n').map(parseLine);\n}\n"
    )
    _needs("typescript")
    chunks = CodeChunker(language="typescript", chunk_size=150).chunk(ts)
    assert [c.text.splitlines()[0] for c in chunks] == ["/**", "/** Read rows. */"]
    assert [c.metadata["symbols"] for c in chunks] == [["parseLine"], ["readRows"]]


def test_small_definitions_merge_when_asked():
    text = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))
    one_each = CodeChunker(language="python", chunk_size=200, merge_small_definitions=False).chunk(text)
    assert len(one_each) == 6
    merged = CodeChunker(language="python", chunk_size=200, min_chunk_size=100, merge_small_definitions=True).chunk(text)
    assert len(merged) < 6
    assert [s for c in merged for s in c.metadata["symbols"]] == [f"f{i}" for i in range(6)]


def test_include_imports_puts_the_imports_in_context():
    chunks = CodeChunker(language="python", chunk_size=1000, include_imports=True, merge_small_definitions=False).chunk(SOURCE)
    assert chunks[0].context == ""  # it holds them
    assert chunks[1].context == "import json\nimport os"


def test_overlap_keeps_the_contract():
    text = _stdlib("shlex.py").read_text(encoding="utf-8")
    chunks = CodeChunker(language="python", chunk_size=400, chunk_overlap=100).chunk(text)
    check_invariants(text, chunks, 400, CharSizer(), trimmed=False, overlap_allowed=True)


def test_broken_python_still_chunks():
    text = "def ok():\n    return 1\n\ndef broken(:\n    pass\n" + "x = 1\n" * 50
    for parser in ("auto", "ast"):
        chunks = CodeChunker(language="python", chunk_size=80, parser=parser).chunk(text)
        check_invariants(text, chunks, 80, CharSizer(), trimmed=False, overlap_allowed=False)


@pytest.mark.parametrize(
    "language, name", [("javascript", "ms.js"), ("go", "shapes.go"), ("rust", "ring.rs"), ("c", "strbuf.c"),
                       ("java", "inventory.java"), ("sql", "schema.sql"), ("bash", "backup.sh")]
)
def test_languages_keep_definitions_whole(language, name):
    _needs(language)
    text = (CORPUS / name).read_text(encoding="utf-8")
    chunks = CodeChunker(language=language, chunk_size=10_000, merge_small_definitions=False).chunk(text)
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    assert symbols == [d.qualname for d in parse_code(text, language).definitions if not d.container]
    assert len(chunks) >= 2


def test_qualified_names():
    cases = {
        "go": ("shapes.go", "Circle.Area"),
        "rust": ("ring.rs", "Ring.push"),
        "cpp": ("matrix.hpp", "linalg.Matrix.at"),
        "csharp": ("Ledger.cs", "Example.Accounts.Ledger.Transfer"),
        "java": ("inventory.java", "Inventory.receive"),
        "ruby": ("cache.rb", "Cache.Store.fetch"),
        "kotlin": ("Graph.kt", "Graph.Companion.of"),
    }
    for language, (name, qual) in cases.items():
        if language != "python" and not grammar_available(language):
            continue
        names = [d.qualname for d in parse_code((CORPUS / name).read_text(encoding="utf-8"), language).definitions]
        assert qual in names, (language, names)


# -- configuration ---------------------------------------------------------------------------


def test_unknown_language_lists_the_supported_ones():
    with pytest.raises(ConfigError) as err:
        CodeChunker(language="notalanguage")
    for name in ("python", "typescript", "rust", "sql"):
        assert name in str(err.value)
    with pytest.raises(ValueError):
        chunkwise.chunk("x = 1", strategy="code", language="cobolish")


def test_language_aliases_and_suffixes():
    for alias, canon in [("py", "python"), ("TS", "typescript"), ("c++", "cpp"), ("C#", "csharp"), (".rs", "rust")]:
        assert resolve_language(alias) == canon
    assert len(supported_languages()) >= 16


def test_a_text_without_a_language_is_split_at_lines_with_a_warning():
    text = "x = 1\n\ny = 2\n" * 10
    with pytest.warns(UserWarning, match="language="):
        chunks = chunkwise.chunk(text, strategy="code", chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer(), trimmed=False, overlap_allowed=False)
    assert chunks[0].metadata["language"] is None and chunks[0].metadata["symbols"] == []


def test_missing_grammar_names_the_extra(monkeypatch):
    import chunkwise.chunkers.code as code_module

    monkeypatch.setattr(code_module, "grammar_available", lambda language: False)
    with pytest.raises(MissingDependencyError, match=r"chunkwise\[code\]"):
        CodeChunker(language="go")
    # Python is read by the standard library then
    chunks = CodeChunker(language="python", chunk_size=1000, merge_small_definitions=False).chunk(SOURCE)
    assert len(chunks) == 3


def test_load_auto_and_folders(tmp_path):
    (tmp_path / "a.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Just text.\n", encoding="utf-8")
    (tmp_path / "tool").write_text("#!/usr/bin/env python3\nprint('hi')\n", encoding="utf-8")
    doc = chunkwise.load(tmp_path / "a.py")
    assert (doc.metadata["format"], doc.metadata["language"]) == ("code", "python")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=1000, merge_small_definitions=False)
    assert [c.text.splitlines()[0] for c in chunks] == ["import json", "@cached", "class Store:"]
    tool = chunkwise.load(tmp_path / "tool")
    assert (tool.metadata["format"], tool.metadata["language"]) == ("code", "python")
    (tmp_path / "m.h").write_text("namespace n {\nclass A {\n};\n}\n", encoding="utf-8")
    (tmp_path / "c.h").write_text("struct s { int a; };\nint f(void);\n", encoding="utf-8")
    assert chunkwise.load(tmp_path / "m.h").metadata["language"] == "cpp"
    assert chunkwise.load(tmp_path / "c.h").metadata["language"] == "c"
    found = {f.path.name: f.format for f in chunkwise.loaders.find_files([tmp_path])}
    assert found == {"a.py": "code", "notes.txt": "text", "tool": "code", "m.h": "code", "c.h": "code"}


def test_cli_chunks_a_source_folder(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    args = ["chunk", str(src), "--strategy", "auto", "--chunk-size", "1000", "--output", str(out),
            "-p", "merge_small_definitions=false"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    import json

    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    store = ["Store", "Store.__init__", "Store.path", "Store.save"]
    assert [r["metadata"]["symbols"] for r in rows] == [[], ["load"], store]


def test_chunker_pickles():
    import pickle

    chunker = CodeChunker(language="ts", chunk_size=300, include_imports=True)
    assert pickle.loads(pickle.dumps(chunker)) == chunker


@pytest.mark.skipif(not os.environ.get("CI") and not HAS_TS, reason="tree-sitter is not installed")
def test_ci_has_the_grammars_of_python_js_and_ts():
    """CI installs '.[all,test]': the code extra must bring these grammars."""
    for language in ("python", "javascript", "typescript", "tsx"):
        assert grammar_available(language), language


# -- any input ---------------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_invariants import hostile  # noqa: E402

CODE_PIECES = [
    "def f(a, b):\n", "    return a + b\n", "class C:\n", "    def m(self):\n", "        pass\n", "@dec\n",
    "# comment\n", '"""doc\nstring"""\n', "import os\n", "x = [1,\n     2]\n", "if x:\n", "else:\n", "\n\n",
    "function g() {\n", "}\n", "  return 1;\n", "/** doc */\n", "export class K {}\n", "\t", "    ", "é\u0301",
    "s = 'a b c'\n", "\r\n", "longidentifier_" * 8, "(", ")", "{", "}", ":", "\u4e00\u4e8c", "\U0001f600",
]
code_documents = st.one_of(hostile, st.lists(st.sampled_from(CODE_PIECES), max_size=50).map("".join))


@given(text=code_documents, size=st.integers(1, 120), overlap_ratio=st.sampled_from([0, 0, 0.25]),
       language=st.sampled_from(["python", "python-ast", "typescript", "c"]), context=st.booleans())
def test_any_text_keeps_the_contract(text, size, overlap_ratio, language, context):
    parser = "ast" if language == "python-ast" else "auto"
    language = "python" if language == "python-ast" else language
    if language != "python" and not grammar_available(language):
        return
    overlap = min(size - 1, int(size * overlap_ratio))
    chunks = CodeChunker(
        language=language, chunk_size=size, chunk_overlap=overlap, parser=parser,
        include_imports=context, include_context_in_size=context,
    ).chunk(text)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_a_long_line_is_cut_in_linear_time(language):
    _needs(language)
    import time

    text = "x = [" + ", ".join(f"item_{i}" for i in range(20000)) + "]\n"
    started = time.perf_counter()
    chunks = CodeChunker(language=language, chunk_size=100).chunk(text)
    assert time.perf_counter() - started < 20  # about 0.1 s; quadratic was a minute
    check_invariants(text, chunks, 100, CharSizer(), trimmed=False, overlap_allowed=False)


@pytest.mark.parametrize("size", [120, 300, 1000])
def test_context_counted_in_the_size(size):
    text = _stdlib("json/decoder.py").read_text(encoding="utf-8")
    sizer = CharSizer()
    chunker = CodeChunker(language="python", chunk_size=size, include_imports=True, include_context_in_size=True)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    with_context = [c for c in chunks if c.context]
    assert with_context
    for c in with_context:
        assert sizer.count(c.context + "\n") + c.size <= size, (c.index, c.context)
        assert sizer.count(c.context + "\n") <= size // 2


def test_a_grammar_that_does_not_load_leaves_python_to_ast(monkeypatch):
    import chunkwise.parsers.code as parser_module
    from chunkwise.errors import ChunkwiseError

    def broken(language):
        raise ChunkwiseError("the grammar does not load")

    monkeypatch.setattr(parser_module, "tree_sitter_parser", broken)
    assert parse_code(SOURCE, "python").parser == "scan"  # (no grammar needed)
    tabbed = SOURCE.replace("    ", "\t")  # indentation by tabs: the scan leaves it to a parser
    assert parse_code(tabbed, "python").parser == "ast"
    assert len(CodeChunker(language="python", chunk_size=1000, merge_small_definitions=False).chunk(tabbed)) == 3


def test_doctests_of_the_code_modules():
    import doctest
    import importlib

    for name in ("chunkwise.chunkers.code", "chunkwise.loaders.code"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 0, name


def test_code_nested_hundreds_deep_is_chunked_within_the_budget() -> None:
    """600 nested blocks: the deeper indentations share one boundary level, so the packer's
    descent stays shallow (it used to raise RecursionError) and every invariant holds."""
    src = "".join("    " * i + f"if x{i}:\n" for i in range(600)) + "    " * 600 + "pass\n"
    for parser in ("auto", "tree-sitter"):
        chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=500, parser=parser)
        assert chunks and all(c.text == src[c.start_index : c.end_index] for c in chunks)
        assert all(len(c.text) <= 500 for c in chunks)
        assert "".join(src.split()) == "".join("".join(c.text.split()) for c in chunks)


def test_code_chunks_packed_full_keep_their_indentation() -> None:
    """A chunk that starts on an indented line is measured from the line's start, so it
    keeps its indentation even when it fills the budget (before, 28 of these chunks
    started after it: they were packed to the budget without it)."""
    body = "\n".join(f"        total += value_{i} * {i % 7}" for i in range(200))
    src = f"class Ledger:\n    def sum(self):\n        total = 0\n{body}\n        return total\n"
    for size in (150, 400, 1000):
        chunks = CodeChunker(language="python", chunk_size=size).chunk(src)
        check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
        for c in chunks:
            assert c.size <= size
            assert c.start_index == src.rfind("\n", 0, c.start_index) + 1, (size, c.text[:40])
    # indentation of half the budget or more is not kept: the chunk keeps room for code
    deep = "".join(" " * 60 + f"x{i} = {i}\n" for i in range(40))
    chunks = CodeChunker(language="python", chunk_size=100).chunk(deep)
    assert all(c.size <= 100 for c in chunks)


def test_a_lone_carriage_return_ends_a_python_line_as_for_python_itself():
    # classic Mac OS line ends: Python reads them as line breaks, so the structure is the
    # same as with line feeds (the parsers read a same-length copy; offsets hold)
    src = (
        "import os\n\n\nclass Store:\n    def __init__(self, path):\n        self.path = path\n\n"
        "    def load(self):\n        return open(self.path).read()\n\n\ndef main():\n    return Store('x').load()\n"
    )
    lf = CodeChunker(language="python", chunk_size=90).chunk(src)
    cr_text = src.replace("\n", "\r")
    cr = CodeChunker(language="python", chunk_size=90).chunk(cr_text)
    assert all(c.text == cr_text[c.start_index : c.end_index] for c in cr)
    # (the same cuts; a chunk's indentation is kept from a line feed only)
    assert [c.end_index for c in cr] == [c.end_index for c in lf]
    assert [c.text.lstrip(" ").replace("\r", "\n") for c in cr] == [c.text.lstrip(" ") for c in lf]
    assert [c.metadata["symbols"] for c in cr] == [c.metadata["symbols"] for c in lf]
    assert [c.context for c in cr] == [c.context for c in lf]
    assert ["Store.load" in c.metadata["symbols"] for c in cr].count(True) == 1


_JS = pytest.mark.skipif(not grammar_available("javascript"), reason="tree-sitter JavaScript grammar not installed")


@_JS
def test_definition_after_a_syntax_error_starts_its_own_chunk_with_qualified_symbols():
    # tree-sitter wraps the broken region in an ERROR node (reading the class as a class
    # expression inside it): the class is still a definition, its method qualified
    text = "function f( {\n  let x = 1\n}\n\nclass A {\n  m() {\n    return 1;\n  }\n}"
    chunks = chunkwise.chunk(text, strategy="code", language="javascript", chunk_size=200, merge_small_definitions=False)
    check_invariants(text, chunks, 200, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [c.text for c in chunks] == ["function f( {\n  let x = 1\n}", "class A {\n  m() {\n    return 1;\n  }\n}"]
    assert chunks[0].metadata["symbols"] == [] and chunks[0].metadata["node_types"] == ["ERROR"]
    assert chunks[1].metadata["symbols"] == ["A", "A.m"]
    structure = parse_code(text, "javascript", parser="tree-sitter")
    assert structure.has_errors
    assert [(d.qualname, d.parent) for d in structure.definitions] == [("A", -1), ("A.m", 0)]


@_JS
def test_inner_definitions_of_a_definition_on_one_line():
    for text in ("class A { m() { return 1 } }", "class A {\n  m() { return 1 }\n}"):
        chunks = chunkwise.chunk(text, strategy="code", language="javascript", chunk_size=200)
        assert [c.metadata["symbols"] for c in chunks] == [["A", "A.m"]], text
    text = "const x = 1;\nclass A { m() { return 1 } n() {} }\n"
    chunks = chunkwise.chunk(text, strategy="code", language="javascript", chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["A", "A.m", "A.n"]
