"""The one packer and the enrichment pass alone, per strategy: CPU time, before and after.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_pack_enrich.py                      # this tree
    .venv/bin/python benchmarks/bench_pack_enrich.py --before REV \\
        --files packer.py,enrich.py,api.py                                  # against REV's files

With ``--before REV`` a second copy of chunkwise runs in the same process, interleaved
with this one: this tree's package with the files named by ``--files`` (paths under
``src/chunkwise``; all of them when not given) as they were at git revision ``REV``. It is
importable as ``chunkwise_before`` (extracted into ``.bench/before-files/``), so a change
to a few files is measured against the same version of everything else.

Workloads (each a list of documents and one chunker):

* ``code``: the 20 standard-library modules of ``bench_code.py``, ``strategy="code"``,
  Python, 1000 characters;
* ``recursive``: ``recursive`` at 1000 characters over about 4 MB of real text: every
  third file of ``.bench/docs-corpus/50`` (``bench_corpus.py build``) when it is there,
  else the Chroma corpora of ``data/chroma_eval/corpora`` read as plain text;
* ``markdown`` and ``auto``: the Chroma corpora as Markdown at 96 cl100k tokens;
* ``sentence-window``: ``sentence`` at 200 characters with ``window_sentences=2`` over the
  Chroma corpora (range labels: every chunk gets its window's text).

Measures, CPU time of this process (``time.process_time``), the best of ``--rounds``
interleaved rounds: ``chunk`` (the whole ``chunker.chunk`` of every document), ``pack``
(``packer.pack_segments`` with the parse done beforehand) and ``enrich``
(``enrich.build_chunks`` with parse and packing done beforehand, the strategy's context
callback included; ``enrich-ctx``: without it, the shared pass alone), and the shares of
packing and enrichment inside ``chunk``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMA = ROOT / "data" / "chroma_eval" / "corpora"
DOCS = ROOT / ".bench" / "docs-corpus" / "50"
WORKLOADS = {
    "code": ("code", {"chunk_size": 1000, "language": "python"}),
    "recursive": ("recursive", {"chunk_size": 1000}),
    "markdown": ("markdown", {"chunk_size": 96, "unit": "tokens"}),
    "auto": ("auto", {"chunk_size": 96, "unit": "tokens"}),
    "sentence-window": ("sentence", {"chunk_size": 200, "window_sentences": 2}),
}


def load_before(rev: str, files: list[str]) -> Any:
    """This tree's chunkwise with ``files`` as they were at ``rev``, importable as
    ``chunkwise_before`` (its absolute self-references renamed)."""
    root = ROOT / ".bench" / "before-files" / rev
    pkg = root / "chunkwise_before"
    if pkg.exists():
        shutil.rmtree(pkg)
    shutil.copytree(ROOT / "src" / "chunkwise", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    data = subprocess.run(["git", "archive", rev, "src/chunkwise"], capture_output=True, check=True, cwd=ROOT).stdout
    wanted = {f.strip() for f in files if f.strip()}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for m in tar.getmembers():
            if not m.isfile() or not m.name.startswith("src/chunkwise/"):
                continue
            rel = m.name[len("src/chunkwise/"):]
            if not wanted or rel in wanted:
                (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
                (pkg / rel).write_bytes(tar.extractfile(m).read())  # type: ignore[union-attr]
    missing = wanted - {p.relative_to(pkg).as_posix() for p in pkg.rglob("*.py")}
    if missing:
        raise SystemExit(f"not in src/chunkwise: {', '.join(sorted(missing))}")
    for p in pkg.rglob("*.py"):
        body = p.read_bytes()
        p.write_bytes(body.replace(b'"chunkwise.', b'"chunkwise_before.').replace(b"import chunkwise\n", b"import chunkwise_before\n"))
    sys.path.insert(0, str(root))
    return importlib.import_module("chunkwise_before")


def documents(name: str, cw: Any) -> list[Any]:
    if name == "code":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from bench_code import corpus

        return [text for _, text in corpus(quick=False)]
    if name == "recursive":
        if DOCS.is_dir():
            files = sorted(p for p in DOCS.rglob("*") if p.is_file())[::3]
        else:
            files = sorted(CHROMA.glob("*.md"))
        out, total = [], 0
        for p in files:
            text = p.read_text(encoding="utf-8", errors="replace")
            out.append(cw.Document(text, source=p.name))
            total += len(text)
            if total > 4_000_000:
                break
        return out
    return [cw.Document(p.read_text(encoding="utf-8"), source=p.name, metadata={"format": "markdown"})
            for p in sorted(CHROMA.glob("*.md"))]


class Runner:
    """One version of chunkwise on one workload."""

    def __init__(self, cw: Any, workload: str) -> None:
        strategy, params = WORKLOADS[workload]
        pkg = cw.__name__
        self.base = importlib.import_module(f"{pkg}.chunkers.base")
        self.pack = importlib.import_module(f"{pkg}.packer").pack_segments
        self.build = importlib.import_module(f"{pkg}.enrich").build_chunks
        self.chunker = cw.make_chunker(strategy, **params)
        self.docs = documents(workload, cw)
        inner = self.chunker
        if strategy == "auto":  # the pack and enrich timings use the chunker auto picks
            inner = self.chunker.chunker_for(self.docs[0])
        self.inner = inner
        self.prepared = []
        for d in self.docs:
            doc = self.base.as_document(d)
            m = inner.sizer.measure(doc.text)
            segs = inner.parse(doc, m)
            self.prepared.append((doc, m, segs, self.pack(doc.text, m, segs, inner.pack_config())))

    def chunk(self) -> tuple[float, int]:
        t = time.process_time()
        n = sum(len(self.chunker.chunk(d)) for d in self.docs)
        return time.process_time() - t, n

    def pack_only(self) -> float:
        cfg = self.inner.pack_config()
        t = time.process_time()
        for doc, m, segs, _ in self.prepared:
            self.pack(doc.text, m, segs, cfg)
        return time.process_time() - t

    def enrich_only(self, with_context: bool = True) -> float:
        unit, ctx = self.inner.sizer.unit, self.inner._context_fn() if with_context else None
        t = time.process_time()
        for doc, _, segs, spans in self.prepared:
            self.build(doc, spans, unit, segs.labels, ctx, None)
        return time.process_time() - t

    def shares(self) -> tuple[float, float]:
        """Packing's and enrichment's shares of ``chunk`` (timed around the two calls)."""
        spent = {"pack": 0.0, "enrich": 0.0}
        real_pack, real_build = self.base.pack_segments, self.base.build_chunks

        def pack(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            try:
                return real_pack(*a, **k)
            finally:
                spent["pack"] += time.process_time() - t

        def build(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            try:
                return real_build(*a, **k)
            finally:
                spent["enrich"] += time.process_time() - t

        self.base.pack_segments, self.base.build_chunks = pack, build
        try:
            total, _ = self.chunk()
        finally:
            self.base.pack_segments, self.base.build_chunks = real_pack, real_build
        return spent["pack"] / total, spent["enrich"] / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="", help="a git revision to compare with")
    ap.add_argument("--files", default="", help="comma-separated paths under src/chunkwise (default: all)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", default=",".join(WORKLOADS))
    args = ap.parse_args()
    import os

    import chunkwise

    versions = {"now": chunkwise}
    if args.before:
        versions["before"] = load_before(args.before, args.files.split(",") if args.files else [])
    print(f"load average {os.getloadavg()}; CPU seconds (process_time), best of {args.rounds} interleaved rounds")
    print("| workload | version | chunks | chunk() ms | pack ms | enrich ms | enrich-ctx ms | pack share | enrich share |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for workload in args.only.split(","):
        runners = {v: Runner(cw, workload) for v, cw in versions.items()}
        best: dict[str, list[float]] = {v: [1e9, 1e9, 1e9, 1e9] for v in runners}
        counts: dict[str, int] = {}
        order = list(runners)
        for r in range(args.rounds):
            for v in order[r % len(order):] + order[: r % len(order)]:
                run = runners[v]
                total, counts[v] = run.chunk()
                b = best[v]
                b[0], b[1], b[2] = min(b[0], total), min(b[1], run.pack_only()), min(b[2], run.enrich_only())
                b[3] = min(b[3], run.enrich_only(with_context=False))
        for v, run in runners.items():
            shares = min((run.shares() for _ in range(3)), key=sum)
            c, p, e, e0 = best[v]
            print(f"| {workload} | {v} | {counts[v]} | {c * 1e3:.1f} | {p * 1e3:.1f} | {e * 1e3:.1f} | {e0 * 1e3:.1f} | "
                  f"{shares[0]:.0%} | {shares[1]:.0%} |", flush=True)
        if "before" in best:
            (c0, p0, e0, x0), (c1, p1, e1, x1) = best["before"], best["now"]
            print(f"| {workload} | before / now | | {c0 / c1:.2f}x | {p0 / p1:.2f}x | {e0 / e1:.2f}x | {x0 / x1:.2f}x | | |",
                  flush=True)


if __name__ == "__main__":
    main()
