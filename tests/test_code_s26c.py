"""Code chunking: comment lines above a definition that fits without them but not with
them go with the chunk before where they fit there, not into a chunk of their own."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "ast"] + (["tree-sitter"] if grammar_available("python") else [])

# (the shape of the standard library's json/decoder.py: a class too big for a chunk, its
# docstring, then a comment line right above a method that fits only without it)
DECODER = (
    "class JSONDecodeError(ValueError):\n"
    '    """Subclass of ValueError with the following additional properties:\n'
    "\n"
    "    msg: The unformatted error message\n"
    "    doc: The JSON document being parsed\n"
    '    """\n'
    "    # Note that this exception is used from _json\n"
    "    def __init__(self, msg, doc, pos):\n"
    "        lineno = doc.count('\\n', 0, pos) + 1\n"
    "        colno = pos - doc.rfind('\\n', 0, pos)\n"
    "        errmsg = '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos)\n"
    "        ValueError.__init__(self, errmsg)\n"
    "        self.msg = msg\n"
    "        self.doc = doc\n"
    "\n"
    "    def __reduce__(self):\n"
    "        return self.__class__, (self.msg, self.doc, self.pos)\n"
)

# (the shape of pdb: a method too big for a chunk, a section comment apart from the
# methods, then a method that fits alone but not with the comment)
SECTION = (
    "class Pdb:\n"
    "    def execRcLines(self):\n"
    + "".join(f"        self.step_{i} = compute_value({i}, self.frame)\n" for i in range(8))
    + "\n"
    "    # Override Bdb methods\n"
    "\n"
    "    def user_call(self, frame, argument_list):\n"
    + "".join(f"        self.call_{i} = frame.f_locals.get('x{i}')\n" for i in range(4))
)

# (top level: a section comment apart from a class too big for a chunk)
TOP = (
    "def decode_long(data):\n"
    "    return int.from_bytes(data, byteorder='little', signed=True)\n"
    "\n"
    "# Pickling machinery\n"
    "\n"
    "class _Pickler:\n"
    "\n"
    "    def __init__(self, file, protocol=None, *, fix_imports=True):\n"
    + "".join(f"        self.field_{i} = compute_value({i}, file)\n" for i in range(6))
)


def chunk(src, size, parser):
    chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=size, parser=parser)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return chunks


def _comment_only(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return all(line.startswith("#") for line in lines)


def _holding(chunks, needle):
    return next(c for c in chunks if needle in c.text)


@pytest.mark.parametrize("parser", PARSERS)
def test_comment_above_a_method_goes_with_the_docstring_chunk(parser):
    method = DECODER[DECODER.index("    def __init__") : DECODER.index("\n\n    def __reduce__")]
    size = len(method) + 10  # the method fits, not with the comment line above it
    comment = "    # Note that this exception is used from _json"
    assert len(comment) + 1 + len(method) > size
    chunks = chunk(DECODER, size, parser)
    assert not any(_comment_only(c.text) for c in chunks)
    assert _holding(chunks, "# Note that").text.endswith("# Note that this exception is used from _json")
    assert '"""' in _holding(chunks, "# Note that").text  # (with the docstring before it)
    assert any(c.text.strip() == method.strip() for c in chunks)  # the method whole


@pytest.mark.parametrize("parser", PARSERS)
def test_section_comment_after_a_big_method_goes_with_its_last_chunk(parser):
    method = SECTION[SECTION.index("    def user_call") :].rstrip("\n")
    size = len(method) + 12  # the method fits, not with the section comment above it
    chunks = chunk(SECTION, size, parser)
    assert not any(_comment_only(c.text) for c in chunks)
    before = _holding(chunks, "# Override Bdb methods")
    assert "self.step_7" in before.text
    assert any(c.text.strip() == method.strip() for c in chunks)


@pytest.mark.parametrize("parser", PARSERS)
def test_top_level_section_comment_goes_with_the_chunk_before(parser):
    chunks = chunk(TOP, 200, parser)
    assert not any(_comment_only(c.text) for c in chunks)
    assert _holding(chunks, "# Pickling machinery").text.startswith("def decode_long")


@pytest.mark.parametrize("parser", PARSERS)
def test_comment_stays_with_a_definition_that_fits_with_it(parser):
    # (where the method fits with its comment line, the two stay together)
    chunks = chunk(DECODER, 450, parser)
    assert _holding(chunks, "# Note that").text.lstrip().startswith(("# Note that", "class JSONDecodeError"))
    owner = _holding(chunks, "def __init__")
    assert "# Note that" in owner.text


@pytest.mark.parametrize("parser", PARSERS)
def test_comment_that_fits_nowhere_before_stands_alone_or_with_the_definition(parser):
    # a chunk before that is full: the comment line cannot go there; nothing is lost and
    # the method is not cut
    method = DECODER[DECODER.index("    def __init__") : DECODER.index("\n\n    def __reduce__")]
    head = DECODER[: DECODER.index("    # Note")].rstrip("\n")
    size = max(len(method), len(head)) + 5
    chunks = chunk(DECODER, size, parser)
    assert any(method.strip() == c.text.strip() or method.strip() in c.text for c in chunks)


# (the shape of libstdc++'s basic_string.h: an access specifier between two members, the
# member after it with comment lines right above it)
CPP = (
    "class Str {\n"
    "    public:\n"
    "      int\n"
    "      crend() const noexcept\n"
    "      { return _M_begin + _M_offset + _M_length - _M_capacity_left; }\n"
    "\n"
    "    public:\n"
    "      // Capacity:\n"
    "      ///  Returns the number of characters in the string.\n"
    "      int\n"
    "      size() const noexcept\n"
    "      { return _M_string_length + _M_offset - _M_begin_offset; }\n"
    "\n"
    "      ///  Returns the number of characters in the string, again.\n"
    "      int\n"
    "      length() const noexcept\n"
    "      { return _M_string_length + _M_offset - _M_begin_offset; }\n"
    "};\n"
)


@pytest.mark.skipif(not grammar_available("cpp"), reason="the C++ grammar is not installed")
@pytest.mark.parametrize("size", [110, 120, 140, 190, 230])
def test_access_specifier_is_no_chunk_of_its_own(size):
    chunks = chunkwise.chunk(CPP, strategy="code", language="cpp", chunk_size=size)
    check_invariants(CPP, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    assert not any(c.text.strip() == "public:" for c in chunks)
    # the definitions stay whole
    for name in ("crend() const", "size() const", "length() const"):
        line = next(x for x in CPP.splitlines() if name in x)
        body = CPP[CPP.index(line) :].split("}", 1)[0]
        assert any(body in c.text for c in chunks), name
