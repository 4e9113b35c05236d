"""C++ that tree-sitter cannot parse (macros it does not know, as in libstdc++): the
classes and namespaces around the error are read from the text's braces, so chunks keep
their context, and a warning says that part of the file could not be parsed."""

from __future__ import annotations

import warnings

import pytest

import chunkwise
from chunkwise.chunkers.code import CodeChunker, CodeWarning
from chunkwise.parsers.code import grammar_available, parse_code

pytestmark = pytest.mark.skipif(not grammar_available("cpp"), reason="needs tree-sitter-cpp")

MEMBERS = "".join(f"      typedef typename _Base::_Type_{i}\t\t_Type_{i};\n" for i in range(12))
METHODS = "".join(
    f"      void\n      _M_step_{i}(int __n) _GLIBCXX_NOEXCEPT\n      {{\n"
    f"\tthis->_M_impl._M_count += __n * {i};\n\tthis->_M_impl._M_total -= __n;\n      }}\n\n"
    for i in range(8)
)
# (shaped as libstdc++'s bits/stl_list.h: the macros make tree-sitter read the whole file
# as one error, the class's members as top-level items)
TEXT = (
    "namespace std _GLIBCXX_VISIBILITY(default)\n{\n_GLIBCXX_BEGIN_NAMESPACE_VERSION\n\n"
    "  /**\n   *  @brief A standard container.\n   */\n"
    "  template<typename _Tp, typename _Alloc = std::allocator<_Tp> >\n"
    "    class list : protected _List_base<_Tp, _Alloc>\n    {\n"
    "#ifdef _GLIBCXX_CONCEPT_CHECKS\n      typedef typename _Alloc::value_type\t\t_Alloc_value_type;\n#endif\n\n"
    + MEMBERS
    + "\n    public:\n"
    + METHODS
    + "    };\n\n_GLIBCXX_END_NAMESPACE_VERSION\n} // namespace std\n"
)


def _chunks(text: str, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = chunkwise.chunk(text, strategy="code", language="cpp", **kw)
    return chunks, [w for w in caught if issubclass(w.category, CodeWarning)]


def test_tree_sitter_cannot_read_the_sample():
    assert parse_code(TEXT, "cpp").error_at >= 0


def test_the_class_around_an_error_is_recovered():
    st = parse_code(TEXT, "cpp")
    names = {d.qualname: d for d in st.definitions}
    assert "std" in names and names["std"].container
    cls = names["std.list"]
    assert TEXT[cls.start :].startswith("  /**") or TEXT[cls.head :].startswith("template<")
    assert TEXT[: cls.end].endswith("}")
    assert TEXT[cls.end : cls.end + 1] == ";"
    assert "class list : protected _List_base<_Tp, _Alloc>" in cls.signature
    # the methods read inside it are its members
    step = [d for d in st.definitions if d.name == "_M_step_3"]
    assert step and step[0].qualname == "std.list._M_step_3"
    assert st.definitions[step[0].parent].name == "list"


def test_chunks_inside_the_recovered_class_keep_its_context():
    chunks, caught = _chunks(TEXT, chunk_size=400)
    for c in chunks:
        assert c.text == TEXT[c.start_index : c.end_index]
    inside = [c for c in chunks if c.start_index > TEXT.index("    {\n#ifdef") and c.end_index < TEXT.index("    };")]
    assert inside
    for c in inside:
        assert "class list : protected _List_base<_Tp, _Alloc>" in c.context
        assert c.metadata["part_of"] is not None and c.metadata["part_of"].startswith("std.list")
    # lines packed together, not one typedef per chunk
    typedefs = [c for c in chunks if "typedef typename _Base::" in c.text]
    assert len(typedefs) <= 3
    assert all(c.text.count("typedef") >= 4 for c in typedefs)


def test_one_warning_per_document_names_the_line():
    chunks, caught = _chunks(TEXT, chunk_size=400)
    assert len(caught) == 1
    msg = str(caught[0].message)
    assert "could not parse" in msg and "line 1" in msg and "cpp" in msg
    # a file tree-sitter reads whole: no warning
    _chunks_ok, none = _chunks("namespace a {\nint f() {\n  return 1;\n}\n}\n", chunk_size=400)
    assert none == []


def test_the_warning_names_the_file():
    doc = chunkwise.Document(text=TEXT, source="bits/sample.h", metadata={"language": "cpp"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        CodeChunker(chunk_size=400).chunk(doc)
    assert any("bits/sample.h" in str(w.message) for w in caught if issubclass(w.category, CodeWarning))


def test_brace_pairs_skip_comments_strings_and_read_each_branch():
    from chunkwise.parsers.code import _brace_pairs

    text = (
        "struct A {\n  // }\n  const char* s = \"}\";\n  char c = '}';\n"
        "#if X\n  struct B : C {\n#else\n  struct B {\n#endif\n    int x;\n  };\n};\n"
    )
    pairs = _brace_pairs(text)
    assert pairs[text.index("{")] == text.rindex("}")
    inner = text.index("struct B : C {") + len("struct B : C ")
    assert pairs[inner] == text.rindex("  };") + 2
    # the branch after "#else" is read from the braces open at "#if", and after "#endif"
    # those open at the end of the first branch are: its "{" is closed by nothing
    other = text.index("struct B {") + len("struct B ")
    assert other not in pairs


def test_a_class_whose_braces_do_not_match_is_left_as_read():
    broken = TEXT.replace("    };\n\n_GLIBCXX_END", "\n\n_GLIBCXX_END").replace("} // namespace std\n", "")
    st = parse_code(broken, "cpp")
    assert not any(d.name == "list" for d in st.definitions)
    chunks, _ = _chunks(broken, chunk_size=400)
    pos = 0
    for c in chunks:
        assert c.text == broken[c.start_index : c.end_index] and c.start_index >= pos
        pos = c.end_index
    assert not broken[pos:].strip()


def test_a_class_in_a_comment_is_not_recovered():
    text = "/*\nclass Ghost {\n  int x;\n};\n*/\n" + TEXT
    st = parse_code(text, "cpp")
    assert not any(d.name == "Ghost" for d in st.definitions)


def test_a_struct_in_the_header_of_a_misread_definition_is_left_as_read():
    # tree-sitter reads "__BEGIN_DECLS ... struct aiocb {...};" as one function named
    # "struct" whose header holds "struct aiocb": no second struct is read inside it
    text = (
        "#include <a.h>\n\n__BEGIN_DECLS\n\n/* A control block.  */\nstruct aiocb\n{\n"
        + "".join(f"  int field_{i};\t\t/* Field {i}.  */\n" for i in range(30))
        + "};\n\n__END_DECLS\n"
    )
    for language in ("c", "cpp"):
        st = parse_code(text, language)
        assert st.error_at >= 0
        assert len([d for d in st.definitions if "aiocb" in d.signature]) == 1, language
