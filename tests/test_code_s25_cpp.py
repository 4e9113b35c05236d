"""Code chunking of C and C++ headers: a ";" or "," that ends a definition's last line
goes with it (C++'s ``};`` after a method, a C ``typedef struct {...} Name;``), never in a
chunk of its own; where only the definition fits, it is cut between its lines. A one-line
function under a ``template<...>`` line that fits alone is cut after the template line,
not between its own tokens."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(not (grammar_available("cpp") and grammar_available("c")), reason="no C/C++ grammar")


def chunk(src, lang, size, overlap=0):
    chunks = chunkwise.chunk(
        src, strategy="code", language=lang, chunk_size=size, chunk_overlap=overlap, merge_small_definitions=False
    )
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


def lone(chunks):
    return [c.text for c in chunks if c.text.strip() in (";", ",")]


def starts_mid_line(src, chunks, size):
    """The chunks that start inside a line that fits ``size`` (from its first token)."""
    out = []
    for c in chunks:
        ls = src.rfind("\n", 0, c.start_index) + 1
        le = src.find("\n", c.start_index)
        if src[ls : c.start_index].strip() and len(src[ls : le if le >= 0 else len(src)].strip()) <= size:
            out.append(c.text)
    return out


# the shape of z3++.h's ast_vector_tpl::iterator: methods closed by "};"
ITERATOR = (
    "class C {\n"
    "    class iterator {\n"
    "        unsigned m_index;\n"
    "    public:\n"
    "        iterator(unsigned i): m_index(i) {}\n\n"
    "        bool operator==(iterator const& other) const noexcept {\n"
    "            return other.m_index == m_index;\n"
    "        };\n"
    "        bool operator!=(iterator const& other) const noexcept {\n"
    "            return other.m_index != m_index;\n"
    "        };\n"
    "    };\n"
    "};\n"
)
METHOD = (
    "bool operator==(iterator const& other) const noexcept {\n"
    "            return other.m_index == m_index;\n        }"
)


@pytest.mark.parametrize("size", [110, 111, 120])
def test_semicolon_after_a_method_goes_with_it(size):
    # (the method is 110 characters from its first token: at 111 "};" fits with it)
    assert len(METHOD) == 110
    chunks = chunk(ITERATOR, "cpp", size)
    assert lone(chunks) == []
    assert starts_mid_line(ITERATOR, chunks, size) == []
    ends = [c.text.rstrip()[-2:] for c in chunks]
    assert ends.count("};") >= 2
    if size >= 111:
        assert sum(METHOD + ";" in c.text for c in chunks) == 1


# the shape of X11/extensions/XResproto.h: a typedef of 121 characters, its struct fits
TYPEDEF = (
    "#define sz_xXResQueryVersionReply  32\n\n"
    "/* XResQueryClients */\n\n"
    "typedef struct _XResQueryClients {\n"
    "   CARD8   reqType;\n"
    "   CARD8   XResReqType;\n"
    "   CARD16  length;\n"
    "} xXResQueryClientsReq;\n"
    "#define sz_xXResQueryClientsReq 4\n"
)


@pytest.mark.parametrize("size", [100, 115, 120])
def test_typedef_name_stays_on_its_line(size):
    chunks = chunk(TYPEDEF, "c", size)
    assert lone(chunks) == []
    assert starts_mid_line(TYPEDEF, chunks, size) == []
    assert any(c.text.rstrip().endswith("} xXResQueryClientsReq;") for c in chunks)


def test_typedef_that_fits_from_its_struct_keeps_typedef():
    # "struct ... } Name;" fits 120, "typedef struct ... } Name;" does not: the typedef
    # keyword is not left behind with the comment above it
    src = (
        "/*\n** glXWaitX request\n*/\n"
        "typedef struct GLXWaitX {\n"
        "    CARD8\treqType;\n    CARD8\tglxCode;\n    CARD16\tlength;\n    GLXContextTag contextTag;\n"
        "} xGLXWaitXReq;\n"
        "#define sz_xGLXWaitXReq 8\n"
    )
    chunks = chunk(src, "c", 120)
    assert starts_mid_line(src, chunks, 120) == []
    assert not any(c.text.rstrip().endswith("typedef") for c in chunks)
    assert any(c.text.rstrip().endswith("} xGLXWaitXReq;") for c in chunks)


def test_struct_and_semicolon_too_big_cut_between_lines():
    src = (
        "struct credential {\n\tchar *protocol;\n\tchar *host;\n\tunsigned short port;\n"
        "\tchar *path;\n\tchar *username;\n\tchar *password;\n};\n\nint main(void);\n"
    )
    assert len(src[: src.index("};")]) + 1 == 120  # (the struct fits 120, "};" does not)
    chunks = chunk(src, "c", 120)
    assert lone(chunks) == []
    assert starts_mid_line(src, chunks, 120) == []
    assert any(c.text.rstrip().endswith("};") and c.text.strip() != "};" for c in chunks)


# the shape of z3++.h's context::fpa_const<precision>
TEMPLATE = (
    "namespace z3 {\n"
    "    inline expr context::fpa_const(char const * name, unsigned ebits, unsigned sbits)"
    " { return constant(name, 1); }\n\n"
    "    template<size_t precision>\n"
    "    inline expr context::fpa_const(char const * name) { return constant(name, fpa_sort<precision>()); }\n\n"
    "    inline void context::set_rounding_mode(rounding_mode rm) { m_rounding_mode = rm; }\n"
    "}\n"
)


@pytest.mark.parametrize("size", [110, 120, 125])
def test_template_line_cut_before_a_function_of_one_line(size):
    chunks = chunk(TEMPLATE, "cpp", size)
    assert starts_mid_line(TEMPLATE, chunks, size) == []
    line = "inline expr context::fpa_const(char const * name) { return constant(name, fpa_sort<precision>()); }"
    assert sum(line in c.text for c in chunks) == 1
    assert any(c.text.strip() == "template<size_t precision>" for c in chunks)


@settings(max_examples=100, deadline=None)
@given(
    bodies=st.lists(st.integers(1, 60), min_size=1, max_size=4),
    template=st.lists(st.booleans(), min_size=4, max_size=4),
    pick=st.integers(0, 3),
    delta=st.integers(-3, 12),
)
def test_no_lone_semicolon_in_a_class(bodies, template, pick, delta):
    members = []
    for k, (n, t) in enumerate(zip(bodies, template)):
        head = "    template<typename T>\n" if t else ""
        members.append(f"{head}    int method_{k}(int value) const {{\n        return value + {'x' * n};\n    }};\n")
    src = "class Widget {\npublic:\n" + "".join(members) + "};\n"
    # (a budget near one method's size: it fits with or without its ";" and indentation)
    size = len(members[pick % len(members)].strip()) + delta
    chunks = chunk(src, "cpp", size)
    assert lone(chunks) == []
    if max(map(len, src.splitlines())) <= size:  # (a line that fits only without its indentation aside)
        assert starts_mid_line(src, chunks, size) == []
    # a method (with its template line) and its ";" in one chunk wherever they fit
    for m in members:
        if len(m.strip()) <= size:
            assert sum(m.strip() in c.text for c in chunks) == 1, m
