"""The code strategy with its pure-Python modules compiled by Cython, against the same sources uncompiled.

Usage (from the repository root; needs a C compiler, the Python headers and Cython 3)::

    .venv/bin/pip install cython
    .venv/bin/python benchmarks/bench_compiled.py                 # 3 rounds of 5 repetitions
    .venv/bin/python benchmarks/bench_compiled.py --rounds 1      # quicker

Nothing is installed: each variant is a copy of ``src/chunkwise`` in a temporary folder,
compiled there (``build_ext --inplace``), and imported from there by a process of its own.
The three builds take about two minutes of CPU time.

Variants:

* ``pure``: the sources as they are (what an install runs);
* ``cython-scan``: ``parsers/code_scan.py`` compiled by Cython in pure-Python mode, the
  source unchanged;
* ``cython-5``: the same for ``code_scan.py``, ``packer.py``, ``enrich.py``, ``merge.py`` and
  ``parsers/code.py``;
* ``cython-5-typed``: ``cython-5`` with the scanner of ``code_scan.py`` typed by an augmenting
  ``.pxd`` (written by this script): a ``cdef class`` with typed attributes, C integers for
  its positions and counters, C calls between its methods.

Measures, for ``strategy="code"``, Python, 1000 characters, on the standard library modules
of ``bench_code.py``: the CPU time of the variant's process (``time.process_time``) for all
files, the best of ``--repeat`` repetitions in each of ``--rounds`` rounds (the variants take
turns, so a load on the machine falls on all of them); ``x pure``: the pure variant's time
over the variant's; ``chunks``: a hash of every chunk's text, offsets and metadata (the same
for all variants, or the variant is wrong); ``600 nested blocks``: what the scan returns for
600 nested ``if`` blocks -- the pure scan meets Python's recursion limit and leaves the file
to a parser (None); compiled code does not check that limit.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOT = ["parsers/code_scan", "packer", "enrich", "merge", "parsers/code"]
VARIANTS = {
    "pure": ([], False),
    "cython-scan": (HOT[:1], False),
    "cython-5": (HOT, False),
    "cython-5-typed": (HOT, True),
}

# the scanner's state and hot methods in C types (Cython's augmenting .pxd: the .py is unchanged)
SCAN_PXD = """\
cimport cython

cdef class _Scanner:
    cdef public str text, masked
    cdef public object fits
    cdef public list starts, inds, ends, code_ends, cstarts, cends, cinds, ops, nxt, closed, kinds, defs
    cdef public list statements, cuts
    cdef public bint continued
    cdef public dict after_cont

    @cython.locals(masked=str, lines=list, line=str, r=str, ls=str, pos=Py_ssize_t, ind=Py_ssize_t, n=Py_ssize_t,
                   depth=Py_ssize_t, d=Py_ssize_t, first=Py_ssize_t, i=Py_ssize_t, nxt=list, stack=list,
                   ij=Py_ssize_t, last=Py_ssize_t, j=Py_ssize_t)
    cpdef lines(self)

    @cython.locals(s=Py_ssize_t, first=str)
    cpdef kind(self, Py_ssize_t k)

    @cython.locals(end=Py_ssize_t, depth=Py_ssize_t, p=Py_ssize_t)
    cpdef Py_ssize_t header_end(self, Py_ssize_t head, Py_ssize_t k) except? -2

    @cython.locals(nxt=Py_ssize_t, e=Py_ssize_t, c=Py_ssize_t, cstarts=list)
    cpdef Py_ssize_t stop(self, Py_ssize_t k) except? -2

    @cython.locals(text=str, statements=list, cuts=list, nxt=list, n=Py_ssize_t, i=Py_ssize_t, gi=Py_ssize_t,
                   pending=Py_ssize_t, pind=Py_ssize_t, gs=Py_ssize_t, ge=Py_ssize_t, ind=Py_ssize_t,
                   a=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t, c=tuple, gap=str)
    cpdef walk(self, list children, Py_ssize_t node_start, bint listing, Py_ssize_t parent, str prefix)

    @cython.locals(text=str, defs=list, statements=list, cuts=list, nxt=list, kinds=list, starts=list, inds=list,
                   ends=list, code_ends=list, cstarts=list, cends=list, cinds=list, ci=Py_ssize_t, cj=Py_ssize_t,
                   continued=bint, after_cont=dict, gi=Py_ssize_t, prev_def=bint, pending=Py_ssize_t,
                   pind=Py_ssize_t, lead=Py_ssize_t, k=Py_ssize_t, k0=Py_ssize_t, d0=Py_ssize_t, s0=Py_ssize_t,
                   e0=Py_ssize_t, kl=Py_ssize_t, ind0=Py_ssize_t, c=Py_ssize_t, kid_start=Py_ssize_t,
                   p=Py_ssize_t, q=Py_ssize_t, nxt_start=Py_ssize_t, gap=str, gs=Py_ssize_t, ind=Py_ssize_t,
                   a=Py_ssize_t, kd=Py_ssize_t, c0=Py_ssize_t, group=Py_ssize_t, ge=Py_ssize_t, is_def=bint,
                   ls=Py_ssize_t, sig=str, idx=Py_ssize_t)
    cpdef block(self, Py_ssize_t i, Py_ssize_t j, Py_ssize_t lo, Py_ssize_t end, Py_ssize_t node_start,
                Py_ssize_t parent, str prefix, list keep=*)

    @cython.locals(cstarts=list, i=Py_ssize_t, bs=Py_ssize_t, c0=Py_ssize_t, text=str, ends=list, code_ends=list,
                   cuts=list, be=Py_ssize_t, ind=Py_ssize_t, a=Py_ssize_t, e=Py_ssize_t, types=list, x=Py_ssize_t)
    cpdef body(self, Py_ssize_t k, Py_ssize_t node_start, object clauses, bint listing, Py_ssize_t parent,
               str prefix, Py_ssize_t end=*)
"""

BUILD = """\
import sys
from setuptools import Extension, setup
from Cython.Build import cythonize

mods = sys.argv[1].split(",")
exts = [Extension("chunkwise." + m.replace("/", "."), ["chunkwise/" + m + ".py"]) for m in mods]
# annotation_typing off: the sources' annotations (int, str) stay Python objects; the .pxd types
setup(
    name="chunkwise-compiled-bench",
    ext_modules=cythonize(exts, compiler_directives={"language_level": 3, "annotation_typing": False}, quiet=True),
    script_args=["build_ext", "--inplace", "-j", "2"],
)
"""


def child(repeat: int) -> None:
    """Run in a variant's process: time the code strategy, hash its chunks, try deep nesting."""
    import hashlib
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_code import SIZE, corpus

    import chunkwise.parsers.code_scan as scan
    from chunkwise.chunkers.code import CodeChunker

    texts = [t for _, t in corpus(False)]
    chunker = CodeChunker(language="python", chunk_size=SIZE)
    h = hashlib.sha256()
    for t in texts:
        for c in chunker.chunk(t):
            h.update(repr((c.text, c.start_index, c.end_index, sorted(c.metadata.items()))).encode())
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for t in texts:
            chunker.chunk(t)
        best = min(best, time.process_time() - t0)
    deep = "".join("    " * i + f"if x{i}:\n" for i in range(600)) + "    " * 600 + "pass\n"
    st = scan.scan_python(deep, None)
    print(json.dumps({
        "time": best, "hash": h.hexdigest()[:12], "compiled": not scan.__file__.endswith(".py"),
        "deep": "None (a parser reads it)" if st is None else f"{len(st.statements)} statements",
    }))


def build(name: str, mods: list[str], typed: bool, tmp: Path) -> Path | str:
    """A copy of the package with ``mods`` compiled: its folder, or why it could not be built."""
    where = tmp / name
    shutil.copytree(ROOT / "src" / "chunkwise", where / "chunkwise", ignore=shutil.ignore_patterns("__pycache__"))
    if not mods:
        return where
    if typed:
        (where / "chunkwise" / "parsers" / "code_scan.pxd").write_text(SCAN_PXD)
    (where / "build_compiled.py").write_text(BUILD)
    run = subprocess.run([sys.executable, "build_compiled.py", ",".join(mods)], cwd=where, capture_output=True,
                         text=True)
    if run.returncode:
        return "build failed: " + (run.stderr.strip().splitlines() or ["?"])[-1][:120]
    return where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.repeat)
        return
    try:
        import Cython
    except ImportError:
        sys.exit("Cython is not installed: pip install cython")
    print(f"Cython {Cython.__version__}, Python {sys.version.split()[0]}\n")
    with tempfile.TemporaryDirectory(prefix="chunkwise-compiled-") as tmp:
        built = {name: build(name, mods, typed, Path(tmp)) for name, (mods, typed) in VARIANTS.items()}
        ready = [n for n, w in built.items() if isinstance(w, Path)]
        best: dict[str, dict] = {}
        for r in range(args.rounds):
            for name in ready[r % len(ready) :] + ready[: r % len(ready)]:  # interleaved, rotating
                path = os.pathsep.join(filter(None, [str(built[name]), os.environ.get("PYTHONPATH")]))
                env = {**os.environ, "PYTHONPATH": path}
                run = subprocess.run([sys.executable, __file__, "--child", "--repeat", str(args.repeat)], env=env,
                                     capture_output=True, text=True)
                if run.returncode:
                    built[name] = f"failed (exit {run.returncode}): {run.stderr.strip()[-120:]}"
                    ready.remove(name)
                    continue
                out = json.loads(run.stdout.strip().splitlines()[-1])
                if name not in best or out["time"] < best[name]["time"]:
                    best[name] = out
    print("| variant | time (s) | x pure | chunks | 600 nested blocks |")
    print("|---|---:|---:|---|---|")
    pure = best.get("pure", {}).get("time")
    for name in VARIANTS:
        if name not in best:
            print(f"| {name} | — | — | — | {built[name]} |")
            continue
        b = best[name]
        x = f"{pure / b['time']:.2f}x" if pure else "—"
        print(f"| {name} | {b['time']:.3f} | {x} | {b['hash']} | {b['deep']} |")


if __name__ == "__main__":
    main()
