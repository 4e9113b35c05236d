"""Code chunking of real Python at 1000 characters: chunkwise against its peers, in one run.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_code.py             # the standard library modules below
    .venv/bin/python benchmarks/bench_code.py --quick     # the first five, one repetition

Contenders (each at ``chunk_size=1000`` characters, no overlap):

* ``chunkwise``: ``strategy="code"``, ``language="python"``, the default parser (Python's
  structural scan: statements by indentation, no syntax tree; in C where the optional
  extension ``chunkwise.parsers._code_scan`` was built at install);
* ``chunkwise-pure-scan``: the same with the scan's Python code (what runs where no C
  compiler was found at install; the same chunks);
* ``chunkwise-tree-sitter``: the same with ``parser="tree-sitter"`` (tree-sitter-python);
* ``chunkwise-ast``: the same, read by the standard library's ``ast`` (no tree-sitter);
* ``langchain``: ``RecursiveCharacterTextSplitter.from_language(Language.PYTHON)``;
* ``llama-index``: ``CodeSplitter(language="python", max_chars=1000)`` with a parser from
  tree-sitter-python (it cannot load its own offline; ``chunk_lines`` and
  ``chunk_lines_overlap`` are declared but not used by its split);
* ``semantic-text-splitter``: ``CodeSplitter(tree_sitter_python.language(), 1000)``;
* ``chonkie``: ``CodeChunker(language="python", tokenizer="character", chunk_size=1000)``,
  reported as unavailable when it cannot run (it needs tree-sitter-language-pack 1.x,
  which downloads its grammars at first use);
* ``tree-sitter parse (reference)``: ``Parser.parse`` of each file with tree-sitter-python
  and nothing else -- not a chunker: what every tree-sitter splitter pays at least.

Corpus: modules of the interpreter's own standard library (read at run time, never copied).

Measures, with the standard library's ``ast`` as the judge (independent of every contender):

* time: the best of the repetitions for the whole corpus; the contenders take turns within
  each repetition (interleaved, the order rotating), so a load on the shared machine
  falls on all of them; ``x`` is the fastest tree-sitter peer's time over the
  contender's (above 1: faster than that peer);
* definitions split: of the functions and classes (any depth, decorators included) that
  fit 1000 characters, the share not held whole by one chunk;
* mid-statement starts: the share of chunks whose first character does not begin a
  statement, a decorator, a comment or a clause (``elif``, ``else``, ``except``,
  ``finally``, ``case``) at the start of its line;
* over budget: chunks longer than 1000 characters; lost: chunks not found in the source.
"""

from __future__ import annotations

import argparse
import ast
import io
import sysconfig
import time
import tokenize
from collections.abc import Callable
from pathlib import Path

SIZE = 1000
MODULES = [
    "argparse.py", "json/decoder.py", "textwrap.py", "dataclasses.py", "functools.py", "typing.py",
    "calendar.py", "shlex.py", "string.py", "difflib.py", "inspect.py", "pathlib.py", "enum.py",
    "_pydecimal.py", "email/message.py", "http/client.py", "logging/__init__.py", "asyncio/tasks.py",
    "collections/__init__.py", "unittest/case.py",
]


def corpus(quick: bool) -> list[tuple[str, str]]:
    root = Path(sysconfig.get_paths()["stdlib"])
    out = []
    for name in MODULES[:5] if quick else MODULES:
        p = root / name
        if p.is_file():
            out.append((name, p.read_text(encoding="utf-8")))
    return out


# -- contenders ---------------------------------------------------------------------------


def make_chunkwise(parser: str) -> Callable[[str], list[str]]:
    from chunkwise.chunkers.code import CodeChunker

    chunker = CodeChunker(language="python", chunk_size=SIZE, parser=parser)
    return lambda text: [c.text for c in chunker.chunk(text)]


def make_chunkwise_pure() -> Callable[[str], list[str]]:
    from chunkwise.parsers import code_scan

    chunk = make_chunkwise("auto")

    def run(text: str) -> list[str]:
        native, code_scan._native = code_scan._native, None
        try:
            return chunk(text)
        finally:
            code_scan._native = native

    return run


def make_langchain() -> Callable[[str], list[str]]:
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter.from_language(Language.PYTHON, chunk_size=SIZE, chunk_overlap=0)
    return splitter.split_text


def make_llama() -> Callable[[str], list[str]]:
    import tree_sitter
    import tree_sitter_python
    from llama_index.core.node_parser import CodeSplitter

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    splitter = CodeSplitter(language="python", max_chars=SIZE, parser=parser)
    return splitter.split_text


def make_text_splitter() -> Callable[[str], list[str]]:
    import tree_sitter_python
    from semantic_text_splitter import CodeSplitter

    splitter = CodeSplitter(tree_sitter_python.language(), SIZE)
    return splitter.chunks


def make_parse_only() -> Callable[[str], list[str]]:
    import tree_sitter
    import tree_sitter_python

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))

    def parse(text: str) -> list[str]:
        parser.parse(text.encode("utf-8"))
        return []

    return parse


def make_chonkie() -> Callable[[str], list[str]]:
    from chonkie import CodeChunker

    chunker = CodeChunker(language="python", tokenizer="character", chunk_size=SIZE)
    chunker.chunk("def f():\n    return 1\n")
    return lambda text: [c.text for c in chunker.chunk(text)]


CONTENDERS: dict[str, Callable[[], Callable[[str], list[str]]]] = {
    "chunkwise": lambda: make_chunkwise("auto"),
    "chunkwise-pure-scan": make_chunkwise_pure,
    "chunkwise-tree-sitter": lambda: make_chunkwise("tree-sitter"),
    "chunkwise-ast": lambda: make_chunkwise("ast"),
    "langchain": make_langchain,
    "llama-index": make_llama,
    "semantic-text-splitter": make_text_splitter,
    "chonkie": make_chonkie,
    "tree-sitter parse (reference)": make_parse_only,
}
TREE_SITTER_PEERS = ("llama-index", "semantic-text-splitter", "chonkie")


# -- the judge ----------------------------------------------------------------------------


def _offsets(text: str) -> Callable[[int, int], int]:
    starts = [0]
    for line in io.StringIO(text).readlines():
        starts.append(starts[-1] + len(line))
    cache: dict[int, bytes] = {}

    def pos(lineno: int, col: int) -> int:
        ls = starts[lineno - 1]
        line = text[ls : starts[lineno]] if lineno < len(starts) else text[ls:]
        if line.isascii():
            return ls + col
        b = cache.setdefault(lineno, line.encode("utf-8"))
        return ls + len(b[:col].decode("utf-8", "ignore"))

    return pos


def facts(text: str) -> tuple[list[tuple[int, int]], set[int]]:
    """The fitting definitions ``(start, end)`` and the positions where a chunk may start."""
    tree = ast.parse(text)
    pos = _offsets(text)
    defs: list[tuple[int, int]] = []
    starts: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.stmt, ast.ExceptHandler)) or type(node).__name__ == "match_case":
            if not hasattr(node, "lineno"):
                continue
            s = pos(node.lineno, node.col_offset)
            starts.add(s)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for d in node.decorator_list:
                    at = text.rfind("@", 0, pos(d.lineno, d.col_offset))
                    starts.add(at)
                    s = min(s, at)
                e = pos(node.end_lineno, node.end_col_offset)
                if e - s <= SIZE:
                    defs.append((s, e))
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            starts.add(_char(text, tok.start))
        elif tok.type == tokenize.NAME and tok.string in ("else", "elif", "finally", "except", "case"):
            p = _char(text, tok.start)
            ls = text.rfind("\n", 0, p) + 1
            if not text[ls:p].strip():
                starts.add(p)
    return defs, starts


_LINE_STARTS: dict[int, list[int]] = {}


def _char(text: str, rowcol: tuple[int, int]) -> int:
    key = id(text)
    starts = _LINE_STARTS.get(key)
    if starts is None:
        starts = [0]
        for line in io.StringIO(text).readlines():
            starts.append(starts[-1] + len(line))
        _LINE_STARTS[key] = starts
    return starts[rowcol[0] - 1] + rowcol[1]


def locate(text: str, chunks: list[str]) -> tuple[list[tuple[int, int]], int]:
    """Offsets of each chunk in ``text`` (searched in order) and how many were not found."""
    out: list[tuple[int, int]] = []
    lost = 0
    pos = 0
    for c in chunks:
        k = text.find(c, pos)
        if k < 0:
            k = text.find(c)
        if k < 0:
            lost += 1
            continue
        out.append((k, k + len(c)))
        pos = k + 1
    return out, lost


def judge(text: str, chunks: list[str], defs: list[tuple[int, int]], starts: set[int]) -> dict[str, int]:
    spans, lost = locate(text, chunks)
    split = 0
    for s, e in defs:
        if not any(cs <= s and e <= ce for cs, ce in spans):
            split += 1
    mid = 0
    for cs, ce in spans:
        first = cs
        while first < ce and text[first].isspace():
            first += 1
        if first not in starts:
            mid += 1
    return {
        "chunks": len(chunks),
        "defs": len(defs),
        "split": split,
        "mid": mid,
        "over": sum(len(c) > SIZE for c in chunks),
        "lost": lost,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated contender names (default: all)")
    ap.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall",
        help="cpu: this process's CPU time (steadier than wall time on a loaded machine; every contender runs "
        "in this one thread)",
    )
    args = ap.parse_args()
    files = corpus(args.quick)
    size = sum(len(t) for _, t in files)
    print(f"{len(files)} standard library modules, {size / 1e6:.2f} M characters, chunk_size {SIZE} characters\n")
    judged = [(name, text, *facts(text)) for name, text in files]
    wanted = [n for n in args.only.split(",") if n] or list(CONTENDERS)
    ready: dict[str, Callable[[str], list[str]]] = {}
    failed: dict[str, str] = {}
    for name in wanted:
        try:
            fn = CONTENDERS[name]()
            fn("def f():\n    return 1\n")
            ready[name] = fn
        except Exception as exc:  # noqa: BLE001 - a peer that cannot run here is reported, not fatal
            failed[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:90]}"
    best = {name: float("inf") for name in ready}
    outs: dict[str, list[list[str]]] = {}
    names = list(ready)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    for r in range(1 if args.quick else args.repeat):
        for name in names[r % len(names) :] + names[: r % len(names)]:  # interleaved, rotating
            fn = ready[name]
            t0 = clock()
            outs[name] = [fn(text) for _, text, _, _ in judged]
            best[name] = min(best[name], clock() - t0)
    peers = [best[n] for n in TREE_SITTER_PEERS if n in best]
    fastest = min(peers) if peers else None
    print(
        "| contender | time (s) | x fastest tree-sitter peer | chunks | fitting definitions split "
        "| chunks starting mid-statement | over 1000 chars | not found |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in wanted:
        if name in failed:
            print(f"| {name} | — | — | — | — | — | — | unavailable: {failed[name]} |")
            continue
        ratio = f"{fastest / best[name]:.2f}x" if fastest else "—"
        if name == "tree-sitter parse (reference)":
            print(f"| {name} | {best[name]:.3f} | {ratio} | — | — | — | — | — |")
            continue
        t = {"chunks": 0, "defs": 0, "split": 0, "mid": 0, "over": 0, "lost": 0}
        for (_, text, defs, starts), chunks in zip(judged, outs[name]):
            for k, v in judge(text, chunks, defs, starts).items():
                t[k] += v
        print(
            f"| {name} | {best[name]:.3f} | {ratio} | {t['chunks']} | {t['split']} of {t['defs']} "
            f"({100 * t['split'] / max(1, t['defs']):.1f}%) "
            f"| {t['mid']} ({100 * t['mid'] / max(1, t['chunks']):.1f}%) | {t['over']} | {t['lost']} |"
        )


if __name__ == "__main__":
    main()
