"""Text in East Asian, Cyrillic and Greek legacy encodings, UTF-16 without a byte-order mark
and 7-bit escape encodings (ISO-2022-JP, HZ) decodes to exactly the text written: never
UTF-8 with replacement characters when a legacy decoding is clean, never escape sequences
left in the text.

The paragraphs are written for these tests (no outside source)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.loaders import load
from chunkwise.loaders.decoding import decode_text, looks_like_text

SAMPLES = {
    "ja": "東京の朝は静かです。駅のホームでは、人々が電車を待ちながら新聞を読んだり、携帯電話を見たりしています。"
    "春になると、公園の桜が咲き、多くの家族が花見を楽しみます。",
    # 鷗 is outside JIS X 0208: EUC-JP writes it with JIS X 0212, EUC-JISX0213 with plane 1
    "ja_ext": "森鷗外の小説を図書館で借りました。東京の朝は静かです。駅のホームでは、人々が電車を待ちながら新聞を読んでいます。",
    "zh_hans": "今天早上天气很好，我们去公园散步。湖边有很多人在钓鱼，孩子们在草地上放风筝。"
    "中午我们在小饭馆吃了面条，然后坐公共汽车回家。",
    "zh_hant": "今天早上天氣很好，我們去公園散步。湖邊有很多人在釣魚，孩子們在草地上放風箏。"
    "中午我們在小飯館吃了麵條，然後坐公共汽車回家。",
    # Cantonese characters (佢, 哋, 喺, 咗) exist only in Big5-HKSCS
    "yue": "佢哋今日喺茶樓飲茶，食咗好多點心。我哋行街嘅時候落雨，所以返屋企食飯。今天早上天氣很好，我們去公園散步。",
    "ko": "오늘 아침에는 날씨가 맑았습니다. 우리는 시장에 가서 과일과 채소를 샀습니다. "
    "오후에는 도서관에서 책을 읽고 저녁에는 친구들과 함께 식사를 했습니다.",
    # 똠 is not among the 2,350 syllables of EUC-KR: CP949 and Johab only
    "ko_ext": "똠양꿍을 먹었습니다. 오늘 아침에는 날씨가 맑았습니다. 우리는 시장에 가서 과일과 채소를 샀습니다. "
    "저녁에는 친구들과 함께 식사를 했습니다.",
    "ru": "Утром в городе было тихо. Мы пошли в парк, где дети играли у пруда, а старики читали газеты на скамейках. "
    "Вечером начался дождь, и мы вернулись домой.",
    "el": "Το πρωί η πόλη ήταν ήσυχη. Πήγαμε στο πάρκο, όπου τα παιδιά έπαιζαν δίπλα στη λίμνη και οι ηλικιωμένοι "
    "διάβαζαν εφημερίδες. Το βράδυ άρχισε να βρέχει.",
}
LEGACY = [
    ("ja", "euc_jp"),
    ("ja", "euc_jisx0213"),
    ("ja_ext", "euc_jp"),
    ("ja_ext", "euc_jisx0213"),
    ("ja", "shift_jis"),
    ("ja", "iso2022_jp"),
    ("zh_hans", "gb2312"),
    ("zh_hans", "gbk"),
    ("zh_hans", "gb18030"),
    ("zh_hans", "hz"),
    ("zh_hant", "big5"),
    ("zh_hant", "big5hkscs"),
    ("yue", "big5hkscs"),
    ("ko", "euc_kr"),
    ("ko", "cp949"),
    ("ko", "johab"),
    ("ko_ext", "cp949"),
    ("ko_ext", "johab"),
    ("ru", "koi8_r"),
    ("ru", "cp1251"),
    ("el", "iso8859_7"),
]
UNICODE = [(lang, enc) for lang in SAMPLES for enc in ("utf-16", "utf-16-le", "utf-16-be", "utf-8-sig")]


@pytest.mark.parametrize(("lang", "encoding"), LEGACY + UNICODE)
def test_every_encoding_decodes_to_the_text_written(lang, encoding):
    text = SAMPLES[lang]
    found = decode_text(text.encode(encoding), source=f"{lang}.txt")
    assert found.text == text, (encoding, found.encoding)
    assert found.errors == 0 and "\ufffd" not in found.text


@pytest.mark.parametrize(("lang", "encoding"), LEGACY + UNICODE)
def test_files_in_every_encoding_load_with_two_lines(tmp_path, lang, encoding):
    text = SAMPLES[lang] + "\n" + SAMPLES[lang] + "\n"
    path = tmp_path / "doc.txt"
    path.write_bytes(text.encode(encoding))
    doc = load(path)
    assert doc.text == text
    assert "decoding_errors" not in doc.metadata or doc.metadata["decoding_errors"] == 0


@pytest.mark.parametrize("encoding", ["euc_jp", "gb2312", "euc_kr", "big5"])
def test_multibyte_text_is_never_utf8_with_replacement_characters(encoding):
    # the lead and trail bytes of these encodings form valid UTF-8 sequences by chance:
    # "mostly UTF-8" must not win over a clean decoding
    lang = {"euc_jp": "ja", "gb2312": "zh_hans", "euc_kr": "ko", "big5": "zh_hant"}[encoding]
    found = decode_text((SAMPLES[lang] * 20).encode(encoding))
    assert found.encoding != "utf-8" and found.errors == 0 and found.text == SAMPLES[lang] * 20


def test_a_long_legacy_file_is_detected_on_its_first_bytes_and_decoded_whole():
    # more than the detection prefix, the rarer character only near the end
    text = (SAMPLES["ja"] + "\n") * 2000 + SAMPLES["ja_ext"] + "\n"
    found = decode_text(text.encode("euc_jp"))
    assert found.text == text
    # a file whose first part is ASCII: detected on all of it
    text = "plain ascii line\n" * 20000 + SAMPLES["ru"] + "\n"
    assert decode_text(text.encode("cp1251")).text == text


def test_utf8_with_a_few_bad_bytes_stays_utf8():
    data = "Grüße, schöne Straße, Müller und Söhne — 東京".encode() + b"\xff!"
    found = decode_text(data)
    assert found.encoding == "utf-8" and found.errors == 1 and found.text.endswith("東京\ufffd!")


def test_ascii_with_tildes_or_escapes_is_not_read_as_hz_or_iso2022():
    for text in ["x = a ~{b~} c\n", "Use ~{ and ~} to switch modes.\n", "colour: \x1b[31mred\x1b[0m\n"]:
        found = decode_text(text.encode("ascii"))
        assert found.text == text and found.encoding == "utf-8"


def test_utf16_without_a_byte_order_mark_looks_like_text_but_binary_does_not():
    for lang in ("ja", "ru", "el"):
        # the first bytes of a file, a character cut at the end
        assert looks_like_text(((SAMPLES[lang] + "\n") * 20).encode("utf-16-le")[:4095])
        assert looks_like_text(((SAMPLES[lang] + "\n") * 20).encode("utf-16-be")[:4096])
    assert not looks_like_text(bytes(range(256)) * 8)
    assert not looks_like_text(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_an_undecodable_file_is_a_one_line_error_naming_the_file_and_the_option(tmp_path):
    bad = tmp_path / "noise.txt"
    bad.write_bytes(bytes(range(1, 256)) * 3)
    good = tmp_path / "ok.txt"
    good.write_bytes(SAMPLES["ko"].encode("johab"))
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(bad), "-o", str(out)])
    assert result.exit_code == 1
    [line] = [x for x in result.output.splitlines() if x.startswith("skipped " + str(bad))]
    assert "--encoding" in line
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path), "-o", str(out)])
    assert "noise.txt" in result.output and SAMPLES["ko"][:10] in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("안녕하세요 여러분", "cp949"),
        ("안녕하세요 여러분", "johab"),
        ("오늘은 날씨가 좋네요.", "johab"),
        ("똠얌꿍 먹고 싶다", "cp949"),
        ("똠얌꿍 먹고 싶다", "johab"),
        ("日本語の文章です。", "euc_jp"),
        ("佢哋喺度食緊嘢。", "big5hkscs"),
    ],
)
def test_one_line_of_korean_japanese_or_cantonese(text, encoding):
    # short text: the East Asian encodings read each other as valid characters; a Hangul
    # jamo inside a word, or mostly syllables outside KS X 1001, are signs of a misreading
    assert decode_text(text.encode(encoding)).text == text


# One short line of Chinese: Big5 and GB 2312/GBK read each other's bytes as valid
# hanzi, and the detector's measures say little on a few characters. The reading made of
# the language's common characters (GB 2312 level 1, Big5's frequent hanzi) is the text.
SHORT_CHINESE = [
    ("中文測試資料", "big5"),
    ("繁體中文", "big5"),
    ("這是測試", "big5"),
    ("密碼錯誤", "big5"),
    ("國際關係", "cp950"),
    ("我喜歡吃麵", "big5"),
    ("聽說他來了", "big5"),
    ("檔案已經儲存", "big5hkscs"),
    ("开始下载", "gb2312"),
    ("欢迎光临", "gbk"),
    ("新闻报道", "gb18030"),
    ("我喜欢吃面", "gbk"),
    ("网络连接失败", "gb2312"),
    ("中文测试数据", "gbk"),
    ("简体中文", "gb2312"),
]


@pytest.mark.parametrize(("text", "encoding"), SHORT_CHINESE)
@pytest.mark.parametrize("end", ["", "\n", "。"])
def test_one_short_line_of_traditional_or_simplified_chinese(text, encoding, end):
    found = decode_text((text + end).encode(encoding))
    assert found.text == text + end, found.encoding


@pytest.mark.parametrize(
    "text", ["東京駅はどこですか", "ファイルを保存しました", "新しいメッセージ", "私は学生です", "お元気ですか"]
)
def test_one_short_line_of_japanese_in_euc_jp(text):
    assert decode_text(text.encode("euc_jp")).text == text


def test_fluency_counts_the_common_characters_of_the_encodings_language():
    from chunkwise.loaders.decoding import _fluency

    data = "繁體中文".encode("big5")
    assert _fluency(data.decode("big5"), "big5") == 1.0
    assert _fluency(data.decode("gb18030"), "gb18030") < 0.5  # 羉砰いゅ: a rare hanzi and kana
    assert _fluency("日本語の文章です", "euc_jp") == 1.0 and _fluency("ｮﾑｩｱ", "shift_jis") == 0.0
    assert _fluency("オ늘은 날씨", "cp949") == 0.8  # katakana is not Korean; ASCII and spaces not counted
    assert _fluency("Naïve", "cp1252") == 0.0  # not an East Asian encoding


@pytest.mark.parametrize(
    ("text", "encoding"),
    [("Straße", "cp1252"), ("Café", "cp1252"), ("Привет мир", "cp1251"), ("繁體中文", "big5"), ("简体中文", "gb2312")],
)
def test_the_text_is_the_named_codecs_reading(text, encoding):
    # the detector's "could be from" list may name code pages that read the bytes otherwise
    # (cp1252 beside UTF-16-LE for b"Stra\xdfe"): the text is always the named codec's
    data = text.encode(encoding)
    found = decode_text(data)
    assert found.text == data.decode(found.encoding)
    assert found.text == text


# One short word of an alphabet or of Korean: a few bytes that the East Asian encodings
# also read (as rare hanzi, or as common ones for Korean) and that the detector's measures
# cannot tell apart. The most common code pages of the alphabets are measured too, and a
# reading of the alphabet's frequent letters (or of Korean's most frequent syllables) wins.
SHORT_WORDS = [
    ("привет", "cp1251"),
    ("на", "cp1251"),
    ("Москва", "cp1251"),
    ("что", "koi8_r"),
    ("как", "koi8_r"),
    ("και", "cp1253"),
    ("ευχαριστώ", "cp1253"),
    ("Αθήνα", "cp1253"),
    ("שלום", "cp1255"),
    ("תודה", "cp1255"),
    ("את", "cp1255"),
    ("ישראל", "iso8859_8"),
    ("사람", "euc_kr"),
    ("이", "euc_kr"),
    ("한국어", "euc_kr"),
    ("가다", "euc_kr"),
]


@pytest.mark.parametrize(("text", "encoding"), SHORT_WORDS)
def test_one_short_word_of_an_alphabet_or_of_korean(text, encoding):
    assert decode_text(text.encode(encoding)).text == text


def test_signs_of_a_misread_alphabet():
    from chunkwise.loaders.decoding import implausible

    assert implausible("кбй") == 2  # Greek "και" read as cp1251: no vowel, й after a consonant
    assert implausible("аъ") == 1  # Hebrew "את" read as cp1251: a hard sign after a vowel
    assert implausible("ςμ") == 2  # Hebrew "על" read as cp1253: a final sigma first, no vowel
    assert implausible("שמ") == 1  # Ukrainian "що" read as cp1255: a medial mem at the end
    assert implausible("àí") == 1  # Russian "на" read as cp1252 (a short text)
    # real words: units, Serbian syllabic r, Bulgarian ъ, Hebrew final letters, Turkish "üç"
    assert implausible("5 км, прст, път, шалом שלום, " + "üç " * 30) == 0


# Words and lines in capitals (or a capital and small letters): a capital counts as its
# small letter. Capitals of cp1251 and cp1253 are common hanzi in GB 2312 (МОСКВА is
# 涛咽吕), and KOI8-R reads them as small letters (ΑΘΗΝΑ is ахгма): the reading of an
# alphabet's frequent letters wins unless the hanzi are among the language's most frequent.
SHORT_CAPITALS = [
    ("МОСКВА", "cp1251"),
    ("РОССИЙСКАЯ ФЕДЕРАЦИЯ", "cp1251"),
    ("ПРИВЕТ МИР", "cp1251"),
    ("ДА", "cp1251"),
    ("Да", "cp1251"),
    ("ОК", "cp1251"),
    ("МОСКВА", "koi8_r"),
    ("ПРИВЕТ", "koi8_r"),
    ("РОССИЯ", "koi8_r"),
    ("ΕΛΛΗΝΙΚΗ ΔΗΜΟΚΡΑΤΙΑ", "cp1253"),
    ("ΚΕΦΑΛΑΙΟ 1", "cp1253"),
    ("ΑΘΗΝΑ", "cp1253"),
    ("ΚΑΙ", "cp1253"),
]


@pytest.mark.parametrize(("text", "encoding"), SHORT_CAPITALS)
def test_one_short_word_or_line_in_capitals(tmp_path, text, encoding):
    path = tmp_path / "caps.txt"
    path.write_bytes(text.encode(encoding))
    assert load(path).text == text
    assert decode_text((text + "\n").encode(encoding)).text == text + "\n"


@pytest.mark.parametrize("text", ["是", "中国", "我们", "上海", "北京", "他们"])
def test_a_short_chinese_word_of_frequent_hanzi_stays_chinese(text):
    # its bytes read as two capitals of cp1251 or cp1253 too (是: КЗ, ΚΗ)
    assert decode_text(text.encode("gb2312")).text == text


def test_signs_of_a_misread_alphabet_in_capitals():
    from chunkwise.loaders.decoding import implausible

    assert implausible("ЕЯче") == 1  # Greek "Είχε" read as cp1251: a small letter after two capitals
    assert implausible("йаи") == 1  # Greek "ΚΑΙ" read as KOI8-R: й before а
    assert implausible("ЫСЫ") == 1  # Russian "как" in KOI8-R read as ISO 8859-5: Ы first
    assert implausible("ВРН") == 1  # Russian "что" in cp1251 read as KOI8-R: capitals, no vowel
    assert implausible("ΤΣ") == 1  # capitals, no vowel
    # real words: acronyms, й after a vowel or before о, Serbian syllabic r in small letters
    assert implausible("США, СССР, мой район, йод, його, прст, ΑΘΗΝΑ, ΚΑΙ") == 0


CYRILLIC_PAGES = {
    "ru": "Москва — столица России. Это большой город, в котором живут миллионы людей. Ёлка стоит в центре площади.",
    "uk": "Київ — столиця України. Це велике місто, де живуть мільйони людей. Їжак біжить через ґанок.",
    "bg": "София е столицата на България. Това е голям град, в който живеят много хора. Щастие и мъдрост.",
    "sr": "Београд је главни град Србије. Ђорђе и Љиљана живе у Њујорку. Џеп је пун, ћерка чита.",
    "mk": "Скопје е главен град на Македонија. Ѓорѓи и Ѕвездана живеат во Охрид. Ќерка, Љубов, Њива, Џамија.",
}


def test_a_russian_sentence_in_cp1251_is_not_mac_cyrillic(tmp_path):
    # mac-cyrillic reads its capitals П and Э as ѕ and Ё: a Macedonian letter in a text
    # with a letter Macedonian does not write
    text = "Привет, как дела? Это длинное предложение."
    path = tmp_path / "ru.txt"
    path.write_bytes(text.encode("cp1251"))
    doc = load(path)
    assert doc.text == text
    assert doc.metadata["encoding"] == "cp1251"


@pytest.mark.parametrize("lang", sorted(CYRILLIC_PAGES))
@pytest.mark.parametrize("encoding", ["cp1251", "mac_cyrillic"])
def test_cyrillic_text_in_cp1251_or_mac_cyrillic(lang, encoding):
    text = CYRILLIC_PAGES[lang]
    found = decode_text(text.encode(encoding))
    assert found.text == text


def test_serbian_letters_beside_letters_serbian_does_not_write_are_a_sign():
    from chunkwise.loaders.decoding import implausible

    assert implausible("ѕривет, как дела? Ёто длинное") == 1  # ѕ beside Ё
    assert implausible("Њосква С столица ђоссии. ќто большой город") == 3  # Њ, ђ, ќ beside ь, й
    assert implausible("Ђорђе и Љиљана, Ѕвездана, Ќерка") == 0


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        # KOI8-R reads small letters of cp1251 as capitals (по: ОН, будет: АСДЕР)
        ("по", "cp1251"),
        ("будет", "cp1251"),
        ("чтобы", "cp1251"),
        ("потому", "cp1251"),
        ("мій", "cp1251"),
        ("път", "cp1251"),
        # cp1255 reads ю as a right-to-left mark inside a Hebrew word
        ("людей", "cp1251"),
        ("по", "koi8_r"),
        ("будет", "koi8_r"),
    ],
)
def test_one_short_word_in_small_letters(text, encoding):
    assert decode_text(text.encode(encoding)).text == text


def test_a_symbol_or_format_character_inside_a_word_is_a_sign():
    from chunkwise.loaders.decoding import implausible

    assert implausible("כ\u200fהוי") == 1  # Russian "людей" read as cp1255
    assert implausible("ה³עוי") == 1  # Ukrainian "дітей" read as cp1255
    # the Hebrew geresh and gershayim, and the Persian zero-width non-joiner, are writing
    assert implausible("צה״ל, מ׳, می\u200cخواهم") == 0
