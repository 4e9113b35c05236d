"""HTML to Markdown, in reading order, for structure-aware chunking.

:func:`html_to_markdown` parses HTML with lxml (a forgiving HTML5-style parser) and renders
the content as CommonMark: headings ``h1``-``h6`` as ATX headings, paragraphs with their
inline text in place (link text kept, URLs dropped; ``code``, ``tt``, ``kbd``, ``samp`` and
docutils' ``span.literal`` as code spans), lists (nested, ordered or not), tables (GFM pipe
tables, the first row as header; a layout table -- one row, or a cell holding a code block,
a table or a heading, as texi2html indents its examples -- renders its cells as blocks; a table
nested in a cell is rendered once, where it stands, by the same rule; but a data table,
with a header row of ``th`` cells or a ``thead``, whose cells hold tables of text only is a
pipe table, each inner table in its cell as one line: cells between spaces, rows between
``"; "``; a table's ``caption`` is a paragraph above it; a cell spanning columns or rows
repeats its text in each slot it covers, so every value stays in its column, and header rows
tied by spans are one header row),
``pre`` as fenced code (language from a ``language-*``/``lang-*`` class, docutils'
``pre.code.<language>`` or Sphinx's ``div.highlight-<language>``; a ``pre`` whose ``code``
elements are versions of one example glued together, as Node.js's ES module and CommonJS
pairs, as a fenced block per version), block quotes, thematic
breaks, definition lists (each term on its line, its definition's first paragraph right
under it after ``": "``, as Pandoc writes them: one CommonMark paragraph, so a term stays
in the chunk of its definition). Scripts, styles, templates, forms and their labels,
navigation (``nav``, ``aside`` -- but not docutils' admonitions, footnotes, topics and
sidebars, nor an ``aside`` inside ``article`` or ``main``, a note or callout of the text,
unless its class or id says it is site chrome --, ``footer``, elements with ARIA roles
navigation/banner/contentinfo/search/complementary/menu/menubar/toolbar, ``hidden``, and
elements whose class or id is a word of site chrome such as ``menu``, ``sidebar``,
``breadcrumb``, ``cookie-banner``, ``skip-to-content``;
DocBook's ``navheader``/``navfooter``, texinfo's ``nav-panel`` and its ``div.header``
"Next: ... Up: ... [Index]" line, texi2html's ``[ << ] [ >> ] [Top]`` link bars, Sphinx's
``related`` bar, Node.js's ``#gtoc`` menus), a link standing alone that skips to the
content ("Skip to content", "Jump to navigation"), buttons (a code block's "copy" button
too), and permalinks beside headings (Sphinx's ``a.headerlink`` "¶", a ``#`` link to the
heading itself) are left out. A table of contents (class or id ``toc``, ``section-toc``,
``mini-toc``, ``table-of-contents``) is left out too, unless its text is longer than the
rest of the page besides the headings: a chapter's page that only lists its sections, or a
book's title page, keeps its list. When the page has a ``main`` element (else exactly one
element with ARIA role ``main``, else exactly one ``article``), only it is rendered. The page title (``<title>``, else the first ``h1``) and language
(``<html lang>``, else ``<body lang>``) are returned as metadata. A rendered line that would
start a Markdown block (``# x``, ``- x``, ``1. x``, a fence, a table row, a rule) is escaped
with a backslash; no other line is (an inline code span may start a line).

Why a renderer of our own: measured against markdownify, html2text and trafilatura on
Debian's documentation pages (``benchmarks/bench_html.py``; BENCHMARKS.md has the table),
it is the only one that keeps every heading as a heading without Sphinx's "¶" (440 of 440
on 53 Python doc pages; markdownify 3, html2text and trafilatura 0), keeps navigation out
(0 lines; markdownify and html2text 602), fences every code block of the three corpora
(texi2html's 301 examples: the others 0 to 17), adds almost no backslash escapes (1;
markdownify 2,284, trafilatura 4,562) and is 2-9x faster (2.8 MB/s on the Sphinx pages;
html2text 1.1, trafilatura 0.4, markdownify 0.3).
trafilatura drops the headings' markup and part of the text by design (it extracts the
main text of news-like pages); html2text is GPL-licensed.

Method:
    lxml.html parsing; block/inline rendering after the CommonMark spec's block
    structure; boilerplate removal by element and ARIA role, as readability-style
    extractors do.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import MissingDependencyError
from ..loaders._blocks import escape_line, starts_block

__all__ = ["html_to_markdown"]

_SKIP = frozenset(
    [
        "script",
        "style",
        "noscript",
        "template",
        "iframe",
        "object",
        "embed",
        "svg",
        "canvas",
        "form",
        "button",
        "select",
        "input",
        "textarea",
        "nav",
        "aside",
        "footer",
        "head",
        "title",
        "meta",
        "link",
        "map",
        "audio",
        "video",
        "dialog",
        "label",  # a form control's caption (forms are left out); SiSU's paragraph numbers
    ]
)
# an aside that holds content, not a page's sidebar: docutils' HTML5 admonitions, footnotes
# and topics are ``aside`` elements
_CONTENT_ASIDES = frozenset(
    ["admonition", "footnote", "footnote-list", "topic", "note", "warning", "tip", "hint", "caution",
     "important", "danger", "attention", "error", "seealso", "system-message"]
)
_SKIP_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "complementary", "menu", "menubar", "toolbar"})
# class or id words of site chrome rather than content
_SKIP_CLASSES = frozenset(
    [
        "nav",
        "navbar",
        "navigation",
        "menu",
        "mainmenu",
        "submenu",
        "menubar",
        "sidebar",
        "breadcrumb",
        "breadcrumbs",
        "footer",
        "cookie",
        "cookies",
        "cookie-banner",
        "skip-link",
        "skiplink",
        "skip-to-content",  # Node.js: "Skip to content"
        "skip-to-main",
        "skip-to-main-content",
        "skip-nav",
        "skipnav",
        "searchmenu",
        "search-box",
        "toolbar",
        "nav-panel",  # texinfo 7: Next, Previous, Up
        "navheader",  # DocBook: Prev, Up, Next
        "navfooter",
        "related",  # Sphinx: the index, modules, next, previous bar
        "gtoc",  # Node.js: the menus of the site (its pages, other versions, options)
    ]
)
# class or id words of a table of contents: left out, unless it is most of the page (a
# chapter's page that holds only the list of its sections keeps the list; see _TocPolicy)
_TOC_CLASSES = frozenset(
    [
        "toc",  # texi2html's and DocBook's table of contents
        "section-toc",  # texinfo 7: the links to a chapter's sections, before them
        "mini-toc",
        "table-of-contents",
    ]
)
# a link that skips the page's menus ("Skip to content", "Jump to navigation")
_SKIP_LINK = re.compile(
    r"(?:skip|jump) to (?:the )?(?:main )?(?:content|navigation|main|search|menu|footer)\b", re.IGNORECASE
)
# permalinks beside headings (Sphinx, Read the Docs, MkDocs, markdown-it-anchor, Docusaurus)
_PERMALINK_CLASSES = frozenset(
    ["headerlink", "anchorjs-link", "anchor-link", "header-anchor", "heading-anchor", "hash-link", "permalink"]
)
_PERMALINK_TEXTS = frozenset(["", "¶", "#", "§", "🔗", "link"])
_BLOCK = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "header",
        "hgroup",
        "hr",
        "html",
        "li",
        "main",
        "menu",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "caption",
    ]
)
_WS = re.compile(r"\s+")
# an XML declaration (XHTML): lxml refuses a str that starts with one naming an encoding
_XML_DECL = re.compile(r"\A\s*<\?xml\b[^>]*\?>", re.IGNORECASE)
_BR = "\x00"  # a <br> while inline text is collected (NUL cannot occur in parsed HTML text)


def _lxml() -> Any:
    try:
        import lxml.html
    except ImportError:
        raise MissingDependencyError("lxml", "html", "HTML parsing") from None
    return lxml.html


def _tag(el: Any) -> str:
    t = el.tag
    return t.lower() if isinstance(t, str) else ""


def _permalink(el: Any) -> bool:
    """A link to its own heading (Sphinx's ``a.headerlink`` "¶", Node.js's "#"): not text."""
    classes = set((el.get("class") or "").lower().split())
    if classes & _PERMALINK_CLASSES:
        return True
    href = el.get("href") or ""
    return href.startswith("#") and " ".join(el.text_content().split()) in _PERMALINK_TEXTS


def _texinfo_header(el: Any) -> bool:
    """Texinfo's navigation line (``div.header``: "Next: ..., Previous: ..., Up: ...
    [Index]"), not a page header holding a heading."""
    if "header" not in (el.get("class") or "").lower().split():
        return False
    return not any(_tag(x) in ("h1", "h2", "h3", "h4", "h5", "h6") for x in el.iter())


def _link_bar(el: Any) -> bool:
    """texi2html's navigation table (``[ << ] [ >> ] [Top] [Contents] [Index] [ ? ]``):
    every cell that holds text holds one bracketed link, and there are at least two."""
    texts = [" ".join(td.text_content().split()) for tr in _rows(el) for td in _cells(tr)]
    texts = [t for t in texts if t]
    return len(texts) >= 2 and all(t.startswith("[") and t.endswith("]") for t in texts)


def _rows(table: Any) -> list[Any]:
    """The rows of ``table`` itself (``tr`` children, or in its ``thead``/``tbody``/``tfoot``),
    not those of a table nested in one of its cells."""
    rows: list[Any] = []
    for child in table:
        tag = _tag(child)
        if tag == "tr":
            rows.append(child)
        elif tag in ("thead", "tbody", "tfoot"):
            rows.extend(x for x in child if _tag(x) == "tr")
    return rows


def _cells(tr: Any) -> list[Any]:
    return [c for c in tr if _tag(c) in ("td", "th")]


# HTML's rules for parsing a non-negative integer (leading whitespace, an optional sign,
# digits; anything after them is ignored): ``colspan="2px"`` is 2, ``"-1"`` and ``"x"`` fail
_SPAN = re.compile(r"[ \t\n\f\r]*([-+]?)([0-9]+)")


def _span(cell: Any, name: str) -> int:
    """A cell's ``colspan`` or ``rowspan`` as browsers read it: a missing, bad or negative
    value is 1; ``colspan`` 0 is 1 and at most 1000; ``rowspan`` at most 65534, and 0 (to
    the end of its row group) is returned as 0."""
    m = _SPAN.match(cell.get(name) or "")
    if not m:
        return 1
    n = int(m.group(2).lstrip("0")[:8] or "0")  # 8 digits are past both limits
    if m.group(1) == "-" and n:
        return 1
    if name == "colspan":
        return min(n, 1000) or 1
    return min(n, 65534)


def _grid(table: Any) -> tuple[list[list[Any]], list[list[bool]], int]:
    """The table's slots, as the HTML table model forms them (a cell spanning columns or
    rows occupies each slot it covers; a row span stops at the end of its row group:
    ``thead``, ``tbody``, ``tfoot``, or a run of ``tr`` children of the table): one list per
    row, each slot the cell covering it or None, with which slots are a cell's first (its
    anchor), and how many rows the table's ``thead`` has when it comes first (else 0).
    Rows and columns where no cell is anchored are left out: they hold only copies of a
    spanning cell (a ``colspan="100"`` meaning "the whole width", a ``rowspan`` past the
    last row), or nothing (an empty ``tr``)."""
    groups: list[tuple[str, list[Any]]] = []
    run: list[Any] = []
    for child in table:
        tag = _tag(child)
        if tag == "tr":
            run.append(child)
        elif tag in ("thead", "tbody", "tfoot"):
            if run:
                groups.append(("tr", run))
                run = []
            groups.append((tag, [x for x in child if _tag(x) == "tr"]))
    if run:
        groups.append(("tr", run))
    # per row: the column ranges [x0, x1) cells cover, and the columns cells are anchored at
    covers: list[list[tuple[int, int, Any]]] = []
    anchors: list[set[int]] = []
    head = 0
    for i, (kind, trs) in enumerate(groups):
        top = len(covers)
        covers += [[] for _ in trs]
        anchors += [set() for _ in trs]
        for y, tr in enumerate(trs, top):
            x = 0
            for cell in _cells(tr):
                moved = True
                while moved:  # the first slot of the row no cell above covers yet
                    moved = False
                    for x0, x1, _ in covers[y]:
                        if x0 <= x < x1:
                            x, moved = x1, True
                colspan, rowspan = _span(cell, "colspan"), _span(cell, "rowspan")
                end = len(covers) if rowspan == 0 else min(len(covers), y + rowspan)
                for yy in range(y, end):
                    covers[yy].append((x, x + colspan, cell))
                anchors[y].add(x)
                x += colspan
        if i == 0 and kind == "thead":
            head = sum(1 for a in anchors[top:] if a)
    columns = sorted(set().union(*anchors)) if anchors else []
    slots: list[list[Any]] = []
    first: list[list[bool]] = []
    for cov, anc in zip(covers, anchors):
        if not anc:
            continue
        row: list[Any] = []
        for x in columns:
            row.append(next((c for x0, x1, c in cov if x0 <= x < x1), None))
        slots.append(row)
        first.append([x in anc for x in columns])
    return slots, first, head


def _header_rows(slots: list[list[Any]], first: list[list[bool]], head: int) -> int:
    """How many rows of the grid make the pipe table's header row: the first row, and the
    rows below it that spans tie to it -- with a ``thead`` first, all its rows when one of
    its cells spans columns or rows; else each next row of ``th`` cells only, while a header
    cell spans down into it or a cell of the row above it spans columns (a group heading
    over its columns)."""

    def spans(y: int) -> bool:  # a cell anchored in row y spans columns
        row = slots[y]
        return any(first[y][x] and x + 1 < len(row) and row[x + 1] is row[x] for x in range(len(row)))

    def down(y: int) -> bool:  # a cell of the rows above row y covers a slot of it
        own = [c for c, a in zip(slots[y], first[y]) if a]
        return any(c is not None and not any(c is o for o in own) for c in slots[y])

    if head:
        tied = any(spans(y) for y in range(head)) or any(down(y) for y in range(1, head))
        return head if tied and head > 1 else 1
    h = 1
    while h < len(slots) and all(_tag(c) == "th" for c, a in zip(slots[h], first[h]) if a) and (
            down(h) or spans(h - 1)):
        h += 1
    return h


def _layout_table(el: Any) -> bool:
    """A table used for layout, not data: one row (texi2html indents its examples with a
    one-row table: an empty cell, then the ``pre``), or a cell holding a code block, a table
    or a heading. Its cells are rendered as blocks, in order (a table nested in a cell is
    rendered where it stands, once, as a layout or a data table by the same rule)."""
    rows = _rows(el)
    if len(rows) == 1:
        return True
    inner = [_tag(x) for x in el.iterdescendants() if _tag(x) in ("pre", "table", "h1", "h2", "h3", "h4", "h5", "h6")]
    if not inner:
        return False
    # a data table -- its first row header cells (``th``), or a ``thead`` -- whose cells
    # hold tables of text only: a pipe table, each inner table inlined in its cell
    return not (all(t == "table" for t in inner) and _header_row(el, rows))


def _header_row(table: Any, rows: list[Any]) -> bool:
    """Whether ``table`` says which row is its header: a ``thead``, or a first row of
    ``th`` cells only."""
    if any(_tag(c) == "thead" for c in table):
        return True
    cells = _cells(rows[0]) if rows else []
    return bool(cells) and all(_tag(c) == "th" for c in cells)


def _classes(el: Any) -> set[str]:
    return set((el.get("class") or "").lower().split())


def _skip_reason(el: Any) -> str:
    """Why ``el`` is left out: ``"toc"`` (a table of contents, by its class or id: see
    :data:`_TOC_CLASSES`), ``"chrome"`` (anything else left out), or ``""`` (content)."""
    tag = _tag(el)
    if tag == "aside" and (_classes(el) & _CONTENT_ASIDES or _callout(el)):
        return ""
    if tag in ("aside", "div") and _docutils_sidebar(el):
        return ""
    if not tag or tag in _SKIP:
        return "chrome"
    if tag == "table" and _link_bar(el):
        return "chrome"
    if tag == "a" and (_permalink(el) or _skip_link(el)):
        return "chrome"
    if tag == "div" and _texinfo_header(el):
        return "chrome"
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return "chrome"
    role = (el.get("role") or "").lower()
    if role in _SKIP_ROLES:
        return "chrome"
    marks = (el.get("class") or "").lower().split()
    ident = el.get("id")
    if ident:
        marks.append(ident.lower())
    if any(m in _SKIP_CLASSES for m in marks):
        return "chrome"
    return "toc" if any(m in _TOC_CLASSES for m in marks) else ""


def _callout(el: Any) -> bool:
    """An ``aside`` inside an ``article`` or ``main`` (a note, a callout, a pull quote of
    the text), not a page's sidebar: no class or id word of site chrome or of a table of
    contents, no role but its own (complementary) or note, not hidden."""
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return False
    if (el.get("role") or "complementary").lower() not in ("complementary", "note"):
        return False
    marks = [*(el.get("class") or "").lower().split(), (el.get("id") or "").lower()]
    if any(m in _SKIP_CLASSES or m in _TOC_CLASSES for m in marks):
        return False
    return any(
        _tag(a) in ("article", "main") or (a.get("role") or "").lower() in ("main", "article") for a in el.iterancestors()
    )


def _docutils_sidebar(el: Any) -> bool:
    """docutils' (and Sphinx's) ``sidebar`` directive: a ``sidebar`` whose title is a
    ``p.sidebar-title`` -- content, not the page's sidebar."""
    return "sidebar" in _classes(el) and any(
        _tag(c) == "p" and "sidebar-title" in _classes(c) for c in el
    )


def _skipped(el: Any) -> bool:
    """Whether ``el`` is left out of the page's text (site chrome, or a table of contents)."""
    return _skip_reason(el) != ""


def _skip_link(el: Any) -> bool:
    """A link to a place of its own page that skips the menus ("Skip to content"), standing
    alone: no text right before or after it (a link inside a sentence is text)."""
    href = el.get("href") or ""
    if not href.startswith("#") or _SKIP_LINK.fullmatch(" ".join(el.text_content().split())) is None:
        return False
    prev = el.getprevious()
    before = prev.tail if prev is not None else (el.getparent().text if el.getparent() is not None else None)
    return not (before or "").strip() and not (el.tail or "").strip()


# a rendered line that would start a Markdown block is escaped (one rule for every loader
# that writes Markdown)
_escape_line = escape_line


class _Renderer:
    def __init__(self, keep_toc: bool = False, tocs: list[Any] | None = None) -> None:
        self.blocks: list[str] = []
        self.keep_toc = keep_toc  # render the tables of contents as content
        self.tocs: list[Any] = [] if tocs is None else tocs  # those left out (shared with sub-renderers)

    def sub(self) -> _Renderer:
        """A renderer for a part (a list item, a definition, a quote), with this one's rule
        for tables of contents."""
        return _Renderer(self.keep_toc, self.tocs)

    def skipped(self, el: Any) -> bool:
        """Whether ``el`` is left out (:func:`_skip_reason`); a table of contents is, unless
        this renderer keeps them, and is then noted in :attr:`tocs`."""
        why = _skip_reason(el)
        if why == "toc":
            if self.keep_toc:
                return False
            self.tocs.append(el)
        return why != ""

    # -- inline ------------------------------------------------------------------------

    def inline(self, el: Any, parts: list[str]) -> None:
        """Collect the inline text of ``el`` (children included, blocks flattened)."""
        if el.text:
            parts.append(el.text)
        for child in el:
            self.inline_child(child, parts)
            if child.tail:
                parts.append(child.tail)

    def inline_child(self, child: Any, parts: list[str]) -> None:
        """The inline text of one element, without its tail."""
        tag = _tag(child)
        if self.skipped(child):
            return
        if tag == "br":
            parts.append(_BR)
        elif _code_span(child, tag):
            code = " ".join(child.text_content().split())
            if code:
                parts.append(f"`` {code} ``" if "`" in code else f"`{code}`")
        elif tag == "img":
            alt = child.get("alt")
            if alt:
                parts.append(alt)
        elif tag == "table":  # in a table's cell: its rows in one line, "; " between them
            rows = [" ".join(t for t in (self.title_of(c) for c in _cells(tr) if not self.skipped(c)) if t)
                    for tr in _rows(child)]
            caption = " ".join(self.title_of(c) for c in child if _tag(c) == "caption" and not self.skipped(c)).strip()
            line = "; ".join(r for r in rows if r)
            if caption:
                line = f"{caption}: {line}" if line else caption
            if line:
                parts.append(f" {line} ")
        else:
            block = tag in _BLOCK
            if block:
                parts.append(" ")
            self.inline(child, parts)
            if block:
                parts.append(" ")

    def text_of(self, el: Any) -> str:
        parts: list[str] = []
        self.inline(el, parts)
        lines = [_WS.sub(" ", line).strip() for line in "".join(parts).split(_BR)]
        return "\n".join(_escape_line(x) for x in lines if x)

    def title_of(self, el: Any) -> str:
        parts: list[str] = []
        self.inline(el, parts)
        return _WS.sub(" ", "".join(parts).replace(_BR, " ")).strip()

    # -- blocks ------------------------------------------------------------------------

    def add(self, block: str) -> None:
        if block.strip():
            self.blocks.append(block)

    def render(self, el: Any) -> None:
        """Render the children of a container element as blocks."""
        buf: list[str] = []
        if el.text:
            buf.append(el.text)

        def flush() -> None:
            if buf:
                lines = [_WS.sub(" ", x).strip() for x in "".join(buf).split(_BR)]
                text = "\n".join(_escape_line(x) for x in lines if x)
                if text:
                    self.add(text)
                buf.clear()

        for child in el:
            tag = _tag(child)
            if self.skipped(child):
                pass
            elif tag == "br":
                buf.append(_BR)
            elif tag in _BLOCK:
                flush()
                self.block(child, tag)
            else:
                self.inline_child(child, buf)
            if child.tail:
                buf.append(child.tail)
        flush()

    def block(self, el: Any, tag: str) -> None:
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            title = self.title_of(el)
            if title:
                self.add("#" * int(tag[1]) + " " + title)
        elif tag == "dl":
            for block in self.definition_list(el):
                self.add(block)
        elif tag == "p" or tag in ("dt", "summary", "caption", "figcaption"):
            text = self.text_of(el)
            if text:
                self.add(text)
        elif tag == "hr":
            if self.blocks and self.blocks[-1] != "---":  # none before content, none doubled
                self.add("---")
        elif tag == "pre":
            self.add(_fence(el))
        elif tag in ("ul", "ol", "menu", "dir"):
            self.add(self.list_block(el, tag == "ol"))
        elif tag == "table":
            for c in el:  # its caption, as a paragraph above it
                if _tag(c) == "caption" and not self.skipped(c):
                    self.block(c, "caption")
            if _layout_table(el):
                for tr in _rows(el):
                    for cell in _cells(tr):
                        if not self.skipped(cell):
                            self.render(cell)
            else:
                self.add(self.table(el))
        elif tag == "blockquote":
            sub = self.sub()
            sub.render(el)
            body = "\n\n".join(sub.blocks)
            if body:
                self.add("\n".join(("> " + x) if x else ">" for x in body.split("\n")))
        else:
            self.render(el)

    def definition_list(self, el: Any) -> list[str]:
        """``<dl>`` as ``term`` lines, each definition's first paragraph right under them
        after ``": "`` (Pandoc's definition-list form: in CommonMark one paragraph, so a
        term stays with its definition), the definition's other blocks after it."""
        blocks: list[str] = []
        terms: list[str] = []
        items = [c for c in el if not self.skipped(c)]
        flat: list[Any] = []
        for c in items:  # HTML allows <div> groups of dt and dd
            flat.extend([x for x in c if not self.skipped(x)] if _tag(c) == "div" else [c])
        for c in flat:
            tag = _tag(c)
            if tag == "dt":
                title = self.text_of(c).replace("\n", " ")
                if title:
                    terms.append(title)
            elif tag == "dd":
                sub = self.sub()
                sub.render(c)
                body = list(sub.blocks)
                head = "\n".join(terms)
                terms.clear()
                if body and not starts_block(body[0]):
                    first = ": " + body.pop(0)
                    blocks.append(head + "\n" + first if head else first)
                elif head:
                    blocks.append(head)
                blocks.extend(body)
            else:
                sub = self.sub()
                sub.block(c, tag) if tag in _BLOCK else sub.render(c)
                blocks.extend(sub.blocks)
        if terms:
            blocks.append("\n".join(terms))
        return blocks

    def list_block(self, el: Any, ordered: bool) -> str:
        out: list[str] = []
        n = 1
        start = el.get("start")
        if ordered and start and start.isdigit():
            n = int(start)
        for li in el:
            if _tag(li) != "li" or self.skipped(li):
                continue
            marker = f"{n}. " if ordered else "- "
            n += 1
            sub = self.sub()
            sub.render(li)
            body = "\n\n".join(sub.blocks) or ""
            pad = " " * len(marker)
            lines = body.split("\n") if body else [""]
            first = marker + lines[0] if lines[0] else marker.rstrip()
            out.append("\n".join([first] + [(pad + x) if x else "" for x in lines[1:]]))
        return "\n".join(out)

    def table(self, el: Any) -> str:
        """A data table as a pipe table, its slots as the HTML table model forms them
        (:func:`_grid`): a cell spanning columns or rows repeats its text in each slot it
        covers, so every value stays in its column and each row reads whole; a header of
        several rows tied by spans (:func:`_header_rows`) is one header row, each column
        named by the texts above it, top down."""
        slots, first, head = _grid(el)
        if not slots:
            return ""
        texts: dict[int, str] = {}

        def text(cell: Any) -> str:
            if cell is None:
                return ""
            if id(cell) not in texts:
                texts[id(cell)] = self.title_of(cell).replace("|", "\\|")
            return texts[id(cell)]

        h = _header_rows(slots, first, head)
        header: list[str] = []
        for x in range(len(slots[0])):
            names: list[str] = []
            seen: list[Any] = []
            for y in range(h):
                cell = slots[y][x]
                if cell is None or any(cell is c for c in seen):
                    continue
                seen.append(cell)
                name = text(cell)
                if name and (not names or names[-1] != name):
                    names.append(name)
            header.append(" ".join(names))
        width = len(header)
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(text(c) for c in row) + " |" for row in slots[h:]]
        return "\n".join(lines)


def _code_span(el: Any, tag: str) -> bool:
    """An inline code element: ``code``, ``tt``, ``kbd``, ``samp`` (not inside ``pre``), or
    docutils' ``span class="literal"``."""
    if tag in ("code", "tt", "kbd", "samp"):
        return _tag(el.getparent()) != "pre"
    return tag == "span" and "literal" in _classes(el)


_NOT_LANGUAGES = frozenset(["code", "literal-block", "highlight", "default", "none", "text", "notranslate"])


def _language_of(el: Any) -> str:
    """The language of a ``pre``: a ``language-*``/``lang-*`` class on it or its ``code``;
    docutils' ``pre class="code python literal-block"``; Sphinx's ``div.highlight-python3``
    around it; ``""`` when none says."""
    for node in [el, *el.iter("code")]:
        for cls in (node.get("class") or "").split():
            if cls.startswith(("language-", "lang-")):
                return cls.split("-", 1)[1]
    classes = (el.get("class") or "").split()
    if "code" in classes:
        rest = [c for c in classes if c.lower() not in _NOT_LANGUAGES]
        if rest:
            return rest[0]
    node = el.getparent()
    for _ in range(2):
        if node is None:
            break
        for cls in (node.get("class") or "").split():
            if cls.startswith("highlight-") and cls[10:].lower() not in _NOT_LANGUAGES:
                return cls[10:]
        node = node.getparent()
    return ""


# elements of a code block that are not its code: a "copy" button, a script
_NOT_CODE = frozenset(["button", "script", "style", "template", "input", "select", "textarea"])


def _code_text(el: Any) -> str:
    """The text of a ``pre``: its ``text_content()``, less the buttons and scripts in it
    (Node.js puts a "copy" button after the code, as a child of the ``pre``); the
    whitespace before a button at the end goes with it."""
    if not any(_tag(x) in _NOT_CODE for x in el.iterdescendants()):
        return el.text_content()
    parts: list[str] = []

    def walk(node: Any) -> None:
        if node.text:
            parts.append(node.text)
        for child in node:
            if _tag(child) not in _NOT_CODE:
                walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(el)
    return "".join(parts).rstrip()


def _code_language(code: Any) -> str:
    """The ``language-*``/``lang-*`` class of one ``code`` element; ``""`` when none."""
    for cls in (code.get("class") or "").split():
        if cls.startswith(("language-", "lang-")):
            return cls.split("-", 1)[1]
    return ""


def _glued_codes(el: Any) -> list[Any]:
    """The ``code`` elements of a ``pre`` that holds several versions of one example glued
    together (Node.js: ``<pre><code class="language-js mjs">...</code><code
    class="language-js cjs">...</code></pre>``, one shown at a time): two or more ``code``
    children and nothing else (but white space and buttons), with no line break where one
    ends and the next starts. ``[]`` for any other ``pre`` (a ``pre`` with one ``code``, code
    mixed with other elements or text, one ``code`` per line on lines of their own)."""
    if (el.text or "").strip():
        return []
    codes: list[Any] = []
    for child in el:
        tag = _tag(child)
        if tag == "code":
            codes.append(child)
        elif tag not in _NOT_CODE:
            return []
        if (child.tail or "").strip():
            return []
    if len(codes) < 2:
        return []
    for code in codes[:-1]:
        if _code_text(code).endswith("\n") or "\n" in (code.tail or ""):
            return []
    return codes


def _fenced(code: str, lang: str) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{code}\n{fence}"


def _fence(el: Any) -> str:
    """A ``pre`` as a fenced code block. A ``pre`` holding several versions of one example
    glued together (:func:`_glued_codes`) is a fenced block per version, each with its own
    language, when each ``code`` names one; else one block with a line break between
    them."""
    codes = _glued_codes(el)
    if codes:
        langs = [_code_language(c) for c in codes]
        texts = [_code_text(c).strip("\n") for c in codes]
        if all(langs):
            return "\n\n".join(_fenced(t, lang) for t, lang in zip(texts, langs) if t.strip())
        return _fenced("\n".join(texts), _language_of(el))
    return _fenced(_code_text(el).strip("\n"), _language_of(el))


def html_to_markdown(html: str) -> tuple[str, dict[str, Any]]:
    """Render HTML as Markdown; returns ``(markdown, metadata)``.

    ``metadata`` may hold ``title`` (``<title>``, else the first ``h1``) and ``language``
    (``<html lang>``, else ``<body lang>``, else ``<meta http-equiv="Content-Language">``).

    Raises:
        MissingDependencyError: lxml is not installed: ``pip install 'chunkwise[html]'``.

    Example:
        >>> md, meta = html_to_markdown("<title>T</title><h1>A</h1><p>x <b>y</b></p>")
        >>> md, meta["title"]
        ('# A\\n\\nx y\\n', 'T')
    """
    lxml_html = _lxml()
    if not html.strip():
        return "", {}
    from lxml.etree import ParserError

    html = _XML_DECL.sub("", html.lstrip("\ufeff"), count=1)  # the text is decoded already
    if not html.strip():
        return "", {}
    try:
        root = lxml_html.document_fromstring(html)
    except ParserError:  # "Document is empty": markup without any content
        return "", {}
    meta: dict[str, Any] = {}
    title = root.find(".//title")
    if title is not None and title.text_content().strip():
        meta["title"] = " ".join(title.text_content().split())
    lang = _language(root)
    if lang:
        meta["language"] = lang
    body = root.find(".//main")
    if body is None:
        mains = root.xpath("//*[@role='main']")  # ARIA's main landmark (Node.js, Sphinx)
        body = mains[0] if len(mains) == 1 else None
    if body is None:
        articles = root.findall(".//article")
        body = articles[0] if len(articles) == 1 else root.find(".//body")
    if body is None:
        body = root
    r = _Renderer()
    r.render(body)
    if r.tocs and _mostly_toc(r):  # a page that is its list of contents keeps it
        r = _Renderer(keep_toc=True)
        r.render(body)
    if "title" not in meta:
        h1 = root.find(".//h1")
        if h1 is not None and h1.text_content().strip():
            meta["title"] = " ".join(h1.text_content().split())
    while r.blocks and r.blocks[-1] == "---":  # a rule closing the page (before its navigation)
        r.blocks.pop()
    text = "\n\n".join(r.blocks)
    return (text + "\n") if text else "", meta


def _mostly_toc(r: _Renderer) -> bool:
    """Whether the tables of contents ``r`` left out hold more text than the rest of the
    page besides its headings (a chapter's page that lists its sections and says nothing
    else, a book's title page with its contents): then they are the page's content."""
    toc = sum(len(" ".join(el.text_content().split())) for el in r.tocs)
    rest = sum(len(b) for b in r.blocks if not b.startswith("#"))
    return toc > rest


def _language(root: Any) -> str:
    """The page's language: ``lang`` (or ``xml:lang``) of ``<html>``, else of ``<body>``,
    else ``<meta http-equiv="Content-Language">``; ``""`` when none says."""
    body = root.find(".//body")
    for el in (root, body):
        if el is not None:
            lang = el.get("lang") or el.get("xml:lang") or el.get("{http://www.w3.org/XML/1998/namespace}lang")
            lang = (lang or "").strip()
            if lang:
                return lang
    for m in root.iter("meta"):
        if (m.get("http-equiv") or "").lower() == "content-language" and (m.get("content") or "").strip():
            return m.get("content").split(",")[0].strip()
    return ""
