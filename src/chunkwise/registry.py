"""Strategies by name: the registry that ``chunkwise.chunk`` and the CLI read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ConfigError

__all__ = ["AUTO", "AUTO_BY_CONTENT", "AUTO_BY_FORMAT", "STRUCTURED_FORMATS", "TABLE_FORMATS", "auto_strategy", "get_strategy", "register", "strategy_names"]

AUTO = "auto"
"""The strategy that picks one per document (see :func:`auto_strategy`)."""

AUTO_BY_FORMAT: dict[str, str] = {
    "markdown": "markdown",
    "html": "markdown",
    "rst": "markdown",
    "docx": "markdown",
    "pptx": "markdown",
    "xlsx": "markdown",
    "epub": "markdown",
    "pdf": "markdown",
    "csv": "table",
    "tsv": "table",
    "code": "code",
    "chat": "conversation",
    "srt": "conversation",
    "vtt": "conversation",
}
"""The strategy ``auto`` uses for each document format (``metadata["format"]``, set by
the loader); ``recursive`` for every other (``conversation`` for plain text whose lines
are mostly speaker turns). A new format is one entry here."""

STRUCTURED_FORMATS = tuple(f for f, s in AUTO_BY_FORMAT.items() if s == "markdown")
"""Document formats that ``auto`` chunks by their headings."""

AUTO_BY_CONTENT = ("conversation", "wikitext")
"""Strategies ``auto`` picks from a document's text rather than its format (speaker
turns, MediaWiki headings; see :func:`auto_strategy`)."""

TABLE_FORMATS = tuple(f for f, s in AUTO_BY_FORMAT.items() if s == "table")
"""Document formats that ``auto`` chunks by table rows (the ``table`` strategy)."""

_REGISTRY: dict[str, type] = {}


def register(name: str) -> Callable[[type], type]:
    """Class decorator: make a chunker class available under ``name``."""

    def deco(cls: type) -> type:
        cls.name = name  # type: ignore[attr-defined]
        _REGISTRY[name] = cls
        return cls

    return deco


# Modules under chunkwise.chunkers that register strategies when imported. A module that
# is not there (a later stage not yet built) is skipped; one that is there must import.
_BUILTIN_MODULES = (
    "fixed", "recursive", "sentence", "structure", "semantic", "topic", "late", "hierarchical", "code", "table",
    "agentic", "propositions", "conversation", "wikitext",
)


def _load_builtins() -> None:
    import importlib
    import importlib.util

    for mod in _BUILTIN_MODULES:
        name = f"chunkwise.chunkers.{mod}"
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)


def strategy_names() -> list[str]:
    """Names of the registered strategies, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def get_strategy(name: str) -> Any:
    """The chunker class registered under ``name``.

    Raises:
        ConfigError: no strategy has that name (the message lists the known ones).
    """
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ConfigError(
            f"strategy {name!r} is unknown; choose one of: {', '.join(sorted(_REGISTRY))}"
        ) from None


def auto_strategy(document: Any) -> str:
    """The strategy ``auto`` uses for ``document``: ``"markdown"`` when its
    ``metadata["format"]`` is one of :data:`STRUCTURED_FORMATS` (what :func:`chunkwise.load`
    records for ``.md``, ``.markdown``, ``.html``, ``.htm``, ``.rst``, ``.docx``, ``.pptx``,
    ``.xlsx``, ``.epub`` and ``.pdf`` files); ``"table"`` for ``"csv"`` and ``"tsv"`` (``.csv``, ``.tsv`` files);
    ``"code"`` for ``"code"`` (source files: ``.py``, ``.ts``, ``.java``, ...) when a parser
    of its language is installed; ``"conversation"`` for ``"chat"``, ``"srt"`` and ``"vtt"``
    (chat JSON, subtitles) and for plain text (format ``"text"``, or a ``str``) that
    starts like an SRT or WebVTT file (:func:`chunkwise.loaders.subtitles.looks_like_subtitles`)
    or whose lines are mostly speaker turns
    (:func:`chunkwise.parsers.conversation.looks_like_conversation`); ``"wikitext"`` for
    plain text and Markdown files (format ``"text"``, ``"markdown"``, or a ``str``) that
    are MediaWiki markup: distinct ``== Section ==`` lines with text under them outside
    code blocks -- two with other MediaWiki markup (``[[links]]``, ``'''bold'''``,
    ``{{templates}}``, ``<ref>``), else three written in sentence case (not a test
    log's banners, ``== FAILURES ==``, ``== warnings summary ==``) and one of level 1 or 2
    --, and no ``#`` heading in a Markdown file (:func:`chunkwise.parsers.wikitext.looks_like_wikitext`;
    Wikipedia dumps are often saved as ``.txt`` or ``.md``); else ``"recursive"``."""
    metadata = getattr(document, "metadata", None)
    fmt = metadata.get("format") if metadata is not None else None
    name = AUTO_BY_FORMAT.get(fmt, "recursive") if isinstance(fmt, str) else "recursive"
    text = document if isinstance(document, str) else getattr(document, "text", None)
    if name == "recursive" and fmt in (None, "text"):
        from .loaders.subtitles import looks_like_subtitles
        from .parsers.conversation import looks_like_conversation

        if isinstance(text, str) and (looks_like_subtitles(text) or looks_like_conversation(text)):
            return "conversation"
    if name in ("recursive", "markdown") and fmt in (None, "text", "markdown") and isinstance(text, str):
        from .parsers.wikitext import looks_like_wikitext

        if looks_like_wikitext(text, markdown=fmt == "markdown"):
            return "wikitext"
    if name == "code" and not _code_readable(metadata.get("language")):  # type: ignore[union-attr]
        return "recursive"
    return name


def _code_readable(language: Any) -> bool:
    """Whether the ``code`` strategy can parse ``language`` here (Python always can)."""
    from .parsers.code import grammar_available
    from .parsers.code_languages import resolve_language

    canon = resolve_language(language) if isinstance(language, str) else None
    return canon is not None and (canon == "python" or grammar_available(canon))
