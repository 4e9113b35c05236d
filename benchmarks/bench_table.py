"""The table strategy on generated CSVs: time and peak memory of load + chunk.

    .venv/bin/python benchmarks/bench_table.py [--rows 10000,50000,200000]
        [--shapes wide,mixed,short] [--runs chars:500,chars:500:kv,tokens:96,tokens:512]
        [--parts] [--read]

File shapes (all written by this script, seeded):

* ``wide``: 6 columns, about 73 bytes a row, ASCII but for one city (``São Paulo``);
* ``mixed``: 5 columns, about 45 bytes a row: quoted commas, quoted line breaks, doubled
  quotes, Latin and CJK city names (``Zürich``, ``北京``), so Python keeps the text at 2
  bytes a character;
* ``short``: 3 short columns (``12,34,x5``), about 12 bytes a row.

For each file: ``chunkwise.load`` of the file on disk and ``chunkwise.chunk(doc,
strategy="table", ...)`` under ``tracemalloc`` (started after a first run has loaded the
tokenizer). Reported, as multiples of the file's size in bytes:

* ``peak``: the peak of Python allocations from the start of the load to the end of the
  chunking -- the document, the returned chunks (each holding its context and metadata,
  and its text or a reference to the document's) and everything made on the way;
* ``doc`` and ``out``: what the document and the list of chunks hold after the call;
* ``work``: ``peak - doc - out``, the working memory of chunking above what it returns.

With ``--parts``, a second line per run splits the returned chunks by part, in bytes a
chunk (``sys.getsizeof``, an object shared by several chunks counted once): ``text``
(the chunk's own copy of its text; 0 for a chunk that reads it from the document's text),
``meta`` (the chunk's :class:`~chunkwise.types.Metadata`, and once the layout its
document's chunks share; with a chunkwise that held a dict behind a read-only view: the
dict with its key table), ``view`` (that view; 0 now), ``chunk`` (the Chunk object),
``id``, ``ints`` (offsets, index, size and row numbers not cached by Python) and
``context`` (the chunk's context string; for a chunk that computes its context on access,
as a ``kv`` chunk does, the object its table's chunks share and the table it keeps
alive, counted once).

Time: the CPU time of load + chunk, best of ``--repeat`` runs, per row (linear time shows
as a flat column).

With ``--read``, a second pass in the same measurement calls ``to_dict()`` and
``text_for_embedding()`` on every chunk (a ``kv`` chunk computes its context there) and a
line gives its CPU time a chunk and the peak over load, chunk and that pass.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import random
import tempfile
import time
import tracemalloc
from types import MappingProxyType

import chunkwise


def make_csv(rows: int, seed: int = 0) -> str:
    """``wide``: 6 columns (about 73 bytes a row)."""
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


def make_mixed(rows: int, seed: int = 0) -> str:
    """``mixed``: quoted commas, line breaks and quotes, non-ASCII cells (about 45 bytes)."""
    r = random.Random(seed)
    cities = ["São Paulo", "北京", "Tokyo", "Zürich"]
    notes = ["plain", '"multi\nline"', '"has, comma"', '"has ""quotes"""']
    out = ["id,name,city,note,amount\r\n"]
    for i in range(rows):
        out.append(f"{i},name {i},{r.choice(cities)},{r.choice(notes)},{r.random() * 1000:.2f}\r\n")
    return "".join(out)


def make_short(rows: int, seed: int = 0) -> str:
    """``short``: 3 short columns (about 12 bytes a row)."""
    r = random.Random(seed)
    return "a,b,c\n" + "".join(f"{i},{r.randint(0, 99)},x{r.randint(0, 9)}\n" for i in range(rows))


SHAPES = {"wide": make_csv, "mixed": make_mixed, "short": make_short}


def parts(chunks: list) -> dict[str, float]:
    """Bytes a chunk of the chunks' parts (each object counted once)."""
    seen: set[int] = set()
    out = dict.fromkeys(("text", "meta", "view", "chunk", "id", "ints", "context"), 0)

    def add(key: str, obj: object) -> None:
        if id(obj) not in seen:
            seen.add(id(obj))
            out[key] += sys.getsizeof(obj)

    for c in chunks:
        if getattr(c, "_source", None) is None:  # (a chunk that reads its text from the document's: 0)
            add("text", c.text)
        add("chunk", c)
        add("id", c.id)
        m = c.metadata
        if isinstance(m, MappingProxyType):  # (chunkwise before its Metadata)
            add("view", m)
            for d in gc.get_referents(m):  # the dict behind the read-only view
                if type(d) is dict:
                    add("meta", d)
        else:  # a Metadata: its own values; its layout (keys, shared values) once
            add("meta", m)
            lay = getattr(m, "_l", None)
            if lay is not None:
                add("meta", lay)
                add("meta", lay.base)
        for v in (c.start_index, c.end_index, c.index, c.size, m.get("row_start", 0), m.get("row_end", 0)):
            if not -5 <= v <= 256:  # Python's cached small ints cost nothing
                add("ints", v)
        held = getattr(c, "_held_context", None)  # (None: a chunkwise whose chunks hold a string)
        if held is None or type(held) is str:
            add("context", c.context)
        else:  # an object the chunks of a table share, computing their context on access
            add("context", held)
            t = getattr(held, "table", None)
            if t is not None:  # (it keeps its table alive: counted too, once)
                for obj in (t, getattr(t, "__dict__", None), t.rows, t.columns):
                    if obj is not None:
                        add("context", obj)
    return {k: v / max(len(chunks), 1) for k, v in out.items()}


def run_once(
    path: str, params: dict, with_parts: bool = False, read: bool = False
) -> tuple[float, int, int, int, int, dict, float, int]:
    """CPU seconds, peak, document and output bytes (tracemalloc), chunk count, parts;
    with ``read``, the CPU seconds of one pass of ``to_dict()`` and
    ``text_for_embedding()`` over the chunks and the peak over load, chunk and that pass."""
    gc.collect()
    tracemalloc.start()
    t = time.process_time()
    doc = chunkwise.load(path)
    d = tracemalloc.get_traced_memory()[0]
    chunks = chunkwise.chunk(doc, strategy="table", **params)
    cpu = time.process_time() - t
    cur, peak = tracemalloc.get_traced_memory()
    read_cpu, read_peak = 0.0, 0
    if read:
        t = time.process_time()
        for c in chunks:
            c.to_dict()
            c.text_for_embedding()
        read_cpu = time.process_time() - t
        read_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return cpu, peak, d, cur - d, len(chunks), parts(chunks) if with_parts else {}, read_cpu, read_peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="10000,50000,200000")
    ap.add_argument("--shapes", default="wide,mixed,short")
    ap.add_argument("--runs", default="chars:500,chars:500:kv,tokens:96,tokens:512")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--parts", action="store_true", help="split the chunks' bytes by part")
    ap.add_argument("--read", action="store_true",
                    help="then time to_dict() and text_for_embedding() of every chunk (peak over all)")
    args = ap.parse_args()
    runs = []
    for spec in args.runs.split(","):
        unit, size, *rf = spec.split(":")
        runs.append((spec, {"unit": unit, "chunk_size": int(size), "row_format": rf[0] if rf else "text"}))
    for _spec, params in runs:  # load the tokenizer before measuring
        chunkwise.chunk(chunkwise.parse("a,b\n1,2\n", format="csv"), strategy="table", **params)
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            for n in map(int, args.rows.split(",")):
                path = os.path.join(tmp, f"{shape}-{n}.csv")
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(SHAPES[shape](n))
                size = os.path.getsize(path)
                for spec, params in runs:
                    results = [run_once(path, params, args.parts, args.read) for _ in range(max(args.repeat, 1))]
                    cpu = min(r[0] for r in results)
                    _, peak, d, out, count, by_part, _, read_peak = results[-1]
                    print(
                        f"{shape:5} rows={n:>7,} file={size / 1e6:5.2f} MB {spec:13} chunks={count:>6,} "
                        f"cpu={cpu:6.3f} s ({cpu / n * 1e6:4.1f} us/row) peak={peak / size:5.2f}x "
                        f"(doc {d / size:4.2f}x, out {out / size:4.2f}x, work {(peak - d - out) / size:4.2f}x)",
                        flush=True,
                    )
                    if args.read:
                        read_cpu = min(r[6] for r in results)
                        print(f"      read: to_dict + text_for_embedding {read_cpu / max(count, 1) * 1e6:6.1f} us "
                              f"a chunk, peak with it {read_peak / size:5.2f}x", flush=True)
                    if by_part:
                        split = ", ".join(f"{k} {v:.0f}" for k, v in by_part.items())
                        print(f"      bytes a chunk: {split}", flush=True)


if __name__ == "__main__":
    main()
