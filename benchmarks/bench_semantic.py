"""Semantic chunking: chunkwise against chonkie and LangChain, the same model, in one run.

Usage (from the repository root, after ``bash benchmarks/setup.sh`` and
``pip install -e '.[semantic]' chonkie langchain-experimental``)::

    .venv/bin/python benchmarks/bench_semantic.py            # WordLlama, all five corpora
    .venv/bin/python benchmarks/bench_semantic.py --quick    # fewer repetitions
    .venv/bin/python benchmarks/bench_semantic.py --minilm   # also MiniLM, on a small slice

Contenders, all embedding with the *same* model object (the default WordLlama static model,
or all-MiniLM-L6-v2 run with numpy), wrapped in each library's embedding interface:

* ``chunkwise``: ``strategy="semantic"`` (percentile 95, the LangChain default), 1000
  characters hard cap, ``buffer_size=0`` (each sentence embedded alone; the default);
* ``chunkwise-buffer1``: the same with ``buffer_size=1`` (each sentence embedded with one
  neighbour on each side, as LangChain does);
* ``chonkie``: ``SemanticChunker`` (threshold 0.8, ``chunk_size=1000`` characters through a
  character tokenizer, its default similarity window of 3 sentences);
* ``langchain``: ``langchain_experimental`` ``SemanticChunker`` (percentile 95,
  ``buffer_size=1``, no size cap).

No embedding cache is used: each repetition builds fresh chunkers and embeds everything.
Throughput is megabytes (10^6 bytes of UTF-8) and sentences (chunkwise's segmenter, the
same count for every contender) per second, best of the repetitions. The default model's
own speed (sentences/s, embedding only) is printed too. The machine is shared: compare
ratios within one run, not absolute figures.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "data" / "chroma_eval" / "corpora"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
warnings.filterwarnings("ignore")
MB = 1_000_000
SIZE = 1000


def corpus() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(CORPORA.glob("*.md"))]


def make_chunkwise(emb: Any, buffer_size: int = 0) -> Callable[[str], int]:
    from chunkwise.chunkers.semantic import SemanticChunker

    ch = SemanticChunker(model=emb, chunk_size=SIZE, buffer_size=buffer_size)
    return lambda text: len(ch.chunk(text))


def make_chonkie(emb: Any) -> Callable[[str], int]:
    import numpy as np
    from chonkie import SemanticChunker
    from chonkie.embeddings import BaseEmbeddings

    class Wrapped(BaseEmbeddings):
        def embed(self, text: str) -> np.ndarray:
            return emb.embed([text])[0]

        def embed_batch(self, texts: list[str]) -> list[np.ndarray]:
            return list(emb.embed(texts))

        @property
        def dimension(self) -> int:
            return emb.dim

        def get_tokenizer(self) -> Any:
            return "character"

    ch = SemanticChunker(embedding_model=Wrapped(), chunk_size=SIZE)
    return lambda text: len(ch.chunk(text))


def make_langchain(emb: Any) -> Callable[[str], int]:
    from langchain_core.embeddings import Embeddings
    from langchain_experimental.text_splitter import SemanticChunker

    class Wrapped(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return emb.embed(texts).tolist()

        def embed_query(self, text: str) -> list[float]:
            return emb.embed([text])[0].tolist()

    ch = SemanticChunker(Wrapped())
    return lambda text: len(ch.split_text(text))


CONTENDERS = {
    "chunkwise": make_chunkwise,
    "chunkwise-buffer1": lambda emb: make_chunkwise(emb, 1),
    "chonkie": make_chonkie,
    "langchain": make_langchain,
}


def bench(emb: Any, docs: list[str], reps: int) -> dict[str, tuple[float, float, int]]:
    """Best and median seconds per contender over ``reps`` rotating repetitions, and chunks."""
    names = list(CONTENDERS)
    times: dict[str, list[float]] = {n: [] for n in names}
    counts: dict[str, int] = {}
    for r in range(reps):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            fn = CONTENDERS[name](emb)
            fn("Warm up. A short text.")
            gc.collect()
            t0 = time.perf_counter()
            counts[name] = sum(fn(d) for d in docs)
            times[name].append(time.perf_counter() - t0)
    return {n: (min(t), statistics.median(t), counts[n]) for n, t in times.items()}


def report(title: str, emb: Any, docs: list[str], reps: int) -> None:
    from chunkwise.sentences import split_sentences

    nbytes = sum(len(d.encode("utf-8")) for d in docs)
    nsent = sum(len(split_sentences(d)) for d in docs)
    print(f"\n## {title}: {nbytes / MB:.2f} MB, {nsent} sentences, model {emb.name}, best of {reps}")
    res = bench(emb, docs, reps)
    base = res["chunkwise"][0]
    print(f"{'contender':20} {'MB/s':>8} {'sent/s':>10} {'median s':>9} {'chunks':>7} {'chunkwise x':>12}")
    for name, (best, med, n) in res.items():
        print(f"{name:20} {nbytes / MB / best:8.3f} {nsent / best:10.0f} {med:9.2f} {n:7d} {best / base:12.2f}")


def model_speed(emb: Any, docs: list[str], limit: int | None = None) -> None:
    from chunkwise.sentences import split_sentences

    sents = [d[a:b] for d in docs for a, b in split_sentences(d)]
    if limit:
        sents = sents[:limit]
    emb.embed(sents[:8])
    t0 = time.perf_counter()
    emb.embed(sents)
    dt = time.perf_counter() - t0
    chars = sum(map(len, sents)) / max(1, len(sents))
    print(
        f"{emb.name}: {len(sents) / dt:,.0f} sentences/s embedding only ({len(sents)} sentences, mean {chars:.0f} chars)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="2 repetitions instead of 5")
    ap.add_argument("--minilm", action="store_true", help="also compare with all-MiniLM-L6-v2 on a 20 KB slice")
    args = ap.parse_args()
    from chunkwise.embeddings import get_embedder

    docs = corpus()
    if not docs:
        sys.exit(f"no corpus under {CORPORA}")
    reps = 2 if args.quick else 5
    default = get_embedder()
    print("# Semantic chunking benchmark (same model for every contender)")
    print("\n## Model speed")
    model_speed(default, docs)
    report("Chroma corpora, default model", default, docs, reps)
    if args.minilm:
        mini = get_embedder("minilm")
        model_speed(mini, docs, limit=300)
        sample = docs[3][:20_000]  # State of the Union: prose
        report("State of the Union, first 20 KB, MiniLM", mini, [sample], 1 if args.quick else 2)


if __name__ == "__main__":
    main()
