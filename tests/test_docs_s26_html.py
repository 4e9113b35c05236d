"""HTML: a data table with tables in its cells stays a pipe table (each inner table one line
in its cell); a table's caption is kept; what boilerplate removal leaves out."""

from __future__ import annotations

import pytest

import chunkwise

pytest.importorskip("lxml")


def _md(html: str) -> str:
    return chunkwise.parse(html, format="html").text


def test_a_table_nested_in_a_data_table_is_inlined_in_its_cell() -> None:
    html = (
        "<h1>T</h1><table><tr><th>A</th><th>B</th></tr><tr><td>1</td>"
        "<td><table><tr><td>i1</td><td>i2</td></tr></table></td></tr></table>"
    )
    assert _md(html) == "# T\n\n| A | B |\n|---|---|\n| 1 | i1 i2 |\n"
    # rows of the inner table between "; ", its caption first, pipes escaped; a thead
    html = (
        "<table><thead><tr><td>Key</td><td>Value</td></tr></thead><tbody><tr><td>k</td><td>"
        "<table><caption>Sizes</caption><tr><td>a</td><td>1|2</td></tr><tr><td>b</td><td>3</td></tr></table>"
        "</td></tr><tr><td>m</td><td>plain</td></tr></tbody></table>"
    )
    assert _md(html) == "| Key | Value |\n|---|---|\n| k | Sizes: a 1\\|2; b 3 |\n| m | plain |\n"
    chunks = chunkwise.chunk(chunkwise.parse(html, format="html"), strategy="markdown", chunk_size=500)
    assert len(chunks) == 1 and chunks[0].metadata["columns"] == ["Key", "Value"]


def test_layout_tables_are_still_rendered_as_blocks() -> None:
    # no header row: a layout table (old sites nest tables for layout)
    assert _md("<table><tr><td>A</td><td>B</td></tr><tr><td>1</td><td><table><tr><td>i1</td>"
               "<td>i2</td></tr></table></td></tr></table>") == "A\n\nB\n\n1\n\ni1\n\ni2\n"
    # a header row, but a cell holds a code block: blocks too
    assert _md("<table><tr><th>A</th></tr><tr><td><pre>x = 1</pre></td></tr></table>") == "A\n\n```\nx = 1\n```\n"


def test_a_table_caption_is_kept_above_it() -> None:
    html = "<table><caption>Prices 2024</caption><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
    assert _md(html) == "Prices 2024\n\n| A | B |\n|---|---|\n| 1 | 2 |\n"
    assert _md("<table><caption>Layout</caption><tr><td>A</td><td>B</td></tr></table>") == "Layout\n\nA\n\nB\n"


def test_an_aside_in_the_article_is_kept_site_chrome_is_not() -> None:
    page = (
        "<body><aside>Site sidebar</aside><main><h1>T</h1><p>Body.</p>"
        "<aside>Note: a callout.</aside><aside class='sidebar'>Theme sidebar</aside>"
        "<aside role='navigation'>Pages</aside><aside hidden>Hidden</aside>"
        "<footer>Posted by me</footer></main><footer>Copyright</footer></body>"
    )
    assert _md(page) == "# T\n\nBody.\n\nNote: a callout.\n"
    assert _md("<article><h1>T</h1><p>Body.</p><aside><p>Pull quote</p></aside></article>") == (
        "# T\n\nBody.\n\nPull quote\n"
    )
    # an aside outside any article or main is a page's sidebar
    assert _md("<body><h1>T</h1><p>x</p><aside>Related pages</aside></body>") == "# T\n\nx\n"
    # footers and sidebars are left out, wherever they are
    assert _md("<main><h1>T</h1><p>x</p><div class='sidebar'>Ads</div><footer>Tags: a</footer></main>") == "# T\n\nx\n"


def test_a_docutils_sidebar_is_content() -> None:
    html4 = ("<div class='document'><h1>T</h1><p>x</p><div class='sidebar'><p class='first sidebar-title'>Aside title"
             "</p><p class='last'>Aside text</p></div></div>")
    html5 = "<main><h1>T</h1><p>x</p><aside class='sidebar'><p class='sidebar-title'>Aside title</p><p>Aside text</p></aside></main>"
    for html in (html4, html5):
        assert _md(html) == "# T\n\nx\n\nAside title\n\nAside text\n"
