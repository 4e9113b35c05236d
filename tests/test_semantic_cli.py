"""``chunkwise inspect``: the text view and the similarity plot."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

pytest.importorskip("numpy")

from chunkwise.cli import cli

THREE_TOPICS = (
    "The Wright brothers made the first powered airplane flight in 1903. "
    "Orville and Wilbur Wright had built gliders at Kitty Hawk for several years before. "
    "Their aircraft, the Flyer, stayed in the air for twelve seconds on its first flight. "
    "To make pizza dough, mix flour, water, yeast and a pinch of salt in a bowl. "
    "Knead the dough for ten minutes until it is smooth and elastic. "
    "Let the dough rise in a warm place for an hour before shaping the pizza. "
    "The solar system has eight planets that orbit the Sun. "
    "Jupiter is the largest planet, and Mercury is the closest one to the Sun. "
    "The outer planets are gas giants with many moons and rings."
)


def _need_default():
    try:
        from chunkwise.embeddings import get_embedder

        get_embedder()
    except ImportError as exc:
        pytest.skip(f"semantic extra not installed: {exc}")


def test_inspect_marks_boundaries_and_plots(tmp_path):
    _need_default()
    src = tmp_path / "three.txt"
    src.write_text(THREE_TOPICS, encoding="utf-8")
    out = tmp_path / "curve.png"
    args = ["inspect", str(src), "-u", "chars", "-n", "300", "-p", "threshold=75"]
    if pytest.importorskip("matplotlib"):
        args += ["--plot", str(out)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    assert res.output.count("──── cut: semantic, similarity") == 2
    assert "[2] " in res.output and "The solar system" in res.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_inspect_plot_needs_a_semantic_strategy(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("One. Two.", encoding="utf-8")
    res = CliRunner().invoke(
        cli, ["inspect", str(src), "-s", "recursive", "-u", "chars", "--plot", str(tmp_path / "x.png")]
    )
    assert res.exit_code != 0 and "semantic strategy" in res.output


def test_inspect_help_lists_plot():
    res = CliRunner().invoke(cli, ["inspect", "--help"])
    assert res.exit_code == 0 and "--plot" in res.output
