"""The Markdown parser pauses the cyclic garbage collector while it reads an outline and
leaves it as it found it (on or off), also when the parse fails."""

from __future__ import annotations

import gc

import pytest

from chunkwise.parsers import markdown as pm
from chunkwise.parsers.markdown import MarkdownParser

TEXT = "# Title\n\nA paragraph.\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


def test_collector_paused_during_the_parse_and_restored(monkeypatch):
    seen = []
    real = MarkdownParser._parse

    def spy(self, text):
        seen.append(gc.isenabled())
        return real(self, text)

    monkeypatch.setattr(MarkdownParser, "_parse", spy)
    assert gc.isenabled()
    outline = MarkdownParser().parse(TEXT)
    assert [h.title for h in outline.headings] == ["Title", "Part"]
    assert seen == [False] and gc.isenabled()


def test_collector_left_off_when_it_was_off():
    gc.disable()
    try:
        MarkdownParser().parse(TEXT)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_collector_restored_after_an_error(monkeypatch):
    def boom(self, text):
        raise RuntimeError("parse failed")

    monkeypatch.setattr(pm.MarkdownParser, "_parse", boom)
    with pytest.raises(RuntimeError):
        MarkdownParser().parse(TEXT)
    assert gc.isenabled()
