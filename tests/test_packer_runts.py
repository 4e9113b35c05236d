"""No tiny leftover chunk in Thai and Hindi prose where the text can be evened out.

Balancing evens a chunk under a quarter of the budget with a neighbour, at the strongest
boundary that leaves both above that floor. A Thai phrase (between spaces) longer than a
chunk is cut at dictionary words, but balancing used only whitespace: the end of such a
phrase stayed a chunk of its own (``"ประเทศ"``, 6 characters at a budget of 32).
Balancing now uses the same dictionary words as the engine.

The paragraphs were written for this test (released with the project under its licence).
"""

from __future__ import annotations

import pytest

import chunkwise

THAI = """ประเทศไทยตั้งอยู่ในภูมิภาคเอเชียตะวันออกเฉียงใต้ มีประชากรประมาณเจ็ดสิบล้านคน กรุงเทพมหานครเป็นเมืองหลวงและเป็นศูนย์กลางทางเศรษฐกิจของประเทศ ผู้คนจำนวนมากเดินทางเข้ามาทำงานในเมืองทุกวัน

ในฤดูฝน ฝนตกหนักเกือบทุกบ่าย ถนนหลายสายมีน้ำท่วมขัง รถติดเป็นเวลานาน แต่ชาวนาในชนบทดีใจเพราะน้ำฝนช่วยให้ข้าวในนาเติบโตได้ดี เมื่อถึงฤดูเก็บเกี่ยว ทุกคนในหมู่บ้านจะมาช่วยกันเกี่ยวข้าว

ห้องสมุดประจำตำบลเปิดให้บริการทุกวันตั้งแต่เช้าจนถึงเย็น เด็ก ๆ ชอบมาอ่านหนังสือนิทานหลังเลิกเรียน บรรณารักษ์จัดกิจกรรมเล่านิทานทุกวันเสาร์ และมีการสอนใช้คอมพิวเตอร์สำหรับผู้สูงอายุในวันอาทิตย์

อาหารไทยมีชื่อเสียงไปทั่วโลก ต้มยำกุ้ง ผัดไทย และแกงเขียวหวานเป็นเมนูที่นักท่องเที่ยวนิยมสั่ง รสชาติของอาหารไทยผสมผสานระหว่างเปรี้ยว หวาน เค็ม และเผ็ดได้อย่างลงตัว
"""

HINDI = """भारत एक विशाल देश है जहाँ अनेक भाषाएँ बोली जाती हैं। हर राज्य की अपनी संस्कृति, अपना भोजन और अपने त्योहार हैं। उत्तर में हिमालय की ऊँची चोटियाँ हैं और दक्षिण में समुद्र के किनारे लंबे तट फैले हुए हैं। गाँवों में लोग आज भी खेती पर निर्भर हैं, जबकि शहरों में उद्योग और सेवाएँ तेज़ी से बढ़ रही हैं।

पिछले वर्ष हमारे विद्यालय ने एक पुस्तकालय खोला। उसमें बच्चों के लिए कहानियों की किताबें, विज्ञान की पत्रिकाएँ और इतिहास के ग्रंथ रखे गए हैं। हर शनिवार को शिक्षक बच्चों को ज़ोर से कहानियाँ पढ़कर सुनाते हैं। कई अभिभावक भी इस कार्यक्रम में शामिल होते हैं और अपने अनुभव साझा करते हैं।

बरसात के मौसम में नदी का पानी बहुत बढ़ जाता है। किसान अपने खेतों की मेड़ें मज़बूत करते हैं ताकि फसल बह न जाए। कभी-कभी सड़कें बंद हो जाती हैं और बसें देर से चलती हैं। फिर भी लोग एक-दूसरे की मदद करते हैं और जीवन चलता रहता है।
"""


def _runts(text, strategy, unit, size, overlap=0):
    chunks = chunkwise.chunk(text, strategy=strategy, chunk_size=size, unit=unit, chunk_overlap=overlap)
    floor = (size - overlap) // 4
    return [c.text for c in chunks if len(chunks) > 1 and c.size < floor]


@pytest.mark.parametrize("strategy", ["recursive", "sentence", "markdown"])
def test_thai_phrases_cut_at_dictionary_words_leave_no_runt(strategy):
    pytest.importorskip("icu4py")
    found = {size: _runts(THAI, strategy, "chars", size) for size in range(24, 64, 3)}
    assert not any(found.values()), {k: v for k, v in found.items() if v}
    assert not _runts(THAI, strategy, "chars", 36, overlap=9)


@pytest.mark.parametrize("strategy", ["recursive", "sentence"])
def test_thai_tokens_leave_no_runt(strategy, cl100k):
    pytest.importorskip("icu4py")
    found = {size: _runts(THAI, strategy, "tokens", size) for size in range(12, 50, 3)}
    assert not any(found.values()), {k: v for k, v in found.items() if v}


@pytest.mark.parametrize("unit", ["chars", "words", "tokens"])
def test_hindi_leaves_no_runt(unit, request):
    if unit == "tokens":
        request.getfixturevalue("cl100k")
    sizes = range(6, 40, 2) if unit == "words" else range(16, 160, 6)
    for strategy in ("recursive", "sentence"):
        found = {size: _runts(HINDI, strategy, unit, size) for size in sizes}
        assert not any(found.values()), (strategy, {k: v for k, v in found.items() if v})


def test_the_thai_example():
    pytest.importorskip("icu4py")
    chunks = chunkwise.chunk(THAI, chunk_size=32)
    assert "ประเทศ" not in [c.text for c in chunks]
    assert min(c.size for c in chunks) >= 8
