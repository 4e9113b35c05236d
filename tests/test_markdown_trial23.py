"""A user's trial on Debian documentation: a heading over a thematic break leads what
follows (texinfo's HTML puts a rule under many headings), and the ``semantic`` strategy
never leaves a chunk that is only a code fence."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.chunkers.structure import MarkdownChunker

pytest.importorskip("markdown_it")

_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_RULE = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})|\s*<hr\b[^>]*>\s*", re.IGNORECASE)
_BODY = "Body sentence about the tool. " * 20
_NUMBERS = "Numbers are arbitrary precision. " * 20


def _heading_only(text: str) -> bool:
    """Whether every non-blank line of ``text`` is an ATX heading or a thematic break."""
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(_ATX.match(line) or _RULE.fullmatch(line) for line in lines)


def _fence_only(text: str) -> bool:
    s = text.strip()
    return bool(s) and not set(s) - set("`~ \t\r\n")


@pytest.mark.parametrize("rule", ["---", "***", "___", "- - -", " * * *", "<hr>", "<hr/>", '<HR class="x">'])
def test_a_heading_over_a_rule_goes_with_the_section_that_follows(rule):
    text = (
        f"# Manual\n\n## 1 Intro\n\n{rule}\n\n### 1.1 Description\n\n{_BODY}\n\n"
        f"## 2 Usage\n\n{rule}\n\n### 2.1 Numbers\n\n{_NUMBERS}\n"
    )
    chunker = MarkdownChunker(chunk_size=400)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 400, chunker.sizer)
    assert not [c.text for c in chunks if _heading_only(c.text)]
    first = chunks[0]
    assert first.text.startswith("# Manual\n\n## 1 Intro") and "Body sentence" in first.text
    assert first.metadata["header_path"] == ["Manual", "1 Intro", "1.1 Description"]
    usage = next(c for c in chunks if "## 2 Usage" in c.text)
    assert usage.text.startswith("## 2 Usage") and "Numbers are" in usage.text
    assert usage.metadata["header_path"] == ["Manual", "2 Usage", "2.1 Numbers"]


def test_a_heading_and_rule_before_a_stronger_heading_lead_it():
    text = f"# A\n\n{_BODY}\n\n## B\n\n---\n\n# C\n\n{_NUMBERS}\n"
    chunks = MarkdownChunker(chunk_size=2000).chunk(text)
    assert [c.text[:12] for c in chunks] == ["# A\n\nBody se", "## B\n\n---\n\n#"]
    assert chunks[1].metadata["header_path"] == ["C"]


def test_a_heading_and_rule_stay_with_the_text_under_them_in_a_tight_budget():
    text = "# Intro\n\nSome text here.\n\n## A\n\n---\n\n" + "Words of the body go on and on. " * 6 + "\n"
    chunks = MarkdownChunker(chunk_size=40).chunk(text)
    assert not [c.text for c in chunks if _heading_only(c.text)]
    assert chunks[1].text.startswith("## A\n\n---\n\nWords")


def test_a_rule_between_paragraphs_is_still_a_boundary():
    text = f"# A\n\n{_BODY}\n\n---\n\n{_NUMBERS}\n"
    chunks = MarkdownChunker(chunk_size=700).chunk(text)
    assert [(c.text[:5], c.text[-5:]) for c in chunks] == [("# A\n\n", "tool."), ("---\n\n", "sion.")]


@pytest.mark.parametrize("split_level", [1, 2, 6])
@pytest.mark.parametrize("lead", ["## Top\n\n", "## Top\n\n---\n\n", "### Top\n\n***\n\n## Sub\n\n<hr>\n\n"])
def test_empty_headings_and_their_rules_before_the_first_section_lead_it(lead, split_level):
    text = f"{lead}# A\n\nThe body of A.\n"
    chunks = MarkdownChunker(chunk_size=200, split_level=split_level).chunk(text)
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [(text.strip(), ["A"])]


def test_text_before_the_first_section_is_still_a_part_of_its_own():
    text = "Intro text.\n\n---\n\n# A\n\nThe body of A.\n"
    chunks = MarkdownChunker(chunk_size=200, split_level=1).chunk(text)
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [
        ("Intro text.\n\n---", []),
        ("# A\n\nThe body of A.", ["A"]),
    ]


_WORDS = st.sampled_from("alpha beta gamma delta tool number scale value".split())
_SENTENCE = st.lists(_WORDS, min_size=3, max_size=12).map(lambda ws: " ".join(ws).capitalize() + ".")
_PARA = st.lists(_SENTENCE, min_size=1, max_size=4).map(" ".join)
_HEADING = st.tuples(st.integers(1, 4), st.lists(_WORDS, min_size=1, max_size=2)).map(
    lambda lt: "#" * lt[0] + " " + " ".join(lt[1])
)
_RULE_TEXT = st.sampled_from(["---", "***", "___", "<hr>", "* * *"])


@st.composite
def _ruled_docs(draw):
    """Sections of at most two headings, each with a rule under it or not, and a body
    (empty for some), the way texinfo's HTML reads once rendered."""
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        for _ in range(draw(st.integers(1, 2))):
            parts.append(draw(_HEADING))
            if draw(st.booleans()):
                parts.append(draw(_RULE_TEXT))
        parts.extend(draw(st.lists(_PARA, max_size=3)))
    return "\n\n".join(parts) + "\n"


@given(_ruled_docs(), st.integers(200, 600), st.integers(1, 6))
def test_property_no_heading_only_chunk_while_a_body_follows(text, size, split_level):
    chunker = MarkdownChunker(chunk_size=size, split_level=split_level)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    for c in chunks:
        if _heading_only(c.text):
            # only a last section with no text of its own: nothing follows it to lead
            assert _heading_only(text[c.start_index :]), c.text


# -- semantic: a code fence line is never a chunk of its own -----------------------------

np = pytest.importorskip("numpy")


class _Bag:
    """A fast deterministic embedder: the words of a text counted into 8 dimensions."""

    name = "bag-8"
    dim = 8

    def embed(self, texts):
        out = np.full((len(texts), self.dim), 0.01, dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.split():
                out[i, sum(map(ord, w)) % self.dim] += 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)


_CODE_WORDS = "buffer compare result equal print sort array value length index".split()


def _code_doc(r):
    """Prose and fenced code whose last line ends a sentence ("// Sort (equal).") right
    above the closing fence, as the Node.js API documentation has it."""
    w = _CODE_WORDS
    parts = []
    for _ in range(r.randint(1, 6)):
        parts.append(" ".join(r.choice(w) for _ in range(r.randint(5, 30))).capitalize() + ".")
        fence = r.choice(["```", "```", "~~~", "````"])
        lines = [fence + r.choice(["", "js", "cjs"])]
        for _ in range(r.randint(1, 8)):
            if r.random() < 0.6:
                lines.append(f"console.log({r.choice(w)}.{r.choice(w)}({r.randint(0, 99)}));")
            else:
                lines.append(f"// {r.choice(w).capitalize()} {r.choice(w)} ({r.choice(w)}).")
        lines.append(fence)
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _semantic(size):
    return chunkwise.make_chunker("semantic", model=_Bag(), chunk_size=size, unit="chars")


_FOUND = (
    "Equal print array equal equal value compare compare sort length equal array value result compare.\n\n"
    "```js\nconsole.log(equal.array(75));\n// Result result (print).\n```\n\n"
    "Buffer array buffer value result index buffer buffer index compare print result length print array "
    "value value sort value buffer print length.\n\n"
    "```js\nconsole.log(index.sort(99));\nconsole.log(compare.equal(57));\nconsole.log(equal.equal(74));\n"
    "// Array sort (equal).\n```\n"
)


def test_semantic_no_chunk_is_a_lone_closing_fence():
    chunker = _semantic(135)
    chunks = chunker.chunk(_FOUND)
    check_invariants(_FOUND, chunks, 135, chunker.sizer)
    assert not [c.text for c in chunks if _fence_only(c.text)]
    assert chunks[-1].text.endswith("// Array sort (equal).\n```")


def test_semantic_keeps_a_closing_fence_with_its_code():
    code = "```cjs\nconst buf1 = Buffer.from('1234');\nconsole.log(arr.sort(Buffer.compare));\n// (This result is equal to: [buf2, buf1].)\n```"
    text = f"Compares buf1 to buf2 for sorting.\n\n{code}\n\nThe next method joins buffers.\n"
    for size in (60, 90, 120, 160, 400):
        chunks = _semantic(size).chunk(text)
        check_invariants(text, chunks, size, _semantic(size).sizer)
        assert not [c.text for c in chunks if _fence_only(c.text)], size
        assert [c for c in chunks if "buf1].)\n```" in c.text], size


@given(st.randoms(use_true_random=False), st.integers(60, 400))
def test_property_semantic_never_leaves_a_fence_alone(r, size):
    text = _code_doc(r)
    chunker = _semantic(size)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    assert not [c.text for c in chunks if _fence_only(c.text)]


def test_join_fence_lines():
    from chunkwise.parsers.semantic import join_fence_lines

    t = "Run it.\n\n```sh\nmake all.\n```\n\nDone.\n"
    # "```sh" alone, then "make all.", then "```" alone: both fences join the code
    assert join_fence_lines(t, [(0, 7), (9, 14), (15, 24), (25, 28), (30, 35)]) == [(0, 7), (9, 28), (30, 35)]
    # a sentence that holds more than the fence line is left alone
    assert join_fence_lines(t, [(0, 7), (9, 24), (25, 35)]) == [(0, 7), (9, 24), (25, 35)]
    # no fence: the same list back
    same = [(0, 5)]
    assert join_fence_lines("Hello", same) is same
    # a backtick run with a backtick after it is inline code, not a fence
    t2 = "```a`b```\nx.\n```\n"
    assert join_fence_lines(t2, [(0, 9), (10, 12), (13, 16)]) == [(0, 9), (10, 12), (13, 16)]
    # a closing fence must be as long as the opening one: "```" inside "````" is code
    t3 = "````\nA.\n```\nB.\n````\n"
    assert join_fence_lines(t3, [(0, 4), (5, 7), (8, 11), (12, 14), (15, 19)]) == [(0, 7), (8, 11), (12, 19)]
