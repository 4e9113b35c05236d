"""Throughput, scaling and memory of chunkwise against its peers, interleaved in one run.

Usage (from the repository root, after ``bash benchmarks/setup.sh``)::

    .venv/bin/python benchmarks/run.py                      # everything (~5 min on 2 cores)
    .venv/bin/python benchmarks/run.py --quick              # fewer repetitions, smaller docs
    .venv/bin/python benchmarks/run.py --only recursive-chars,fixed-tokens --no-scaling --no-memory
    .venv/bin/python benchmarks/run.py --profile recursive-tokens   # cProfile of chunkwise only

Benches (``--only``): recursive-chars, recursive-tokens, fixed-tokens, sentence-tokens,
scaling, memory. Corpora: the five Chroma evaluation corpora (long prose paragraphs) and a
short-paragraph corpus built from Debian's python3.11-doc reStructuredText sources
(downloaded with ``apt-get download`` into ``.bench/``; skipped when unavailable).

Every repetition runs all contenders of a configuration in turn (rotating the order), each
on a freshly built chunker object warmed on a short string, so one-time setup (loading a
tokenizer) is excluded and no cache carries over between repetitions. Throughput is
megabytes (10^6 bytes of UTF-8) per second from the best repetition; the median is kept
too. The machine is shared: compare ratios within one run, not absolute figures.
"""

from __future__ import annotations

import argparse
import gc
import glob
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".bench"
CORPORA = ROOT / "data" / "chroma_eval" / "corpora"
os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(BENCH / "tiktoken_cache"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# --------------------------------------------------------------------------- corpora


def chroma_corpus() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(CORPORA.glob("*.md"))]


def pydocs_corpus(limit_mb: float) -> list[str] | None:
    """Debian python3.11-doc .rst sources (short paragraphs), a deterministic spread of files
    up to ``limit_mb`` megabytes; None when the package cannot be fetched."""
    root = BENCH / "pydoc"
    pattern = str(root / "usr/share/doc/python3.11/html/_sources/**/*.rst.txt")
    files = sorted(glob.glob(pattern, recursive=True))
    if not files:
        debs = BENCH / "debs"
        debs.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(
                ["apt-get", "download", "python3.11-doc"], cwd=debs, check=True, capture_output=True, timeout=300
            )
            deb = max(debs.glob("python3.11-doc_*.deb"))
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, capture_output=True, timeout=300)
        except (OSError, subprocess.SubprocessError, IndexError) as exc:
            print(f"# pydocs corpus unavailable ({exc}); skipped", file=sys.stderr)
            return None
        files = sorted(glob.glob(pattern, recursive=True))
        if not files:
            return None
    texts = [Path(f).read_text(encoding="utf-8", errors="replace") for f in files]
    # a spread over the whole manual: every k-th file until the limit
    total = sum(len(t.encode()) for t in texts)
    step = max(1, int(total / (limit_mb * 1e6)))
    out, size = [], 0
    for start in range(step):
        for t in texts[start::step]:
            if size >= limit_mb * 1e6:
                return out
            out.append(t)
            size += len(t.encode())
    return out


def nbytes(texts: list[str]) -> int:
    return sum(len(t.encode("utf-8")) for t in texts)


def single_document(mb: float, source: list[str]) -> str:
    """A single document of ``mb`` megabytes: the corpus text joined and repeated, cut at a
    paragraph break near the size."""
    joined = "\n\n".join(source)
    target = int(mb * 1e6)
    reps = target // len(joined) + 1
    text = "\n\n".join([joined] * reps)
    cut = text.rfind("\n\n", 0, target)
    return text[: cut if cut > target * 0.9 else target]


# --------------------------------------------------------------------------- contenders


def _tiktoken():
    import tiktoken

    return tiktoken.get_encoding("cl100k_base")


@dataclass
class Contender:
    name: str
    # (chunk_size, overlap) -> callable text -> chunks; None when the overlap is unsupported
    build: Callable[[int, int], Callable[[str], Any] | None]
    ours: bool = False
    baseline: bool = False  # not a chunker (raw tokenizer pass): no sanity checks


def _texts(chunks: Any) -> list[str]:
    return [c if isinstance(c, str) else c.text for c in chunks]


BEFORE: list[str] = []  # --before REV: that revision of chunkwise runs as one more contender


def load_before(rev: str) -> Any:
    """chunkwise as it was at git revision ``rev``, importable as ``chunkwise_before``.

    The package is extracted from git into ``.bench/before/<rev>`` and renamed (its
    absolute self-references included), so both versions run in one process and one
    interleaved run.
    """
    import importlib
    import io
    import subprocess
    import sys
    import tarfile

    root = Path(".bench/before") / rev
    pkg = root / "chunkwise_before"
    if not pkg.exists():
        data = subprocess.run(["git", "archive", rev, "src/chunkwise"], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            for m in tar.getmembers():
                if not m.isfile():
                    continue
                rel = Path(m.name).relative_to("src/chunkwise")
                out = pkg / rel
                out.parent.mkdir(parents=True, exist_ok=True)
                body = tar.extractfile(m).read()  # type: ignore[union-attr]
                if out.suffix == ".py":
                    body = body.replace(b'"chunkwise.', b'"chunkwise_before.').replace(b"import chunkwise\n", b"import chunkwise_before\n")
                out.write_bytes(body)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module("chunkwise_before")


def contenders(bench: str) -> list[Contender]:
    import chunkwise

    unit = "chars" if bench.endswith("chars") else "tokens"

    def cw(cls: Any) -> Contender:
        def build(size: int, overlap: int) -> Callable[[str], Any]:
            return cls(chunk_size=size, chunk_overlap=overlap, unit=unit).chunk

        return Contender(f"chunkwise {cls.__name__}", build, ours=True)

    def cw_before(cls_name: str) -> list[Contender]:
        out = []
        for rev in BEFORE:
            cls = getattr(load_before(rev), cls_name)

            def build(size: int, overlap: int, cls: Any = cls) -> Callable[[str], Any]:
                return cls(chunk_size=size, chunk_overlap=overlap, unit=unit).chunk

            out.append(Contender(f"chunkwise {cls_name} (before: {rev})", build))
        return out

    def lc_recursive(size: int, overlap: int) -> Callable[[str], Any]:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        if unit == "chars":
            return RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap).split_text
        return RecursiveCharacterTextSplitter.from_tiktoken_encoder(
            encoding_name="cl100k_base", chunk_size=size, chunk_overlap=overlap
        ).split_text

    def lc_token(size: int, overlap: int) -> Callable[[str], Any]:
        from langchain_text_splitters import TokenTextSplitter

        return TokenTextSplitter(encoding_name="cl100k_base", chunk_size=size, chunk_overlap=overlap).split_text

    def chonkie_tok() -> Any:
        return "character" if unit == "chars" else _tiktoken()

    def ck_recursive(size: int, overlap: int) -> Callable[[str], Any] | None:
        from chonkie import RecursiveChunker

        return RecursiveChunker(tokenizer=chonkie_tok(), chunk_size=size).chunk if overlap == 0 else None

    def ck_token(size: int, overlap: int) -> Callable[[str], Any]:
        from chonkie import TokenChunker

        return TokenChunker(tokenizer=chonkie_tok(), chunk_size=size, chunk_overlap=overlap).chunk

    def ck_sentence(size: int, overlap: int) -> Callable[[str], Any]:
        from chonkie import SentenceChunker

        return SentenceChunker(tokenizer=chonkie_tok(), chunk_size=size, chunk_overlap=overlap).chunk

    def semchunk_(size: int, overlap: int) -> Callable[[str], Any]:
        import semchunk

        chunker = semchunk.chunkerify(len if unit == "chars" else _tiktoken(), size)
        return (lambda t: chunker(t, overlap=overlap)) if overlap else chunker

    def sts(size: int, overlap: int) -> Callable[[str], Any]:
        from semantic_text_splitter import TextSplitter

        if unit == "chars":
            return TextSplitter(size, overlap=overlap).chunks
        return TextSplitter.from_tiktoken_model("gpt-3.5-turbo", size, overlap=overlap).chunks

    def tiktoken_encode(size: int, overlap: int) -> Callable[[str], Any]:
        return _tiktoken().encode_ordinary

    def quicktok_encode(size: int, overlap: int) -> Callable[[str], Any]:
        import quicktok

        enc = quicktok.get_encoding("cl100k_base")
        return lambda t: enc.encode_batch([t])[0]

    if bench in ("recursive-chars", "recursive-tokens"):
        return [
            cw(chunkwise.RecursiveChunker),
            *cw_before("RecursiveChunker"),
            Contender("langchain RecursiveCharacterTextSplitter", lc_recursive),
            Contender("chonkie RecursiveChunker", ck_recursive),
            Contender("semchunk", semchunk_),
            Contender("semantic-text-splitter TextSplitter", sts),
        ]
    if bench == "fixed-tokens":
        return [
            cw(chunkwise.FixedChunker),
            *cw_before("FixedChunker"),
            Contender("langchain TokenTextSplitter", lc_token),
            Contender("chonkie TokenChunker", ck_token),
            Contender("tiktoken encode_ordinary (reference)", tiktoken_encode, baseline=True),
            Contender("quicktok encode (reference)", quicktok_encode, baseline=True),
        ]
    if bench == "sentence-tokens":
        return [
            cw(chunkwise.SentenceChunker),
            *cw_before("SentenceChunker"),
            Contender("chonkie SentenceChunker", ck_sentence),
        ]
    raise SystemExit(f"unknown bench {bench!r}")


CONFIGS = {
    "recursive-chars": (1000, (0, 200)),
    "recursive-tokens": (512, (0, 64)),
    "fixed-tokens": (512, (0, 64)),
    "sentence-tokens": (512, (0, 64)),
}
# (bench, ours, peer, required ratio ours/peer)
TARGETS = [
    ("recursive-chars", "chunkwise RecursiveChunker", "semantic-text-splitter TextSplitter", 1.2),
    ("recursive-chars", "chunkwise RecursiveChunker", "langchain RecursiveCharacterTextSplitter", 5.0),
    ("fixed-tokens", "chunkwise FixedChunker", "langchain TokenTextSplitter", 1.5),
    ("recursive-tokens", "chunkwise RecursiveChunker", "chonkie RecursiveChunker", 2.0),
    ("sentence-tokens", "chunkwise SentenceChunker", "chonkie SentenceChunker", 2.0),
]
WARM = "Warm-up text. It has two sentences.\n\nAnd a second paragraph."

# --------------------------------------------------------------------------- sanity


def sanity(outputs: list[Any], docs: list[str], unit: str, size: int, ours: bool) -> dict[str, Any]:
    """Chunk count, largest chunk in the unit, share of non-whitespace characters covered."""
    enc = _tiktoken() if unit == "tokens" else None
    n, largest, covered = 0, 0, 0
    offsets_ok = True
    for doc, chunks in zip(docs, outputs):
        texts = _texts(chunks)
        n += len(texts)
        for t in texts:
            largest = max(largest, len(t) if enc is None else len(enc.encode_ordinary(t)))
            covered += len(t) - sum(1 for ch in t if ch.isspace())
        if ours:
            offsets_ok &= all(c.text == doc[c.start_index : c.end_index] for c in chunks)
    total = sum(len(d) - sum(1 for ch in d if ch.isspace()) for d in docs)
    cover = covered / total if total else 1.0
    ok = n > 0 and cover >= 0.98 and largest <= size and offsets_ok
    return {"chunks": n, "max": largest, "cover": round(cover, 3), "ok": ok, "offsets_ok": offsets_ok}


# --------------------------------------------------------------------------- throughput


# the throughput clock: the wall (default), or this process's CPU time (``--clock cpu``:
# less sensitive to other jobs on a shared machine; every contender here runs in-process)
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def time_once(fn: Callable[[str], Any], docs: list[str]) -> tuple[float, list[Any]]:
    gc.collect()
    out = []
    clock = CLOCK[0]
    t0 = clock()
    for d in docs:
        out.append(fn(d))
    return clock() - t0, out


def run_throughput(bench: str, corpora: dict[str, list[str]], reps: int) -> list[dict[str, Any]]:
    size, overlaps = CONFIGS[bench]
    unit = "chars" if bench.endswith("chars") else "tokens"
    results = []
    for cname, docs in corpora.items():
        mb = nbytes(docs) / 1e6
        for overlap in overlaps:
            people = [c for c in contenders(bench) if c.build(size, overlap) is not None]
            times: dict[str, list[float]] = {c.name: [] for c in people}
            checks: dict[str, Any] = {}
            for r in range(reps):
                order = people[r % len(people) :] + people[: r % len(people)]
                for c in order:
                    fn = c.build(size, overlap)
                    fn(WARM)
                    dt, out = time_once(fn, docs)
                    times[c.name].append(dt)
                    if r == 0 and not c.baseline:
                        checks[c.name] = sanity(out, docs, unit, size, c.ours)
                    del out
            for c in people:
                ts = times[c.name]
                row = {
                    "bench": bench,
                    "corpus": cname,
                    "mb": round(mb, 3),
                    "chunk_size": size,
                    "overlap": overlap,
                    "unit": unit,
                    "contender": c.name,
                    "ours": c.ours,
                    "baseline": c.baseline,
                    "best_s": min(ts),
                    "median_s": statistics.median(ts),
                    "mbps_best": mb / min(ts),
                    "mbps_median": mb / statistics.median(ts),
                    "times": ts,
                    "sanity": checks.get(c.name),
                }
                results.append(row)
                s = row["sanity"] or {}
                print(
                    f"  {bench:17s} {cname:7s} ov={overlap:<4d} {c.name:42s} {row['mbps_best']:7.2f} MB/s "
                    f"(median {row['mbps_median']:6.2f})  chunks={s.get('chunks', '-')} max={s.get('max', '-')} "
                    f"cover={s.get('cover', '-')} {'' if not s or s['ok'] else 'CHECK'}",
                    file=sys.stderr,
                    flush=True,
                )
    return results


# --------------------------------------------------------------------------- scaling

SCALING = {
    # name -> (unit, builder)
    "chunkwise RecursiveChunker chars": (
        "chars",
        lambda: __import__("chunkwise").RecursiveChunker(chunk_size=1000).chunk,
    ),
    "chunkwise RecursiveChunker tokens": (
        "tokens",
        lambda: __import__("chunkwise").RecursiveChunker(chunk_size=512, unit="tokens").chunk,
    ),
    "semantic-text-splitter chars": ("chars", lambda: __import__("semantic_text_splitter").TextSplitter(1000).chunks),
    "semantic-text-splitter tokens": (
        "tokens",
        lambda: __import__("semantic_text_splitter").TextSplitter.from_tiktoken_model("gpt-3.5-turbo", 512).chunks,
    ),
    "langchain RecursiveCharacterTextSplitter chars": (
        "chars",
        lambda: (
            __import__("langchain_text_splitters")
            .RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0)
            .split_text
        ),
    ),
}


def run_scaling(sizes: list[float], reps: int, budget_s: float) -> list[dict[str, Any]]:
    """Seconds for one document of each size. A contender runs ``reps`` times at a size
    when that is predicted to take under 30 s (else once), and is skipped -- its time
    extrapolated from the growth seen so far -- when one run is predicted over ``budget_s``."""
    source = chroma_corpus()
    results = []
    measured: dict[str, dict[float, float]] = {n: {} for n in SCALING}
    for mb in sizes:
        doc = single_document(mb, source)
        real_mb = len(doc.encode()) / 1e6
        names = list(SCALING)
        predicted: dict[str, tuple[float, float]] = {}
        for name in names:
            prev = sorted(measured[name].items())
            if prev:  # predict from the growth seen so far (at least linear)
                (m0, t0), (m1, t1) = prev[0], prev[-1]
                exponent = max(1.0, math.log(t1 / t0) / math.log(m1 / m0)) if m1 > m0 else 1.0
                predicted[name] = (t1 * (real_mb / m1) ** exponent, exponent)
        skipped = {n: p for n, p in predicted.items() if p[0] > budget_s}
        n_reps = {n: reps if predicted.get(n, (0.0, 1.0))[0] * reps <= 30 else 1 for n in names if n not in skipped}
        times: dict[str, list[float]] = {n: [] for n in n_reps}
        chunks_n: dict[str, int] = {}
        for r in range(max(n_reps.values())):
            order = [n for n in n_reps if r < n_reps[n]]
            order = order[r % len(order) :] + order[: r % len(order)]
            for name in order:
                fn = SCALING[name][1]()
                fn(WARM)
                gc.collect()
                t0 = time.perf_counter()
                out = fn(doc)
                dt = time.perf_counter() - t0
                chunks_n[name] = len(out)
                del out
                times[name].append(dt)
        for name in names:
            if name in skipped:
                secs, exponent = skipped[name]
                row = {"name": name, "mb": real_mb, "seconds": secs, "extrapolated": True, "exponent": exponent}
            else:
                best = min(times[name])
                measured[name][real_mb] = best
                row = {
                    "name": name,
                    "mb": real_mb,
                    "seconds": best,
                    "median_s": statistics.median(times[name]),
                    "reps": len(times[name]),
                    "extrapolated": False,
                    "chunks": chunks_n[name],
                }
            results.append(row)
            print(
                f"  scaling {real_mb:6.2f} MB {name:48s} {row['seconds']:9.3f} s"
                + (f" (extrapolated, growth exponent {row['exponent']:.2f})" if row["extrapolated"] else "")
                + (f" (best of {row['reps']})" if not row["extrapolated"] else ""),
                file=sys.stderr,
                flush=True,
            )
    return results


# --------------------------------------------------------------------------- memory

_MEMORY_CHILD = r"""
import gc, json, os, sys, time
sys.path.insert(0, os.path.join(sys.argv[3], "benchmarks"))
import run as bench
name, path = sys.argv[1], sys.argv[2]
doc = open(path, encoding="utf-8").read()
fn = bench.SCALING[name][1]()
fn(bench.WARM)
gc.collect()
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
before = status("VmRSS:")
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the peak (VmHWM) to the current RSS
    reset = True
except OSError:
    reset = False
t0 = time.perf_counter()
out = fn(doc)
dt = time.perf_counter() - t0
peak = status("VmHWM:")
print(json.dumps({"before": before, "peak": peak, "reset": reset, "seconds": dt, "chunks": len(out)}))
"""


def run_memory(mb: float, names: list[str]) -> list[dict[str, Any]]:
    doc = single_document(mb, chroma_corpus())
    path = BENCH / f"doc_{mb:g}mb.txt"
    BENCH.mkdir(exist_ok=True)
    path.write_text(doc, encoding="utf-8")
    size = len(doc.encode())
    results = []
    for name in names:
        proc = subprocess.run(
            [sys.executable, "-c", _MEMORY_CHILD, name, str(path), str(ROOT)],
            check=False,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if proc.returncode != 0:
            print(f"  memory {name}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
            continue
        data = json.loads(proc.stdout.strip().splitlines()[-1])
        delta = data["peak"] - data["before"]
        row = {"name": name, "doc_bytes": size, "peak_delta_bytes": delta, "multiple": delta / size, **data}
        results.append(row)
        print(
            f"  memory {size / 1e6:.1f} MB {name:48s} peak +{delta / 1e6:8.1f} MB = {delta / size:5.2f}x the document"
            f" ({data['seconds']:.2f} s)",
            file=sys.stderr,
            flush=True,
        )
    return results


# --------------------------------------------------------------------------- reporting


def markdown(results: dict[str, Any]) -> str:
    lines = []
    thr = results.get("throughput", [])
    for bench in CONFIGS:
        rows = [r for r in thr if r["bench"] == bench]
        if not rows:
            continue
        size = rows[0]["chunk_size"]
        lines += [f"### {bench} (chunk_size {size} {rows[0]['unit']})", ""]
        lines += [
            (
                "| corpus | overlap | contender | MB/s best | MB/s median | chunkwise / this: best (paired median) "
                "| chunks | max size | non-ws covered |"
            ),
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            ours = next(x for x in rows if x["ours"] and x["corpus"] == r["corpus"] and x["overlap"] == r["overlap"])
            paired = statistics.median(p / q for p, q in zip(r["times"], ours["times"]))
            ratio = "" if r["ours"] else f"{ours['mbps_best'] / r['mbps_best']:.2f}x ({paired:.2f}x)"
            s = r["sanity"] or {}
            flag = "" if not s or s["ok"] else " (!)"
            lines.append(
                f"| {r['corpus']} | {r['overlap']} | {r['contender']} "
                f"| {r['mbps_best']:.2f} | {r['mbps_median']:.2f} | {ratio} "
                f"| {s.get('chunks', '-')} | {s.get('max', '-')}{flag} | {s.get('cover', '-')} |"
            )
        lines.append("")
    if thr:
        lines += [
            "### Targets (chunkwise / peer speed in one interleaved run; met: judged on the median of paired ratios)",
            "",
            "| target | corpus | overlap | ratio of best times | median of paired ratios | required | met |",
            "|---|---|---|---|---|---|---|",
        ]
        for bench, ours, peer, need in TARGETS:
            for r in thr:
                if r["bench"] == bench and r["contender"] == peer:
                    o = next(
                        x
                        for x in thr
                        if x["bench"] == bench
                        and x["contender"] == ours
                        and x["corpus"] == r["corpus"]
                        and x["overlap"] == r["overlap"]
                    )
                    ratio = o["mbps_best"] / r["mbps_best"]
                    # paired: the two ran next to each other in each repetition, under the same load
                    ratio_m = statistics.median(p / q for p, q in zip(r["times"], o["times"]))
                    verdict = "yes" if ratio_m >= need else f"NO ({100 * ratio_m / need:.0f}% of target)"
                    lines.append(
                        f"| {bench}: {ours} vs {peer} | {r['corpus']} | {r['overlap']} | {ratio:.2f}x | {ratio_m:.2f}x "
                        f"| >= {need}x | {verdict} |"
                    )
        lines.append("")
    sc = results.get("scaling", [])
    if sc:
        sizes = sorted({round(r["mb"], 2) for r in sc})
        lines += [
            "### Time for one document of growing size (seconds, best)",
            "",
            "| contender | " + " | ".join(f"{m:g} MB" for m in sizes) + " | largest / smallest | size ratio |",
            "|---|" + "---|" * len(sizes) + "---|---|",
        ]
        for name in SCALING:
            rows = sorted((r for r in sc if r["name"] == name), key=lambda r: r["mb"])
            if not rows:
                continue
            cells = [f"{r['seconds']:.2f}" + (" (extrapolated)" if r["extrapolated"] else "") for r in rows]
            lines.append(
                f"| {name} | "
                + " | ".join(cells)
                + f" | {rows[-1]['seconds'] / rows[0]['seconds']:.1f}x | {rows[-1]['mb'] / rows[0]['mb']:.1f}x |"
            )
        lines.append("")
        lines.append("Target: a 16 MB document in at most 17x the time of a 1 MB one (chunkwise).")
        for name in SCALING:
            rows = sorted((r for r in sc if r["name"] == name), key=lambda r: r["mb"])
            if name.startswith("chunkwise") and len(rows) > 1:
                growth = rows[-1]["seconds"] / rows[0]["seconds"]
                verdict = "met" if growth <= 17 else f"NOT met ({growth / 17:.2f}x over)"
                if rows[-1]["mb"] / rows[0]["mb"] < 15:
                    verdict = "(the target is for 16 MB against 1 MB)"
                lines.append(f"- {name}: {growth:.1f}x for {rows[-1]['mb'] / rows[0]['mb']:.1f}x the size: {verdict}")
        lines.append("")
    mem = results.get("memory", [])
    if mem:
        lines += [
            (
                f"### Peak memory for one {mem[0]['doc_bytes'] / 1e6:.1f} MB document "
                "(RSS high-water mark minus RSS before the call, one process per contender)"
            ),
            "",
            "| contender | peak increase (MB) | multiple of document size | seconds |",
            "|---|---|---|---|",
        ]
        for r in mem:
            lines.append(
                f"| {r['name']} | {r['peak_delta_bytes'] / 1e6:.1f} | {r['multiple']:.2f}x | {r['seconds']:.2f} |"
            )
        lines.append("")
        lines.append("Target: peak memory under 10x the document size (chunkwise).")
        for r in mem:
            if r["name"].startswith("chunkwise"):
                verdict = "met" if r["multiple"] < 10 else f"NOT met ({r['multiple'] / 10:.2f}x the limit)"
                lines.append(f"- {r['name']}: {r['multiple']:.2f}x: {verdict}")
        lines.append("")
    return "\n".join(lines)


def machine() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor()
    versions = {}
    for mod in (
        "chunkwise",
        "langchain_text_splitters",
        "chonkie",
        "semchunk",
        "semantic_text_splitter",
        "tiktoken",
        "quicktok",
    ):
        try:
            from importlib.metadata import version

            dist = {
                "langchain_text_splitters": "langchain-text-splitters",
                "semantic_text_splitter": "semantic-text-splitter",
                "quicktok": "quicktok-v1",
            }.get(mod, mod)
            versions[mod] = version(dist)
        except Exception:  # noqa: BLE001
            versions[mod] = "?"
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], check=False, cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "src"], check=False, cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        versions["commit"] = commit + (" (uncommitted changes under src/)" if dirty else "")
    except OSError:
        pass
    return f"Python {platform.python_version()}, {cpu}, {os.cpu_count()} CPUs; " + ", ".join(
        f"{k} {v}" for k, v in versions.items()
    )


def profile(bench: str, corpus: list[str], overlap: int) -> None:
    import cProfile
    import pstats

    size, _ = CONFIGS[bench]
    ours = next(c for c in contenders(bench) if c.ours)
    fn = ours.build(size, overlap)
    fn(WARM)
    prof = cProfile.Profile()
    prof.enable()
    for d in corpus:
        fn(d)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated benches: " + ", ".join([*CONFIGS, "scaling", "memory"]))
    ap.add_argument("--quick", action="store_true", help="2 repetitions, 0.5 MB pydocs, scaling 1/4 MB, memory at 4 MB")
    ap.add_argument("--reps", type=int, default=None, help="repetitions per configuration (default 5; quick 2)")
    ap.add_argument("--corpus", default="chroma,pydocs", help="comma-separated: chroma, pydocs")
    ap.add_argument("--pydocs-mb", type=float, default=None, help="size of the pydocs corpus (default 1.5; quick 0.5)")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument(
        "--budget", type=float, default=120.0, help="skip (and extrapolate) a scaling run predicted to take longer"
    )
    ap.add_argument(
        "--before",
        default="",
        help="a git revision of chunkwise to run as one more contender (before/after columns in one run)",
    )
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall", help="throughput clock (cpu: process time)")
    ap.add_argument("--profile", default="", help="cProfile chunkwise on a bench (first --corpus) and exit")
    ap.add_argument("--overlap", type=int, default=0, help="overlap for --profile")
    ap.add_argument("--json", default="", help="write raw results here (default .bench/results-<time>.json)")
    ap.add_argument("--markdown", default="", help="also write the tables to this file")
    args = ap.parse_args()
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    if args.before:
        BEFORE.append(args.before)
        load_before(args.before)  # extract now, outside any timing

    if args.profile:
        first = args.corpus.split(",")[0]
        docs = pydocs_corpus(args.pydocs_mb or 1.5) if first == "pydocs" else chroma_corpus()
        profile(args.profile, docs or [], args.overlap)
        return
    only = [s for s in args.only.split(",") if s] or [*CONFIGS, "scaling", "memory"]
    if args.no_scaling and "scaling" in only:
        only.remove("scaling")
    if args.no_memory and "memory" in only:
        only.remove("memory")
    reps = args.reps or (2 if args.quick else 5)
    corpora: dict[str, list[str]] = {}
    for name in args.corpus.split(","):
        if name == "chroma":
            corpora["chroma"] = chroma_corpus()
        elif name == "pydocs":
            docs = pydocs_corpus(args.pydocs_mb or (0.5 if args.quick else 1.5))
            if docs:
                corpora["pydocs"] = docs
    for k, v in corpora.items():
        print(f"# corpus {k}: {len(v)} documents, {nbytes(v) / 1e6:.2f} MB", file=sys.stderr)
    results: dict[str, Any] = {
        "machine": machine(),
        "argv": sys.argv[1:],
        "reps": reps,
        "corpora": {k: {"docs": len(v), "mb": nbytes(v) / 1e6} for k, v in corpora.items()},
    }
    t0 = time.time()
    results["throughput"] = []
    for bench in CONFIGS:
        if bench in only:
            results["throughput"] += run_throughput(bench, corpora, reps)
    if "scaling" in only:
        sizes = [1.0, 4.0] if args.quick else [1.0, 4.0, 16.0]
        results["scaling"] = run_scaling(sizes, 2 if args.quick else 5, args.budget)
    if "memory" in only:
        results["memory"] = run_memory(4.0 if args.quick else 16.0, list(SCALING))
    results["wall_s"] = time.time() - t0
    out = Path(args.json) if args.json else BENCH / time.strftime("results-%Y%m%d-%H%M%S.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    md = (
        f"Machine: {results['machine']}\n\nCommand: `python benchmarks/run.py {' '.join(sys.argv[1:])}` "
        f"({reps} repetitions, {results['wall_s'] / 60:.1f} min)\n\n" + markdown(results)
    )
    print(md)
    if args.markdown:
        Path(args.markdown).write_text(md + "\n")
    print(f"# raw results: {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
