"""cp1252 text with one stray UTF-8 sequence: every reading shows a sign of a wrong code page,
and among equals the most common code page wins (cp1252), not a reading whose letters are
one language's beside its sign (cp1256's ``cafأ©``, cp1258's ``cafĂ©``, cp775's ``caf├®``)."""

from __future__ import annotations

import logging

import pytest

pytest.importorskip("charset_normalizer")

import chunkwise  # noqa: E402
from chunkwise.loaders.decoding import decode, implausible  # noqa: E402

REPORTED = b"caf\xc3\xa9 and na\xefve and r\xe9sum\xe9\n"


def mixed(words: list[str], stray: int) -> bytes:
    """``words`` joined by spaces, each in cp1252 but the one at ``stray``, in UTF-8."""
    return b" ".join(w.encode("utf-8" if k == stray else "cp1252") for k, w in enumerate(words)) + b"\n"


def test_reported_file_reads_as_cp1252(tmp_path, caplog):
    path = tmp_path / "x.txt"
    path.write_bytes(REPORTED)
    with caplog.at_level(logging.WARNING, logger="chunkwise.loaders.decoding"):
        doc = chunkwise.load(str(path))
    assert doc.metadata["encoding"] == "cp1252"
    assert doc.text == "cafÃ© and naïve and résumé\n"
    # still a guess with a sign, and said so, naming the code page chosen
    assert any("decoded as cp1252" in r.getMessage() for r in caplog.records)


def test_reported_readings_tie_on_signs():
    # the premise: cp1252, cp1256 and cp775 each show one sign
    assert [implausible(REPORTED.decode(name)) for name in ("cp1252", "cp1256", "cp775")] == [1, 1, 1]


@pytest.mark.parametrize(
    "words,stray",
    [
        # French: cp1256 read ``cafأ©``, cp1258 ``cÃ´tÃ©`` as ``cĂ´tĂ©``
        ("Le café est très bon à côté de l'église.".split(), 1),
        ("Le café est très bon à côté de l'église.".split(), 6),
        # German: mac-iceland read ``Fr√§ulein ... groþe``
        ("Fräulein Müller hat große Füße.".split(), 0),
        # Spanish: cp1257 read ``Mańana comprarĆ©``, ``Ć‰l ... seńor``
        ("Mañana compraré un limón.".split(), 1),
        ("Él habló con el señor Muñoz.".split(), 0),
        # cp1252 already, kept: its reading is the one in one language's letters, and the
        # calmest (cp1250's ``SchlĂĽsseldatei`` is calmer than ``SchlÃ¼sseldatei``)
        ("private Schlüsseldatei »%s« muss als Eigentümer den Datenbankbenutzer oder »root« haben".split(), 1),
    ],
)
def test_one_stray_utf8_word_in_cp1252(words, stray):
    data = mixed(words, stray)
    text, name = decode(data)
    assert name == "cp1252"
    assert text == data.decode("cp1252")


@pytest.mark.parametrize(
    "text",
    [
        "مرحبا بالعالم، هذا نص عربي قصير.\n",
        "Le café (المقهى) est très bon.\n",
        "Arabic: اللغة العربية جميلة جدا، و é\n",
    ],
)
def test_arabic_in_cp1256_still_arabic(text):
    assert decode(text.encode("cp1256")) == (text, "cp1256")


@pytest.mark.parametrize(
    "text,encoding",
    [
        # readings without a sign: the one in one language's letters still wins
        ("Dokumentų ir nuotraukų aplankas", "cp1257"),
        ("Vakar bija ļoti auksta diena.", "cp1257"),
        ("Počet bitů na vzorek", "cp1250"),
    ],
)
def test_letters_of_one_language_still_win_without_signs(text, encoding):
    got, _ = decode(text.encode(encoding))
    assert got == text
