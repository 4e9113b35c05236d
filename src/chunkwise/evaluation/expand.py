"""What a retriever returns for the chunks it matched: small-to-big expansions.

Embed small chunks (a sentence, a leaf of a hierarchy), give the reader bigger spans. Four
named expansions, shared by ``chunkwise eval --expand`` and by the index's query:

* ``"none"``: each matched chunk's own span;
* ``"window"``: the chunk's sentence window (``metadata["window_start"]`` to
  ``metadata["window_end"]``, from the sentence strategy's ``window_sentences``);
  overlapping windows of one document are returned as one span, their union (neighbouring
  sentences' windows share sentences: the reader gets that text once);
* ``"parent"``: the span of the chunk's parent (``metadata["parent_id"]``, looked up among
  the chunks; a chunk of the top level returns itself);
* ``"merged"``: auto-merging -- when at least ``merge_ratio`` of a parent's children
  (``metadata["child_ids"]``) are among the matched chunks, the parent is returned in
  their place, at the rank of the best of them; repeated up the levels, so merged
  parents can merge into their own parent.

Every expansion keeps rank order and returns a span once (at its first rank; a chunk
inside another returned chunk of its hierarchy is dropped there too; joined windows at the
rank of the first of them). Offsets are
half-open ``str`` indices into the chunk's document.

Method:
    LlamaIndex's ``SentenceWindowNodeParser`` with ``MetadataReplacementPostProcessor``
    (window), LangChain's ``ParentDocumentRetriever`` (parent) and LlamaIndex's
    ``AutoMergingRetriever`` (merged; its ``simple_ratio_thresh`` is 0.5, compared with
    ``>``; here ``merge_ratio`` is compared with ``>=``, as the option says "at least").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ..types import Chunk
from .metrics import SpanRef

__all__ = ["EXPANSIONS", "Expander", "Returned", "check_expansion", "expand"]

EXPANSIONS = ("none", "window", "parent", "merged")
"""The names of the expansions, in the order of ``--expand``'s choices."""

_NEEDS = {"window": ("window_start", "window_end"), "parent": ("parent_id",), "merged": ("parent_id", "child_ids")}
_FIX = {
    "window": "chunk with strategy='sentence' and window_sentences=N",
    "parent": "chunk with strategy='hierarchical' (without leaves_only: the parents must be there)",
    "merged": "chunk with strategy='hierarchical' (without leaves_only: the parents must be there)",
}


@dataclass(frozen=True, slots=True)
class Returned:
    """One returned span.

    Attributes:
        document_id: the document the span indexes into.
        start, end: the span (characters, half-open).
        chunk_id: the chunk whose span this is (the matched chunk, its parent, a merged
            parent); None for a sentence window.
        hits: ids of the matched chunks it stands for, best first.
    """

    document_id: str
    start: int
    end: int
    chunk_id: str | None
    hits: tuple[str, ...]

    @property
    def span(self) -> SpanRef:
        """``(document_id, start, end)``, what the metrics score."""
        return (self.document_id, self.start, self.end)


def check_expansion(name: Any) -> str:
    """``name`` when it is one of :data:`EXPANSIONS`.

    Raises:
        ConfigError: another value (the message lists the names).
    """
    if name not in EXPANSIONS:
        raise ConfigError(f"expand must be one of {', '.join(map(repr, EXPANSIONS))}, not {name!r}")
    return str(name)


class Expander:
    """Expansions over one collection of chunks (every document, every level).

    Args:
        chunks: every chunk that may be matched or returned (for ``parent`` and ``merged``
            the parents too: a hierarchy's whole output).
        how: one of :data:`EXPANSIONS`.
        merge_ratio: for ``merged``: the share of a parent's children that must be
            matched for the parent to replace them (``0 < merge_ratio <= 1``).

    Raises:
        ConfigError: an unknown ``how``, ``merge_ratio`` out of range, or chunks without
            the metadata the expansion reads (the message says how to chunk).

    Example:
        >>> from chunkwise import chunk
        >>> text = "Pumps start at six. Valves open at seven. Tanks fill by eight."
        >>> chunks = chunk(text, strategy="sentence", chunk_size=100, window_sentences=1)
        >>> [r.end for r in Expander(chunks, "window").expand([chunks[0]])]
        [41]
    """

    def __init__(self, chunks: Iterable[Chunk], how: str = "none", *, merge_ratio: float = 0.5) -> None:
        self.how = check_expansion(how)
        if isinstance(merge_ratio, bool) or not isinstance(merge_ratio, (int, float)) or not 0 < merge_ratio <= 1:
            raise ConfigError(f"merge_ratio ({merge_ratio!r}) must be a number above 0 and at most 1")
        self.merge_ratio = float(merge_ratio)
        self.chunks = list(chunks)
        self.by_id: dict[str, Chunk] = {}
        for c in self.chunks:
            self.by_id.setdefault(c.id, c)
        for key in _NEEDS.get(self.how, ()):
            missing = next((c for c in self.chunks if key not in c.metadata), None)
            if missing is not None:
                raise ConfigError(
                    f"expand={self.how!r} reads metadata[{key!r}], which chunk {missing.index} of "
                    f"{missing.document_id!r} does not have; {_FIX[self.how]}"
                )

    @property
    def per_hit(self) -> bool:
        """Whether a matched chunk's span, on its own, is :meth:`one` (all but ``merged``)."""
        return self.how != "merged"

    @property
    def joint(self) -> bool:
        """Whether the spans returned for several hits depend on them together, so that
        :meth:`expand` must see them all (``merged``: parents replace children;
        ``window``: overlapping windows join)."""
        return self.how in ("merged", "window")

    def searchable(self) -> list[int]:
        """Indices (into ``chunks``) of the chunks to match: the leaves of a hierarchy for
        ``parent`` and ``merged`` (``metadata["leaf"]``, else no ``child_ids``), every
        chunk otherwise."""
        if self.how in ("parent", "merged"):
            return [i for i, c in enumerate(self.chunks) if _is_leaf(c)]
        return list(range(len(self.chunks)))

    def one(self, chunk: Chunk) -> Returned:
        """What one matched chunk returns on its own (``merged``: the chunk itself).

        Raises:
            ConfigError: under ``parent``, a parent id that no chunk has.
        """
        how = self.how
        if how == "window":
            m = chunk.metadata
            return Returned(chunk.document_id, m["window_start"], m["window_end"], None, (chunk.id,))
        if how == "parent":
            pid = chunk.metadata["parent_id"]
            if pid is not None:
                parent = self._get(pid, chunk)
                return Returned(parent.document_id, parent.start_index, parent.end_index, parent.id, (chunk.id,))
        return Returned(chunk.document_id, chunk.start_index, chunk.end_index, chunk.id, (chunk.id,))

    def expand(self, hits: Sequence[Chunk]) -> list[Returned]:
        """The spans returned for ``hits`` (matched chunks, best first): expanded, in rank
        order, each span once (at its first rank, with the ids of every hit it stands for;
        ``window``: overlapping windows of a document joined into one).

        Raises:
            ConfigError: a parent id that no chunk has (``parent``, ``merged``).
        """
        if self.how == "merged":
            return self._merged(hits)
        out: dict[SpanRef, Returned] = {}
        for c in hits:
            r = self.one(c)
            prev = out.get(r.span)
            if prev is None:
                out[r.span] = r
            elif c.id not in prev.hits:
                out[r.span] = Returned(prev.document_id, prev.start, prev.end, prev.chunk_id, (*prev.hits, c.id))
        if self.how == "window":
            rank: dict[str, int] = {}
            for k, c in enumerate(hits):
                rank.setdefault(c.id, k)
            return _join(list(out.values()), rank)
        return list(out.values())

    # -- auto-merging --------------------------------------------------------------

    def _get(self, cid: str, child: Chunk) -> Chunk:
        parent = self.by_id.get(cid)
        if parent is None:
            raise ConfigError(
                f"the parent {cid!r} of chunk {child.index} of {child.document_id!r} is not among the chunks; "
                f"{_FIX['parent']}"
            )
        return parent

    def _merged(self, hits: Sequence[Chunk]) -> list[Returned]:
        # entries: chunk id -> [rank, chunk, hit ids]; a chunk matched twice counts once
        entries: dict[str, list[Any]] = {}
        for rank, c in enumerate(hits):
            if c.id not in entries:
                entries[c.id] = [rank, c, [c.id]]
        first = {cid: e[0] for cid, e in entries.items()}
        changed = True
        while changed:
            changed = False
            groups: dict[str, list[str]] = {}
            for cid, (_, c, _) in entries.items():
                pid = c.metadata.get("parent_id")
                if pid is not None:
                    groups.setdefault(pid, []).append(cid)
            for pid, members in groups.items():
                parent = self._get(pid, entries[members[0]][1])
                n_children = len(parent.metadata.get("child_ids") or ()) or len(members)
                if len(members) / n_children < self.merge_ratio:
                    continue
                _absorb(entries, pid, parent, members)
                changed = True
        # a chunk inside another returned chunk of its hierarchy goes with that one
        for cid in list(entries):
            c = entries[cid][1]
            pid = c.metadata.get("parent_id")
            while pid is not None and pid not in entries and pid in self.by_id:
                pid = self.by_id[pid].metadata.get("parent_id")
            if pid is not None and pid in entries:
                _absorb(entries, pid, entries[pid][1], [cid])
        out: dict[SpanRef, Returned] = {}
        for rank, c, ids in sorted(entries.values(), key=lambda e: e[0]):
            span = (c.document_id, c.start_index, c.end_index)
            if span not in out:
                out[span] = Returned(c.document_id, c.start_index, c.end_index, c.id, tuple(sorted(ids, key=first.get)))
        return list(out.values())


def _absorb(entries: dict[str, list[Any]], pid: str, parent: Chunk, members: Sequence[str]) -> None:
    """Replace the entries ``members`` by the entry of ``parent``, at the best rank, with
    every hit id they stood for."""
    taken = [entries.pop(m) for m in members if m != pid]
    if pid in entries:
        taken.append(entries[pid])
    taken.sort(key=lambda e: e[0])
    ids = list(dict.fromkeys(i for e in taken for i in e[2]))
    entries[pid] = [taken[0][0], parent, ids]


def _join(returned: Sequence[Returned], rank: Mapping[str, int] | None = None) -> list[Returned]:
    """Spans of one document that overlap (share a character) as one span, their union, at
    the rank of the first of them, standing for all their hits (best first by ``rank``, a
    hit id's rank; default: their order in ``returned``); a span that overlaps nothing is
    returned as it is. Spans that only touch stay apart.

    Example:
        >>> a, b = Returned("d", 0, 10, None, ("x",)), Returned("d", 20, 30, None, ("y",))
        >>> [(r.start, r.end, r.hits) for r in _join([a, b, Returned("d", 8, 22, None, ("z",))])]
        [(0, 30, ('x', 'y', 'z'))]
    """
    if rank is None:
        rank = {}
        for r in returned:
            for h in r.hits:
                rank.setdefault(h, len(rank))
    groups: list[list[Any]] = []  # [document_id, start, end, hits, the span when alone], by first rank
    for r in returned:
        # the groups are pairwise apart, so one pass finds every group the new span joins
        near = [g for g in groups if g[0] == r.document_id and g[1] < r.end and r.start < g[2]]
        if not near:
            groups.append([r.document_id, r.start, r.end, list(r.hits), r])
            continue
        head = near[0]
        for g in near[1:]:
            groups.remove(g)
        head[1] = min([r.start] + [g[1] for g in near])
        head[2] = max([r.end] + [g[2] for g in near])
        ids = [*r.hits, *(h for g in near for h in g[3])]
        head[3] = sorted(dict.fromkeys(ids), key=rank.__getitem__)
        head[4] = None
    return [g[4] if g[4] is not None else Returned(g[0], g[1], g[2], None, tuple(g[3])) for g in groups]


def _is_leaf(c: Chunk) -> bool:
    leaf = c.metadata.get("leaf")
    if leaf is not None:
        return bool(leaf)
    return not c.metadata.get("child_ids")


def expand(
    hits: Sequence[Chunk],
    how: str = "none",
    *,
    chunks: Iterable[Chunk] | Mapping[str, Chunk] | None = None,
    merge_ratio: float = 0.5,
) -> list[Returned]:
    """The spans returned for matched chunks, best first (see :class:`Expander`).

    Args:
        hits: the matched chunks, best first.
        how: one of :data:`EXPANSIONS`.
        chunks: every chunk the parents are looked up in (a list, or a mapping id ->
            chunk); default: ``hits`` alone (enough for ``none`` and ``window``).
        merge_ratio: for ``merged`` (``0 < merge_ratio <= 1``, default 0.5).

    Raises:
        ConfigError: as :class:`Expander`.

    Example:
        >>> expand([], "window")
        []
    """
    pool = hits if chunks is None else (chunks.values() if isinstance(chunks, Mapping) else chunks)
    return Expander(pool, how, merge_ratio=merge_ratio).expand(hits)
