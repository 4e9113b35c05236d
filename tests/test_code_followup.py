"""Follow-up fixes of the code strategy: signatures read by ``ast``, lone carriage returns."""

from __future__ import annotations

import chunkwise
from chunkwise.chunkers.code import CodeChunker

_DECORATED_FIRST = '''import functools


class _TupleType(Base, _root=True):
    @_tp_cache
    def __getitem__(self, params):
        return params

    def other(self):
        pass
'''


def test_ast_class_signature_ends_at_the_header() -> None:
    chunks = chunkwise.chunk(_DECORATED_FIRST, strategy="code", language="python", parser="ast", chunk_size=60)
    contexts = [c.context for c in chunks if c.context]
    assert contexts
    for ctx in contexts:
        assert "@_tp_cache" not in ctx
        assert ctx.startswith("class _TupleType(Base, _root=True):")
    # the same contexts as the syntax tree gives
    ts = chunkwise.chunk(_DECORATED_FIRST, strategy="code", language="python", parser="tree-sitter", chunk_size=60)
    assert [c.context for c in chunks] == [c.context for c in ts]


def test_lone_carriage_returns_cut_as_their_line_feed_twin() -> None:
    lf = _DECORATED_FIRST * 3
    cr = lf.replace("\n", "\r")
    for size in (40, 100, 300):
        a = chunkwise.chunk(cr, strategy="code", language="python", chunk_size=size, include_imports=True)
        b = chunkwise.chunk(lf, strategy="code", language="python", chunk_size=size, include_imports=True)
        assert [(c.start_index, c.end_index) for c in a] == [(c.start_index, c.end_index) for c in b]
        assert all(c.text == cr[c.start_index : c.end_index] for c in a)
        assert [c.metadata.get("symbols") for c in a] == [c.metadata.get("symbols") for c in b]
        # the same contexts (imports first)
        assert [c.context for c in a] == [c.context for c in b]


def _code_warnings(records: list) -> list[str]:
    from chunkwise.chunkers.code import CodeWarning

    return [str(w.message) for w in records if issubclass(w.category, CodeWarning)]


def test_explicit_language_on_a_file_of_another_language_warns_once(tmp_path) -> None:
    import warnings

    (tmp_path / "a.go").write_text('package main\n\nfunc main() {\n\tprintln("hi")\n}\n')
    (tmp_path / "b.py").write_text("def f(x):\n    return x\n")
    (tmp_path / "tool").write_text("#!/usr/bin/env node\nfunction f(x) {\n  return x;\n}\n")
    (tmp_path / "c.c").write_text("int f(int x) {\n  return x;\n}\n")
    docs = {p.name: chunkwise.load(p) for p in tmp_path.iterdir()}
    chunker = CodeChunker(language="python", chunk_size=200)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        chunks = chunker.chunk(docs["a.go"])
    msgs = _code_warnings(rec)
    assert len(msgs) == 1 and "a.go" in msgs[0] and "python" in msgs[0] and "go" in msgs[0]
    # the explicit language wins
    assert all(c.metadata["language"] == "python" for c in chunks)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        chunker.chunk(docs["tool"])
    msgs = _code_warnings(rec)
    assert len(msgs) == 1 and "tool" in msgs[0] and "javascript" in msgs[0]
    # no warning for a file of that language, nor for C read as C++
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        chunker.chunk(docs["b.py"])
        CodeChunker(language="cpp", chunk_size=200).chunk(docs["c.c"])
        CodeChunker(chunk_size=200).chunk(docs["a.go"])
    assert _code_warnings(rec) == []


_DECORATED_LONG_DOC = '''class AsyncIterator(AsyncIterable):

    __slots__ = ()

    @abstractmethod
    async def __anext__(self):
        """Return the next item or raise StopAsyncIteration when exhausted."""
        raise StopAsyncIteration
'''


def test_no_chunk_ends_with_decorators_that_fit_with_their_header() -> None:
    # the header's first line (the docstring) does not fit a chunk: it is cut between its
    # words, and the header goes with its decorators, not apart from them
    for parser in ("auto", "ast"):
        chunks = chunkwise.chunk(_DECORATED_LONG_DOC, strategy="code", language="python", chunk_size=60, parser=parser)
        texts = [c.text for c in chunks]
        assert "    @abstractmethod\n    async def __anext__(self):" in texts
        assert not any(t.rstrip().endswith("@abstractmethod") for t in texts)
        assert all(c.size <= 60 for c in chunks)
    # decorators and a header that do not fit together are still cut apart
    chunks = chunkwise.chunk(_DECORATED_LONG_DOC, strategy="code", language="python", chunk_size=40)
    assert "    @abstractmethod" in [c.text for c in chunks]
    assert all(c.size <= 40 for c in chunks)
