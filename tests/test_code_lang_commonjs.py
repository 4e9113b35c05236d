"""CommonJS exports of a class or a function are definitions, named as a JavaScript
developer reads them: ``exports.B = class B {}`` is ``B``, ``module.exports.f = function
f() {}`` is ``f``, ``exports.g = function () {}`` is ``g`` (the property, as ``const h =
function k() {}`` is ``h``); ``module.exports = class C {}`` is ``C``. A function assigned to
another property is named by its path (``res.send``; ``exports.a.b`` is ``a.b``). Other
assignments are not definitions."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(not grammar_available("javascript"), reason="tree-sitter JavaScript grammar not installed")

SRC = (
    "exports.B = class B {\n  m() {\n    return 1;\n  }\n}\n\n"
    "module.exports.f = function f(a) {\n  return a + 1;\n}\n\n"
    "exports.g = function (a) {\n  return a * 2;\n}\n\n"
    "exports.z = (a) => {\n  return a - 1;\n};\n\n"
    "const h = function k() {\n  return 3;\n};\n\n"
    "const C = class {\n  n() {}\n};\n"
)


def names(src, language="javascript"):
    return [(d.qualname, d.node_type) for d in parse_code(src, language).definitions]


def test_commonjs_exports_are_named_definitions():
    assert names(SRC) == [
        ("B", "assignment_expression"),
        ("B.m", "method_definition"),
        ("f", "assignment_expression"),
        ("g", "assignment_expression"),
        ("z", "assignment_expression"),
        ("h", "lexical_declaration"),
        ("C", "lexical_declaration"),
        ("C.n", "method_definition"),
    ]


def test_commonjs_definition_spans_and_signatures():
    st = parse_code(SRC, "javascript")
    by = {d.qualname: d for d in st.definitions}
    b = by["B"]
    assert SRC[b.start : b.end] == "exports.B = class B {\n  m() {\n    return 1;\n  }\n}"
    assert b.head == b.start and b.signature == "exports.B = class B"
    assert by["f"].signature == "module.exports.f = function f(a)"
    assert by["g"].signature == "exports.g = function (a)"
    assert [k for _s, _e, k in st.top] == ["definition"] * 6


def test_module_exports_itself():
    assert names("module.exports = class Store {\n  get() {}\n};\n") == [
        ("Store", "assignment_expression"), ("Store.get", "method_definition")
    ]
    # no name to give: not a definition
    assert names("module.exports = function () {\n  return 1;\n};\n") == []


@pytest.mark.parametrize(
    "src, name",
    [
        ("foo.exports.x = function () {\n  return 1;\n};\n", "foo.exports.x"),
        ("exports.a.b = function () {\n  return 1;\n};\n", "a.b"),
        ("res.send = function send(body) {\n  return body;\n};\n", "res.send"),
    ],
)
def test_functions_assigned_to_properties_are_definitions(src, name):
    # named by the property path, ``exports.`` left out at its start only
    assert names(src) == [(name, "assignment_expression")]


@pytest.mark.parametrize(
    "src",
    [
        "exports.n = 1 + 2;\n",
        "x = function () {\n  return 1;\n};\n",
    ],
)
def test_other_assignments_are_not_definitions(src):
    assert names(src) == []


def test_typescript_commonjs_export():
    if not grammar_available("typescript"):
        pytest.skip("tree-sitter TypeScript grammar not installed")
    assert names("exports.f = function (a: number): number {\n  return a;\n};\n", "typescript") == [
        ("f", "assignment_expression")
    ]


@pytest.mark.parametrize("size", [40, 60, 80, 150])
def test_commonjs_chunks_start_at_exports(size):
    chunks = chunkwise.chunk(SRC, strategy="code", language="javascript", chunk_size=size)
    check_invariants(SRC, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    starts = {c.start_index for c in chunks}
    for head in ("exports.B", "module.exports.f", "exports.g", "exports.z"):
        assert SRC.index(head) in starts, (size, head, [c.text for c in chunks])
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    assert symbols == ["B", "B.m", "f", "g", "z", "h", "C", "C.n"]


def test_commonjs_class_after_a_syntax_error_named_once():
    src = "function broken( {\n\nexports.B = class B {\n  m() {\n    return 1;\n  }\n}\n"
    qual = [d.qualname for d in parse_code(src, "javascript").definitions]
    assert qual.count("B") == 1, qual
