"""HTML boilerplate: a page that is its table of contents keeps it; skip links, site menus
and "copy" buttons in code blocks are left out; the ARIA main landmark is the page."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise

pytest.importorskip("lxml")

# a texinfo 6 chapter page (makeinfo --html, one node per file): the chapter's heading,
# then only the list of its sections
TEXINFO_CHAPTER = (
    '<html><head><title>Using libffi</title></head><body lang="en">'
    '<div class="chapter" id="Using-libffi"><div class="header"><p>Next: <a href="Memory-Usage.html" '
    'rel="next">Memory Usage</a>, Previous: <a href="Introduction.html" rel="prev">What is libffi?</a>, '
    'Up: <a href="index.html" rel="up">libffi</a> &nbsp; [<a href="Index.html">Index</a>]</p></div><hr>'
    '<span id="Using-libffi-1"></span><h2 class="chapter">2 Using libffi</h2>'
    '<ul class="section-toc"><li><a href="The-Basics.html">The Basics</a></li>'
    '<li><a href="Simple-Example.html">Simple Example</a></li><li><a href="Types.html">Types</a></li>'
    '<li><a href="Thread-Safety.html">Thread Safety</a></li></ul></div></body></html>'
)


def test_a_chapter_page_that_only_lists_its_sections_keeps_the_list():
    doc = chunkwise.parse(TEXINFO_CHAPTER, format="html")
    assert doc.text == (
        "## 2 Using libffi\n\n- The Basics\n- Simple Example\n- Types\n- Thread Safety\n"
    )
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=200, unit="chars")
    assert [c.text for c in chunks] == [doc.text.strip()]
    assert "Next:" not in doc.text and "[Index]" not in doc.text  # the navigation line stays out


def test_a_docbook_title_page_keeps_its_table_of_contents():
    page = (
        '<div class="book"><div class="titlepage"><h1 class="title">User Manual</h1>'
        '<p class="releaseinfo">Release 3.19.0</p></div><hr></div>'
        '<div class="toc"><p><b>Table of Contents</b></p><dl class="toc">'
        '<dt><span class="chapter"><a href="intro.html">1. Introduction</a></span></dt>'
        '<dt><span class="chapter"><a href="core.html">2. Using the core</a></span></dt>'
        '<dt><span class="chapter"><a href="adv.html">3. Advanced topics</a></span></dt></dl></div>'
    )
    text = chunkwise.parse(page, format="html").text
    assert "Table of Contents" in text and "2\\. Using the core" in text and "Release 3.19.0" in text


def test_a_table_of_contents_before_a_longer_body_stays_out():
    page = (
        "<h2>2 Using libffi</h2><ul class='section-toc'><li><a href='b.html'>The Basics</a></li>"
        "<li><a href='t.html'>Types</a></li></ul>"
        "<p>Using libffi means describing a function's arguments and calling it from C.</p>"
    )
    text = chunkwise.parse(page, format="html").text
    assert text == "## 2 Using libffi\n\nUsing libffi means describing a function's arguments and calling it from C.\n"


# a Node.js API page: a skip link, the site's menu (a navigation column, a header with the
# pickers), the page's table of contents, then the content in the ARIA main landmark; code
# blocks end with a "copy" button
NODE_PAGE = (
    '<html lang="en"><head><title>Command-line API | Node.js v20 Documentation</title></head>'
    '<body class="alt apidoc" id="api-section-cli">'
    '<a href="#apicontent" class="skip-to-content">Skip to content</a>'
    '<div id="content" class="clearfix">'
    '<div role="navigation" id="column2" class="interior"><ul><li><a href="documentation.html">About this '
    'documentation</a></li><li><a href="assert.html">Assertion testing</a></li></ul></div>'
    '<div id="column1" data-id="cli" class="interior"><header class="header">'
    '<div class="header-container"><h1>Node.js v20 documentation</h1></div>'
    '<div id="gtoc"><ul><li class="picker-header"><a href="#toc-picker">Table of contents</a>'
    '<div class="picker"><div class="toc"><ul><li><a href="#synopsis">Synopsis</a></li></ul></div></div></li>'
    '<li class="picker-header"><a href="#gtoc-picker">Index</a></li>'
    '<li class="picker-header"><a href="#options-picker">Options</a><div class="picker"><ul>'
    '<li><a href="all.html">View on single page</a></li></ul></div></li></ul></div><hr></header>'
    '<details role="navigation" id="toc" open><summary>Table of contents</summary><ul>'
    '<li><a href="#synopsis">Synopsis</a></li></ul></details>'
    '<div role="main" id="apicontent"><h2>Command-line API<span><a class="mark" href="#command-line-api" '
    'id="command-line-api">#</a></span></h2><p>Node.js comes with a variety of CLI options.</p>'
    '<section><h3>Synopsis</h3><p>Run <code>node --help</code>.</p>'
    '<pre><code class="language-js">require(\'nodejs-addon-example\');</code> '
    '<button class="copy-button">copy</button></pre>'
    '<pre><code class="language-js">const copy = 1;\n}</code><button class="copy-button">copy</button></pre>'
    "</section></div></div></div></body></html>"
)


def test_node_pages_keep_only_their_content():
    doc = chunkwise.parse(NODE_PAGE, format="html")
    assert doc.text == (
        "## Command-line API\n\nNode.js comes with a variety of CLI options.\n\n### Synopsis\n\n"
        "Run `node --help`.\n\n```js\nrequire('nodejs-addon-example');\n```\n\n```js\nconst copy = 1;\n}\n```\n"
    )
    assert doc.metadata["title"] == "Command-line API | Node.js v20 Documentation"
    texts = [c.text for c in chunkwise.chunk(doc, strategy="auto", chunk_size=400, unit="chars")]
    assert not any(t.startswith(("Skip to content", "- Table of contents")) for t in texts)


def test_skip_links_and_site_menus_without_a_main_landmark():
    page = (
        '<body><a href="#main-content">Skip to main content</a>'
        '<div id="gtoc"><ul><li><a href="#x">Table of contents</a></li><li><a href="i.html">Index</a></li></ul></div>'
        '<ul role="menubar"><li role="none"><a role="menuitem" href="/">Home</a></li></ul>'
        '<h1 id="main-content">Guide</h1><p>See <a href="#setup">skip to setup</a> below.</p>'
        '<p><a href="#later">Skip to content</a> is what the first link of a page often says.</p></body>'
    )
    text = chunkwise.parse(page, format="html").text
    assert text.startswith("# Guide\n\n")
    assert "See skip to setup below." in text  # a link in a sentence is text
    assert "Index" not in text and "Home" not in text
    # a "Skip to content" link inside a sentence is text
    assert "Skip to content is what the first link of a page often says." in text


def test_a_button_inside_code_is_left_out_but_code_that_says_copy_stays():
    page = "<pre><code>cp a b  # copy\ncopy</code></pre><pre>x = 1<button>copy</button>\n</pre>"
    assert chunkwise.parse(page, format="html").text == "```\ncp a b  # copy\ncopy\n```\n\n```\nx = 1\n```\n"


def test_several_main_landmarks_fall_back_to_the_body():
    page = '<body><div role="main"><p>One.</p></div><div role="main"><p>Two.</p></div><p>Three.</p></body>'
    assert chunkwise.parse(page, format="html").text == "One.\n\nTwo.\n\nThree.\n"


_items = st.lists(st.text(alphabet="abc xyz", min_size=1, max_size=12).filter(str.strip), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(_items, st.text(alphabet="abc xyz.", max_size=80))
def test_a_table_of_contents_is_kept_exactly_when_it_outweighs_the_rest(items, body):
    toc = "".join(f"<li><a href='#{i}'>{t}</a></li>" for i, t in enumerate(items))
    page = f"<h2>Chapter</h2><ul class='toc'>{toc}</ul>" + (f"<p>{body}</p>" if body.strip() else "")
    text = chunkwise.parse(page, format="html").text
    toc_len = len(" ".join("".join(items).split()))
    rest = len(" ".join(body.split()))
    listed = all(("- " + " ".join(t.split())) in text for t in items)
    assert listed == (toc_len > rest)
    assert " ".join(body.split()) in text  # the body is never dropped
