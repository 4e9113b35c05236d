"""Write evaluation and statistics tables: terminal text, CSV, JSON, PNG plot."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError
from ..export import atomic_writer

__all__ = ["format_table", "plot_results", "write_csv", "write_json"]


COUNT_COLUMNS = frozenset({"tokens", "mean_chunk_tokens", "k", "chunks"})
"""Columns of counts (tokens retrieved per question, chunks): whole numbers in a table,
whatever their size (a mean of 6 tokens is ``6``, not ``6.000``)."""


def _cell(value: Any, column: str = "") -> str:
    if isinstance(value, float) and column in COUNT_COLUMNS:
        return f"{value:.0f}"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.0f}"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def format_table(rows: Sequence[dict[str, Any]], columns: Sequence[str], mark: int | None = None) -> str:
    """A plain aligned text table of ``columns`` (missing cells are blank); row ``mark`` gets a ``*``."""
    cells = [[_cell(r.get(c, ""), c) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lines = ["  " + "  ".join(c.ljust(w) for c, w in zip(columns, widths))]
    for n, row in enumerate(cells):
        flag = "* " if mark is not None and n == mark else "  "
        lines.append(flag + "  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(row, widths))))
    return "\n".join(lines)


def write_csv(rows: Sequence[dict[str, Any]], path: str | os.PathLike[str]) -> None:
    """Write rows as CSV (columns: the union of keys in first-seen order), atomically."""
    columns: list[str] = []
    for r in rows:
        columns.extend(k for k in r if k not in columns)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: (" ".join(map(str, v)) if isinstance(v, list) else v) for k, v in r.items()})
    with atomic_writer(path) as fh:
        fh.write(buf.getvalue())


def write_json(payload: Any, path: str | os.PathLike[str]) -> None:
    """Write a JSON document atomically (UTF-8, indented)."""
    with atomic_writer(path) as fh:
        json.dump(payload, fh, ensure_ascii=False, indent=2)
        fh.write("\n")


def plot_results(rows: Sequence[dict[str, Any]], path: str | os.PathLike[str]) -> None:
    """PNG of mean recall and IoU against chunk size, one line per strategy and overlap.

    Raises:
        MissingDependencyError: matplotlib is not installed (``pip install 'chunkwise[eval]'``).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingDependencyError("matplotlib", "eval", "the evaluation plot") from exc
    series: dict[str, list[tuple[int, float, float]]] = {}
    for r in rows:
        key = f"{r['strategy']} (overlap {r['chunk_overlap']})"
        series.setdefault(key, []).append((int(r["chunk_size"]), float(r["recall"]), float(r["iou"])))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for key, pts in sorted(series.items()):
        pts.sort()
        xs = [p[0] for p in pts]
        axes[0].plot(xs, [p[1] for p in pts], marker="o", label=key)
        axes[1].plot(xs, [p[2] for p in pts], marker="o", label=key)
    unit = rows[0].get("unit", "") if rows else ""
    for ax, title in zip(axes, ("span recall", "IoU")):
        ax.set_xlabel(f"chunk size ({unit})")
        ax.set_title(title)
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp.png")
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, target)
    finally:
        plt.close(fig)
        if tmp.exists():
            tmp.unlink()
