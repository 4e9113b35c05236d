"""PDF: load + chunk in pages per second against LangChain and LlamaIndex, peak memory on the
largest PDF, the text each gives of a two-column page, and the PDF libraries compared.

    .venv/bin/python benchmarks/bench_pdf.py [--rounds 5] [--quality benchmarks/pdf_quality.md]
    .venv/bin/python benchmarks/bench_pdf.py --libraries      # pypdfium2, pypdf, pdfplumber alone

Contenders, on the real PDFs of ``tests/corpus/pdf`` (or ``--files``), in one run,
interleaved (each round runs every contender once, in a rotated order; the median round is
reported):

* ``chunkwise``: ``chunkwise.load(path)`` + ``chunkwise.chunk(doc, strategy="auto")``
  (markdown for PDFs: headings, page numbers), 1000 characters and 256 tokens;
* ``langchain``: ``PyPDFLoader(path).load()`` + ``RecursiveCharacterTextSplitter(chunk_size=1000)``
  (langchain-community; pypdf underneath);
* ``llamaindex``: ``SimpleDirectoryReader(input_files=[path]).load_data()`` +
  ``SentenceSplitter(chunk_size=256)`` (llama-index-readers-file; pypdf underneath).

Peak memory: each contender in a fresh process on the largest PDF, the peak resident set
(``VmHWM``) minus the resident set after the imports (PDFium allocates outside Python, so
``tracemalloc`` would not see it).

Needs ``pip install 'chunkwise[pdf,bench]'``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "pdf"


def run_chunkwise_chars(path: Path) -> int:
    import chunkwise

    return len(chunkwise.chunk(chunkwise.load(path), strategy="auto", chunk_size=1000, unit="chars"))


def run_chunkwise_tokens(path: Path) -> int:
    import chunkwise

    return len(chunkwise.chunk(chunkwise.load(path), strategy="auto", chunk_size=256, unit="tokens"))


def run_langchain(path: Path) -> int:
    from langchain_community.document_loaders import PyPDFLoader
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    pages = PyPDFLoader(str(path)).load()
    return len(RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0).split_documents(pages))


def run_llamaindex(path: Path) -> int:
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.node_parser import SentenceSplitter

    docs = SimpleDirectoryReader(input_files=[str(path)]).load_data(show_progress=False)
    return len(SentenceSplitter(chunk_size=256, chunk_overlap=0).get_nodes_from_documents(docs))


CONTENDERS = {
    "chunkwise (1000 chars)": run_chunkwise_chars,
    "chunkwise (256 tokens)": run_chunkwise_tokens,
    "langchain PyPDFLoader + Recursive (1000 chars)": run_langchain,
    "llamaindex SimpleDirectoryReader + SentenceSplitter (256 tokens)": run_llamaindex,
}


def page_count(path: Path) -> int:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(path))
    try:
        return len(doc)
    finally:
        doc.close()


def speed(files: list[Path], rounds: int) -> None:
    pages = sum(page_count(p) for p in files)
    names = list(CONTENDERS)
    for name in names:  # warm up: imports, tokenizers
        CONTENDERS[name](files[0])
    times: dict[str, list[float]] = {n: [] for n in names}
    chunks: dict[str, int] = {}
    for r in range(rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            t = time.perf_counter()
            chunks[name] = sum(CONTENDERS[name](p) for p in files)
            times[name].append(time.perf_counter() - t)
    print(f"{len(files)} PDFs, {pages} pages, {rounds} interleaved rounds (median)")
    print("| contender | seconds | pages/s | chunks | ratio to chunkwise (1000 chars) |")
    print("|---|---:|---:|---:|---:|")
    base = statistics.median(times[names[0]])
    for name in names:
        med = statistics.median(times[name])
        print(f"| {name} | {med:.3f} | {pages / med:.0f} | {chunks[name]} | {med / base:.2f}x time |")


_MEMORY = """
import sys, json
sys.path.insert(0, {bench!r})
import bench_pdf
from pathlib import Path
def rss(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
fn = bench_pdf.CONTENDERS[{name!r}]
fn(Path({small!r}))  # imports and tokenizers loaded
before = rss("VmRSS:")
n = fn(Path({path!r}))
print(json.dumps({{"peak": rss("VmHWM:") - before, "chunks": n}}))
"""


def memory(largest: Path, small: Path) -> None:
    print(f"\nPeak memory on {largest.name} ({largest.stat().st_size / 1e6:.2f} MB, {page_count(largest)} pages),"
          " peak resident set above the one after imports, fresh process each:")
    print("| contender | peak MB |")
    print("|---|---:|")
    for name in CONTENDERS:
        code = _MEMORY.format(bench=str(Path(__file__).parent), name=name, path=str(largest), small=str(small))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        print(f"| {name} | {json.loads(out.splitlines()[-1])['peak'] / 1e6:.1f} |")


def quality(out: Path) -> None:
    """The text each tool gives of a two-column page, a page of a manual with a running head,
    hyphenation and headings, and two tables, side by side."""
    from langchain_community.document_loaders import PyPDFLoader
    from llama_index.core import SimpleDirectoryReader

    import chunkwise

    cases = [
        (CORPUS / "generated" / "two_columns_row_by_row.pdf", 1, "two columns that the file writes row by row (generated)"),
        (CORPUS / "R-FAQ.pdf", 7, "R FAQ page 7 (running head, hyphenated words, numbered headings)"),
        (CORPUS / "R-FAQ.pdf", 10, "R FAQ page 10 (a table without rules)"),
        (CORPUS / "generated" / "table_across_pages.pdf", 1, "a table with rules across a page break (generated)"),
    ]
    lines = [
        "# PDF text: chunkwise, LangChain's PyPDFLoader, LlamaIndex's SimpleDirectoryReader",
        "",
        "Written by `benchmarks/bench_pdf.py --quality`: the first 900 characters of one page as",
        "each tool extracts it, before chunking (the R FAQ table: from its first row).",
        "",
    ]
    for path, page, title in cases:
        doc = chunkwise.load(path)
        _, s, e = doc.pages[page - 1]
        ours = doc.text[s:e]
        lc = PyPDFLoader(str(path)).load()[page - 1].page_content
        li = SimpleDirectoryReader(input_files=[str(path)]).load_data(show_progress=False)[page - 1].text
        if "table without rules" in title:
            ours, lc, li = (t[t.rfind("\n", 0, max(t.find("CPU"), 0)) + 1 :] for t in (ours, lc, li))
        lines += [f"## {title}", ""]
        for name, text in (("chunkwise", ours), ("LangChain PyPDFLoader (pypdf)", lc), ("LlamaIndex (pypdf)", li)):
            lines += [f"### {name}", "", "```text", text[:900].rstrip(), "```", ""]
    out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {out}")


def libraries(files: list[Path], rounds: int) -> None:
    """The text of every page with each library alone (the choice of pypdfium2)."""
    import pdfplumber
    import pypdf
    import pypdfium2

    def fium(p: Path) -> int:
        doc = pypdfium2.PdfDocument(str(p))
        n = sum(len(doc[i].get_textpage().get_text_range()) for i in range(len(doc)))
        doc.close()
        return n

    def ppdf(p: Path) -> int:
        return sum(len(pg.extract_text()) for pg in pypdf.PdfReader(str(p)).pages)

    def plumb(p: Path) -> int:
        with pdfplumber.open(str(p)) as d:
            return sum(len(pg.extract_text() or "") for pg in d.pages)

    libs = {"pypdfium2": fium, "pypdf": ppdf, "pdfplumber": plumb}
    print("| file | pages | " + " | ".join(f"{n} s" for n in libs) + " |")
    print("|---|---:|" + "---:|" * len(libs))
    for p in files:
        row = []
        for fn in libs.values():
            best = float("inf")
            for _ in range(rounds):
                t = time.perf_counter()
                fn(p)
                best = min(best, time.perf_counter() - t)
            row.append(f"{best:.3f}")
        print(f"| {p.name} | {page_count(p)} | " + " | ".join(row) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", nargs="*", type=Path, default=None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quality", type=Path, default=None, help="write the side-by-side text to this file")
    ap.add_argument("--libraries", action="store_true", help="compare the PDF libraries alone")
    ap.add_argument("--no-memory", action="store_true")
    args = ap.parse_args()
    files = args.files or sorted(CORPUS.glob("*.pdf"))
    if args.libraries:
        libraries(files, args.rounds)
        return
    speed(files, args.rounds)
    if not args.no_memory:
        largest = max(files, key=lambda p: p.stat().st_size)
        memory(largest, min(files, key=lambda p: p.stat().st_size))
    if args.quality:
        quality(args.quality)


if __name__ == "__main__":
    main()
