"""Where a code page puts its letters: Baltic, Polish, Czech and Turkish words in their own
code pages read as such, not as cp1252 letters that no Western European language writes in
those places (``pilsçta``, ``jeœli``, ``siê``, ``poèet``, ``hatasý``); Japanese kana in
EUC-JP not as Big5 hanzi; Chinese words in GB2312 that are valid UTF-8 by chance not as
that UTF-8 (``目录`` is ``Ŀ¼``). Western European, Icelandic, Albanian and Czech words that read
right before still do.

The words are common words of each language, written for these tests."""

from __future__ import annotations

import logging

import pytest

from chunkwise.loaders.decoding import _odd_places, _turkish, decode

FIXED = [
    ("pilsēta", "cp1257"),  # Latvian: ē is ç in cp1252, among consonants
    ("kļūda", "cp1257"),  # ļ is ï after a consonant
    ("vērtība", "cp1257"),
    ("Attēlot papildu informāciju, ko padot motīvu dzinim", "cp1257"),
    ("Atsarginės kopijos sukūrimas nesėkmingas", "cp1257"),  # Lithuanian: ė is ë after a consonant
    ("Ķēķis ir šķirnē.", "cp1257"),  # the detector does not propose cp1257
    ("Başarısız oldu", "cp1254"),  # Turkish: ş and ı are þ and ý in cp1252
    ("Uyarı: okuma hatası", "cp1254"),
    ("kullanıcı", "iso8859-9"),
    ("bağlantı", "cp1254"),
    ("jeśli", "cp1250"),  # Polish: ś is œ after a vowel
    ("Domyślny program", "cp1250"),
    ("się", "cp1250"),  # ę is ê at the end of a word, after i
    ("poleceń", "cp1250"),  # ń is ñ, not before a vowel
    ("być", "cp1250"),  # ć is æ at the end, after a vowel
    ("počet", "cp1250"),  # Czech: č is è before a vowel
    ("při", "cp1250"),  # ř is ø before a vowel
    ("řádek", "cp1250"),
    ("ません", "euc_jp"),  # kana, not Big5's 引六氏
    ("です", "euc_jp"),
    ("目录", "gb2312"),  # valid UTF-8 by chance: Ŀ¼
    ("状态", "gbk"),  # ״ and a combining mark in UTF-8
    ("前缀", "gb18030"),  # ǰ and an unassigned code point in UTF-8
]
KEPT = [
    ("garçon", "cp1252"),
    ("Barça", "cp1252"),
    ("feliç", "cp1252"),  # Catalan: ç last
    ("cœur", "cp1252"),
    ("Le cœur et l’œil de Œdipe", "cp1252"),
    ("você", "cp1252"),
    ("año", "cp1252"),
    ("naïf", "cp1252"),
    ("Noël", "cp1252"),
    ("øya", "cp1252"),  # Norwegian: ø before y
    ("þetta", "cp1252"),  # Icelandic
    ("við", "cp1252"),
    ("að", "cp1252"),
    ("një", "cp1252"),  # Albanian: ë after a consonant
    ("çdo", "cp1252"),
    ("için", "cp1254"),  # Turkish without ı, ş, ğ: the same text in cp1252
    ("být", "cp1250"),  # Czech ý: one ı is not enough for Turkish
    ("bình", "cp1252"),
    ("中文", "big5"),
    ("今天", "big5"),
    # valid UTF-8 stays UTF-8
    ("да", "utf-8"),
    ("© 2024", "utf-8"),
    ("½ cup", "utf-8"),
    ("čí", "utf-8"),
    ("日本", "utf-8"),
]


@pytest.mark.parametrize("text,encoding", FIXED)
def test_word_reads_in_its_own_code_page(text, encoding, caplog):
    with caplog.at_level(logging.WARNING, logger="chunkwise.loaders.decoding"):
        got, _ = decode(text.encode(encoding))
    assert got == text
    assert not caplog.records  # no guess


@pytest.mark.parametrize("text,encoding", KEPT)
def test_word_that_read_right_still_does(text, encoding):
    assert decode(text.encode(encoding))[0] == text


@pytest.mark.parametrize(
    "text,marks",
    [
        ("pilsçta", {"ç*", "ç!"}),
        ("için", {"ç*"}),
        ("garçon", set()),
        ("kïûda", {"ï*", "û*"}),
        ("krâsa", {"â*"}),
        ("châssis", set()),
        ("jêzyk", {"ê*"}),
        ("pêche", set()),
        ("naïf", set()),
        ("kâ", {"â$"}),
        ("poèet", {"è*"}),
        ("très", set()),
        ("pøi", {"ø*"}),
        ("Kameruñski", {"ñ*"}),
        ("siê", {"ê$"}),
        ("jeœli", {"œ*"}),
        ("byæ", {"æ$"}),
        ("ðrifto", {"ð^"}),
        ("það", set()),
    ],
)
def test_odd_places(text, marks):
    assert _odd_places(text) == marks


def test_turkish_words_need_harmony_and_two_signs():
    assert _turkish("Başarısız oldu")
    assert _turkish("kullanıcı")
    assert not _turkish("hatası")  # one ı: could be Czech ý
    assert not _turkish("kterı ještı")  # ı after e: no vowel harmony
    assert not _turkish("ağ")  # ğ last: Icelandic ``að``
    assert not _turkish("eğa")  # no ı: Icelandic ``eða``
    assert not _turkish("şetta")  # ş first only: Icelandic ``þetta``
