"""Short KOI8-R and KOI8-U text in small letters decodes as KOI8, not as Shift JIS: Shift JIS
reads KOI8's small letters as half-width katakana (``ошибка`` is ``ﾏﾛﾉﾂﾋﾁ``), and
Japanese text is seldom made of half-width katakana alone. Japanese text with half-width
katakana still reads as Shift JIS.

The sentences are written for these tests (no outside source)."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.loaders import load
from chunkwise.loaders.decoding import _half_width_only, decode

RUSSIAN = [
    "ошибка: не удалось открыть файл 'data.txt' для чтения\nпопробуйте запустить программу ещё раз\n",
    "не удалось открыть файл 'data.txt' для чтения\n",
    "предупреждение: \"config.ini\" не найден, используются значения по умолчанию\n",
    "файл 'a.txt' уже существует; перезаписать?\n",
]
UKRAINIAN = [
    "специфікатор '/' можна використовувати лише з числом\n",
    "помилка: не вдалося відкрити файл 'data.txt' для читання\n",
]


@pytest.fixture(autouse=True)
def _quiet(caplog):
    caplog.set_level(logging.ERROR)


@pytest.mark.parametrize("text", RUSSIAN)
@pytest.mark.parametrize("encoding", ["koi8-r", "koi8-u"])
def test_lower_case_russian_in_koi8_is_not_shift_jis(text, encoding):
    got, name = decode(text.encode(encoding))[:2]
    assert got == text
    assert name.startswith("koi8")


@pytest.mark.parametrize("text", UKRAINIAN)
def test_lower_case_ukrainian_in_koi8_u_is_not_shift_jis(text):
    got, name = decode(text.encode("koi8-u"))[:2]
    assert got == text
    assert name == "koi8-u"


def test_the_reported_file_loads_as_koi8_r(tmp_path):
    path = tmp_path / "msg.txt"
    path.write_bytes(RUSSIAN[0].encode("koi8-r"))
    doc = load(path)
    assert doc.text == RUSSIAN[0]
    assert doc.metadata["encoding"] == "koi8-r"


@pytest.mark.parametrize(
    "text",
    [
        "ｼｮｳﾋﾝ ｺｰﾄﾞ: 'A-100' ﾈﾀﾞﾝ: 1200 ｴﾝ\nｼｮｳﾋﾝ ｺｰﾄﾞ: 'B-200' ﾈﾀﾞﾝ: 800 ｴﾝ\n",
        "ﾀﾅｶ ﾀﾛｳ,ﾄｳｷｮｳﾄ ﾁﾖﾀﾞｸ,03-1234-5678\nﾔﾏﾀﾞ ﾊﾅｺ,ｵｵｻｶﾌ ｵｵｻｶｼ,06-1234-5678\nｽｽﾞｷ ｲﾁﾛｳ,ﾅｺﾞﾔｼ,052-123-4567\n",
        "ｺﾝﾋﾟｭｰﾀ ｼｽﾃﾑ ｴﾗｰ: ﾌｧｲﾙ 'data.txt' ｦ ﾖﾐｺﾐﾏｾﾝ\nﾓｳｲﾁﾄﾞ ｼﾞｯｺｳ ｼﾃｸﾀﾞｻｲ\n",
    ],
)
def test_half_width_katakana_stays_shift_jis(text):
    got, name = decode(text.encode("shift_jis"))[:2]
    assert got == text
    assert name in ("shift_jis", "cp932")


def test_half_width_only():
    assert _half_width_only("ﾏﾛﾉﾂﾋﾁ: ﾎﾅ 'data.txt'")
    assert not _half_width_only("ファイル ｴﾗｰ")
    assert not _half_width_only("東京ﾀﾜｰ")
    assert not _half_width_only("ошибка")
    assert not _half_width_only("data.txt")


_WORDS = "ошибка файл открыть чтения программу запустить ещё раз не для удалось попробуйте строке".split()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS), min_size=7, max_size=12, unique=True),
    st.sampled_from(["'data.txt'", '"a.ini"', "'x'", "(1)"]),
    st.integers(min_value=0, max_value=3),
)
def test_any_line_of_small_russian_words_with_quotes_reads_as_koi8_r(words, quoted, at):
    words = list(words)
    words.insert(min(at, len(words)), quoted)
    text = " ".join(words) + "\n"
    got = decode(text.encode("koi8-r"))[0]
    assert got == text


SHORT_UKRAINIAN = [
    "Привіт, як справи?",  # was Big5: 襓屺耒, 捀 衄畛訰?
    "Це мій дім.",  # was Shift JIS: 翡 ﾍｦﾊ ﾄｦﾍ.
    "Київ - столиця України.",  # was cp1255
    "Слава Україні!",  # was cp1255
]


@pytest.mark.parametrize("text", SHORT_UKRAINIAN)
def test_short_ukrainian_in_koi8_u_is_not_big5_shift_jis_or_hebrew(tmp_path, text):
    path = tmp_path / "short.txt"
    path.write_bytes(text.encode("koi8-u"))
    doc = load(path)
    assert doc.text == text
    assert doc.metadata["encoding"] == "koi8-u"


@pytest.mark.parametrize("text", ["繁體中文", "ありがとうございます。", "שלום עולם", "ошибка"])
def test_short_text_of_common_characters_keeps_its_reading(text):
    encoding = {"繁": "big5", "あ": "shift_jis", "ש": "cp1255"}.get(text[0], "koi8-r")
    got = decode(text.encode(encoding))[0]
    assert got == text
