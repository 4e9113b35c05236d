"""A decorator (an attribute) ends no chunk apart from the header of the definition it
decorates: the cut between them is weaker than every line cut and than the cut after a
header, still stronger than a cut inside a line (the decorator lines alone may not fit)."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

ENUM = (
    "class Enum:\n    @property\n    def value(self):\n"
    '        """The value of the Enum member."""\n        return self._value_\n'
)
PARSERS = ["auto", "scan", "ast"] + (["tree-sitter"] if grammar_available("python") else [])


def texts(src, size, language="python", **kw):
    chunks = chunkwise.chunk(src, strategy="code", language=language, chunk_size=size, **kw)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    return [c.text for c in chunks]


def ends_with_decorator(chunk_text):
    return chunk_text.splitlines()[-1].lstrip().startswith("@")


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("size", [40, 60, 80, 100])
def test_decorator_stays_with_its_method(parser, size):
    out = texts(ENUM, size, parser=parser)
    assert not any(ends_with_decorator(t) for t in out), out
    assert any("    @property\n    def value(self):" in t for t in out), out


@pytest.mark.parametrize("parser", PARSERS)
def test_decorator_with_method_after_class_header(parser):
    assert texts(ENUM, 40, parser=parser)[:2] == ["class Enum:", "    @property\n    def value(self):"]


@pytest.mark.parametrize("parser", PARSERS)
def test_stacked_decorators_stay_with_the_header(parser):
    src = (
        "class C:\n    x = 1\n\n    @staticmethod\n    @cache\n    def f(a, b):\n"
        "        total = a + b\n        total = total * 2\n        return total\n"
    )
    for size in (45, 60, 80):
        out = texts(src, size, parser=parser)
        assert not any(ends_with_decorator(t) for t in out), (size, out)
        assert any("    @staticmethod\n    @cache\n    def f(a, b):" in t for t in out), (size, out)


@pytest.mark.parametrize("parser", PARSERS)
def test_decorators_too_big_are_cut_between_lines(parser):
    # the decorator lines alone do not fit: a cut between them, not inside one
    src = (
        "class C:\n    @register(name='a_rather_long_name')\n    @another(option='xxxxxxxxxxxx')\n"
        "    def f(self):\n        return 1\n"
    )
    chunks = chunkwise.chunk(src, strategy="code", language="python", chunk_size=60, parser=parser)
    check_invariants(src, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    assert len(chunks) > 1
    assert all(src[: c.start_index].endswith("\n") or not src[: c.start_index].strip(" ") for c in chunks)
    assert all(src[c.start_index - 1 : c.start_index] in ("", "\n", " ") for c in chunks)


@pytest.mark.skipif(not grammar_available("sql"), reason="needs tree-sitter-sql")
def test_sql_lone_semicolon_ends_its_statement_chunk():
    src = (
        "CREATE VIEW v AS\n    SELECT a, b, c\n    FROM t\n    WHERE a > 1\n    ORDER BY a\n    LIMIT 1\n;\n\n"
        "GRANT SELECT ON v TO PUBLIC;\n"
    )
    for size in (60, 89, 91):
        out = texts(src, size, language="sql")
        assert ";" not in [t.strip() for t in out], (size, out)
        assert any(t.endswith("LIMIT 1\n;") for t in out), (size, out)
        assert out[-1] == "GRANT SELECT ON v TO PUBLIC;"
