"""Bytes to text: the one place where chunkwise decodes a file.

Order of detection (:func:`decode`):

1. ``encoding=`` given: that codec, strictly.
2. A byte-order mark: UTF-8, UTF-16 LE/BE or UTF-32 LE/BE.
3. UTF-32 or UTF-16 without a byte-order mark: NUL bytes, nearly all in the same position
   of each 4 or 2 bytes (the high bytes of characters under U+0100 or U+10000), and the
   text strictly valid in that byte order.
4. Valid UTF-8 (ASCII included); but 7-bit text holding the escape sequences of
   ISO-2022-JP/-KR (``ESC $ B``) or HZ (``~{ ... ~}``) is decoded with that codec when
   the codec decodes it strictly and gives East Asian text (HZ: only ideographs and
   CJK punctuation between its ``~{`` and ``~}``); and short data (64 bytes or less) whose
   UTF-8 text shows a sign of a wrong encoding (``Ŀ¼``, ``δ`` with a Hebrew accent:
   ``目录``, ``未知`` in GB2312) is decoded with a multi-byte East Asian encoding that
   reads it as common characters of its language with no sign (step 7 chooses it).
5. An encoding the format declares (an HTML ``<meta charset>``, an XML declaration), when
   it decodes.
6. UTF-8 with a few bad bytes: text that is valid UTF-8 except for a few bytes (at least
   one valid multi-byte character, and no fewer of them than runs of invalid bytes; an
   accented letter of a legacy code page is an invalid byte) is UTF-8 with damage, not
   another encoding: it is decoded as UTF-8, each invalid sequence replaced by U+FFFD, the
   count reported (``metadata["decoding_errors"]``) and a warning logged. Never silently
   read as a code page that turns every accented letter into another one. But a decoding
   with replacement characters never wins over a clean one: when a multi-byte East Asian
   encoding (EUC-JP, Shift JIS, GB2312/GBK/GB18030, Big5(-HKSCS), EUC-KR/CP949, Johab)
   decodes the bytes strictly with no sign of a wrong code page (step 7 chooses among
   them), that one is used (the lead and trail bytes of those encodings often form valid
   UTF-8 sequences by chance, so "mostly UTF-8" is no evidence against them).
7. A legacy encoding (the ``encodings`` extra, charset-normalizer, proposes the
   candidates). Each candidate's text is checked for signs of a wrong code page (control
   characters, a word mixing scripts such as ``Naﺅve`` or cut by a symbol between two
   scripts such as ``warto¶و``, ``¦``, ``¶``, ``±`` against a Latin letter (Polish
   ISO-8859-2 read as cp1256 or cp1250), a Latin word made only of accented
   letters such as ``Ïðèâåò``, a symbol between Latin letters such as ``Za¿ó³æ``
   (or Cyrillic, Greek, Hebrew ones), Serbian and Macedonian letters beside letters
   neither language writes (``ѕривет ... Ёто``: Russian read as mac-cyrillic), a capital
   inside a Cyrillic or Greek word, box-drawing characters, þ, ð, ţ or đ beside ü or ç,
   a Latin word whose accented letters no one language writes together such as ``déją``);
   among the candidates with the fewest signs, Western European text in cp1252 is taken
   first: its letters outside ASCII those of French, German, Spanish, Portuguese, Italian,
   Dutch and the Nordic languages (Icelandic's ð, þ, ý aside), its punctuation outside
   ASCII quotes, dashes and a few symbols in their places, and each word with such a
   letter also has an ASCII one (``Garçon``, ``déjà``; not ``°¡·Î``, Korean read as
   cp1252), whatever the detector's measures of chaos say (``déjà`` is chaos to them,
   cp1257's ``déją`` is not), unless some of its letters stand where none of those
   languages writes them (``pilsçta``, ``jeœli``, ``siê``, ``poèet``: Latvian, Polish and
   Czech read as cp1252) and another reading is in the letters of one language. Else, when
   one reading in Latin letters is in the letters of one language, each in a place that
   language writes it (``šablone nepalaikomų``, Lithuanian), the Latin readings that take
   two languages or more (``ðablone nepalaikomø``) are left out, but cp1252's when every
   reading shows a sign (cp1252 text with a stray UTF-8 ``é``, ``cafÃ©``, is not cp1258's
   ``cafĂ©`` nor cp775's ``caf├®``, in one language's letters); Turkish words in Turkish
   letters (an ı and one more ı, İ, ş or ğ, or ş inside a word, vowel harmony kept:
   ``başarısız``; one ı with words that write y before a vowel, ``Kitabı masaya koydum.``)
   are taken over cp1252's Icelandic letters (``baþarýsýz``); an East Asian
   reading whose characters stand alone beside ASCII letters (``mo瞠``) gives way to them.
   Before all that, a cp1257 or ISO-8859-13 reading in one language's letters with
   evidence of Lithuanian or Latvian (frequent words such as ``nėra``, ``yra``,
   ``lūdzu``, ``nav``; words that end in ``ų`` after a consonant, ``failų``) is taken over
   the readings of other languages' letters (Albanian ``nëra``, Danish ``failø``, Czech
   ``ďoti``): two points of evidence or more, a listed word with a Baltic letter counting two.
   cp1250, ISO-8859-2, cp1254 and cp1257 are measured too when the detector leaves them
   out, on text of 1,024 bytes or less whose cp1252 reading has their letters elsewhere
   or shows a sign, or when every candidate shows one (``Ķēķis ir šķirnē.``; on longer
   text: and the one with the fewest reads Latin letters). A Shift JIS reading made mostly
   of half-width katakana, with no kana or kanji of full width, gives way to a KOI8-R,
   KOI8-U or cp1251 reading of three or more frequent Cyrillic letters, small ones among
   them (KOI8's small letters are those bytes: ``ошибка`` is ``ﾏﾛﾉﾂﾋﾁ``). Short text whose
   every reading is East Asian of uncommon characters or cp1255 Hebrew among points is
   read as cp1251, KOI8-R or KOI8-U when one of them gives Cyrillic letters only, small
   ones among them (``Слава Україні!`` is not ``ףֱּ׳ֱ``); so are short readings of rare
   hanzi or kana beside such a Cyrillic reading (``Доброе утро`` is not ``湎乱吓 赵蚁``), and
   KOI8-R or KOI8-U small letters beside common GB 2312 hanzi with few of the most frequent
   ones (``ошибка ошибка файл`` is not ``羡陕肆 羡陕肆 屏侍``); KOI8-U is measured when
   KOI8-R reads its і, ї, є, ґ as box drawing (``веч╕р``). Then an
   East Asian multi-byte reading made of the common characters of its language (90 % or
   more: GB 2312 level 1 for GB2312/GBK/GB18030, Big5's frequent hanzi, kana and JIS X
   0208 level 1, the Hangul syllables of KS X 1001) is preferred to the others, the most
   fluent first (the East Asian encodings read each other's bytes as valid but rare
   characters, and the detector's measures say little on a few characters: ``繁體中文``
   in Big5 is ``羉砰いゅ`` in GBK); then, among those with the least chaos in
   charset-normalizer's measure (within 0.1), the most common code page wins: cp1252
   first (it reads every printable character of latin-1 the same way), then cp1251, cp1250, the East Asian
   encodings, ... and the rare DOS and Mac code pages last. So short or ambiguous text
   (``Na\\xefve``, ``\\xa9 2024 M\\xfcller``) is cp1252, unless the detector is confident
   (a clearly higher language coherence than cp1252's, both measured), its text looks
   like real text and cp1252's is not Western European text. Text with signs left in
   every candidate is read as the best of them, with a warning that it is a guess. A
   cp1258 reading with no Vietnamese letter, tone mark or price in dong (``₫`` not
   against a letter) is cp1252's: the two code pages differ in those alone
   (``caf\xe9 ... \xff\xfe``: ``ÿþ``, not ``ÿ₫``).
   Short data (64 bytes or less, a word or a line): the code pages of the common alphabets
   (cp1251, KOI8-R, cp1253, cp1255) are measured too (the detector proposes East Asian
   readings only for a few high bytes); when no East Asian reading is fluent and the chosen
   one is not Latin text, the reading whose letters are the most frequent of their alphabet
   wins (charset-normalizer's tables of each language's frequent letters, a capital counted
   as its small letter, a reading in capitals only weighed 0.9, or 0.5 when cp1251 or KOI8-R
   reads the bytes as fluent small letters, the two reading each other's small letters as
   capitals; the most common code page among the readings of one alphabet within 0.1 of the
   best), so ``привет`` is not ``镳桠弪`` nor ``שלום`` ``盒孼``, nor ``ΑΘΗΝΑ`` ``ахгма``; a
   fluent East Asian reading with few of its language's most frequent characters gives way
   to a Japanese reading in kana (``ません`` in EUC-JP is ``引六氏`` in Big5), and to such a
   reading too (capitals of cp1251 are common hanzi: ``МОСКВА`` is not ``涛咽吕``);
   and a Korean word that GB 2312 reads as common hanzi is Korean when it has more of the
   most frequent syllables.

Bytes that are more than half NUL once decoded (a file of zeros, a disk image, a sparse
file; detection only, not with ``encoding=``) are binary data, not text: a
:class:`~chunkwise.loaders.base.FileFormatError` (a ``LoadError``, kind ``"undecodable"``).

A leading U+FEFF (a byte-order mark) is removed from the text in every case; nothing else
is changed: line ends stay as they are (``\r\n`` is two characters), so offsets index the
file's real text.
"""

from __future__ import annotations

import codecs
import functools
import itertools
import logging
import re
import unicodedata
from typing import Any, NamedTuple

from ..errors import ConfigError, LoadError

__all__ = ["Decoded", "decode", "decode_text", "looks_like_text"]

logger = logging.getLogger(__name__)

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# code pages by how common they are, for text that several decode equally well
_COMMON = (
    "cp1252 iso8859-1 cp1251 cp1250 shift_jis cp932 gb18030 gbk gb2312 big5 euc_kr cp949 euc_jp "
    "euc_jis_2004 euc_jisx0213 iso2022_jp koi8-r cp1253 cp1254 cp1256 cp1255 cp1257 iso8859-15 iso8859-2 cp874 "
    "cp1258 koi8-u "
    "iso8859-5 iso8859-7 iso8859-9 iso8859-8 iso8859-6 big5hkscs cp950 johab shift_jis_2004 shift_jisx0213 hz"
).split()
_RANK = {name: k for k, name in enumerate(_COMMON)}
_FFFD_RUN = re.compile("\ufffd+")
_HIGH_BYTE = re.compile(b"[\x80-\xff]")
_NON_ASCII = re.compile("[^\x00-\x7f]")
_ASCII = frozenset(map(chr, range(128)))
_PREFIX = 1 << 16
"""Legacy encodings are detected on the first bytes (cut at a line end), then the whole
file is decoded strictly with the codec found (detected on all of it when that fails)."""
_SAMPLE = 20_000
"""How many characters of each candidate's text are checked for signs of a wrong code page."""
# punctuation that may stand inside a word (l’été, l·l, well-known)
_INWORD = frozenset("'’‘ʼ·-‐‑–—")
_EAST_ASIAN = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HALFWIDTH", "FULLWIDTH", "IDEOGRAPHIC", "HANGUL"})
_CASED = frozenset({"CYRILLIC", "GREEK"})


class Decoded(NamedTuple):
    """What :func:`decode_text` found: the text, the codec used and the number of
    invalid byte sequences replaced by U+FFFD (0 unless UTF-8 had a few bad bytes)."""

    text: str
    encoding: str
    errors: int = 0


def bom_encoding(data: bytes) -> str | None:
    """The encoding named by a byte-order mark at the start of ``data``, or None."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    return None


def looks_like_text(head: bytes) -> bool:
    """Whether the first bytes of a file look like text rather than binary data.

    True for a byte-order mark, for UTF-8 (a sequence cut at the end of ``head`` allowed),
    for UTF-16 or UTF-32 without a byte-order mark (see :func:`decode`),
    and for bytes without NUL whose control characters (other than tab, line ends, form
    feed and escape) are under 1 % (legacy 8-bit text).

    Example:
        >>> looks_like_text(b"plain words\\n"), looks_like_text(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00")
        (True, False)
    """
    if not head or bom_encoding(head):
        return True
    if b"\x00" in head:
        wide = _wide_unicode(head, partial=True)
        if wide is None:
            return False
        text = codecs.getincrementaldecoder(wide)().decode(head, final=False)
        return text.count("\x00") * 2 <= len(text)  # mostly NUL (zeros): binary, though UTF-32 reads it
    try:
        head.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3 and exc.reason == "unexpected end of data":
            return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27, 8))
    return controls <= len(head) // 100


_MULTIBYTE = frozenset(
    codecs.lookup(n).name
    for n in (
        "shift_jis cp932 shift_jis_2004 shift_jisx0213 euc_jp euc_jis_2004 euc_jisx0213 gb2312 gbk gb18030 "
        "big5 big5hkscs cp950 euc_kr cp949 johab"
    ).split()
)
"""The multi-byte East Asian encodings whose bytes often form valid UTF-8 by chance."""
_ESCAPED = ("iso2022_jp", "iso2022_jp_2", "iso2022_jp_ext", "iso2022_jp_3", "iso2022_jp_2004", "iso2022_kr")


def _wide_unicode(data: bytes, partial: bool = False) -> str | None:
    """UTF-32 or UTF-16 without a byte-order mark: the codec name, or None.

    Text in these encodings has NUL bytes in the high positions of characters under
    U+0100 (spaces, digits, punctuation, line ends) or under U+10000, and almost none
    elsewhere; the bytes must also decode strictly in that byte order (``partial``: the
    first bytes of a file, a character cut at the end allowed)."""

    def strict(name: str) -> str:
        return codecs.getincrementaldecoder(name)().decode(data, final=not partial)

    n = len(data)
    nuls = data.count(b"\x00")
    if n < 4 or nuls < 2 or nuls * 500 < n:  # at least 0.2 % NUL bytes (line ends of CJK text)
        return None
    head = data[: 1 << 16]
    if n % 4 == 0 or partial:
        at = [head[k::4].count(0) for k in range(4)]
        quarter = len(head) // 4
        for name, high in (("utf-32-le", (2, 3)), ("utf-32-be", (0, 1))):
            if all(at[k] >= quarter * 0.98 for k in high):
                try:
                    strict(name)
                    return name
                except UnicodeDecodeError:
                    pass
    even, odd = head[0::2].count(0), head[1::2].count(0)
    if (n % 2 == 0 or partial) and min(even, odd) * 20 <= max(even, odd):
        name = "utf-16-le" if odd > even else "utf-16-be"
        try:
            text = strict(name)
        except UnicodeDecodeError:
            return None
        sample = text[:20_000]
        # binary data read as UTF-16 is spread over the whole range: control characters,
        # unassigned code points, private use (a tenth of the range) and surrogates
        strange = sum(
            1
            for c in sample
            if unicodedata.category(c) in ("Cn", "Co", "Cs") or (c < " " and c not in "\t\n\r\f\v")
        )
        if strange * 100 <= len(sample):
            return name
    return None


def _escaped(data: bytes) -> tuple[str, str] | None:
    """7-bit text in ISO-2022-JP/-KR or HZ (escape sequences rather than 8-bit bytes):
    ``(text, codec)``, or None. ISO-2022: the first codec among :data:`_ESCAPED` that
    decodes strictly and leaves no escape character. HZ: it decodes strictly and every
    ``~{ ... ~}`` span gives only ideographs, kana, hangul and CJK punctuation (random
    ASCII pairs, ``~{x~}`` in code, rarely do)."""
    if b"\x1b$" in data or b"\x1b(" in data:
        for name in _ESCAPED:
            try:
                text = data.decode(name)
            except (UnicodeDecodeError, LookupError):
                continue
            if "\x1b" not in text and any(_script(c) == "CJK" for c in text[:_SAMPLE]):
                return text, codecs.lookup(name).name
    if b"~{" in data and b"~}" in data:
        try:
            text = data.decode("hz")
        except UnicodeDecodeError:
            return None
        wide = 0
        for part in data.split(b"~{")[1:]:
            inner = part.split(b"~}", 1)[0]
            try:
                chars = ("~{" + inner.decode("ascii") + "~}").encode("ascii").decode("hz")
            except UnicodeDecodeError:
                return None
            if not chars or any(_script(c) != "CJK" and not "\u3000" <= c <= "\u303f" for c in chars):
                return None
            wide += len(chars)
        if wide >= 2:
            return text, "hz"
    return None


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise ConfigError(f"encoding {name!r} is unknown; give a Python codec name such as 'utf-8' or 'cp1252'") from None


def _strict(data: bytes, encoding: str, source: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise LoadError(
            f"{source}: cannot be decoded as {encoding} ({exc.reason} at byte {exc.start}); "
            "give another encoding= or leave it out to detect it"
        ) from exc


@functools.lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    if ch in "ªº":  # FEMININE / MASCULINE ORDINAL INDICATOR: Latin letters (``nº``)
        return "LATIN"
    head = unicodedata.name(ch, "").split(" ", 1)[0]
    # KATAKANA-HIRAGANA PROLONGED SOUND MARK (ー), ... are kana too
    return "CJK" if head in _EAST_ASIAN or head.split("-", 1)[0] in _EAST_ASIAN else head


def implausible(text: str) -> int:
    """How many signs of a wrong code page ``text`` shows (0: it looks like real text).

    Counted: C0/C1 control characters other than tab, line ends, form feed and escape;
    box-drawing and block characters; a word whose letters mix scripts (``Naﺅve``: Latin
    and Arabic; Latin beside East Asian script is normal, but not a lone ideograph between
    Latin letters, ``衭r餰vak``: Croatian read as GB18030, nor half-width katakana
    beside other letters, ``ﾓﾃPythonｱ犁``: GBK read as Shift JIS, nor a Hangul jamo
    inside a word, ``폽居몄ㅞ``: EUC-JP read as EUC-KR); a Latin word of three letters
    or more made only of accented letters (``Ïðèâåò``: Cyrillic read as cp1252); a capital
    after a small letter inside a Cyrillic or Greek word (``ЕллзнйкЬ``); a symbol or a
    format character that is not ASCII between two Latin, Cyrillic, Greek or Hebrew letters
    (``Za¿ó³æ``: Polish read as cp1252; a right-to-left mark inside a Hebrew word: Russian
    read as cp1255), joiners and the Hebrew geresh and gershayim aside; each Serbian or
    Macedonian letter (ѕ ј љ њ ћ џ ѓ ќ ђ) in a text that also has a letter neither
    language writes (я ю й ь ы э ъ щ ё є і ї ў ґ: ``ѕривет ... Ёто``, Russian in cp1251
    read as mac-cyrillic); þ, ð, ţ
    or đ in a text that also has ü or ç (``doðru``, ``dođru``: Turkish read as cp1252 or
    cp1250); a third or more of the distinct Hangul syllables outside the 2,350 common ones
    of KS X 1001 (``쳒쾔뱏``: Chinese read as Johab): each such syllable. In a Cyrillic
    or Greek word: a small letter after two capitals (``ЕЯче``). In a Cyrillic word: ь or
    ъ after a vowel, ь, ъ or ы first, й after a consonant or before a vowel but о
    (``йаи``: Greek ``ΚΑΙ`` read as KOI8-R), no vowel (``кбй``: Greek read as cp1251;
    capitals need a vowel, common acronyms aside); in a Greek word: ς before its end, no vowel;
    in a Hebrew word: a final letter form before its end, a medial form of one at its end
    (``שמ``: Cyrillic read as cp1255); in a text of 64 characters or less, a Latin word of
    two accented letters (``àí``); a Latin word whose letters outside ASCII no language
    writes together (``déją``: French read as cp1257; ``reikðmë``: Lithuanian read as
    cp1252; see :data:`_LATIN_ALPHABETS`); in a Latin word, a capital outside ASCII after
    a small letter (``æ%sÆ``: ``‘%s’`` read as cp437), ğ first (``Ğodien``: Latvian
    ``Šodien`` read as cp1254).

    Example:
        >>> implausible("Naïve café"), implausible("Naﺅve"), implausible("Ïðèâåò ìèð")
        (0, 1, 2)
    """
    signs = 0
    word: list[str] = []
    # a Latin word made only of accented letters: of three or more; of two in a short text
    # (``àí``: Russian ``на`` read as cp1252; a longer text has other words to tell, and
    # Turkish writes ``üç``)
    least = 2 if len(text) <= _SHORT else 3

    def close() -> None:
        nonlocal signs
        if not word:
            return
        joined = "".join(word)
        if joined.isascii():  # ASCII letters: no sign to look for
            word.clear()
            return
        lo, hi = min(joined), max(joined)
        kinds: list[str] = []
        # the script of the letters of one block without a name looked up (the common case)
        if hi <= "\xff" and "µ" not in joined:
            scripts = {"LATIN"}
        elif "\u0400" <= lo and hi <= "\u04ff":
            scripts = {"CYRILLIC"}
        elif "\u0386" <= lo and hi <= "\u03ce":
            scripts = {"GREEK"}
        elif "\u05d0" <= lo and hi <= "\u05ea":
            scripts = {"HEBREW"}
        else:
            kinds = [_script(c) for c in word]
            scripts = set(kinds)
        if len(scripts - {"CJK"}) > 1 or ("CJK" in scripts and len(scripts - {"CJK", "LATIN"}) > 0):
            signs += 1
        elif scripts == {"LATIN"} and len(word) >= least and all(c >= "\x80" for c in word):
            signs += 1
        elif scripts == {"LATIN"}:
            accented = frozenset(c for c in word if c >= "\x80")
            if accented and not _latin_word(accented):
                signs += 1
            # an accented capital after a small letter (``sÆ``: ``s’`` read as cp437)
            signs += sum(1 for x, y in zip(word, word[1:]) if y >= "\x80" and y.isupper() and x.islower())
            if word[0] in "ğĞ":  # no Turkish word starts with ğ (``Ğodien``: Latvian read as cp1254)
                signs += 1
        elif "CJK" in scripts:
            if len(scripts) > 1:  # Latin and East Asian: a lone ideograph between Latin letters
                runs = [(k, sum(1 for _ in g)) for k, g in itertools.groupby(kinds)]
                signs += sum(1 for k in range(1, len(runs) - 1) if runs[k] == ("CJK", 1))
            if 0 < sum(1 for c in word if "\uff61" <= c <= "\uff9f") < len(word):
                signs += 1  # half-width katakana mixed with other letters: GBK or Big5 read as Shift JIS
            if 0 < sum(1 for c in word if "\u3131" <= c <= "\u318e") < len(word):
                signs += 1  # a lone Hangul jamo inside a word: Japanese or Big5 read as EUC-KR
        elif len(scripts) == 1 and scripts <= _CASED:
            signs += sum(1 for x, y in zip(word, word[1:]) if x.islower() and y.isupper())
            # a small letter after two capitals (``ЕЯче``: Greek ``Είχε`` read as cp1251)
            signs += sum(1 for x, y, z in zip(word, word[1:], word[2:]) if z.islower() and x.isupper() and y.isupper())
            if scripts == {"CYRILLIC"}:
                signs += _cyrillic_signs("".join(word))
            else:
                signs += _greek_signs("".join(word))
        elif scripts == {"HEBREW"} and (word[-1] in _HEB_MEDIAL or not _HEB_FINAL.isdisjoint(word)):
            signs += _hebrew_signs("".join(word), not after or not unicodedata.category(after).startswith("M"))
        word.clear()

    last = len(text) - 1
    after = ""  # the character that ends the word being closed ("": the text's end)
    for i, ch in enumerate(text):
        if ch.isalpha():
            word.append(ch)
            continue
        after = ch
        if ch < "\xa0":
            if ch >= "\x80" or (ch < " " and ch not in "\t\n\r\f\v\x1b"):
                signs += 1
        elif "\u2500" <= ch <= "\u259f":
            signs += 1
        elif (
            word
            and ch not in _INWORD
            and i < last
            and text[i + 1].isalpha()
            and _between(_script(word[-1]), _script(text[i + 1]), ch)
            and not ch.isspace()
            and ch not in "\u200c\u200d\u05f3\u05f4"
            and not unicodedata.category(ch).startswith("M")
        ):
            signs += 1
        elif ch in _GLUED_SYMBOLS and (_latin_at(text, i - 1) or (i < last and _latin_at(text, i + 1))):
            signs += 1  # ``¦wieże``, ``±``: Polish ``Świeże``, ``ą`` in ISO-8859-2 read as cp1250 or cp1252
        close()
    after = ""
    close()
    syllables = {c for c in text if "\uac00" <= c <= "\ud7a3"}
    if len(syllables) >= 3:  # mostly rare Hangul syllables: Chinese or Korean read as Johab or CP949
        rare = _rare_hangul("".join(sorted(syllables)))
        if rare * 3 > len(syllables):
            signs += rare
    if any(c in text for c in "üçÜÇ"):  # no language writes these with ü or ç: Turkish misread
        signs += sum(text.count(c) for c in "þðÞÐţŢđĐ")
    if _SOUTH_SLAVIC.search(text) and _NOT_SOUTH_SLAVIC.search(text):
        # Serbian and Macedonian letters in a text with letters neither language writes
        # (``ѕривет ... Ёто``: Russian in cp1251 read as mac-cyrillic): each one
        signs += len(_SOUTH_SLAVIC.findall(text))
    return signs


_SYMBOL_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "HEBREW"})
"""The scripts in whose words a symbol or a format character outside ASCII is a sign
(``Za¿ó³æ``: Polish read as cp1252; ``כ\u200fהוי``: Russian ``людей`` read as cp1255);
joiners and the Hebrew geresh and gershayim aside."""
_MIXED_SCRIPTS = _SYMBOL_SCRIPTS | {"ARABIC"}
_GLUED_SYMBOLS = frozenset("¦¶±ˇ¬")
"""Symbols that no text writes against a letter, before or after it: what cp1250 and cp1252
read in ISO-8859-2's ``Ś``, ``ś``, ``ą``, ``Ą`` and ``Ź``."""


def _latin_at(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a Latin letter (``i`` -1: no)."""
    return i >= 0 and text[i].isalpha() and (text[i] < "\x80" or _script(text[i]) == "LATIN")


def _between(a: str, b: str, ch: str) -> bool:
    """Whether the symbol ``ch`` between letters of the scripts ``a`` and ``b`` is a sign: two
    letters of one script of :data:`_SYMBOL_SCRIPTS`; or of two scripts of them or Arabic when
    ``ch`` is a symbol or other punctuation, not a dash, a bracket nor a quote (``warto¶و``,
    ``warto¶ж``: Polish ``wartość`` in ISO-8859-2 read as cp1256 or cp1251; the Hebrew maqaf
    joins ``ל־Alt``)."""
    if a == b:
        return a in _SYMBOL_SCRIPTS
    return a in _MIXED_SCRIPTS and b in _MIXED_SCRIPTS and unicodedata.category(ch) in ("So", "Sm", "Sc", "Sk", "Po")


_SOUTH_SLAVIC = re.compile("[ѕјљњћџѓќђЅЈЉЊЋЏЃЌЂ]")
"""The Cyrillic letters of Serbian and Macedonian alone (mac-cyrillic and cp1251 read each
other's capitals as them)."""
_NOT_SOUTH_SLAVIC = re.compile("[яюйьыэъщёєіїўґЯЮЙЬЫЭЪЩЁЄІЇЎҐ]")
"""Cyrillic letters that neither Serbian nor Macedonian writes (Russian, Ukrainian,
Belarusian, Bulgarian)."""

_PLACES = {
    "çğıöşüâîû": frozenset({"ç*"}),
    "çəğıöşü": frozenset({"ç*"}),
    "çë": frozenset({"ç*", "ë*"}),
}
"""The odd places of letters (:func:`_odd_places`) that Turkish, Azerbaijani and Albanian write."""
_VIETNAMESE = "àáâãèéêìíòóôõùúýăđĩũơư" + "".join(chr(c) for c in range(0x1EA1, 0x1EFA, 2))
_LATIN_ALPHABETS = tuple(
    frozenset(letters) | _PLACES.get(letters, frozenset())
    for letters in (
        "àâæçéèêëîïôœùûüÿ",  # French
        "äöüßé",  # German
        "áéíñóúü",  # Spanish, Galician
        "àáâãçéêíóôõúü",  # Portuguese
        "àèéìíîòóùú",  # Italian
        "àçéèíïòóúü",  # Catalan
        "áäéëèêíïóöúüĳ",  # Dutch, Afrikaans
        "åäöéü",  # Swedish
        "åäöšž",  # Finnish
        "æøåéóòô",  # Danish, Norwegian
        "áðéíóúýþæö",  # Icelandic
        "áðíóúýæø",  # Faroese
        "äõöüšž",  # Estonian
        "āčēģīķļņšūž",  # Latvian
        "ąčęėįšųūž",  # Lithuanian
        "ąćęłńóśźż",  # Polish
        "áčďéěíňóřšťúůýž",  # Czech
        "áäčďéíĺľňóôŕšťúýž",  # Slovak
        "čćđšž",  # Slovene, Croatian, Bosnian, Serbian
        "áéíóöőúüű",  # Hungarian
        "ăâîșțşţ",  # Romanian
        "çğıöşüâîû",  # Turkish
        "çəğıöşü",  # Azerbaijani
        "çë",  # Albanian
        "ċġħżàèìòù",  # Maltese
        "âêîôûŵŷäëïöüáéíóúẁẃẅỳ",  # Welsh
        "ĉĝĥĵŝŭ",  # Esperanto
        _VIETNAMESE,
    )
)
"""The letters outside ASCII of the languages written in Latin letters, in small letters:
a word whose letters outside ASCII are not all letters of one of them is a sign of a
wrong code page (``déją``, ``Garēon`` aside: ``ē`` alone is Latvian)."""


def _cover(text: str, name: str = "") -> int:
    """How many languages of :data:`_LATIN_ALPHABETS` it takes to write the letters outside
    ASCII of ``text`` (its sample), each in its place (:func:`_odd_places`): 1, 2, or 3 for
    three or more. Vietnamese counts for ``name`` cp1258 alone (no other code page writes
    it: ``lóđrétt``, Icelandic ``lóðrétt`` read as cp1250, is not Vietnamese)."""
    sample = _sample(text)
    letters = frozenset(c.lower()[:1] for c in frozenset(sample) - _ASCII if c.isalpha())
    return _cover_letters(letters | _odd_places(sample) if letters & _PLACED else letters, name == "cp1258")


_VOWELS = frozenset("aeiouyáéíóúýàèìòùâêîôûäëïöüãõåæøœıāēīōūąęėįų")
_PLACED = frozenset("çïëâîûìèêñòøœæð")
_ODD = re.compile("[çïëâîûìèêñòøœæðÇÏËÂÎÛÌÈÊÑÒØŒÆÐ]")
_OE_NEXT = frozenset("uisdtnlc")
_E_CIRCUMFLEX_END = frozenset("clvrdbunhtm")
_DANISH_OE = re.compile(r"(?i)e(?:n[se]?|rne|r[ns]?|ts?)(?![^\W\d_])")
"""The endings of Danish and Norwegian words after ø (``øen``, ``øerne``, ``miljøet``);
Czech ``ře`` in cp1252 goes on otherwise (``otevøení``, ``pøed``)."""
_CIRCUMFLEX_NEXT = {
    "â": frozenset("tgclmnprhbqaeiouyw"),  # âge, pâte, grâce, câble, âme, câmara, Pâques; Châu
    "î": frozenset("tnlmc"),  # île, dîner, maître, abîme, fraîche
    "û": frozenset("rtlcnm"),  # sûr, goût, brûler, bûche, jeûne, fûmes
    "ê": frozenset("tmvcpnqsl"),  # être, même, rêve, pêche, crêpe, chêne, évêque, três, grêle
}
"""The letters that French and Portuguese write after â, î, û and ê in a word."""


def _odd_places(sample: str) -> frozenset[str]:
    """The places of the letters of :data:`_PLACED` that the Western European languages
    do not write, as marks that only the languages of :data:`_LATIN_ALPHABETS` that write
    them there accept (``ç*``: Turkish and Albanian), the others none:

    - ``ç*``: ç before a letter other than a, o, u (``için``; French and Portuguese write
      ``ça``, ``garçon``, ``açúcar``); ``ç!``: ç among three consonants or more, or in a
      word without a vowel (Latvian ``ē`` in cp1252: ``pilsçta``, ``pçc``), but before
      k (Albanian ``diçka``, ``gjithçka``);
    - ``ë*``, ``ï*``: ë or ï after a consonant or first (``Noël``, ``naïf``; Albanian
      ``një``; Lithuanian ``ė`` in cp1252: ``nesëkmingas``, Latvian ``ļ``: ``kïûda``);
    - ``â$``, ``î$``: â or î at a word's end (Latvian ``kâ``; but after h or c: the
      Kanak ``Arhâ``, ``Paicî``); ``â*``, ``î*``, ``û*``, ``ê*``: â, î, û or ê before a letter
      that French and Portuguese do not write after it (Latvian ``krâsa``, ``nederîgs``,
      ``kïûda``; Polish ``jêzyk``), or ê after i but in ``iên`` (``ciência``; ``pamiêci``);
    - ``ì*``: ì before a letter (Italian writes it last: ``così``; Czech ``ě`` in cp1252:
      ``zmìnit``), but Vietnamese ``ình`` and ``ìri`` (``espìrito``);
    - ``è*``, ``ò*``, ``ø*``: è, ò or ø before a vowel (Czech ``č``, ``ň``, ``ř`` in
      cp1252: ``poèet``, ``pøi``, ``otevøení``; but Norwegian ``øya``, the Danish and
      Norwegian endings ``øen``, ``øerne``, ``miljøet``, and Catalan ``conèixer``);
    - ``ñ*``: ñ not before a vowel (Polish ``ń``: ``poleceñ``, ``Kameruñski``);
    - ``ê$``: ê at a word's end after a letter that Portuguese does not write there
      (``você``, ``lê``, ``fazê-lo``; Polish ``ę``: ``siê``, ``proszê``);
    - ``œ*``: œ after a vowel, or before a letter other than those of French words
      (``cœur``, ``œil``, ``œuvre``; Polish ``ś``: ``jeœli``, ``œwiat``);
    - ``æ$``: æ at a word's end after a vowel (Polish ``ć``: ``byæ``);
    - ``ð^``: ð first in a word (Icelandic and Faroese never; Lithuanian ``š``: ``ðis``).

    A letter between two others outside ASCII is not judged (``àèìòù``).
    """
    found: set[str] = set()
    last = len(sample) - 1
    for m in _ODD.finditer(sample):
        k = m.start()
        ch = m.group().lower()
        prev = sample[k - 1].lower() if k else " "
        nxt = sample[k + 1].lower() if k < last else " "
        if prev.isalpha() and nxt.isalpha() and not prev.isascii() and not nxt.isascii():
            continue  # between letters outside ASCII (``àèìòù``): no place to judge
        first = not prev.isalpha()
        end = not nxt.isalpha()
        if ch == "ç":
            if not end and nxt not in "aouâôûãõáóúàò":
                found.add("ç*")
            # the run of consonants around it, and whether its word has a vowel
            a = k
            while a > 0 and sample[a - 1].isalpha() and sample[a - 1].lower() not in _VOWELS:
                a -= 1
            b = k
            while b < last and sample[b + 1].isalpha() and sample[b + 1].lower() not in _VOWELS:
                b += 1
            if nxt == "k":
                pass  # Albanian diçka, gjithçka
            elif b - a >= 2 or ((a == 0 or not sample[a - 1].isalpha()) and (b == last or not sample[b + 1].isalpha())):
                found.add("ç!")
        elif ch in "ëï":
            if first or prev not in _VOWELS:
                found.add(ch + "*")
        elif ch in "âîû":
            if end:
                if not first and ch != "û" and prev not in "hc":  # Arhâ, Cemuhî, Paicî
                    found.add(ch + "$")
            elif nxt not in _CIRCUMFLEX_NEXT[ch] and not (ch == "â" and sample[k + 1 : k + 3].lower() == "ss"):
                found.add(ch + "*")  # but French châssis
        elif ch == "ì":
            if not end and sample[k + 1 : k + 3].lower() not in ("nh", "ri"):  # Vietnamese Bình, espìrito
                found.add("ì*")
        elif ch in "èòø":
            if (
                nxt in _VOWELS
                and not (ch == "ø" and (nxt == "y" or _DANISH_OE.match(sample, k + 1)))  # Norwegian øya, Danish øen
                and not (ch == "è" and sample[k + 1 : k + 3].lower() == "ix")  # Catalan conèixer
            ):
                found.add(ch + "*")
        elif ch == "ñ":
            if nxt not in _VOWELS:
                found.add("ñ*")
        elif ch == "ê":
            if end:
                # Portuguese ``você``, ``lê``, ``fazê-lo``
                if not first and prev not in _E_CIRCUMFLEX_END and nxt != "-":
                    found.add("ê$")
            elif nxt not in _CIRCUMFLEX_NEXT["ê"] or (prev == "i" and nxt != "n") or (
                nxt == "c" and sample[k + 2 : k + 3].lower() != "h"
            ):
                found.add("ê*")  # Polish ``ę``: ``jêzyk``, ``miêdzy``, ``wiêcej``
        elif ch == "œ":
            if prev in _VOWELS or prev == "j" or (nxt not in _OE_NEXT):
                found.add("œ*")
        elif ch == "æ":
            if end and prev in _VOWELS:
                found.add("æ$")
        elif ch == "ð":
            if first and not end:
                found.add("ð^")
    return frozenset(found)


@functools.lru_cache(maxsize=1024)
def _cover_letters(letters: frozenset[str], vietnamese: bool = True) -> int:
    letters -= _NOT_ACCENTED
    alphabets = _LATIN_ALPHABETS if vietnamese else _LATIN_ALPHABETS[:-1]
    if any(letters <= a for a in alphabets):
        return 1
    if any(letters <= a | b for a, b in itertools.combinations(alphabets, 2)):
        return 2
    return 3


_NOT_ACCENTED = frozenset("abcdefghijklmnopqrstuvwxyzªº")
"""Letters that any language of Latin letters writes (the ordinal indicators: ``nº``)."""


@functools.lru_cache(maxsize=4096)
def _latin_word(accented: frozenset[str]) -> bool:
    """Whether one language of :data:`_LATIN_ALPHABETS` writes all the letters ``accented``
    (letters outside ASCII of one word, in either case)."""
    low = frozenset(c.lower()[:1] for c in accented) - _NOT_ACCENTED
    return not low or any(low <= letters for letters in _LATIN_ALPHABETS)


_TURKISH_LETTERS = frozenset("abcçdefgğhıijklmnoöprsştuüvyzâîû")
_TURKISH_VOWELS = frozenset("aeıioöuüâîû")
_TURKISH_BACK = frozenset("aıouâû")
_TURKISH_ONLY = re.compile("[ıİşŞğĞ]")
_TURKISH_FINAL = frozenset("rt rk st nk nt lt rç nç lk rs ns ks ft lç rp rd nd lp rz".split())
"""The two consonants that end Turkish words (``üst``, ``renk``, ``sırt``, ``Türk``)."""
_TURKISH_WORD = re.compile(r"[^\W\d_]*[ıİşŞğĞ][^\W\d_]*")
_TURKISH_LOWER = str.maketrans("Iİ", "ıi")
_TURKISH_Y = re.compile(r"(?<![^\W\d_])y[aeıioöuü]|(?<=[aeıioöuü])y[aeıioöuü]")


def _turkish(text: str) -> bool:
    """Whether the words of ``text`` (its sample) with a letter of Turkish alone (ı İ ş Ş ğ Ğ)
    are Turkish words, with an ı, İ or ş inside a word and one more of them or ğ: Turkish
    letters only, not two consonants first nor last (but ``üst``, ``renk``: :data:`_TURKISH_FINAL`),
    each ı after a back vowel and before one (a ı o u: vowel harmony, ``hatası``), ğ after a
    vowel and not last. cp1252 reads them as ý Ý þ Þ ð Ð (``hatasý``), letters of
    Icelandic, Faroese and Czech; Icelandic's ``að``, ``þetta`` and Czech's ``který`` are
    not Turkish words so read (``ağ``, ``şetta``, ``kterı``)."""
    evidence = 0
    dotless = False  # Icelandic ``eða`` is Turkish ``eğa`` to these rules, but has no ı nor ş
    for word in _TURKISH_WORD.findall(_sample(text)[:2000]):
        low = word.translate(_TURKISH_LOWER).lower()
        if not _TURKISH_LETTERS.issuperset(low):
            return False
        if len(low) > 1 and low[0] not in _TURKISH_VOWELS and low[1] not in _TURKISH_VOWELS:
            return False
        vowel = ""
        for k, c in enumerate(low):
            if c == "ı" and vowel and vowel not in _TURKISH_BACK:
                return False
            if vowel == "ı" and c in _TURKISH_VOWELS and c not in _TURKISH_BACK:
                return False  # a front vowel after ı (``tığingar``: Faroese ``týðingar``)
            if c == "ğ" and (k == 0 or low[k - 1] not in _TURKISH_VOWELS):
                return False
            if c in _TURKISH_VOWELS:
                vowel = c
        # ı or İ count once each (a Czech ``ý`` reads as ı: ``být``, ``bıt``), ş inside a word
        # and ğ twice (no Czech nor Icelandic word has þ inside nor ð before a vowel)
        # (a ğ last counts for nothing: ``ağ``, ``dağ``, but Icelandic ``að``, ``með``)
        evidence += word.count("ı") + word.count("İ") + 2 * (low[:-1].count("ğ") + low[1:].count("ş"))
        if len(low) > 2 and low[-1] not in _TURKISH_VOWELS and low[-2] not in _TURKISH_VOWELS:
            if low[-2:] not in _TURKISH_FINAL:
                return False  # ``uşb``: Icelandic ``uþb``
        # capitals: I is ı or i, İ is i (``MISEYDNAĞIST``: Faroese ``MISEYDNAÐIST``)
        dotless = dotless or "ı" in word or "İ" in word or "ş" in low[1:]
    if dotless and evidence < 2:
        # one ı (``hatası``, ``Kitabı masaya koydum.``): words with a y before a vowel, first
        # or between vowels (``masaya``, ``yok``), which Czech, Slovak and Icelandic, the
        # languages of cp1252's ``ý``, do not write, count too
        evidence += len(_TURKISH_Y.findall(_sample(text)[:2000].translate(_TURKISH_LOWER).lower()))
    return dotless and evidence >= 2


_CYR_VOWELS = frozenset("аеёиоуыэюяіїєѣ")
_CYR_SOFT = frozenset("ьъ")
_CYR_VOICED = _CYR_VOWELS | frozenset("ърл") | frozenset("аеёиоуыэюяіїєѣърл".upper())
"""The letters that make a Cyrillic word pronounceable: vowels, ъ (a vowel in Bulgarian),
syllabic р and л (Serbian ``прст``), in either case."""
_CYR_VOWELS_BOTH = _CYR_VOWELS | frozenset("ъ") | frozenset("аеёиоуыэюяіїєѣъ".upper())
"""Vowels and ъ in either case: a word in capitals needs one (``ВРН``: ``что`` in cp1251
read as KOI8-R), syllabic р and л being Serbian small words."""


def _cyrillic_signs(word: str) -> int:
    """Signs of a misreading in a Cyrillic word, by what no Slavic spelling writes: a soft
    or hard sign (ь, ъ) after a vowel, a word that starts with ь, ъ or ы, й after a
    consonant or before a vowel but о, and a word with no vowel, no ъ and (in small
    letters) no syllabic р or л (``кбй``: Greek ``και`` read as cp1251; Hebrew read as
    cp1251 gives ъ, щ and ш where its frequent letters are), in either case."""
    signs = 1 if word[0] in "ьъыЬЪЫ" else 0
    if "ь" in word or "ъ" in word or "Ь" in word or "Ъ" in word:
        low = word.lower()
        signs += sum(1 for x, y in zip(low, low[1:]) if y in _CYR_SOFT and x in _CYR_VOWELS)
    if "й" in word or "Й" in word:
        # й follows a vowel, or starts a syllable before о (``мой``, ``йод``, ``його``);
        # before another vowel Slavic spelling writes я, е, ю: ``йаи`` is Greek ``ΚΑΙ`` read as KOI8-R
        low = word.lower()
        nxt = low[1:] + " "
        signs += sum(
            1
            for k, (c, after) in enumerate(zip(low, nxt))
            if c == "й" and ((k > 0 and low[k - 1] not in _CYR_VOWELS) or (after in _CYR_VOWELS and after != "о"))
        )
    # a word in capitals has a vowel (syllabic р, л: small letters only) unless an acronym
    voiced = _CYR_VOWELS_BOTH if len(word) >= 2 and word.isupper() else _CYR_VOICED
    if len(word) >= 2 and voiced.isdisjoint(word) and word not in _CYR_UNITS and word not in _CYR_ACRONYMS:
        signs += 1
    return signs


_GREEK_VOWELS = frozenset("αεηιουωάέήίόύώϊϋΐΰ")


def _greek_signs(word: str) -> int:
    """Signs of a misreading in a Greek word: a final sigma (ς) inside the word, and a
    word with no vowel, in either case (``ςμ``: Hebrew ``על`` read as cp1253)."""
    signs = word[:-1].count("ς") if "ς" in word else 0
    if len(word) >= 2 and _GREEK_VOWELS.isdisjoint(word.lower()):
        signs += 1
    return signs


_CYR_UNITS = frozenset("км см мм дм кг мг гг вв шт кв ст".split())
"""Words of small Cyrillic letters without a vowel that text writes: units, abbreviations."""
_CYR_ACRONYMS = frozenset("США СССР РФ КГБ ФСБ МВД МЧС ЦК ТВ ФРГ ГДР СНГ ВВП ДНК ЖКХ ГК ТК".split())
"""Words of Cyrillic capitals without a vowel that text writes: common acronyms."""
_HEB_FINAL = frozenset("ךםןףץ")
_HEB_MEDIAL = frozenset("כמנפצ")


def _hebrew_signs(word: str, end: bool) -> int:
    """Signs of a misreading in a Hebrew word: a final letter form (ך ם ן ף ץ) inside the
    word, and at its end (``end``: not cut by a vowel point) the medial form of one of those
    letters (``שמ``: Ukrainian ``що`` read as cp1255)."""
    signs = sum(1 for c in word[:-1] if c in _HEB_FINAL)
    if end and len(word) >= 2 and word[-1] in _HEB_MEDIAL:
        signs += 1
    return signs


def _sample(text: str) -> str:
    """The part of ``text`` checked for signs of a wrong code page: :data:`_SAMPLE`
    characters from a little before the first one outside ASCII (where code pages differ)."""
    first = _NON_ASCII.search(text)
    start = max(0, first.start() - 200) if first else 0
    return text[start : start + _SAMPLE]


def _rare_hangul(text: str) -> int:
    """How many Hangul syllables of ``text`` (its first :data:`_SAMPLE` characters) are
    not among the 2,350 common ones of KS X 1001 (not encodable in EUC-KR)."""
    rare = 0
    for ch in set(_sample(text)):
        if "\uac00" <= ch <= "\ud7a3":
            try:
                if len(ch.encode("euc_kr")) != 2:
                    rare += 1
            except UnicodeEncodeError:
                rare += 1
    return rare


_FAMILY = {
    codecs.lookup(name).name: family
    for family, names in (
        ("zh_hans", "gb2312 gbk gb18030 hz"),
        ("zh_hant", "big5 cp950 big5hkscs"),
        ("ja", "shift_jis cp932 shift_jis_2004 shift_jisx0213 euc_jp euc_jis_2004 euc_jisx0213"),
        ("ko", "euc_kr cp949 johab"),
    )
    for name in names.split()
}
"""The language of each East Asian multi-byte encoding, for :func:`_fluency`."""


@functools.lru_cache(maxsize=8192)
def _common(ch: str, family: str) -> bool:
    """Whether ``ch`` is a common character of text in the language of ``family`` (see
    :data:`_FAMILY`), by the frequency tiers of that language's national character set:
    the 3,755 hanzi of GB 2312 level 1 (Simplified Chinese), the 5,401 frequent hanzi of
    Big5 (``A440``-``C67E``, Traditional Chinese), kana and the 2,965 kanji of JIS X 0208
    level 1 (Japanese), the 2,350 Hangul syllables of KS X 1001 (Korean); CJK punctuation
    and full-width forms in every one."""
    if "\u3000" <= ch <= "\u303f" or "\uff01" <= ch <= "\uff5e" or ch in "‘’“”…—·":
        return True
    try:
        if family == "zh_hans":
            code = ch.encode("gb2312")
            return len(code) == 2 and 0xB0 <= code[0] <= 0xD7
        if family == "zh_hant":
            code = ch.encode("big5")
            return len(code) == 2 and 0xA440 <= int.from_bytes(code, "big") <= 0xC67E
        if family == "ja":
            if "\u3041" <= ch <= "\u30fc":
                return True
            code = ch.encode("euc_jp")
            return len(code) == 2 and 0xB0 <= code[0] <= 0xCF
        return "\uac00" <= ch <= "\ud7a3" and len(ch.encode("euc_kr")) == 2
    except UnicodeEncodeError:
        return False


def _fluency(text: str, name: str) -> float:
    """The share of the characters of ``text`` (its :func:`_sample`; ASCII and white space
    not counted) that are common in the language of the East Asian encoding ``name``
    (:func:`_common`); 0.0 for another encoding.

    The East Asian encodings read each other's bytes as valid characters, but seldom as
    common ones: Big5 read as GBK gives kana, symbols and the rare hanzi of GBK's
    extension (``繁體中文`` -> ``羉砰いゅ``), GB 2312 read as EUC-KR gives Hanja between
    the syllables, Shift JIS half-width katakana. Real text of the language is nearly all
    common characters."""
    family = _FAMILY.get(name)
    if family is None:
        return 0.0
    chars = [c for c in _sample(text)[:2000] if c >= "\x80" and not c.isspace()]
    return sum(1 for c in chars if _common(c, family)) / len(chars) if chars else 0.0


_FLUENT = 0.9
"""The :func:`_fluency` from which an East Asian reading is taken over single-byte ones
(the detector's measure of chaos is as calm for those on a few characters)."""


_SHORT = 64
"""Data of at most this many bytes is short: the detector's measures say little on it."""
_LATIN_PAGES = ("cp1250", "iso8859-2", "cp1254", "cp1257")
_LATIN_SHORT = 1024
_ICELANDIC = re.compile("[ýþðÝÞÐ]")
"""The code pages of Central European, Turkish and Baltic text, measured when the detector
does not propose them, on data of at most :data:`_LATIN_SHORT` bytes whose cp1252 reading
has the letters those code pages put elsewhere (:data:`_ICELANDIC`, :func:`_odd_places`),
or when every candidate shows a sign of a wrong code page (on longer data: and the one
with the fewest reads Latin letters)."""
_ALPHABET_PAGES = ("cp1251", "koi8_r", "cp1253", "cp1255")
"""The code pages of the common non-Latin alphabets (Cyrillic, Greek, Hebrew), measured
on short data when the detector does not propose them."""


@functools.lru_cache(maxsize=1)
def _letter_ranks() -> dict[str, list[dict[str, int]]]:
    """For each script, the letters of each language written in it by frequency rank
    (charset-normalizer's tables of the most frequent letters)."""
    try:
        from charset_normalizer.constant import FREQUENCIES
    except ImportError:
        return {}
    out: dict[str, list[dict[str, int]]] = {}
    for letters in FREQUENCIES.values():
        scripts = {_script(c) for c in letters if c >= "\x80"}
        if len(scripts) == 1:
            out.setdefault(scripts.pop(), []).append({c: k for k, c in enumerate(letters)})
    return out


def _latin_letters(text: str) -> bool:
    """Whether ``text`` has a Latin letter outside ASCII."""
    return any(c >= "\x80" and c.isalpha() and _script(c) == "LATIN" for c in text[:_SAMPLE])


_WESTERN_LETTERS = frozenset("àáâãäåæçèéêëìíîïñòóôõöøùúûüÿßœÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜŒ")
"""The letters outside ASCII of French, German, Spanish, Portuguese, Italian, Dutch and the
Nordic languages but Icelandic (whose ð, þ and ý are what Turkish gives in cp1252), but š
and ž (what Czech gives); œ only before u, i, d, s or t (``cœur``, ``œil``, ``Œdipe``,
``œsophage``, ``fœtus``: Polish ``ś`` is ``œ`` in cp1252, ``jeœli``, ``coœ``)."""
_OE = re.compile("[œŒ](?![uidstUIDST])")
_WESTERN_MARKS = frozenset("«»‘’“”„–—…€£©®™°ºª¡¿×\xa0")
"""Punctuation and symbols outside ASCII that Western European text writes beside its words."""
_RUN = re.compile(r"\S+")
_ASCII_WORD = re.compile("[A-Za-z0-9]")
_ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


def _western(text: str) -> bool:
    """Whether ``text`` (its sample) reads as Western European text: no character outside ASCII but
    the letters of :data:`_WESTERN_LETTERS` and the marks of :data:`_WESTERN_MARKS`; no mark
    between two letters or digits (but ``’``, ``–``, ``—``: ``l’été``), no ``£`` or ``€``
    beside a letter (``ZOSTA£``: Polish ``ZOSTAŁ``), ``¡`` and ``¿`` before a letter or
    digit and not after a letter (``mo¿e``: Polish ``może``; ``¿¡``: Korean ``에``), ``°``
    after a digit or a space, ``º`` and ``ª`` after an ASCII letter or digit (``nº``,
    ``1ª``), ``×`` between digits only (``4×6``); marks alone (no such letter: ``‘%s’``) in
    a text with an ASCII letter or digit, each between ASCII characters or marks; else each
    run of characters between spaces that has a character outside ASCII also has an ASCII
    letter or digit (``Garçon``, ``«\xa0déjà\xa0»``, ``270°``) or is one letter or mark alone
    (``à``, ``è:``, ``–``), ASCII punctuation at its ends aside, with no accented capital
    after a small letter. East Asian text read as cp1252 gives runs of accented letters and symbols
    (``°¡·Î``, ``%sÀÇ``), the alphabets words of accented letters only."""
    sample = _sample(text)
    found = frozenset(sample) - _ASCII
    if not found or not found <= _WESTERN_LETTERS | _WESTERN_MARKS:
        return False
    if ("œ" in found or "Œ" in found) and _OE.search(sample):
        return False
    alone = found.isdisjoint(_WESTERN_LETTERS)
    if alone and not _ASCII_WORD.search(sample):
        return False  # marks without a word: ``°®`` (Chinese ``爱``)
    if not found <= _WESTERN_LETTERS:
        last = len(sample) - 1
        for m in _NON_ASCII.finditer(sample):
            ch = m.group()
            if ch in _WESTERN_LETTERS:
                continue
            k = m.start()
            prev = sample[k - 1] if k else " "
            nxt = sample[k + 1] if k < last else " "
            if prev.isalnum() and nxt.isalnum() and ch not in "’–—" and not (ch == "×" and prev.isdigit()):
                return False
            if ch in "£€" and (prev.isalpha() or nxt.isalpha()):
                return False
            if ch in "¡¿" and (prev.isalpha() or not (nxt.isalnum() or nxt.isascii() and not nxt.isspace())):
                return False
            if ch == "°" and not (prev.isdigit() or prev == " "):
                return False
            if ch in "ºª" and not (prev.isascii() and prev.isalnum()):
                return False
            if alone and not ((prev.isascii() or prev in _WESTERN_MARKS) and (nxt.isascii() or nxt in _WESTERN_MARKS)):
                return False
    if alone:
        return True
    for run in _RUN.findall(sample):
        run = run.strip(_ASCII_PUNCTUATION)
        if len(run) > 1 and not run.isascii():
            if not any(c.isascii() and c.isalnum() for c in run):
                return False
            if any(b in _WESTERN_LETTERS and b.isupper() and a.islower() for a, b in zip(run, run[1:])):
                return False  # a capital after a small letter: ``%sÀÇ`` (Korean ``%s의``)
    return True


def _letter_fluency(text: str) -> float:
    """How frequent the characters outside ASCII of ``text`` are in a language of the
    alphabet of its letters: the mean over them of ``1 - rank / n`` for a letter of rank
    ``rank`` among the language's ``n`` frequent ones (1 for the most frequent), 0 else
    (a rare letter, a digit, a symbol, a space or a mark outside ASCII), for the language
    that scores best; 0.0 when the letters mix scripts or are East Asian. Capitals count
    as their small letters (``МОСКВА`` as ``москва``)."""
    chars = [c.lower() for c in _sample(text)[:2000] if c >= "\x80"]
    scripts = {_script(c) for c in chars if c.isalpha()}
    if len(scripts) != 1:
        return 0.0
    best = 0.0
    for ranks in _letter_ranks().get(scripts.pop(), []):
        score = sum(1.0 - ranks[c] / len(ranks) if c in ranks else 0.0 for c in chars) / len(chars)
        best = max(best, score)
    return best


def _has_small(text: str) -> bool:
    """Whether ``text`` (its sample) has a small Cyrillic or Greek letter."""
    return any(c.islower() and _script(c) in _CASED for c in _sample(text)[:2000])


def _scripts(text: str) -> frozenset[str]:
    """The scripts of the letters outside ASCII of ``text`` (its sample)."""
    return frozenset(_script(c) for c in frozenset(_sample(text)[:2000]) - _ASCII if c.isalpha())


def _capitals(text: str) -> bool:
    """Whether the words of two letters or more of ``text`` (its sample) are all in capitals."""
    words = re.findall(r"[^\W\d_]{2,}", _sample(text)[:2000])
    return bool(words) and all(w.isupper() for w in words)


def _glued(text: str) -> bool:
    """Whether each East Asian character of ``text`` (its sample) stands alone between
    characters of other scripts, beside an ASCII letter (``mo瞠``, ``P軣 tam``)."""
    sample = _sample(text)[:2000]
    last = len(sample) - 1
    found = False
    for k, c in enumerate(sample):
        if c >= "\u2e80" and _script(c) == "CJK":
            prev = sample[k - 1] if k else " "
            nxt = sample[k + 1] if k < last else " "
            if prev >= "\u2e80" or nxt >= "\u2e80":
                return False
            if not ((prev.isascii() and prev.isalpha()) or (nxt.isascii() and nxt.isalpha())):
                return False
            found = True
    return found


_SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー")
_KANA_WORD = re.compile("[\u3041-\u3096]+|[\u30a1-\u30fc]+|[\u4e00-\u9fff\u3005]+[\u3041-\u3096]+")
_WIDE_RUN = re.compile(r"[^\x00-\x7f\s]+")
_KANJI_HEAD = re.compile("^[\u4e00-\u9fff\u3005]+")


def _kana_only(text: str) -> bool:
    """Whether each run of characters of ``text`` outside ASCII is a Japanese word of kana:
    hiragana only, katakana only (with the prolonged sound mark), or kanji followed by
    hiragana (``表示する``), its kana not starting with a small one nor ``ー`` (``ません``,
    ``ファイル``; Big5 read as EUC-JP mixes kana with kanji otherwise: ``ア英``, ``や刊``)."""
    runs = _WIDE_RUN.findall(text[:2000])
    if not runs:
        return False
    for run in runs:
        if not _KANA_WORD.fullmatch(run):
            return False
        kana = _KANJI_HEAD.sub("", run)  # the kana after the kanji
        if len(run) < 2 or kana[0] in _SMALL_KANA:
            return False
    return True


_FREQUENT_TABLE = {"zh_hans": "Chinese", "zh_hant": "Chinese", "ja": "Japanese", "ko": "Korean"}


def _frequent_share(text: str, family: str) -> float:
    """The share of the characters of ``text`` outside ASCII (white space not counted)
    that are among the most frequent of the language of ``family`` (charset-normalizer's
    tables: 100 hanzi, 79 Japanese characters, 26 Hangul syllables)."""
    try:
        from charset_normalizer.constant import FREQUENCIES
    except ImportError:
        return 0.0
    table = frozenset(FREQUENCIES.get(_FREQUENT_TABLE[family], ()))
    chars = [c for c in text[:2000] if c >= "\x80" and not c.isspace()]
    return sum(1 for c in chars if c in table) / len(chars) if chars else 0.0


_CAPITALS = 0.9
"""The weight of the letter score of a reading in capitals only: small letters are what
most text is made of, and a code page that swaps the cases (KOI8-R beside cp1251) reads
small letters as capitals; a little less, so that the letters' frequency still decides."""
_MIRRORED = 0.5
_MIRROR_FLUENT = 0.7
"""A reading in capitals only weighs :data:`_MIRRORED` when cp1251 or KOI8-R gives a
reading with small letters whose letters score :data:`_MIRROR_FLUENT` or more: the two
code pages read each other's small letters as capitals, and small letters are what
most text is made of."""
_LETTER_TIE = 0.1
"""Readings of one alphabet whose letter scores are within this of the best one's count
as equal: the most common code page among them wins (cp1251 before KOI8-R)."""
_RARE_SHARE = 0.3
_WORD_FLUENT = 0.6
_PAIR_FLUENT = 0.75
"""An alphabet's reading of short data is taken over a fluent East Asian one that has
less than :data:`_RARE_SHARE` of its language's most frequent characters (Russian
capitals in cp1251 are common hanzi in GB 2312: ``МОСКВА`` is ``涛咽吕``) when its letters
score :data:`_WORD_FLUENT` (measured on word lists), :data:`_PAIR_FLUENT` for two letters
(one hanzi: ``ДА``, ``ОК``)."""


_HALF_WIDTH = re.compile("[\uff61-\uff9f]")
_FULL_WIDTH_JAPANESE = re.compile("[\u3041-\u30ff\u3400-\u9fff]")
_FULL_WIDTH_KANA = re.compile("[\u3041-\u30ff]")
_HALF_WIDTH_SHARE = 0.5
_CYRILLIC_PAGES = frozenset(codecs.lookup(n).name for n in ("koi8_r", "koi8_u", "cp1251"))
"""The Cyrillic code pages whose small letters Shift JIS reads as half-width katakana
(KOI8-R and KOI8-U) or whose reading is taken with theirs (cp1251)."""


def _half_width_only(text: str, kanji: bool = False) -> bool:
    """Whether the characters of ``text`` (its sample) outside ASCII are mostly (half or
    more) half-width katakana, with no kana or kanji of full width (``kanji``: kanji
    allowed): Japanese text writes half-width katakana seldom, and among other Japanese;
    KOI8-R's small letters are those bytes in Shift JIS (``ошибка`` is ``ﾏﾛﾉﾂﾋﾁ``), and
    its capitals lead bytes of kanji (``Києва`` in KOI8-U is ``毖､ﾗﾁ``)."""
    chars = [c for c in _sample(text)[:2000] if c >= "\x80" and not c.isspace()]
    if not chars or (_FULL_WIDTH_KANA if kanji else _FULL_WIDTH_JAPANESE).search("".join(chars)):
        return False
    return sum(1 for c in chars if _HALF_WIDTH.match(c)) >= _HALF_WIDTH_SHARE * len(chars)


_VOICED_BASES = {"\uff9e": frozenset("ｳｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾊﾋﾌﾍﾎ"), "\uff9f": frozenset("ﾊﾋﾌﾍﾎ")}
"""The half-width katakana that take a voiced sound mark (``ﾞ``) or a semi-voiced one (``ﾟ``)."""


def _half_width_japanese(data: bytes) -> str | None:
    """The Shift JIS (cp932) reading of ``data`` when it is Japanese with half-width
    katakana: no sign of a wrong code page (:func:`implausible`, its katakana made
    full-width), a voiced or semi-voiced
    sound mark or more, each after a katakana that takes it, and no KOI8 reading of
    Cyrillic words (KOI8's ``ч`` and ``ъ`` are those marks: ``ﾅﾞ``, ``еч``); else None."""
    try:
        text = data.decode("cp932")
    except UnicodeDecodeError:
        return None
    sample = _sample(text)
    marks = [i for i, c in enumerate(sample) if c in _VOICED_BASES]
    if not marks or implausible(unicodedata.normalize("NFKC", sample)):
        # measured in full-width katakana: half-width katakana beside kanji (``ﾀﾛｳ様``)
        # is a sign in text the detector read (GBK read as Shift JIS), not here
        return None
    if any(i == 0 or sample[i - 1] not in _VOICED_BASES[sample[i]] for i in marks):
        return None
    for name in sorted(_KOI8):
        own = data.decode(name)
        if implausible(_sample(own)) == 0 and _cyrillic_words(own):
            return None
    return text


_CYRILLIC_ORDER = ("cp1251", "koi8-r", "koi8-u")
"""The Cyrillic code pages tried on short text read as rare East Asian characters or as
Hebrew among points, most common first (KOI8-R before KOI8-U when they read alike)."""
_CYRILLIC_SHORT_FLUENT = 0.5
"""The letter score (:func:`_letter_fluency`) from which such a Cyrillic reading is taken:
a little below :data:`_WORD_FLUENT`, the other readings being implausible (``Це мій дім.``)."""
_HEBREW_POINTS = re.compile("[\u0591-\u05c7]")


def _implausible_reading(c: tuple[Any, ...]) -> bool:
    """Whether the reading ``c`` of short text is unlikely: an East Asian one not made of its
    language's common characters (:func:`_fluency` under :data:`_FLUENT`), or a cp1255 one
    whose letters are rare in Hebrew, with points (``ףֱּ׳ֱ``: KOI8-U's ``Слава``)."""
    text, name = c[4], c[5]
    if name in _FAMILY:
        return _fluency(text, name) < _FLUENT
    if name == "cp1255":
        return _HEBREW_POINTS.search(_sample(text)) is not None and _letter_fluency(text) < _RARE_SHARE
    return False


_KOI8 = frozenset({"koi8-r", "koi8-u"})
_KOI8_U_LETTERS = re.compile(b"[\xa4\xa6\xa7\xad\xb4\xb6\xb7\xbd]")
"""The bytes of KOI8-U's і ї є ґ (and capitals), box drawing in KOI8-R."""


def _capitals_in(text: str) -> bool:
    """Whether ``text`` (its sample) has a capital letter outside ASCII."""
    return any(c >= "\x80" and c.isupper() for c in _sample(text)[:2000])


def _cyrillic_words(text: str) -> bool:
    """Whether the characters of ``text`` (its sample) outside ASCII, white space aside, are
    Cyrillic letters only, three or more, small ones among them, scoring
    :data:`_CYRILLIC_SHORT_FLUENT` or more (:func:`_letter_fluency`)."""
    chars = [c for c in _sample(text)[:2000] if c >= "\x80" and not c.isspace()]
    return (
        len(chars) > 2
        and all(c.isalpha() and _script(c) == "CYRILLIC" for c in chars)
        and _has_small(text)
        and _letter_fluency(text) >= _CYRILLIC_SHORT_FLUENT
    )


_BALTIC_PAGES = frozenset({"cp1257", "iso8859-13"})
"""The code pages of Lithuanian and Latvian text."""
_BALTIC_WORDS = frozenset(
    # Lithuanian
    "nėra dėl kodėl vėl vėliau būti buvę būtų turėti turėjo galėjo reikėjo žmonės žmogus ačiū "
    "jūs mūsų jūsų čia šis ši šio šios šį šiuo šiandien kiekvienas daugiau mažiau "
    "galėtų turėtų įvyko įrašas įrašyti įjungti išjungti ištrinti išsaugoti uždaryti atidaryti "
    "failą failų klaidą klaidų pasirinkite naujų visų kitų kurį kurią žinoma nežinoma "
    "už "
    # Latvian
    "kā tā arī līdz pēc vēl viņš viņa viņi mēs jā nē būt būs ļoti lūdzu šodien rīt "
    "kļūda kļūdu iestatījumi izvēlēties saglabāt atvērt aizvērt rādīt dzēst mājas māja "
    "jāizvēlas jānorāda nevarēja vērtība vērtību ievadiet šis šī šo".split()
)
"""Frequent Lithuanian and Latvian words with a letter outside ASCII: each one in a Baltic
reading counts as evidence of it (:func:`_baltic`)."""
_BALTIC_ASCII_WORDS = frozenset(
    # Lithuanian
    "yra kad kaip taip arba labai jeigu buvo gali galima negalima reikia nepavyko klaida "
    "failas failo savo dabar namie tarp apie prie nuo kuris kuri kurie viskas naudoti labas rytoj "
    # Latvian
    "nav bija nevar tikai lai paldies sveiki labdien fails faila".split()
)
"""Frequent Lithuanian and Latvian words of ASCII letters that Western European languages do
not write: context for a Baltic reading (:func:`_baltic`)."""
_BALTIC_LETTERS = frozenset("ąčęėįšųūžāēģīķļņ")
_BALTIC_EVIDENCE = 2
"""The evidence (:func:`_baltic`) from which a Baltic reading in one language's letters is
taken over other such readings."""
_WORD = re.compile(r"[^\W\d_]+")


_LITHUANIAN_ENDS = re.compile(r"[^\W\d_]{2}[^\W\d_aeiouyjáéíóúýàèìòùâêîôûäëïöüãõåæøœ]ø(?![^\W\d_])|[^\W\d_]{2}iø(?![^\W\d_])")
"""Words of cp1252 that end in ø after a consonant but j, or after i, four letters or more:
Lithuanian's ų (``failø``), which Danish and Norwegian end few words with."""


def _baltic(text: str) -> int:
    """Evidence that ``text`` (its sample), a reading in Latin letters, is Lithuanian or
    Latvian: 2 for each of its words among :data:`_BALTIC_WORDS` (``nėra``, ``lūdzu``), 1
    for each among :data:`_BALTIC_ASCII_WORDS` (``yra``, ``nav``) and for each word of four
    letters or more that ends in ``ų`` after a consonant but j, or after i (the Lithuanian
    genitive plural: ``failų``, ``vokiečių``; Danish and Norwegian end few words in ``ø``,
    the same byte in cp1252, and ``miljø`` after j). 0 for a text with a letter that
    neither language writes."""
    evidence = 0
    for word in _WORD.findall(_sample(text)[:2000].lower()):
        if word in _BALTIC_WORDS:
            evidence += 2
        elif word in _BALTIC_ASCII_WORDS:
            evidence += 1
        elif len(word) >= 4 and word[-1] == "ų" and (word[-2] == "i" or word[-2] not in _VOWELS | {"j"}):
            evidence += 1
    return evidence


def _calmest(pool: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The candidate of ``pool`` with the least chaos, the most common code page among
    those within 0.1 of it (0.01 between East Asian multi-byte encodings: their
    misreadings of each other are valid characters, told apart by that measure alone;
    charset-normalizer's measure varies by 0.1 between code pages that give the same
    letters)."""
    calm = min(c[1] for c in pool)
    return min((c for c in pool if c[1] <= calm + (0.01 if c[5] in _MULTIBYTE else 0.1)), key=lambda c: (c[2], c[3]))


def _rank(name: str) -> int:
    # the rare DOS and Mac code pages last; the Kazakh ones after them (they read the
    # capitals of mac-cyrillic as Kazakh letters: ``қто`` for ``Это``)
    if name in ("kz1048", "ptcp154"):
        return len(_RANK) + 20
    return _RANK.get(name, len(_RANK) + (10 if name.startswith(("mac", "cp4", "cp7", "cp8", "cp10", "cp11")) else 0))


_VIETNAMESE_ONLY = re.compile("[ĂăĐđƠơƯư\u0300\u0301\u0303\u0309\u0323]|(?<![^\\W\\d_])₫(?![^\\W\\d_])")
"""What cp1258 reads where cp1252 reads other characters: Vietnamese letters, tone marks,
and the dong sign where it is a price's (not against a letter)."""


def _detect(data: bytes, source: str, quiet: bool = False) -> tuple[str, str, int]:
    """The legacy encoding of ``data`` (step 7 of this module's rule): ``(text, codec,
    signs of a wrong code page)``; ``quiet``: log nothing (the caller may not use it).

    Detected on :data:`_PREFIX` bytes from the line of the first byte over 127 (cut after
    a line end) when the file is longer, then the whole is decoded strictly with that
    codec; on all of it when that fails (those bytes were not enough)."""
    if len(data) > 2 * _PREFIX:
        high = _HIGH_BYTE.search(data)
        start = data.rfind(b"\n", 0, high.start()) + 1 if high else 0
        cut = data.rfind(b"\n", start, start + _PREFIX) + 1
    else:
        start = cut = 0
    if cut - start > _PREFIX // 2:
        _, name, signs = _detect_all(data[start:cut], source, quiet)
        try:
            return data.decode(name), name, signs
        except UnicodeDecodeError:
            pass
    return _detect_all(data, source, quiet)


def _detect_all(data: bytes, source: str, quiet: bool) -> tuple[str, str, int]:
    try:
        from charset_normalizer import from_bytes
        from charset_normalizer.md import mess_ratio
    except ImportError:
        if quiet:
            raise
        raise LoadError(
            f"{source}: not valid UTF-8, and detecting a legacy encoding needs the package "
            "'charset-normalizer': pip install 'chunkwise[encodings]', or give the encoding "
            "(encoding='cp1252', --encoding cp1252)"
        ) from None
    results = list(from_bytes(data))
    if not results:
        japanese = _half_width_japanese(data)
        if japanese is not None:
            # the detector's chaos limit rejects Japanese dense in half-width katakana
            # (``ｺﾋﾟｰ用紙 A4 500枚 ﾎﾜｲﾄ``); its voiced sound marks tell it from KOI8
            return japanese, "cp932", 0
        try:
            western = data.decode("cp1252")
        except UnicodeDecodeError:
            western = ""
        if western and implausible(_sample(western)) == 0 and _western(western):
            # the detector's chaos limit rejects every reading of text dense in accented
            # letters and quotes; Western European text in cp1252 is still text
            return western, "cp1252", 0
        raise LoadError(
            f"{source}: not valid UTF-8, nor text in any encoding charset-normalizer knows (binary data?); "
            "give the encoding (encoding=...) if it is text"
        )
    # candidates: (signs, chaos, rank, order, text, name, coherence)
    cands: dict[str, tuple[Any, ...]] = {}
    by_text: dict[str, tuple[float, float]] = {}
    for order, r in enumerate(results):
        text = str(r)
        by_text.setdefault(text, (r.chaos, r.coherence))
        names = [r.encoding] + [n for n in (getattr(r, "could_be_from_charset", None) or []) if n != r.encoding]
        for raw in names:
            try:
                name = codecs.lookup(raw).name
            except LookupError:
                continue
            if name in cands:
                continue
            own, chaos, coherence = text, r.chaos, r.coherence
            if raw != r.encoding:
                # the detector's "could be from" may name code pages that read the bytes
                # otherwise (cp1252 beside UTF-16-LE for b"Stra\xdfe"): their own text, measured
                try:
                    own = data.decode(name)
                except UnicodeDecodeError:
                    continue
                if own != text:
                    chaos, coherence = by_text.get(own) or (mess_ratio(own[:_SAMPLE]), 0.0)
            cands[name] = (implausible(_sample(own)), chaos, _rank(name), order, own, name, coherence)
    try:
        western = data.decode("cp1252")
    except UnicodeDecodeError:
        western = None
    if western is not None and "cp1252" not in cands:  # not proposed: measured as the detector would
        chaos, coherence = by_text.get(western, (1.0, 0.0))
        signs = implausible(_sample(western))
        cands["cp1252"] = (signs, chaos, _rank("cp1252"), len(results), western, "cp1252", coherence)

    def measure(name: str, order: int) -> bool:
        """Measure the reading of ``data`` in ``name`` as a candidate the detector did not
        propose (its place ``order`` among them); False when the bytes do not decode."""
        try:
            own = data.decode(name)
        except UnicodeDecodeError:
            return False
        chaos, coherence = by_text.get(own) or (mess_ratio(own[:_SAMPLE]), 0.0)
        cands[name] = (implausible(_sample(own)), chaos, _rank(name), order, own, name, coherence)
        return True

    short = len(data) <= _SHORT
    if short:
        # a few bytes: the detector proposes East Asian readings only (its measures need
        # more text); the common alphabets' code pages are measured too
        for extra, name in enumerate(_ALPHABET_PAGES):
            name = codecs.lookup(name).name  # "koi8-r", the name the detector's candidates have
            if name not in cands:
                measure(name, len(results) + 1 + extra)
    if any(_FAMILY.get(c[5]) == "ja" and _half_width_only(c[4], kanji=True) for c in cands.values()):
        # a Shift JIS reading mostly in half-width katakana, with no kana of full width: what
        # KOI8's letters give (``ﾏﾛﾉﾂﾋﾁ``; its capitals are lead bytes of kanji); the
        # detector may propose no KOI8 reading beside it (``Сьогодні ввечері ...`` in
        # KOI8-U): KOI8-R and KOI8-U measured too
        for extra, name in enumerate(sorted(_KOI8)):
            if name not in cands:
                measure(name, len(results) + 6 + extra)
    if "koi8-r" in cands and "koi8-u" not in cands and _KOI8_U_LETTERS.search(data):
        # KOI8-R reads KOI8-U's і, ї, є and ґ as box drawing (``веч╕р``): KOI8-U measured too
        measure("koi8-u", len(results) + 5)
    least = min(cands.values(), key=lambda c: c[0])
    signed = least[0] > 0
    added: set[str] = set()
    if western is not None and (len(data) <= _LATIN_SHORT or (signed and _scripts(least[4]) == {"LATIN"})):
        # the detector leaves out code pages of Latin letters on short text (``Başarısız``
        # in cp1254, ``Ķēķis`` in cp1257): measured too, when every candidate shows a sign,
        # or cp1252 reads Icelandic letters (cp1254: ``Baþarýsýz``), or shows a sign,
        # letters where no language writes them or text that is not Western European (the
        # others: ``mo¿e``, ``pilsçta``, ``B£¥D``)
        sample = _sample(western)
        turkish = signed or _ICELANDIC.search(sample) is not None
        odd = (
            signed
            or cands["cp1252"][0] > 0
            or bool(_odd_places(sample))
            or (not turkish and not _western(western))
            or len(_LITHUANIAN_ENDS.findall(sample)) >= _BALTIC_EVIDENCE
        )
        if (turkish or odd) and western not in by_text:
            # cp1252 measured as they are (not proposed, its chaos was left at 1.0)
            c = cands["cp1252"]
            cands["cp1252"] = (c[0], mess_ratio(western[:_SAMPLE]), *c[2:])
        for extra, name in enumerate(_LATIN_PAGES):
            if name in cands or not (turkish if name == "cp1254" else odd):
                continue
            if measure(name, len(results) + 10 + extra):
                added.add(name)
    fewest = min(c[0] for c in cands.values())
    pool = [c for c in cands.values() if c[0] == fewest]
    latin = cands.get("cp1252")
    western = latin is not None and latin[0] == fewest and _western(latin[4])
    covers = {}
    baltic = [
        c for c in pool
        if c[5] in _BALTIC_PAGES and not _BALTIC_LETTERS.isdisjoint(_sample(c[4])[:2000].lower())
        and _baltic(c[4]) >= _BALTIC_EVIDENCE and _cover(c[4], c[5]) == 1
    ]
    if baltic:
        # Lithuanian or Latvian words in their letters (``nėra``, ``failų``, ``lūdzu``), and
        # readings of other languages' letters (Albanian ``nëra``, Danish ``failø``, Czech
        # ``ďoti``, Hungarian ``Lűdzu``): the Baltic reading
        pool = [c for c in pool if c[4] == baltic[0][4]]
    elif western and not _odd_places(_sample(latin[4])):
        # Western European text in cp1252 (or latin-1) with no sign: read so, whatever
        # the measures of chaos say (``déjà`` is chaos to them, ``déją`` is not)
        pool = [latin]
    else:
        covers = {c[5]: _cover(c[4], c[5]) for c in pool if _scripts(c[4]) == {"LATIN"}}
        if western and (covers.get("cp1252") == 1 or min(covers.values(), default=1) > 1):
            # Western European letters, some where those languages do not write them
            # (``için``: Turkish; ``bình``), and no other reading in one language's letters
            # and places (``pilsçta`` is Latvian ``pilsēta``): cp1252 still
            pool = [latin]
        elif len(covers) > 1 and min(covers.values()) == 1 < max(covers.values()):
            # readings in Latin letters, one of them in the letters of one language: those
            # (``šablone nepalaikomų``: Lithuanian; ``ðablone nepalaikomø``: Icelandic and Danish);
            # when every reading shows a sign, cp1252 stays with them, and the most common code
            # page among the calmest wins below (a stray UTF-8 ``é`` in cp1252 text, ``cafÃ©``,
            # is not cp1258's Vietnamese-lettered ``cafĂ©``, nor cp775's ``caf├®``, whose
            # letters are one language's, nor cp1256's ``cafأ©``, another script's reading)
            pool = [c for c in pool if covers.get(c[5], 1) == 1 or (fewest and c is latin)]
        if any(v == 1 for v in covers.values()):
            # a reading in one language's letters, and East Asian readings whose characters stand
            # alone beside ASCII letters (``mo瞠``: Polish ``może`` read as Big5): the former
            pool = [c for c in pool if not (c[5] in _FAMILY and _glued(c[4]))]
        turkish = [
            c for c in pool
            if pool != [latin] and covers.get(c[5]) == 1 and _TURKISH_ONLY.search(_sample(c[4])) and _turkish(c[4])
        ]
        if turkish:
            # Turkish words in Turkish letters (``hatası``), not Icelandic or Czech letters
            # where Turkish has its own (cp1252's ``hatasý``)
            pool = [c for c in pool if c[4] == turkish[0][4]]
        elif latin in pool and covers.get("cp1252") == 1:
            # the code pages measured above win over cp1252 by their letters alone, not by
            # the measures of chaos (Faroese ``NÝGUINEA`` is not Turkish ``NİGUINEA``)
            pool = [c for c in pool if c[5] not in added]
    hankaku = [c for c in pool if _FAMILY.get(c[5]) == "ja" and _half_width_only(c[4], kanji=True)]
    if hankaku and len(hankaku) < len(pool):
        # Japanese in half-width katakana, no kana of full width (``ﾏﾛﾉﾂﾋﾁ``), and a reading
        # of Cyrillic words
        # with small letters, three or more (KOI8-R's small letters are those bytes: ``ошибка``): Cyrillic
        cyrillic = [
            c for c in pool
            if c[5] in _CYRILLIC_PAGES and _scripts(c[4]) == {"CYRILLIC"} and _has_small(c[4])
            and sum(1 for x in c[4] if x >= "\x80") > 2 and _letter_fluency(c[4]) >= _WORD_FLUENT
        ]
        if cyrillic:
            pool = [c for c in pool if c not in hankaku]
    unlikely = [c for c in pool if _implausible_reading(c)] if short else []
    rest = [c for c in pool if c not in unlikely]
    if (
        rest and any(c[5] in _FAMILY for c in unlikely)
        and all(c[5] in _CYRILLIC_PAGES and c[0] == 0 and _cyrillic_words(c[4]) for c in rest)
    ):
        # a few bytes read as rare hanzi or kana, and otherwise as Cyrillic words alone
        # (``Доброе утро`` in KOI8-R is ``湎乱吓 赵蚁`` in GB18030): the Cyrillic readings
        pool = rest
    if short and pool and all(_implausible_reading(c) for c in pool):
        # a few bytes read as rare hanzi or kana (``襓屺耒``, ``翡 ﾍｦﾊ``) or as Hebrew letters
        # among points (``ףֱּ׳ֱ``), and a KOI8-U, KOI8-R or cp1251 reading of Cyrillic letters
        # only, small ones among them, three or more, frequent ones (``Слава Україні!``): Cyrillic
        cyrillic = []
        for extra, name in enumerate(_CYRILLIC_ORDER):
            c = cands.get(name)
            if c is None:
                try:
                    own = data.decode(name)
                except UnicodeDecodeError:
                    continue
                c = (implausible(_sample(own)), mess_ratio(own), _rank(name), len(results) + 20 + extra, own, name, 0.0)
            if c[0] == 0 and _cyrillic_words(c[4]):
                cyrillic.append(c)
        if cyrillic:
            top = max(_letter_fluency(c[4]) for c in cyrillic)
            pool = [next(c for c in cyrillic if _letter_fluency(c[4]) == top)]
    # an East Asian reading made of the language's common characters is taken over the
    # others (short text: the detector's chaos and coherence say little), the most fluent
    # first (the East Asian encodings read each other as valid but rare characters)
    fluency = {c[5]: _fluency(c[4], c[5]) for c in pool if c[5] in _FAMILY}
    if short and fluency and max(fluency.values()) >= _FLUENT:
        # fluent East Asian readings without the language's most frequent characters
        # (common hanzi are what capitals of cp1251 and cp1253 give) and a reading of
        # an alphabet's frequent letters: the alphabet's readings are judged below
        top = max(fluency.values())
        rivals = [c for c in pool if fluency.get(c[5]) == top]
        if all(_frequent_share(c[4], _FAMILY[c[5]]) < _RARE_SHARE for c in rivals):
            words = [
                c for c in pool
                if c[5] not in _FAMILY and c[5] in _RANK and not _latin_letters(c[4])
                and _letter_fluency(c[4]) >= (_WORD_FLUENT if sum(1 for x in c[4] if x >= "\x80") > 2 else _PAIR_FLUENT)
            ] or [
                # KOI8's small letters are GB 2312's common hanzi (``ошибка ошибка файл`` is
                # ``羡陕肆 羡陕肆 屏侍``): Cyrillic words in small letters only, a lower bar
                c for c in pool
                if c[5] in _KOI8 and c[0] == 0 and _cyrillic_words(c[4]) and not _capitals_in(c[4])
            ]
            if words:
                pool = words
                fluency = {}
    if fluency and max(fluency.values()) >= _FLUENT:
        top = max(fluency.values())
        pool = [c for c in pool if fluency.get(c[5]) == top]
        kana = [c for c in pool if _FAMILY[c[5]] == "ja" and _kana_only(c[4])]
        if short and kana and len(kana) < len(pool):
            # kana in Japanese, common hanzi in Big5 (EUC-JP's ``ません`` is Big5's ``引六氏``):
            # Japanese when the others have few of their language's most frequent characters
            if all(_frequent_share(c[4], _FAMILY[c[5]]) < _RARE_SHARE for c in pool if c not in kana):
                pool = kana
        korean = [c for c in pool if _FAMILY[c[5]] == "ko"]
        if short and korean and len(korean) < len(pool):
            # fluent in Korean and another language (a Korean word in EUC-KR is common
            # hanzi in GB 2312): Korean when its reading has more of the most frequent
            # characters of its language than the others have of theirs
            frequent = {c[5]: _frequent_share(c[4], _FAMILY[c[5]]) for c in pool}
            most = max(frequent[c[5]] for c in korean)
            if most > max(frequent[c[5]] for c in pool if c not in korean):
                pool = [c for c in korean if frequent[c[5]] == most]
    choice = _calmest(pool)
    if short and not (fluency and max(fluency.values()) >= _FLUENT) and not _latin_letters(choice[4]):
        # a few bytes with no fluent East Asian reading, not read as Latin text: the
        # reading whose letters are the most frequent of an alphabet (rare hanzi are what
        # an alphabet's bytes give), unless an East Asian reading is more fluent still
        # cp1251 and KOI8-R read each other's small letters as capitals (``по``: ``ОН``):
        # when one of them gives a fluent reading with small letters, a reading in
        # capitals only weighs :data:`_MIRRORED` (else :data:`_CAPITALS`)
        mirrored = any(
            c[5] in ("cp1251", "koi8-r") and _has_small(c[4]) and _letter_fluency(c[4]) >= _MIRROR_FLUENT
            for c in pool
        )
        capitals = _MIRRORED if mirrored else _CAPITALS
        letters = {
            # a rare code page (DOS, Mac) reads a few bytes as letters too: it counts half
            c[5]: fluency[c[5]]
            if c[5] in fluency
            else _letter_fluency(c[4]) * (1.0 if c[5] in _RANK else 0.5) * (capitals if _capitals(c[4]) else 1.0)
            for c in pool
        }
        top = max(letters.values())
        if top > 0:
            # readings of the best one's alphabet within :data:`_LETTER_TIE` of it (and
            # code pages that give the same text): the most common code page wins
            lead = frozenset().union(*(_scripts(c[4]) for c in pool if letters[c[5]] == top))
            choice = _calmest(
                [
                    c for c in pool
                    if letters[c[5]] == top
                    or (c[5] not in fluency and letters[c[5]] >= top - _LETTER_TIE and _scripts(c[4]) == lead)
                ]
            )
    best = cands.get(codecs.lookup(results[0].encoding).name, choice)
    calm = min(c[1] for c in pool)
    korean = [c for c in pool if c[5] in ("cp949", "johab") and c[1] <= calm + 0.1]
    if choice[5] in ("cp949", "johab") and len(korean) > 1:
        # CP949 and Johab read each other as valid syllables, but rare ones: fewer syllables
        # outside the 2,350 of KS X 1001 (EUC-KR) is the real text
        choice = min(korean, key=lambda c: (_rare_hangul(c[4]), c[2]))
    if (
        best is not choice and best[0] == 0 and best[1] <= choice[1] and choice[6] > 0 and best[6] >= choice[6] + 0.15
        and pool != [latin]
    ):
        # the detector is confident (a clearly higher language coherence, measured for
        # both: charset-normalizer leaves it at 0 for most candidates of short text), and
        # its text looks like real text; not over Western European text in cp1252 (the
        # detector's coherence of ``non è possibile`` is higher for cp1250's ``non č``)
        choice = best
    if choice[5] == "cp1258" and "cp1252" in cands and _VIETNAMESE_ONLY.search(choice[4]) is None:
        # cp1258 reads every byte as cp1252 does but for Vietnamese letters, tone marks and
        # the dong sign: with none of them, the text is cp1252's (a ₫ against a letter is
        # not a price: ``ÿ₫`` is cp1252's ``ÿþ``, stray bytes in French text)
        choice = cands["cp1252"]
    if quiet:
        pass
    elif choice[0]:
        logger.warning(
            "%s: not UTF-8; decoded as %s, a guess (its text shows %d sign(s) of a wrong code page): "
            "give the encoding if it is another one",
            source,
            choice[5],
            choice[0],
        )
    elif choice[5] != best[5]:
        logger.debug("%s: read as %s rather than %s (more plausible or more common)", source, choice[5], best[5])
    return choice[4], choice[5], choice[0]


def _clean_multibyte(data: bytes, source: str) -> tuple[str, str] | None:
    """A clean East Asian multi-byte decoding of ``data`` (no sign of a wrong code page,
    no U+FFFD), as step 7 chooses it, or None (also without charset-normalizer)."""
    if sum(1 for b in data[:4096] if b >= 0x80) < 2:
        return None
    try:
        text, name, signs = _detect(data, source, quiet=True)
    except (ImportError, LoadError):
        return None
    if signs == 0 and name in _MULTIBYTE and "\ufffd" not in text:
        return text, name
    return None


def _odd_utf8(text: str) -> int:
    """Signs that short valid UTF-8 is another encoding's bytes: those of :func:`implausible`,
    unassigned code points (``ǰ\u05fa``), and combining marks after a character that is not
    a letter or a letter of another script (``δ\u05aa``: a Hebrew accent after a Greek letter;
    ``״\u032c``), the generic combining diacritics after any letter aside."""
    signs = implausible(text)
    prev = ""
    for c in text:
        if c >= "\u0300":
            cat = unicodedata.category(c)
            if cat == "Cn":
                signs += 1
            elif cat == "Mn":
                script = _script(c)
                if not prev.isalpha() or (script != "COMBINING" and script != _script(prev)):
                    signs += 1
        prev = c
    return signs


def _mostly_utf8(data: bytes) -> Decoded | None:
    """UTF-8 with a few bad bytes, decoded with U+FFFD in their place; None when it is not.

    A valid multi-byte UTF-8 character is rare in text of a legacy code page (it takes a
    capital such as ``Ã`` followed by a symbol such as ``©``: mojibake already), while each
    accented letter of such text is an invalid byte of its own. So text with at least one
    valid multi-byte character and at least as many of them as runs of invalid bytes is
    UTF-8 with damage."""
    text = data.decode("utf-8", "replace")
    errors = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")
    if errors <= 0:
        return None
    head = text[: 1 << 20]  # decided on the first million characters
    bad = head.count("\ufffd")
    valid = len(head) - len(head.encode("ascii", "ignore")) - bad
    runs = len(_FFFD_RUN.findall(head)) if bad else 0
    if valid >= 1 and valid >= runs:
        return Decoded(text, "utf-8", errors)
    return None


def decode(
    data: bytes, *, source: str = "<bytes>", encoding: str | None = None, declared: str | None = None
) -> tuple[str, str]:
    """Decode the bytes of a document (the rule is in this module's documentation).

    Args:
        data: the raw bytes.
        source: names the data in error messages and warnings.
        encoding: a codec to use instead of detecting one (strict; a leading byte-order
            mark is still removed).
        declared: an encoding the document declares (an HTML ``<meta charset>``), tried
            after the byte-order mark and UTF-8.

    Returns:
        ``(text, encoding)``: the text, exactly as decoded but without a leading byte-order
        mark, and the Python name of the codec used (``"utf-8"``, ``"utf-8-sig"``,
        ``"utf-16-le"``, ``"cp1252"``, ...). Text that is UTF-8 but for a few bad bytes
        is ``"utf-8"`` with U+FFFD in their place (a warning is logged;
        :func:`decode_text` also gives their count). Short or ambiguous text that is not
        UTF-8 is read as cp1252 unless another code page is clearly more plausible
        (Cyrillic, Polish, Japanese, ... text) or the detector is confident.

    Raises:
        ConfigError: ``encoding`` is not a known codec.
        LoadError: the bytes do not decode with ``encoding``; or they are not UTF-8 and
            charset-normalizer is not installed (``pip install 'chunkwise[encodings]'``)
            or finds no encoding.

    Example:
        >>> decode("café".encode("utf-16"))
        ('café', 'utf-16-le')
        >>> decode(b"caf\\xe9", encoding="latin-1")
        ('café', 'iso8859-1')
        >>> decode(b"Na\\xefve")
        ('Naïve', 'cp1252')
    """
    found = decode_text(data, source=source, encoding=encoding, declared=declared)
    return found.text, found.encoding


def decode_text(
    data: bytes, *, source: str = "<bytes>", encoding: str | None = None, declared: str | None = None
) -> Decoded:
    """:func:`decode`, with the number of invalid UTF-8 sequences replaced by U+FFFD
    (``Decoded.errors``; the loaders put it in ``metadata["decoding_errors"]``).

    Example:
        >>> decode_text("Grüße, schöne Straße, Müller und Söhne".encode() + b"\\xff!")
        Decoded(text='Grüße, schöne Straße, Müller und Söhne\ufffd!', encoding='utf-8', errors=1)
    """
    errors = 0
    if encoding:
        name = _codec(encoding)
        if name == "utf-8" and data.startswith(codecs.BOM_UTF8):
            name = "utf-8-sig"
        text = _strict(data, name, source)
    else:
        name = bom_encoding(data) or ""
        if name:
            bom = next(b for b, n in _BOMS if n == name)
            try:
                text = data[len(bom) :].decode(name) if name != "utf-8-sig" else data.decode(name)
            except UnicodeDecodeError as exc:
                raise LoadError(
                    f"{source}: not valid UTF-8, nor valid {name} as its byte-order mark says "
                    f"({exc.reason} at byte {exc.start + len(bom)}); give the encoding (encoding=...) if it is text"
                ) from exc
        else:
            wide = _wide_unicode(data) if b"\x00" in data else None
            try:
                if wide:
                    text, name = data.decode(wide), wide
                else:
                    text, name = data.decode("utf-8"), "utf-8"
                    escaped = _escaped(data) if data.isascii() else None
                    if escaped:
                        text, name = escaped
                    elif len(data) <= _SHORT and not data.isascii() and _odd_utf8(text):
                        # a few bytes that are valid UTF-8 by chance (``目录`` in GB2312 is
                        # ``Ŀ¼``): a fluent East Asian reading with no sign
                        clean = _clean_multibyte(data, source)
                        if clean is not None and _fluency(clean[0], clean[1]) >= _FLUENT:
                            text, name = clean
            except UnicodeDecodeError as exc:
                first = exc.start
                text = ""
                if declared:
                    try:
                        name = codecs.lookup(declared).name
                        text = data.decode(name)
                    except (LookupError, UnicodeDecodeError):
                        name = ""
                if not name:
                    damaged = _mostly_utf8(data)
                    clean = _clean_multibyte(data, source) if damaged is not None else None
                    if clean is not None:
                        text, name = clean
                    elif damaged is not None:
                        text, name, errors = damaged
                        logger.warning(
                            "%s: UTF-8 with %d invalid byte sequence(s) (the first at byte %d), "
                            "replaced by U+FFFD; give the encoding if the file is in another one",
                            source,
                            errors,
                            first,
                        )
                    else:
                        text, name, _ = _detect(data, source)
            if wide or b"\x00" in data:
                nuls = text.count("\x00")
                if nuls * 2 > len(text):
                    from .base import FileFormatError  # (base imports this module)

                    raise FileFormatError(
                        f"{source}: binary data, not text ({nuls} of its {len(text)} characters are NUL "
                        f"read as {name})",
                        "leave it out; if it is text, give its encoding (--encoding, encoding=...)",
                        "undecodable",
                    )
    if text.startswith("\ufeff"):
        text = text[1:]
    return Decoded(text, name, errors)
