"""Follow-up fixes of the code strategy: signatures read by ``ast``, lone carriage returns."""

from __future__ import annotations

import chunkwise

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
