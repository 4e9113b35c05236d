"""Word segmenters for scripts written without spaces, that install offline from PyPI:
coverage of six scripts, agreement with a reference segmentation, speed, installed size.

Usage (from the repository root)::

    .venv/bin/python -m pip install icu4py budoux pythainlp uniseg
    .venv/bin/python benchmarks/bench_words.py

Coverage: a sentence in each of Thai, Lao, Khmer, Burmese, Japanese and Chinese (written for
this benchmark) is covered when the segmenter divides it into more than one word and never
inside a grapheme cluster. Agreement: the Thai and Japanese word lists below
(also in ``tests/test_scripts.py``; a reader's division into words), as the share of their word
boundaries the segmenter also finds (recall) and the share of its boundaries that are
word boundaries there (precision). Speed: the Thai sentence repeated to 100,000 characters,
best of 3. Size: the files the distribution installed (its dependencies not counted).
Segmenters not installed are skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import metadata
from itertools import accumulate

SAMPLES = {
    "th": "ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอนหรือวรรณยุกต์เช่นเดียวกับภาษาจีน",
    "lo": "ພາສາລາວເປັນພາສາທາງການຂອງສາທາລະນະລັດປະຊາທິປະໄຕປະຊາຊົນລາວ",
    "km": "ភាសាខ្មែរគឺជាភាសាកំណើតរបស់ជនជាតិខ្មែរនិងជាភាសាផ្លូវការរបស់ប្រទេសកម្ពុជា",
    "my": "မြန်မာဘာသာစကားသည်မြန်မာနိုင်ငံ၏ရုံးသုံးဘာသာစကားဖြစ်သည်",
    "ja": "日本語は主に日本国内や日本人同士の間で使用される言語である",
    "zh": "中文是汉藏语系中最大的一支语言使用人数最多的语言之一",
}


# a reader's division of two sentences into words (the lists of tests/test_scripts.py)
REFERENCE = {
    "th": ["ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "มี", "ระดับ", "เสียง", "ของ", "คำ", "แน่นอน", "หรือ",
           "วรรณยุกต์", "เช่น", "เดียว", "กับ", "ภาษา", "จีน"],
    "ja": ["日本語", "は", "主に", "日本", "国内", "や", "日本人", "同士", "の", "間", "で", "使用", "さ",
           "れる", "言語", "で", "ある"],
}


def _icu() -> Callable[[str, str], list[str]]:
    from icu4py.breakers import WordBreaker

    return lambda text, lang: list(WordBreaker(text, "und"))


def _budoux() -> Callable[[str, str], list[str]]:
    import budoux

    parsers = {
        "ja": budoux.load_default_japanese_parser(),
        "zh": budoux.load_default_simplified_chinese_parser(),
        "th": budoux.load_default_thai_parser(),
    }
    return lambda text, lang: parsers[lang].parse(text) if lang in parsers else [text]


def _pythainlp() -> Callable[[str, str], list[str]]:
    from pythainlp.tokenize import word_tokenize

    return lambda text, lang: word_tokenize(text, engine="newmm", keep_whitespace=True) if lang == "th" else [text]


def _uniseg() -> Callable[[str, str], list[str]]:
    from uniseg.wordbreak import words

    return lambda text, lang: list(words(text))


SEGMENTERS = {"icu4py": _icu, "budoux": _budoux, "pythainlp": _pythainlp, "uniseg": _uniseg}


def _bounds(words: list[str]) -> set[int]:
    return set(accumulate(map(len, words)))


def _size_mb(dist: str) -> float:
    files = metadata.distribution(dist).files or []
    return sum(f.locate().stat().st_size for f in files if f.locate().is_file()) / 1e6


def main() -> int:
    import regex
    reference = REFERENCE
    print("| segmenter | installed MB | scripts divided | Thai P/R | Japanese P/R | Thai MB/s |")
    print("|---|---|---|---|---|---|")
    for name, make in SEGMENTERS.items():
        try:
            seg = make()
        except ImportError as e:
            print(f"| {name} | not installed ({e.name}) | | | | |")
            continue
        covered = []
        for lang, text in SAMPLES.items():
            words = seg(text, lang)
            assert "".join(words) == text, (name, lang)
            clusters = {m.end() for m in regex.finditer(r"\X", text)}
            if len(words) > 1 and _bounds(words) <= clusters:
                covered.append(lang)
        pr = []
        for lang in ("th", "ja"):
            ref = reference[lang]
            text = "".join(ref)
            words = seg(text, lang)
            if len(words) == 1:
                pr.append("n/a")  # the language is not covered
                continue
            want, got = _bounds(ref), _bounds(words)
            hit = len(want & got)
            pr.append(f"{hit / len(got):.2f}/{hit / len(want):.2f}")
        big = (SAMPLES["th"] * 2000)[:100_000]
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            seg(big, "th")
            best = min(best, time.perf_counter() - t)
        size = _size_mb(name)
        speed = len(big.encode()) / best / 1e6
        print(f"| {name} | {size:.1f} | {', '.join(covered)} | {pr[0]} | {pr[1]} | {speed:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
