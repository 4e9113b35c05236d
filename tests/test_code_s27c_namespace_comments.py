"""Comment lines above a definition in a namespace that fits only without them go with
the chunk before when they fit there, as they do at the top level."""

import warnings

import chunkwise


def _body(name: str, n: int) -> str:
    lines = "".join(f"    x += {i};\n" for i in range(n))
    return f"  int {name}(int x)\n  {{\n{lines}    return x;\n  }}\n"


COMMENT = "  /// This is a helper function for the ones above.\n"


def _chunks(text: str, size: int) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return chunkwise.chunk(text, strategy="code", language="cpp", chunk_size=size)


def _check(text: str, chunks: list, size: int) -> None:
    assert "".join(text[c.start_index : c.end_index] for c in chunks).split() == text.split()
    for c in chunks:
        assert c.text == text[c.start_index : c.end_index]
        assert c.text.strip()
        assert len(c.text) <= size


def test_comment_goes_with_the_chunk_before_in_a_namespace() -> None:
    b = _body("b", 5)
    text = "namespace ns\n{\n" + _body("first", 2) + "\n" + _body("a", 0) + "\n" + COMMENT + b + "}\n"
    size = len(b) + 10  # b fits, b with the comment does not; a with it does
    chunks = _chunks(text, size)
    _check(text, chunks, size)
    texts = [c.text for c in chunks]
    # no chunk of the comment alone: it ends the chunk of a
    assert not any(t.strip().startswith("///") for t in texts)
    assert texts[1].startswith("  int a(") and texts[1].endswith("ones above.")
    # the definition still starts its chunk, whole
    assert texts[2].startswith("  int b(") and b.rstrip() in texts[2]


def test_comment_stays_with_a_definition_it_fits_with() -> None:
    b = _body("b", 2)
    text = "namespace ns\n{\n" + _body("first", 2) + "\n" + _body("a", 0) + "\n" + COMMENT + b + "}\n"
    size = len(COMMENT + b) + 10
    chunks = _chunks(text, size)
    _check(text, chunks, size)
    assert any(c.text.startswith(COMMENT.rstrip("\n")) and "int b(" in c.text for c in chunks)


def test_comment_above_the_first_member_goes_with_the_header() -> None:
    # (the chunk before is the namespace's header: the comment ends it, and the first
    # member starts its chunk, whole)
    b = _body("b", 5)
    text = "namespace ns\n{\n" + COMMENT + b + "\n" + _body("a", 0) + "}\n"
    size = len(b) + 10
    chunks = _chunks(text, size)
    _check(text, chunks, size)
    assert [c.text for c in chunks[:2]] == ["namespace ns\n{\n" + COMMENT.rstrip("\n"), b.rstrip("\n")]
