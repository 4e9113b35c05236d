"""The code strategy: JavaScript functions assigned to properties are definitions; long
signatures in the context are cut short at a word boundary; a field stays with the
annotations on the lines above it; a header whose first line is too long for a chunk
ends the chunk together with the header around it when the two fit."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import _shorten, grammar_available, parse_code
from chunkwise.sizers import CharSizer

needs_js = pytest.mark.skipif(
    not grammar_available("javascript"), reason="tree-sitter JavaScript grammar not installed"
)


def names(src, language="javascript"):
    return [(d.qualname, d.node_type) for d in parse_code(src, language).definitions]


def chunk(src, language, size, **kw):
    kw.setdefault("merge_small_definitions", False)  # (one definition per chunk)
    chunks = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


# -- functions assigned to properties (JavaScript, TypeScript) -------------------------

JS = (
    "'use strict'\n\n"
    "Foo.prototype.bar = function (a, b) {\n  return a + b;\n};\n\n"
    "res.send = function send(body) {\n  return this.end(body);\n};\n\n"
    "module.exports.x = () => {\n  return 1;\n};\n\n"
    "obj.method = async function () {\n  await 1;\n};\n\n"
    "function Foo() {\n  this.baz = function () {\n    return 2;\n  };\n}\n"
)


@needs_js
def test_functions_assigned_to_properties_are_named_definitions():
    assert names(JS) == [
        ("Foo.prototype.bar", "assignment_expression"),
        ("res.send", "assignment_expression"),
        ("x", "assignment_expression"),
        ("obj.method", "assignment_expression"),
        ("Foo", "function_declaration"),
        ("Foo.baz", "assignment_expression"),
    ]
    by = {d.qualname: d for d in parse_code(JS, "javascript").definitions}
    d = by["Foo.prototype.bar"]
    assert JS[d.start : d.end] == "Foo.prototype.bar = function (a, b) {\n  return a + b;\n};"
    assert d.signature == "Foo.prototype.bar = function (a, b)"
    assert by["res.send"].signature == "res.send = function send(body)"
    assert by["obj.method"].signature == "obj.method = async function ()"


@needs_js
@pytest.mark.parametrize("size", [40, 60, 100, 1000])
def test_each_top_level_assignment_starts_a_chunk(size):
    chunks = chunk(JS, "javascript", size)
    starts = {c.start_index for c in chunks}
    for head in ("Foo.prototype.bar", "res.send", "module.exports.x", "obj.method", "function Foo"):
        assert JS.index(head) in starts, (size, head, [c.text for c in chunks])
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    assert symbols == ["Foo.prototype.bar", "res.send", "x", "obj.method", "Foo", "Foo.baz"]


@needs_js
def test_prototype_methods_are_kept_whole_one_per_chunk():
    methods = "".join(
        f"List.prototype.{m} = function (n) {{\n  var w = this.head;\n  return w.{m}(n);\n}};\n\n"
        for m in ("push", "pop", "shift", "unshift")
    )
    src = "function List() {\n  this.head = null;\n}\n\n" + methods
    chunks = chunk(src, "javascript", 1000)
    assert [c.metadata["symbols"] for c in chunks] == [
        ["List"], ["List.prototype.push"], ["List.prototype.pop"], ["List.prototype.shift"],
        ["List.prototype.unshift"],
    ]
    # a method too big for a chunk: cut inside, its parts know what they are part of
    parts = chunk(src, "javascript", 40)
    assert any(c.metadata.get("part_of") == "List.prototype.pop" and c.context for c in parts)


@needs_js
@pytest.mark.parametrize(
    "src",
    [
        "a[k] = function () {\n  return 1;\n};\n",
        "f().x = function () {\n  return 1;\n};\n",
        "x = function () {\n  return 1;\n};\n",
        "a.b = other;\n",
        "exports.n = 1 + 2;\n",
        "module.exports = function () {\n  return 1;\n};\n",
    ],
)
def test_other_assignments_stay_statements(src):
    assert names(src) == []


@needs_js
def test_nested_assignment_named_under_its_function():
    src = "function Widget(el) {\n  el.onclick = function () {\n    go();\n  };\n}\n"
    assert names(src) == [("Widget", "function_declaration"), ("Widget.el.onclick", "assignment_expression")]


def test_typescript_prototype_method():
    if not grammar_available("typescript"):
        pytest.skip("tree-sitter TypeScript grammar not installed")
    src = "Foo.prototype.size = function (this: Foo): number {\n  return this.n;\n};\n"
    assert names(src, "typescript") == [("Foo.prototype.size", "assignment_expression")]


# -- long signatures in the context ----------------------------------------------------


def _long_def(sep=", "):
    params = sep.join(f"parameter_number_{i:02d}=None" for i in range(30))
    # (the limit, 400, falls inside the 15th parameter's "None")
    return f"def build_it({params}):\n" + "".join(f"    x{i} = {i}\n" for i in range(12))


@pytest.mark.parametrize("parser", ["scan", "ast"])
def test_long_signature_cut_at_a_token_boundary(parser):
    src = _long_def()
    full = src[: src.index(":\n") + 1]
    sig = parse_code(src, "python", parser).definitions[0].signature
    assert sig.endswith(" \u2026")
    kept = sig[:-2]
    assert len(kept) <= 400 and full.startswith(kept)
    # at the token boundary before the word the limit falls in ("None")
    assert kept.endswith(", parameter_number_14=") and full[len(kept) :].startswith("None, ")
    # the chunks that continue the function carry it as their context
    chunks = chunk(src, "python", 40, parser=parser)
    assert {c.context for c in chunks if c.context} == {sig}


def test_long_signature_without_spaces_cut_at_a_word_end():
    src = _long_def(sep=",")
    full = src[: src.index(":\n") + 1]
    kept = parse_code(src, "python").definitions[0].signature[:-2]
    assert full.startswith(kept) and len(kept) <= 400
    assert not (kept[-1].isalnum() and full[len(kept)].isalnum())


def test_long_signature_not_cut_inside_a_word_or_a_sign():
    src = "def f(" + "a" * 500 + "):\n    return 1\n"
    assert parse_code(src, "python").definitions[0].signature == "def f( \u2026"
    # the limit between the two stars of "**kwargs": the cut falls before them
    head = "def f(" + "a" * 391 + ", "
    assert len(head) == 399
    src = head + "**kwargs" + ", b" * 40 + "):\n    return 1\n"
    assert parse_code(src, "python").definitions[0].signature == head.rstrip() + " \u2026"


# -- fields with their annotations ---------------------------------------------------

JAVA = (
    "public class Svc {\n"
    "    @Inject\n    private Foo foo;\n\n"
    "    @Override\n    public String toString() {\n        return \"x\";\n    }\n}\n"
)


def test_java_field_stays_with_its_annotation():
    if not grammar_available("java"):
        pytest.skip("tree-sitter Java grammar not installed")
    structure = parse_code(JAVA, "java")
    a = JAVA.index("@Inject")
    assert structure.annotated == ((a, JAVA.index("private Foo"), JAVA.index("foo;") + 4),)
    # the class header and the annotation fit together, the field does not: the class
    # header ends its chunk rather than take the annotation from its field
    chunks = chunk(JAVA, "java", 45)
    assert "    @Inject\n    private Foo foo;" in [c.text for c in chunks]
    # a field is no definition: no symbol
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["Svc", "Svc.toString"]
    # too big together: cut between them, as a definition from its decorators
    texts = [c.text for c in chunk(JAVA, "java", 30)]
    assert "    @Inject" in texts and "    private Foo foo;" in texts


def test_java_local_variable_with_annotation():
    if not grammar_available("java"):
        pytest.skip("tree-sitter Java grammar not installed")
    src = 'class A {\n    void run() {\n        @SuppressWarnings("x")\n        int n = 1;\n        go(n);\n    }\n}\n'
    # (at 60 the method's header and the annotation fit together, not with the local too)
    texts = [c.text for c in chunk(src, "java", 60)]
    assert any('@SuppressWarnings("x")\n        int n = 1;' in t for t in texts), texts


def test_kotlin_property_stays_with_its_annotation():
    if not grammar_available("kotlin"):
        pytest.skip("tree-sitter Kotlin grammar not installed")
    src = "class Svc {\n    @JvmField\n    val x = 1\n\n    @JvmStatic\n    fun f() = 1\n}\n"
    chunks = chunk(src, "kotlin", 30)
    assert "    @JvmField\n    val x = 1" in [c.text for c in chunks]
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["Svc", "Svc.f"]


def test_csharp_field_and_property_with_attributes():
    if not grammar_available("csharp"):
        pytest.skip("tree-sitter C# grammar not installed")
    src = (
        "public class Svc {\n    [JsonIgnore]\n    private int y;\n\n"
        "    [JsonProperty]\n    public int X { get; set; }\n}\n"
    )
    chunks = chunk(src, "csharp", 40)
    texts = [c.text for c in chunks]
    assert "    [JsonIgnore]\n    private int y;" in texts
    # a property is a definition in C#'s grammar (property_declaration); a field is not
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["Svc", "Svc.X"]


# -- a header whose first line is too long ----------------------------------------------

ABC = (
    "class _ABC(type):\n\n"
    "    def __init__(cls, *args):\n"
    '        cls.__doc__ = """Deprecated AST node class. Use ast.Constant instead"""\n'
    "        super().__init__(*args)\n"
)


@pytest.mark.parametrize("parser", ["scan", "tree-sitter", "ast"])
def test_headers_that_fit_together_end_the_chunk_together(parser):
    if parser == "tree-sitter" and not grammar_available("python"):
        pytest.skip("tree-sitter Python grammar not installed")
    chunks = chunk(ABC, "python", 60, parser=parser)
    assert chunks[0].text == "class _ABC(type):\n\n    def __init__(cls, *args):"
    assert chunks[1].text.startswith("        cls.__doc__")


@pytest.mark.parametrize("parser", ["scan", "ast"])
def test_decorated_method_header_ends_the_chunk_with_its_class(parser):
    src = (
        "class _Processor:\n    @classmethod\n    def get(cls):\n"
        "        func = getattr(cls, f'get_{sys.platform}', cls.from_subprocess)\n"
        "        return func() or ''\n"
    )
    chunks = chunk(src, "python", 60, parser=parser)
    assert chunks[0].text == "class _Processor:\n    @classmethod\n    def get(cls):"


def test_headers_too_big_together_keep_the_inner_one_with_its_line():
    src = ABC.replace("class _ABC(type):", "class _AbstractBaseClassOfSomething(type):")
    chunks = chunk(src, "python", 60)
    assert chunks[0].text == "class _AbstractBaseClassOfSomething(type):"
    assert chunks[1].text.startswith("    def __init__(cls, *args):\n        cls.__doc__")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab_1 ,=*()[]:\n", min_size=401, max_size=600).filter(lambda s: s[:400].strip()))
def test_any_long_signature_is_cut_at_a_token_boundary(sig):
    short = _shorten(sig)
    assert short.endswith(" \u2026")
    kept = short[:-2]
    assert kept and len(kept) <= 400 and sig.startswith(kept) and kept == kept.rstrip()

    def kind(ch):
        return 0 if ch.isspace() else 1 if ch.isalnum() or ch == "_" else 2

    def boundary(q):  # (between two characters not of one token: a space, a word, signs)
        return not kind(sig[q - 1]) == kind(sig[q]) != 0

    if any(boundary(q) and sig[:q].strip() for q in range(1, 401)):
        assert boundary(len(kept)) or sig[len(kept)].isspace()
    else:  # (one token up to the limit: cut there)
        assert kept == sig[:400].rstrip()
