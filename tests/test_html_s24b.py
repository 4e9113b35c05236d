"""HTML: a ``pre`` holding several versions of one example glued together (Node.js's ES
module and CommonJS versions, one ``code`` each) renders a fenced block per version."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise

pytest.importorskip("lxml")

# as Node.js's API pages write it: the two versions glued, then the "copy" button
NODE_PAIR = (
    '<p>To use the promise-based APIs:</p>\n'
    '<pre class="with-39-chars"><code class="language-js mjs"><span class="hljs-keyword">import</span> * '
    '<span class="hljs-keyword">as</span> fs <span class="hljs-keyword">from</span> '
    "<span class=\"hljs-string\">'node:fs/promises'</span>;</code><code class=\"language-js cjs\">"
    '<span class="hljs-keyword">const</span> fs = <span class="hljs-built_in">require</span>('
    "<span class=\"hljs-string\">'node:fs/promises'</span>);</code>"
    '<button class="copy-button">copy</button></pre>\n<p>Next.</p>'
)


def test_each_version_of_a_node_example_is_its_own_fenced_block():
    doc = chunkwise.parse(NODE_PAIR, format="html")
    assert doc.text == (
        "To use the promise-based APIs:\n\n"
        "```js\nimport * as fs from 'node:fs/promises';\n```\n\n"
        "```js\nconst fs = require('node:fs/promises');\n```\n\n"
        "Next.\n"
    )


def test_multi_line_versions_are_split_where_they_were_glued():
    page = (
        '<pre><code class="language-js mjs">import { unlink } from \'node:fs\';\n\nunlink(p);</code>'
        '<code class="language-js cjs">const { unlink } = require(\'node:fs\');\n\nunlink(p);\n</code></pre>'
    )
    doc = chunkwise.parse(page, format="html")
    assert doc.text == (
        "```js\nimport { unlink } from 'node:fs';\n\nunlink(p);\n```\n\n"
        "```js\nconst { unlink } = require('node:fs');\n\nunlink(p);\n```\n"
    )


def test_glued_code_elements_without_a_language_are_one_block_with_a_line_break():
    doc = chunkwise.parse("<pre><code>first()</code><code>second()</code></pre>", format="html")
    assert doc.text == "```\nfirst()\nsecond()\n```\n"


@pytest.mark.parametrize(
    "page, expected",
    [
        # one code element per line, on lines of their own: one block, as before
        ('<pre><code class="language-c">int a;</code>\n<code class="language-c">int b;</code></pre>',
         "```c\nint a;\nint b;\n```\n"),
        # code mixed with other elements (texinfo's bc manual): one block, as before
        ('<pre class="example"><code>define</code> <var>name</var> <code>(</code> <var>p</var> '
         '<code>)</code></pre>', "```\ndefine name ( p )\n```\n"),
        # text between the code elements: one block
        ('<pre><code class="language-sh">ls</code> | <code class="language-sh">wc</code></pre>',
         "```sh\nls | wc\n```\n"),
        # one code element: as before
        ('<pre><code class="language-js mjs">a;</code><button>copy</button></pre>', "```js\na;\n```\n"),
    ],
)
def test_other_pre_elements_keep_one_block(page, expected):
    assert chunkwise.parse(page, format="html").text == expected


def test_a_version_holding_backticks_gets_a_longer_fence_of_its_own():
    page = '<pre><code class="language-md">```\nx\n```</code><code class="language-txt">y</code></pre>'
    assert chunkwise.parse(page, format="html").text == "````md\n```\nx\n```\n````\n\n```txt\ny\n```\n"


def test_a_chunk_boundary_falls_between_the_versions_not_inside_one():
    body = "\n".join(f"  step{i}();" for i in range(6))
    page = (
        f'<h2>Example</h2><pre><code class="language-js mjs">import a from \'a\';\n{body}</code>'
        f'<code class="language-js cjs">const a = require(\'a\');\n{body}</code></pre>'
    )
    doc = chunkwise.parse(page, format="html")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=130, unit="chars")
    for c in chunks:
        assert c.text == doc.text[c.start_index:c.end_index]
    texts = [c.text for c in chunks]
    assert any(t.endswith("import a from 'a';\n" + body + "\n```") for t in texts)
    assert any(t.startswith("```js\nconst a = require('a');") for t in texts)


_LINE = st.text(alphabet="abcxyz();=' ", min_size=1, max_size=12).filter(lambda s: s.strip() == s and s)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_LINE, min_size=1, max_size=3), min_size=2, max_size=4))
def test_every_glued_version_is_a_fence_of_its_own(versions):
    codes = "".join(f'<code class="language-js v{i}">' + "\n".join(v) + "</code>" for i, v in enumerate(versions))
    doc = chunkwise.parse(f"<pre>{codes}</pre>", format="html")
    assert doc.text == "\n\n".join("```js\n" + "\n".join(v) + "\n```" for v in versions) + "\n"
