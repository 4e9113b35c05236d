"""Code chunking: the functions a C or C++ header declares without a body (prototypes,
methods declared in a class) and a TypeScript interface's methods are named in
``symbols``, as definitions are, without starting chunks of their own; a macro that the
grammar reads as a function's name (``THROWS(E)`` after a destructor, glibc's
``__NTH (atoi (...))``, ``__REDIRECT (...)``) names nothing in its place."""

import keyword

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(
    not all(grammar_available(x) for x in ("c", "cpp", "typescript")), reason="no C, C++ or TypeScript grammar"
)


def chunk(src, lang, size, overlap=0):
    chunks = chunkwise.chunk(src, strategy="code", language=lang, chunk_size=size, chunk_overlap=overlap)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


STDIO = (
    "#ifndef _STDIO_H\n#define _STDIO_H 1\n\n"
    "typedef struct _IO_FILE FILE;\n\n"
    "/* Open a file and create a new stream for it.  */\n"
    "extern FILE *fopen (const char *__restrict __filename,\n"
    "\t\t    const char *__restrict __modes)\n"
    "  __attribute_malloc__ __attr_dealloc_fclose __wur;\n\n"
    "/* Write formatted output to stdout.  */\n"
    "extern int printf (const char *__restrict __format, ...);\n\n"
    "extern void (*handler)(int);\n"
    "extern int (*signal (int __sig, void (*__handler) (int)))(int);\n"
    "void clearerr (FILE *__stream), rewind (FILE *__stream);\n"
    "typedef int cookie_close_function_t (void *__cookie);\n\n"
    "static int twice (int x)\n{\n  int helper (int);\n  return helper (x) * 2;\n}\n\n"
    "#endif\n"
)


def test_c_prototypes_are_symbols():
    st_ = parse_code(STDIO, "c")
    assert [q for _, q in st_.declared] == ["fopen", "printf", "signal", "clearerr", "rewind"]
    chunks = chunk(STDIO, "c", 200)
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    # (the pointer to a function, the function type and the local prototype name none)
    assert symbols == ["FILE", "fopen", "printf", "signal", "clearerr", "rewind", "cookie_close_function_t", "twice"]
    (holder,) = [c for c in chunks if "extern FILE *fopen" in c.text]
    assert "fopen" in holder.metadata["symbols"]


def test_declarations_start_no_chunk():
    # a symbol more changes no cut: the chunks are those of a text as long with arrays
    # in place of the prototypes (variables, no function declarator)
    params = " (const char *__name, int __flags)"
    src = "".join(f"extern int lookup_{i}{params};\n" for i in range(30))
    plain = src.replace(params, " [" + "32".center(len(params) - 3) + "]")
    assert len(plain) == len(src)
    for size in (120, 300, 1000):
        a = chunk(src, "c", size)
        b = chunk(plain, "c", size)
        assert len(a) < 30
        assert [(c.start_index, c.end_index) for c in a] == [(c.start_index, c.end_index) for c in b]
        assert [s for c in b for s in c.metadata["symbols"]] == []
        assert [s for c in a for s in c.metadata["symbols"]] == [f"lookup_{i}" for i in range(30)]


CURSES = (
    "class NCursesWindow\n{\n"
    "public:\n"
    "  NCursesWindow(int nlines, int ncols);\n"
    "  virtual ~NCursesWindow() THROWS(NCursesException);\n"
    "  int getch();\n"
    "  static int (*hook)(int);\n"
    "  friend bool operator==(const NCursesWindow&, const NCursesWindow&);\n"
    "  inline int UNDEF(box)(int v, int h) { return box(v, h); }\n"
    "  void refresh() const THROW2(NCursesException const, NCursesWindowException) {\n"
    "    err_handler(\"refresh\");\n"
    "  }\n"
    "};\n\n"
    "class NCursesFramedPad\n{\n"
    "public:\n"
    "  virtual ~NCursesFramedPad() THROWS(NCursesException) {\n"
    "    delete getSubWindow();\n"
    "  }\n"
    "};\n"
)


def test_cpp_methods_declared_in_a_class_are_symbols_and_macros_are_not():
    chunks = chunk(CURSES, "cpp", 2000)
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    assert symbols == [
        "NCursesWindow",
        "NCursesWindow.NCursesWindow",
        "NCursesWindow.~NCursesWindow",
        "NCursesWindow.getch",
        "NCursesWindow.operator==",
        "NCursesWindow.UNDEF(box)",
        "NCursesWindow.refresh",
        "NCursesFramedPad",
        "NCursesFramedPad.~NCursesFramedPad",
    ]
    assert not any("THROW" in s for s in symbols)


GLIBC = (
    "__extern_inline int\n"
    "__NTH (atoi (const char *__nptr))\n"
    "{\n  return (int) strtol (__nptr, (char **) NULL, 10);\n}\n\n"
    "extern FILE *__REDIRECT (tmpfile, (void), tmpfile64)\n  __attribute_malloc__ __wur;\n\n"
    "__GMPXX_DECLARE_COMMON_TYPE(signed char);\n\n"
    "struct re_pattern_buffer\n{\n  struct re_dfa_t *__REPB_PREFIX(buffer);\n  unsigned char *translate;\n};\n"
)


def test_macros_read_as_names_name_nothing_in_their_place():
    st_ = parse_code(GLIBC, "c")
    assert [d.qualname for d in st_.definitions] == ["atoi", "re_pattern_buffer"]
    assert st_.declared == ()


def test_typescript_interface_methods_are_symbols():
    src = (
        "interface Store {\n  load(path: string): Promise<void>;\n  readonly size: number;\n"
        "  save(path: string): void;\n}\n\nfunction open(): Store {\n  return store;\n}\n"
    )
    chunks = chunk(src, "typescript", 1000)
    assert [s for c in chunks for s in c.metadata["symbols"]] == ["Store", "Store.load", "Store.save", "open"]


C_WORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
    "true", "false",
}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True), min_size=1, max_size=12, unique=True),
    st.integers(60, 500),
    st.booleans(),
)
def test_each_prototype_is_named_once_in_the_chunk_that_holds_its_name(names, size, comments):
    names = [n for n in names if n not in C_WORDS and not keyword.iskeyword(n)]
    src = "".join(
        (f"/* {n} does what it says. */\n" if comments else "") + f"extern int {n} (const char *__s, int __n);\n"
        for n in names
    )
    chunks = chunk(src, "c", size)
    assert [s for c in chunks for s in c.metadata["symbols"]] == names
    for c in chunks:
        for s in c.metadata["symbols"]:
            assert f"{s} (" in c.text


def test_methods_declared_in_a_class_named_after_a_macro_are_symbols():
    # "class NCURSES_CXX_IMPEXP NCursesWindow {...}": the grammar reads a function
    # "NCursesWindow" of the type "class NCURSES_CXX_IMPEXP"; its members are a class's
    src = (
        "class NCURSES_CXX_IMPEXP NCursesWindow\n{\npublic:\n  int getch();\n  int lines() { return LINES; }\n"
        "  static int (*hook)(int);\n};\n\nint twice(int x)\n{\n  int helper(int);\n  return helper(x) * 2;\n}\n"
    )
    chunks = chunk(src, "cpp", 1000)
    symbols = [s for c in chunks for s in c.metadata["symbols"]]
    assert symbols == ["NCursesWindow", "NCursesWindow.getch", "NCursesWindow.lines", "twice"]
