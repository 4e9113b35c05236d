"""HTML documents: rendered to Markdown in reading order, then chunked by "markdown"."""

from __future__ import annotations

import pytest
from test_markdown import assert_invariants

import chunkwise

pytest.importorskip("lxml")
pytest.importorskip("markdown_it")


def test_reading_order_and_blocks():
    html = (
        "<html lang='fr'><head><title> Le  titre </title><style>p{}</style></head><body>"
        "<nav><a href='/'>Accueil</a></nav>"
        "<h1>Guide</h1><p>Un <a href='x'>lien</a> et du <code>code</code>.</p>"
        "<ul><li>un</li><li>deux<ol><li>a</li></ol></li></ul>"
        "<table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td>1</td></tr></table>"
        "<pre class='language-sql'>SELECT 1;\n```\nSELECT 2;</pre>"
        "<blockquote><p>Cité.</p></blockquote><hr><script>alert(1)</script>"
        "<p>1. pas une liste</p><footer>pied</footer></body></html>"
    )
    doc = chunkwise.parse(html, format="html")
    assert doc.metadata["title"] == "Le titre" and doc.metadata["language"] == "fr"
    assert doc.text == (
        "# Guide\n\n"
        "Un lien et du `code`.\n\n"
        "- un\n- deux\n\n  1. a\n\n"
        "| k | v |\n|---|---|\n| a\\|b | 1 |\n\n"
        "````sql\nSELECT 1;\n```\nSELECT 2;\n````\n\n"
        "> Cité.\n\n"
        "---\n\n"
        "1\\. pas une liste\n"
    )
    for left_out in ("Accueil", "alert", "pied", "p{}"):
        assert left_out not in doc.text


def test_rendered_markdown_parses_back_to_the_same_structure():
    from chunkwise.parsers.markdown import MarkdownParser

    html = "<h2>A</h2><p># not a heading</p><p>- not a list</p><pre>code\n# no heading</pre><h3>B</h3><p>x</p>"
    doc = chunkwise.parse(html, format="html")
    heads = MarkdownParser().parse(doc.text).headings
    assert [(h.level, h.title) for h in heads] == [(2, "A"), (3, "B")]


def test_langchain_html_header_splitter_example():
    # LangChain's HTMLHeaderTextSplitter example, in our own words: h1 > h2 > h3 inside
    # nested divs give each text its full header path.
    html = (
        "<html><body><div><h1>Garden</h1><p>Why we grow food.</p>"
        "<div><h2>Soil</h2><p>Soil comes first.</p><h3>Compost</h3><p>Turn it weekly.</p>"
        "<h3>Mulch</h3><p>Straw works well.</p></div>"
        "<div><h2>Water</h2><p>Water at dawn.</p></div></div></body></html>"
    )
    doc = chunkwise.parse(html, format="html")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=500)
    assert_invariants(doc.text, chunks, 500)
    got = {c.text.split("\n\n")[-1]: c.metadata["header_path"] for c in chunks}
    assert got == {
        "Why we grow food.": ["Garden"],
        "Soil comes first.": ["Garden", "Soil"],
        "Turn it weekly.": ["Garden", "Soil", "Compost"],
        "Straw works well.": ["Garden", "Soil", "Mulch"],
        "Water at dawn.": ["Garden", "Water"],
    }
    # Text after the last </div> follows "Water" in reading order, so it stays in that
    # section here (LangChain joins it to the previous text with the path ["Garden"]).


def test_load_html_file_and_chunk(tmp_path):
    p = tmp_path / "page.htm"
    p.write_text("<title>T</title><article><h1>One</h1><p>Body text.</p></article>", encoding="utf-8")
    doc = chunkwise.load(p)
    assert doc.metadata["format"] == "html" and doc.metadata["title"] == "T"
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=100)
    assert [c.metadata["header_path"] for c in chunks] == [["One"]]
    assert chunks[0].metadata["title"] == "T"


def test_empty_and_text_only_html():
    assert chunkwise.parse("", format="html").text == ""
    assert chunkwise.parse("   ", format="html").text == ""
    assert chunkwise.parse("just words", format="html").text == "just words\n"


def test_br_keeps_a_line_break_and_whitespace_collapses():
    doc = chunkwise.parse("<p>one\n   two<br>three</p>", format="html")
    assert doc.text == "one two\nthree\n"
