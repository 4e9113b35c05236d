"""Where the code strategy cuts around definitions: a definition too big for a chunk
starts one and the next chunk starts after it; the comments above a definition that fits
alone, but not with them, are cut off rather than the definition."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.code import CodeChunker
from chunkwise.sizers import CharSizer

PARSERS = ["auto", "ast"] + (["tree-sitter"] if chunkwise.parsers.code.grammar_available("python") else [])


def _method(name: str, lines: int, trailing_comments: int = 0) -> str:
    body = "".join(f"        self.value_{i} = compute_{i}(self.value_{i - 1})\n" for i in range(1, lines + 1))
    tail = "".join(f"        # a note on {name}, line {i}, about what comes after it\n" for i in range(trailing_comments))
    return f"    def {name}(self):\n        \"Do {name}.\"\n{body}{tail}"


# A class of three methods too big for a chunk of 400 characters; the middle one ends
# with comment lines inside its body (as threading.Thread._delete does).
CLASS = (
    "class Worker:\n"
    + _method("stop", 8) + "\n"
    + _method("delete", 3, trailing_comments=4) + "\n"
    + _method("join", 9)
)


def _definitions(text: str) -> list[tuple[str, int, int]]:
    """(name, start of its first line's text (decorators included), end) of every def."""
    offs = [0]
    for line in text.splitlines(keepends=True):
        offs.append(offs[-1] + len(line))
    out = []
    for n in ast.walk(ast.parse(text)):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = min([n.lineno] + [d.lineno for d in n.decorator_list])
            s = offs[first - 1]
            s += len(text[s:]) - len(text[s:].lstrip(" \t"))
            e = offs[n.end_lineno - 1] + n.end_col_offset
            e += len(text[e:].split("\n", 1)[0].rstrip())  # a comment after its last line
            out.append((n.name, s, e))
    return out


def _header_ends(text: str) -> list[tuple[int, int]]:
    """(start, end) of every def/class header line."""
    out = []
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith(("def ", "class ", "async def ")):
            out.append((pos, pos + len(line.rstrip())))
        pos += len(line)
    return out


@pytest.mark.parametrize("parser", PARSERS)
def test_a_definition_too_big_starts_a_chunk_and_the_next_starts_after_it(parser):
    size = 400
    chunks = CodeChunker(language="python", chunk_size=size, parser=parser).chunk(CLASS)
    check_invariants(CLASS, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    for name in ("stop", "delete", "join"):
        head = CLASS.index(f"    def {name}(")
        # the chunk that holds the header starts at its line; stop, the class's first
        # item, comes with the class header (no chunk of "class Worker:" alone)
        owner = next(c for c in chunks if c.start_index <= head + 4 < c.end_index)
        assert owner.start_index == (0 if name == "stop" else head), (name, owner.text[:80])
        assert f"Worker.{name}" in owner.metadata["symbols"]
    # no chunk ends with a header whose body is in the next chunk
    for c in chunks:
        last = c.text.rstrip().splitlines()[-1].strip()
        assert not last.startswith("def "), c.text
    # the comment lines at the end of delete go with delete, not with join
    note = CLASS.index("# a note on delete, line 3")
    holder = next(c for c in chunks if c.start_index <= note < c.end_index)
    assert "Worker.join" not in holder.metadata["symbols"]
    assert holder.metadata.get("part_of", "Worker.delete") in ("Worker.delete", "Worker")


def _stdlib(name: str) -> str:
    path = Path(sysconfig.get_paths()["stdlib"]) / name
    if not path.is_file():
        pytest.skip(f"the standard library's {name} is not here")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("parser", PARSERS)
def test_threading_delete_and_join_headers(parser):
    """The case a user found: Thread._delete (438 characters with its trailing comments)
    at 400: its body is no longer packed with ``def join(...)``."""
    text = _stdlib("threading.py")
    chunks = chunkwise.chunk(chunkwise.Document(text, metadata={"format": "code", "language": "python"}),
                             strategy="code", chunk_size=400, unit="chars", parser=parser)
    body = text.index("            del _active[get_ident()]")
    holder = next(c for c in chunks if c.start_index <= body < c.end_index)
    assert "def join(" not in holder.text
    assert "Thread.join" not in holder.metadata["symbols"]
    assert holder.metadata.get("part_of") in ("Thread._delete", "Thread")
    for c in chunks:
        last = c.text.rstrip().splitlines()[-1].strip()
        assert not last.startswith("def "), c.text[-200:]


COMMENTED = (
    "x = 1\n\n\n"
    + "".join(f"# Line {i} of a long comment block that explains the function below at length.\n" for i in range(3))
    + "@functools.cache\n"
    + "def answer(question):\n"
    + "".join(f"    step_{i} = think(question, {i})\n" for i in range(8))
    + "    return step_7\n"
)


@pytest.mark.parametrize("parser", PARSERS)
def test_comments_that_do_not_fit_with_their_definition_are_cut_off(parser):
    size = 400
    text = COMMENTED
    own = text.index("@functools")
    assert len(text) - own <= size < len(text) - text.index("# Line 0")
    chunks = CodeChunker(language="python", chunk_size=size, parser=parser).chunk(text)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    # the definition, with its decorator, is one chunk's tail; the comments are elsewhere
    assert any(c.start_index <= own and c.end_index >= len(text.rstrip()) for c in chunks), [c.text for c in chunks]


@pytest.mark.parametrize(
    ("module", "size", "qualname"),
    [
        ("doctest.py", 1500, "_ellipsis_match"),
        ("zipimport.py", 1500, "__init__"),
        ("email/quoprimime.py", 1500, "decode"),
    ],
)
def test_stdlib_definitions_that_fit_stay_whole(module, size, qualname):
    """Cases a user found split (a comment block above them, or a neighbour too big)."""
    text = _stdlib(module)
    for parser in PARSERS:
        chunks = chunkwise.chunk(chunkwise.Document(text, metadata={"format": "code", "language": "python"}),
                                 strategy="code", chunk_size=size, unit="chars", parser=parser)
        check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
        split = [
            name for name, s, e in _definitions(text)
            if e - s <= size and not any(c.start_index <= s and e <= c.end_index for c in chunks)
        ]
        assert qualname not in split, (parser, split)


@pytest.mark.parametrize("size", [400, 1500])
def test_a_chunk_starts_at_its_line_unless_the_indentation_would_take_it_over(size):
    """The documented rule: a chunk after the indentation of its line is one that the
    indentation would take over ``chunk_size``."""
    text = _stdlib("poplib.py")
    chunks = chunkwise.chunk(chunkwise.Document(text, metadata={"format": "code", "language": "python"}),
                             strategy="code", chunk_size=size, unit="chars")
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    for c in chunks:
        ls = text.rfind("\n", 0, c.start_index) + 1
        if ls < c.start_index:
            assert not text[ls : c.start_index].strip(" \t"), "a chunk starts mid-line after a token"
            assert c.end_index - ls > size, (c.start_index, c.text[:80])


def _nested(depth: int) -> str:
    lines = ["def nested():"]
    for i in range(1, depth + 1):
        lines.append("    " * i + f"if x{i}:")
    lines.append("    " * (depth + 1) + "return 1")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("parser", PARSERS)
def test_lines_before_tokens_when_every_line_fits(parser):
    """A function nested 40 ``if`` deep (lines of up to 170 characters with their
    indentation) at 200 characters: every line fits, so no chunk is cut between two tokens
    of a line (evening out two chunks once moved cuts in front of the colons)."""
    text = _nested(40)
    size = 200
    assert max(len(line) for line in text.splitlines()) <= size
    chunks = CodeChunker(language="python", chunk_size=size, parser=parser).chunk(text)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    for c in chunks:
        assert c.end_index == len(text) or text[c.end_index] == "\n", (c.text[-40:], c.metadata["boundary"])
        ls = text.rfind("\n", 0, c.start_index) + 1
        assert not text[ls : c.start_index].strip(), c.text[:40]


@pytest.mark.parametrize("parser", PARSERS)
def test_a_definition_too_big_inside_a_top_level_statement_starts_a_chunk(parser):
    body = "".join(f"        v{i} = f{i}(v{i - 1})\n" for i in range(1, 15))
    text = "import sys\n\nif sys.platform == 'x':\n    x = 1\n    def big():\n" + body + "    y = 2\n"
    chunks = CodeChunker(
        language="python", chunk_size=200, unit="chars", parser=parser, merge_small_definitions=False
    ).chunk(text)
    check_invariants(text, chunks, 200, CharSizer(), trimmed=False, overlap_allowed=False)
    head = text.index("    def big")
    assert head in [c.start_index for c in chunks]
    after = text.index("    y = 2")
    assert after in [c.start_index for c in chunks]
