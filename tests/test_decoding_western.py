"""Western European text in cp1252 or latin-1 (French, German, Spanish, Portuguese, Italian,
Dutch, the Nordic languages) decodes to the text written, short or long, in small letters,
capitals or with capitals first: not as cp1257 (``Garēon``, ``déją``), a DOS or Mac code
page, UTF-16 or an East Asian encoding. A Lithuanian or Latvian sentence in cp1257 reads as cp1257.

The words and sentences are written for these tests (no outside source)."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.loaders import load
from chunkwise.loaders.decoding import decode, implausible

WORDS = {
    "fr": "déjà été être tête même hôte rôle fenêtre garçon français où très après leçon naïve cœur "
    "château crème élève forêt",
    "de": "Müller Köln schön grün über Straße Größe für Mädchen Bär Öl Fuß weiß hören Tür Bücher",
    "es": "señor año niño mañana corazón también está aquí jamás canción pequeño árbol",
    "pt": "São não coração ação informação você também português irmã avó pão lições",
    "it": "città perché però più già così università caffè virtù lunedì",
    "nl": "één café België ruïne geëerd coördinatie reünie",
    "sv": "på år även också här där både hjärta smörgåsbord Ångström",
    "da": "være også når først hvordan sø rødgrød blåbær Ærø",
    "fi": "määrä lisää käytössä mitään väärä tämä hyvää yötä",
}
SENTENCES = [
    "Le garçon a déjà mangé à la crêperie, où l'été est très chaud.",
    "Müller wohnt in Köln; die Straße ist schön und grün.",
    "El niño pequeño canta una canción en la mañana de otoño.",
    "A informação não está disponível em português, irmã.",
    "La città è più bella quando c'è il sole, perché è già estate.",
    "Het café in België is één van de beste.",
    "Vi åt smörgåsbord på ön i går, även barnen.",
    "Hyvää yötä, mitään ei löytynyt käytössä olevasta määrästä.",
    "«\xa0Déjà vu\xa0» – c’est ça, dit-il… “Très bien”.",
    # marks and symbols in their places, with or without accented letters
    "Geen toegang tot ‘%s’",
    "„%s“ ist bereits aktuell.",
    "¡%s no tiene sentido con %s!",
    "Formas de terminal nº 2, 1ª vez",
    "e tabelle_e_colonne è:",
    "Käännetty vaaka (270°), indeksi 4×6",
    "Le cœur et l’œil de Œdipe",
]
CSV = ("a,b\nMüller,Köln\nGarçon,déjà vu\n" * 3).encode("latin-1")
FORMS = (str.lower, str.upper, str.title, lambda w: w)


def test_the_reported_latin1_csv_reads_as_cp1252_not_baltic(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes(CSV)
    doc = load(path)
    assert doc.metadata["encoding"] == "cp1252"
    assert "Garçon,déjà vu" in doc.text and doc.text == CSV.decode("latin-1")


@pytest.mark.parametrize("lang", sorted(WORDS))
@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
def test_western_words_in_every_case(lang, encoding):
    wrong = []
    for word in WORDS[lang].split():
        for form in FORMS:
            text = form(word)
            try:
                data = text.encode(encoding)
            except UnicodeEncodeError:  # œ is not in latin-1
                continue
            got, name = decode(data)
            if got != text:
                wrong.append((text, got, name))
    assert wrong == []


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("form", [str.lower, str.upper, lambda s: s], ids=["lower", "upper", "as-is"])
def test_western_sentences(sentence, form):
    text = form(sentence)
    assert decode(text.encode("cp1252")) == (text, "cp1252")


def test_a_long_western_file_reads_as_cp1252():
    text = "\n".join(SENTENCES * 400)
    assert decode(text.encode("cp1252")) == (text, "cp1252")


def test_letters_no_language_writes_together_are_a_sign():
    # cp1257's reading of French: é and ą in one word (no language), ē alone is Latvian
    assert implausible("déją") == 1 and implausible("DÉJĄ") == 1
    assert implausible("Garēon") == 0 and implausible("déjà") == 0
    # Lithuanian read as cp1252: ð (Icelandic) beside ë (no Icelandic letter)
    assert implausible("reikðmë") == 1
    assert implausible("Müller Köln Garçon déjà São Dvořák Łódź İstanbul ȘTIINȚĂ Tiếng") == 0


_WESTERN = sorted({w for words in WORDS.values() for w in words.split()} - {"cœur"})


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(st.sampled_from(_WESTERN), min_size=1, max_size=30),
    seps=st.lists(st.sampled_from([" ", ", ", ",", "\n", ". ", ";"]), min_size=30, max_size=30),
    form=st.sampled_from(FORMS),
    encoding=st.sampled_from(["cp1252", "latin-1"]),
)
def test_any_line_of_western_words_reads_as_written(words, seps, form, encoding):
    text = form("".join(w + s for w, s in zip(words, seps)))
    logging.disable(logging.WARNING)
    try:
        got, name = decode(text.encode(encoding))
    finally:
        logging.disable(logging.NOTSET)
    assert got == text


BALTIC = [
    ("Lietuvos Respublikos Seimas priėmė įstatymą dėl švietimo ir mokslo.", "cp1257"),
    ("Šodien Rīgā ir silts laiks, un bērni spēlējas dārzā pie ezera.", "cp1257"),
]


@pytest.mark.parametrize("text,encoding", BALTIC)
def test_baltic_text_reads_as_cp1257(text, encoding):
    assert decode(text.encode(encoding)) == (text, "cp1257")


@pytest.mark.parametrize(
    "text,encoding",
    [
        # what cp1252 reads as accented letters and marks: Korean (°¡, ¿¡, sÀÇ), Polish (ZOSTA£)
        ("가", "euc_kr"),
        ("에", "euc_kr"),
        ("s의", "euc_kr"),
        ("ZOSTAŁ", "cp1250"),
        ("SYGNAŁ", "cp1250"),
        # French and German letters together (no one language writes ä and à): still cp1252
        ("Händel et déjà Paris, l'été", "cp1252"),
    ],
)
def test_other_code_pages_are_not_taken_for_western_text(text, encoding):
    got, name = decode(text.encode(encoding))
    assert got == text
