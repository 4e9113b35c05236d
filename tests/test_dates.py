"""Dates in document metadata: every loader gives ``created``/``modified`` in one format
(ISO 8601; UTC when the source gives a zone or its format says UTC; a date alone as a
date), whatever the source wrote."""

from __future__ import annotations

import datetime
import io
import re
import zipfile
from pathlib import Path

import pytest

import chunkwise
from chunkwise.loaders._dates import iso_date

CORPUS = Path(__file__).parent / "corpus" / "office"
ONE_FORMAT = re.compile(r"^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}:\d{2}(\+00:00)?)?)?)?$")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2003-12-31T10:14:55-08:00", "2003-12-31T18:14:55+00:00"),
        ("2014-06-10T11:09:00Z", "2014-06-10T11:09:00+00:00"),
        ("2024-01-02 10:00+02:00", "2024-01-02T08:00:00+00:00"),
        ("D:20230120164927Z", "2023-01-20T16:49:27+00:00"),
        ("D:20230120164927+01'00'", "2023-01-20T15:49:27+00:00"),
        ("D:20020501184600", "2002-05-01T18:46:00"),  # no zone: none invented
        ("Tue, 10 Jun 2014 11:09:00 GMT", "2014-06-10T11:09:00+00:00"),
        ("2024-01-02", "2024-01-02"),
        ("2014-06", "2014-06"),
        (
            datetime.datetime(2020, 5, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
            "2020-05-01T10:00:00+00:00",
        ),
        (datetime.date(2020, 5, 1), "2020-05-01"),
        ("June", None),
        ("2024-13-01", None),
        (42, None),
    ],
)
def test_iso_date(value, expected):
    assert iso_date(value) == expected


def test_ooxml_naive_datetimes_are_utc():
    assert iso_date(datetime.datetime(2012, 11, 17, 11, 7, 40), naive_is_utc=True) == "2012-11-17T11:07:40+00:00"


OFFICE = sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".docx", ".pptx", ".xlsx", ".epub"))


@pytest.mark.parametrize("name", OFFICE)
def test_every_office_file_gives_its_dates_in_the_one_format(name):
    pytest.importorskip("lxml")
    pytest.importorskip({".docx": "lxml", ".pptx": "pptx", ".xlsx": "openpyxl", ".epub": "lxml"}[Path(name).suffix])
    meta = chunkwise.load(CORPUS / name).metadata
    dates = {k: meta[k] for k in ("created", "modified") if k in meta}
    assert dates or name == "live-manual.en.epub" or name.endswith(".pptx")
    for value in dates.values():
        assert ONE_FORMAT.match(value), (name, value)


def test_the_same_moment_reads_the_same_from_docx_pptx_and_xlsx():
    pytest.importorskip("lxml")
    docx = chunkwise.load(CORPUS / "footnotes.docx").metadata
    assert docx["created"] == "2014-06-10T11:09:00+00:00"
    pptx = pytest.importorskip("pptx")
    prs = pptx.Presentation()
    prs.core_properties.created = datetime.datetime(2014, 6, 10, 11, 9)  # stored as W3CDTF with Z
    buf = io.BytesIO()
    prs.save(buf)
    assert chunkwise.parse(buf.getvalue(), format="pptx").metadata["created"] == docx["created"]
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    wb.active.append(["a", "b"])
    wb.properties.created = datetime.datetime(2014, 6, 10, 11, 9)
    buf = io.BytesIO()
    wb.save(buf)
    assert chunkwise.parse(buf.getvalue(), format="xlsx").metadata["created"] == docx["created"]


def test_epub_publication_and_modification_dates():
    pytest.importorskip("lxml")
    opf = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>B</dc:title>'
        "<dc:date>2015-09-22T10:00:00+02:00</dc:date>"
        '<meta property="dcterms:modified">2016-01-02T03:04:05Z</meta></metadata>'
        '<manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>'
        '<spine><itemref idref="c"/></spine></package>'
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("content.opf", opf)
        zf.writestr("c.xhtml", "<html><body><h1>One</h1><p>Text.</p></body></html>")
    meta = chunkwise.parse(buf.getvalue(), format="epub").metadata
    assert meta["created"] == "2015-09-22T08:00:00+00:00" and meta["modified"] == "2016-01-02T03:04:05+00:00"
    assert chunkwise.load(CORPUS / "live-manual.en.epub").metadata["created"] == "2015-09-22"


def test_html_meta_dates():
    pytest.importorskip("lxml")
    page = (
        '<html><head><title>T</title><meta property="article:published_time" content="2024-03-01T09:30:00+01:00">'
        "<meta name='dcterms.modified' content='2024-03-05'><meta name=\"date\" content=\"not a date\">"
        "</head><body><p>Body.</p></body></html>"
    )
    meta = chunkwise.parse(page, format="html").metadata
    assert meta["created"] == "2024-03-01T08:30:00+00:00" and meta["modified"] == "2024-03-05"
    assert "created" not in chunkwise.parse("<p>No dates.</p>", format="html").metadata


def test_markdown_front_matter_dates():
    pytest.importorskip("yaml")
    text = "---\ntitle: T\ndate: 2024-01-02T10:00:00+02:00\nlastmod: 2024-02-01\n---\n# T\n"
    doc = chunkwise.parse(text, format="markdown")
    assert doc.metadata["created"] == "2024-01-02T08:00:00+00:00" and doc.metadata["modified"] == "2024-02-01"
    doc = chunkwise.parse("---\ndate: someday\n---\n# T\n", format="markdown")
    assert "created" not in doc.metadata and doc.metadata["front_matter"]["date"] == "someday"
