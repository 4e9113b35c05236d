"""Code chunking: names go to the chunk that holds them (SQL the grammar misreads, a header
cut before its name), namespaces kept whole or started at their header, statements kept
whole without the comments above them, Bash loops, annotation tokens, the language of a
Document built by hand, and a warning that names a language the strategy does not read."""

import re
import warnings

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise import Document
from chunkwise.chunkers.code import CodeWarning
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer


def needs(language):
    return pytest.mark.skipif(not grammar_available(language), reason=f"tree-sitter {language} grammar not installed")


def chunk(src, language, size, **kw):
    kw.setdefault("merge_small_definitions", False)  # (one definition per chunk)
    chunks = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


def last_name(qualname):
    return re.findall(r"[^\s.<>]+", qualname.split("<")[0])[-1]


def assert_names_held(src, language, chunks):
    """Every symbol's name is in its chunk; part_of and the context come from a definition
    around the chunk whose header holds its name."""
    defs = parse_code(src, language).definitions
    for c in chunks:
        for s in c.metadata["symbols"]:
            name = last_name(s)
            assert name in c.text or (name == "Companion" and "companion object" in c.text), (s, c.text)
        p = c.metadata.get("part_of")
        if p:
            around = [d for d in defs if d.qualname == p and d.start < c.end_index and c.start_index < d.end]
            assert around, (p, c.text)
            assert any(last_name(d.name) in d.signature or d.name == "Companion" for d in around), (
                p, [d.signature for d in around])


# -- SQL the grammar misreads ----------------------------------------------------------

SQL = """CREATE FUNCTION gin_extract_value_int2(int2, internal)
RETURNS internal
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT IMMUTABLE;

CREATE OPERATOR CLASS int2_ops
DEFAULT FOR TYPE int2 USING gin
AS
    OPERATOR        1       <,
    OPERATOR        2       <=,
    FUNCTION        1       btint2cmp(int2,int2),
    FUNCTION        2       gin_extract_value_int2(int2, internal),
STORAGE         int2;

CREATE FUNCTION gin_extract_value_int4(int4, internal)
RETURNS internal
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT IMMUTABLE;
"""


@needs("sql")
@pytest.mark.parametrize("size", [60, 120, 200, 1000])
def test_sql_statement_misread_across_a_semicolon_names_nothing_across(size):
    # the grammar reads CREATE OPERATOR CLASS ... ; CREATE FUNCTION f as one create_function
    # named f: each statement is read on its own
    chunks = chunk(SQL, "sql", size)
    assert_names_held(SQL, "sql", chunks)
    by_symbol = {s: c for c in chunks for s in c.metadata["symbols"]}
    assert set(by_symbol) == {"gin_extract_value_int2", "gin_extract_value_int4"}
    c = by_symbol["gin_extract_value_int4"]
    assert c.text.startswith("CREATE FUNCTION gin_extract_value_int4(")
    assert c.context == "" and c.metadata["node_types"] == ["create_function"]
    for c in chunks:
        if "OPERATOR" in c.text:
            assert c.metadata["symbols"] == [] and "part_of" not in c.metadata and c.context == ""


@needs("sql")
def test_sql_statement_pieces_are_top_level_items():
    st = parse_code(SQL, "sql")
    assert [(d.qualname, d.node_type) for d in st.definitions] == [
        ("gin_extract_value_int2", "create_function"), ("gin_extract_value_int4", "create_function")
    ]
    d = st.definitions[1]
    assert SQL[d.start : d.end].startswith("CREATE FUNCTION gin_extract_value_int4(")
    assert d.signature.startswith("CREATE FUNCTION gin_extract_value_int4(int4, internal)")
    ends = [SQL[s:e].rstrip()[-1:] for s, e in st.items]
    assert ends[1] == ";"  # (the operator class, with its ";")


@needs("sql")
def test_sql_semicolons_in_strings_comments_and_parentheses_end_no_statement():
    from chunkwise.parsers.code import _sql_statement_ends

    text = "SELECT ';', $$ a; b $$, $x$ ; $x$, \"a;b\" -- c;\n/* d; /* e; */ */ FROM t WHERE f(1;2); SELECT 2"
    assert _sql_statement_ends(text, 0, len(text)) == [text.index("; SELECT 2") + 1]


@needs("sql")
def test_sql_type_misread_from_an_operator_class_is_no_definition():
    src = (
        "CREATE FUNCTION citext_hash(citext)\nRETURNS int4\nAS 'MODULE_PATHNAME'\n"
        "LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;\n\n--\n-- The btree indexing operator class.\n--\n\n"
        "CREATE OPERATOR CLASS citext_ops\nDEFAULT FOR TYPE CITEXT USING btree AS\n"
        + "".join(f"    OPERATOR    {i}   <  (citext, citext),\n" for i in range(1, 6))
        + "    FUNCTION    1   citext_cmp(citext, citext);\n\nCREATE TYPE pair AS (a int, b int);\n"
    )
    # (read as "CREATE TYPE CITEXT": the name comes after text that is no "CREATE ... TYPE")
    assert [d.qualname for d in parse_code(src, "sql").definitions] == ["citext_hash", "pair"]


@needs("sql")
def test_symbol_of_a_header_cut_before_its_name_goes_with_the_name():
    src = (
        "REVOKE ALL ON t FROM PUBLIC;\n\n"
        "CREATE OR REPLACE FUNCTION pg_catalog.pg_file_rename(text, text)\nRETURNS bool\n"
        "AS 'SELECT 1'\nLANGUAGE SQL VOLATILE STRICT;\n"
    )
    chunks = chunk(src, "sql", 40)
    assert_names_held(src, "sql", chunks)
    [held] = [c for c in chunks if c.metadata["symbols"]]
    assert "pg_file_rename" in held.text


# -- PHP namespaces ----------------------------------------------------------------------

PHP = (
    "<?php\nnamespace A {\n  class B {\n    public function f() { return 1; }\n  }\n}\n\n"
    "namespace {\n  $calls = [];\n  function g() {\n    array_push($calls, 1);\n  }\n}\n"
)


@needs("php")
def test_php_namespace_that_fits_is_one_chunk():
    chunks = chunk(PHP, "php", 120)
    texts = [c.text for c in chunks]
    assert PHP[PHP.index("namespace A") : PHP.index("}\n\n") + 1] in texts
    second = PHP[PHP.index("namespace {") :].rstrip()
    assert second in texts
    [c] = [c for c in chunks if c.text == second]
    assert c.metadata["symbols"] == ["g"] and c.context == ""


@needs("php")
@pytest.mark.parametrize("size", [40, 60, 80])
def test_php_namespace_header_starts_its_first_member_chunk(size):
    chunks = chunk(PHP, "php", size)
    for head in ("namespace A {", "namespace {"):
        at = PHP.index(head)
        assert any(c.start_index == at for c in chunks), (size, [c.text for c in chunks])
        assert not any(c.text.rstrip().endswith(head) and c.start_index < at for c in chunks)


@needs("cpp")
def test_cpp_namespace_header_goes_with_its_first_member():
    body = "".join(f"int f{i}(int a) {{\n  return a + {i};\n}}\n\n" for i in range(4))
    src = "#include <a.h>\n\nnamespace n {\n\n" + body + "}\n"
    chunks = chunk(src, "cpp", 60)
    assert chunks[0].text == "#include <a.h>"
    assert chunks[1].text.startswith("namespace n {\n\nint f0(int a) {")


# -- a statement kept whole without the comments above it -------------------------------

TABLE = (
    "# The table maps each state to the action taken when hashing.\n"
    "# It is read by the generator and by the tests; keep it in sync.\n"
    "# Columns: unsafe_hash, eq, frozen, has-explicit-hash.\n"
    "# See the design notes for the details.\n"
    "TABLE = {\n"
    "    (False, False): None,\n    (False, True): _set_none,\n    (True, False): _add,\n"
    "    (True, True): _raise,\n    (None, False): _skip,\n    (None, True): _keep,\n"
    "}\n"
)


@pytest.mark.parametrize("parser", ["auto", "tree-sitter", "ast"])
def test_statement_that_fits_is_not_cut_to_keep_the_comments_above_it(parser):
    if parser == "tree-sitter" and not grammar_available("python"):
        pytest.skip("tree-sitter Python grammar not installed")
    statement = TABLE[TABLE.index("TABLE =") :].rstrip()
    assert len(statement) <= 200 < len(TABLE)
    chunks = chunk(TABLE, "python", 200, parser=parser)
    assert statement in [c.text for c in chunks], [c.text for c in chunks]


@needs("c")
def test_indented_statement_is_kept_whole_and_a_preprocessor_line_is_no_comment():
    body = "".join(f"        total += values[{i}] * weights[{i}];\n" for i in range(4))
    src = (
        "int f(int *values, int *weights)\n{\n    int total = 0;\n"
        "    // Add the weighted values: the weights were checked by the caller,\n"
        "    // and every value is in range, so no overflow can happen here.\n"
        "    for (int k = 0; k < 1; k++) {\n" + body + "    }\n"
        "#ifdef EXTRA\n    total += 1;\n    total += 2;\n#endif\n    return total;\n}\n"
    )
    loop = src[src.index("    for (") : src.index("#ifdef")].rstrip()
    chunks = chunk(src, "c", len(loop) + 20)
    assert any(loop in c.text for c in chunks), [c.text for c in chunks]
    assert not any(c.text.endswith("#ifdef EXTRA") for c in chunks)


def test_statement_with_comments_that_fit_together_stays_with_them():
    chunks = chunk(TABLE, "python", 400)
    assert [c.text for c in chunks] == [TABLE.rstrip()]


# -- Bash loops --------------------------------------------------------------------------


@needs("bash")
def test_bash_loop_that_fits_is_not_cut_after_its_header():
    head = "#!/bin/sh\n" + "".join(f"VAR{i}=value{i}\n" for i in range(8))
    loop = 'for ARG\ndo\n    case "$ARG" in\n    -*) OPTIONS="$OPTIONS $ARG" ;;\n     *) FILES="$FILES $ARG" ;;\n    esac\ndone'
    src = head + loop + "\necho done\n"
    chunks = chunk(src, "bash", len(head) + 20)
    assert any(loop in c.text for c in chunks), [c.text for c in chunks]


@needs("c")
def test_c_body_on_its_own_line_stays_with_its_statement():
    head = "".join(f"int v{i} = {i};\n" for i in range(6))
    stmt = "if (x)\n{\n    y = 1;\n    z = 2;\n}"
    src = "void f(int x)\n{\n" + head + stmt + "\nw = 3;\n}\n"
    chunks = chunk(src, "c", len(head) + 30)
    assert any(stmt in c.text for c in chunks), [c.text for c in chunks]


# -- annotation tokens -------------------------------------------------------------------


@needs("kotlin")
@pytest.mark.parametrize("size", [12, 20, 25])
def test_kotlin_annotation_is_not_cut_after_its_at_sign(size):
    src = '@Deprecated("x") @JvmStatic\nfun top() {\n    return 1\n}\n'
    chunks = chunk(src, "kotlin", size)
    assert not any(c.text.rstrip().endswith("@") for c in chunks), [c.text for c in chunks]
    assert any(c.text.startswith("@JvmStatic") for c in chunks)


@pytest.mark.parametrize(
    "language, src, glued",
    [
        ("python", "@decorate @again\ndef f():\n    return 1\n", ["@decorate", "@again"]),
        ("rust", "#[derive(Debug)] #![allow(x)]\nfn f() {\n    1\n}\n", ["#[derive", "#![allow"]),
        ("php", '<?php\n#[Route("/a")] #[Other]\nfunction f() {\n    return 1;\n}\n', ["#[Route", "#[Other"]),
        ("csharp", '[Test] [Category("x")]\npublic void F() {\n    var a = b[i];\n}\n', ["[Test", "[Category"]),
    ],
)
def test_attribute_openers_stay_with_their_name(language, src, glued):
    if language != "python" and not grammar_available(language):
        pytest.skip(f"tree-sitter {language} grammar not installed")
    for size in range(8, 24):
        chunks = chunk(src, language, size)
        for c in chunks:
            for g in glued:
                k = src.find(g)
                assert not (k < c.end_index < k + len(g)) or c.end_index - c.start_index >= size, (size, c.text)


@needs("kotlin")
def test_kotlin_context_leaves_out_annotations_on_the_header_line():
    src = "class A {\n    @B fun h() {\n" + "".join(f"        val x{i} = {i}\n" for i in range(6)) + "    }\n}\n"
    chunks = chunk(src, "kotlin", 60)
    contexts = {c.context for c in chunks if c.context}
    assert contexts and all("@B" not in ctx for ctx in contexts), contexts
    assert any(ctx.endswith("    fun h()") for ctx in contexts), contexts


@needs("swift")
def test_swift_signature_keeps_a_header_line_that_opens_with_an_attribute():
    src = "struct T {\n  @Test func parse()\n    throws\n  {\n    let a = 1\n  }\n}\n"
    by = {d.qualname: d for d in parse_code(src, "swift").definitions}
    assert by["T.parse"].signature == "  @Test func parse()\n    throws"
    contexts = [c.context for c in chunk(src, "swift", 30) if "let a" in c.text]
    assert contexts == ["struct T\n  func parse()\n    throws"], contexts


# -- the language of a Document built by hand --------------------------------------------

GO = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n\nfunc two() int {\n\treturn 2\n}\n"


@needs("go")
def test_document_metadata_language_is_honoured_without_a_format():
    with warnings.catch_warnings():
        warnings.simplefilter("error", CodeWarning)
        chunks = chunkwise.chunk(Document(GO, metadata={"language": "go"}), strategy="code", chunk_size=40)
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["main", "two"]
    assert all(c.metadata["language"] == "go" for c in chunks)


def test_document_metadata_natural_language_is_not_code():
    # a page's language ("en" from an HTML loader) is no code language: lines, with a warning
    with pytest.warns(CodeWarning, match="without language="):
        chunks = chunkwise.chunk(Document("a\n\nb\n", metadata={"language": "en", "format": "markdown"}),
                                 strategy="code", chunk_size=40)
    assert chunks
    with pytest.warns(CodeWarning, match="without language="):
        chunkwise.chunk(Document("a\n\nb\n", metadata={"language": "en"}), strategy="code", chunk_size=40)


# -- a language the strategy does not read ------------------------------------------------


@pytest.mark.parametrize("name, text", [
    ("tool.pl", "use strict;\nsub f {\n  return 1;\n}\n"),
    ("Tool.pm", "package Tool;\n1;\n"),
    ("tool", "#!/usr/bin/perl -w\nuse strict;\n"),
    ("tool", "#!/usr/bin/env perl\nuse strict;\n"),
])
def test_perl_is_named_as_not_supported(name, text):
    doc = chunkwise.load_text(text, source=name) if hasattr(chunkwise, "load_text") else Document(
        text, source=name, metadata={"filename": name, "format": "text"})
    with pytest.warns(CodeWarning) as record:
        chunks = chunkwise.chunk(doc, strategy="code", chunk_size=40)
    message = str(record[0].message)
    assert "Perl" in message and "python" in message and "does not read" in message, message
    assert "".join(c.text for c in chunks).replace("\n", "") == text.replace("\n", "")


# -- the rule on a few real-shaped files ---------------------------------------------------


@pytest.mark.parametrize("size", [60, 200, 1000])
@pytest.mark.parametrize("name, language", [
    ("schema.sql", "sql"), ("matrix.hpp", "cpp"), ("Router.php", "php"), ("Graph.kt", "kotlin"),
    ("ring.rs", "rust"), ("shapes.go", "go"), ("backup.sh", "bash"), ("Device.cs", "csharp"),
])
def test_symbols_and_part_of_name_text_the_chunk_holds(name, language, size):
    import pathlib

    if not grammar_available(language):
        pytest.skip(f"tree-sitter {language} grammar not installed")
    src = (pathlib.Path(__file__).parent / "corpus" / "code" / name).read_text(encoding="utf-8")
    assert_names_held(src, language, chunk(src, language, size))
