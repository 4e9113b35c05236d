"""Values travel: documents, chunks, sizers and chunkers pickle and deep-copy to equal
values that chunk the same, so a folder can be chunked in worker processes."""

from __future__ import annotations

import contextlib
import copy
import pickle
import socket
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

import chunkwise
from chunkwise.errors import ConfigError, UnsupportedFormatError
from chunkwise.loaders import find_files, load
from chunkwise.sizers import OFFLINE_ENCODINGS, CallableSizer, CharSizer, HFTokenizerSizer, TiktokenSizer, WordSizer
from chunkwise.types import Chunk, Document

pytest.importorskip("numpy")
pytest.importorskip("quicktok")

TEXT = (
    "# Climate\n\nClimate change refers to long-term shifts in temperatures and weather patterns. "
    "Since the 1800s, human activities have been the main driver.\n\n## Fuels\n\nBurning fossil fuels "
    "generates greenhouse gas emissions that trap the sun's heat. Forests absorb carbon. Oceans warm.\n"
) * 3


def _round_trips(value):
    for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
        assert twin == value
        assert type(twin) is type(value)
        yield twin


def _count_letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def _hf_tokenizer(vocab):
    tokenizers = pytest.importorskip("tokenizers")
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    return tok


def test_documents_and_chunks_round_trip():
    doc = Document("Hello there. General.", source="a.txt", metadata={"title": "T", "tags": ["x"]}, pages=((1, 0, 12),))
    for twin in _round_trips(doc):
        assert twin.metadata == doc.metadata and twin.pages == doc.pages and twin.id == doc.id
        with pytest.raises(TypeError):
            twin.metadata["title"] = "changed"  # type: ignore[index]
    chunks = chunkwise.chunk(doc, chunk_size=14)
    for c in [chunkwise.chunk("Hi.", chunk_size=50)[0], *chunks]:
        for twin in _round_trips(c):
            assert twin.to_dict() == c.to_dict()
    assert pickle.loads(pickle.dumps(chunks)) == chunks
    exc = pickle.loads(pickle.dumps(UnsupportedFormatError("a.pdf", "pdf", "not yet")))
    assert (str(exc), exc.format) == ("a.pdf: pdf is not a supported format (not yet)", "pdf")


def test_every_sizer_round_trips_and_counts_the_same(tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    quicktok = pytest.importorskip("quicktok")
    tok = _hf_tokenizer({"[UNK]": 0, "hello": 1, "world": 2})
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    sizers = [
        CharSizer(),
        WordSizer(),
        TiktokenSizer("cl100k_base"),
        TiktokenSizer("o200k_base"),
        TiktokenSizer(tiktoken.get_encoding("cl100k_base_offline")),
        TiktokenSizer(quicktok.get_encoding("o200k_base")),  # a native object travels by its name
        HFTokenizerSizer(tok),
        HFTokenizerSizer(str(path)),
        HFTokenizerSizer(path, name="toy"),
        CallableSizer(_count_letters),
    ]
    for sizer in sizers:
        for twin in _round_trips(sizer):
            assert twin.unit == sizer.unit and twin.count(TEXT) == sizer.count(TEXT)
            a, b = sizer.measure(TEXT), twin.measure(TEXT)
            assert [a.size(0, n) for n in (10, 100, 300)] == [b.size(0, n) for n in (10, 100, 300)]


def test_a_pickled_tokenizer_file_that_changed_is_refused(tmp_path):
    path = tmp_path / "tokenizer.json"
    _hf_tokenizer({"[UNK]": 0, "hello": 1}).save(str(path))
    data = pickle.dumps(HFTokenizerSizer(path))
    _hf_tokenizer({"[UNK]": 0, "hello": 1, "world": 2}).save(str(path))
    with pytest.raises(ConfigError, match="changed since the sizer was pickled"):
        pickle.loads(data)


def test_hf_labels_do_not_collide_for_two_files_in_one_folder(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    _hf_tokenizer({"[UNK]": 0, "hello": 1}).save(str(a))
    _hf_tokenizer({"[UNK]": 0, "world": 1}).save(str(b))
    ua, ub = HFTokenizerSizer(a).unit, HFTokenizerSizer(b).unit
    assert ua.startswith("tokens:hf:") and ua != ub
    assert HFTokenizerSizer(str(a)).unit == ua  # the same tokenizer, the same label
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "tokenizer.json").write_bytes(a.read_bytes())
    assert HFTokenizerSizer(other / "tokenizer.json").unit == ua


@pytest.mark.parametrize("unit", ["chars", "tokens"])
@pytest.mark.parametrize("name", chunkwise.strategy_names())
def test_every_chunker_round_trips_and_chunks_the_same(name, unit):
    if name in ("semantic", "semantic_cluster", "late"):
        pytest.importorskip("wordllama")
    if name == "topic":
        pytest.importorskip("sklearn")
    with contextlib.ExitStack() as stack:
        params = {}
        if name in ("agentic", "propositions"):  # a chat model: the local scripted server
            pytest.importorskip("httpx")
            from llm_server import ScriptedServer

            from chunkwise.llm import ChatClient

            params["client"] = ChatClient("m", base_url=stack.enter_context(ScriptedServer()).url)
        chunker = chunkwise.make_chunker(name, chunk_size=40, unit=unit, **params)
        expected = [c.to_dict() for c in chunker.chunk(TEXT)]  # pickled after use, too
        for twin in _round_trips(chunker):
            assert twin.sizer.unit == chunker.sizer.unit
            assert [c.to_dict() for c in twin.chunk(TEXT)] == expected


def _records(chunker, path):
    return [c.to_dict() for c in chunker.chunk(load(path))]


def test_a_folder_chunks_the_same_in_worker_processes(tmp_path):
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    for k in range(6):
        (root / ("sub" if k % 2 else ".") / f"doc{k}.md").write_text(TEXT.replace("Climate", f"Climate {k}"), encoding="utf-8")
    (root / "crlf.txt").write_bytes(TEXT.replace("\n", "\r\n").encode("utf-8"))
    files = list(find_files([root]))
    assert len(files) == 7
    chunker = chunkwise.make_chunker("recursive", chunk_size=30, chunk_overlap=5, unit="tokens")
    single = [_records(chunker, f) for f in files]
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        parallel = list(pool.map(_records, [chunker] * len(files), files))
    for f, got, want in zip(files, parallel, single):
        assert got == want, f"{f.relative}: chunked differently in a worker process"
    ids = [r["id"] for recs in single for r in recs]
    assert len(ids) == len(set(ids)) and all(r["unit"] == "tokens:cl100k_base" for recs in single for r in recs)


@pytest.mark.parametrize("name", ["gpt2", "r50k_base", "p50k_base", "no_such_encoding"])
def test_encodings_without_a_shipped_vocabulary_are_refused_without_network(name, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the network was touched")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    with pytest.raises(ConfigError) as info:
        chunkwise.chunk("text", unit="tokens", tokenizer=name)
    message = str(info.value)
    assert name in message and "never downloads" in message
    assert all(enc in message for enc in OFFLINE_ENCODINGS)


@pytest.mark.parametrize("name", OFFLINE_ENCODINGS)
def test_offline_encodings_load(name):
    assert TiktokenSizer(name).count("hello world") >= 2
