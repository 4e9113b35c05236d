"""Choose the default chunking by retrieval: a small grid against LangChain's recursive splitter.

Every configuration is scored twice with the same vectors (the embedding cache makes the
second pass free): at an equal budget of about 1000 cl100k tokens (k per configuration)
and at k=5. LangChain's ``RecursiveCharacterTextSplitter`` (``langchain-text-splitters``,
bench extra) runs at 200 cl100k tokens, sizes counted by chunkwise's cl100k tokenizer, its
chunks located in the text by LangChain's own ``add_start_index``.

Usage (the figures of EVALUATION.md, "Defaults chosen by measurement")::

    python benchmarks/eval_defaults.py --model minilm --strategies auto --sizes 64,96,128   # the defaults (auto/96)
    python benchmarks/eval_defaults.py --model minilm --sizes 128,160,200,256 \\
        --strategies auto,markdown,recursive,sentence -o eval-defaults.json

Add ``--only-referenced`` to index only the three corpora that have questions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import chunkwise
from chunkwise.embeddings import CachedEmbedder, EmbeddingCache, get_embedder
from chunkwise.evaluation import check_questions, evaluate, load_corpus, load_questions
from chunkwise.evaluation.metrics import bootstrap_ci
from chunkwise.sizers import get_sizer
from chunkwise.types import Chunk, Document

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "chroma_eval"


class LangChainRecursive:
    """LangChain's recursive splitter as a chunkwise chunker (``chunk(document) -> chunks``)."""

    def __init__(self, chunk_size: int, chunk_overlap: int = 0) -> None:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        sizer = get_sizer("tokens", "cl100k_base")
        self.label = f"langchain-recursive/{chunk_size}/{chunk_overlap}"
        self.splitter = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap, length_function=sizer.count, add_start_index=True
        )

    def chunk(self, document: Document) -> list[Chunk]:
        out = []
        for i, d in enumerate(self.splitter.create_documents([document.text])):
            start = d.metadata["start_index"]
            end = start + len(d.page_content)
            assert document.text[start:end] == d.page_content
            out.append(Chunk(d.page_content, start, end, index=i, document_id=document.id))
        return out


def scores_of(result: Any) -> dict[str, Any]:
    """One mode of a row of the output (``budget`` or ``k5``): the mean k, recall with its
    95% bootstrap interval over questions, precision, IoU (with multiplicity, and counted
    once: ``iou_union``), tokens retrieved per question and MRR, of an
    :class:`~chunkwise.evaluation.EvalResult`. Shared with ``eval_recommended.py``."""
    m = result.means
    lo, hi = bootstrap_ci([s.recall for s in result.scores])
    return {
        "k": round(m["k"], 2),
        "recall": m["recall"],
        "recall_ci": [lo, hi],
        "precision": m["precision"],
        "iou": m["iou"],
        "iou_union": m.get("iou_union"),
        "tokens": m["tokens"],
        "mrr": m.get("mrr"),
    }


def row_line(label: str, row: dict[str, Any], extra: str = "") -> str:
    """The progress line of a finished row: chunks, then recall (with its interval), IoU and
    tokens at the budget and at k=5, and the seconds (``extra`` after them)."""
    b, f = row["budget"], row["k5"]
    return (
        f"{label:28s} chunks {row['chunks']:5d} | budget k={b['k']:<5} recall {100 * b['recall']:.1f} "
        f"[{100 * b['recall_ci'][0]:.1f}, {100 * b['recall_ci'][1]:.1f}] IoU {100 * b['iou']:.2f} "
        f"tok {b['tokens']:.0f} | k=5 recall {100 * f['recall']:.1f} IoU {100 * f['iou']:.2f} "
        f"tok {f['tokens']:.0f} | {row['seconds']} s{extra}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="minilm")
    ap.add_argument("--strategies", default="auto,markdown,recursive,sentence")
    ap.add_argument("--sizes", default="64,96,128,160,200")
    ap.add_argument("--langchain", default="200", help="LangChain sizes, comma-separated ('' for none)")
    ap.add_argument("--budget-tokens", type=int, default=1000)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--only-referenced", action="store_true")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("-o", "--output", type=Path, default=Path("eval-defaults.json"))
    args = ap.parse_args(argv)

    docs = load_corpus(DATA / "corpora")
    questions = check_questions(load_questions(DATA / "questions.csv"), docs)
    if args.only_referenced:
        wanted = {d for q in questions for d, _, _ in q.references}
        docs = [d for d in docs if d.id in wanted]
    embedder: Any = get_embedder(args.model)
    if args.cache is not None:
        embedder = CachedEmbedder(embedder, EmbeddingCache(args.cache))
    else:
        from chunkwise.commands.eval import default_cache_path

        embedder = CachedEmbedder(embedder, EmbeddingCache(default_cache_path()))
    chunkers: list[tuple[str, Any]] = []
    for n in [int(x) for x in args.langchain.split(",") if x.strip()]:
        lc = LangChainRecursive(n)
        chunkers.append((lc.label, lc))
    for s in args.strategies.split(","):
        for n in [int(x) for x in args.sizes.split(",")]:
            chunkers.append((f"{s}/{n}/0", chunkwise.make_chunker(s, chunk_size=n, unit="tokens")))
    rows = []
    qvec = None
    for label, chunker in chunkers:
        t0 = time.perf_counter()
        row: dict[str, Any] = {"config": label}
        for mode, kw in (("budget", {"budget_tokens": args.budget_tokens}), ("k5", {})):
            res = evaluate(docs, questions, chunker, embedder, k=args.k, label=label, query_vectors=qvec, **kw)
            if qvec is None:
                qvec = embedder.embed([q.text for q in questions])
            row["chunks"] = res.n_chunks
            row[mode] = scores_of(res)
        row["seconds"] = round(time.perf_counter() - t0, 1)
        rows.append(row)
        print(row_line(label, row), flush=True)
        args.output.write_text(json.dumps({"model": embedder.name, "documents": [d.id for d in docs],
                                           "questions": len(questions), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
