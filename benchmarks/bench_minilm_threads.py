"""MiniLM's numpy forward pass with 1, 2 and the BLAS's own number of threads.

Embeds the same 256 texts (about 130 word pieces each) with ``BertEmbedder(threads=...)``,
interleaved over rounds, and prints the seconds of each. On a loaded machine a BLAS whose
threads spin for work competes with other processes; this measures what the default
(``threads=1``) saves or costs.

Usage (the figures of BENCHMARKS.md)::

    python benchmarks/bench_minilm_threads.py --rounds 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--texts", type=int, default=256)
    args = ap.parse_args(argv)

    from chunkwise.embeddings import get_embedder

    texts = [("The quick brown fox %d jumps over the lazy dog. " % i) * 12 for i in range(args.texts)]
    settings: list[int | None] = [1, 2, None]
    embedders = {t: get_embedder("minilm", threads=t) for t in settings}
    for e in embedders.values():
        e.embed(texts[:8])  # warm up
    times: dict[int | None, list[float]] = {t: [] for t in settings}
    for r in range(args.rounds):
        for t in settings[r % 3 :] + settings[: r % 3]:
            t0 = time.perf_counter()
            embedders[t].embed(texts)
            times[t].append(time.perf_counter() - t0)
            print(f"round {r + 1}: threads={t}: {times[t][-1]:.1f} s", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.texts} texts, {os.cpu_count()} CPUs, load average {load:.1f} at the end")
    for t in settings:
        print(f"threads={t}: " + ", ".join(f"{x:.1f}" for x in times[t]) + " s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
