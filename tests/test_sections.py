"""The "sections" strategy: numbered structure of plain text (statutes, contracts)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_sections
from test_markdown import assert_invariants, by_text

import chunkwise
from chunkwise.parsers.sections import NumberedSectionParser


def heads(text):
    return [(h.level, h.title) for h in NumberedSectionParser().parse(text).headings]


def test_keyword_headings_and_levels():
    text = (
        "PART 3 Remedies\n\nChapter IV Damages\n\nArticle 5 Scope\nThe scope.\n\n"
        "ARTICLE V\nTERMINATION\nEnds here.\n\nSection 2.1(b) Notice\nGive notice.\n\n§ 12 Fees\nPay.\n"
    )
    assert heads(text) == [
        (1, "PART 3 Remedies"),
        (2, "Chapter IV Damages"),
        (3, "Article 5 Scope"),
        (3, "ARTICLE V TERMINATION"),
        (5, "Section 2.1(b) Notice"),
        (4, "§ 12 Fees"),
    ]


def test_numbered_headings_nest_by_depth():
    text = "1. Definitions\n\nWords.\n\n1.2 Terms\n\nMore.\n\n1.2.3 Special terms\n\nEven more.\n\n2. Scope\n\nScope.\n"
    assert heads(text) == [(1, "1. Definitions"), (2, "1.2 Terms"), (3, "1.2.3 Special terms"), (1, "2. Scope")]
    chunks = chunkwise.chunk(text, strategy="sections", chunk_size=200)
    assert by_text(chunks, "Even more.").metadata["header_path"] == [
        "1. Definitions",
        "1.2 Terms",
        "1.2.3 Special terms",
    ]
    assert by_text(chunks, "Even more.").context == "1. Definitions > 1.2 Terms > 1.2.3 Special terms"
    assert by_text(chunks, "Scope.").metadata["header_path"] == ["2. Scope"]


def test_clauses_and_references_are_not_headings():
    text = (
        "1. The tenant shall pay the rent on the first day of each month.\n\n"
        "Section 5 of this agreement survives the end of the lease and binds the heirs of both parties.\n\n"
        "In 2023 the rent was 3.5 percent higher.\n\n"
        "as described in Article 7 above\n"
    )
    assert heads(text) == []


def test_sections_chunk_along_articles():
    text = "ARTICLE I\nDEFINITIONS\n\nSection 1.1 Terms. Words.\n\nARTICLE II\nSERVICES\n\nSection 2.1 Scope. Work.\n"
    chunks = chunkwise.chunk(text, strategy="sections", chunk_size=1000)
    # every line is a heading here (no body follows any): each stays a chunk of its own
    assert [c.metadata["header_path"] for c in chunks] == [
        ["ARTICLE I DEFINITIONS"],
        ["ARTICLE I DEFINITIONS", "Section 1.1 Terms. Words."],
        ["ARTICLE II SERVICES"],
        ["ARTICLE II SERVICES", "Section 2.1 Scope. Work."],
    ]


def test_big_section_is_split_with_the_same_path():
    text = "Article 1 Purpose\n\n" + "This sentence explains the purpose. " * 20 + "\n\nArticle 2 Other\n\nShort.\n"
    chunks = chunkwise.chunk(text, strategy="sections", chunk_size=100)
    assert_invariants(text, chunks, 100)
    first = [c for c in chunks if c.end_index <= text.index("Article 2")]
    assert len(first) > 2 and all(c.metadata["header_path"] == ["Article 1 Purpose"] for c in first)


_LINES = st.sampled_from(
    [
        "Article 5 Scope",
        "ARTICLE V",
        "TERMINATION",
        "Section 2.1(b) Notice",
        "§ 12",
        "Chapter IV",
        "Part 3",
        "1.",
        "1.2 Terms",
        "1.2.3 Title",
        "The party shall pay.",
        "数据 保护 条款。",
        "👩‍👩‍👧 e\u0301t\u00e9 words\tand tabs",
        "",
        "averyveryverylongwordwithoutanyspacesatallthatgoesonandon",
    ]
)


@settings(deadline=None)
@given(st.lists(_LINES, max_size=30), st.sampled_from(["\n", "\r\n"]), st.integers(5, 120))
def test_property_invariants(lines, newline, size):
    text = newline.join(lines)
    chunker = chunkwise.make_chunker("sections", chunk_size=size)
    chunks = chunker.chunk(text)
    assert_invariants(text, chunks, size, chunker.sizer)
    assert [c.to_dict() for c in chunker.chunk(text)] == [c.to_dict() for c in chunks]
    check_sections(text, chunks, NumberedSectionParser().parse(text).headings)
    for c in chunks:
        assert all("\r" not in t and "\n" not in t for t in c.metadata["header_path"])


def test_bare_numbers_dotted_numbers_run_in_titles_and_references():
    from chunkwise.parsers.sections import NumberedSectionParser

    standard = "1 General\n\nCovers widgets.\n\n1.1 Purpose\n\nFit.\n\n2 Requirements\n\nRound.\n"
    assert [(h.level, h.title) for h in NumberedSectionParser().parse(standard).headings] == [
        (1, "1 General"),
        (2, "1.1 Purpose"),
        (1, "2 Requirements"),
    ]
    # a bare number without dotted numbers around is a list or a quantity, not a section
    assert NumberedSectionParser().parse("Intro.\n\n2 Cups of flour\n\nMix.\n").headings == ()
    clauses = (
        "1. Definitions.\n\nWords mean things.\n\n"
        "2. Services. Provider shall provide the services.\n\n"
        "As noted, the text of\nSection 6 states terms for distribution of such\nexecutables.\n"
    )
    titles = [h.title for h in NumberedSectionParser().parse(clauses).headings]
    assert titles == ["1. Definitions", "2. Services"]  # "Section 6 states" is a reference
