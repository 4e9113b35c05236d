"""How often the legacy-encoding detection misreads short words, sentences and documents,
per language and code page, and how long it takes on a long file: one revision of
``chunkwise/loaders/decoding.py`` against the working copy, in the same run.

Usage (from the repository root; needs the ``encodings`` extra, charset-normalizer)::

    .venv/bin/python benchmarks/bench_decoding.py                 # HEAD against the working copy
    .venv/bin/python benchmarks/bench_decoding.py --before b7f6b79 --rows fr,de --speed 5
    .venv/bin/python benchmarks/bench_decoding.py --changed 5 --speed 0  # texts whose reading changes

Text, all from the machine (no download): the translated messages (``msgstr``) of the
gettext catalogues under ``/usr/share/locale/<lang>/LC_MESSAGES/*.mo`` of a Debian
system, one language folder each (``zh_CN`` for Chinese).

- Words: the 300 most frequent words of a language's messages that have a letter outside
  ASCII and that the code page encodes (words: runs of letters, counted in small letters;
  for Chinese and Japanese, which write no spaces: runs of 2 to 4 ideographs or kana
  between other characters). Each is encoded alone in small letters, in capitals and with
  a capital first letter (the alphabets with cases), and decoded; a misread is a decoding
  that is not the word.
- Sentences: 300 messages of 20 to 200 characters with a letter outside ASCII, taken in a
  fixed pseudo-random order.
- Documents: 30 texts of about 4,000 characters, each made of consecutive messages of one
  catalogue.
- Cases: texts reported misread (:data:`CASES`), each in its code page.
- The CSV of a user's report: ``a,b / Müller,Köln / Garçon,déjà vu`` three times, in Latin-1.
- Stray UTF-8 (``--kinds stray``, rows in cp1252 only): the sentences, each with its first
  word that has a letter outside ASCII written in UTF-8 and the rest in cp1252 (``cafÃ©``
  once decoded as cp1252); right is the cp1252 reading of those bytes (every reading shows a
  sign of a wrong code page, and the most common code page wins), or UTF-8 with U+FFFD for
  the bad bytes when the rule of mostly UTF-8 text applies.

A misread is counted when the text decoded is not the text written: the same code page
or another one that gives the same text (cp1252 for latin-1) is right. Speed: CPU time of
``decode`` on a long file (Russian in cp1251, French in cp1252), best of ``--speed`` runs,
the two revisions in turn.
"""

from __future__ import annotations

import argparse
import collections
import gettext
import glob
import hashlib
import importlib.util
import logging
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE = "src/chunkwise/loaders/decoding.py"
LOCALE = Path("/usr/share/locale")

CASED = ("lower", "upper", "title")
# key: (locale folder, code page, forms of each word)
ROWS = {
    "ru": ("ru", "cp1251", CASED),
    "el": ("el", "cp1253", CASED),
    "he": ("he", "cp1255", ("as is",)),
    "ko": ("ko", "euc_kr", ("as is",)),
    "zh": ("zh_CN", "gb2312", ("as is",)),
    "ja-sjis": ("ja", "shift_jis", ("as is",)),
    "ja-euc": ("ja", "euc_jp", ("as is",)),
    "lt": ("lt", "cp1257", CASED),
    "lv": ("lv", "cp1257", CASED),
    "pl": ("pl", "cp1250", CASED),
    "cs": ("cs", "cp1250", CASED),
    "tr": ("tr", "cp1254", CASED),
    "fr": ("fr", "cp1252", CASED),
    "de": ("de", "cp1252", CASED),
    "es": ("es", "cp1252", CASED),
    "pt": ("pt", "cp1252", CASED),
    "it": ("it", "cp1252", CASED),
    "nl": ("nl", "cp1252", CASED),
    "sv": ("sv", "cp1252", CASED),
    "da": ("da", "cp1252", CASED),
    "nb": ("nb", "cp1252", CASED),
    "fi": ("fi", "cp1252", CASED),
    "fr-latin1": ("fr", "latin-1", CASED),
    # the ISO code pages of the same languages, and languages that share letters with them
    "zh-gbk": ("zh_CN", "gbk", ("as is",)),
    "zh-tw": ("zh_TW", "big5", ("as is",)),
    "tr-iso": ("tr", "iso8859-9", CASED),
    "pl-iso": ("pl", "iso8859-2", CASED),
    "cs-iso": ("cs", "iso8859-2", CASED),
    "lt-iso": ("lt", "iso8859-13", CASED),
    "lv-iso": ("lv", "iso8859-13", CASED),
    "et": ("et", "cp1257", CASED),
    "sk": ("sk", "cp1250", CASED),
    "hu": ("hu", "cp1250", CASED),
    "ca": ("ca", "cp1252", CASED),
    "is": ("is", "cp1252", CASED),
    "fo": ("fo", "cp1252", CASED),
    "sq": ("sq", "cp1252", CASED),
    # KOI8: Shift JIS reads its small letters as half-width katakana
    "ru-koi8": ("ru", "koi8-r", CASED),
    "uk-koi8": ("uk", "koi8-u", CASED),
}
# texts reported misread, each with its code page (the "cases" kind)
CASES = (
    ("pilsēta", "cp1257"),
    ("Ķēķis ir šķirnē.", "cp1257"),
    ("Pēc tam", "cp1257"),
    ("nėra", "cp1257"),
    ("Uyarı: okuma hatası", "cp1254"),
    ("Başarısız oldu", "cp1254"),
    ("kullanıcı", "iso8859-9"),
    ("Domyślny program", "cp1250"),
    ("jeśli", "cp1250"),
    ("wartość", "iso8859-2"),
    ("Počet bitů na vzorek", "cp1250"),
    ("ません", "euc_jp"),
    ("警告", "gbk"),
    ("目录", "gb18030"),
    ("ошибка: не удалось открыть файл 'data.txt' для чтения\nпопробуйте запустить программу ещё раз\n", "koi8-r"),
    ("специфікатор '/' можна використовувати лише з числом\n", "koi8-u"),
    ("ｼｮｳﾋﾝ ｺｰﾄﾞ: 'A-100' ﾈﾀﾞﾝ: 1200 ｴﾝ\nｼｮｳﾋﾝ ｺｰﾄﾞ: 'B-200' ﾈﾀﾞﾝ: 800 ｴﾝ\n", "shift_jis"),
    # fourth round: short text in Baltic, Turkish, Polish ISO and KOI8 code pages
    ("Failo nėra.", "iso8859-13"),
    ("Dokumentų ir nuotraukų aplankas", "cp1257"),
    ("Vakar bija ļoti auksta diena.", "cp1257"),
    ("Kitabı masaya koydum.", "cp1254"),
    ("hatası", "cp1254"),
    ("Świeże pieczywo", "iso8859-2"),
    ("ошибка ошибка файл", "koi8-r"),
    ("Доброе утро", "koi8-r"),
    ("Добрий вечір!", "koi8-u"),
    ("설정", "euc_kr"),
)
_WORD = re.compile(r"[^\W\d_]+")
_EAST_ASIAN_RUN = re.compile(r"[\u3041-\u30ff\u4e00-\u9fff]{2,4}")
FORMS = {"lower": str.lower, "upper": str.upper, "title": str.title, "as is": lambda w: w}
CSV = ("a,b\nMüller,Köln\nGarçon,déjà vu\n" * 3).encode("latin-1")


def load(path: Path, name: str):
    """The decoding module in ``path``, imported inside chunkwise.loaders (its relative imports)."""
    sys.path.insert(0, str(ROOT / "src"))
    import chunkwise.loaders  # noqa: F401

    spec = importlib.util.spec_from_file_location(f"chunkwise.loaders.{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def messages(folder: str) -> list[list[str]]:
    """The translated messages of each catalogue of ``folder``, in a fixed order."""
    out = []
    for path in sorted(glob.glob(str(LOCALE / folder / "LC_MESSAGES" / "*.mo"))):
        try:
            with open(path, "rb") as fh:
                catalog = gettext.GNUTranslations(fh)._catalog
        except Exception:  # a catalogue Python cannot read: left out
            continue
        texts = [v for k, v in sorted(catalog.items(), key=lambda kv: str(kv[0])) if isinstance(v, str) and v and k]
        out.append(texts)
    return out


def encodable(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def words(catalogues: list[list[str]], encoding: str, east_asian: bool, n: int = 300) -> list[str]:
    counts: collections.Counter[str] = collections.Counter()
    for texts in catalogues:
        for text in texts:
            found = _EAST_ASIAN_RUN.findall(text) if east_asian else _WORD.findall(text.lower())
            counts.update(w for w in found if not w.isascii())
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [w for w, _ in ranked if encodable(w, encoding)][:n]


def _order(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def sentences(catalogues: list[list[str]], encoding: str, n: int = 300) -> list[str]:
    pool = {
        t for texts in catalogues for t in texts
        if 20 <= len(t) <= 200 and not t.isascii() and encodable(t, encoding)
    }
    return sorted(pool, key=_order)[:n]


def documents(catalogues: list[list[str]], encoding: str, n: int = 30, size: int = 4000) -> list[str]:
    docs = []
    for texts in sorted(catalogues, key=lambda ts: _order("".join(ts[:3]))):
        good = [t for t in texts if encodable(t, encoding)]
        text = "\n".join(good)
        for start in range(0, len(text) - size, size * 4):
            part = text[start : start + size]
            part = part[part.find("\n") + 1 : part.rfind("\n")]
            if not part.isascii():
                docs.append(part)
                break
        if len(docs) == n:
            break
    return docs


def misreads(mod, texts: list[str], encoding: str) -> tuple[int, list[tuple[str, str, str]]]:
    bad = []
    for text in texts:
        data = text.encode(encoding)
        try:
            got, name = mod.decode(data)
        except Exception as exc:  # a load error is a misread too
            got, name = repr(exc), "-"
        if got != text:
            bad.append((text, got, name))
    return len(bad), bad


def stray(texts: list[str]) -> list[bytes]:
    """Each text with its first word that has a letter outside ASCII in UTF-8, the rest in
    cp1252 (those whose bytes cp1252 reads)."""
    out = []
    for text in texts:
        words = text.split(" ")
        k = next(i for i, w in enumerate(words) if not w.isascii())
        data = b" ".join(w.encode("utf-8" if i == k else "cp1252") for i, w in enumerate(words))
        if encodable_bytes(data, "cp1252"):  # not a UTF-8 byte that cp1252 leaves undefined (``\x9d``)
            out.append(data)
    return out


def encodable_bytes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
        return True
    except UnicodeDecodeError:
        return False


def stray_misreads(mod, datas: list[bytes]) -> tuple[int, list[tuple[str, str, str]]]:
    bad = []
    for data in datas:
        got, name = reading(mod, data)
        if got not in (data.decode("cp1252"), data.decode("utf-8", "replace")):
            bad.append((data.decode("cp1252"), got, name))
    return len(bad), bad


def reading(mod, data: bytes) -> tuple[str, str]:
    try:
        return mod.decode(data)
    except Exception as exc:  # a load error is a reading too
        return repr(exc), "-"


def changed(before, after, texts: list[str], encoding: str) -> list[tuple[str, tuple[str, str], tuple[str, str]]]:
    """The texts whose reading (text, code page) is not the same with ``before`` and ``after``."""
    out = []
    for text in texts:
        data = text.encode(encoding)
        old, new = reading(before, data), reading(after, data)
        if old != new:
            out.append((text, old, new))
    return out


def speed(mods: list, data: bytes, runs: int) -> list[float]:
    """CPU milliseconds of ``decode`` for each module, best of ``runs``, the modules in turn."""
    best = [float("inf")] * len(mods)
    for _ in range(runs):
        for k, mod in enumerate(mods):
            t = time.process_time()
            mod.decode(data)
            best[k] = min(best[k], time.process_time() - t)
    return [b * 1000 for b in best]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="HEAD", help="the revision to compare with the working copy")
    ap.add_argument("--rows", default="", help="comma-separated row keys (default: all)")
    ap.add_argument("--kinds", default="words,sentences,documents,cases", help="which kinds of text")
    ap.add_argument("--speed", type=int, default=7, help="runs of the long-file timing (0: none)")
    ap.add_argument("--show", type=int, default=0, help="print this many misreads of each row (after)")
    ap.add_argument(
        "--changed", type=int, default=-1,
        help="count the texts whose text or code page read changes between the revisions, and print this many",
    )
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)

    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "decoding_before.py"
        old.write_bytes(subprocess.run(["git", "show", f"{args.before}:{MODULE}"], cwd=ROOT, check=True,
                                       capture_output=True).stdout)
        before = load(old, "_bench_before")
    after = load(ROOT / MODULE, "_bench_after")

    keys = [k for k in args.rows.split(",") if k] or list(ROWS)
    kinds = args.kinds.split(",")
    if args.changed >= 0:
        print(f"| row | code page | text | n | readings changed ({args.before} to the working copy) |")
        print("|---|---|---|---|---|")
    else:
        print(f"| row | code page | text | n | before ({args.before}) | after |")
        print("|---|---|---|---|---|---|")
    cache: dict[str, list[list[str]]] = {}
    for key in keys:
        folder, encoding, forms = ROWS[key]
        catalogues = cache.setdefault(folder, messages(folder))
        east_asian = folder in ("zh_CN", "zh_TW", "ja")
        sets = []
        if "words" in kinds:
            base = words(catalogues, encoding, east_asian)
            for form in forms:
                texts = [t for t in (FORMS[form](w) for w in base) if not t.isascii() and encodable(t, encoding)]
                sets.append((f"words, {form}", texts))
        if "sentences" in kinds:
            sets.append(("sentences", sentences(catalogues, encoding)))
        if "documents" in kinds:
            sets.append(("documents ~4 KB", documents(catalogues, encoding)))
        if "stray" in kinds and encoding == "cp1252":
            datas = stray(sentences(catalogues, encoding))
            nb, _ = stray_misreads(before, datas)
            na, bad = stray_misreads(after, datas)
            diff = [(d, reading(before, d), reading(after, d)) for d in datas]
            diff = [(d.decode("cp1252"), old, new) for d, old, new in diff if old != new]
            row = f"| {key} | {encoding} | sentences, a stray UTF-8 word | {len(datas)} |"
            if args.changed >= 0:
                print(f"{row} changed: {len(diff)} (misreads {nb} -> {na}) |", flush=True)
            else:
                print(f"{row} {nb} | {na} |", flush=True)
            for text, old, new in diff[: max(args.changed, 0)]:
                print(f"    {text[:60]!r}: {old[1]} {old[0][:40]!r} -> {new[1]} {new[0][:40]!r}")
            for text, got, name in bad[: args.show]:
                print(f"    {text!r} -> {got[:60]!r} ({name})")
        for label, texts in sets:
            if args.changed >= 0:
                diff = changed(before, after, texts, encoding)
                print(f"| {key} | {encoding} | {label} | {len(texts)} | changed: {len(diff)} |", flush=True)
                for text, old, new in diff[: args.changed]:
                    print(f"    {text[:60]!r}: {old[1]} {old[0][:40]!r} -> {new[1]} {new[0][:40]!r}")
                continue
            nb, _ = misreads(before, texts, encoding)
            na, bad = misreads(after, texts, encoding)
            print(f"| {key} | {encoding} | {label} | {len(texts)} | {nb} | {na} |", flush=True)
            for text, got, name in bad[: args.show]:
                print(f"    {text!r} -> {got[:60]!r} ({name})")
    if "cases" in kinds and args.changed >= 0:
        diff = [d for text, encoding in CASES for d in changed(before, after, [text], encoding)]
        print(f"| case | - | {len(CASES)} reported texts | {len(CASES)} | changed: {len(diff)} |")
    elif "cases" in kinds:
        for text, encoding in CASES:
            got = [misreads(m, [text], encoding)[1] for m in (before, after)]
            shown = ["right" if not bad else f"{bad[0][1]!r} ({bad[0][2]})" for bad in got]
            print(f"| case | {encoding} | {text!r} | 1 | {shown[0]} | {shown[1]} |", flush=True)
    if args.changed >= 0:
        old, new = reading(before, CSV), reading(after, CSV)
        print(f"| csv | latin-1 | the report's CSV | 1 | changed: {int(old != new)} |")
    else:
        names = [m.decode(CSV)[1] for m in (before, after)]
        print(f"| csv | latin-1 | the report's CSV | 1 | {names[0]} | {names[1]} |")

    if args.speed:
        ru = " ".join(t for texts in cache.get("ru") or messages("ru") for t in texts if encodable(t, "cp1251"))
        fr = " ".join(t for texts in cache.get("fr") or messages("fr") for t in texts if encodable(t, "cp1252"))
        print()
        print(f"| long file (CPU ms, best of {args.speed}) | before | after |")
        print("|---|---|---|")
        for label, text, encoding in (
            ("Russian, 40 KB cp1251", ru[:40_000], "cp1251"),
            ("French, 40 KB cp1252", fr[:40_000], "cp1252"),
            ("French, 1 MB cp1252", fr[:1_000_000], "cp1252"),
        ):
            data = text.encode(encoding)
            times = speed([before, after], data, args.speed)
            print(f"| {label} | {times[0]:.1f} | {times[1]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
