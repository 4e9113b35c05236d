"""Legacy encodings read right through chunkwise.load of a file: short Lithuanian, Latvian,
Turkish, Polish (ISO-8859-2) and KOI8 text that the detection misread, and text of the
languages that share those bytes, which must keep its reading."""

from __future__ import annotations

import logging

import pytest

import chunkwise

pytest.importorskip("charset_normalizer")


def read(tmp_path, text: str, encoding: str) -> tuple[str, str]:
    path = tmp_path / "note.txt"
    path.write_bytes(text.encode(encoding))
    doc = chunkwise.load(path)
    return doc.text, doc.metadata["encoding"]


LITHUANIAN = [
    ("nėra", "cp1257"),  # was Albanian nëra (cp1252)
    ("nėra", "iso8859-13"),
    ("Failo nėra.", "cp1257"),
    ("Failo nėra.", "iso8859-13"),
    ("Vakar buvo šalta, o šiandien šilta.", "cp1257"),  # was Icelandic ð, þ
    ("Dokumentų ir nuotraukų aplankas", "cp1257"),  # was Danish ø
]
LATVIAN = [
    ("rādīt", "cp1257"),  # was Shift JIS kanji
    ("Vakar bija ļoti auksta diena.", "cp1257"),  # was Czech ď (cp1250)
    ("Lūdzu, aizveriet durvis!", "cp1257"),  # was Hungarian ű (cp1250)
    ("Lūdzu, ievadiet paroli.", "cp1257"),
]
TURKISH = [
    ("Ağ bağlantısı yok.", "cp1254"),  # a ğ last no longer rules Turkish out
    ("Kitabı masaya koydum.", "cp1254"),  # one ı, and y before a vowel
    ("Annem bana bir mektup yazdı.", "iso8859-9"),
]
POLISH = [
    ("wartość", "iso8859-2"),  # was Arabic warto¶و (cp1256)
    ("Nieznana wartość opcji", "iso8859-2"),
    ("Świeże pieczywo", "iso8859-2"),  # was ¦wieże (cp1250)
    ("Cześć, jak się masz?", "iso8859-2"),
    ("Gość wszedł do środka.", "iso8859-2"),
]
KOI8 = [
    ("ошибка ошибка файл", "koi8-r"),  # was GB18030 hanzi
    ("Доброе утро", "koi8-r"),
    ("Файл не найден.", "koi8-r"),  # was EUC-JP
    ("Файл не знайдено.", "koi8-u"),
    ("Добрий вечір!", "koi8-u"),  # was KOI8-R with a box-drawing character for і
    ("Копія файлу", "koi8-u"),
]


@pytest.mark.parametrize("text, encoding", LITHUANIAN + LATVIAN + TURKISH + POLISH + KOI8)
def test_short_text_in_a_legacy_encoding_reads_right(tmp_path, caplog, text, encoding):
    with caplog.at_level(logging.WARNING, logger="chunkwise"):
        got, _ = read(tmp_path, text, encoding)
    assert got == text
    assert not [r for r in caplog.records if "a guess" in r.getMessage()]


# text of the languages that share those bytes keeps its code page
KEPT = [
    ("Nuk ka skedar të tillë.", "cp1252"),  # Albanian ë, Lithuanian ė's byte
    ("të", "cp1252"),
    ("një", "cp1252"),
    ("Það er gott að vera hér.", "cp1252"),  # Icelandic ð, þ: Lithuanian š, ž
    ("miljø", "cp1252"),  # Danish ø: Lithuanian ų
    ("Voilà, c'est fait.", "cp1252"),
    ("São Paulo é grande.", "cp1252"),
    ("Formulário nº 2", "cp1252"),
    ("Nový soubor", "cp1250"),  # Czech ý: Turkish ı's byte
    ("Dobrý den", "cp1250"),
    ("malý", "cp1250"),
    ("Привет", "cp1251"),
]


@pytest.mark.parametrize("text, encoding", KEPT)
def test_text_of_the_languages_that_share_the_bytes_keeps_its_reading(tmp_path, text, encoding):
    assert read(tmp_path, text, encoding)[0] == text


# East Asian words of three characters or more read right (mostly: ``资料夹`` in GB2312 is
# still Greek capitals); two characters alone may not
# (a Korean word of two syllables is two common GB 2312 hanzi, byte for byte)
EAST_ASIAN = [
    ("中文字", "gbk"), ("北京大学", "gbk"), ("文件夹", "gb2312"),
    ("資料夾", "big5"), ("繁體中文", "big5"),
    ("日本語", "shift_jis"), ("ファイル名", "shift_jis"),
    ("한국어", "euc_kr"), ("감사합니다", "euc_kr"),
]


@pytest.mark.parametrize("text, encoding", EAST_ASIAN)
def test_east_asian_words_of_three_characters_or_more(tmp_path, text, encoding):
    assert read(tmp_path, text, encoding)[0] == text


def test_chunks_of_a_decoded_file_slice_its_text(tmp_path):
    text = "Failo nėra. Vakar buvo šalta, o šiandien šilta. " * 20
    path = tmp_path / "lt.txt"
    path.write_bytes(text.encode("cp1257"))
    doc = chunkwise.load(path)
    assert doc.text == text and doc.metadata["encoding"] == "cp1257"
    chunks = chunkwise.make_chunker("recursive", chunk_size=60, unit="chars").chunk(doc)
    assert all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)
