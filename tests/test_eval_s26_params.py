"""Parameter checks: the semantic strategy's threshold for every threshold type, and a
conversation turn_pattern's speaker group."""

from __future__ import annotations

import math
import re

import pytest

import chunkwise
from chunkwise.errors import ConfigError


def _semantic(**kw):
    return chunkwise.make_chunker("semantic", chunk_size=100, model=lambda texts: [[1.0, 0.0] for _ in texts], **kw)


@pytest.mark.parametrize("kind", ["standard_deviation", "interquartile"])
@pytest.mark.parametrize("value", [-1, -0.01, math.nan, math.inf])
def test_a_negative_or_non_finite_spread_threshold_is_refused(kind, value):
    with pytest.raises(ConfigError, match=r"threshold \(.*\) is a number of .* give a finite number of 0 or more"):
        _semantic(threshold_type=kind, threshold=value)
    with pytest.raises(ValueError, match="threshold"):
        _semantic(threshold_type=kind, threshold=value)


@pytest.mark.parametrize("kind", ["standard_deviation", "interquartile"])
@pytest.mark.parametrize("value", [0, 0.5, 3, 10])
def test_spread_thresholds_of_zero_or_more_are_taken(kind, value):
    c = _semantic(threshold_type=kind, threshold=value)
    text = "A cat sat. The cat slept. Rain fell. Rain stopped."
    assert "".join(x.text for x in c.chunk(text)).replace(" ", "") == text.replace(" ", "")


@pytest.mark.parametrize(
    ("kind", "value"), [("percentile", -1), ("percentile", 101), ("gradient", 100.5), ("absolute", 1.5), ("absolute", -2)]
)
def test_the_other_threshold_ranges_still_hold(kind, value):
    with pytest.raises(ConfigError, match="threshold"):
        _semantic(threshold_type=kind, threshold=value)


@pytest.mark.parametrize("pattern", [r"^(\w+):", r"^(?P<who>\w+):", re.compile(r"^(\w+):")])
def test_a_turn_pattern_without_a_speaker_group_is_refused(pattern):
    with pytest.raises(ConfigError, match="turn_pattern .* has no named group for the speaker"):
        chunkwise.make_chunker("conversation", chunk_size=100, turn_pattern=pattern)


def test_a_turn_pattern_with_a_speaker_or_name_group_reads_turns():
    text = "Ann: hi there\nBen: hello you\n"
    for group in ("speaker", "name"):
        cs = chunkwise.chunk(text, strategy="conversation", chunk_size=5, unit="words", turn_pattern=rf"^(?P<{group}>\w+):")
        assert [c.metadata["speaker"] for c in cs] == ["Ann", "Ben"]
