"""Code chunking: a definition that is all header (an interface's or an abstract method, a
prototype: ``string Name();``) has no body to keep its header with, so the cut after it is
a cut between members, with or without an overlap. With an overlap such cuts were read as
cuts after a header kept with its first line: none was left, and a chunk ended inside a
token (``[return: Mar`` | ``shalAs(``) though every line fits."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

WORD = re.compile(r"\w")

# lines 86-95 of an interface in node-gyp's Find-VisualStudio.cs (COM interop)
INTERFACE = (
    "interface I\n{\n"
    "        [return: MarshalAs(UnmanagedType.Struct)]\n"
    "        System.Runtime.InteropServices.ComTypes.FILETIME GetInstallDate();\n\n"
    "        [return: MarshalAs(UnmanagedType.BStr)]\n"
    "        string GetInstallationName();\n\n"
    "        [return: MarshalAs(UnmanagedType.BStr)]\n"
    "        string GetInstallationPath();\n\n"
    "        [return: MarshalAs(UnmanagedType.BStr)]\n"
    "}\n"
)


def chunk(src, lang, size, overlap):
    chunks = chunkwise.chunk(src, strategy="code", language=lang, chunk_size=size, chunk_overlap=overlap)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


def assert_clean_cuts(src, chunks):
    """No chunk starts or ends inside a token, and each starts at its line's start."""
    for i, c in enumerate(chunks):
        s, e = c.start_index, c.end_index
        assert not src[src.rfind("\n", 0, s) + 1 : s].strip(), (i, c.text)
        for p in (s, e):
            assert not (0 < p < len(src) and WORD.match(src[p - 1]) and WORD.match(src[p])), (i, p, c.text)


@pytest.mark.skipif(not grammar_available("csharp"), reason="no C# grammar")
@pytest.mark.parametrize("overlap", [0, 75])
def test_interop_interface_is_cut_between_members(overlap):
    chunks = chunk(INTERFACE, "csharp", 300, overlap)
    assert_clean_cuts(INTERFACE, chunks)
    assert [c.text.rstrip().splitlines()[-1].strip() for c in chunks[:-1]] == ["string GetInstallationName();"]
    assert chunks[0].metadata["boundary"] == "member"


def interface(lang, names, attributed):
    if lang == "csharp":
        body = "".join(
            ("    [return: MarshalAs(UnmanagedType.BStr)]\n" if a else "") + f"    string {n}();\n\n"
            for n, a in zip(names, attributed)
        )
        return "interface IStore\n{\n" + body.rstrip("\n") + "\n}\n"
    if lang == "java":
        body = "".join(
            ("    @Deprecated\n" if a else "") + f"    String {n}(int index, String label);\n\n"
            for n, a in zip(names, attributed)
        )
        return "interface Store {\n" + body.rstrip("\n") + "\n}\n"
    assert lang == "typescript"
    body = "".join(f"  {n}(index: number, label: string): string;\n" for n in names)
    return "interface Store {\n" + body + "}\n"


LANGS = [lang for lang in ("csharp", "java", "typescript") if grammar_available(lang)]


@pytest.mark.skipif(not LANGS, reason="no grammar")
@settings(max_examples=60, deadline=None)
@given(
    lang=st.sampled_from(LANGS or ["csharp"]),
    names=st.lists(st.from_regex(r"[A-Z][a-z]{2,14}", fullmatch=True), min_size=2, max_size=9),
    attributed=st.lists(st.booleans(), min_size=9, max_size=9),
    size=st.integers(110, 400),
    overlap=st.booleans(),
)
def test_bodiless_members_are_never_cut_inside_a_token(lang, names, attributed, size, overlap):
    src = interface(lang, names, attributed)
    ov = size // 4 if overlap else 0
    chunks = chunk(src, lang, size, ov)
    assert_clean_cuts(src, chunks)
    assert all(c.metadata["boundary"] != "hard" for c in chunks)
