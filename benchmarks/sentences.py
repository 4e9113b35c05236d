"""Sentence segmentation: chunkwise's rules against pysbd and blingfire, on speed and accuracy.

Usage (from the repository root, after ``bash benchmarks/setup.sh``)::

    .venv/bin/python benchmarks/sentences.py            # golden cases + speed
    .venv/bin/python benchmarks/sentences.py --golden   # golden cases only, with every miss

Accuracy: a golden set of tricky cases written for this benchmark (abbreviations, decimals,
numbered lists, URLs, e-mail addresses, ellipses, quotes and brackets after a terminator,
CJK terminators, lower-case text). A case passes when the segmenter returns exactly the
expected sentences (compared with surrounding whitespace stripped). Speed: megabytes per
second over the five Chroma evaluation corpora, as whole documents and as paragraphs
(pysbd is run on paragraphs only by default: it is slow on long documents).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "data" / "chroma_eval" / "corpora"

# (what it tests, text, expected sentences)
GOLDEN: list[tuple[str, str, list[str]]] = [
    ("title Dr.", "Dr. Smith went home. He slept.", ["Dr. Smith went home.", "He slept."]),
    (
        "titles Mr./Mrs., p.m. mid-sentence",
        "Mr. and Mrs. Jones arrived at 5 p.m. on Friday. They left early.",
        ["Mr. and Mrs. Jones arrived at 5 p.m. on Friday.", "They left early."],
    ),
    (
        "a.m. at sentence end",
        "They met at 10 a.m. The meeting ran long.",
        ["They met at 10 a.m.", "The meeting ran long."],
    ),
    (
        "decimal dose",
        "Take 2.5 mg twice daily. Do not exceed 10 mg.",
        ["Take 2.5 mg twice daily.", "Do not exceed 10 mg."],
    ),
    ("U.S. mid-sentence", "The U.S. economy grew. Exports rose.", ["The U.S. economy grew.", "Exports rose."]),
    ("U.S. at sentence end", "He moved to the U.S. He liked it.", ["He moved to the U.S.", "He liked it."]),
    ("e.g.", "Use fruit, e.g. apples or pears. Then stop.", ["Use fruit, e.g. apples or pears.", "Then stop."]),
    ("i.e.", "Some fruits, i.e. apples, are sweet. Eat them.", ["Some fruits, i.e. apples, are sweet.", "Eat them."]),
    (
        "Fig. with number",
        "See Fig. 3 for details. The trend is clear.",
        ["See Fig. 3 for details.", "The trend is clear."],
    ),
    (
        "URL with dots",
        "Visit https://example.com/a.b?c=d for more. Then log in.",
        ["Visit https://example.com/a.b?c=d for more.", "Then log in."],
    ),
    (
        "URL before terminator",
        "The site is www.example.org. It is free.",
        ["The site is www.example.org.", "It is free."],
    ),
    (
        "e-mail address",
        "Email john.doe@example.com for help. We reply fast.",
        ["Email john.doe@example.com for help.", "We reply fast."],
    ),
    ("ellipsis mid-sentence", "Wait... what happened? Nobody knows.", ["Wait... what happened?", "Nobody knows."]),
    ("ellipsis at sentence end", "He paused... Then he spoke.", ["He paused...", "Then he spoke."]),
    (
        "unicode ellipsis mid-sentence",
        "The symbol … is one character. Next one.",
        ["The symbol … is one character.", "Next one."],
    ),
    ("quote then lower-case", '"Stop!" she said. He stopped.', ['"Stop!" she said.', "He stopped."]),
    ("closing quote after terminator", 'He said "Go home." Then he left.', ['He said "Go home."', "Then he left."]),
    ("single quote after terminator", "He said, 'I am done.' She nodded.", ["He said, 'I am done.'", "She nodded."]),
    ("curly quote after terminator", "She wrote “It works.” We agreed.", ["She wrote “It works.”", "We agreed."]),
    (
        "bracket after terminator",
        "(This is in brackets.) The next one is not.",
        ["(This is in brackets.)", "The next one is not."],
    ),
    ("?! and runs", "Is it true?! Yes it is. What?? No way!!", ["Is it true?!", "Yes it is.", "What??", "No way!!"]),
    (
        "numbered list without periods",
        "1. First item\n2. Second item\n3. Third item",
        ["1. First item", "2. Second item", "3. Third item"],
    ),
    (
        "numbered list after a heading",
        "Steps:\n1. Open the box.\n2. Take the book.",
        ["Steps:", "1. Open the box.", "2. Take the book."],
    ),
    ("bulleted list", "Buy:\n- apples\n- pears\n- plums", ["Buy:", "- apples", "- pears", "- plums"]),
    ("Chinese terminators", "今天天气很好。我们去公园吧！你来吗？", ["今天天气很好。", "我们去公园吧！", "你来吗？"]),
    ("Japanese terminators", "東京に行きました。楽しかったです。", ["東京に行きました。", "楽しかったです。"]),
    ("CJK then English", "中文句子。English follows. Done.", ["中文句子。", "English follows.", "Done."]),
    ("CJK closing quote", "他说：“你好。”然后走了。", ["他说：“你好。”", "然后走了。"]),
    ("initials", "J. K. Rowling wrote books. They sold well.", ["J. K. Rowling wrote books.", "They sold well."]),
    ("percent decimal", "The price rose 3.5% in Q1. It fell in Q2.", ["The price rose 3.5% in Q1.", "It fell in Q2."]),
    (
        "version number",
        "Version 3.11.2 was released. It fixed bugs.",
        ["Version 3.11.2 was released.", "It fixed bugs."],
    ),
    ("money", "It costs $4.99. That is cheap.", ["It costs $4.99.", "That is cheap."]),
    (
        "year at sentence end",
        "She was born in 1990. In 2010 she moved.",
        ["She was born in 1990.", "In 2010 she moved."],
    ),
    (
        "section number at end",
        "See section 4.2. It explains the rules.",
        ["See section 4.2.", "It explains the rules."],
    ),
    (
        "Inc. mid-sentence",
        "Apple Inc. reported earnings. Shares rose.",
        ["Apple Inc. reported earnings.", "Shares rose."],
    ),
    ("Inc. at sentence end", "I work for Acme Inc. It is great.", ["I work for Acme Inc.", "It is great."]),
    ("St. and city", "St. Louis is in Missouri. It is big.", ["St. Louis is in Missouri.", "It is big."]),
    (
        "Prof./vs./Dr.",
        "Prof. Lee vs. Dr. Kim: the debate ended. Lee won.",
        ["Prof. Lee vs. Dr. Kim: the debate ended.", "Lee won."],
    ),
    ("No. 5", "No. 5 was the winner. No one expected it.", ["No. 5 was the winner.", "No one expected it."]),
    (
        "file name with dots",
        "The file report.final.pdf is big. Open it.",
        ["The file report.final.pdf is big.", "Open it."],
    ),
    ("phone number with dots", "Call 555.123.4567 tomorrow. Thanks.", ["Call 555.123.4567 tomorrow.", "Thanks."]),
    (
        "blank line without terminator",
        "Paragraph one ends here\n\nParagraph two starts here.",
        ["Paragraph one ends here", "Paragraph two starts here."],
    ),
    (
        "parenthetical years",
        "Einstein (1879-1955) was a physicist. He won prizes.",
        ["Einstein (1879-1955) was a physicist.", "He won prizes."],
    ),
    ("Ph.D. mid-sentence", "He has a Ph.D. in physics. She does not.", ["He has a Ph.D. in physics.", "She does not."]),
    (
        "D.C. at sentence end",
        "I was born in Washington, D.C. I moved later.",
        ["I was born in Washington, D.C.", "I moved later."],
    ),
    (
        "U.K./U.S.A. mid-sentence",
        "The U.K. and the U.S.A. signed. It was historic.",
        ["The U.K. and the U.S.A. signed.", "It was historic."],
    ),
    ("St. at sentence end", "He lives on Main St. He is nice.", ["He lives on Main St.", "He is nice."]),
    (
        "Jan. with day",
        "He arrived on Jan. 5 and left. Nobody saw him.",
        ["He arrived on Jan. 5 and left.", "Nobody saw him."],
    ),
    (
        "etc. at sentence end",
        "I bought apples, pears, etc. Then I left.",
        ["I bought apples, pears, etc.", "Then I left."],
    ),
    (
        "p-value in brackets",
        "Results were significant (p < 0.05). Further work is needed.",
        ["Results were significant (p < 0.05).", "Further work is needed."],
    ),
    (
        "dialogue with curly quotes",
        "“Where?” asked Tom. “Here,” said Ann.",
        ["“Where?” asked Tom.", "“Here,” said Ann."],
    ),
    ("Sen./Gov. titles", "Sen. Warren spoke. Gov. Newsom replied.", ["Sen. Warren spoke.", "Gov. Newsom replied."]),
    (
        "e-mail before terminator",
        "Her address is a.b@c.co.uk. Write to her.",
        ["Her address is a.b@c.co.uk.", "Write to her."],
    ),
    (
        "heading line without terminator",
        "# Title\nSome text here. More text.",
        ["# Title", "Some text here.", "More text."],
    ),
    ("line break after terminator", "Hello world!\nNext line starts here.", ["Hello world!", "Next line starts here."]),
    (
        "lower-case text (finance corpus style)",
        "revenue rose 5% in 2017. the company paid $3 million. debt fell.",
        ["revenue rose 5% in 2017.", "the company paid $3 million.", "debt fell."],
    ),
]


def _strip_all(sents: list[str]) -> list[str]:
    return [s.strip() for s in sents if s.strip()]


def segmenters() -> dict[str, Callable[[str], list[str]]]:
    import blingfire
    import pysbd

    import chunkwise

    seg = pysbd.Segmenter(language="en", clean=False)

    def cw(text: str) -> list[str]:
        return [text[a:b] for a, b in chunkwise.split_sentences(text)]

    def bf(text: str) -> list[str]:
        _, offsets = blingfire.text_to_sentences_and_offsets(text)
        return [text[a:b] for a, b in offsets]

    return {"chunkwise split_sentences": cw, "pysbd 0.3": seg.segment, "blingfire": bf}


def golden(verbose: bool) -> dict[str, list[str]]:
    """Run the golden set; returns the failed case names per segmenter."""
    segs = segmenters()
    failed: dict[str, list[str]] = {n: [] for n in segs}
    for name, fn in segs.items():
        for what, text, expected in GOLDEN:
            got = _strip_all(fn(text))
            if got != expected:
                failed[name].append(what)
                if verbose:
                    print(
                        f"  MISS {name:26s} [{what}]\n       input:    {text!r}\n"
                        f"       expected: {expected!r}\n       got:      {got!r}"
                    )
    print("\n| segmenter | golden cases passed | failed cases |\n|---|---|---|")
    for name in segs:
        print(f"| {name} | {len(GOLDEN) - len(failed[name])}/{len(GOLDEN)} | {'; '.join(failed[name]) or '-'} |")
    return failed


def speed(reps: int, pysbd_whole: bool) -> None:
    docs = [p.read_text(encoding="utf-8") for p in sorted(CORPORA.glob("*.md"))]
    paras = [p for d in docs for p in d.split("\n\n") if p.strip()]
    mb = sum(len(d.encode()) for d in docs) / 1e6
    segs = segmenters()
    rows = []
    for label, units in (("whole documents", docs), ("paragraphs", paras)):
        names = [n for n in segs if not (n.startswith("pysbd") and label == "whole documents" and not pysbd_whole)]
        times: dict[str, list[float]] = {n: [] for n in names}
        counts: dict[str, int] = {}
        for r in range(reps):
            order = names[r % len(names) :] + names[: r % len(names)]
            for n in order:
                if n.startswith("pysbd") and r > 0:
                    continue  # one pass is enough (it takes minutes)
                fn = segs[n]
                t0 = time.perf_counter()
                total = sum(len(fn(u)) for u in units)
                times[n].append(time.perf_counter() - t0)
                counts[n] = total
        for n in names:
            rows.append((label, n, mb / min(times[n]), mb / statistics.median(times[n]), counts[n]))
            print(f"  {label:16s} {n:26s} {rows[-1][2]:8.2f} MB/s  sentences={counts[n]}", file=sys.stderr, flush=True)
    print(f"\nSpeed over the five Chroma corpora ({mb:.2f} MB), best of {reps} (pysbd: one pass)\n")
    print("| input | segmenter | MB/s best | MB/s median | sentences |\n|---|---|---|---|---|")
    for label, n, best, med, cnt in rows:
        print(f"| {label} | {n} | {best:.2f} | {med:.2f} | {cnt} |")
    # sentences found per corpus (paragraph input): where the segmenters disagree
    names = sorted(p.stem for p in CORPORA.glob("*.md"))
    print("\nSentences found per corpus (paragraphs as input)\n")
    print("| segmenter | " + " | ".join(names) + " |\n|---|" + "---|" * len(names))
    for n, fn in segs.items():
        cells = []
        for d in docs:
            cells.append(str(sum(len(fn(p)) for p in d.split("\n\n") if p.strip())))
        print(f"| {n} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--golden", action="store_true", help="golden cases only")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pysbd-whole", action="store_true", help="also run pysbd on whole documents (slow)")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not print each missed case")
    args = ap.parse_args()
    golden(verbose=not args.quiet)
    if not args.golden:
        speed(args.reps, args.pysbd_whole)


if __name__ == "__main__":
    main()
