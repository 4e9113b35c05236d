"""The table strategy on a generated CSV: time and peak memory, 5,000 against 50,000 rows.

    .venv/bin/python benchmarks/bench_table.py [--rows 5000,50000] [--units chars,words,tokens]

Time is the best of three runs of ``TableChunker.chunk``; peak memory is ``tracemalloc``'s
peak during one run (Python allocations: the text itself is allocated before), given as a
multiple of the file's size in bytes. Linear time shows as a time ratio near the row ratio.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc

import chunkwise

SIZES = {"chars": 2000, "words": 300, "tokens": 512}


def make_csv(rows: int, seed: int = 0) -> str:
    r = random.Random(seed)
    cities = ["Paris", "Rome", "Berlin", "New York, NY", "São Paulo"]
    lines = ["id,name,city,amount,date,note"]
    for i in range(rows):
        city = r.choice(cities)
        city = f'"{city}"' if "," in city else city
        lines.append(
            f'{i},Customer {r.randint(1, 99999)},{city},{r.random() * 1000:.2f},'
            f'2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d},"note with, a comma {r.randint(0, 9999)}"'
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="5000,50000")
    ap.add_argument("--units", default="chars,words,tokens")
    ap.add_argument("--row-format", default="text", choices=["text", "kv"])
    args = ap.parse_args()
    for unit in args.units.split(","):
        chunker = chunkwise.make_chunker("table", chunk_size=SIZES[unit], unit=unit, row_format=args.row_format)
        chunker.chunk(chunkwise.parse(make_csv(100), format="csv"))  # load the tokenizer
        previous = None
        for n in map(int, args.rows.split(",")):
            text = make_csv(n)
            doc = chunkwise.parse(text, format="csv")
            best = float("inf")
            for _ in range(3):
                gc.collect()
                t = time.perf_counter()
                chunks = chunker.chunk(doc)
                best = min(best, time.perf_counter() - t)
                del chunks
            gc.collect()
            tracemalloc.start()
            chunks = chunker.chunk(doc)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            size = len(text.encode("utf-8"))
            ratio = f"  x{best / previous[1]:.1f} time for x{n / previous[0]:.0f} rows" if previous else ""
            print(
                f"{unit:6} rows={n:>7,} file={size / 1e6:5.2f} MB chunks={len(chunks):>6,} "
                f"time={best:6.3f} s peak={peak / 1e6:6.2f} MB ({peak / size:.2f}x the file){ratio}"
            )
            previous = (n, best)


if __name__ == "__main__":
    main()
