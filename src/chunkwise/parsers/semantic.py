"""Sentence analysis for the semantic strategies: embeddings, similarities, segments.

The steps every embedding strategy shares, each a plain function:

* :func:`line_feed_document`: a text whose lines end with a lone carriage return is read
  as its line-feed twin, as the packer packs it;
* :func:`join_fence_lines`: a Markdown code fence line alone is no sentence of its own;
* :func:`join_bare_sentences`: nor is a line of punctuation alone (a lone ``"."``);
* :func:`make_embedder`: the embedder for a ``model``/``cache``/``batch_size``;
* :func:`buffered_vectors`: one unit vector per sentence, with ``buffer_size`` neighbours
  on each side;
* :func:`consecutive_similarities`: the cosine similarity of sentence ``i`` and ``i+1``;
* :func:`heading_glue`: the ``markdown`` strategy's glue of each heading to the start of
  its body, for a document whose text is Markdown (loaded from Markdown, HTML, ...);
* :func:`cuts_before_headings`: sentence cuts that would leave a heading at the end of a
  group moved before the heading;
* :func:`sentence_segments`: sentence groups (regions), sentence cuts scored by similarity
  and the ``boundary_similarity`` labels, as the :class:`~chunkwise.segments.Segments` the
  packer reads.

numpy and the embedding models load on first use.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..boundaries import line_feed_twin
from ..merge import Span
from ..segments import Label, Region, ScoredCuts, Segments
from ..sentences import SentenceSegmenter
from ..types import Document

__all__ = [
    "SIMILARITY_KEY",
    "SemanticAnalysis",
    "buffered_vectors",
    "consecutive_similarities",
    "cuts_before_headings",
    "embed_unique",
    "glue_levels",
    "heading_glue",
    "join_bare_sentences",
    "join_fence_lines",
    "line_feed_document",
    "make_embedder",
    "sentence_segments",
    "similarity_labels",
]

SIMILARITY_KEY = "boundary_similarity"

# a line that may open or close a fenced code block (CommonMark: at most 3 spaces of
# indentation, 3 or more backticks or tildes, then the info string)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^\r\n]*)", re.MULTILINE)


def line_feed_document(doc: Document) -> Document:
    """``doc`` itself, or, when its lines end with a lone carriage return (a classic Mac
    OS file), ``doc`` with its twin as the text: a line feed for each lone carriage
    return (:func:`chunkwise.boundaries.line_feed_twin`; same length, same offsets). The
    packer packs such a text as its twin; a semantic strategy that finds and embeds the
    twin's sentences finds the sentences, fences and similarities of the same text with
    line feeds."""
    twin = line_feed_twin(doc.text)
    return doc if twin is None else replace(doc, text=twin)


def _fence_lines(text: str) -> list[tuple[int, int, bool]]:
    """The fence lines of the top-level fenced code blocks of ``text``: the span of each
    fence (its characters and info string, no indentation or line end) and whether it
    closes a block. A fence that is never closed opens a block to the end."""
    out: list[tuple[int, int, bool]] = []
    open_char, open_len = "", 0
    for m in _FENCE.finditer(text):
        fence, info = m.group(1), m.group(2)
        s, e = m.start(1), m.end(2)
        while e > s and text[e - 1] in " \t":
            e -= 1
        if not open_char:
            if fence[0] == "`" and "`" in info:
                continue  # an inline code span, not a fence
            open_char, open_len = fence[0], len(fence)
            out.append((s, e, False))
        elif fence[0] == open_char and len(fence) >= open_len and not info.strip(" \t"):
            open_char = ""
            out.append((s, e, True))
    return out


def _fence_guarded(text: str, level: Any) -> Any:
    """``level`` without its cuts right after an opening fence line or right before a
    closing one (``level`` itself when ``text`` has no fence)."""
    if "```" not in text and "~~~" not in text:
        return level
    fences = _fence_lines(text)
    if not fences:
        return level
    from ..boundaries import FilteredLevel

    after_open = {e for _, e, closes in fences if not closes}
    before_close = {s for s, _, closes in fences if closes}

    def keep(text: str, a: int, b: int) -> bool:
        return a not in after_open and b not in before_close

    return FilteredLevel(level, keep)


def join_fence_lines(text: str, sentences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``sentences`` where a sentence that is only a code fence line goes with its code:
    a closing fence (```` ``` ````) joins the sentence before it, an opening one
    (```` ```python ````) the sentence after it. So no cut leaves a chunk that is only a
    fence, and the code keeps its fences. Returns ``sentences`` itself when nothing joins.

    Example:
        >>> t = "Run it.\\n\\n```\\nmake all.\\n```\\n"
        >>> join_fence_lines(t, [(0, 7), (9, 12), (13, 22), (23, 26)])
        [(0, 7), (9, 26)]
    """
    if "```" not in text and "~~~" not in text:
        return sentences
    fences = _fence_lines(text)
    if not fences:
        return sentences
    starts = [s for s, _ in sentences]
    n = len(sentences)
    join_prev: set[int] = set()  # sentence i joins i - 1
    for fs, fe, closes in fences:
        i = bisect_left(starts, fs)
        if i < n and starts[i] == fs and sentences[i][1] <= fe:
            if closes and i > 0:
                join_prev.add(i)
            elif not closes and i + 1 < n:
                join_prev.add(i + 1)
    if not join_prev:
        return sentences
    out: list[tuple[int, int]] = []
    for i, (s, e) in enumerate(sentences):
        if i in join_prev and out:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def join_bare_sentences(text: str, sentences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``sentences`` where a sentence with no letter and no digit (a lone ``"."`` line
    after a table, a ``"* * *"`` break) joins the sentence before it (the first one joins
    the sentence after it). So no cut leaves a chunk of punctuation alone, and such a
    line does not bend the similarity curve. Returns ``sentences`` itself when nothing
    joins.

    Example:
        >>> t = "a | 1.50\n\n.\n\nNext one."
        >>> join_bare_sentences(t, [(0, 8), (10, 11), (13, 22)])
        [(0, 11), (13, 22)]
    """
    if len(sentences) < 2:
        return sentences
    bare = [not any(c.isalnum() for c in text[s:e]) for s, e in sentences]
    if not any(bare) or all(bare):
        return sentences
    out: list[tuple[int, int]] = []
    pending = -1  # where leading bare sentences start (they join the first real one)
    for (s, e), b in zip(sentences, bare):
        if b and out:
            out[-1] = (out[-1][0], e)
        elif b:
            pending = s if pending < 0 else pending
        else:
            out.append((s if pending < 0 else pending, e))
            pending = -1
    return out


_HEADING_LEVEL = re.compile(r"h[1-6]")
# a line that may be an ATX heading or a setext underline (after container markers): a
# text without one has no heading, and is not parsed
_MAY_HEAD = re.compile(r"^[ \t>*+\-\d.)]*(?:#{1,6}(?:[ \t]|$)|(?:=+|-+)[ \t]*$)", re.MULTILINE)


def heading_glue(document: Document) -> tuple[tuple[int, int], ...]:
    """The glue that keeps each heading with the start of its body, as the ``markdown``
    strategy finds it (:class:`~chunkwise.chunkers.structure.MarkdownChunker`: from a
    heading, or a run of headings with no body between them, to the first character of
    the body after them), for a document whose ``metadata["format"]`` is one that ``auto``
    chunks by its headings (:data:`~chunkwise.registry.STRUCTURED_FORMATS`: Markdown, and
    HTML and the other formats loaded as Markdown). Other strategies hand it to the packer
    (``Segments.glue``) so that no chunk is a heading alone while its section has text.

    Returns:
        Sorted ``(start, end)`` ranges (no cut strictly inside one), empty for a document
        of another format, a text with no heading, or when markdown-it-py is missing.
    """
    segs = markdown_segments(document)
    return glue_at_headings(segs) if segs is not None else ()


def markdown_segments(document: Document) -> Any:
    """The ``markdown`` strategy's parse of ``document`` (its :class:`~chunkwise.segments.Segments`),
    or None for a document whose format ``auto`` does not chunk by its headings, a text
    with no heading, or when markdown-it-py is missing."""
    from ..errors import MissingDependencyError
    from ..registry import STRUCTURED_FORMATS

    metadata = getattr(document, "metadata", None)
    fmt = metadata.get("format") if metadata is not None else None
    text = getattr(document, "text", "")
    if fmt not in STRUCTURED_FORMATS or not text or _MAY_HEAD.search(text) is None:
        return None
    from ..chunkers.structure import MarkdownChunker

    try:
        return MarkdownChunker().parse(document)
    except MissingDependencyError:
        return None


def glue_at_headings(segs: Any) -> tuple[tuple[int, int], ...]:
    """Of the ``markdown`` strategy's glue in ``segs``, the ranges that start at a heading
    (with the link targets above it: the levels h1..h6); its other glue -- terms, rules,
    link targets -- stays its own."""
    from ..boundaries import PositionsLevel

    heads = sorted(
        p for lv in segs.levels
        if isinstance(lv, PositionsLevel) and _HEADING_LEVEL.fullmatch(lv.name) for p in lv.starts
    )
    out = []
    for s, e in sorted(segs.glue):
        k = bisect_left(heads, s)
        if k < len(heads) and heads[k] < e:
            out.append((s, e))
    return tuple(out)


def glue_levels(levels: Sequence[Any]) -> tuple[Any, ...]:
    """``levels`` with the word level below them (then the dictionary words of scripts
    written without spaces), as the packer adds them (:func:`chunkwise.merge.with_words`),
    when no level is named ``"word"``: named here, the packer's guard against cuts inside
    glue covers them too (it guards the levels it is given, not the word level it adds),
    so a heading glued to its body is not cut off at a space when the two do not fit.
    ``levels`` itself (as a tuple) when one is named ``"word"``."""
    from ..boundaries import WORD
    from ..words import DICTIONARY_WORDS

    if any(lv.name == WORD.name for lv in levels):
        return tuple(levels)
    return (*levels, WORD, DICTIONARY_WORDS)


def _spans_of(glue: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``glue`` as disjoint ranges: overlapping ones (a run of headings shares its body's
    start) joined."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(glue):
        if out and s < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _inside(spans: Sequence[tuple[int, int]], starts: Sequence[int], a: int, b: int) -> int:
    """The start of the range of ``spans`` that a cut ending a piece at ``a`` and starting
    the next at ``b`` falls strictly inside, or -1."""
    k = bisect_left(starts, a) - 1
    return spans[k][0] if k >= 0 and b < spans[k][1] else -1


def cuts_before_headings(
    sentences: Sequence[tuple[int, int]], cuts: Sequence[int], glue: Sequence[tuple[int, int]]
) -> list[int]:
    """``cuts`` (``i``: between sentence ``i`` and ``i + 1``) with each cut that falls
    strictly inside a ``glue`` range (:func:`heading_glue`: a heading and the start of
    its body) moved before the sentence where that range starts, so that the heading
    leads the group of its body; a cut with no sentence before the heading is dropped.
    Sorted, each cut once.

    Example:
        >>> sents = [(0, 5), (7, 12), (14, 23), (24, 30)]  # "Text." "# Two" "Body one." ...
        >>> cuts_before_headings(sents, [1, 2], [(7, 15)])
        [0, 2]
    """
    if not glue or not cuts:
        return list(cuts)
    spans = _spans_of(glue)
    starts = [s for s, _ in spans]
    sent_starts = [s for s, _ in sentences]
    out: set[int] = set()
    for i in cuts:
        while i >= 0:
            g = _inside(spans, starts, sentences[i][1], sentences[i + 1][0])
            if g < 0:
                out.add(i)
                break
            i = bisect_left(sent_starts, g + 1) - 2  # before the sentence that holds g
    return sorted(out)


@dataclass
class SemanticAnalysis:
    """What a semantic strategy saw: sentences, similarities, threshold, cuts, spans.

    Attributes:
        sentences: ``(start, end)`` character spans of the sentences.
        similarities: cosine similarity of sentence ``i`` and ``i+1`` (float array, n-1).
        threshold: the threshold :func:`~chunkwise.thresholds.breakpoints` compared
            against (``nan`` if none).
        cuts: indices ``i`` (between sentence ``i`` and ``i+1``) where the strategy cut
            for meaning (before the size cap), after small groups were joined.
        spans: the packed spans (after the cap and overlap).
        metadata: per-span extra metadata (``boundary_similarity``).
        segments: what the parser handed to the packer.
    """

    sentences: list[tuple[int, int]]
    similarities: Any
    threshold: float
    cuts: list[int]
    spans: list[Span] = field(default_factory=list)
    metadata: list[dict[str, Any]] = field(default_factory=list)
    segments: Segments | None = None


def make_embedder(model: Any, cache: Any, batch_size: int | None) -> Any:
    """The embedder for ``model`` (see :func:`chunkwise.embeddings.get_embedder`), wrapped in
    a :class:`~chunkwise.embeddings.CachedEmbedder` when ``cache`` (a path or cache) is set.

    Raises:
        MissingDependencyError: the model's extra is not installed.
        ConfigError: an unknown model.
    """
    from ..embeddings import CachedEmbedder, get_embedder

    kwargs: dict[str, Any] = {}
    if batch_size is not None and (
        model is None or isinstance(model, str) or (callable(model) and not hasattr(model, "embed"))
    ):
        kwargs["batch_size"] = batch_size
    emb = get_embedder(model, **kwargs)
    if cache is not None and not isinstance(emb, CachedEmbedder):
        emb = CachedEmbedder(emb, cache)
    return emb


def embed_unique(embedder: Any, texts: Sequence[str]) -> Any:
    """``embedder.embed(texts)`` as a float32 array, each distinct text embedded once."""
    import numpy as np

    uniq = list(dict.fromkeys(texts))
    vecs = np.asarray(embedder.embed(uniq), dtype=np.float32)
    if len(uniq) == len(texts):
        return vecs
    pos = {t: i for i, t in enumerate(uniq)}
    return vecs[[pos[t] for t in texts]]


def buffered_vectors(embedder: Any, text: str, sentences: Sequence[tuple[int, int]], buffer_size: int) -> Any:
    """Unit vectors of each sentence with ``buffer_size`` neighbours on each side.

    The buffered text is the source slice from the first to the last sentence of the
    window (original whitespace kept). For a linear static model (one with
    ``pooled_sums``, such as the default) the window vector is built from the sentences'
    token sums instead of embedding each window again: the same vector up to how the
    tokenizer cuts at the joins, at the cost of embedding each sentence once. A cached
    embedder embeds the window texts (they are then cached).

    Args:
        embedder: an embedder (``embed(texts) -> [n, d]`` unit vectors).
        text: the document text.
        sentences: sentence spans (characters), in order.
        buffer_size: sentences on each side (>= 0).

    Returns:
        A float ``[len(sentences), d]`` array.
    """
    b, n = buffer_size, len(sentences)
    if b and hasattr(embedder, "pooled_sums"):  # a linear (static) model: windows from sentence sums
        import numpy as np

        from ..embeddings._common import l2_normalize

        sums, counts = embedder.pooled_sums([text[s:e] for s, e in sentences])
        cs = np.vstack([np.zeros((1, sums.shape[1]), sums.dtype), np.cumsum(sums, 0, dtype=np.float64)])
        cc = np.concatenate(([0], np.cumsum(counts)))
        lo = np.maximum(np.arange(n) - b, 0)
        hi = np.minimum(np.arange(n) + b, n - 1) + 1
        return l2_normalize((cs[hi] - cs[lo]) / np.maximum(cc[hi] - cc[lo], 1)[:, None])
    texts = [text[sentences[max(0, i - b)][0] : sentences[min(n - 1, i + b)][1]] for i in range(n)]
    return embed_unique(embedder, texts)


def consecutive_similarities(vecs: Any) -> Any:
    """Cosine similarity of rows ``i`` and ``i+1`` of unit vectors (float32, ``n - 1``)."""
    import numpy as np

    if len(vecs) < 2:
        return np.zeros(0, dtype=np.float32)
    return np.einsum("ij,ij->i", vecs[:-1], vecs[1:]).astype(np.float32)


def similarity_labels(
    text: str, sentences: Sequence[tuple[int, int]], similarities: Sequence[float]
) -> tuple[Label, ...]:
    """``boundary_similarity`` labels (rule ``"end"``): a chunk that ends where sentence
    ``i`` ends gets ``similarities[i]``; one that ends inside a sentence or at the end of
    the text gets ``None``.

    The labels tile the text with closed ranges that do not overlap: the gap after each
    sentence (its end to the next one's start) carries the similarity, the inside of each
    sentence and the end of the text carry ``None``.
    """
    out: list[Label] = []
    n = len(sentences)
    for i, (s, e) in enumerate(sentences):
        if s + 1 <= e - 1:
            out.append(Label(s + 1, e - 1, SIMILARITY_KEY, None, "end"))
        if i + 1 < n:
            out.append(Label(e, sentences[i + 1][0], SIMILARITY_KEY, float(similarities[i]), "end"))
        else:
            out.append(Label(e, len(text), SIMILARITY_KEY, None, "end"))
    return tuple(out)


def sentence_segments(
    text: str,
    sentences: Sequence[tuple[int, int]],
    similarities: Sequence[float],
    groups: Sequence[tuple[int, int]],
    group_boundary: str,
    split_name: str,
    keep_fences: bool = False,
    glue: Sequence[tuple[int, int]] = (),
) -> Segments:
    """Segments of sentence groups for the packer.

    Args:
        text: the document text.
        sentences: sentence spans (characters), in order.
        similarities: similarity of sentence ``i`` and ``i+1``.
        groups: consecutive sentence index ranges ``[a, b)`` covering all sentences; each
            is a region (no chunk crosses it).
        group_boundary: the boundary name of the cut after a group ("semantic").
        split_name: the boundary name of a size-cap cut inside a group (``ScoredCuts.name``).
        keep_fences: the fallback sentence level never cuts between a code fence line
            and its code (a sentence too big for the budget is not cut before a closing
            ```` ``` ```` or after an opening one; the word level below still may).
        glue: ranges no cut may fall strictly inside when they fit (:func:`heading_glue`):
            passed to the packer, and no scored cut inside one (the size cap does not
            leave a heading at the end of a chunk).

    Returns:
        :class:`~chunkwise.segments.Segments` with the groups as regions, every sentence cut
        scored by its similarity (split weakest first when a group is over the budget),
        sentences as the level below (the fallback), the ``boundary_similarity`` labels, and
        overlap allowed across groups.
    """
    regions = tuple(
        Region(sentences[a][0], sentences[b - 1][1], end_boundary=group_boundary if b < len(sentences) else "end")
        for a, b in groups
    )
    cut_ends = tuple(e for _, e in sentences[:-1])
    cut_starts = tuple(s for s, _ in sentences[1:])
    scores = tuple(float(x) for x in similarities)
    if glue:
        spans = _spans_of(glue)
        starts = [s for s, _ in spans]
        keep = [k for k in range(len(cut_ends)) if _inside(spans, starts, cut_ends[k], cut_starts[k]) < 0]
        if len(keep) < len(cut_ends):
            cut_ends = tuple(cut_ends[k] for k in keep)
            cut_starts = tuple(cut_starts[k] for k in keep)
            scores = tuple(scores[k] for k in keep)
    scored = ScoredCuts(split_name, cut_ends, cut_starts, scores)
    level: Any = SentenceSegmenter()
    if keep_fences:
        level = _fence_guarded(text, level)
    return Segments(
        levels=glue_levels((level,)) if glue else (level,),
        regions=regions,
        glue=tuple(glue),
        labels=similarity_labels(text, sentences, similarities),
        scored=scored,
        overlap_across_regions=True,
    )
