"""The ``wikitext`` strategy: MediaWiki headings, sections and breadcrumbs."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.errors import ConfigError
from chunkwise.parsers.wikitext import WikitextParser
from chunkwise.sizers import get_sizer

from invariants import check_invariants, check_sections

ARTICLE = (
    " = Little Rock Arsenal = \n"
    " The arsenal was built in 1840 on the edge of the town . \n"
    " \n"
    " = = History = = \n"
    " Captain Totten commanded the post in 1861 . The governor sent militia . \n"
    " = = = Seizure = = = \n"
    " The militia took the arsenal without a shot . \n"
    "== Legacy ==\n"
    "The buildings became a museum.\n"
)


def test_headings_levels_titles_and_line_spans():
    o = WikitextParser().parse(ARTICLE)
    assert [(h.level, h.title) for h in o.headings] == [
        (1, "Little Rock Arsenal"),
        (2, "History"),
        (3, "Seizure"),
        (2, "Legacy"),
    ]
    for h in o.headings:
        line = ARTICLE[h.start : h.end]
        assert line.endswith("\n") and line.count("\n") == 1 and h.title in line


@pytest.mark.parametrize(
    "line", ["== Unequal =", "a = b = c", "====", "= =", "x == y ==", "== " + "t" * 200 + " =="]
)
def test_lines_that_are_not_headings(line):
    assert WikitextParser().parse(line + "\nbody\n").headings == ()


def test_chunks_carry_the_breadcrumb_and_never_mix_sections():
    cs = chunkwise.chunk(ARTICLE, strategy="wikitext", chunk_size=20, unit="words")
    by_text = {c.text.split("\n")[-1].strip()[:12]: c for c in cs}
    assert by_text["The militia "].context == "Little Rock Arsenal > History > Seizure"
    assert by_text["The militia "].metadata["header_path"] == ["Little Rock Arsenal", "History", "Seizure"]
    assert by_text["The building"].context == "Little Rock Arsenal > Legacy"
    assert all(c.context.startswith("Little Rock Arsenal") for c in cs)
    check_sections(ARTICLE, cs, WikitextParser().parse(ARTICLE).headings)
    check_invariants(ARTICLE, cs, 20, get_sizer("words"))
    # what is embedded: the breadcrumb, then the text
    assert cs[-1].text_for_embedding().startswith("Little Rock Arsenal > Legacy")


def test_plain_text_without_headings_is_chunked_like_paragraphs():
    text = "First paragraph here.\n\nSecond one is here too.\n"
    cs = chunkwise.chunk(text, strategy="wikitext", chunk_size=5, unit="words")
    assert [c.text for c in cs] == ["First paragraph here.", "Second one is here too."]
    assert all(c.context == "" for c in cs)


def test_pickles_and_rejects_bad_parameters():
    c = chunkwise.make_chunker("wikitext", chunk_size=64, unit="tokens")
    assert pickle.loads(pickle.dumps(c)).chunk(ARTICLE) == c.chunk(ARTICLE)
    with pytest.raises(ConfigError, match="split_level"):
        chunkwise.make_chunker("wikitext", split_level=9)


_piece = st.one_of(
    st.text(min_size=0, max_size=30),
    st.sampled_from(["\n", "\n\n", " = T = \n", "== S ==\n", " = = Sub = = \n", "=", " . ", "\r\n"]),
    st.builds(lambda n, t: "=" * n + " " + t + " " + "=" * n + "\n", st.integers(1, 7), st.text(max_size=8)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_piece, max_size=25).map("".join), st.integers(3, 40))
def test_contract_on_hostile_text(text, size):
    if not text.strip():
        return
    cs = chunkwise.chunk(text, strategy="wikitext", chunk_size=size, unit="chars")
    check_invariants(text, cs, size, get_sizer("chars"))
    heads = WikitextParser().parse(text).headings
    assert all(0 <= h.start < h.end <= len(text) for h in heads)
    assert [h.start for h in heads] == sorted(h.start for h in heads)
    assert cs == chunkwise.chunk(text, strategy="wikitext", chunk_size=size, unit="chars")  # deterministic


def test_the_structure_strategies_share_the_public_base():
    from chunkwise.chunkers import structure
    from chunkwise.chunkers.structure import MarkdownChunker, SectionsChunker, StructureChunker
    from chunkwise.chunkers.wikitext import WikitextChunker

    assert "StructureChunker" in structure.__all__
    for cls in (MarkdownChunker, SectionsChunker, WikitextChunker):
        assert issubclass(cls, StructureChunker)
    with pytest.raises(NotImplementedError):  # the base has no outline of its own
        StructureChunker(chunk_size=50).chunk("= A =\ntext\n")
    # a subclass supplies only the outline: the wikitext parser's gives the wikitext chunks
    class Wiki(StructureChunker):
        def outline(self, document):
            return WikitextParser().parse(document.text)

    got = [(c.text, c.start_index, c.context) for c in Wiki(chunk_size=60).chunk(ARTICLE)]
    want = [(c.text, c.start_index, c.context) for c in WikitextChunker(chunk_size=60).chunk(ARTICLE)]
    assert got == want and len(want) > 1


# -- auto detects MediaWiki markup -------------------------------------------------------


def test_auto_picks_wikitext_for_mediawiki_text_in_plain_and_markdown_files():
    from chunkwise.parsers.wikitext import looks_like_wikitext
    from chunkwise.registry import auto_strategy

    assert looks_like_wikitext(ARTICLE) and auto_strategy(ARTICLE) == "wikitext"
    for fmt in ("text", "markdown"):  # Wikipedia dumps saved as .txt or .md
        doc = chunkwise.Document(ARTICLE, metadata={"format": fmt})
        assert auto_strategy(doc) == "wikitext"
        auto = chunkwise.chunk(doc, strategy="auto", chunk_size=20, unit="words")
        wiki = chunkwise.chunk(doc, strategy="wikitext", chunk_size=20, unit="words")
        assert [(c.start_index, c.end_index, c.context) for c in auto] == [
            (c.start_index, c.end_index, c.context) for c in wiki
        ]
    # another format keeps its strategy (an HTML page is read as Markdown by its loader)
    assert auto_strategy(chunkwise.Document(ARTICLE, metadata={"format": "html"})) == "markdown"


@pytest.mark.parametrize(
    "text",
    [
        "= Title =\nOne line of text.\n",  # one heading, and of level 1: not enough
        "Intro.\n== Only one section ==\nBody.\n",
        "# Guide\n\n## Setup\n\n== a == b ==\n\n## Use\n\n== c ==\n\n== d ==\n\n### More\n",  # Markdown wins
        "x == y\nif a == b: pass\n",
        "Title\n=====\n\nSub\n===\n\nBody\n",  # setext underlines are not MediaWiki headings
    ],
)
def test_auto_keeps_other_text_as_it_was(text):
    from chunkwise.parsers.wikitext import looks_like_wikitext
    from chunkwise.registry import auto_strategy

    assert not looks_like_wikitext(text)
    assert auto_strategy(chunkwise.Document(text, metadata={"format": "markdown"})) == "markdown"
    assert auto_strategy(text) == "recursive"


WIKI_HELP_MD = (
    "# Writing wiki pages\n\nOur wiki uses MediaWiki markup, as in the example below.\n\n"
    "```\n== Overview ==\nText of the overview.\n\n== Details ==\nText of the details.\n```\n\n"
    "Keep headings short. Use sentence case and avoid links inside headings.\n"
)
BUILD_LOG = (
    "Build log\n\n== Results ==\nAll 412 tests passed on the first run.\n\n"
    "== Results ==\nAll 412 tests passed on the second run.\n"
)


@pytest.mark.parametrize(
    ("text", "fmt", "want"),
    [
        (WIKI_HELP_MD, "markdown", "markdown"),  # the "==" lines are inside a code fence
        (WIKI_HELP_MD.replace("# Writing", "Writing"), "markdown", "markdown"),  # fence, no ATX
        ("Intro.\n\n    == Overview ==\n    text\n    == Details ==\n    text\n", "text", "recursive"),  # indented code
        (BUILD_LOG, "text", "recursive"),  # one title repeated is a log, not sections
        ("== A ==\n== B ==\n== C ==\n", "text", "recursive"),  # banners with no text under them
        ("Long intro. " * 60 + "\n== A ==\nx\n== B ==\ny\n", "text", "recursive"),  # headings at the tail
        ("# Notes\n\n== A ==\nText a.\n\n== B ==\nText b.\n", "markdown", "markdown"),  # an ATX heading in a .md
        (ARTICLE, "markdown", "wikitext"),
        (ARTICLE + "\n```\n# not a heading, code\n```\n", "markdown", "wikitext"),
        ("~~~~\n# code\n~~~\n```\n~~~~\n\n" + ARTICLE, "markdown", "wikitext"),  # the fence closes
        ("```\n# code\n\n" + ARTICLE, "text", "recursive"),  # never closed: all code
    ],
)
def test_auto_reads_code_blocks_logs_and_markdown_headings_as_not_wikitext(text, fmt, want):
    from chunkwise.registry import auto_strategy

    assert auto_strategy(chunkwise.Document(text, metadata={"format": fmt})) == want


def test_auto_picks_wikitext_for_the_bundled_wikipedia_corpus_only():
    from pathlib import Path

    from chunkwise.registry import auto_strategy

    corpora = Path(__file__).resolve().parent.parent / "data" / "chroma_eval" / "corpora"
    if not corpora.is_dir():
        pytest.skip("data/chroma_eval is not in this checkout")
    picked = {p.name: auto_strategy(chunkwise.load(p)) for p in sorted(corpora.glob("*.md"))}
    assert picked.pop("wikitexts.md") == "wikitext"
    assert set(picked.values()) == {"markdown"}


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("= #\nab\t")), max_size=200))
def test_detection_never_fails_and_auto_keeps_the_contract(text):
    from chunkwise.parsers.wikitext import looks_like_wikitext

    assert looks_like_wikitext(text) in (True, False)
    cs = chunkwise.chunk(text, strategy="auto", chunk_size=8, unit="chars")
    check_invariants(text, cs, 8, get_sizer("chars"))


def test_auto_names_the_strategy_it_chose_in_every_chunk():
    md = chunkwise.Document("# Guide\n\nSome text here.\n\n## Setup\n\nMore text.\n", metadata={"format": "markdown"})
    cases = [(ARTICLE, "wikitext"), (md, "markdown"), ("Plain words. " * 20, "recursive")]
    for doc, want in cases:
        chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=20, unit="words")
        assert chunks and {c.metadata["strategy"] for c in chunks} == {want}
        assert pickle.loads(pickle.dumps(chunks)) == chunks
    # only auto adds it
    assert all("strategy" not in c.metadata for c in chunkwise.chunk(ARTICLE, strategy="wikitext", chunk_size=20))


def test_the_docs_say_which_bundled_corpora_have_headings_and_the_grid_defaults():
    from pathlib import Path

    from chunkwise.cli import cli

    root = Path(__file__).resolve().parent.parent
    corpora = root / "data" / "chroma_eval" / "corpora"
    if not corpora.is_dir():
        pytest.skip("data/chroma_eval is not in this checkout")
    contexts = {}
    for p in sorted(corpora.glob("*.md")):
        chunks = chunkwise.chunk(chunkwise.load(p), strategy="auto", chunk_size=96, unit="tokens")
        contexts[p.name] = {c.context for c in chunks if c.context}
    # pubmed.md: one setext heading, a figure caption over a " =" line (EVALUATION.md says so)
    assert len(contexts.pop("pubmed.md")) == 1 and len(contexts.pop("wikitexts.md")) > 10
    assert all(not found for found in contexts.values())
    evaluation = " ".join((root / "EVALUATION.md").read_text(encoding="utf-8").split())
    assert "`pubmed.md` has one, by accident" in evaluation
    # README: the grid defaults of stats, eval and calibrate are what --help shows
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    defaults = {
        name: {p.name: p.default for p in cli.commands[name].params}
        for name in ("stats", "eval", "calibrate")
    }
    strategies = {d["strategy"] for d in defaults.values()}
    sizes = {d["chunk_size"] for d in defaults.values()}
    assert len(strategies) == 1 and len(sizes) == 1
    assert f"the list `{strategies.pop()}` for `stats`, `eval` and `calibrate` (sizes `{sizes.pop()}`" in readme
