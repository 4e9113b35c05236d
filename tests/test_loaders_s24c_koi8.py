"""KOI8-U and KOI8-R sentences that Shift JIS reads as half-width katakana with kanji.

KOI8's small letters are half-width katakana in Shift JIS, and its capitals are lead
bytes of kanji: ``Сьогодні ... Києва`` in KOI8-U read as ``栭ﾏﾇﾏﾄﾎｦ ... 毖､ﾗﾁ``. The
detector proposed that reading alone. Real Japanese text with half-width katakana
still reads as Shift JIS.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.loaders.decoding import _half_width_japanese, _half_width_only, decode

UKRAINIAN = [
    "Сьогодні ввечері ми їдемо до Києва, і ганок біля будинку вже пофарбований.",
    "Моя бабуся пече найсмачніший хліб у селі, і всі сусіди приходять його купувати.",
    "Завтра Олена піде до бібліотеки, щоб повернути книжки, які брала ще восени.",
    "Ґудзики на пальті відірвалися, тож доведеться шукати нові в крамниці біля вокзалу.",
    "Потяг до Львова відправляється о сьомій ранку з третьої колії.",
    "Наш учитель історії розповідав про козаків і їхні походи до моря.",
    "Євген зібрав у саду яблука, а Ірина зварила з них смачне варення.",
    "Вчора в Харкові йшов сильний дощ, але діти все одно гралися на подвір'ї.",
]
RUSSIAN = [
    "Вчера вечером мы гуляли по набережной и смотрели, как над рекой садится солнце.",
    "Пожалуйста, закройте окно: в комнате стало слишком холодно для детей.",
    "Михаил Петрович обещал прислать отчёт до пятницы, но так и не прислал.",
    "В Москве открылась новая выставка современной живописи и скульптуры.",
    "Бабушка всегда говорила, что хороший чай нужно заваривать не спеша.",
    "Наша команда выиграла турнир, и тренер поздравил каждого игрока.",
    "Сергей купил билеты в театр на субботу, но Анна заболела.",
    "Если программа не запускается, попробуйте перезагрузить компьютер.",
]
JAPANESE = [
    "ｼｮｳﾋﾝﾒｲ: ﾏｸﾞｶｯﾌﾟ 白\nｶｶｸ: 1200ｴﾝ (ｾﾞｲｺﾐ)\nｻﾞｲｺ: ｱﾘ\n",
    "東京ﾀﾜｰ ﾁｹｯﾄ ｵﾄﾅ 1200ｴﾝ ｺﾄﾞﾓ 600ｴﾝ",
    "ｺﾋﾟｰ用紙 A4 500枚 ﾎﾜｲﾄ\nﾎﾞｰﾙﾍﾟﾝ 黒 10本 ｾｯﾄ\n",
    "ﾔﾏﾀﾞ ﾀﾛｳ様 ｺﾞﾁｭｳﾓﾝ ｱﾘｶﾞﾄｳｺﾞｻﾞｲﾏｼﾀ。ｼｮｳﾋﾝﾊ ｱｼﾀ ﾊｯｿｳ ｲﾀｼﾏｽ。",
    "ｴﾗｰ: ﾌｧｲﾙｶﾞ ﾐﾂｶﾘﾏｾﾝ。ﾓｳｲﾁﾄﾞ ｵﾀﾒｼｸﾀﾞｻｲ。",
    "お客様各位 ｾｰﾙのお知らせ: ﾜｲｼｬﾂ 全品 ﾊﾝｶﾞｸ です。",
    "ｶﾌﾞｼｷｶﾞｲｼｬ ﾔﾏﾀﾞｼｮｳｼﾞ 大阪支店 ｴｲｷﾞｮｳﾌﾞ",
]


@pytest.mark.parametrize("text, encoding", [(t, "koi8-u") for t in UKRAINIAN] + [(t, "koi8-r") for t in RUSSIAN])
def test_koi8_sentences_are_not_shift_jis(text, encoding):
    data = text.encode(encoding)
    assert 40 <= len(data) <= 200
    got, name = decode(data)
    assert got == text
    # KOI8-U is KOI8-R with four more letters: Russian text reads alike in both
    assert name == encoding or (encoding == "koi8-r" and name == "koi8-u" and data.decode("koi8-r") == got)


@pytest.mark.parametrize(
    "text, encoding", [(t, "koi8-u") for t in UKRAINIAN[:3]] + [(t, "koi8-r") for t in RUSSIAN[:3]]
)
def test_a_koi8_file_loads_as_text(tmp_path, text, encoding):
    path = tmp_path / "note.txt"
    path.write_bytes(text.encode(encoding))
    assert chunkwise.load(str(path)).text == text


@pytest.mark.parametrize("text", JAPANESE)
def test_japanese_with_half_width_katakana_stays_shift_jis(text):
    got, name = decode(text.encode("cp932"))
    assert got == text
    assert name in ("shift_jis", "cp932", "shift_jis_2004", "shift_jisx0213")


def test_half_width_katakana_with_kanji():
    text = "ｺﾋﾟｰ用紙 ﾎﾜｲﾄ"
    assert not _half_width_only(text)
    assert _half_width_only(text, kanji=True)
    assert not _half_width_only("ｾｰﾙのお知らせ", kanji=True)  # hiragana: Japanese text
    assert not _half_width_only("Києва", kanji=True)


def test_japanese_the_detector_rejects_is_read_by_its_sound_marks():
    # charset-normalizer proposes no reading of this text at all (too many half-width
    # katakana for its measure of chaos): it was a load error
    text = "ｶﾌﾞｼｷｶﾞｲｼｬ ﾔﾏﾀﾞｼｮｳｼﾞ 大阪支店 ｴｲｷﾞｮｳﾌﾞ"
    assert _half_width_japanese(text.encode("cp932")) == text
    assert decode(text.encode("cp932")) == (text, "cp932")


def test_a_sound_mark_after_a_katakana_that_takes_none_is_not_japanese():
    assert _half_width_japanese("ﾅﾞﾆ ｶﾞ".encode("cp932")) is None  # ﾅ takes no mark
    assert _half_width_japanese("ｶﾞｲｼｬ".encode("cp932")) == "ｶﾞｲｼｬ"
    assert _half_width_japanese("ﾊﾟﾝ".encode("cp932")) == "ﾊﾟﾝ"
    assert _half_width_japanese("ｶﾟﾝ".encode("cp932")) is None  # ﾟ after ﾊ to ﾎ only
    assert _half_width_japanese("ｱｲｳ".encode("cp932")) is None  # no mark: no evidence


_CYRILLIC_WORDS = (
    "вечір качество ганок будинку пофарбований сьогодні їдемо києва ґудзики є ще "
    "чай мяч ночь луч дача плачу печь речь честь учитель чистый".split()
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_CYRILLIC_WORDS), min_size=3, max_size=10), st.booleans())
def test_koi8_words_are_never_taken_for_half_width_japanese(words, capital):
    text = " ".join(words) + "."
    if capital:
        text = text[0].upper() + text[1:]
    assert _half_width_japanese(text.encode("koi8-u")) is None
