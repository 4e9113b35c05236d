"""Every script's sentences: one sentence pair per script, split apart and not over-split;
the recursive and sentence strategies cut after those terminators; scripts written without
spaces are cut at word boundaries; right-to-left text and bidi controls keep exact offsets.

The sentences were written for these tests (simple everyday statements).
"""

from __future__ import annotations

import pytest
from invariants import check_invariants

from chunkwise import RecursiveChunker, SentenceChunker, split_sentences
from chunkwise.sizers import CharSizer

# script: (first sentence, second sentence, separator between them)
PAIRS: dict[str, tuple[str, str, str]] = {
    "latin": ("The train left at noon.", "We missed it by a minute.", " "),
    "greek": ("Τι ώρα φεύγει το τρένο;", "Φεύγει στις δώδεκα.", " "),
    "greek-question-mark": ("Πού είναι ο σταθμός\u037e", "Είναι κοντά.", " "),
    "cyrillic": ("Поезд ушёл в полдень.", "Мы опоздали на минуту!", " "),
    "armenian": ("Գնացքը մեկնեց կեսօրին։", "Մենք ուշացանք մեկ րոպեով։", " "),
    "georgian": ("მატარებელი შუადღეს წავიდა.", "ჩვენ ერთი წუთით დავაგვიანეთ.", " "),
    "hebrew": ("הרכבת יצאה בצהריים.", "איחרנו בדקה אחת.", " "),
    "arabic": ("هل وصل القطار إلى المحطة؟", "نعم، وصل قبل دقائق قليلة.", " "),
    "urdu": ("ریل گاڑی دوپہر کو روانہ ہوئی۔", "ہم ایک منٹ سے رہ گئے۔", " "),
    "devanagari-hindi": ("आज सुबह तेज़ बारिश हुई।", "सड़कें अभी भी गीली हैं।", " "),
    "devanagari-double-danda": (
        "धर्मक्षेत्रे कुरुक्षेत्रे समवेता युयुत्सवः॥", "मामकाः पाण्डवाश्चैव किमकुर्वत सञ्जय॥", " "
    ),
    "bengali": ("আজ সকালে খুব বৃষ্টি হয়েছে।", "রাস্তা এখনও ভেজা।", " "),
    "ethiopic-amharic": ("ባቡሩ እኩለ ቀን ላይ ሄደ።", "በአንድ ደቂቃ አመለጠን።", " "),
    "ethiopic-question": ("ባቡሩ መቼ ይሄዳል፧", "እኩለ ቀን ላይ ይሄዳል።", " "),
    "myanmar": ("ရထားသည် မွန်းတည့်ချိန်တွင် ထွက်သွားသည်။", "ကျွန်ုပ်တို့ တစ်မိနစ် နောက်ကျသွားသည်။", ""),
    "khmer": ("រថភ្លើងបានចេញនៅពេលថ្ងៃត្រង់។", "យើងបានខកខានមួយនាទី។", " "),
    "tibetan": ("མེ་འཁོར་ཉིན་གུང་ལ་ཐོན་སོང་།", "ང་ཚོ་སྐར་མ་གཅིག་གིས་ཕྱི་འགྱངས་བྱུང་།", " "),
    "mongolian": ("ᠭᠠᠯᠲᠤ ᠲᠡᠷᠭᠡ ᠶᠠᠪᠤᠭᠰᠠᠨ᠃", "ᠪᠢᠳᠡ ᠬᠣᠴᠣᠷᠠᠭᠰᠠᠨ᠃", " "),
    "chinese": ("火车中午开走了。", "我们晚了一分钟！", ""),
    "japanese": ("電車は正午に出発しました。", "私たちは一分遅れました。", ""),
    "korean": ("기차는 정오에 떠났습니다.", "우리는 1분 늦었습니다.", " "),
    "tamil": ("ரயில் மதியம் புறப்பட்டது.", "நாங்கள் ஒரு நிமிடம் தாமதமானோம்.", " "),
    "sinhala": ("දුම්රිය දහවල් පිටත් විය.", "අපි විනාඩියකින් පරක්කු වුණා.", " "),
    "javanese": ("Sepur mangkat ing wayah awan꧉", "Aku telat sak menit꧉", " "),
}


@pytest.mark.parametrize("script", sorted(PAIRS))
def test_sentence_pair_per_script(script):
    first, second, sep = PAIRS[script]
    text = first + sep + second
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == [first, second]
    # one sentence alone is not split (no cut inside it)
    assert [first[a:b] for a, b in split_sentences(first)] == [first]
    assert [second[a:b] for a, b in split_sentences(second)] == [second]


def test_at_least_fifteen_scripts():
    scripts = {name.split("-")[0] for name in PAIRS}
    assert len(scripts) >= 15, sorted(scripts)


@pytest.mark.parametrize(
    "text",
    [
        "a; b. The rest",  # a semicolon after a Latin letter is no terminator
        "১.৫ কেজি চাল কিনুন।",  # a decimal point inside Bengali digits
        "価格は３．５ドルです。",  # the fullwidth full stop inside a fullwidth number
        "ကျွန်ုပ်တို့၊ သူတို့ နှင့် အခြားသူများ။",  # the Burmese little section is a comma
        "ሰላም፡ለዓለም።",  # the Ethiopic word space is Terminal_Punctuation, not a sentence end
    ],
)
def test_not_over_split(text):
    assert [text[a:b] for a, b in split_sentences(text)] == [text]


def test_semicolon_after_full_stop_still_ends():
    text = "Debt fell (excluding debt);. What next?"
    assert [text[a:b] for a, b in split_sentences(text)] == ["Debt fell (excluding debt);.", "What next?"]


@pytest.mark.parametrize(
    "script", ["devanagari-hindi", "arabic", "urdu", "ethiopic-amharic", "armenian", "khmer", "myanmar", "tibetan"]
)
@pytest.mark.parametrize("make", [RecursiveChunker, SentenceChunker], ids=["recursive", "sentence"])
def test_strategies_cut_after_terminators(script, make):
    """Three copies of a pair, sized so a chunk holds one sentence and not two: every
    chunk is whole sentences, never cut mid-sentence at a word."""
    first, second, sep = PAIRS[script]
    text = (first + sep + second + sep) * 3
    text = text.rstrip()
    size = max(len(first), len(second)) + 2
    chunks = make(chunk_size=size, unit="chars").chunk(text)
    check_invariants(text, chunks, size, CharSizer())
    assert [c.text for c in chunks] == [first, second] * 3


def test_hindi_case_shared_by_peers():
    text = "आज सुबह तेज़ बारिश हुई। सड़कें अभी भी गीली हैं। बच्चे स्कूल देर से पहुँचे। दोपहर में धूप निकल आई।"
    chunks = SentenceChunker(chunk_size=40, unit="chars").chunk(text)
    assert [c.text for c in chunks] == [
        "आज सुबह तेज़ बारिश हुई।",
        "सड़कें अभी भी गीली हैं।",
        "बच्चे स्कूल देर से पहुँचे।",
        "दोपहर में धूप निकल आई।",
    ]


# -- right-to-left text and bidirectional controls ------------------------------------

RLE, PDF, RLI, PDI, RLM, LRM = "\u202b", "\u202c", "\u2067", "\u2069", "\u200f", "\u200e"


def test_bidi_controls_close_their_sentence():
    text = f"{RLE}هل وصل القطار؟{PDF} {RLI}نعم وصل.{PDI}{RLM} Then we left."
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == [f"{RLE}هل وصل القطار؟{PDF}", f"{RLI}نعم وصل.{PDI}{RLM}", "Then we left."]


@pytest.mark.parametrize("make", [RecursiveChunker, SentenceChunker], ids=["recursive", "sentence"])
def test_rtl_with_bidi_controls_exact_offsets(make):
    parts = [
        f"{RLE}هل وصل القطار إلى المحطة؟{PDF}",
        f"{RLM}נעם אמר: {LRM}ABC-123{LRM} הגיע.",
        f"{RLI}ریل گاڑی دوپہر کو روانہ ہوئی۔{PDI}",
        "שלום עולם, זה משפט ארוך למדי בעברית עם מילים רבות מאוד.",
    ]
    text = " ".join(parts * 5)
    for size in (12, 30, 60):
        chunks = make(chunk_size=size, unit="chars").chunk(text)
        check_invariants(text, chunks, size, CharSizer())
        for c in chunks:
            assert c.text == text[c.start_index : c.end_index]


# -- scripts written without spaces: cut at words, not mid-word ----------------------

# the words of each text, as a dictionary segmenter (and a reader) divides them
WORDS = {
    "thai": ["ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "มี", "ระดับ", "เสียง", "ของ", "คำ", "แน่นอน", "หรือ",
             "วรรณยุกต์", "เช่น", "เดียว", "กับ", "ภาษา", "จีน"],
    "japanese": ["日本語", "は", "主に", "日本", "国内", "や", "日本人", "同士", "の", "間", "で", "使用", "さ",
                 "れる", "言語", "で", "ある"],
}


def _junctions(words: list[str], copies: int) -> tuple[str, set[int]]:
    text, ends = "", {0}
    for _ in range(copies):
        for w in words:
            text += w
            ends.add(len(text))
    return text, ends


@pytest.mark.parametrize("script", sorted(WORDS))
@pytest.mark.parametrize("size", [10, 16, 25])  # the longest word: 9 characters
@pytest.mark.parametrize("make", [RecursiveChunker, SentenceChunker], ids=["recursive", "sentence"])
def test_spaceless_text_cut_only_at_word_boundaries(script, size, make):
    pytest.importorskip("icu4py")
    text, junctions = _junctions(WORDS[script], 6)  # no space, no terminator: one sentence
    assert len(text) > 4 * size
    chunks = make(chunk_size=size, unit="chars").chunk(text)
    check_invariants(text, chunks, size, CharSizer())
    for c in chunks:
        assert c.start_index in junctions and c.end_index in junctions, (c.text, c.metadata["boundary"])
    assert {c.metadata["boundary"] for c in chunks[:-1]} == {"word"}


@pytest.mark.parametrize("script", sorted(WORDS))
def test_spaceless_overlap_ends_at_word_boundaries(script):
    pytest.importorskip("icu4py")
    text, junctions = _junctions(WORDS[script], 6)
    chunks = RecursiveChunker(chunk_size=20, chunk_overlap=6, unit="chars").chunk(text)
    check_invariants(text, chunks, 20, CharSizer())
    assert any(a.end_index > b.start_index for a, b in zip(chunks, chunks[1:]))  # overlaps exist
    assert all(c.start_index in junctions and c.end_index in junctions for c in chunks)


def test_spaceless_text_in_tokens_cut_at_word_boundaries(cl100k):
    pytest.importorskip("icu4py")
    text, junctions = _junctions(WORDS["thai"], 4)
    chunks = RecursiveChunker(chunk_size=20, unit="tokens").chunk(text)
    check_invariants(text, chunks, 20, cl100k)
    assert len(chunks) > 2
    assert all(c.start_index in junctions and c.end_index in junctions for c in chunks)


def test_without_a_segmenter_spaceless_text_falls_back_to_clusters(monkeypatch):
    import chunkwise.words as words

    monkeypatch.setattr(words, "_word_breaker", lambda: None)
    text, junctions = _junctions(WORDS["thai"], 3)
    chunks = RecursiveChunker(chunk_size=12, unit="chars").chunk(text)
    check_invariants(text, chunks, 12, CharSizer())
    assert {c.metadata["boundary"] for c in chunks[:-1]} == {"hard"}


def test_dictionary_cuts_touch_only_spaceless_scripts():
    pytest.importorskip("icu4py")
    from chunkwise.words import dictionary_word_cuts

    url = "https://example.com/a-very-long-path/with.dots_and-dashes"
    assert list(dictionary_word_cuts(url)) == []  # Latin text: left to the other levels
    text = "ราคาสินค้าABC.DEF-GHIภาษาไทย"
    cuts = [a for a, _ in dictionary_word_cuts(text)]
    assert 4 in cuts and 25 in cuts  # ราคา|สินค้า ... ภาษา|ไทย
    assert not [a for a in cuts if 10 < a < 21]  # never inside the Latin run
    assert list(dictionary_word_cuts("ภาษา\ud800ไทย")) == []  # unreadable: no cut, no error


def test_spaceless_with_emoji_offsets_are_code_points():
    pytest.importorskip("icu4py")
    from chunkwise.words import dictionary_word_cuts

    text = "😀ภาษาไทย😀日本語は"
    cuts = [a for a, _ in dictionary_word_cuts(text)]
    assert all(0 < a < len(text) for a in cuts)
    assert 1 in cuts and 5 in cuts and 8 in cuts  # 😀|ภาษา|ไทย|😀


def test_doctests_of_the_script_modules():
    import doctest
    import importlib

    for name in ("chunkwise.sentences", "chunkwise.words"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0, name


@pytest.mark.parametrize("script", ["devanagari-hindi", "arabic", "ethiopic-amharic", "khmer", "tibetan", "chinese"])
def test_semantic_strategy_sees_every_script_sentences(script):
    pytest.importorskip("numpy")
    from chunkwise.chunkers.semantic import SemanticChunker

    first, second, sep = PAIRS[script]
    text = first + sep + second

    def model(texts):  # a topic per sentence: the first one, or not
        return [[1.0, 0.0] if t.startswith(first[:3]) else [0.0, 1.0] for t in texts]

    # both sentences fit one chunk, and the floor (a quarter of it) lets each be a group
    chunker = SemanticChunker(model=model, chunk_size=len(text) + 1, threshold_type="absolute", threshold=0.5)
    analysis = chunker.analyze(text)
    assert [text[a:b] for a, b in analysis.sentences] == [first, second]
    assert list(analysis.cuts) == [0]  # the topic changes between the two sentences
    assert [c.text for c in chunker.chunk(text)] == [first, second]


# -- properties: hostile mixes of scripts, terminators and bidi controls ---------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = [
    "مرحبا", "كيف", "שלום", "עולם", "ภาษาไทยเป็น", "日本語は", "中文", "ភាសា", "မြန်မာ", "word", "e\u0301",
    "।", "॥", "؟", "۔", "։", "።", "။", "។", "།", "。", "！", ".", "?", ";", "\u037e", "…",
    " ", " ", "\n", "\n\n", "\u200e", "\u200f", "\u202b", "\u202c", "\u2067", "\u2069", "\u061c", "😀", "»", ")",
]


@given(st.lists(st.sampled_from(_PIECES), max_size=120), st.integers(min_value=3, max_value=40))
def test_every_script_mix_keeps_the_contract(pieces, size):
    text = "".join(pieces)
    for make in (RecursiveChunker, SentenceChunker):
        chunks = make(chunk_size=size, unit="chars").chunk(text)
        check_invariants(text, chunks, size, CharSizer())
    spans = split_sentences(text)
    assert all(text[a:b].strip() for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
