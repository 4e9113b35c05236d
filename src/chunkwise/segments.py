"""The hand-over from a strategy's parser to the one packer: typed, frozen segments.

A strategy answers one question -- where may this document be cut, how strongly, what must
stay whole, and what does each part mean -- as a :class:`Segments` value:

* ``levels``: boundary levels inside a region, strongest first (:mod:`chunkwise.boundaries`;
  a topic change is the first level of the topic strategy: preferred, not forced);
* ``regions``: parts that are always packed apart (a heading of ``split_level``, a semantic
  breakpoint, front matter); ``None`` means the whole text is one region;
* ``atoms``: ranges kept whole while they fit the budget (a code block, a table, a list
  item with its sub-items); larger ones follow the chunker's oversize policy;
* ``glue``: ranges no cut may fall strictly inside (a heading and the start of its body);
* ``labels``: ranges that carry meaning (header path, code language, a table's header row),
  turned into chunk metadata by the enrichment pass (:mod:`chunkwise.enrich`);
* ``scored``: cuts with a score (lower = weaker link), split weakest first when a region is
  too big (the semantic size cap).

Nothing here knows sizes: the packer (:mod:`chunkwise.packer`) does. All offsets are
half-open Python ``str`` indices into the document text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .boundaries import Level

__all__ = ["Atom", "Label", "LabelRule", "Region", "ScoredCuts", "Segments"]

LabelRule = Literal["common_prefix", "start", "continued", "overlap", "within", "end", "range"]


@dataclass(frozen=True, slots=True)
class Atom:
    """A range kept whole while it fits the budget.

    Attributes:
        start, end: the range (characters).
        kind: what it is ("code", "table", "list_item", "turn", "function", ...), recorded
            in ``metadata["atomic"]`` of a chunk made of it alone and in error messages.
        cuts: where it may be cut when larger than the budget under ``oversize="split"``
            (sorted character offsets: a cut at ``p`` ends one piece and starts the next).
            Empty: the region's own levels split it.
        cut_name: the boundary name of those cuts ("code_line", "table_row").
    """

    start: int
    end: int
    kind: str
    cuts: tuple[int, ...] = ()
    cut_name: str = ""


@dataclass(frozen=True, slots=True)
class Label:
    """A range of the document that carries meaning, for the enrichment pass.

    Attributes:
        start, end: the range (characters).
        key: the metadata key it sets ("header_path", "code_language", "table_header", ...).
        value: the value (tuples for paths).
        rule: how a chunk gets the key from the labels of that key:

            * ``"common_prefix"``: the common prefix of the values of every label the chunk
              overlaps (a header path: the headings all of the chunk lies under);
            * ``"start"``: the value of the label holding the chunk's first character;
            * ``"continued"``: the value of the label the chunk starts strictly inside (a
              table's header row for a chunk that continues a split table);
            * ``"overlap"``: the value of the last label the chunk overlaps;
            * ``"within"``: the value when the whole chunk lies inside the label;
            * ``"end"``: the value of the label whose closed range ``[start, end]`` holds
              the chunk's end (a property of the cut after the chunk, such as the
              similarity across a semantic breakpoint);
            * ``"range"``: the value is a range ``(start, end)`` of the document; a chunk
              gets the union (lowest start, highest end) of the ranges of the labels it
              overlaps, as ``metadata[key]`` (the text of that range, an exact slice),
              ``metadata[key + "_start"]`` and ``metadata[key + "_end"]`` (a sentence's
              window of neighbouring sentences).
        weak: under ``"common_prefix"``, the label counts only for a chunk that overlaps
            no other label of its key that is not weak (the line of a heading that leads
            its subsection); a chunk that overlaps only weak labels gets the value of the
            last of them (headings with no body of their own get the path of the last).
    """

    start: int
    end: int
    key: str
    value: Any
    rule: LabelRule = "overlap"
    weak: bool = False


@dataclass(frozen=True, slots=True)
class Region:
    """A part of the text packed on its own: no chunk crosses its edges.

    Attributes:
        start, end: the range (characters).
        reserve: units of the budget kept for ``chunk.context`` (a breadcrumb counted in
            ``chunk_size``).
        end_boundary: the boundary name of the cut after the region ("h2", "semantic",
            "table"); the last region's is "end".
        levels: boundary levels for this region instead of ``Segments.levels``.
        level: its rank for merging small regions (a section's heading level, 0 for the
            text before the first heading); -1: never merged with a neighbour.
    """

    start: int
    end: int
    reserve: int = 0
    end_boundary: str = "end"
    levels: tuple[Level, ...] | None = None
    level: int = 0


@dataclass(frozen=True, slots=True)
class ScoredCuts:
    """Cuts with a score: when a region is larger than the budget it is split at its
    lowest-scored cut first, recursively (the semantic size cap).

    Attributes:
        name: the boundary name recorded for these cuts.
        starts, ends: cut ``k`` ends a piece at ``starts[k]`` and starts the next at
            ``ends[k]`` (sorted).
        scores: one float per cut; lower is a weaker link (a lower similarity).
    """

    name: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    scores: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Segments:
    """What a parser found in a document: the whole input of the packer and enricher.

    See the module docstring for each field.
    """

    levels: tuple[Level, ...] = ()
    regions: tuple[Region, ...] | None = None
    atoms: tuple[Atom, ...] = ()
    glue: tuple[tuple[int, int], ...] = ()
    labels: tuple[Label, ...] = ()
    scored: ScoredCuts | None = None
    atom_levels_at: int = 0
    """Where, in ``levels``, the cut levels of atoms split under ``oversize="split"`` go."""
    overlap_across_regions: bool = False
    """Whether ``chunk_overlap`` may extend a chunk past its region's end (semantic groups:
    yes; sections: no)."""
    twin: str | None = field(default=None, repr=False, compare=False)
    """The line-feed twin the parser read (:func:`chunkwise.boundaries.line_feed_twin` of a
    text with a lone carriage return), which the packer then reads as it is; None: the
    packer makes it itself when the text has one."""
