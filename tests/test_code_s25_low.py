"""Code chunking: Kotlin's ``annotation class`` under annotations is a definition; PHP's
namespace statement (``namespace App;``) names the definitions after it; an SQL qualified
name (``schema.func``) is one token, cut at its dot only when it does not fit."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer


def chunk(src, lang, size):
    chunks = chunkwise.chunk(src, strategy="code", language=lang, chunk_size=size, merge_small_definitions=False)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


kotlin = pytest.mark.skipif(not grammar_available("kotlin"), reason="no kotlin grammar")
php = pytest.mark.skipif(not grammar_available("php"), reason="no php grammar")
sql = pytest.mark.skipif(not grammar_available("sql"), reason="no sql grammar")


@kotlin
@pytest.mark.parametrize("word", ["annotation", "enum", "data"])
def test_kotlin_class_under_annotations_is_a_definition(word):
    src = (
        "package a\n\n"
        "@Target(AnnotationTarget.CLASS)\n"
        "@Retention(AnnotationRetention.RUNTIME)\n"
        f"{word} class Marker\n\n"
        "fun g() = 2\n"
    )
    st = parse_code(src, "kotlin")
    marker = [d for d in st.definitions if d.name == "Marker"]
    assert [d.qualname for d in marker] == ["Marker"]
    d = marker[0]
    assert src[d.start :].startswith("@Target") and src[d.head :].startswith(f"{word} class Marker")
    assert d.signature == f"{word} class Marker"
    chunks = chunk(src, "kotlin", 200)
    assert [c.metadata["symbols"] for c in chunks if "Marker" in c.text] == [["Marker"]]


@kotlin
def test_kotlin_annotation_class_in_a_class_body():
    src = (
        "class Outer {\n"
        "    @Target(AnnotationTarget.FIELD)\n"
        "    @Retention(AnnotationRetention.RUNTIME)\n"
        "    annotation class Inner\n\n"
        "    fun f() = 1\n"
        "}\n"
    )
    assert [d.qualname for d in parse_code(src, "kotlin").definitions] == ["Outer", "Outer.Inner", "Outer.f"]
    # a call that reads like one is not a class
    call = "fun h() {\n    @Suppress(\"x\")\n    a b c\n}\n"
    assert [d.qualname for d in parse_code(call, "kotlin").definitions] == ["h"]


@php
def test_php_namespace_statement_names_the_definitions_after_it():
    src = (
        "<?php\n"
        "namespace App\\Models;\n\n"
        "use Foo\\Bar;\n\n"
        "class User {\n"
        "    public function name() {\n"
        "        return 1;\n"
        "    }\n"
        "}\n\n"
        "namespace App\\Other;\n\n"
        "function helper() {\n"
        "    return 2;\n"
        "}\n"
    )
    names = [d.qualname for d in parse_code(src, "php").definitions if not d.container]
    assert names == ["App.Models.User", "App.Models.User.name", "App.Other.helper"]
    symbols = [s for c in chunk(src, "php", 60) for s in c.metadata["symbols"]]
    assert symbols == names


@php
def test_php_braced_namespace_and_no_namespace_unchanged():
    braced = "<?php\nnamespace App {\n    class User {\n        function f() { return 1; }\n    }\n}\n"
    assert [d.qualname for d in parse_code(braced, "php").definitions if not d.container] == [
        "App.User", "App.User.f",
    ]
    plain = "<?php\nclass User {\n    function f() { return 1; }\n}\n"
    assert [d.qualname for d in parse_code(plain, "php").definitions] == ["User", "User.f"]


SQL = (
    "CREATE OR REPLACE FUNCTION reporting_schema.compute_monthly_revenue_summary(start_date date, end_date date)\n"
    "RETURNS numeric AS $$\n"
    "BEGIN\n"
    "    RETURN 1;\n"
    "END;\n"
    "$$ LANGUAGE plpgsql;\n"
)
NAME = "reporting_schema.compute_monthly_revenue_summary"


@sql
@pytest.mark.parametrize("size", range(len(NAME), 90, 3))
def test_sql_qualified_name_that_fits_is_not_cut(size):
    chunks = chunk(SQL, "sql", size)
    assert any(NAME in c.text for c in chunks), (size, [c.text for c in chunks])
    assert [s for c in chunks for s in c.metadata["symbols"]] == [NAME]


@sql
@pytest.mark.parametrize("size", [20, 30, 40])
def test_sql_qualified_name_too_long_is_cut_at_its_dot(size):
    chunks = chunk(SQL, "sql", size)
    assert "reporting_schema." in [c.text for c in chunks], (size, [c.text for c in chunks])
