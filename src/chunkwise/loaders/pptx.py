"""PowerPoint presentations (``.pptx``): one page per slide, rendered to Markdown by
python-pptx.

Slide ``k`` is page ``k`` of the document's page map, so every chunk carries
``page_number``/``page_end`` (the slides it spans). Each slide starts with its title as a
level-1 heading (``# Title``; ``# Slide k`` for a slide without a title placeholder), so
the ``markdown`` strategy gives the slide title as header path; then the text of its shapes
in reading order (top to bottom, then left to right; groups opened), bulleted paragraphs as
list items nested by their outline level, tables as GFM pipe tables, a chart's title; then
the speaker notes, marked by a ``Notes:`` line before them. The core properties
(``title``, ``author``, ``created``, ``modified``, ``subject``, ``keywords``) go to the
metadata, with ``slides`` (the number of slides).

Method:
    ECMA-376 PresentationML through python-pptx (shapes, placeholders, notes slides).
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

from ..errors import MissingDependencyError
from ..types import Document
from ._blocks import BinaryLoader, MarkdownWriter, core_metadata, escape_line, pipe_table
from ._dates import core_dates
from .base import register_loader

__all__ = ["PptxLoader"]

_CORE = ("title", "author", "subject", "keywords", "last_modified_by")
NOTES_MARK = "Notes:"
"""The line that introduces a slide's speaker notes in the rendered text."""


def _pptx() -> Any:
    try:
        import pptx
    except ImportError:
        raise MissingDependencyError("python-pptx", "pptx", "reading .pptx files") from None
    return pptx


def _lines(text: str) -> list[str]:
    return [" ".join(x.split()) for x in text.replace("\x0b", "\n").split("\n") if x.strip()]


def _text_frame(frame: Any) -> str:
    """A text frame's paragraphs: one line each, indented list items by outline level for
    a paragraph above level 0 (a sub-bullet)."""
    out: list[str] = []
    for para in frame.paragraphs:
        lines = _lines(para.text)
        if not lines:
            continue
        level = int(getattr(para, "level", 0) or 0)
        if level > 0:
            pad = " " * (4 * (level - 1))
            out.append(pad + "- " + escape_line(lines[0]))
            out.extend(pad + "  " + escape_line(x) for x in lines[1:])
        else:
            out.extend(escape_line(x) for x in lines)
    return "\n".join(out)


def _position(shape: Any) -> tuple[int, int]:
    try:
        return (int(shape.top or 0), int(shape.left or 0))
    except Exception:  # noqa: BLE001 - a shape without a position sorts first
        return (0, 0)


def _shapes(shapes: Any, skip: Any) -> list[str]:
    """The blocks of shapes in reading order (groups opened in place)."""
    blocks: list[str] = []
    for shape in sorted(shapes, key=_position):
        if skip is not None and shape.shape_id == skip:
            continue
        if getattr(shape, "shape_type", None) is not None and shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
            blocks.extend(_shapes(shape.shapes, None))
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
            blocks.append(pipe_table(rows))
        elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
            blocks.append(_text_frame(shape.text_frame))
        elif getattr(shape, "has_chart", False) and shape.has_chart:
            chart = shape.chart
            if chart.has_title and chart.chart_title.has_text_frame:
                blocks.append(_text_frame(chart.chart_title.text_frame))
    return [b for b in blocks if b.strip()]


class PptxLoader(BinaryLoader):
    """PowerPoint presentations (``metadata["format"] == "pptx"``): one page per slide.

    See the module's description for what becomes what. Needs
    ``pip install 'chunkwise[pptx]'`` (python-pptx).

    Example:
        >>> import io, pptx
        >>> prs = pptx.Presentation(); s = prs.slides.add_slide(prs.slide_layouts[1])
        >>> s.shapes.title.text = "Plan"; s.placeholders[1].text = "Ship it"
        >>> s.notes_slide.notes_text_frame.text = "Say why."
        >>> buf = io.BytesIO(); prs.save(buf)
        >>> doc = PptxLoader().load_bytes(buf.getvalue(), source="a.pptx")
        >>> doc.text, doc.pages
        ('# Plan\\n\\nShip it\\n\\nNotes:\\nSay why.\\n', ((1, 0, 32),))
    """

    format: ClassVar[str] = "pptx"
    suffixes: ClassVar[tuple[str, ...]] = (".pptx", ".pptm")
    mime_types: ClassVar[tuple[str, ...]] = (
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "application/vnd.ms-powerpoint.presentation.macroenabled.12",
    )
    aliases: ClassVar[tuple[str, ...]] = ("powerpoint",)
    label: ClassVar[str] = "PPTX"
    package: ClassVar[str] = "python-pptx"
    extra: ClassVar[str] = "pptx"
    members: ClassVar[tuple[bytes, ...]] = (b"ppt/",)

    def read(self, data: bytes, *, name: str, source: str | None, metadata: dict[str, Any], id: str) -> Document:
        pptx = _pptx()
        prs = pptx.Presentation(io.BytesIO(data))
        meta = metadata
        core_dates(prs.core_properties, meta)  # UTC, the one date format of the loaders
        core_metadata(prs.core_properties, meta, _CORE)
        w = MarkdownWriter()
        count = 0
        for number, slide in enumerate(prs.slides, 1):
            count = number
            w.begin_page(number)
            title_shape = slide.shapes.title
            title = " ".join(_lines(title_shape.text_frame.text)) if title_shape is not None else ""
            w.add("# " + (title or f"Slide {number}"))
            for block in _shapes(slide.shapes, title_shape.shape_id if title_shape is not None else None):
                w.add(block)
            if slide.has_notes_slide:
                frame = slide.notes_slide.notes_text_frame
                notes = _text_frame(frame) if frame is not None else ""
                if notes.strip():
                    w.add(NOTES_MARK + "\n" + notes)
        meta["slides"] = count
        text = w.text()
        return Document(text, id=id, source=source, metadata=meta, pages=tuple(w.pages))


register_loader(PptxLoader())
