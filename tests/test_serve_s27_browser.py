"""The page's first panes start from ``chunkwise chunk``'s defaults (auto at 96 tokens),
and show what the command writes for the file (a real browser: skipped without one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

from test_serve_browser import (  # noqa: E402,F401 - the fixtures of the browser tests
    _SPANS,
    CHROMIUM,
    _open,
    _pane_config,
    _settled,
    browser,
    page,
    served,
    server,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")


def test_the_first_pane_is_the_chunk_command(page: Any, served: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli
    from chunkwise.commands._options import CLI_DEFAULTS

    _open(page, "speech.md")
    _settled(page, 0)
    config = _pane_config(page, 0)
    assert config == {k: CLI_DEFAULTS[k] for k in ("strategy", "chunk_size", "chunk_overlap", "unit")}
    assert _pane_config(page, 1)["unit"] == "tokens" and _pane_config(page, 1)["chunk_size"] == 96
    spans = page.eval_on_selector_all(".pane", _SPANS, 0)["spans"]
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(served / "speech.md"), "-o", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = [[r["index"], r["start_index"], r["end_index"]] for r in written]
    assert len(expected) > 1
    assert [list(s) for s in spans] == expected
