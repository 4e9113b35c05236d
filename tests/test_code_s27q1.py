"""Small top-level items are packed with their neighbours with ``merge_small_definitions``
(the quarter rule; by default every definition starts a chunk), and a lone closing line
(``};``, ``#endif``, ``#undef X``) goes with the chunk before, by default too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.chunkers.code import CodeChunker
from chunkwise.parsers.code import grammar_available

needs_cpp = pytest.mark.skipif(not grammar_available("cpp"), reason="needs tree-sitter-cpp")
needs_js = pytest.mark.skipif(not grammar_available("javascript"), reason="needs tree-sitter-javascript")

# one-line inline functions, as in a C++ header of operator overloads
INLINES = "".join(
    f"inline expr op_{i}(int a, expr const & b) {{ return to_expr(b.ctx(), a) + b; }}\n" for i in range(40)
)


def _contract(text: str, chunks: list) -> None:
    pos = 0
    for c in chunks:
        assert c.text == text[c.start_index : c.end_index]
        assert c.start_index >= pos and c.text.strip()
        assert not text[pos : c.start_index].strip()
        pos = c.end_index
    assert not text[pos:].strip()


@needs_cpp
def test_one_line_definitions_are_packed_under_a_quarter_of_the_size():
    chunks = chunkwise.chunk(INLINES, strategy="code", language="cpp", merge_small_definitions=True, chunk_size=1000)
    _contract(INLINES, chunks)
    assert len(chunks) < 10  # (one chunk per function before: 40)
    assert all(c.size >= 250 for c in chunks[:-1])
    # no function is cut: each lies in one chunk, and every one is named once
    lines = INLINES.splitlines()
    assert sorted(line for c in chunks for line in c.text.splitlines()) == sorted(lines)
    assert [s for c in chunks for s in c.metadata["symbols"]] == [f"op_{i}" for i in range(40)]


@needs_cpp
def test_merge_small_definitions_false_keeps_one_definition_per_chunk():
    chunks = chunkwise.chunk(
        INLINES, strategy="code", language="cpp", chunk_size=1000, merge_small_definitions=False
    )
    assert len(chunks) == 40
    assert [c.metadata["symbols"] for c in chunks] == [[f"op_{i}"] for i in range(40)]


def test_definitions_of_a_quarter_or_more_still_start_a_chunk():
    body = "".join(f"    x{i} = compute({i}, value)\n" for i in range(9))
    text = "".join(f"def f{k}(value):\n{body}    return x0\n\n\n" for k in range(3))
    one = len(text) // 3
    chunks = CodeChunker(language="python", merge_small_definitions=True, chunk_size=4 * one - 20).chunk(text)
    # each definition is over a quarter of the size: one per chunk although two would fit
    assert [c.metadata["symbols"] for c in chunks] == [["f0"], ["f1"], ["f2"]]


def test_small_python_items_join_the_item_before_else_the_item_after():
    text = "import os\n\n\ndef a():\n    return 1\n\n\nclass B:\n    def c(self):\n        return 2\n"
    chunks = CodeChunker(language="python", merge_small_definitions=True, chunk_size=60).chunk(text)
    assert [c.metadata["symbols"] for c in chunks] == [["a"], ["B", "B.c"]]
    assert chunks[0].text.startswith("import os") and chunks[1].text.startswith("class B:")
    # the whole file fits: one chunk
    assert len(CodeChunker(language="python", merge_small_definitions=True, chunk_size=200).chunk(text)) == 1


def test_min_chunk_size_is_the_threshold_when_given():
    text = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))  # 24 characters each
    # under a quarter of 400 (100): all packed
    assert len(CodeChunker(language="python", merge_small_definitions=True, chunk_size=400).chunk(text)) == 1
    # min_chunk_size=20: none is small, each starts a chunk
    chunks = CodeChunker(language="python", merge_small_definitions=True, chunk_size=400, min_chunk_size=20).chunk(text)
    assert [c.metadata["symbols"] for c in chunks] == [[f"f{i}"] for i in range(6)]


def test_merge_small_definitions_needs_no_min_chunk_size_now():
    chunker = CodeChunker(language="python", merge_small_definitions=True)
    assert chunker.merge_small_definitions and chunker.min_chunk_size == 0
    # (off by default: each top-level definition starts a chunk, as a heading does)
    assert not CodeChunker(language="python").merge_small_definitions


def test_by_default_small_definitions_each_start_a_chunk():
    text = "import json\n\n\ndef load(path):\n    return 1\n\n\ndef save(path):\n    return 2\n\n\nclass Store:\n    pass\n"
    chunks = CodeChunker(language="python", chunk_size=1000).chunk(text)
    assert [c.text.splitlines()[0] for c in chunks] == ["import json", "def load(path):", "def save(path):", "class Store:"]


def test_tokens_unit_packs_small_definitions_too():
    text = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(30))
    chunks = chunkwise.chunk(text, strategy="code", language="python", merge_small_definitions=True, chunk_size=100, unit="tokens")
    _contract(text, chunks)
    assert len(chunks) < 15
    assert all(c.size <= 100 for c in chunks)
    assert [s for c in chunks for s in c.metadata["symbols"]] == [f"f{i}" for i in range(30)]


def test_context_in_size_still_fits_when_items_are_packed():
    text = "import os\n\n\n" + "".join(f"def f{i}(a, b):\n    return a + b + {i}\n\n\n" for i in range(12))
    chunks = CodeChunker(
        language="python", chunk_size=200, include_imports=True, include_context_in_size=True,
        merge_small_definitions=True,
    ).chunk(text)
    _contract(text, chunks)
    assert len(chunks) < 12
    for c in chunks:
        assert c.size + (len(c.context) + 1 if c.context else 0) <= 200
    assert [s for c in chunks for s in c.metadata["symbols"]] == [f"f{i}" for i in range(12)]


# -- item 2: a lone closing line goes with the chunk before ----------------------------------

FIELDS = "".join(f"  int field_{i}; // the field number {i}\n" for i in range(8))


@needs_cpp
def test_undef_after_a_struct_too_big_goes_with_its_last_chunk():
    text = "struct Big {\n" + FIELDS + "};\n#undef FIELD\n\nint after(int z) {\n    return z;\n}\n"
    chunks = chunkwise.chunk(text, strategy="code", language="cpp", chunk_size=200)
    _contract(text, chunks)
    assert not any(c.text.strip() in ("#undef FIELD", "};") for c in chunks)
    assert any(c.text.endswith("};\n#undef FIELD") for c in chunks)
    # the definition after it still starts its own chunk (the one before was split)
    assert chunks[-1].text.startswith("int after")


@needs_cpp
def test_endif_after_a_class_too_big_goes_with_its_last_chunk():
    methods = "".join(
        f"    int method_{i}(int x) {{\n        int y = x * {i};\n        return y + {i};\n    }}\n\n" for i in range(6)
    )
    text = "#ifndef BIG_H\nclass Big {\n public:\n" + methods + "};\n#endif\n"
    chunks = chunkwise.chunk(text, strategy="code", language="cpp", chunk_size=200)
    _contract(text, chunks)
    assert chunks[-1].text.endswith("};\n#endif")
    assert all(c.text.strip() != "#endif" for c in chunks)
    # (the guard above it goes with the first chunk of the class)
    assert chunks[0].text.startswith("#ifndef BIG_H\nclass Big {")
    # without the guard: "#endif" alone after the class was a chunk
    text = text.replace("#ifndef BIG_H\n", "")
    chunks = chunkwise.chunk(text, strategy="code", language="cpp", chunk_size=200)
    _contract(text, chunks)
    assert chunks[-1].text.endswith("};\n#endif")


@needs_cpp
def test_closing_brace_after_members_read_apart_joins_the_chunk_before():
    # a macro tree-sitter cannot read makes the members of the struct items of their own
    text = (
        "_GLIBCXX_BEGIN_NAMESPACE_VERSION\n\n  struct _Hash_impl\n  {\n"
        "    static size_t\n    hash(const void* __ptr, size_t __clength,\n"
        "\t size_t __seed = static_cast<size_t>(0xc70f6907UL))\n"
        "    { return _Hash_bytes(__ptr, __clength, __seed); }\n\n"
        "    template<typename _Tp>\n      static size_t\n      hash(const _Tp& __val)\n"
        "      { return hash(&__val, sizeof(__val)); }\n\n"
        "    template<typename _Tp>\n      static size_t\n      __hash_combine(const _Tp& __val, size_t __hash)\n"
        "      { return hash(&__val, sizeof(__val), __hash); }\n  };\n\n"
        "_GLIBCXX_END_NAMESPACE_VERSION\n"
    )
    for size, merge in ((150, True), (300, False), (1000, False)):
        chunks = chunkwise.chunk(text, strategy="code", language="cpp", chunk_size=size, merge_small_definitions=merge)
        _contract(text, chunks)
        assert all(c.text.strip() != "};" for c in chunks), size


_NAMES = st.from_regex(r"[a-z]{1,8}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 12), min_size=1, max_size=12),
    chunk_size=st.integers(60, 400),
    merge=st.booleans(),
)
def test_packing_small_definitions_keeps_the_contract(sizes, chunk_size, merge):
    defs = []
    for k, n in enumerate(sizes):
        body = "".join(f"    v{j} = {j} + {k}\n" for j in range(n))
        defs.append(f"def f{k}():\n{body}    return {k}\n")
    text = "\n\n".join(defs)
    chunks = CodeChunker(language="python", chunk_size=chunk_size, merge_small_definitions=merge).chunk(text)
    _contract(text, chunks)
    assert all(c.size <= chunk_size for c in chunks)
    # a definition that fits is never cut
    pos = 0
    for d in defs:
        s = text.index(d, pos)
        pos = s + len(d)
        e = s + len(d.rstrip())
        if e - s <= chunk_size:
            assert any(c.start_index <= s and e <= c.end_index for c in chunks), d
    if merge:
        # two chunks that both hold whole definitions only, one of them small, never fit together
        for a, b in zip(chunks, chunks[1:]):
            if a.metadata.get("split_part") or b.metadata.get("split_part"):
                continue
            if min(a.size, b.size) < chunk_size // 4:
                assert b.end_index - a.start_index > chunk_size
    else:
        assert all(len(c.metadata["symbols"]) <= 1 or c.metadata.get("split_part") for c in chunks)
