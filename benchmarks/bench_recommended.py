"""Speed of the recommended configuration, with embedding, against ClusterSemanticChunker
and semantic-text-splitter: MB/s over Chroma's five corpora, one interleaved run.

Each contender chunks every corpus and embeds what retrieval needs with the same
all-MiniLM-L6-v2 embedder (chunkwise's numpy forward pass, ``threads`` BLAS threads, no
cache):

* ``chunkwise auto/96``: the defaults, which are the recommended configuration (``auto``,
  96 cl100k tokens: ``wikitext`` for the MediaWiki corpus, ``markdown`` for the others;
  each corpus is loaded as ``chunkwise chunk`` loads a ``.md`` file, before the clock
  starts); the chunks' ``text_for_embedding()`` (breadcrumb + text) are embedded;
* ``ClusterSemanticChunker 200``: Chroma's chunker (max_chunk_size 200, min_chunk_size 50)
  reimplemented below from the ``chunking_evaluation`` package's source (not on PyPI, so
  not installable here): the text is cut into 50-token pieces by a recursive splitter
  (LangChain's ``RecursiveCharacterTextSplitter``, which Chroma's ``RecursiveTokenChunker``
  copies, with its separators and cl100k lengths), the pieces are embedded, the
  similarity matrix centred and the segmentation found by its dynamic programme (clusters
  of at most 4 pieces), pieces joined with spaces; then the chunks are embedded;
* ``semantic-text-splitter 96``: ``TextSplitter.from_tiktoken_model("gpt-3.5-turbo", 96)``
  (cl100k), then the chunks are embedded.

Rounds are interleaved (each round runs every contender, in a rotated order); the table
gives the median over rounds. ``--slice N`` keeps the first N characters of each corpus
(cut at a line end) so that a run fits a shared machine.

Usage (the figures of BENCHMARKS.md)::

    nice python benchmarks/bench_recommended.py --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "data" / "chroma_eval" / "corpora"


class ClusterSemanticChunker:
    """Chroma's ClusterSemanticChunker (Smith & Troynikov 2024), reimplemented faithfully
    from ``chunking_evaluation/chunking/cluster_semantic_chunker.py``, including its
    recurrence (``dp`` starts at 0, so a segment of negative reward is never chosen)."""

    def __init__(self, embed: Callable[[list[str]], Any], max_chunk_size: int = 200, min_chunk_size: int = 50):
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        from chunkwise.sizers import get_sizer

        count = get_sizer("tokens", "cl100k_base").count
        self.splitter = RecursiveCharacterTextSplitter(
            chunk_size=min_chunk_size,
            chunk_overlap=0,
            length_function=count,
            separators=["\n\n", "\n", ".", "?", "!", " ", ""],
        )
        self.max_cluster = max_chunk_size // min_chunk_size
        self.embed = embed

    def _similarity(self, sentences: list[str]) -> Any:
        import numpy as np

        m = np.concatenate([np.asarray(self.embed(sentences[i : i + 500])) for i in range(0, len(sentences), 500)])
        return m @ m.T

    def _optimal_segmentation(self, matrix: Any, max_cluster_size: int) -> list[tuple[int, int]]:
        import numpy as np

        mean_value = np.mean(matrix[np.triu_indices(matrix.shape[0], k=1)])
        matrix = matrix - mean_value
        np.fill_diagonal(matrix, 0)
        n = matrix.shape[0]
        dp = np.zeros(n)
        segmentation = np.zeros(n, dtype=int)
        for i in range(n):
            for size in range(1, max_cluster_size + 1):
                if i - size + 1 >= 0:
                    reward = np.sum(matrix[i - size + 1 : i + 1, i - size + 1 : i + 1])
                    adjusted = reward + (dp[i - size] if i - size >= 0 else 0)
                    if adjusted > dp[i]:
                        dp[i] = adjusted
                        segmentation[i] = i - size + 1
        clusters = []
        i = n - 1
        while i >= 0:
            start = segmentation[i]
            clusters.append((start, i))
            i = start - 1
        clusters.reverse()
        return clusters

    def split_text(self, text: str) -> list[str]:
        sentences = self.splitter.split_text(text)
        if len(sentences) < 2:
            return sentences
        clusters = self._optimal_segmentation(self._similarity(sentences), self.max_cluster)
        return [" ".join(sentences[a : b + 1]) for a, b in clusters]


def load(slice_chars: int | None) -> list[tuple[str, str]]:
    out = []
    for p in sorted(CORPORA.glob("*.md")):
        text = p.read_text(encoding="utf-8")
        if slice_chars is not None and len(text) > slice_chars:
            cut = text.rfind("\n", 0, slice_chars)
            text = text[: cut + 1 if cut > 0 else slice_chars]
        out.append((p.name, text))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--slice", type=int, default=None, help="characters kept of each corpus (default: all)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)

    import chunkwise
    from chunkwise.embeddings import get_embedder
    from semantic_text_splitter import TextSplitter

    docs = load(args.slice)
    mb = sum(len(t.encode("utf-8")) for _, t in docs) / 1e6
    emb = get_embedder("minilm", threads=args.threads)
    loaded = {text: chunkwise.load(text.encode("utf-8"), format="markdown") for _, text in docs}
    csc = ClusterSemanticChunker(emb.embed, 200, 50)
    sts = TextSplitter.from_tiktoken_model("gpt-3.5-turbo", 96)

    def run_ours(text: str) -> tuple[int, float]:
        t0 = time.perf_counter()
        cs = chunkwise.chunk(loaded[text], strategy="auto", chunk_size=96, unit="tokens")
        t1 = time.perf_counter()
        emb.embed([c.text_for_embedding() for c in cs])
        return len(cs), t1 - t0

    def run_csc(text: str) -> tuple[int, float]:
        t0 = time.perf_counter()
        cs = csc.split_text(text)  # embeds the pieces: part of its chunking
        t1 = time.perf_counter()
        emb.embed(cs)
        return len(cs), t1 - t0

    def run_sts(text: str) -> tuple[int, float]:
        t0 = time.perf_counter()
        cs = sts.chunks(text)
        t1 = time.perf_counter()
        emb.embed(cs)
        return len(cs), t1 - t0

    contenders = [
        ("chunkwise auto/96 (defaults, recommended)", run_ours),
        ("ClusterSemanticChunker 200 (reimplemented)", run_csc),
        ("semantic-text-splitter 96", run_sts),
    ]
    emb.embed(["warm up the model"])
    times: dict[str, list[float]] = {n: [] for n, _ in contenders}
    chunk_times: dict[str, list[float]] = {n: [] for n, _ in contenders}
    cpu: dict[str, list[float]] = {n: [] for n, _ in contenders}  # this process's CPU: steadier under load
    counts: dict[str, int] = {}
    for r in range(args.rounds):
        order = contenders[r % len(contenders) :] + contenders[: r % len(contenders)]
        for name, fn in order:
            total, chunking, n = 0.0, 0.0, 0
            c0 = time.process_time()
            for _, text in docs:
                t0 = time.perf_counter()
                k, c = fn(text)
                t = time.perf_counter() - t0
                total += t
                chunking += c
                n += k
            cpu[name].append(time.process_time() - c0)
            times[name].append(total)
            chunk_times[name].append(chunking)
            counts[name] = n
            print(f"round {r + 1}: {name}: {total:.1f} s, CPU {cpu[name][-1]:.1f} s ({chunking:.1f} s before the chunks' "
                  f"embedding), {n} chunks",
                  flush=True)
    print(f"\n{len(docs)} corpora, {mb:.3f} MB, {args.rounds} interleaved rounds, all-MiniLM-L6-v2 "
          f"({args.threads} BLAS thread(s)), median times")
    print("| contender | chunks | s (median) | MB/s with embedding | CPU s (median) | MB per CPU s | "
          "s before the chunks' embedding |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, _ in contenders:
        med, med_cpu = statistics.median(times[name]), statistics.median(cpu[name])
        print(f"| {name} | {counts[name]} | {med:.1f} | {mb / med:.4f} | {med_cpu:.1f} | {mb / med_cpu:.4f} | "
              f"{statistics.median(chunk_times[name]):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
