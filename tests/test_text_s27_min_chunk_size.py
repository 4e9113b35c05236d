"""semantic: a min_chunk_size above chunk_size is an error that names the parameter, as
in the markdown and code strategies."""

from __future__ import annotations

import pytest

import chunkwise
from chunkwise.errors import ConfigError


def test_semantic_min_chunk_size_above_chunk_size_raises():
    with pytest.raises(ConfigError, match=r"min_chunk_size \(5000\) must not exceed chunk_size \(1000"):
        chunkwise.make_chunker("semantic", chunk_size=1000, min_chunk_size=5000)
    with pytest.raises(ConfigError, match="min_chunk_size"):
        chunkwise.make_chunker("semantic", chunk_size=20, unit="tokens", min_chunk_size=21)
    with pytest.raises(ValueError, match="min_chunk_size"):  # a ConfigError is a ValueError
        chunkwise.chunk("Some text. More text.", strategy="semantic", chunk_size=10, min_chunk_size=11)


def test_semantic_min_chunk_size_up_to_chunk_size_is_accepted():
    assert chunkwise.make_chunker("semantic", chunk_size=1000, min_chunk_size=1000).floor == 1000
    assert chunkwise.make_chunker("semantic", chunk_size=1000, chunk_overlap=200, min_chunk_size=900).floor == 900


@pytest.mark.parametrize("strategy", ["markdown", "code"])
def test_the_other_strategies_check_it_too(strategy):
    with pytest.raises(ConfigError, match="min_chunk_size"):
        chunkwise.make_chunker(strategy, chunk_size=1000, min_chunk_size=5000)
