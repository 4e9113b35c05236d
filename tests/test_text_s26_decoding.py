"""Latin text that cp1252 decodes is not read as cp1258 (Vietnamese) without a Vietnamese
letter, tone mark or price in dong in it.

cp1258 reads every byte as cp1252 does except 18: where cp1252 has Ã Ì Ð Ò Õ Ý Þ ã ì ð ò
õ ý þ (and Š Ž š ž, which cp1258 lacks), cp1258 has Vietnamese letters (Ă Đ Ơ Ư ă đ ơ ư),
combining tone marks and the dong sign ₫. French text with two stray bytes ``\\xff\\xfe``
was read as cp1258 because its ``ÿ₫`` showed no sign of a wrong code page while cp1252's
``ÿþ`` (two accented letters as a word) did.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.loaders.decoding import decode_text

REPORTED = b"caf\xe9 na\xefve r\xe9sum\xe9 \xff\xfe bad\n"


def test_reported_bytes_are_cp1252():
    got = decode_text(REPORTED)
    assert got.encoding == "cp1252"
    assert got.text == "café naïve résumé ÿþ bad\n"


def test_reported_file_loads_as_cp1252(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(REPORTED)
    doc = chunkwise.load(path)
    assert doc.metadata["encoding"] == "cp1252"
    assert doc.text == REPORTED.decode("cp1252")


# Vietnamese as cp1258 writes it: a base letter (precomposed where cp1258 has it) and a
# combining tone mark
VIETNAMESE = [
    "Không thê\u0309 mơ\u0309 tê\u0323p tin.",
    "Đa\u0303 lưu ca\u0301c thay đô\u0309i.",
    "Tôi đi ho\u0323c ơ\u0309 trươ\u0300ng.",
    "Tô\u0309ng cô\u0323ng: 100.000 ₫ cho mô\u0303i sa\u0309n phâ\u0309m.",
]


@pytest.mark.parametrize("text", VIETNAMESE)
def test_vietnamese_stays_cp1258(text):
    got = decode_text(text.encode("cp1258"))
    assert got.encoding == "cp1258"
    assert got.text == text


_FRENCH = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéèêàâçîïôûùëüÿ", min_size=2, max_size=9)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(_FRENCH, min_size=2, max_size=8), st.lists(st.integers(0x80, 0xFF), min_size=1, max_size=3).map(bytes),
    st.integers(0, 8),
)
def test_no_vietnamese_reading_without_vietnamese(words, stray, at):
    """Western words with a few stray bytes: never cp1258 unless its reading has a
    character cp1252's has not (a Vietnamese letter or tone mark, a dong sign apart)."""
    parts = [w.encode("cp1252") for w in words]
    parts.insert(min(at, len(parts)), stray)
    data = b" ".join(parts) + b"\n"
    got = decode_text(data)
    if got.encoding == "cp1258":
        assert any(c in got.text for c in "ĂăĐđƠơƯư\u0300\u0301\u0303\u0309\u0323₫")
        if not any(c in got.text for c in "ĂăĐđƠơƯư\u0300\u0301\u0303\u0309\u0323"):
            assert any(
                not (got.text[i - 1 : i].isalpha() or got.text[i + 1 : i + 2].isalpha())
                for i, c in enumerate(got.text)
                if c == "₫"
            )
