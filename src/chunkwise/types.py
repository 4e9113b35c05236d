"""Core values: :class:`Document` and :class:`Chunk`.

A chunk is a span of its document: ``chunk.text == document.text[chunk.start_index:
chunk.end_index]`` always, with half-open Python ``str`` offsets (code points). Text that
helps embedding but is not at that place in the source (a header breadcrumb, a table's
repeated header row) lives in ``chunk.context``, never in ``chunk.text``.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any

__all__ = [
    "Chunk", "Document", "Metadata", "PageRange", "chunk_id", "document_id_for", "document_id_for_path",
    "form_feed_pages",
]

PageRange = tuple[int, int, int]
"""One page of a document: ``(page_number, start, end)``, half-open character offsets."""

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if not mapping:
        return _EMPTY
    if isinstance(mapping, MappingProxyType):
        return mapping
    return MappingProxyType(dict(mapping))


# -- chunk metadata ---------------------------------------------------------------------


class _Layout:
    """What the metadata of many chunks shares: the keys in order and, for the first
    ``len(base)`` of them, their values (a document's metadata, the same in each of its
    chunks). A chunk holds only the values of the other keys, each in a slot of its
    :class:`Metadata` object (its class has one slot a value)."""

    __slots__ = ("keys", "keyset", "base", "at", "slots", "own", "make", "make_all", "todict", "fresh")

    keys: tuple[str, ...]
    keyset: dict[str, None]  # (for ``keys()`` and ``in``)
    base: tuple[Any, ...]  # the values of the first keys, shared
    at: dict[str, int]  # a shared key -> its place in ``base``
    slots: dict[str, Any]  # a chunk's own key -> the getter of its slot
    own: Any  # a Metadata -> the tuple of its own values
    make: Any  # (layout, own values) -> a Metadata
    make_all: Any  # (layout, all values) -> a Metadata, None when a shared one differs
    todict: Any  # a Metadata -> a dict of its items (made when first asked for)
    fresh: Any  # the same, each list or dict value a copy (made when first asked for)


_SHAPES: dict[tuple[tuple[str, ...], int], tuple[Any, ...]] = {}
_KINDS: dict[int, tuple[type, Any]] = {}
_MAKERS: dict[tuple[int, int], Any] = {}
_TODICTS: dict[tuple[tuple[str, ...], int], Any] = {}
_LAYOUTS: dict[tuple[str, ...], _Layout] = {}
_CACHE_LIMIT = 4096


def _kind(n: int) -> tuple[type, Any]:
    """The Metadata class with ``n`` value slots and the function that reads its values
    (a tuple, in order)."""
    got = _KINDS.get(n)
    if got is None:
        names = tuple(f"_{i}" for i in range(n))
        cls = type(Metadata)("Metadata", (Metadata,), {"__slots__": names, "__module__": __name__})
        items = "".join(f"m.{s}, " for s in names)
        scope: dict[str, Any] = {}
        exec(f"def own(m):\n    return ({items})\n", scope)  # noqa: S102 -- source made here from numbers
        got = _KINDS[n] = (cls, scope["own"])
    return got


def _maker(nb: int, n: int) -> Any:
    """``make(layout, values)``: the Metadata of a layout of ``nb`` shared and ``n`` own
    values from all ``nb + n`` values in order, or None when one of the first ``nb`` is
    not the layout's own (the same object). Made from source, as dataclasses make their
    ``__init__``: the values are unpacked and stored into the slots in one call."""
    got = _MAKERS.get((nb, n))
    if got is None:
        names = [f"b{i}" for i in range(nb)] + [f"v{i}" for i in range(n)]
        lines = ["def make(layout, values):"]
        if names:
            lines.append(f"    {', '.join(names)}, = values")
        if nb:
            lines.append("    base = layout.base")
            lines.append("    if " + " or ".join(f"b{i} is not base[{i}]" for i in range(nb)) + ":")
            lines.append("        return None")
        lines.append("    m = new(cls)")
        lines.append("    m._l = layout")
        lines.extend(f"    m._{i} = v{i}" for i in range(n))
        lines.append("    return m")
        scope: dict[str, Any] = {"new": object.__new__, "cls": _kind(n)[0]}
        exec("\n".join(lines), scope)  # noqa: S102 -- source made here from numbers
        got = _MAKERS[(nb, n)] = scope["make"]
    return got


def metadata_layout(keys: tuple[str, ...], base: tuple[Any, ...] = ()) -> _Layout:
    """The layout of metadata of ``keys`` whose first ``len(base)`` values are ``base``
    (the values of the rest are each chunk's own): ``layout.make(layout, values)`` makes
    the :class:`Metadata` of those values. Without ``base``, one layout a key order is
    kept for the process (up to 4,096); a caller with a base keeps its own."""
    if not base:
        lay = _LAYOUTS.get(keys)
        if lay is None:
            if len(_LAYOUTS) >= _CACHE_LIMIT:
                _LAYOUTS.clear()
            lay = _LAYOUTS[keys] = _new_layout(keys, base)
        return lay
    return _new_layout(keys, base)


def _new_layout(keys: tuple[str, ...], base: tuple[Any, ...]) -> _Layout:
    nb = len(base)
    shape = _SHAPES.get((keys, nb))
    if shape is None:
        if len(_SHAPES) >= _CACHE_LIMIT:
            _SHAPES.clear()
        n = len(keys) - nb
        slots = {k: attrgetter(f"_{i}") for i, k in enumerate(keys[nb:])}
        at = {k: i for i, k in enumerate(keys[:nb])}
        shape = _SHAPES[(keys, nb)] = (dict.fromkeys(keys), at, slots, _kind(n)[1], _maker(0, n), _maker(nb, n))
    lay = _Layout()
    lay.keys = keys
    lay.keyset, lay.at, lay.slots, lay.own, lay.make, lay.make_all = shape
    lay.base = base
    lay.todict = None
    lay.fresh = None
    return lay


def _todict(lay: _Layout) -> Any:
    """``todict(m)``: a dict of the items of a Metadata of the layout's shape, built in
    one step (a dict display of the keys: no growing as the keys are added)."""
    nb = len(lay.base)
    got = _TODICTS.get((lay.keys, nb))
    if got is None:
        if len(_TODICTS) >= _CACHE_LIMIT:
            _TODICTS.clear()
        scope: dict[str, Any] = {f"k{i}": k for i, k in enumerate(lay.keys)}
        pairs = [f"k{i}: b[{i}]" for i in range(nb)] + [f"k{nb + i}: m._{i}" for i in range(len(lay.keys) - nb)]
        load = "    b = m._l.base\n" if nb else ""
        exec(f"def todict(m):\n{load}    return {{{', '.join(pairs)}}}\n", scope)  # noqa: S102 -- made here
        got = _TODICTS[(lay.keys, nb)] = scope["todict"]
    lay.todict = got
    return got


_FRESH: dict[tuple[tuple[str, ...], int, tuple[int, ...]], Any] = {}


def _fresh(lay: _Layout) -> Any:
    """``fresh(m)``: :func:`_todict`'s dict with each list or dict value a copy
    (:func:`_thaw`): the shared values that are lists or dicts (known for the layout) are
    copied, and each own value is checked, in code made for the shape."""
    nb = len(lay.base)
    thawed = tuple(i for i, v in enumerate(lay.base) if v.__class__ is list or v.__class__ is dict)
    key = (lay.keys, nb, thawed)
    got = _FRESH.get(key)
    if got is None:
        if len(_FRESH) >= _CACHE_LIMIT:
            _FRESH.clear()
        scope: dict[str, Any] = {f"k{i}": k for i, k in enumerate(lay.keys)}
        scope["thaw"] = _thaw
        lines = ["def fresh(m):"]
        if nb:
            lines.append("    b = m._l.base")
        n = len(lay.keys) - nb
        for i in range(n):
            lines.append(f"    v{i} = m._{i}")
            lines.append(f"    if v{i}.__class__ is list or v{i}.__class__ is dict:")
            lines.append(f"        v{i} = thaw(v{i})")
        pairs = [f"k{i}: thaw(b[{i}])" if i in thawed else f"k{i}: b[{i}]" for i in range(nb)]
        pairs += [f"k{nb + i}: v{i}" for i in range(n)]
        lines.append(f"    return {{{', '.join(pairs)}}}")
        exec("\n".join(lines), scope)  # noqa: S102 -- source made here from numbers
        got = _FRESH[key] = scope["fresh"]
    lay.fresh = got
    return got


def _metadata(mapping: Mapping[str, Any]) -> Metadata:
    """A :class:`Metadata` of the items of ``mapping`` (a dict: its own items, in order)."""
    if type(mapping) is not dict:
        mapping = dict(mapping)
    keys = tuple(mapping)
    lay = _LAYOUTS.get(keys) or metadata_layout(keys)
    return lay.make(lay, tuple(mapping.values()))


class Metadata(Mapping[str, Any]):
    """A chunk's metadata: a read-only mapping of strings to values, in the order the
    keys were set.

    It behaves as the read-only view of a dict: ``m["key"]``, ``get``, ``in``, ``len``,
    iteration, ``keys()``/``values()``/``items()``, ``==`` with any mapping of the same
    items, ``m | {...}`` and ``{...} | m`` (dicts), ``m.copy()`` and ``dict(m)`` (a
    dict to change); storing a key raises ``TypeError``; it is not hashable.
    ``Metadata({"k": 1})`` makes one from a mapping.

    A value that is a list or a dict is given as a copy on every read (``m[k]``,
    ``get``, ``values()``, ``items()``, ``copy()``, ``dict(m)``, ``m | {...}``,
    ``chunk.to_dict()``), with the lists and dicts inside it copied too: an equal value
    of the same type, but changing it changes no chunk. Many chunks may hold one list
    (a table's column names, a list in the document's metadata), and a read-only mapping
    whose values could be changed through it would change them all. So ``m[k] is m[k]``
    is false for such a value; ``==``, pickles and JSON are as before. A copy costs about
    0.15 microseconds for a short list of strings.

    The keys and the values that all chunks of a document share (the document's
    metadata) are held once for all of them; each chunk holds only its own values (about
    100 bytes for ten keys instead of ~500 for a dict and a view of it)."""

    __slots__ = ("_l",)

    _l: _Layout

    def __new__(cls, mapping: Mapping[str, Any] | Iterable[tuple[str, Any]] = (), /, **kwargs: Any) -> Metadata:
        if cls is not Metadata:
            raise TypeError("Metadata is made from a mapping: Metadata({...})")
        if isinstance(mapping, Metadata) and not kwargs:
            return mapping
        return _metadata(dict(mapping, **kwargs))

    def _dict(self) -> dict[str, Any]:
        todict = self._l.todict
        if todict is None:
            todict = _todict(self._l)
        return todict(self)  # type: ignore[no-any-return]

    def _fresh_dict(self) -> dict[str, Any]:
        """A dict of the items, each list or dict value a copy (:func:`_thaw`)."""
        fresh = self._l.fresh
        if fresh is None:
            fresh = _fresh(self._l)
        return fresh(self)  # type: ignore[no-any-return]

    def __getitem__(self, key: str) -> Any:
        lay = self._l
        get = lay.slots.get(key)
        v = get(self) if get is not None else lay.base[lay.at[key]]
        c = v.__class__
        if c is list or c is dict:
            return _thaw(v)
        return v

    def get(self, key: str, default: Any = None) -> Any:
        lay = self._l
        get = lay.slots.get(key)
        if get is not None:
            v = get(self)
        else:
            i = lay.at.get(key)
            if i is None:
                return default
            v = lay.base[i]
        c = v.__class__
        if c is list or c is dict:
            return _thaw(v)
        return v

    def __contains__(self, key: object) -> bool:
        return key in self._l.keyset

    def __iter__(self) -> Iterator[str]:
        return iter(self._l.keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._l.keys)

    def __len__(self) -> int:
        return len(self._l.keys)

    def keys(self) -> KeysView[str]:
        return self._l.keyset.keys()

    def values(self) -> ValuesView[Any]:
        # (views of a dict of the items: the mapping never changes, so they read as views of it)
        return self._fresh_dict().values()

    def items(self) -> ItemsView[str, Any]:
        return self._fresh_dict().items()

    def copy(self) -> dict[str, Any]:
        """A dict of the same items (to change; its lists and dicts are copies too)."""
        return self._fresh_dict()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Metadata):
            if other._l is self._l:
                return self._l.own(self) == other._l.own(other)
            return self._dict() == other._dict()
        if isinstance(other, (dict, MappingProxyType)):
            return self._dict() == other
        if isinstance(other, Mapping):
            return self._dict() == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Any) -> Any:
        if isinstance(other, Metadata):
            other = other._fresh_dict()
        if not isinstance(other, dict):
            return NotImplemented
        out = self._fresh_dict()
        out.update(other)
        return out

    def __ror__(self, other: Any) -> Any:
        if not isinstance(other, dict):
            return NotImplemented
        out = dict(other)
        out.update(self._fresh_dict())
        return out

    def __repr__(self) -> str:
        return f"Metadata({self._dict()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Metadata, (self._dict(),))


EMPTY_METADATA = Metadata()


def _chunk_metadata(mapping: Mapping[str, Any] | None) -> Metadata:
    if isinstance(mapping, Metadata):
        return mapping
    if not mapping:
        return EMPTY_METADATA
    return _metadata(mapping)


def metadata_dict(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """A dict of ``mapping``'s items (fast for :class:`Metadata`, whose list and dict
    values it copies, as reading them does)."""
    return mapping._fresh_dict() if isinstance(mapping, Metadata) else dict(mapping)


def _thaw(v: Any) -> Any:
    """A copy of the list or dict ``v`` (exactly those classes), and of the lists and
    dicts inside it: what a :class:`Metadata` gives for such a value, so that no chunk's
    value (one list may be held by many chunks: a table's column names, the document's
    metadata) can be changed through the value read."""
    # the common case: strings and numbers, hashable (a list or a dict inside is not), so a
    # shallow copy is whole (hashing a tuple of them is the fastest test of that)
    try:
        hash(tuple(v) if v.__class__ is list else tuple(v.values()))
    except Exception:  # noqa: BLE001 -- not hashable: copied item by item
        return _thaw_deep(v, {})
    return v[:] if v.__class__ is list else v.copy()


def _thaw_deep(v: Any, memo: dict[int, Any]) -> Any:
    """:func:`_thaw` of a list or dict that holds lists or dicts, as :func:`copy.deepcopy`
    copies them: a value held twice is copied once, a value that holds itself gives a copy
    that holds itself."""
    got = memo.get(id(v))
    if got is not None:
        return got
    if v.__class__ is list:
        out: Any = []
        memo[id(v)] = out
        out.extend(_thaw_deep(y, memo) if y.__class__ is list or y.__class__ is dict else y for y in v)
    else:
        out = {}
        memo[id(v)] = out
        for k, y in v.items():
            out[k] = _thaw_deep(y, memo) if y.__class__ is list or y.__class__ is dict else y
    return out


def _raw_dict(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """A dict of ``mapping``'s items, the values themselves (for a pickle: no copies)."""
    return mapping._dict() if isinstance(mapping, Metadata) else dict(mapping)


def _digest(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def document_id_for(text: str, source: str | None = None) -> str:
    """A stable id: the source string when there is one, else a hash of the text.

    Args:
        text: the document text (used only when ``source`` is empty).
        source: the document's source, taken exactly as given.

    Returns:
        16 hex digits (BLAKE2b, 8 bytes) of ``"source:" + source``, or of ``"text:" + text``.

    Note:
        Files loaded by :func:`chunkwise.load` do not hash their ``source`` (the path as
        typed, which depends on the working directory) but their path relative to the
        root the user gave: see :func:`document_id_for_path`.

    Example:
        >>> document_id_for("Hello.") == document_id_for("Hello.")
        True
    """
    return _digest(("source:" + source) if source else ("text:" + text))


def document_id_for_path(relative_path: str) -> str:
    """The id of a file document: 16 hex digits derived from its path relative to its root.

    ``relative_path`` uses POSIX separators (``"guide/install.md"``); a backslash is read
    as a separator too, so the same tree gives the same ids on every system. It equals
    ``document_id_for("", relative_path)``. :func:`chunkwise.load` gives it the file's real
    path (symbolic links resolved) relative to the root's real path, so a file reached
    through a link has the id it has when reached directly
    (:func:`chunkwise.loaders.relative_id_path`).

    Example:
        >>> document_id_for_path("guide/a.md") == document_id_for_path("guide\\\\a.md")
        True
    """
    return document_id_for("", relative_path.replace("\\", "/"))


def chunk_id(document_id: str, start_index: int, end_index: int, text: str) -> str:
    """The id of the chunk ``text == document.text[start_index:end_index]`` of a document.

    Args:
        document_id: the id of the chunk's document.
        start_index: the chunk's first character (inclusive, ``str`` offset).
        end_index: the offset after its last character (exclusive).
        text: the chunk's text: an edited text changes the id even at the same offsets.

    Returns:
        16 hex digits (BLAKE2b, 8 bytes).

    Example:
        >>> chunk_id("d", 0, 5, "Hello") != chunk_id("d", 0, 5, "Jello")
        True
    """
    return _digest(f"{document_id}:{start_index}:{end_index}:{text}")


def form_feed_pages(text: str) -> tuple[PageRange, ...]:
    """The page map of a text whose pages are separated by form feeds (``\\f``, as
    pdftotext and most PDF-to-text tools write them): page ``k`` (from 1) is the text
    between the ``k-1``-th and the ``k``-th form feed, which belongs to no page. ``()``
    for a text without a form feed.

    Example:
        >>> form_feed_pages("one\\ftwo")
        ((1, 0, 3), (2, 4, 7))
    """
    if "\f" not in text:
        return ()
    out: list[PageRange] = []
    start = 0
    number = 1
    while True:
        k = text.find("\f", start)
        if k < 0:
            out.append((number, start, len(text)))
            return tuple(out)
        out.append((number, start, k))
        start, number = k + 1, number + 1


def _pages(pages: Sequence[Sequence[int]], length: int) -> tuple[PageRange, ...]:
    out: list[PageRange] = []
    last_end = 0
    for item in pages:
        try:
            number, start, end = (int(v) for v in item)
        except (TypeError, ValueError):
            raise ValueError(f"Document.pages holds (page_number, start, end) triples, not {item!r}") from None
        if not 0 <= start <= end <= length:
            raise ValueError(f"page {number} spans [{start}, {end}), outside the text's 0..{length} characters")
        if start < last_end:
            raise ValueError(f"page {number} starts at {start}, before the previous page ends ({last_end})")
        out.append((number, start, end))
        last_end = end
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Document:
    """A text to chunk, with where it came from.

    Attributes:
        text: the full text; every chunk offset indexes into it.
        id: a stable identifier; by default derived from ``source`` or the text
            (see :func:`document_id_for`), never random.
        source: where the text came from (a path or URL), if known.
        metadata: read-only mapping copied onto every chunk (title, language, ...); JSON
            values when it comes from a loader.
        pages: the page map of a paged source (a PDF): ``(page_number, start, end)``
            half-open character ranges of ``text``, in order, not overlapping (text
            between pages, such as a page separator, belongs to none); ``()`` when the
            source has no pages.

    Documents pickle and deep-copy to equal values.

    Raises:
        TypeError: ``text`` is not a ``str``.
        ValueError: a page range is malformed, outside the text or out of order.

    Example:
        >>> Document("Hello.", source="a.txt").id == Document("Other", source="a.txt").id
        True
        >>> doc = Document("page one\fpage two", pages=((1, 0, 8), (2, 9, 17)))
        >>> doc.page_at(10), doc.pages_for(5, 12)
        (2, (1, 2))
    """

    text: str
    id: str = ""
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    pages: tuple[PageRange, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"Document.text must be str, not {type(self.text).__name__}")
        if not self.id:
            object.__setattr__(self, "id", document_id_for(self.text, self.source))
        object.__setattr__(self, "metadata", _freeze(self.metadata))
        if self.pages:
            object.__setattr__(self, "pages", _pages(self.pages, len(self.text)))
        elif not isinstance(self.pages, tuple):
            object.__setattr__(self, "pages", ())

    def __reduce__(self) -> tuple[Any, ...]:
        # the read-only metadata view cannot be pickled: rebuild from a plain dict
        return (_document, (self.text, self.id, self.source, dict(self.metadata), self.pages))

    def page_at(self, offset: int) -> int | None:
        """The number of the page holding character ``offset``, or None (no page map, or
        the offset lies between pages or outside the text)."""
        starts = [p[1] for p in self.pages]
        k = bisect_right(starts, offset) - 1
        if k >= 0 and self.pages[k][1] <= offset < self.pages[k][2]:
            return self.pages[k][0]
        return None

    def pages_for(self, start: int, end: int) -> tuple[int, ...]:
        """Numbers of the pages that the span ``[start, end)`` touches, in order (for an
        empty span, the page holding ``start``); ``()`` without a page map."""
        if end <= start:
            page = self.page_at(start)
            return () if page is None else (page,)
        return tuple(n for n, s, e in self.pages if s < end and start < e)


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrieval unit: a span of a document, measured in its unit.

    Attributes:
        text: ``document.text[start_index:end_index]``, unchanged.
        start_index: offset of the first character (inclusive, ``str`` index).
        end_index: offset after the last character (exclusive).
        index: position of the chunk in its document's chunk list, from 0.
        size: the measured size of ``text`` in ``unit``.
        unit: what ``size`` counts: ``"chars"``, ``"words"``, ``"tokens:cl100k_base"``, ...
        document_id: id of the document the chunk belongs to.
        metadata: read-only mapping (a :class:`Metadata`): the document's metadata, then
            the chunk's own keys (``boundary``: the rule that made the cut after it;
            ``prev_id``/``next_id``; ``oversize`` when an atomic unit is larger than
            chunk_size; ...). ``dict(chunk.metadata)`` or ``chunk.metadata.copy()`` gives
            a dict to change.
        context: text to put before the chunk when embedding, which is not at this place
            in the source (a header breadcrumb, a repeated table header); "" if none.
        embedding: the chunk's vector, when one was computed.
        id: 16 hex digits derived from ``document_id``, the span and ``text`` (see
            :func:`chunk_id`): stable across runs, changed by an edit of the text.

    Chunks pickle and deep-copy to equal values (the metadata is rebuilt read-only).

    A chunk made by chunking (:func:`chunkwise.enrich.build_chunks`) does not hold a copy
    of its text: it holds its document's text, one string shared by all the document's
    chunks, and reads ``text`` as ``document.text[start_index:end_index]`` on each access
    (a new string each time, not kept). The returned chunks then cost their document's
    text once instead of a second copy of it, split into pieces. The trade-off: one such
    chunk kept alive keeps its whole document's text alive. A pickle, a deep copy,
    ``copy.copy`` and ``dataclasses.replace`` hold only the chunk's own text (the slice).
    A chunk built with ``Chunk(text=...)`` holds the text it is given, as always.
    ``chunk._source`` is the shared document text of a chunk that reads its text from
    one, else None (a private attribute, for tests and measurements).

    The same holds for a context that the chunk's strategy derives from the document (the
    ``column: value`` lines of a table chunk with ``row_format="kv"``): the chunk holds an
    object shared by its table and computes ``context`` on access (an equal string each
    time; the object keeps only the last one it computed, for a second read of the same
    chunk's context); a pickle, a copy or ``replace`` holds the string.
    ``chunk._held_text`` and ``chunk._held_context`` read the slots as they are.

    A strategy may have its chunks compute their metadata and context when either is
    first read (the ``code`` strategy does: symbols, lines and signatures cost more than
    the rest of a chunk): the chunk then holds one object in both slots, a
    :class:`Metadata` that computes the values once and keeps them. Every read gives
    what the eager pass gives; a pickle or a copy holds the values (``replace`` the
    context's string and the same metadata object).
    """

    text: str
    start_index: int
    end_index: int
    index: int = 0
    size: int = 0
    unit: str = "chars"
    document_id: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    context: str = ""
    embedding: Any = None
    id: str = ""

    def __eq__(self, other: object) -> bool:
        """Field by field, as a dataclass compares, with ``embedding`` compared by value:
        a numpy vector (or any array) equals another of the same shape and values, so
        chunks with embeddings compare (and ``chunk in chunks`` works) as other chunks do."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        o: Chunk = other  # type: ignore[assignment]
        return (
            self.start_index == o.start_index
            and self.end_index == o.end_index
            and self.index == o.index
            and self.size == o.size
            and self.unit == o.unit
            and self.document_id == o.document_id
            and self.id == o.id
            and self.text == o.text
            and self.context == o.context
            and self.metadata == o.metadata
            and _same_embedding(self.embedding, o.embedding)
        )

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", chunk_id(self.document_id, self.start_index, self.end_index, self.text))
        object.__setattr__(self, "metadata", _chunk_metadata(self.metadata))

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _chunk,
            (
                self.text,
                self.start_index,
                self.end_index,
                self.index,
                self.size,
                self.unit,
                self.document_id,
                _raw_dict(self.metadata),
                self.context,
                self.embedding,
                self.id,
            ),
        )

    def text_for_embedding(self) -> str:
        """``context`` and ``text`` joined by a newline (just ``text`` when context is empty)."""
        context = self.context  # (read once: a context may be computed on access)
        return f"{context}\n{self.text}" if context else self.text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the schema of the CLI's JSON lines, without the source path)."""
        out: dict[str, Any] = {
            "id": self.id,
            "document_id": self.document_id,
            "index": self.index,
            "start_index": self.start_index,
            "end_index": self.end_index,
            "size": self.size,
            "unit": self.unit,
            "text": self.text,
            "context": self.context,
            "metadata": metadata_dict(self.metadata),
        }
        return out


class _Derived:
    """A field value that a chunk computes from its span on each access instead of holding
    it: the ``text`` or ``context`` slot of a :class:`Chunk` holds either a string or one
    of these, and reading the field gives ``value(start_index, end_index)`` (a new equal
    string each time, not kept by the chunk). One object is shared by many chunks (a
    document's, a table's), so a chunk pays nothing for it."""

    __slots__ = ()

    def value(self, start: int, end: int) -> str:
        raise NotImplementedError


class _Shared(_Derived):
    """A document's text, held by each chunk of it that reads its text from it: the
    ``text`` slot of a :class:`Chunk` holds either the chunk's own text or one of these
    (shared by the document's chunks)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def value(self, start: int, end: int) -> str:
        return self.text[start:end]

    def __reduce__(self) -> tuple[Any, ...]:
        # (never pickled through a chunk, whose pickle holds its slice: see Chunk.__reduce__)
        return (_Shared, (self.text,))


class _Deferred(Metadata, _Derived):
    """A chunk's metadata and context computed when first read: the chunk holds this one
    object in both its ``metadata`` and its ``context`` slot, and ``make(*args)`` gives
    ``(metadata, context)`` -- what the enrichment pass would have stored (see
    :func:`chunkwise.enrich.build_chunks`: a strategy's context callback marked
    ``lazy``). A chunk whose text alone is read never computes them.

    It is a :class:`Metadata` like the one it stands for: every read gives what that one
    gives (``==``, ``repr``, pickles, copies and ``to_dict`` too: a pickle or a copy holds
    the computed values, not this object). Computed once; the result is kept (two
    threads reading at once may both compute it: the same values)."""

    __slots__ = ("_make", "_args", "_m", "_c")

    _make: Callable[..., tuple[Metadata, Any]] | None
    _args: tuple[Any, ...] | None
    _m: Metadata | None
    _c: Any

    def _force(self) -> Metadata:
        m = self._m
        if m is None:
            make, args = self._make, self._args
            if make is None or args is None:  # (another thread has just computed it)
                return self._m  # type: ignore[return-value]
            m, c = make(*args)
            self._c = c  # (before the metadata: a thread that sees the metadata sees the context)
            self._m = m
            # (what computed them is let go: once every chunk of a document has computed
            # its own, nothing keeps the document's parse alive)
            self._make = self._args = None
        return m

    def value(self, start: int, end: int) -> str:
        """The chunk's context."""
        if self._m is None:
            self._force()
        c = self._c
        return c if c.__class__ is str else _derived_value(c, start, end)

    def __getattr__(self, name: str) -> Any:
        # (the computed metadata's own attributes: its layout ``_l`` and its slots)
        if name in _Deferred.__slots__:
            raise AttributeError(name)
        return getattr(self._force(), name)

    def _dict(self) -> dict[str, Any]:
        return self._force()._dict()

    def _fresh_dict(self) -> dict[str, Any]:
        return self._force()._fresh_dict()

    def __getitem__(self, key: str) -> Any:
        return self._force()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._force().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._force()

    def __iter__(self) -> Iterator[str]:
        return iter(self._force())

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._force())

    def __len__(self) -> int:
        return len(self._force())

    def keys(self) -> KeysView[str]:
        return self._force().keys()

    def values(self) -> ValuesView[Any]:
        return self._force().values()

    def items(self) -> ItemsView[str, Any]:
        return self._force().items()

    def copy(self) -> dict[str, Any]:
        return self._force().copy()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Deferred):
            other = other._force()
        return self._force().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Any) -> Any:
        return self._force().__or__(other._force() if isinstance(other, _Deferred) else other)

    def __ror__(self, other: Any) -> Any:
        return self._force().__ror__(other)

    def __repr__(self) -> str:
        return repr(self._force())

    def __reduce__(self) -> tuple[Any, ...]:
        return self._force().__reduce__()


def _derived_value(v: Any, start: int, end: int) -> Any:
    return v.value(start, end) if isinstance(v, _Derived) else v


def _derived(self: Any, v: Any) -> Any:
    """The value of a field whose slot holds ``v`` (not a plain ``str``)."""
    if isinstance(v, _Derived):
        return v.value(self.start_index, self.end_index)
    return v


def _text(self: Any) -> Any:
    v = self._held_text
    if v.__class__ is _Shared:  # (inline: the common case of a chunk made by chunking)
        return v.text[self.start_index : self.end_index]
    if v.__class__ is str:
        return v
    return _derived(self, v)


def _context(self: Any) -> Any:
    v = self._held_context
    if v.__class__ is str:
        return v
    return _derived(self, v)


def _derived_field(name: str, get: Callable[[Any], Any], doc: str) -> None:
    """Make the field ``name`` of :class:`Chunk` read through ``get``: the slot's value
    when it is a string, else the :class:`_Derived` value's string for the chunk's span
    (:func:`_derived`). The field stays a field like the others (the dataclass's __init__,
    fields(), replace(), ==, hash, repr and asdict read and store it by name; storing it
    stores into the same slot as before, and frozen: only the constructor does). The slot
    stays readable as it is as ``Chunk._held_<name>`` (what ``get`` reads; the enrichment
    pass copies it from chunk to chunk as it is)."""
    slot = Chunk.__dict__[name]
    setattr(Chunk, f"_held_{name}", slot)
    setattr(Chunk, name, property(get, slot.__set__, slot.__delete__, doc))


def _source(self: Any) -> str | None:
    t = self._held_text
    return t.text if t.__class__ is _Shared else None  # type: ignore[no-any-return]


_derived_field("text", _text, "``document.text[start_index:end_index]``: the chunk's text.")
_derived_field("context", _context, "Text to put before the chunk when embedding (see :class:`Chunk`).")
Chunk._source = property(  # type: ignore[attr-defined]
    _source, None, None, "The shared document text this chunk reads its text from, or None."
)


def _document(text: str, id: str, source: str | None, metadata: dict[str, Any], pages: tuple[PageRange, ...]) -> Document:
    """Rebuild a pickled :class:`Document` (positional, so old pickles keep loading)."""
    return Document(text, id=id, source=source, metadata=metadata, pages=pages)


def _same_embedding(a: Any, b: Any) -> bool:
    """Whether two embeddings are equal: both None, or the same values (an array by
    shape and values, as ``numpy.array_equal``; a list by ``==``)."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    if hasattr(a, "shape") or hasattr(b, "shape"):
        import numpy

        return bool(numpy.array_equal(a, b))
    return bool(a == b)


def _chunk(*args: Any) -> Chunk:
    """Rebuild a pickled :class:`Chunk`."""
    return Chunk(*args)
