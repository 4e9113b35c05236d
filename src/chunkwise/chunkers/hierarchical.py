"""Hierarchical (parent-child, small-to-big) chunking: every level packed inside its parent.

Small chunks retrieve precisely, big chunks answer well: embed the leaves, return their
parents (or merge siblings into their parent when most of them are retrieved). Each level
is a chunk size, largest first, and a base strategy; level ``k + 1`` is the base
strategy's own segments of the whole document with their regions cut at the chunks of
level ``k`` -- regions are always packed apart by the one packer
(:func:`chunkwise.packer.pack_segments`) -- so children lie inside their parent, tile its
non-whitespace text exactly, and every offset is a document offset.

Method:
    LlamaIndex's ``HierarchicalNodeParser`` (levels ``[2048, 512, 128]``, each level split
    inside the nodes of the level above) and LangChain's ``ParentDocumentRetriever``
    (parent and child splitters), with spans produced by packing, never searched for.

In a document loaded from Markdown or HTML, every level keeps each heading with the start
of its section, as the ``markdown`` strategy does (its glue goes to the packer with the
base strategy's segments): no chunk is a heading alone while its section has text. A level
whose base strategy finds no headings (``recursive``, ``sentence``) takes the header paths
of another level's, or of the document's headings: its chunks get ``header_path`` and the
breadcrumb in ``context``, as a ``markdown`` level's do (the leaves are what is embedded).
A leaf is in the section its text starts in, after its leading heading lines; an upper
level's chunk is under the common path of the sections it crosses.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..enrich import with_metadata
from ..errors import ConfigError
from ..merge import Span
from ..packer import pack_segments
from ..parsers.semantic import glue_levels
from ..registry import AUTO, register
from ..segments import Label, Region, Segments
from ..sizers import Measure
from ..types import Chunk, Document, chunk_id
from .base import BaseChunker, as_document
from .structure import StructureChunker

__all__ = ["DEFAULT_CHUNK_SIZE", "DEFAULT_CHUNK_SIZES", "LEVEL_RATIO", "HierarchicalChunker"]

DEFAULT_CHUNK_SIZE = 512
"""``chunk_size``'s default in :func:`chunkwise.chunk` and every chunker."""

DEFAULT_CHUNK_SIZES = (DEFAULT_CHUNK_SIZE, 96, 128)
"""The defaults of ``chunk_size`` (Python 512, the command line's ``CLI_DEFAULTS``: 96
tokens, 128 before): a ``chunk_size`` other than these that disagrees with
``chunk_sizes[-1]`` is a conflict."""

LEVEL_RATIO = 4
"""Without ``chunk_sizes``: three levels, each ``LEVEL_RATIO`` times its children."""


def _positive_sizes(value: Any) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not value:
        raise ConfigError(
            f"chunk_sizes must be a non-empty list of sizes, largest first (such as [2048, 512, 128]), not {value!r}"
        )
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ConfigError(f"chunk_sizes must hold integers greater than 0, not {v!r} (in {list(value)!r})")
    for a, b in zip(value, value[1:]):
        if b >= a:
            raise ConfigError(
                f"chunk_sizes must be strictly decreasing, largest first: {b} follows {a} in {list(value)!r}; "
                "sort them largest first and drop repeats"
            )
    return tuple(value)


def _per_level(name: str, value: Any, n: int, kind: type | tuple[type, ...]) -> tuple[Any, ...]:
    """One value per level: a single value for every level, or a list of ``n``."""
    if isinstance(value, kind):
        return (value,) * n
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        if len(value) != n:
            raise ConfigError(
                f"{name} has {len(value)} entries for {n} levels (chunk_sizes); give one for every level or a single one"
            )
        for v in value:
            if not isinstance(v, kind):
                raise ConfigError(f"{name} entries must be {_kind_name(kind)}, not {v!r}")
        return tuple(value)
    raise ConfigError(f"{name} must be {_kind_name(kind)} or a list of one per level, not {value!r}")


def is_llm_strategy(name: str) -> bool:
    """Whether the registered strategy ``name`` asks a chat model (its chunker takes the
    endpoint fields of :class:`chunkwise.llm.options.LLMOptions`)."""
    from ..llm.options import LLMOptions
    from ..registry import get_strategy

    try:
        return issubclass(get_strategy(name), LLMOptions)
    except (ConfigError, KeyError, TypeError):
        return False


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return "a strategy name" if kind is str else "a mapping of parameters"


def _with_glue(segs: Segments, glue: Sequence[tuple[int, int]], words: bool) -> Segments:
    """``segs`` with the ranges of ``glue`` it lacks (with ``words``, the word level the
    packer adds is named, so that it is guarded too:
    :func:`~chunkwise.parsers.semantic.glue_levels`)."""
    have = set(segs.glue)
    extra = tuple(g for g in glue if g not in have)
    if not extra:
        return segs
    levels = segs.levels
    return replace(segs, glue=segs.glue + extra, levels=glue_levels(levels) if words else levels)


def _cut_regions(regions: Sequence[Region], parents: Sequence[Span]) -> tuple[Region, ...]:
    """The base strategy's regions cut at the parents' edges: region ∩ parent, in order.

    A piece that ends at its parent's end takes the parent's boundary name. Merging of
    small regions (``Region.level``) stays inside a parent: the levels of the regions of
    parent ``p`` are raised by ``band * (len(parents) - p)``, so a region never ranks
    above (is never merged into) the last region of the parent before it, and regions of
    one parent keep their order (level -1, never merged, stays -1).
    """
    out: list[Region] = []
    band = max((r.level for r in regions), default=0) + 1
    n = len(parents)
    i = 0
    for p, par in enumerate(parents):
        while i < len(regions) and regions[i].end <= par.start:
            i += 1
        j = i
        while j < len(regions) and regions[j].start < par.end:
            r = regions[j]
            s, e = max(r.start, par.start), min(r.end, par.end)
            if s < e:
                level = r.level + band * (n - p) if r.level >= 0 else r.level
                boundary = r.end_boundary if e == r.end else par.boundary
                out.append(Region(s, e, r.reserve, boundary, r.levels, level))
            j += 1
    return tuple(out)


def _inherited_paths(
    doc_labels: Sequence[Label], segments: Sequence[Segments], chunkers: Sequence[BaseChunker]
) -> list[tuple[tuple[Label, ...], str | None]]:
    """Per level: the ``header_path`` labels it takes from elsewhere and the separator of
    the breadcrumb they give (``((), None)`` for a level whose base strategy labels header
    paths itself, or when no heading is known).

    A level without header path labels takes those of the nearest level above that has
    them, else the nearest below; when no level has them, ``doc_labels``: those of the
    document's headings (:func:`_document_headings`: a document of a format that ``auto``
    chunks by its headings -- Markdown, and what is loaded as Markdown: HTML, PDF, EPUB,
    ... -- with a heading). Labels describe document ranges, so they hold for any level's
    spans.
    """
    own = [tuple(lb for lb in s.labels if lb.key == "header_path") for s in segments]
    n = len(own)
    out: list[tuple[tuple[Label, ...], str | None]] = [((), None)] * n
    if all(own):
        return out
    for k in range(n):
        if own[k]:
            continue
        near = [j for j in range(k - 1, -1, -1) if own[j]] + [j for j in range(k + 1, n) if own[j]]
        if near:
            j = near[0]
            sep = getattr(chunkers[j], "context_separator", _SEPARATOR)
            out[k] = (own[j], sep if isinstance(sep, str) else _SEPARATOR)
            continue
        if doc_labels:
            out[k] = (tuple(doc_labels), _SEPARATOR)
    return out


def _start_paths(labels: Sequence[Label]) -> Any:
    """``(start, end) -> path``: the ``header_path`` a leaf gets from inherited labels,
    the path of the section its text starts in after its leading heading lines (a leaf
    that starts ``"### Input"`` is in section Input). That is the label holding its first
    character, or, past the weak labels there (headings with no body of their own, which
    lead the section after them), the first label that is not weak and starts inside the
    leaf; a leaf of such headings alone gets the last of them, as the ``markdown``
    strategy gives it. None where no label holds the leaf's start."""
    ordered = sorted(labels, key=lambda lb: lb.start)
    starts = [lb.start for lb in ordered]
    ends = [lb.end for lb in ordered]
    values = [lb.value for lb in ordered]
    weak = [lb.weak for lb in ordered]
    n = len(ordered)

    def path(s: int, e: int) -> Any:
        k = bisect_right(starts, s) - 1
        if k < 0 or s >= ends[k]:
            return None
        while weak[k] and k + 1 < n and starts[k + 1] < e:
            k += 1
        return values[k]

    return path


_SEPARATOR = " > "
"""What joins the titles of an inherited breadcrumb (the structure strategies' default)."""


def _document_headings(document: Document) -> tuple[tuple[tuple[int, int], ...], tuple[Label, ...]]:
    """The headings of ``document`` as the ``markdown`` strategy finds them, from one
    parse: the glue that keeps each heading with the start of its body
    (:func:`~chunkwise.parsers.semantic.heading_glue`, the same ranges) and the
    ``header_path`` labels. Both empty for a format that ``auto`` does not chunk by its
    headings, a text without a heading, or without markdown-it-py."""
    from ..parsers.semantic import glue_at_headings, markdown_segments

    segs = markdown_segments(document)
    if segs is None:
        return (), ()
    glue = glue_at_headings(segs)
    labels = tuple(lb for lb in segs.labels if lb.key == "header_path")
    # (a text without a heading: no path to give, and no empty one on every chunk)
    return tuple(glue), labels if any(lb.value for lb in labels) else ()


@register("hierarchical")
@dataclass(frozen=True, kw_only=True)
class HierarchicalChunker(BaseChunker):
    """Chunks of every level of a parent-child hierarchy, each level packed inside its parent.

    Args:
        chunk_sizes: the size of each level, largest first, in ``unit`` (strictly
            decreasing, each > 0). Default: ``[16 * chunk_size, 4 * chunk_size,
            chunk_size]``, so ``chunk_size=128, unit="tokens"`` gives LlamaIndex's
            ``[2048, 512, 128]`` tokens. When given, ``chunk_size`` becomes
            ``chunk_sizes[-1]`` (the leaf size); another ``chunk_size`` than the defaults
            512 (Python) and 128 (command line) that disagrees is a :class:`ConfigError`.
        chunk_overlap: applies to the leaves only (in ``unit``, < the leaf size); leaves
            overlap only inside their parent. Upper levels never overlap.
        base: the strategy that packs each level: one registered name for every level
            (default ``"recursive"``), or one per level (``["markdown", "recursive",
            "sentence"]``: sections as parents, sentences as leaves). ``"auto"`` picks one
            per document, as ``chunkwise.chunk(strategy="auto")`` does.
        base_params: the base strategies' own parameters: one mapping for every level, or
            one per level (``[{"split_level": 2}, {}, {}]``).
        leaves_only: return only the leaves (what to embed), still with ``parent_id``.
        client: a :class:`chunkwise.llm.ChatClient` for the levels whose base strategy asks
            a chat model (``agentic``): passed to them as ``client=`` unless their
            ``base_params`` give their own endpoint (``client`` or ``model``). A client
            with no such level is a :class:`ConfigError`. ``propositions`` cannot be a
            level (its records overlap by design).
        unit, tokenizer: see :class:`BaseChunker`; one measure of the document serves
            every level.

    Returns (from :meth:`chunk`): the chunks of every level in one list, in pre-order
    (by ``start_index``, a parent before its children), ``chunk.index`` their position in
    it. Metadata on every chunk: ``level`` (0 = largest), ``parent_id`` (the parent's
    ``id``, None at level 0), ``child_ids`` (ids of its children, empty for leaves),
    ``leaf`` (True at the last level), and the base strategy's own keys (``prev_id`` and
    ``next_id`` name neighbours of the same level). A level whose base gives no
    ``header_path`` takes it from the headings another level's base finds (the nearest
    above, else below), else from the document's headings (a Markdown, HTML, PDF, ...
    document with a heading); its breadcrumb (joined by that level's ``context_separator``,
    else ``" > "``) then starts
    ``context``. Such a leaf's path is that of the section its text starts in, after its
    leading heading lines (a leaf that starts ``"### Input"`` and runs into the next
    section is in Input); an upper level's chunk gets the common path of its sections. Each child lies inside its parent and
    the children of a parent cover all of its non-whitespace text; with overlap 0 they do
    not overlap. A chunk's ``size`` fits its level's size (except one flagged
    ``oversize``). A parent small enough to be one child has a child of the same span.
    Ids are content-derived from the document id, the level, the span and the text
    (:func:`chunkwise.types.chunk_id` of ``"<document id>#<level>"``): unique across
    levels, stable across runs.

    Raises:
        ConfigError: invalid ``chunk_sizes``, ``base`` or ``base_params`` (the message
            names the parameter), ``chunk_overlap`` not below the leaf size, a base
            configuration that makes an upper level overlap, an LLM level without an
            endpoint, or ``client`` without an LLM level.
        LLMError: (from :meth:`chunk`) an LLM level's endpoint cannot be used.

    Method:
        LlamaIndex's ``HierarchicalNodeParser``: each level split inside each node of the
        level above. Here the base strategy parses the whole document once per level and
        its regions are cut at the parents' edges; the one packer packs regions apart.

    Example:
        >>> text = "One two three. Four five six.\\n\\nSeven eight nine. Ten eleven."
        >>> cs = HierarchicalChunker(chunk_sizes=[40, 20]).chunk(text)
        >>> [(c.metadata["level"], c.text) for c in cs]  # doctest: +NORMALIZE_WHITESPACE
        [(0, 'One two three. Four five six.'), (1, 'One two three.'), (1, 'Four five six.'),
         (0, 'Seven eight nine. Ten eleven.'), (1, 'Seven eight nine.'), (1, 'Ten eleven.')]
        >>> cs[1].metadata["parent_id"] == cs[0].id and cs[0].metadata["child_ids"] == [cs[1].id, cs[2].id]
        True
    """

    chunk_sizes: Sequence[int] | None = None
    base: str | Sequence[str] = "recursive"
    base_params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None
    leaves_only: bool = False
    client: Any = None

    def __post_init__(self) -> None:
        if self.chunk_sizes is not None:
            sizes = _positive_sizes(self.chunk_sizes)
            object.__setattr__(self, "chunk_sizes", sizes)
            cs = self.chunk_size
            if cs != sizes[-1] and cs not in DEFAULT_CHUNK_SIZES:
                raise ConfigError(
                    f"chunk_size ({cs!r}) disagrees with the leaf size chunk_sizes[-1] ({sizes[-1]}); "
                    "give chunk_sizes alone, or chunk_size alone for levels of 16x, 4x and 1x it"
                )
            object.__setattr__(self, "chunk_size", sizes[-1])
        super().__post_init__()
        if self.chunk_sizes is None:
            sizes = (LEVEL_RATIO * LEVEL_RATIO * self.chunk_size, LEVEL_RATIO * self.chunk_size, self.chunk_size)
        if not isinstance(self.leaves_only, bool):
            raise ConfigError(f"leaves_only must be True or False, not {self.leaves_only!r}")
        n = len(sizes)
        if isinstance(self.base, Sequence) and not isinstance(self.base, str) and len(self.base) != n:
            from ..registry import strategy_names

            known = strategy_names()
            unknown = [b for b in self.base if isinstance(b, str) and b not in known]
            if unknown:  # named before a count that would not match anyway
                raise ConfigError(
                    f"base names the unknown strategy {unknown[0]!r} (in {list(self.base)!r}); choose one of: "
                    f"{', '.join(x for x in known if x != 'hierarchical')}"
                )
        bases = _per_level("base", self.base, n, str)
        if "hierarchical" in bases:
            raise ConfigError("base cannot be 'hierarchical'; name the strategy of each level (recursive, sentence, ...)")
        if isinstance(self.base, Sequence) and not isinstance(self.base, str):
            object.__setattr__(self, "base", tuple(self.base))
        raw = self.base_params if self.base_params is not None else {}
        params = _per_level("base_params", raw, n, Mapping)
        for p in params:
            clash = sorted({"chunk_size", "chunk_overlap", "unit", "tokenizer"} & set(p))
            if clash:
                raise ConfigError(
                    f"base_params cannot set {', '.join(clash)}: sizes come from chunk_sizes, the overlap "
                    "(leaves only) from chunk_overlap, the unit and tokenizer from this chunker's"
                )
        from ..api import make_chunker

        if "propositions" in bases:
            raise ConfigError(
                "base cannot be 'propositions': its records overlap and repeat spans, so they cannot tile a "
                "parent; use 'agentic' for model-chosen cuts at a level, or propositions on its own"
            )
        asks = [is_llm_strategy(name) for name in bases]
        if self.client is not None and not any(asks):
            raise ConfigError(
                f"client is given but no level's base asks a chat model (base={list(bases)!r}); name 'agentic' "
                "in base for the levels it should cut, or leave client out"
            )
        chunkers = []
        for k, (size, name, p) in enumerate(zip(sizes, bases, params)):
            leaf = k == n - 1
            overlap = self.chunk_overlap if leaf else 0
            # every level carries this chunker's language and density metadata (when asked for)
            p = {"detect_language": self.detect_language, "density": self.density, **p}
            if asks[k] and self.client is not None and "client" not in p and "model" not in p:
                p["client"] = self.client
            try:
                level = make_chunker(
                    name, chunk_size=size, chunk_overlap=overlap, unit=self._sizer, tokenizer=self.tokenizer, **p
                )
            except ConfigError as exc:  # say which parameter of this chunker led there
                hint = " (or give the hierarchical chunker client=, --llm-model on the command line)" if asks[k] else ""
                raise ConfigError(f"base (level {k}, {name!r}, chunk_size={size}): {exc}{hint}") from exc
            chunkers.append(level)
        object.__setattr__(self, "_sizes", sizes)
        object.__setattr__(self, "_levels", tuple(chunkers))

    @property
    def llm(self) -> Any:
        """The chat client of the first level that asks a chat model, or None (what
        ``chunkwise.chunk(..., contextualize=True)`` uses when no ``llm=`` is given)."""
        if self.client is not None:
            return self.client
        return next((c.llm for c in self._levels if is_llm_strategy(getattr(c, "name", ""))), None)  # type: ignore[attr-defined]

    def estimate(self, documents: Sequence[str | Document]) -> Any:
        """Requests, tokens and cost of chunking ``documents``, sending nothing: the sum of
        the estimates of the levels whose base asks a chat model (each such level reads
        the whole document, so its requests do not depend on the levels above); an empty
        :class:`~chunkwise.llm.Estimate` when none does.

        Returns:
            A :class:`chunkwise.llm.Estimate`.
        """
        from ..llm.client import Estimate

        total = Estimate()
        for d in documents:
            doc = as_document(d)
            for c in self.level_chunkers(doc):
                if hasattr(c, "estimate"):
                    total = total + c.estimate([doc])
        return total

    @property
    def sizes(self) -> tuple[int, ...]:
        """The size of each level, largest first, in ``unit``."""
        return self._sizes  # type: ignore[attr-defined,no-any-return]

    def level_chunkers(self, document: str | Document | None = None) -> tuple[BaseChunker, ...]:
        """The chunker of each level (for ``document``: the one ``"auto"`` picks for it)."""
        out = []
        for c in self._levels:  # type: ignore[attr-defined]
            if getattr(c, "name", "") == AUTO:
                c = c.chunker_for(document if document is not None else "")
            out.append(c)
        return tuple(out)

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """The top level's segments (the lower levels are parsed inside :meth:`chunk`)."""
        return self.level_chunkers(document)[0].parse(document, measure)

    def level_spans(self, document: Document, measure: Measure) -> list[tuple[list[Span], Segments, BaseChunker]]:
        """Per level, top first: its packed spans, the segments they were packed from and
        the level's chunker. Level ``k + 1`` packs the base segments with their regions cut
        at the spans of level ``k``.

        Raises:
            ConfigError: an upper level's spans overlap (a base parameter such as
                ``overlap_sentences`` set above the leaves).
        """
        return self._level_spans(document, measure)[0]

    def _level_spans(
        self, document: Document, measure: Measure
    ) -> tuple[list[tuple[list[Span], Segments, BaseChunker]], tuple[Label, ...]]:
        """:meth:`level_spans`, and the ``header_path`` labels of the document's headings
        when a level's base does not find them (:func:`_document_headings`)."""
        text = document.text
        out: list[tuple[list[Span], Segments, BaseChunker]] = []
        parents: list[Span] | None = None
        chunkers = self.level_chunkers(document)
        last = len(chunkers) - 1
        # a document loaded from Markdown or HTML: every level keeps a heading with the
        # start of its body, as the markdown strategy does (its glue, handed to the packer;
        # a structure strategy's level has its own)
        own = [isinstance(c, StructureChunker) for c in chunkers]
        headings, paths = _document_headings(document) if not all(own) else ((), ())
        for k, chunker in enumerate(chunkers):
            segs = chunker.parse(document, measure)
            config = chunker.pack_config()
            if headings and not own[k]:
                segs = _with_glue(segs, headings, config.words)
            if parents is not None:
                regions = segs.regions if segs.regions is not None else (Region(0, len(text)),)
                segs = replace(segs, regions=_cut_regions(regions, parents), overlap_across_regions=False)
            if k and config.keep_indent:
                # a line's indentation lies before the parent's first character when the parent
                # was trimmed there: moving a child's start back over it would leave the parent
                config = replace(config, keep_indent=False)
            spans = pack_segments(text, measure, segs, config)
            if k < last and any(b.start < a.end for a, b in zip(spans, spans[1:])):
                raise ConfigError(
                    f"level {k} ({chunker.name}, {self.sizes[k]}) packs overlapping chunks: overlap applies to "
                    "the leaves only; remove overlap parameters from base_params above the last level"
                )
            out.append((spans, segs, chunker))
            parents = spans
        return out, paths

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk one text or document into every level of the hierarchy (see the class).

        Raises:
            ConfigError: see :meth:`level_spans`.
            OversizeError: an atomic unit larger than its level under ``oversize="raise"``.
        """
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        levels, paths = self._level_spans(doc, measure)
        last = len(levels) - 1
        # per level: chunks from the enrichment pass, then ids unique across levels
        built: list[list[Chunk]] = []
        ids: list[list[str]] = []
        # a level whose base gives no header path takes the headings' labels of another
        # level (or of the document's headings): every level's chunks name their section
        inherited = _inherited_paths(paths, [segs for _, segs, _ in levels], [c for _, _, c in levels])
        for k, (spans, segs, chunker) in enumerate(levels):
            labels, _ = inherited[k]
            chunks = chunker.build_chunks(doc, spans, replace(segs, labels=segs.labels + labels) if labels else segs)
            ns = f"{doc.id}#{k}"
            built.append(chunks)
            ids.append([chunk_id(ns, c.start_index, c.end_index, c.text) for c in chunks])
        # a leaf with inherited paths is in the section its text starts in, not under the
        # common path of every section it crosses (a leaf that starts "### Input" and runs
        # into "### Strategy" is in Input): the leaves whose path that changes
        leaf_paths: dict[int, list[str]] = {}
        if inherited[last][0]:
            start_path = _start_paths(inherited[last][0])
            for j, c in enumerate(built[last]):
                path = start_path(c.start_index, c.end_index)
                if path is not None and c.metadata.get("header_path") != list(path):
                    leaf_paths[j] = list(path)
        # parents: each child lies inside exactly one parent (regions were cut at them)
        parent_of: list[list[int]] = [[]]
        for k in range(1, last + 1):
            ps = built[k - 1]
            owner = []
            p = 0
            for c in built[k]:
                while ps[p].end_index <= c.start_index:
                    p += 1
                owner.append(p)
            parent_of.append(owner)
        children: list[list[list[str]]] = [[[] for _ in lvl] for lvl in built]
        for k in range(1, last + 1):
            for j, p in enumerate(parent_of[k]):
                children[k - 1][p].append(ids[k][j])
        rows: list[tuple[int, int, int]] = []  # (start, level, position in level)
        for k in range(last if self.leaves_only else 0, last + 1):
            rows += [(c.start_index, k, j) for j, c in enumerate(built[k])]
        rows.sort()
        out: list[Chunk] = []
        for index, (_, k, j) in enumerate(rows):
            level_ids = ids[k]
            (c,) = with_metadata(
                (built[k][j],),
                {
                    "prev_id": level_ids[j - 1] if j > 0 else None,
                    "next_id": level_ids[j + 1] if j + 1 < len(level_ids) else None,
                    "level": k,
                    "parent_id": ids[k - 1][parent_of[k][j]] if k > 0 else None,
                    "child_ids": children[k][j],
                    "leaf": k == last,
                    **({"header_path": leaf_paths[j]} if k == last and j in leaf_paths else {}),
                },
            )
            # a new value that nothing else holds yet: its place and id are set as its
            # fields were (dataclasses.replace would build it a second time)
            object.__setattr__(c, "index", index)
            object.__setattr__(c, "id", level_ids[j])
            sep = inherited[k][1]
            if sep is not None:
                path = c.metadata.get("header_path")
                if path:  # the breadcrumb, before the base strategy's own context
                    own = c.context
                    crumb = sep.join(path)
                    object.__setattr__(c, "context", f"{crumb}\n{own}" if own else crumb)
            out.append(c)
        return out
