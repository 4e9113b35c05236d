"""Enrichment: the one pass after packing that turns spans into :class:`Chunk` values.

It resolves the parser's labels (:class:`~chunkwise.segments.Label`) into each chunk's
metadata by the label's rule, adds the document's metadata, ``source``, ``boundary``,
``prev_id``/``next_id`` and ``oversize``, asks the chunker for the chunk's ``context`` (a
breadcrumb, a repeated table header) and computes the content-derived ids.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from itertools import islice
from operator import attrgetter
from typing import Any

from .merge import Span
from .segments import Label
from .types import Chunk, Document, Metadata, _Deferred, _Derived, _raw_dict, _Shared, metadata_layout

__all__ = ["DOCUMENT_ONLY", "build_chunks", "document_base", "label_writer", "resolve_labels", "with_metadata"]

DOCUMENT_ONLY = frozenset(
    {"page_labels", "page_furniture", "pages_read", "pages_without_text", "two_column_pages", "ocr_pages",
     "heading_context", "warnings", "conversation_starts"}
)
"""Document metadata keys that describe the document page by page (a loader's lists:
the printed page numbers, the running heads removed, ...): kept on the document, not
copied onto every chunk (on a long PDF they were half the bytes of the output). A chunk
gets its own part instead: ``page_label`` and ``page_label_end`` from ``page_labels``."""


def document_base(doc: Document) -> dict[str, Any]:
    """The document's metadata as every chunk of it starts: without the keys of
    :data:`DOCUMENT_ONLY`, with ``source`` (when the document has one and the metadata
    does not)."""
    meta = doc.metadata
    base = {k: v for k, v in meta.items() if k not in DOCUMENT_ONLY} if not DOCUMENT_ONLY.isdisjoint(meta) else dict(meta)
    if doc.source is not None and "source" not in base:
        base["source"] = doc.source
    return base


def _common_prefix(values: list[Any]) -> tuple[Any, ...]:
    first = tuple(values[0])
    n = len(first)
    for v in values[1:]:
        v = tuple(v)
        k = 0
        while k < n and k < len(v) and v[k] == first[k]:
            k += 1
        n = k
    return first[:n]


_MISSING = object()
_BY_RANGE = attrgetter("start", "end")
_BATCH = 256
"""Spans whose texts and ids :func:`build_chunks` makes at a time, ahead of their chunks:
the hashing runs in its own tight loop (as fast as hashing every span first) while only a
batch of texts and ids is held beside the chunks."""


def _texts_and_ids(head: Any, text: str, spans: list[Span]) -> tuple[list[str], list[str]]:
    """The text of every span and its :func:`~chunkwise.types.chunk_id`, hashed
    incrementally: the same digest without building each ``"id:start:end:text"`` string.

    BLAKE2b reads its input as one stream, so hashing ``"id:"``, then ``"start:end:"``,
    then the text gives the digest of the joined string; ``head`` copies the state after
    ``"id:"``, hashed once per document (the copy is cheaper than a new hash with its
    parameters), and the offsets are formatted as bytes directly."""
    texts: list[str] = []
    ids: list[str] = []
    add_text, add_id = texts.append, ids.append
    for s in spans:
        a, b = s.start, s.end
        t = text[a:b]
        h = head()
        h.update(b"%d:%d:" % (a, b))
        h.update(t.encode("utf-8", "surrogatepass"))
        add_text(t)
        add_id(h.hexdigest())
    return texts, ids


def _resolver(labels: list[Label]) -> Any:
    """A function ``(start, end) -> value or _MISSING`` for the labels of one key (sorted,
    not overlapping one another), by their rule."""
    labels.sort(key=_BY_RANGE)
    starts = [lb.start for lb in labels]
    ends = [lb.end for lb in labels]
    values = [lb.value for lb in labels]
    rule = labels[0].rule
    first, last = starts[0], max(ends)

    if rule == "end":

        def end_rule(s: int, e: int) -> Any:
            k = bisect_right(starts, e) - 1
            return values[k] if k >= 0 and e <= ends[k] else _MISSING

        return end_rule

    if rule in ("start", "continued", "within"):

        def holder_rule(s: int, e: int) -> Any:
            if s < first or s >= last:
                return _MISSING
            k = bisect_right(starts, s) - 1
            if k < 0 or s >= ends[k]:
                return _MISSING
            if rule == "continued" and starts[k] >= s:
                return _MISSING
            if rule == "within" and e > ends[k]:
                return _MISSING
            return values[k]

        return holder_rule

    if rule == "range":

        lows = [v[0] for v in values]
        highs = [v[1] for v in values]

        def range_rule(s: int, e: int) -> Any:
            lo = bisect_right(ends, s)
            hi = bisect_left(starts, e, lo)
            if hi <= lo:
                return _MISSING
            if hi - lo == 1:
                return lows[lo], highs[lo]
            return min(lows[lo:hi]), max(highs[lo:hi])

        return range_rule

    if rule == "overlap" and len(labels) == 1:  # one label (a value for the whole document)
        only, s0, e0 = values[0], starts[0], ends[0]

        def one_rule(s: int, e: int) -> Any:
            return only if s < e0 and e > s0 else _MISSING

        return one_rule

    weak = [lb.weak for lb in labels]

    def overlap_rule(s: int, e: int) -> Any:
        if e <= first or s >= last:
            return _MISSING
        lo = bisect_right(ends, s)
        hi = bisect_left(starts, e, lo)
        if hi <= lo:
            return _MISSING
        if rule == "overlap":
            return values[hi - 1]
        if hi - lo == 1:
            return values[lo]
        strong = [values[i] for i in range(lo, hi) if not weak[i]]
        # (only weak labels, say headings with no body of their own: the last one's value,
        # as the text after them would have)
        return _common_prefix(strong) if strong else values[hi - 1]

    return overlap_rule


def label_writer(labels: Sequence[Label], text: str | None = None) -> Callable[[dict[str, Any], int, int], None]:
    """A function ``(meta, start, end)`` that stores into ``meta`` the metadata the labels
    give the span ``start:end`` (tuples become lists), as :func:`resolve_labels` gives
    it: the same keys and values, stored in the same order. The enrichment pass writes
    each chunk's labels straight into its metadata with it, one chunk at a time, so no
    dict per chunk is made beforehand."""
    by_key: dict[str, list[Label]] = {}
    for lb in labels:
        by_key.setdefault(lb.key, []).append(lb)
    resolvers = [(k, _resolver(v), v[0].rule == "range", f"{k}_start", f"{k}_end") for k, v in by_key.items()]
    missing = _MISSING
    if len(resolvers) == 1 and not resolvers[0][2]:  # one key, not a range (a chunker's own value)
        only_key, only = resolvers[0][0], resolvers[0][1]

        def write_one(meta: dict[str, Any], s: int, e: int) -> None:
            value = only(s, e)
            if value is not missing:
                meta[only_key] = list(value) if isinstance(value, tuple) else value

        return write_one

    if len(resolvers) == 1:  # one range key (a sentence window): its text and offsets
        only_key, only, _, only_start, only_end = resolvers[0]

        def write_range(meta: dict[str, Any], s: int, e: int) -> None:
            value = only(s, e)
            if value is not missing:
                a, b = value
                if text is not None:
                    meta[only_key] = text[a:b]
                meta[only_start] = a
                meta[only_end] = b

        return write_range

    def write(meta: dict[str, Any], s: int, e: int) -> None:
        for key, resolve, is_range, key_start, key_end in resolvers:
            value = resolve(s, e)
            if value is missing:
                continue
            if is_range:
                a, b = value
                if text is not None:
                    meta[key] = text[a:b]
                meta[key_start] = a
                meta[key_end] = b
            else:
                meta[key] = list(value) if isinstance(value, tuple) else value

    return write


def _single_label(labels: Sequence[Label], text: str) -> tuple[tuple[str, ...], Callable[[int, int], Any]] | None:
    """For labels of one key: the keys :func:`label_writer` stores for a span, in order,
    and ``(start, end) -> their values`` (a tuple; None when the labels give the span
    nothing), or None for labels of more than one key."""
    key = labels[0].key
    if any(lb.key != key for lb in labels):
        return None
    resolve = _resolver(list(labels))
    missing = _MISSING
    if labels[0].rule == "range":

        def range_values(s: int, e: int) -> Any:
            value = resolve(s, e)
            if value is missing:
                return None
            a, b = value
            return text[a:b], a, b

        return (key, f"{key}_start", f"{key}_end"), range_values

    def values(s: int, e: int) -> Any:
        value = resolve(s, e)
        if value is missing:
            return None
        return (list(value) if isinstance(value, tuple) else value),

    return (key,), values


def resolve_labels(labels: Sequence[Label], spans: Sequence[Span], text: str | None = None) -> list[dict[str, Any]]:
    """Per span, the metadata its labels give (tuples become lists).

    Labels of one key must not overlap one another. A ``"range"`` label's key gets the
    text of the resolved range (``text[start:end]``, when ``text`` is given) and the keys
    ``<key>_start`` and ``<key>_end`` its offsets. Returns one dict per span.
    """
    write = label_writer(labels, text)
    out: list[dict[str, Any]] = []
    for sp in spans:
        meta: dict[str, Any] = {}
        write(meta, sp.start, sp.end)
        out.append(meta)
    return out


_OWN = ("boundary", "prev_id", "next_id", "oversize")
"""The keys that the enrichment pass sets in every chunk (``oversize`` when set)."""


def _layouts(keys: tuple[str, ...], base_keys: tuple[str, ...], base_values: tuple[Any, ...]) -> tuple[Any, Any]:
    """The layouts for metadata of ``keys``: one that shares the document's values
    (None when ``keys`` do not begin with the document's keys) and one that holds all."""
    whole = metadata_layout(keys)
    if not base_keys:
        return whole, whole
    if keys[: len(base_keys)] != base_keys:
        return None, whole
    return metadata_layout(keys, base_values), whole


_OWN_CONTEXT = frozenset((*_OWN, "context"))


def _label_keys(labels: Sequence[Label]) -> set[str]:
    """The keys that ``labels`` may set (a range label's key and its offsets' keys)."""
    out: set[str] = set()
    for lb in labels:
        out.add(lb.key)
        if lb.rule == "range":
            out.update((f"{lb.key}_start", f"{lb.key}_end"))
    return out


def _makers(keys: tuple[str, ...], base_keys: tuple[str, ...], base_values: tuple[Any, ...]) -> tuple[Any, Any, Any]:
    """``(make, layout, whole)`` for metadata of ``keys`` from all its values in order:
    ``make(layout, values)`` gives the Metadata, or None when a value of the document's
    keys is not the document's own (then ``whole.make(whole, values)`` gives it)."""
    shared, whole = _layouts(keys, base_keys, base_values)
    if shared is None:
        return whole.make, whole, whole
    if shared is whole:  # no document values: all values are the chunk's own
        return whole.make, whole, whole
    return shared.make_all, shared, whole


_FIELDS = ("text", "start_index", "end_index", "index", "size", "unit", "document_id", "metadata", "context", "embedding", "id")


class _Blank:
    """A :class:`Chunk` under construction: the same slots in the same order, without the
    frozen dataclass's ``__setattr__``. The enrichment pass stores the fields (already
    valid: an id given, read-only metadata) as plain attribute stores and then makes the
    value a ``Chunk`` by assigning ``__class__``, which Python allows between classes of
    the same layout: about a third of the cost of storing each slot through its
    descriptor, and a tenth of the dataclass's ``__init__`` and ``__post_init__``."""

    __slots__ = _FIELDS


def _blank_becomes_chunk() -> bool:
    """Whether a :class:`_Blank` turns into a ``Chunk`` equal to one the constructor
    builds (checked once, at import). False when ``Chunk``'s fields or layout are not the
    ones expected here: then every chunk is built by the constructor (:func:`_finish`)."""
    if tuple(f.name for f in fields(Chunk)) != _FIELDS or getattr(Chunk, "__slots__", None) != _FIELDS:
        return False
    want = Chunk(text="t", start_index=0, end_index=1, index=2, size=1, unit="chars", document_id="d",
                 metadata={"k": 1}, context="c", id="i")
    c = _Blank()
    for name in _FIELDS:
        setattr(c, name, getattr(want, name))
    try:
        c.__class__ = Chunk  # type: ignore[assignment]
    except TypeError:
        return False
    if not (type(c) is Chunk and c == want and c.metadata is want.metadata):
        return False
    # a chunk that reads its text from its document's text
    c = _Blank()
    for name in _FIELDS:
        setattr(c, name, getattr(want, name))
    c.text = _Shared("t.")
    # and a context it computes from its span (see Chunk)
    c.context = _Shared("c.")
    c.__class__ = Chunk  # type: ignore[assignment]
    return c == want and c.text == "t" and c._source == "t." and c.context == "c"  # type: ignore[attr-defined]


_SWAP = _blank_becomes_chunk()


def _finish(blank: Any) -> Chunk:
    """The :class:`Chunk` of a filled :class:`_Blank`, through the constructor (the path
    when ``__class__`` cannot be assigned): it holds its own text and context."""
    values = {name: getattr(blank, name) for name in _FIELDS}
    for name in ("text", "context"):
        if isinstance(values[name], _Derived):
            values[name] = values[name].value(blank.start_index, blank.end_index)
    return Chunk(**values)


def with_metadata(chunks: Sequence[Chunk], extra: Mapping[str, Any]) -> list[Chunk]:
    """The chunks with ``extra``'s keys added to their metadata, after the chunk's own (a
    key already there keeps its place and takes the new value): the values
    ``dataclasses.replace(c, metadata={**c.metadata, **extra})`` gives, built as the
    enrichment pass builds chunks (about a seventh of the cost of ``replace``). New keys
    extend the chunk's layout: the values its document's chunks share stay shared."""
    if not _SWAP:
        return [replace(c, metadata={**c.metadata, **extra}) for c in chunks]
    blank, chunk_class = _Blank, Chunk
    extra = dict(extra)
    extra_keys, extra_values = tuple(extra), tuple(extra.values())
    extended: dict[Any, Any] = {}  # a chunk's layout -> with the new keys (None: a key is there)
    out: list[Chunk] = []
    append = out.append
    for old in chunks:
        if type(old) is not chunk_class:  # a subclass: replace keeps its class
            append(replace(old, metadata={**old.metadata, **extra}))
            continue
        m = old.metadata
        if m.__class__ is _Deferred:  # (computed when first read: computed now)
            m = m._force()  # type: ignore[attr-defined]
        lay = m._l if isinstance(m, Metadata) else None
        wider = extended.get(lay, False) if lay is not None else None
        if wider is False:
            wider = extended[lay] = None if any(k in lay.keyset for k in extra_keys) else (
                metadata_layout(lay.keys + extra_keys, lay.base))
        if wider is not None:
            meta = wider.make(wider, lay.own(m) + extra_values)
        else:
            merged = _raw_dict(m)  # (the values themselves: lists a table shares stay shared)
            merged.update(extra)
            meta = Metadata(merged)
        c = blank()
        # (its own text, or its document's text that it reads its text from)
        c.text = old._held_text  # type: ignore[attr-defined]
        c.start_index = old.start_index
        c.end_index = old.end_index
        c.index = old.index
        c.size = old.size
        c.unit = old.unit
        c.document_id = old.document_id
        c.metadata = meta
        c.context = old._held_context  # type: ignore[attr-defined]  # (its context, or what computes it)
        c.embedding = old.embedding
        c.id = old.id
        c.__class__ = chunk_class
        append(c)
    return out


def build_chunks(
    doc: Document,
    spans: Sequence[Span],
    unit: str,
    labels: Sequence[Label] = (),
    context: Callable[[Mapping[str, Any], Span], str] | None = None,
    annotate: Callable[[str], Mapping[str, Any]] | None = None,
) -> list[Chunk]:
    """Chunk values for packed spans: metadata, context, neighbours and ids.

    Args:
        doc: the document the spans index into.
        spans: packed spans in document order.
        unit: the sizer's unit label (``chunk.unit``).
        labels: the parser's labels, resolved per span by their rule.
        context: ``(metadata, span) -> str``, the chunk's ``context`` (default: none);
            a ``"context"`` key in the metadata is used and removed when given. It may
            return a shared :class:`~chunkwise.types._Derived` instead, whose
            ``value(span.start, span.end)`` is the context: the chunk then holds that object
            and computes its context on access (see :class:`Chunk`). A callback with the
            attribute ``lazy = True`` (it reads only the span and the labels' keys in the
            metadata it is given, and gives the same whenever and in whatever order it
            is called) is called when a chunk's metadata or context is first read
            (without ``annotate``): each chunk holds a ``types._Deferred``.
        annotate: ``chunk text -> metadata`` read from the text itself (``language``,
            ``density``: :func:`chunkwise.language.annotator`), added after the labels.

    Returns:
        One :class:`Chunk` per span, reading its text from ``doc.text`` (which it keeps
        alive) instead of holding a copy of it; ``chunk.metadata`` holds the document's
        metadata, then ``source``, ``boundary``, ``prev_id``, ``next_id``, ``oversize``
        (when set), ``page_number``/``page_end`` (the pages the chunk starts and ends on,
        for a document with a page map; ``page_label``/``page_label_end``, the numbers
        printed on them, when the document's ``page_labels`` give one per page of the
        map) and the labels' keys. The keys of :data:`DOCUMENT_ONLY` stay on the document.
    """
    doc_id = doc.id
    text = doc.text
    base = document_base(doc)
    # labels alone (no callback, no pages) that set none of the document's keys: a chunk's
    # own keys written into a dict of its own (not a copy of the document's), or, for
    # labels of one key, the chunk's values taken from them without a dict
    own_only = False
    single: tuple[tuple[str, ...], Callable[[int, int], Any]] | None = None
    if labels and context is None and annotate is None and not doc.pages and base.keys().isdisjoint(_OWN_CONTEXT):
        set_keys = _label_keys(labels)
        own_only = "context" not in set_keys and set_keys.isdisjoint(base)
        if own_only and set_keys.isdisjoint(_OWN):
            single = _single_label(labels, text)
    write_labels = label_writer(labels, text) if labels and single is None else None
    pages = doc.pages
    page_starts = [p[1] for p in pages]
    page_labels = doc.metadata.get("page_labels")
    if not isinstance(page_labels, (list, tuple)) or len(page_labels) != len(pages):
        page_labels = None
    plain = not labels and context is None and annotate is None and not pages and "context" not in base
    blank, swap, chunk_class = _Blank, _SWAP, Chunk
    # every chunk reads its text from the document's (see Chunk): no copy of it a chunk
    shared = _Shared(text)
    # (a copy of a dict that holds the three keys already: they are stored, not added,
    # and the copy has room for more keys)
    copy_template = {**base, "boundary": None, "prev_id": None, "next_id": None}.copy
    # each chunk's metadata holds its own values only: the document's (``base``, the same
    # in every chunk) are held once by a layout shared by the chunks of one key order
    base_keys, base_values = tuple(base), tuple(base.values())
    if base.keys().isdisjoint(_OWN):
        own3 = metadata_layout(base_keys + _OWN[:3], base_values)
        own4 = metadata_layout(base_keys + _OWN, base_values)
        make3, make4 = own3.make, own4.make
    else:
        plain = False
    own_layouts: dict[tuple[str, ...], Any] = {}
    if single is not None:
        label_keys, label_values = single
        with3 = metadata_layout(base_keys + _OWN[:3] + label_keys, base_values)
        with4 = metadata_layout(base_keys + _OWN + label_keys, base_values)
        make_with3, make_with4 = with3.make, with4.make
    layouts: dict[tuple[str, ...], tuple[Any, Any, Any]] = {}

    def general(s: Span, prev: str | None, next_id: str | None, t: str | None) -> tuple[Metadata, Any]:
        """The metadata and context of the chunk of span ``s`` (its text ``t``), through a
        dict for the labels and the callbacks: the keys in the same order as ``{**base,
        "boundary": ...}``."""
        ctx: Any = ""
        meta = copy_template()
        meta["boundary"] = s.boundary
        meta["prev_id"] = prev
        meta["next_id"] = next_id
        if s.oversize:
            meta["oversize"] = True
        if pages:
            first = max(bisect_right(page_starts, s.start) - 1, 0)
            last = max(bisect_left(page_starts, s.end) - 1, first)
            meta["page_number"], meta["page_end"] = pages[first][0], pages[last][0]
            if page_labels is not None and page_labels[first] is not None:
                meta["page_label"] = page_labels[first]
                if page_labels[last] is not None:
                    meta["page_label_end"] = page_labels[last]
        if write_labels is not None:
            write_labels(meta, s.start, s.end)
        if annotate is not None:
            meta.update(annotate(text[s.start : s.end] if t is None else t))
        if "context" in meta:
            ctx = meta.pop("context")
        if context is not None:
            ctx = context(meta, s)
        # the values after the base's, when the base's are still its own (a label
        # or a callback may have set one of its keys)
        values = meta.values()
        keys = tuple(meta)
        got = layouts.get(keys)
        if got is None:
            got = layouts[keys] = _makers(keys, base_keys, base_values)
        metadata = got[0](got[1], values)
        if metadata is None:  # a label or a callback set a value of the base's keys
            whole = got[2]
            metadata = whole.make(whole, values)
        return metadata, ctx

    def replay(start: int, end: int, size: int, boundary: str, oversize: bool, prev: str | None,
               next_id: str | None) -> tuple[Metadata, Any]:
        """:func:`general` of a chunk whose metadata is read after the pass."""
        return general(Span(start, end, size, boundary, oversize), prev, next_id, None)

    # a context callback marked ``lazy`` (one that reads only the span and the labels'
    # keys it is given, the same whenever and in whatever order it is called): the
    # metadata and context of each chunk are computed when first read (types._Deferred)
    lazy = context is not None and annotate is None and getattr(context, "lazy", False) is True
    new, deferred_class = object.__new__, _Deferred
    sizes: dict[int, int] = {}  # one int object a size above 256 (equal sizes share it)
    # texts and ids a batch of spans at a time, the next batch made before the last chunk
    # of this one (its next_id): no list of texts or ids as long as the chunks is held
    head = hashlib.blake2b(f"{doc_id}:".encode("utf-8", "surrogatepass"), digest_size=8).copy
    out: list[Chunk] = []
    append = out.append
    prev: str | None = None
    rest = iter(spans)
    batch = list(islice(rest, _BATCH))
    texts, ids = _texts_and_ids(head, text, batch)
    k = 0
    while batch:
        following = list(islice(rest, _BATCH))
        ftexts, fids = _texts_and_ids(head, text, following)
        nxt: list[str | None] = ids[1:]
        nxt.append(fids[0] if fids else None)
        for s, t, cid, next_id in zip(batch, texts, ids, nxt):
            ctx = ""
            if plain:  # the keys in the same order as ``{**base, "boundary": ...}``
                if s.oversize:
                    metadata = make4(own4, (s.boundary, prev, next_id, True))
                else:
                    metadata = make3(own3, (s.boundary, prev, next_id))
            elif single is not None:  # the keys in the order the dict's would be in
                got = label_values(s.start, s.end)
                if s.oversize:
                    if got is None:
                        metadata = make4(own4, (s.boundary, prev, next_id, True))
                    else:
                        metadata = make_with4(with4, (s.boundary, prev, next_id, True) + got)
                elif got is None:
                    metadata = make3(own3, (s.boundary, prev, next_id))
                else:
                    metadata = make_with3(with3, (s.boundary, prev, next_id) + got)
            elif own_only:
                # the keys in the same order as ``{**base, "boundary": ...}`` with the labels'
                # after them: the base's keys, then these
                meta = {"boundary": s.boundary, "prev_id": prev, "next_id": next_id}
                if s.oversize:
                    meta["oversize"] = True
                write_labels(meta, s.start, s.end)  # type: ignore[misc]
                keys = tuple(meta)
                lay = own_layouts.get(keys)
                if lay is None:
                    lay = own_layouts[keys] = metadata_layout(base_keys + keys, base_values)
                metadata = lay.make(lay, meta.values())
            elif lazy:  # (computed when the chunk's metadata or context is first read)
                metadata = ctx = deferred = new(deferred_class)
                deferred._make = replay
                deferred._args = (s.start, s.end, s.size, s.boundary, s.oversize, prev, next_id)
                deferred._m = deferred._c = None
            else:
                metadata, ctx = general(s, prev, next_id, t)
            size = s.size
            if size > 256:  # (smaller ints are shared by Python)
                size = sizes.setdefault(size, size)
            c = blank()
            c.text = shared
            c.start_index = s.start
            c.end_index = s.end
            c.index = k
            c.size = size
            c.unit = unit
            c.document_id = doc_id
            c.metadata = metadata
            c.context = ctx
            c.embedding = None
            c.id = cid
            if swap:
                c.__class__ = chunk_class
            else:
                c = _finish(c)
            append(c)
            prev = cid
            k += 1
        batch, texts, ids = following, ftexts, fids
    return out
