"""Test configuration: Hypothesis profile and shared fixtures."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    max_examples=int(os.environ.get("CHUNKWISE_HYPOTHESIS_EXAMPLES", "60")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.load_profile("default")


@pytest.fixture(scope="session")
def cl100k():
    pytest.importorskip("numpy")
    from chunkwise.sizers import TiktokenSizer

    return TiktokenSizer("cl100k_base")
