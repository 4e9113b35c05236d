"""Corpus throughput and memory: ``chunkwise chunk --workers 1|2`` against LangChain's
``DirectoryLoader`` + ``RecursiveCharacterTextSplitter`` and chonkie's ``Pipeline``, on
the same files, in one run; wall clock, CPU time and peak memory.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_corpus.py build            # ~360 MB download+extract into .bench/
    .venv/bin/python benchmarks/bench_corpus.py run              # 50 MB and 200 MB, 2 repetitions
    .venv/bin/python benchmarks/bench_corpus.py run --sizes 50 --repeat 1 --only chunkwise-1,chunkwise-2
    .venv/bin/python benchmarks/bench_corpus.py stages --sizes 50   # where one process's time goes
    .venv/bin/python benchmarks/bench_corpus.py workers --size 200 --rounds 5   # 1 vs 2 workers, the ratio
    .venv/bin/python benchmarks/bench_corpus.py workers --size 30 --profile     # + where parent and workers spend

``workers`` builds the corpus when it is missing, then runs ``--workers 1`` and ``--workers 2``
alternately (the first of each round alternating too), ``--rounds`` times, and prints each run
(wall clock, CPU of the whole tree as user + system and of the parent alone, load average at
its start and end), the control before the first round and after every round, the medians,
the ratio of the median wall clocks, the median of the rounds' ratios, the CPU ratio, and
the median ratio of the rounds whose controls before and after both reached 1.7x (two free
cores). ``--profile`` adds one run of each under cProfile (the parent's and the workers'
functions by own time, the workers' profiles summed).

The corpus: the documentation of Debian packages (``apt-get download`` then ``dpkg-deb
-x``: python3.11-doc, perl-doc, postgresql-doc-15, git-doc, python-django-doc,
sqlite3-doc, erlang-doc, cmake-doc), their HTML, text and POD files of at most 1 MB; every file gets a
``.txt`` suffix and no other (``intro.html`` -> ``intro_html.txt``, ``os.rst.txt`` ->
``os_rst.txt``) so that every tool reads the same plain text (chunkwise would otherwise
render HTML to Markdown and reStructuredText through docutils; the peers do neither). The
plain-text files come first, then HTML files in a fixed shuffled order, until the corpus
reaches its size: ``.bench/docs-corpus/50`` and ``.bench/docs-corpus/200`` (the first a prefix of the
second). Nothing of it is committed.

Each contender runs as its own process (``python -c`` or the ``chunkwise`` command) that
reads every file, chunks it (recursive, 1,000 characters, no overlap) and writes JSON lines
to a file; the wall time (process start to exit: imports and finding the files included;
for chunkwise also its own clock, which starts once the files are found) and the peak
resident memory of its whole process tree (parent and
workers, sampled from ``/proc`` every 50 ms) are recorded. Repetitions rotate the order of
the contenders. The load average is printed before and after, and a control: how much
faster a pure-Python loop runs in 2 processes than in 1 at that moment (the machine is
shared: when it gives no second core, no pool can scale).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".bench"
DEBS = BENCH / "docs-debs"
CORPUS = BENCH / "docs-corpus"
PACKAGES = (
    "python3.11-doc",
    "perl-doc",
    "postgresql-doc-15",
    "git-doc",
    "python-django-doc",
    "sqlite3-doc",
    "erlang-doc",
    "cmake-doc",
)
TEXT_SUFFIXES = (".txt", ".pod", ".rst", ".md")
CHUNK = 1000
MAX_FILE = 1_000_000
"""Files over 1 MB are left out, so that the largest document (which bounds the memory of
a streaming run) is of the same size in every corpus: peak memory then compares corpora."""

# -- building the corpus -----------------------------------------------------------------


def build(sizes: list[int]) -> None:
    DEBS.mkdir(parents=True, exist_ok=True)
    missing = [p for p in PACKAGES if not list(DEBS.glob(f"{p}_*.deb"))]
    if missing:
        subprocess.run(["apt-get", "download", *missing], cwd=DEBS, check=True)
    tree = BENCH / "docs-debs-extracted"
    if not tree.is_dir():
        tmp = BENCH / "debs-extracting"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for deb in (sorted(DEBS.glob(f"{p}_*.deb"))[-1] for p in PACKAGES):  # the newest of each
            subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp)], check=True)
        tmp.rename(tree)
    files = sorted(p for p in tree.rglob("*") if p.is_file() and not p.is_symlink())
    text = [p for p in files if p.suffix.lower() in TEXT_SUFFIXES and 0 < p.stat().st_size <= MAX_FILE]
    html = [p for p in files if p.suffix.lower() in (".html", ".htm") and 0 < p.stat().st_size <= MAX_FILE]
    random.Random(13).shuffle(html)
    order = text + html
    for size in sorted(sizes):
        dest = CORPUS / str(size)
        if dest.is_dir():
            print(f"{dest} exists: kept")
            continue
        tmp = CORPUS / f".{size}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        total = n = 0
        for p in order:
            if total >= size * 1_000_000:
                break
            rel = p.relative_to(tree)
            stem = p.name[:-4] if p.name.endswith(".txt") else p.name
            target = tmp / rel.parent / (stem.replace(".", "_") + ".txt")  # x.rst.txt would be read as rst
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, target)
            total += p.stat().st_size
            n += 1
        tmp.rename(dest)
        print(f"{dest}: {n} files, {total / 1e6:.1f} MB")


# -- the contenders ----------------------------------------------------------------------

LANGCHAIN = f"""
import json, sys
from langchain_community.document_loaders import DirectoryLoader, TextLoader
from langchain_text_splitters import RecursiveCharacterTextSplitter
split = RecursiveCharacterTextSplitter(chunk_size={CHUNK}, chunk_overlap=0, add_start_index=True)
loader = DirectoryLoader(sys.argv[1], glob="**/*.txt", loader_cls=TextLoader,
                         loader_kwargs={{"encoding": "utf-8"}}, silent_errors=True)
n = 0
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for doc in loader.lazy_load():
        for c in split.split_documents([doc]):
            out.write(json.dumps({{"text": c.page_content, "metadata": c.metadata}}, ensure_ascii=False) + "\\n")
            n += 1
print(n, "chunks", file=sys.stderr)
"""

CHONKIE = f"""
import json, sys
from chonkie import Pipeline
docs = (Pipeline().fetch_from("file", dir=sys.argv[1], ext=[".txt"]).process_with("text")
        .chunk_with("recursive", chunk_size={CHUNK}).run())
docs = docs if isinstance(docs, list) else [docs]
n = 0
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for d in docs:
        for c in d.chunks:
            out.write(json.dumps({{"text": c.text, "start_index": c.start_index, "end_index": c.end_index}},
                                 ensure_ascii=False) + "\\n")
            n += 1
print(n, "chunks", file=sys.stderr)
"""


def commands(corpus: Path, out: Path) -> dict[str, list[str]]:
    py = sys.executable
    cw = [str(Path(py).with_name("chunkwise")), "chunk", str(corpus), "-s", "recursive", "-u", "chars",
          "-n", str(CHUNK), "--no-progress", "-o", str(out)]
    return {
        "chunkwise-1": [*cw, "--workers", "1"],
        "chunkwise-2": [*cw, "--workers", "2"],
        "langchain": [py, "-c", LANGCHAIN, str(corpus), str(out)],
        "chonkie": [py, "-c", CHONKIE, str(corpus), str(out)],
    }


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process under it (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().rsplit(b")", 1)[1].split()
            parents[int(entry)] = int(stat[1])
            rss[int(entry)] = int(stat[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [root]
    seen = set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += rss.get(pid, 0)
        stack.extend(p for p, pp in parents.items() if pp == pid)
    return total


def _own_cpu(pid: int) -> float | None:
    """User + system CPU seconds of the process ``pid`` itself (not its children), from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().rsplit(b")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def measure(cmd: list[str], info: dict[str, Any] | None = None) -> tuple[float, int, str, float]:
    """(seconds, peak resident bytes of the process tree, last line of standard error,
    CPU seconds -- user + system -- of the process and the children it waited for).
    ``info`` receives ``parent_cpu`` (the process's own CPU at the last sample, every 50
    ms), ``user`` and ``system`` (the CPU of the process and its children, split) and
    ``load`` (the 1-minute load average at the start and at the end)."""
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = 0
    own = 0.0
    import threading

    err: list[str] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, _tree_rss(proc.pid))
        own = _own_cpu(proc.pid) or own
        time.sleep(0.05)
    elapsed = time.perf_counter() - t0
    if info is not None:
        info["parent_cpu"] = own
        info["user"], info["system"] = usage.ru_utime, usage.ru_stime
        info["load"] = (load0, os.getloadavg()[0])
    proc.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    tail = (err[0].strip().splitlines() or [""])[-1] if err else ""
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[:3]} failed ({proc.returncode}): {err[0][-2000:] if err else ''}")
    return elapsed, peak, tail, usage.ru_utime + usage.ru_stime


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    return s


def control() -> float:
    """How much a second process helps on this machine now: the wall time of a pure-Python
    loop split in two, run by a 1-process pool over that of a 2-process pool (2.0 on two
    idle cores; about 1.0 when other jobs leave one core's worth)."""
    from concurrent.futures import ProcessPoolExecutor

    times = {}
    for w in (1, 2):
        t = time.perf_counter()
        with ProcessPoolExecutor(w) as ex:
            list(ex.map(_spin, [10_000_000, 10_000_000]))
        times[w] = time.perf_counter() - t
    return times[1] / times[2]


def run(sizes: list[int], repeat: int, only: list[str] | None) -> None:
    print(f"load average before: {os.getloadavg()}; CPUs: {os.cpu_count()}; Python {sys.version.split()[0]}")
    print(f"control before: a CPU-bound loop in 2 processes / 1 process = {control():.2f}x")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        for size in sizes:
            corpus = CORPUS / str(size)
            if not corpus.is_dir():
                raise SystemExit(f"{corpus} missing: run `bench_corpus.py build` first")
            files = [p for p in corpus.rglob("*") if p.is_file()]
            mb = sum(p.stat().st_size for p in files) / 1e6
            cmds = commands(corpus, out)
            names = [n for n in cmds if not only or n in only]
            times: dict[str, list[float]] = {n: [] for n in names}
            inner: dict[str, list[float]] = {n: [] for n in names}  # chunkwise's own clock
            cpu: dict[str, list[float]] = {n: [] for n in names}
            peaks: dict[str, list[int]] = {n: [] for n in names}
            for r in range(repeat):
                order = names[r % len(names):] + names[: r % len(names)]
                for name in order:
                    secs, peak, tail, cpu_s = measure(cmds[name])
                    times[name].append(secs)
                    cpu[name].append(cpu_s)
                    m = re.search(r"MB in ([0-9.]+) s", tail)
                    if m:
                        inner[name].append(float(m.group(1)))
                    peaks[name].append(peak)
                    print(
                        f"  {size} MB rep {r + 1} {name}: {secs:.1f} s, CPU {cpu_s:.1f} s, "
                        f"peak {peak / 2**20:.0f} MiB; {tail[:160]}",
                        flush=True,
                    )
                    out.unlink(missing_ok=True)
            for name in names:
                best, med = min(times[name]), statistics.median(times[name])
                phase = f"{mb / min(inner[name]):.2f}" if inner[name] else "-"
                rows.append((size, len(files), mb, name, mb / best, mb / med, max(peaks[name]) / 2**20, phase,
                             min(cpu[name])))
    print(f"load average after: {os.getloadavg()}")
    print(f"control after: a CPU-bound loop in 2 processes / 1 process = {control():.2f}x")
    print("\n| corpus | files | MB | contender | MB/s (best) | MB/s (median) | peak RSS, MiB | "
          "MB/s after finding the files (best) | CPU s (least) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size, n, mb, name, best, med, peak, phase, cpu_s in rows:
        print(f"| {size} MB | {n} | {mb:.1f} | {name} | {best:.2f} | {med:.2f} | {peak:.0f} | {phase} | {cpu_s:.1f} |")
    by = {(r[0], r[3]): r for r in rows}
    for size in sizes:
        if (size, "chunkwise-1") in by and (size, "chunkwise-2") in by:
            one, two = by[(size, "chunkwise-1")], by[(size, "chunkwise-2")]
            after = f"{float(two[7]) / float(one[7]):.2f}x" if one[7] != "-" and two[7] != "-" else "-"
            print(f"{size} MB: 2 workers / 1 worker = {two[4] / one[4]:.2f}x wall clock (best), "
                  f"{after} after finding the files")


# -- where the time goes: one process, stage by stage -----------------------------------


def stages(size: int, repeat: int) -> None:
    """The single-process pipeline of ``chunkwise chunk`` timed stage by stage (best of
    ``repeat``): finding the files (``gather``: walk, format detection, ids), reading
    (load: detect, decode, Document), the content id, chunking (of which the packer and the
    enrich stage), serialising the JSON lines, writing; and LangChain's in the same run
    (``DirectoryLoader`` + ``TextLoader``, the splitter, ``json.dumps``)."""
    import functools
    import json

    import chunkwise
    from chunkwise.chunkers import base as chunker_base
    from chunkwise.commands import _chunk_run as run_
    from chunkwise.commands._inputs import gather
    from chunkwise.corpus import config_key, content_id

    corpus = CORPUS / str(size)
    if not corpus.is_dir():
        raise SystemExit(f"{corpus} missing: run `bench_corpus.py build` first")
    clock = time.process_time  # CPU time of this process: less sensitive to other jobs than the wall
    spent: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapper(*a: Any, **k: Any) -> Any:
            t = clock()
            try:
                return fn(*a, **k)
            finally:
                spent[name] = spent.get(name, 0.0) + clock() - t

        return wrapper

    rows: dict[str, list[float]] = {}
    for _ in range(repeat):
        spent.clear()
        real_build = chunker_base.build_chunks
        chunker_base.build_chunks = timed("enrich", real_build)
        try:
            t = clock()
            inputs, _ = gather([str(corpus)], (), (), None)
            spent["find files"] = clock() - t
            chunker = chunkwise.make_chunker("recursive", chunk_size=CHUNK, unit="chars")
            config = config_key(chunker)
            read = timed("read", run_.read_item)
            cid_of = timed("content id", content_id)
            chunk = timed("chunk", chunker.chunk)
            render = timed("serialise", run_.render_jsonl)
            with tempfile.TemporaryFile() as out:
                write = timed("write", out.write)
                for inp in inputs:
                    doc = read((inp, None), None, "auto", {})
                    cid = cid_of(doc.text, config)
                    write(render(chunk(doc), doc, cid))
        finally:
            chunker_base.build_chunks = real_build
        spent["chunk: packer and parser"] = spent.pop("chunk") - spent["enrich"]
        for k, v in spent.items():
            rows.setdefault(f"chunkwise: {k}", []).append(v)
        from langchain_community.document_loaders import DirectoryLoader, TextLoader
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        split = RecursiveCharacterTextSplitter(chunk_size=CHUNK, chunk_overlap=0, add_start_index=True)
        loader = DirectoryLoader(str(corpus), glob="**/*.txt", loader_cls=TextLoader,
                                 loader_kwargs={"encoding": "utf-8"}, silent_errors=True)
        lc = {"load (walk and read)": 0.0, "split": 0.0, "serialise": 0.0}
        docs = loader.lazy_load()
        with tempfile.TemporaryFile() as out:
            while True:
                t = clock()
                doc = next(docs, None)
                lc["load (walk and read)"] += clock() - t
                if doc is None:
                    break
                t = clock()
                pieces = split.split_documents([doc])
                lc["split"] += clock() - t
                t = clock()
                out.write("".join(json.dumps({"text": c.page_content, "metadata": c.metadata}, ensure_ascii=False)
                                  + "\n" for c in pieces).encode("utf-8"))
                lc["serialise"] += clock() - t
        for k, v in lc.items():
            rows.setdefault(f"LangChain: {k}", []).append(v)
    print(f"{size} MB corpus, CPU seconds of one process, best of {repeat}; load average {os.getloadavg()}")
    print("| stage | CPU s |\n|---|---|")
    for name, values in rows.items():
        print(f"| {name} | {min(values):.2f} |")
    for who in ("chunkwise", "LangChain"):
        print(f"{who}: total {sum(min(v) for k, v in rows.items() if k.startswith(who)):.2f} s")


def workers(size: int, rounds: int, profile: bool) -> None:
    """``--workers 1`` against ``--workers 2`` on the ``size`` MB corpus, interleaved (see the
    module's usage): medians and the ratio, with the load average of every run and the
    control after every round; the rounds whose control showed two free cores (1.7x or
    more) are summed up apart."""
    corpus = CORPUS / str(size)
    if not corpus.is_dir():
        build([size])
    files = [p for p in corpus.rglob("*") if p.is_file()]
    mb = sum(p.stat().st_size for p in files) / 1e6
    print(f"{corpus}: {len(files)} files, {mb:.1f} MB; CPUs: {os.cpu_count()}; Python {sys.version.split()[0]}")
    print(f"load average before: {os.getloadavg()}")
    controls = [control()]
    print(f"control before: a CPU-bound loop in 2 processes / 1 process = {controls[0]:.2f}x", flush=True)
    runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        cmds = commands(corpus, out)
        for r in range(rounds):
            for w in ((1, 2) if r % 2 == 0 else (2, 1)):
                info: dict[str, Any] = {}
                secs, peak, tail, cpu_s = measure(cmds[f"chunkwise-{w}"], info)
                m = re.search(r"MB in ([0-9.]+) s", tail)
                row = {"wall": secs, "cpu": cpu_s, "user": info["user"], "system": info["system"],
                       "parent": info["parent_cpu"], "peak": peak / 2**20,
                       "inner": float(m.group(1)) if m else float("nan"),
                       "load0": info["load"][0], "load1": info["load"][1]}
                runs[w].append(row)
                print(f"  round {r + 1} --workers {w}: wall {secs:.2f} s (after listing the files "
                      f"{row['inner']:.2f} s), CPU {cpu_s:.2f} s (user {row['user']:.2f} + system "
                      f"{row['system']:.2f}; parent {row['parent']:.2f} s), peak {row['peak']:.0f} MiB, "
                      f"load {row['load0']:.2f} -> {row['load1']:.2f}", flush=True)
                out.unlink(missing_ok=True)
            controls.append(control())
            print(f"  control after round {r + 1}: {controls[-1]:.2f}x", flush=True)
    print(f"load average after: {os.getloadavg()}")
    med = {w: {k: statistics.median(x[k] for x in runs[w]) for k in runs[w][0]} for w in runs}
    print("\n| workers | runs | wall s (median) | MB/s (median) | CPU s (median) | user + system s | parent CPU s | "
          "peak MiB | load average during the runs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for w in (1, 2):
        loads = [x["load0"] for x in runs[w]] + [x["load1"] for x in runs[w]]
        print(f"| {w} | {len(runs[w])} | {med[w]['wall']:.2f} | {mb / med[w]['wall']:.1f} | {med[w]['cpu']:.2f} | "
              f"{med[w]['user']:.2f} + {med[w]['system']:.2f} | {med[w]['parent']:.2f} | {med[w]['peak']:.0f} | "
              f"{min(loads):.2f}-{max(loads):.2f} |")
    pairs = [a["wall"] / b["wall"] for a, b in zip(runs[1], runs[2])]
    print(f"\n{size} MB, {len(files)} files: 2 workers / 1 worker = {med[1]['wall'] / med[2]['wall']:.2f}x "
          f"(median wall clocks); rounds: {', '.join(f'{x:.2f}' for x in pairs)} (median "
          f"{statistics.median(pairs):.2f}x); CPU 2 workers / 1 = {med[2]['cpu'] / med[1]['cpu']:.2f}x; "
          f"controls: {', '.join(f'{c:.2f}' for c in controls)}")
    # a round counts as run on two free cores when the controls before and after it both showed them
    free = [k for k in range(len(pairs)) if min(controls[k], controls[k + 1]) >= 1.7]
    if free:
        ratio = statistics.median(pairs[k] for k in free)
        print(f"rounds with the control at 1.7x or more before and after: {len(free)} of {len(pairs)} "
              f"(rounds {', '.join(str(k + 1) for k in free)}), median ratio {ratio:.2f}x")
    else:
        print("no round had the control at 1.7x or more before and after it: these wall clocks do not show "
              "what two free cores give")
    if profile:
        profile_runs(corpus)


PROFILE = """
import cProfile, multiprocessing.util, os, pstats, sys
import chunkwise.corpus as corpus
folder, workers, out, dump = sys.argv[1:5]
real_init = corpus._init

def init(job):
    real_init(job)
    prof = cProfile.Profile()
    prof.enable()
    multiprocessing.util.Finalize(None, lambda: (prof.disable(), prof.dump_stats(f"{dump}.worker{os.getpid()}")),
                                  exitpriority=10)

corpus._init = init
sys.argv = ["chunkwise", "chunk", folder, "-s", "recursive", "-u", "chars", "-n", "%d", "--no-progress",
            "--workers", workers, "-o", out]
from chunkwise.cli import cli
prof = cProfile.Profile()
prof.enable()
try:
    cli(standalone_mode=False)
finally:
    prof.disable()
    prof.dump_stats(f"{dump}.parent")
""" % CHUNK


def profile_runs(corpus: Path, top: int = 14) -> None:
    """One run each of ``--workers 1`` and ``--workers 2`` under cProfile (which slows
    both; compare the shares): the functions of the parent and of the workers by own time.
    The parent's profile starts after the interpreter and ``chunkwise.cli`` are imported."""
    import glob
    import io
    import pstats

    for w in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, "prof")
            subprocess.run([sys.executable, "-c", PROFILE, str(corpus), str(w), os.path.join(tmp, "out.jsonl"), dump],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for who, paths in (("parent", [f"{dump}.parent"]), ("workers", sorted(glob.glob(f"{dump}.worker*")))):
                if not paths:
                    continue
                buf = io.StringIO()
                st = pstats.Stats(*paths, stream=buf)
                print(f"\n--workers {w}, {who} ({len(paths)} process{'es' if len(paths) > 1 else ''}): "
                      f"{st.total_tt:.2f} s profiled")  # type: ignore[attr-defined]
                st.sort_stats("tottime").print_stats(top)
                lines = [x for x in buf.getvalue().splitlines() if re.match(r"\s+\d", x)]
                print("\n".join(lines[:top]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("build")
    b.add_argument("--sizes", default="50,200")
    r = sub.add_parser("run")
    r.add_argument("--sizes", default="50,200")
    r.add_argument("--repeat", type=int, default=2)
    r.add_argument("--only", default="")
    st = sub.add_parser("stages")
    st.add_argument("--sizes", default="50")
    st.add_argument("--repeat", type=int, default=3)
    wk = sub.add_parser("workers")
    wk.add_argument("--size", type=int, default=200)
    wk.add_argument("--rounds", type=int, default=5)
    wk.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    if args.what == "workers":
        workers(args.size, args.rounds, args.profile)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.what == "build":
        build(sizes)
    elif args.what == "stages":
        for size in sizes:
            stages(size, args.repeat)
    else:
        run(sizes, args.repeat, [s for s in args.only.split(",") if s] or None)


if __name__ == "__main__":
    main()
