"""Loading office documents and e-books: chunkwise's loaders against the readers of
LlamaIndex (``llama-index-readers-file``) and LangChain (``langchain-community``) on the real
files of ``tests/corpus/office`` (see its SOURCES.md).

Per format and loader: seconds to load every file of the format (best of ``--repeat``), the
ratio to chunkwise in the same run, what the text keeps for a chunker (ATX heading lines,
pipe tables, a page map) and the files it failed on. Peers whose library is missing are
reported as such. LlamaIndex's ``DocxReader`` and LangChain's ``Docx2txtLoader`` read DOCX
with docx2txt; LlamaIndex's ``EpubReader`` uses ebooklib and html2text, its
``PandasExcelReader`` pandas and openpyxl.

``--generated`` adds DOCX files larger than the corpus's: the text of the real PDF manuals
of ``tests/corpus/pdf`` as chunkwise reads it (headings, paragraphs, lists, pipe tables),
written by python-docx as Word headings, paragraphs, list paragraphs and tables, into a
temporary folder.

Usage: ``python benchmarks/bench_office.py [--repeat 5] [--generated] [--formats docx]``.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "office"
FORMATS = {"docx": ".docx", "pptx": ".pptx", "xlsx": ".xlsx", "epub": ".epub"}


def _chunkwise(path: Path) -> tuple[str, int]:
    import chunkwise

    doc = chunkwise.load(path)
    return doc.text, len(doc.pages)


def _llama(reader: str) -> Callable[[Path], tuple[str, int]]:
    def load(path: Path) -> tuple[str, int]:
        from llama_index.readers import file as readers

        docs = getattr(readers, reader)().load_data(path)
        return "\n\n".join(d.text for d in docs), 0

    return load


def _langchain_docx(path: Path) -> tuple[str, int]:
    from langchain_community.document_loaders import Docx2txtLoader

    return "\n\n".join(d.page_content for d in Docx2txtLoader(str(path)).load()), 0


PEERS: dict[str, dict[str, Callable[[Path], tuple[str, int]]]] = {
    "docx": {"chunkwise": _chunkwise, "llamaindex DocxReader": _llama("DocxReader"),
             "langchain Docx2txtLoader": _langchain_docx},
    "pptx": {"chunkwise": _chunkwise, "llamaindex PptxReader": _llama("PptxReader")},
    "xlsx": {"chunkwise": _chunkwise, "llamaindex PandasExcelReader": _llama("PandasExcelReader")},
    "epub": {"chunkwise": _chunkwise, "llamaindex EpubReader": _llama("EpubReader")},
}


def generated_docx(folder: Path) -> list[Path]:
    """DOCX files written by python-docx from the real PDF manuals' text (see the module)."""
    import docx

    import chunkwise

    out = []
    for pdf in sorted((ROOT / "tests" / "corpus" / "pdf").glob("*.pdf")):
        d = docx.Document()
        table: list[list[str]] = []

        def flush() -> None:
            if len(table) > 1:
                t = d.add_table(rows=0, cols=max(len(r) for r in table))
                for row in table:
                    cells = t.add_row().cells
                    for cell, value in zip(cells, row):
                        cell.text = value
            table.clear()

        text = re.sub(r"[\x00-\x08\x0b-\x1f]", "", chunkwise.load(pdf).text)  # not allowed in XML
        for block in text.split("\n\n"):
            lines = block.splitlines()
            if lines and all(x.startswith("|") for x in lines):
                table.extend([c.strip() for c in x.strip("|").split(" | ")] for x in lines if not x.startswith("|-"))
                continue
            flush()
            m = re.match(r"(#{1,6}) (.*)", block)
            if m and len(lines) == 1:
                d.add_heading(m.group(2), min(len(m.group(1)), 9))
            elif lines and all(re.match(r"[-*] ", x) for x in lines):
                for x in lines:
                    d.add_paragraph(x[2:], style="List Bullet")
            else:
                d.add_paragraph(" ".join(lines))
        flush()
        path = folder / (pdf.stem + ".docx")
        d.save(str(path))
        out.append(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--generated", action="store_true", help="add DOCX files written from the PDF manuals' text")
    ap.add_argument("--formats", nargs="*", default=list(FORMATS), choices=list(FORMATS))
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    tmp = tempfile.TemporaryDirectory()
    extra = {"docx": generated_docx(Path(tmp.name))} if args.generated else {}
    print("| format (files, MB) | loader | seconds | x chunkwise | chars | headings | pipe tables | pages | failed |")
    print("|---|---|---|---|---|---|---|---|---|")
    sets = [(fmt, sorted(CORPUS.glob("*" + FORMATS[fmt]))) for fmt in args.formats]
    sets += [(fmt + " generated", files) for fmt, files in extra.items()]
    for label, files in sets:
        fmt = label.split()[0]
        mb = sum(f.stat().st_size for f in files) / 1e6
        base = None
        for name, load in PEERS[fmt].items():
            best, texts, pages, failed = float("inf"), [], 0, []
            try:
                for _ in range(args.repeat):
                    texts, pages, failed = [], 0, []
                    t = time.perf_counter()
                    for f in files:
                        try:
                            text, n = load(f)
                        except ImportError:
                            raise
                        except Exception as exc:  # noqa: BLE001 - a peer's failure is a result
                            failed.append(f"{f.name} ({type(exc).__name__})")
                            continue
                        texts.append(text)
                        pages += n
                    best = min(best, time.perf_counter() - t)
            except ImportError as exc:
                print(f"| {label} | {name} | not installed ({exc.name}) | | | | | | |")
                continue
            base = best if name == "chunkwise" else base
            joined = "\n".join(texts)
            heads = len(re.findall(r"(?m)^#{1,6} ", joined))
            tables = len(re.findall(r"(?m)^\|(?:-+\|)+$", joined))
            ratio = f"{best / base:.2f}" if base else ""
            print(
                f"| {label} ({len(files)}, {mb:.2f}) | {name} | {best:.3f} | {ratio} | {len(joined):,} | {heads} "
                f"| {tables} | {pages} | {', '.join(failed) or '-'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
