"""``chunkwise inspect FILE --html report.html``: the playground's view of one
configuration as a single static HTML file (the page's CSS and JavaScript inlined, the
chunks, statistics and similarity curve embedded as JSON; no server, nothing fetched).
Needs no web framework: only the standard library and the chunking itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import STATIC_DIR, _State, _strategies, chunk_view

__all__ = ["render_report", "write_report"]


def render_report(document: Any, config: dict[str, Any], source: str | None = None) -> str:
    """The HTML of the report.

    Args:
        document: a :class:`~chunkwise.Document`.
        config: ``{"strategy", "chunk_size", "chunk_overlap", "unit", "tokenizer", "params"}``
            (``params``: the strategy's own keyword arguments).
        source: the file's name, for the page and its "copy as code" lines.

    Raises:
        ServeError: the configuration is invalid (its message names the parameter).
    """
    full = {"tokenizer": "cl100k_base", "params": {}, **config}
    data = chunk_view(_State(None, 1 << 62), document, source, full)
    payload = {
        "doc": {"doc": "report", "text": document.text, "name": source or "text",
                "format": document.metadata.get("format")},
        "strategies": _strategies(),
        "config": full,
        "data": data,
    }
    blob = json.dumps(payload, ensure_ascii=False).replace("</", "<\\/")
    page = (STATIC_DIR / "index.html").read_text("utf-8")
    css = (STATIC_DIR / "app.css").read_text("utf-8")
    js = (STATIC_DIR / "app.js").read_text("utf-8").replace("</", "<\\/")
    page = page.replace('<link rel="stylesheet" href="/static/app.css">', f"<style>\n{css}</style>")
    page = page.replace(
        '<script src="/static/app.js"></script>',
        f"<script>window.CHUNKWISE_REPORT = {blob};</script>\n<script>\n{js}</script>",
    )
    return page


def write_report(path: str | Path, document: Any, config: dict[str, Any], source: str | None = None) -> None:
    """Write :func:`render_report` to ``path`` (UTF-8)."""
    Path(path).write_text(render_report(document, config, source), encoding="utf-8")
