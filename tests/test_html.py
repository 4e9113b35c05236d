"""HTML documents: rendered to Markdown in reading order, then chunked by "markdown"."""

from __future__ import annotations

import json

import pytest
from test_markdown import assert_invariants, by_text

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


# -- what real documentation pages showed ---------------------------------------------------
# Shapes taken from Sphinx (Python 3.11's HTML docs), makeinfo (bash's reference manual),
# texi2html 1.78 (gettext's manual), docutils' HTML5 writer and SiSU (Debian's live-manual).


def test_a_code_span_alone_in_a_paragraph_is_not_escaped():
    doc = chunkwise.parse("<p><code>x</code></p><p><code>a</code> then <tt>b</tt> <kbd>C-x</kbd></p>", format="html")
    assert doc.text == "`x`\n\n`a` then `b` `C-x`\n"


def test_sphinx_permalinks_stay_out_of_headings_and_header_paths():
    html = (
        '<div class="related" role="navigation"><ul><li><a href="index.html">3.11 Documentation</a> &#187;</li>'
        "</ul></div><div class='body' role='main'><section id='copyright'>"
        '<h1>Copyright<a class="headerlink" href="#copyright" title="Permalink to this heading">¶</a></h1>'
        "<p>Python and this documentation is:</p><section id='terms'>"
        '<h2>1. Terms<a class="headerlink" href="#terms">¶</a></h2><p>Text.</p></section></section></div>'
    )
    doc = chunkwise.parse(html, format="html")
    assert "¶" not in doc.text and "Documentation" not in doc.text
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=30, unit="chars")
    assert by_text(chunks, "Text.").metadata["header_path"] == ["Copyright", "1. Terms"]
    assert "¶" not in by_text(chunks, "Text.").context


def test_texinfo_navigation_lines_and_bars_are_left_out():
    makeinfo = (
        '<div class="chapter" id="Introduction"><div class="header"><p>Next: <a href="#D" rel="next">Definitions</a>, '
        'Up: <a href="#Top" rel="up">Bash Features</a> &nbsp; [<a href="#SEC_Contents">Contents</a>]'
        '[<a href="#Indexes">Index</a>]</p></div><h2 class="chapter">1 Introduction</h2>'
        '<ul class="section-toc"><li><a href="#W">What is Bash?</a></li></ul><p>Bash is the shell.</p></div>'
    )
    assert chunkwise.parse(makeinfo, format="html").text == "## 1 Introduction\n\nBash is the shell.\n"
    texi2html = (
        '<table cellpadding="1" cellspacing="1" border="0"><tr><td>[<a href="g_1.html"> &lt;&lt; </a>]</td>'
        '<td>[<a href="g_3.html"> &gt;&gt; </a>]</td><td> &nbsp; </td>'
        '<td>[<a href="g_toc.html">Top</a>]</td><td>[<a href="g_abt.html"> ? </a>]</td></tr></table>'
        '<h1 class="chapter">2. The User\'s View</h1><p>Nowadays, users log in.</p>'
    )
    assert chunkwise.parse(texi2html, format="html").text == "# 2. The User's View\n\nNowadays, users log in.\n"
    # a table of bracketed words that is content (the buttons explained) stays
    content = "<table><tr><th>Button</th><th>Name</th></tr><tr><td>[ &lt; ]</td><td>Back</td></tr></table>"
    assert "| [ < ] | Back |" in chunkwise.parse(content, format="html").text


def test_definition_lists_keep_each_term_with_its_definition():
    html = (
        '<dl class="py function"><dt class="sig sig-object py" id="json.dump">'
        '<span class="sig-prename descclassname"><span class="pre">json.</span></span>'
        '<span class="sig-name descname"><span class="pre">dump</span></span>(<em>obj</em>, <em>fp</em>)'
        '<a class="headerlink" href="#json.dump">¶</a></dt><dd><p>Serialize <em>obj</em> to <em>fp</em>.</p>'
        "<p>More about it.</p></dd></dl>"
        "<dl><dt>term</dt><dt>alias</dt><dd>one line</dd><dt>list</dt><dd><ul><li>a</li></ul></dd></dl>"
    )
    doc = chunkwise.parse(html, format="html")
    assert doc.text == (
        "json.dump(obj, fp)\n: Serialize obj to fp.\n\nMore about it.\n\n"
        "term\nalias\n: one line\n\nlist\n\n- a\n"
    )
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=45, unit="chars")
    assert chunks[0].text == "json.dump(obj, fp)\n: Serialize obj to fp."


@pytest.mark.parametrize("strategy", ["markdown", "auto"])
def test_a_term_is_not_cut_from_its_definition(strategy):
    # base-passwd's users-and-groups.html: the chunk before ended on a lone "daemon" and the
    # next began with ": Some unprivileged daemons ..."; the cut goes before the term
    definition = "Some unprivileged daemons run as daemon. " * 2
    html = f"<p>Users.</p><dl><dt>root</dt><dd>The superuser.</dd><dt>daemon</dt><dd>{definition}</dd></dl>"
    doc = chunkwise.parse(html, format="html")
    size = len(": " + definition.strip())  # the definition fits alone, not with its term
    chunks = chunkwise.chunk(doc, strategy=strategy, chunk_size=size + 2, unit="chars")
    assert all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)
    assert not any(c.text.startswith(": ") or c.text.endswith("daemon") for c in chunks), [c.text for c in chunks]
    assert any(c.text.startswith("daemon\n: Some") for c in chunks)
    wide = chunkwise.chunk(doc, strategy=strategy, chunk_size=200, unit="chars")
    assert any(c.text.endswith("daemon\n: " + definition.strip()) for c in wide)  # one unit when it fits


def test_docutils_asides_literals_and_code_languages_are_content():
    html = (
        '<main><aside class="admonition note"><p class="admonition-title">Note</p><p>Careful.</p></aside>'
        '<aside class="sidebar"><p>Site menu</p></aside>'
        '<p>Use <span class="docutils literal">sorted()</span>.</p>'
        '<pre class="code python literal-block"><code>print(1)</code></pre>'
        '<div class="highlight-python3 notranslate"><div class="highlight"><pre>x = 2</pre></div></div>'
        '<div class="substance"><label class="ocn"><a href="#o5">5</a></label><p class="i0">Body.</p></div></main>'
    )
    doc = chunkwise.parse(html, format="html")
    assert doc.text == (
        "Note\n\nCareful.\n\nUse `sorted()`.\n\n```python\nprint(1)\n```\n\n```python3\nx = 2\n```\n\nBody.\n"
    )


@pytest.mark.parametrize(
    "head", [b"<!DOCTYPE html>", b"\xef\xbb\xbf  \n<!doctype HTML>", b"<html lang='en'>", b'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">']
)
def test_html_on_standard_input_is_read_as_html(head):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    page = head + b"<head><title>T</title></head><body><h1>Hi</h1><p>Some <b>text</b>.</p></body></html>"
    doc = chunkwise.parse(page)  # the default format, text, is not a claim
    assert doc.text == "# Hi\n\nSome text.\n" and doc.metadata["format"] == "html"
    result = CliRunner().invoke(cli, ["chunk", "-", "-u", "chars"], input=page)
    assert result.exit_code == 0, result.output
    [row] = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["text"] == "# Hi\n\nSome text." and row["metadata"]["format"] == "html"
    # text that only mentions a tag stays text
    assert chunkwise.parse(b"about <html> tags\n").text == "about <html> tags\n"


def _nested(depth: int, inner: str) -> str:
    """``inner`` inside ``depth`` one-cell layout tables, one in the other."""
    return "<table><tr><td>" * depth + inner + "</td></tr></table>" * depth


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_nested_layout_tables_render_their_content_once(depth):
    # libxslt's API pages lay out with tables in tables: every level rendered the rows of
    # all the levels under it again (2 levels: 2 copies, 3 levels: 4), 446 KB for 18 KB
    doc = chunkwise.parse(_nested(depth, "<p>Inner text once.</p>"), format="html")
    assert doc.text == "Inner text once.\n"


def test_a_table_in_a_cell_is_rendered_where_it_stands_by_the_same_rule():
    data = "<table><tr><th>k</th><th>v</th></tr><tbody><tr><td>a</td><td>1</td></tr></tbody></table>"
    html = (
        "<table><tbody><tr><td><h2>Before</h2></td><td>" + _nested(2, data) + "<p>After.</p></td></tr>"
        "<tr><td>Last <b>cell</b>.</td></tr></tbody></table>"
    )
    doc = chunkwise.parse(html, format="html")
    assert doc.text == "## Before\n\n| k | v |\n|---|---|\n| a | 1 |\n\nAfter.\n\nLast cell.\n"
    tables = chunkwise.chunk(doc, strategy="table", chunk_size=200, unit="chars")
    assert any("| a | 1 |" in c.text for c in tables)
    assert sum(c.text.count("| a | 1 |") for c in tables) == 1


def test_a_left_out_table_in_a_cell_stays_out():
    # DocBook's "navigation" table inside a layout cell: its rows leaked through the
    # outer table's rows
    nav = '<table class="navigation"><tr><td><a href="p.html">Prev</a></td><td>Up</td></tr></table>'
    html = "<table><tr><td>" + nav + "<p>Body.</p></td></tr><tr><td><pre>x</pre></td></tr></table>"
    assert chunkwise.parse(html, format="html").text == "Body.\n\n```\nx\n```\n"


def test_rendered_length_stays_near_the_visible_text_of_deep_layouts():
    # a page of many rows in three levels of layout tables: the rendered text is about
    # as long as the text a browser shows, not a multiple of it
    rows = "".join(f"<tr><td><p>Entry {i} of the index.</p></td></tr>" for i in range(40))
    html = _nested(2, f"<table>{rows}<tr><td><pre>code</pre></td></tr></table>")
    doc = chunkwise.parse(html, format="html")
    import lxml.html

    visible = len(" ".join(lxml.html.fromstring(html).text_content().split()))
    assert len(doc.text) < 1.2 * visible
    assert [doc.text.count(f"Entry {i} of") for i in range(40)] == [1] * 40
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=100, unit="chars")
    assert_invariants(doc.text, chunks, 100)
