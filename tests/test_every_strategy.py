"""The chunk contract over every registered strategy, in characters, words and tokens.

One Hypothesis suite, driven by the registry: a strategy registered later is tested here
without a change (it only needs an entry in PARAMS when it takes a required parameter).
Checks: text equals the slice, document order, no empty chunk, coverage, the size cap,
no cut inside a grapheme cluster, determinism, and no overlap at chunk_overlap 0.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants
from llm_server import scripted_client
from test_invariants import PIECES, hostile
from test_semantic_properties import HashEmbedder

import chunkwise
from chunkwise.sizers import CharSizer, WordSizer

EMBEDDING = {"semantic", "semantic_cluster", "late"}
NEEDS = {"topic": "sklearn", "markdown": "markdown_it", "auto": "markdown_it"}

# Markdown-shaped pieces on top of the hostile ones, so structure strategies see structure.
STRUCTURED = PIECES + ["\n# H1\n", "\n## H2\n\n", "\n### H3\n", "\n```py\nx = 1\n```\n", "\n| a | b |\n|---|---|\n| 1 | 2 |\n",
                      "\n- item\n    - sub\n", "Article 5 Scope\n", "§ 12\n", "1.2 Terms\n", "\n---\n"]
documents = st.one_of(hostile, st.lists(st.sampled_from(STRUCTURED), max_size=60).map("".join))


def _params(name: str) -> dict:
    params: dict = {}
    if name in EMBEDDING:
        params["model"] = HashEmbedder()
    if name == "topic":
        params.update(n_topics=2, restarts=1)
    if name == "code":
        params["language"] = "python"
    if name == "hierarchical":
        # every level in one list overlaps by design (parents hold their children): the flat
        # contract holds for its leaves (chunk_size alone: leaves of that size under parents
        # of 4x and 16x); tests/test_hierarchical.py checks the levels and their links
        params["leaves_only"] = True
    if name == "agentic":  # answered in process by scripted modes: valid, malformed, out of range, 429, 500, ...
        params["client"] = scripted_client()
    return params


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
# propositions are records that may repeat a span (several propositions of one sentence):
# their own contract is checked in test_llm_strategies.py
@pytest.mark.parametrize("name", [n for n in chunkwise.strategy_names() if n != "propositions"])
@given(text=documents, size=st.integers(1, 80), overlap_ratio=st.sampled_from([0, 0, 0.25]))
def test_every_strategy_keeps_the_contract(request, name, kind, text, size, overlap_ratio):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    sizer = {"chars": CharSizer(), "words": WordSizer()}.get(kind) or request.getfixturevalue("cl100k")
    overlap = min(size - 1, int(size * overlap_ratio))
    chunker = chunkwise.make_chunker(name, chunk_size=size, chunk_overlap=overlap, unit=sizer, **_params(name))
    chunks = chunker.chunk(text)
    check_invariants(
        text,
        chunks,
        size,
        sizer,
        trimmed=name not in ("fixed", "code"),  # code keeps the indentation of a chunk's first line
        overlap_allowed=overlap > 0,
    )
    again = chunker.chunk(text)
    assert [(c.start_index, c.end_index, c.id, dict(c.metadata)) for c in again] == [
        (c.start_index, c.end_index, c.id, dict(c.metadata)) for c in chunks
    ]
