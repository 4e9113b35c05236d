"""Annotations, attributes and decorators that a grammar reads inside a definition (Java's
``@Override`` in the method's ``modifiers``, C#'s ``[Test]``, PHP's ``#[Route]``, a
decorator inside a TypeScript class declaration) belong to it as a Python decorator does:
the definition starts with its first annotation, its own text (its head, where its symbol
is) starts at its header line, and no chunk ends with the annotation while the
annotation and the header line fit together."""

import re

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

CASES = {
    "java": (
        "public class Foo {\n    private int x;\n\n"
        '    @SuppressWarnings("unchecked")\n    public void run() {\n'
        "        list.add(x);\n        list.add(x + 1);\n    }\n}\n",
        r"@\w",
        "    public void run()",
    ),
    "csharp": (
        "public class Foo {\n    private int x;\n\n"
        '    [TestCase("unchecked")]\n    public void Works() {\n'
        "        Assert.AreEqual(1, x);\n        Assert.AreEqual(2, x + 1);\n    }\n}\n",
        r"\[\w",
        "    public void Works()",
    ),
    "kotlin": (
        "class Foo {\n    val x = 1\n\n"
        '    @Suppress("unchecked")\n    fun works() {\n'
        "        assertEquals(1, x)\n        assertEquals(2, x + 1)\n    }\n}\n",
        r"@\w",
        "    fun works()",
    ),
    "swift": (
        "class Foo {\n    var x = 1\n\n"
        "    @discardableResult\n    func works() -> Int {\n"
        "        print(x)\n        return x + 1\n    }\n}\n",
        r"@\w",
        "    func works() -> Int",
    ),
    "php": (
        "<?php\nclass Foo {\n    private $x;\n\n"
        '    #[Route("/a")]\n    public function works() {\n'
        "        $this->log($this->x);\n        return $this->x + 1;\n    }\n}\n",
        r"#\[",
        "    public function works()",
    ),
    "typescript": (
        "const x = 1;\n\n@Entity()\nexport class User {\n    id: number;\n    name: string;\n}\n\n"
        "@Component({})\nclass Foo {\n    bar = 1;\n}\n",
        r"@\w",
        "class Foo",
    ),
}


def _needs(language):
    if not grammar_available(language):
        pytest.skip(f"tree-sitter {language} grammar not installed")


def chunks_of(src, size, language):
    out = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size)
    check_invariants(src, out, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return out


def annotation_left_behind(src, chunks, size, pattern):
    """The chunks that end with an annotation line while that line and the first line of
    the next chunk fit ``size`` together."""
    bad = []
    for i, c in enumerate(chunks[:-1]):
        last = c.text.rstrip().split("\n")[-1]
        if re.match(r"\s*" + pattern, last):
            ls = src.rfind("\n", 0, c.end_index - len(last.strip())) + 1
            eol = src.find("\n", chunks[i + 1].start_index)
            if (len(src) if eol < 0 else eol) - ls <= size:
                bad.append(c.text)
    return bad


@pytest.mark.parametrize("language", sorted(CASES))
def test_annotation_stays_with_its_header(language):
    _needs(language)
    src, pattern, _ = CASES[language]
    for size in range(30, 121):
        chunks = chunks_of(src, size, language)
        assert not annotation_left_behind(src, chunks, size, pattern), (size, [c.text for c in chunks])


@pytest.mark.parametrize("language", sorted(CASES))
def test_definition_starts_at_annotation_head_at_header(language):
    _needs(language)
    src, pattern, header = CASES[language]
    st = parse_code(src, language)
    d = next(d for d in st.definitions if d.signature.startswith(header))
    assert re.match(pattern, src[d.start :]), src[d.start : d.start + 20]
    ls = src.rfind("\n", 0, d.head) + 1
    assert src[ls : d.head].isspace() or ls == d.head
    assert src[d.head :].startswith(header.strip())
    # the symbol is in the chunk that holds the header, with the annotation while they fit
    for size in (40, 60, 80):
        chunks = chunks_of(src, size, language)
        holder = next(c for c in chunks if c.start_index <= d.head < c.end_index)
        assert d.qualname in holder.metadata["symbols"]
        assert sum(d.qualname in c.metadata["symbols"] for c in chunks) == 1


def test_java_annotation_on_the_header_line_stays_in_the_header():
    _needs("java")
    src = (
        "class A {\n    @Deprecated\n    @Override public String toString() {\n        return \"A\";\n    }\n}\n"
    )
    d = next(d for d in parse_code(src, "java").definitions if d.name == "toString")
    assert src[d.start :].startswith("@Deprecated")
    assert src[d.head :].startswith("@Override public String toString()")
    assert d.signature == "    @Override public String toString()"


def test_java_multi_line_annotation_not_in_signature():
    _needs("java")
    src = (
        "class A {\n    @SuppressWarnings({\n        \"unchecked\",\n        \"rawtypes\"})\n"
        "    // why\n    public void run() {\n        go();\n    }\n}\n"
    )
    d = next(d for d in parse_code(src, "java").definitions if d.name == "run")
    assert src[d.start :].startswith("@SuppressWarnings")
    assert d.signature == "    public void run()"


def test_cpp_attribute_declaration_before_the_header():
    _needs("cpp")
    src = "class A {\n    [[nodiscard]]\n    int f() {\n        return 1;\n    }\n};\n"
    d = next(d for d in parse_code(src, "cpp").definitions if d.name == "f")
    assert src[d.start :].startswith("[[nodiscard]]")
    assert src[d.head :].startswith("int f()")


def test_unannotated_definitions_unchanged():
    _needs("java")
    src = "class A {\n    public void run() {\n        go();\n    }\n}\n"
    for d in parse_code(src, "java").definitions:
        assert d.start == d.head


KOTLIN_AFTER_IMPORTS = (
    "package okio\n\nimport kotlin.jvm.JvmName\n\n"
    '@JvmName("newFileMetadata")\ninternal fun FileMetadata(\n  isRegularFile: Boolean = false,\n'
    "  isDirectory: Boolean = false,\n): FileMetadata {\n  return FileMetadata(isRegularFile, isDirectory)\n}\n\n"
    "/** The next one. */\nfun next() {}\n"
)


def test_kotlin_annotation_read_as_a_statement_belongs_to_the_function():
    # the grammar reads "@JvmName(...)" above a function as an annotated expression of its
    # own when a block comment comes later in the file
    _needs("kotlin")
    src = KOTLIN_AFTER_IMPORTS
    st = parse_code(src, "kotlin")
    d = next(d for d in st.definitions if d.name == "FileMetadata")
    assert src[d.start :].startswith('@JvmName("newFileMetadata")\ninternal fun')
    assert src[d.head :].startswith("internal fun")
    assert d.signature.startswith("internal fun FileMetadata(")
    for size in range(40, 121):
        chunks = chunks_of(src, size, "kotlin")
        assert not annotation_left_behind(src, chunks, size, r"@\w"), (size, [c.text for c in chunks])


def test_kotlin_annotated_expression_statement_stays_a_statement():
    _needs("kotlin")
    src = "fun f() {\n  @Suppress(\"x\") (a)\n  g()\n}\n\nfun h() {}\n"
    names = [d.qualname for d in parse_code(src, "kotlin").definitions]
    assert names == ["f", "h"]
