"""Search for the recommended configuration: small chunks, expansions, hierarchies, clusters.

Every configuration is scored on the 276 questions of ``data/chroma_eval`` with all five
corpora indexed, twice with the same vectors (the embedding cache makes the second pass
free): at an equal budget of about 1000 cl100k tokens and at k=5, as in
``benchmarks/eval_defaults.py``. A configuration is a named entry of :data:`GRID`: a
strategy with its parameters and the expansion returned for the matched chunks (see
``chunkwise.evaluation.expand``). Results are appended to the JSON output as each
configuration finishes; configurations already in it are skipped (``--redo`` to re-run).

Usage (the figures of EVALUATION.md, "The recommended configuration: grid")::

    nice python benchmarks/eval_recommended.py --model minilm --threads 1 \\
        --configs recursive/64,recursive/96,hier/512,64/merged -o eval-recommended.json
    python benchmarks/eval_recommended.py --list      # the names of the grid
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
from eval_defaults import row_line, scores_of  # the script's folder: the row of eval_defaults.py

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "chroma_eval"

T = {"unit": "tokens"}


def _grid() -> dict[str, tuple[str, dict[str, Any], str]]:
    """label -> (strategy, parameters, expansion)."""
    g: dict[str, tuple[str, dict[str, Any], str]] = {}
    for n in (48, 64, 80, 96, 128):
        g[f"recursive/{n}"] = ("recursive", {"chunk_size": n, **T}, "none")
    for n, o in ((128, 32), (96, 32), (64, 16), (128, 64)):
        g[f"recursive/{n}/{o}"] = ("recursive", {"chunk_size": n, "chunk_overlap": o, **T}, "none")
    for sizes in ((512, 64), (256, 64), (512, 128), (256, 128), (512, 128, 64), (384, 96), (256, 96), (192, 64)):
        name = ",".join(map(str, sizes))
        for exp in ("merged", "parent"):
            g[f"hier/{name}/{exp}"] = ("hierarchical", {"chunk_sizes": list(sizes), **T}, exp)
    for per in (1, 2, 3):
        for w in (1, 2, 3):
            g[f"sentence/{per}/w{w}/window"] = (
                "sentence",
                {"chunk_size": 256, "sentences_per_chunk": per, "window_sentences": w, **T},
                "window",
            )
    for n in (64, 96, 128, 200):
        g[f"sentence/{n}"] = ("sentence", {"chunk_size": n, **T}, "none")
    for n in (64, 80, 96, 112, 128, 160, 200):
        g[f"wikitext/{n}"] = ("wikitext", {"chunk_size": n, **T}, "none")
    for n, o in ((128, 32), (96, 24)):
        g[f"wikitext/{n}/{o}"] = ("wikitext", {"chunk_size": n, "chunk_overlap": o, **T}, "none")
    for sizes in ((512, 128), (256, 64)):
        name = ",".join(map(str, sizes))
        g[f"hier-wikitext/{name}/merged"] = (
            "hierarchical", {"chunk_sizes": list(sizes), "base": "wikitext", **T}, "merged"
        )
    for model in ("wordllama", "minilm"):
        for n in (64, 96, 128, 200):
            g[f"cluster/{n}/{model}"] = ("semantic_cluster", {"chunk_size": n, "model": model, **T}, "none")
    return g


GRID = _grid()
GRID["chroma-cluster/200"] = ("chroma-cluster", {"max_chunk_size": 200, "min_chunk_size": 50}, "none")


class ChromaCluster:
    """Chroma's ClusterSemanticChunker (``bench_recommended.ClusterSemanticChunker``, a
    faithful reimplementation) as a chunkwise chunker: a cluster of 50-token pieces is the
    span from its first piece's start to its last piece's end (the pieces are located by
    LangChain's ``add_start_index``; Chroma joins them with spaces and re-finds them)."""

    def __init__(self, embedder: Any, max_chunk_size: int, min_chunk_size: int) -> None:
        from bench_recommended import ClusterSemanticChunker

        self.inner = ClusterSemanticChunker(embedder.embed, max_chunk_size, min_chunk_size)
        self.inner.splitter._add_start_index = True  # the same pieces, with their offsets
        self.name, self.chunk_size, self.chunk_overlap = "chroma-cluster", max_chunk_size, 0

    def chunk(self, document: Any) -> list[Any]:
        from chunkwise.types import Chunk

        pieces = self.inner.splitter.create_documents([document.text], metadatas=[{}])
        spans = []
        for d in pieces:
            start = d.metadata["start_index"]
            assert document.text[start : start + len(d.page_content)] == d.page_content
            spans.append((start, start + len(d.page_content)))
        texts = [d.page_content for d in pieces]
        if len(texts) < 2:
            groups = [(0, len(texts) - 1)] if texts else []
        else:
            groups = self.inner._optimal_segmentation(self.inner._similarity(texts), self.inner.max_cluster)
        out = []
        for i, (a, b) in enumerate(groups):
            s, e = spans[a][0], spans[b][1]
            out.append(Chunk(document.text[s:e], s, e, index=i, document_id=document.id))
        return out


def print_table(rows: list[dict[str, Any]]) -> None:
    """The rows as EVALUATION.md's table (percentages)."""
    print(
        "| configuration | expand | chunks | k (budget) | recall at 1000 tokens | 95% CI | IoU at budget | tokens "
        "| recall at k=5 | IoU at k=5 | tokens at k=5 |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        b, f = r["budget"], r["k5"]
        lo, hi = b["recall_ci"]
        print(
            f"| {r['config']} | {r['expand']} | {r['chunks']} | {b['k']:g} | {100 * b['recall']:.1f} | "
            f"{100 * lo:.1f}–{100 * hi:.1f} | {100 * b['iou']:.2f} | {b['tokens']:.0f} | {100 * f['recall']:.1f} | "
            f"{100 * f['iou']:.2f} | {f['tokens']:.0f} |"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="minilm")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads of the MiniLM forward pass")
    ap.add_argument("--configs", default="recursive/64", help="labels of GRID, separated by ';' or ' '")
    ap.add_argument("--budget-tokens", type=int, default=1000)
    ap.add_argument("--budget-per-question", action="store_true")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--list", action="store_true", help="print the grid's labels and exit")
    ap.add_argument("--redo", action="store_true")
    ap.add_argument("--table", action="store_true", help="print the output's rows as a Markdown table and exit")
    ap.add_argument("-o", "--output", type=Path, default=Path("eval-recommended.json"))
    args = ap.parse_args(argv)
    if args.list:
        for label, (s, p, e) in GRID.items():
            print(f"{label:32s} {s} {p} expand={e}")
        return 0
    if args.table:
        print_table(json.loads(args.output.read_text())["rows"])
        return 0
    labels = [x for x in args.configs.replace(";", " ").split() if x]
    unknown = [x for x in labels if x not in GRID]
    if unknown:
        ap.error(f"unknown configurations {unknown}; see --list")

    docs = load_corpus(DATA / "corpora")
    questions = check_questions(load_questions(DATA / "questions.csv"), docs)
    if args.cache is None:
        from chunkwise.commands.eval import default_cache_path

        args.cache = default_cache_path()
    cache = EmbeddingCache(args.cache)
    kw = {"threads": args.threads} if args.model == "minilm" else {}
    embedder: Any = CachedEmbedder(get_embedder(args.model, **kw), cache)
    qvec = embedder.embed([q.text for q in questions])
    done: dict[str, Any] = {}
    if args.output.is_file():
        done = {r["config"]: r for r in json.loads(args.output.read_text())["rows"]}
    for label in labels:
        if label in done and not args.redo:
            print(f"{label}: already in {args.output}", flush=True)
            continue
        strategy, params, expand = GRID[label]
        params = dict(params)
        if strategy == "semantic_cluster":
            m = params["model"]
            params["model"] = get_embedder(m, threads=args.threads) if m == "minilm" else m
            params["cache"] = cache
        if strategy == "chroma-cluster":
            splitter_embedder = CachedEmbedder(get_embedder(args.model, **kw), cache)
            chunker: Any = ChromaCluster(splitter_embedder, params["max_chunk_size"], params["min_chunk_size"])
        else:
            chunker = chunkwise.make_chunker(strategy, **params)
        t0 = time.perf_counter()
        calls0 = embedder.calls
        row: dict[str, Any] = {"config": label, "strategy": strategy, "expand": expand,
                               "params": {k: v for k, v in GRID[label][1].items()}}
        for mode, extra in (("budget", {"budget_tokens": args.budget_tokens,
                                         "budget_per_question": args.budget_per_question}), ("k5", {})):
            res = evaluate(docs, questions, chunker, embedder, k=args.k, label=label, query_vectors=qvec,
                           expand=expand, **extra)
            row["chunks"] = res.n_chunks
            row[mode] = scores_of(res)
            row[mode + "_per_question"] = [round(s.recall, 4) for s in res.scores]
        row["seconds"] = round(time.perf_counter() - t0, 1)
        row["embedded"] = embedder.calls - calls0  # texts not found in the cache
        done[label] = row
        print(row_line(label, row, f", {row['embedded']} embedded"), flush=True)
        args.output.write_text(json.dumps({"model": embedder.name, "documents": [d.id for d in docs],
                                           "questions": len(questions), "rows": list(done.values())}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
