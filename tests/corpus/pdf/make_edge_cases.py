"""Writes the generated PDF edge cases of this folder (run from the repository root:
``python tests/corpus/pdf/make_edge_cases.py``; needs reportlab, BSD licence, and Pillow).

* ``two_columns.pdf``: a title across the page, then two columns of numbered sentences;
* ``two_columns_row_by_row.pdf``: two columns that the file writes line by line across
  the page;
* ``table_across_pages.pdf``: a heading, a paragraph and a 60-row table that runs onto a
  second page (its header row repeated), then a closing paragraph;
* ``image_only.pdf``: two pages of drawings and no text (a scan's case);
* ``scanned.pdf``: one page that is a picture of four lines of text (Pillow), for OCR;
* ``encrypted.pdf``: one page of text, encrypted with the user password ``secret``;
* ``owner_only.pdf``: one page of text encrypted with only an owner password (``owner``):
  it opens with the empty user password;
* ``truncated.pdf``: the first 30% of ``two_columns.pdf``;
* ``empty.pdf``: zero bytes;
* ``html_named.pdf``: an HTML page saved with a ``.pdf`` name.

The texts are written here for the tests (public domain).
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.pdfgen import canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

HERE = Path(__file__).resolve().parent / "generated"


def _fixed(doc: BaseDocTemplate | SimpleDocTemplate) -> None:
    doc._doc.info.creationDate = "D:20240102030405+00'00'"  # reproducible bytes
    doc._doc.info.modDate = doc._doc.info.creationDate


def two_columns() -> bytes:
    buf = io.BytesIO()
    doc = BaseDocTemplate(buf, pagesize=A4, title="Two columns", author="chunkwise tests", invariant=1)
    width, height = A4
    margin = 2 * cm
    gutter = 1 * cm
    col = (width - 2 * margin - gutter) / 2
    top = Frame(margin, height - margin - 3 * cm, width - 2 * margin, 3 * cm, id="top")
    left = Frame(margin, margin, col, height - 2 * margin - 3 * cm, id="left")
    right = Frame(margin + col + gutter, margin, col, height - 2 * margin - 3 * cm, id="right")
    doc.addPageTemplates([PageTemplate(id="two", frames=[top, left, right])])
    styles = getSampleStyleSheet()
    story = [Paragraph("Reading in columns", styles["Title"])]
    from reportlab.platypus import FrameBreak

    story.append(FrameBreak())
    story.append(Paragraph("Left column", styles["Heading2"]))
    for i in range(1, 15):
        story.append(Paragraph(f"Left sentence {i} belongs to the first column and ends here.", styles["BodyText"]))
    story.append(FrameBreak())
    story.append(Paragraph("Right column", styles["Heading2"]))
    for i in range(1, 15):
        story.append(Paragraph(f"Right sentence {i} belongs to the second column and ends here.", styles["BodyText"]))
    doc.build(story)
    return buf.getvalue()


def two_columns_row_by_row() -> bytes:
    """Two columns written line by line across the page (left line 1, right line 1, ...),
    as some word processors do: only the gap between the columns tells them apart."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setTitle("Two columns row by row")
    c.setFont("Helvetica-Bold", 18)
    c.drawString(2 * cm, 27 * cm, "Columns written row by row")
    c.setFont("Helvetica", 10)
    y = 25.5 * cm
    for i in range(1, 21):
        c.drawString(2 * cm, y, f"West line {i} of the first column.")
        c.drawString(11 * cm, y, f"East line {i} of the second column.")
        y -= 14
    c.showPage()
    c.save()
    return buf.getvalue()


def table_across_pages() -> bytes:
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, title="Inventory", author="chunkwise tests", invariant=1)
    styles = getSampleStyleSheet()
    rows = [["Item", "Colour", "Count"]] + [[f"item {i}", ("red", "green", "blue")[i % 3], str(i * 7)] for i in range(1, 61)]
    table = Table(rows, repeatRows=1)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")]))
    story = [
        Paragraph("Inventory", styles["Heading1"]),
        Paragraph("The table below lists every item of the store with its colour and count.", styles["BodyText"]),
        Spacer(1, 12),
        table,
        Spacer(1, 12),
        Paragraph("That is the whole inventory; the counts were taken on the first day.", styles["BodyText"]),
    ]
    doc.build(story)
    return buf.getvalue()


def image_only() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    for page in range(2):
        for k in range(8):
            c.setFillColorRGB(0.1 * k, 0.5, 1 - 0.1 * k)
            c.rect(2 * cm + k * cm, 10 * cm + page * cm, 3 * cm, 5 * cm, fill=1)
        c.showPage()
    c.save()
    return buf.getvalue()


def scanned() -> bytes:
    """A page that is only a picture of text (a scan's case, for OCR): drawn by Pillow."""
    from PIL import Image, ImageDraw, ImageFont
    from reportlab.lib.utils import ImageReader

    image = Image.new("L", (1240, 1754), 255)  # A4 at 150 dots per inch
    draw = ImageDraw.Draw(image)
    draw.text((120, 150), "Scanned Report", fill=0, font=ImageFont.load_default(size=64))
    body = ImageFont.load_default(size=32)
    lines = ["The pumps start at six every morning.", "The valves open at seven.", "The tanks are full by eight."]
    for k, line in enumerate(lines):
        draw.text((120, 320 + 60 * k), line, fill=0, font=body)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.drawImage(ImageReader(image), 0, 0, width=A4[0], height=A4[1])
    c.showPage()
    c.save()
    return buf.getvalue()


def encrypted() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, encrypt="secret", invariant=1)
    c.setFont("Helvetica", 12)
    c.drawString(2 * cm, 25 * cm, "The secret text of an encrypted document.")
    c.showPage()
    c.save()
    return buf.getvalue()


def owner_only() -> bytes:
    from reportlab.lib.pdfencrypt import StandardEncryption

    buf = io.BytesIO()
    lock = StandardEncryption("", ownerPassword="owner", canPrint=0, canCopy=0)
    c = canvas.Canvas(buf, pagesize=A4, encrypt=lock, invariant=1)
    c.setFont("Helvetica", 12)
    c.drawString(2 * cm, 25 * cm, "Anyone may read this; only the owner may change it.")
    c.showPage()
    c.save()
    return buf.getvalue()


def main() -> None:
    HERE.mkdir(exist_ok=True)
    columns = two_columns()
    files = {
        "two_columns.pdf": columns,
        "two_columns_row_by_row.pdf": two_columns_row_by_row(),
        "table_across_pages.pdf": table_across_pages(),
        "image_only.pdf": image_only(),
        "scanned.pdf": scanned(),
        "encrypted.pdf": encrypted(),
        "owner_only.pdf": owner_only(),
        "truncated.pdf": columns[: len(columns) * 3 // 10],
        "empty.pdf": b"",
        "html_named.pdf": b"<!DOCTYPE html>\n<html><head><title>Saved page</title></head>"
        b"<body><h1>Not a PDF</h1><p>A web page saved with the wrong name.</p></body></html>\n",
    }
    for name, data in files.items():
        (HERE / name).write_bytes(data)
        print(name, len(data))


if __name__ == "__main__":
    main()
