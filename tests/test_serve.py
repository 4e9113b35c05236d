"""The playground's JSON API (chunkwise serve), through Starlette's TestClient: what the
page shows equals what the library returns, and every bad request gets a clear 4xx answer
while the server keeps running."""

from __future__ import annotations

import json
import shlex
import os
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise.serve import create_app  # noqa: E402

TEXT = (
    "# Guide\n\nChunking turns documents into pieces. Each piece keeps its offsets.\n\n"
    "## Install\n\nRun pip install chunkwise. Then import it. The default strategy is recursive.\n\n"
    "## Use\n\nCall chunkwise.chunk on a text. " + "Sentences follow sentences here. " * 20 + "\n"
)


@pytest.fixture()
def served(tmp_path: Path) -> Path:
    root = tmp_path / "served"
    (root / "sub").mkdir(parents=True)
    (root / "guide.md").write_text(TEXT, encoding="utf-8")
    (root / "sub" / "notes.txt").write_text("One. Two three. Four five six.\n" * 30, encoding="utf-8")
    (root / "blob.bin").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "secret.txt").write_text("not to be read", encoding="utf-8")
    return root


@pytest.fixture()
def client(served: Path) -> TestClient:
    return TestClient(create_app(served, max_upload=4096), raise_server_exceptions=False)


def _alive(client: TestClient) -> None:
    r = client.get("/api/strategies")
    assert r.status_code == 200 and r.json()["strategies"]


def test_strategies_come_from_the_registry(client: TestClient) -> None:
    data = client.get("/api/strategies").json()
    names = [s["name"] for s in data["strategies"]]
    assert names == [n for n in chunkwise.strategy_names() if n not in LLM]  # LLM ones: only on request
    assert data["llm_hidden"] == LLM
    recursive = next(s for s in data["strategies"] if s["name"] == "recursive")
    params = chunkwise.get_strategy("recursive").parameters()
    for key, value in recursive["parameters"].items():
        assert params[key] == (tuple(value) if isinstance(params[key], tuple) else value)
    assert "chunk_size" not in recursive["parameters"]  # a common control of every pane
    semantic = next(s for s in data["strategies"] if s["name"] == "semantic")
    assert semantic["semantic"] and semantic["parameters"]["threshold_type"] == "percentile"
    assert data["units"] == ["chars", "words", "tokens"]


def test_files_are_listed_relative_to_the_folder(client: TestClient) -> None:
    files = client.get("/api/files").json()["files"]
    assert set(files) == {"guide.md", "sub/notes.txt"}  # blob.bin: no loader reads it, not offered


@pytest.mark.parametrize(
    "config",
    [
        {"strategy": "recursive", "chunk_size": 120, "chunk_overlap": 0, "unit": "chars"},
        {"strategy": "markdown", "chunk_size": 40, "chunk_overlap": 0, "unit": "words"},
        {"strategy": "fixed", "chunk_size": 100, "chunk_overlap": 30, "unit": "chars"},
        {"strategy": "sentence", "chunk_size": 150, "chunk_overlap": 0, "unit": "chars", "params": {"overlap_sentences": 1}},
    ],
)
def test_chunks_equal_the_library(client: TestClient, served: Path, config: dict) -> None:
    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    assert doc["text"] == TEXT and doc["name"] == "guide.md"
    r = client.post("/api/chunk", json={"doc": doc["doc"], "config": config})
    assert r.status_code == 200, r.text
    data = r.json()
    document = chunkwise.load(served / "guide.md")
    params = config.get("params", {})
    expected = chunkwise.chunk(
        document, strategy=config["strategy"], chunk_size=config["chunk_size"],
        chunk_overlap=config["chunk_overlap"], unit=config["unit"], **params
    )
    got = [(c["start"], c["end"], c["size"], c["boundary"]) for c in data["chunks"]]
    assert got == [(c.start_index, c.end_index, c.size, c.metadata.get("boundary")) for c in expected]
    stats = chunkwise.evaluation.chunk_stats([document], chunkwise.make_chunker(
        config["strategy"], chunk_size=config["chunk_size"], chunk_overlap=config["chunk_overlap"],
        unit=config["unit"], **params))
    assert data["stats"]["chunks"] == stats.count and data["stats"]["boundaries"] == stats.boundaries
    assert data["stats"]["histogram"] == stats.histogram
    if config["strategy"] == "markdown":
        assert any(c["metadata"].get("header_path") for c in data["chunks"])


def test_copy_as_code_reproduces_the_pane(client: TestClient, served: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    config = {"strategy": "recursive", "chunk_size": 90, "chunk_overlap": 10, "unit": "chars",
              "params": {"keep_separator": "end"}}
    data = client.post("/api/chunk", json={"doc": doc["doc"], "config": config}).json()
    code = data["code"]
    # the Python call, run in another folder than the served one: the path is absolute
    # (or relative to where the server started)
    cwd = os.getcwd()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.chdir(elsewhere)
    try:
        scope: dict = {}
        exec(code["python"], scope)  # noqa: S102 - the code the page offers to copy
        args = shlex.split(code["cli"])[1:]
        result = CliRunner().invoke(cli, args)
    finally:
        os.chdir(cwd)
    assert [(c.start_index, c.end_index) for c in scope["chunks"]] == [(c["start"], c["end"]) for c in data["chunks"]]
    assert result.exit_code == 0, result.output
    lines = [json.loads(ln) for ln in result.stdout.splitlines() if ln.startswith("{")]
    assert [(r["start_index"], r["end_index"]) for r in lines] == [(c["start"], c["end"]) for c in data["chunks"]]


def test_pasted_text_and_upload(client: TestClient) -> None:
    doc = client.post("/api/document", json={"text": "A b c. D e f.\n\nG h."}).json()
    data = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": "recursive", "chunk_size": 8}}).json()
    assert [(c["start"], c["end"]) for c in data["chunks"]] == [
        (c.start_index, c.end_index) for c in chunkwise.chunk("A b c. D e f.\n\nG h.", chunk_size=8)
    ]
    up = client.post("/api/upload?name=a.md", content="# T\n\nbody text".encode())
    assert up.status_code == 200 and up.json()["format"] == "markdown" and up.json()["name"] == "a.md"


def test_code_points_not_utf16(client: TestClient) -> None:
    text = "😀😀 héllo wörld. 漢字のテキスト。 " * 10
    doc = client.post("/api/document", json={"text": text}).json()
    data = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": "fixed", "chunk_size": 13}}).json()
    for c in data["chunks"]:
        assert text[c["start"]:c["end"]].strip()
    assert data["chunks"][-1]["end"] == len(text.rstrip()) or data["chunks"][-1]["end"] == len(text)


def test_semantic_curve_and_threshold_recut_without_embedding(client: TestClient, served: Path) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("wordllama")
    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    base = {"strategy": "semantic", "chunk_size": 200, "chunk_overlap": 0, "unit": "chars"}
    first = client.post("/api/chunk", json={"doc": doc["doc"], "config": base}).json()
    sem = first["semantic"]
    assert len(sem["similarities"]) == len(sem["gaps"]) > 0
    assert sem["threshold_type"] == "percentile" and -1 <= sem["threshold"] <= 1
    app_state = client.app.state.chunkwise
    memo = app_state.memos["default"]
    seen = len(memo._vec) + len(getattr(memo, "_sums", {}))
    calls = []
    inner = memo.inner
    original = inner.pooled_sums

    def counting(texts):  # any call here is an embedding done again
        calls.append(len(texts))
        return original(texts)

    inner.pooled_sums = counting
    try:
        for thr in (0.2, 0.5, 0.8):
            config = dict(base, params={"threshold_type": "absolute", "threshold": thr, "buffer_size": 1})
            data = client.post("/api/chunk", json={"doc": doc["doc"], "config": config}).json()
            assert data["semantic"]["threshold"] == pytest.approx(thr)
            expected = chunkwise.chunk(chunkwise.load(served / "guide.md"), **{k: v for k, v in base.items()},
                                       threshold_type="absolute", threshold=thr, buffer_size=1)
            assert [(c["start"], c["end"]) for c in data["chunks"]] == [(c.start_index, c.end_index) for c in expected]
    finally:
        del inner.pooled_sums
    assert calls == [] and seen > 0


# -- safety --------------------------------------------------------------------------------


def test_upload_over_the_limit_is_413(client: TestClient) -> None:
    r = client.post("/api/upload?name=big.txt", content=b"a" * 5000)
    assert r.status_code == 413 and "limit is 4096 bytes" in r.json()["error"]
    r = client.post("/api/document", json={"text": "x" * 5000})
    assert r.status_code == 413
    _alive(client)


def test_binary_upload_and_binary_file_are_refused(client: TestClient) -> None:
    r = client.post("/api/upload?name=blob.bin", content=bytes(range(256)) * 4)
    assert r.status_code == 415 and "blob.bin" in r.json()["error"]
    r = client.post("/api/document", json={"path": "blob.bin"})
    assert r.status_code == 415
    r = client.post("/api/upload?name=empty.txt", content=b"")
    assert r.status_code == 400 and "empty" in r.json()["error"]
    _alive(client)


@pytest.mark.parametrize("path", ["../secret.txt", "/etc/passwd", "sub/../../secret.txt", "link.txt", "linkdir/secret.txt"])
def test_paths_never_leave_the_served_folder(client: TestClient, served: Path, path: str) -> None:
    (served / "link.txt").symlink_to(served.parent / "secret.txt")
    (served / "linkdir").symlink_to(served.parent)
    r = client.post("/api/document", json={"path": path})
    assert r.status_code == 403 and "outside the served folder" in r.json()["error"]
    assert "link.txt" not in client.get("/api/files").json()["files"]
    _alive(client)


def test_a_symlink_inside_the_folder_is_allowed(client: TestClient, served: Path) -> None:
    (served / "alias.md").symlink_to(served / "guide.md")
    r = client.post("/api/document", json={"path": "alias.md"})
    assert r.status_code == 200 and r.json()["text"] == TEXT


@pytest.mark.parametrize(
    ("url", "body", "status", "words"),
    [
        ("/api/chunk", b"{not json", 400, "not valid JSON"),
        ("/api/chunk", b"[1, 2]", 400, "JSON object"),
        ("/api/document", b"\xff\xfe", 400, "not valid JSON"),
        ("/api/document", b"{}", 400, "give"),
        ("/api/document", b'{"text": 3}', 400, "string"),
        ("/api/document", b'{"path": "nope.txt"}', 404, "no file"),
        ("/api/chunk", b'{"doc": "zzz", "config": {}}', 404, "unknown document"),
    ],
)
def test_malformed_requests_get_a_message(client: TestClient, url: str, body: bytes, status: int, words: str) -> None:
    r = client.post(url, content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == status and words in r.json()["error"]
    _alive(client)


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"strategy": "nope"}, "unknown"),
        ({"strategy": "recursive", "chunk_size": "big"}, "chunk_size must be an integer"),
        ({"strategy": "recursive", "chunk_size": 10, "chunk_overlap": 20}, "chunk_overlap"),
        ({"strategy": "recursive", "unit": "bytes"}, "unit 'bytes'"),
        ({"strategy": "recursive", "params": {"nonsense": 1}}, "nonsense"),
        ({"strategy": "recursive", "params": {"client": 1}}, "cannot be set"),
        ({"strategy": "recursive", "params": [1]}, "params must be an object"),
        ({"strategy": "recursive", "unit": "tokens", "tokenizer": "../secret/tokenizer.json"}, "name only"),
        ({"strategy": "semantic", "params": {"model": "/etc/models/x"}}, "name only"),
        ({"strategy": "semantic", "params": {"model": "openai:text-embedding-3-small"}}, "name only"),
        ({"strategy": "agentic", "params": {"base_url": "http://example.invalid"}}, "--llm-base-url"),
        ("recursive", "config must be an object"),
    ],
)
def test_invalid_configurations_get_a_message(client: TestClient, config: object, words: str) -> None:
    doc = client.post("/api/document", json={"text": "Some text. More text."}).json()
    r = client.post("/api/chunk", json={"doc": doc["doc"], "config": config})
    assert 400 <= r.status_code < 500 and words in r.json()["error"], r.text
    _alive(client)


def test_no_folder_served(tmp_path: Path) -> None:
    client = TestClient(create_app(None))
    assert client.get("/api/files").json()["files"] == []
    r = client.post("/api/document", json={"path": "a.txt"})
    assert r.status_code == 404 and "no folder is served" in r.json()["error"]


def test_the_page_and_its_scripts_are_in_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "app.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 500
    for name in ("index.html", "app.js", "app.css"):
        text = (Path(chunkwise.serve.STATIC_DIR) / name).read_text("utf-8")
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    assert client.get("/static/../__init__.py").status_code == 404


def test_cli_serve_listens_on_localhost_by_default(monkeypatch: pytest.MonkeyPatch, served: Path) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    seen = {}

    def fake_run(self, sockets):  # noqa: ANN001 - uvicorn.Server.run's signature
        seen.update(address=sockets[0].getsockname(), app=self.config.app,
                    grace=self.config.timeout_graceful_shutdown)

    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    result = CliRunner().invoke(cli, ["serve", str(served), "--port", "0"])
    assert result.exit_code == 0, result.output
    host, port = seen["address"][:2]
    assert host == "127.0.0.1" and port > 0
    assert f"http://127.0.0.1:{port}/" in result.stderr  # --port 0: the port taken is printed
    assert seen["grace"] and seen["grace"] <= 5  # a stop does not wait for long requests
    assert seen["app"].state.chunkwise.root == served.resolve()
    assert "--host" in CliRunner().invoke(cli, ["serve", "--help"]).output


def test_query_returns_the_nearest_chunks(client: TestClient, served: Path) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("wordllama")
    from chunkwise.embeddings import get_embedder

    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    config = {"strategy": "recursive", "chunk_size": 100, "chunk_overlap": 0, "unit": "chars"}
    query = "how do I install it with pip"
    r = client.post("/api/query", json={"doc": doc["doc"], "config": config, "query": query, "k": 2})
    assert r.status_code == 200, r.text
    hits = r.json()["hits"]
    chunks = chunkwise.chunk(chunkwise.load(served / "guide.md"), **config)
    emb = get_embedder(None)
    scores = emb.embed([c.text_for_embedding() for c in chunks]) @ emb.embed([query])[0]
    best = sorted(range(len(chunks)), key=lambda i: (-float(scores[i]), i))[:2]
    assert [h["index"] for h in hits] == best
    assert [h["score"] for h in hits] == [pytest.approx(float(scores[i]), abs=1e-3) for i in best]
    assert "Install" in chunks[best[0]].text or "pip" in chunks[best[0]].text
    assert np.all(np.diff([h["score"] for h in hits]) <= 0)
    for body, words in (({"query": ""}, "query"), ({"query": "x", "k": 0}, "k must be")):
        r = client.post("/api/query", json={"doc": doc["doc"], "config": config, **body})
        assert r.status_code == 400 and words in r.json()["error"]
    _alive(client)


def test_inspect_writes_a_static_html_report(served: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    out = tmp_path / "report.html"
    args = ["inspect", str(served / "guide.md"), "--strategy", "markdown", "--chunk-size", "120", "--unit", "chars",
            "-p", "merge_small_sections=true", "-p", "min_chunk_size=30", "--html", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    assert "window.CHUNKWISE_REPORT = " in page and "/static/" not in page
    blob = page.split("window.CHUNKWISE_REPORT = ", 1)[1].split(";</script>", 1)[0].replace("<\\/", "</")
    data = json.loads(blob)
    expected = chunkwise.chunk(chunkwise.load(served / "guide.md"), strategy="markdown", chunk_size=120,
                               merge_small_sections=True, min_chunk_size=30)
    assert [(c["start"], c["end"]) for c in data["data"]["chunks"]] == [(c.start_index, c.end_index) for c in expected]
    assert data["doc"]["text"] == TEXT and data["config"]["params"] == {"merge_small_sections": True, "min_chunk_size": 30}


def test_probe_set_scores_like_chunkwise_eval(client: TestClient, served: Path) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("wordllama")
    from chunkwise.embeddings import get_embedder
    from chunkwise.evaluation import evaluate, load_questions

    start = TEXT.index("Run pip install")
    lines = [
        {"question": "How do I install chunkwise?", "document_id": "guide",
         "references": [{"start_index": start, "end_index": start + 26}]},
        {"question": "What is the default strategy?", "document_id": "guide.md",
         "references": [{"start_index": TEXT.index("The default"), "end_index": TEXT.index("recursive.") + 10}]},
        {"question": "Elsewhere?", "document_id": "other", "references": [{"start_index": 0, "end_index": 4}]},
    ]
    probe_file = served / "probes.jsonl"
    probe_file.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    up = client.post("/api/probes?name=probes.jsonl", content=probe_file.read_bytes())
    assert up.status_code == 200 and up.json()["questions"] == 3
    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    config = {"strategy": "recursive", "chunk_size": 100, "chunk_overlap": 0, "unit": "chars"}
    r = client.post("/api/evaluate", json={"doc": doc["doc"], "probes": up.json()["probes"], "config": config, "k": 2})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["questions"] == 2 and data["skipped"] == 1
    questions = load_questions(probe_file)[:2]
    expected = evaluate([chunkwise.load(served / "guide.md", root=served)], questions,
                        chunkwise.make_chunker("recursive", chunk_size=100), get_embedder(None), k=2)
    for key in ("recall", "precision", "iou"):
        assert data["means"][key] == pytest.approx(expected.means[key], abs=1e-4)
    bad = client.post("/api/probes?name=probes.txt", content=b"x")
    assert bad.status_code == 415 and "probe set" in bad.json()["error"]
    bad = client.post("/api/probes?name=q.jsonl", content=b"{not json\n")
    assert bad.status_code == 422 and "q.jsonl" in bad.json()["error"]
    r = client.post("/api/evaluate", json={"doc": doc["doc"], "probes": "nope", "config": config})
    assert r.status_code == 404
    _alive(client)


@pytest.mark.parametrize("name", chunkwise.strategy_names())
def test_every_registered_strategy_answers_or_explains(client: TestClient, name: str) -> None:
    """A strategy added later appears in the page and gets chunks or a 4xx message (the
    LLM strategies need a model), never a crash."""
    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    r = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": name, "chunk_size": 200}})
    assert r.status_code in (200, 403, 422), r.text
    if name in LLM:
        assert r.status_code == 403
    if r.status_code == 200:
        chunks = r.json()["chunks"]
        assert chunks and all(TEXT[c["start"]:c["end"]].strip() for c in chunks)
    else:
        assert r.json()["error"]
    _alive(client)


def test_an_internal_error_is_reported_and_the_server_lives(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import chunkwise.serve as serve

    def broken(*args, **kwargs):  # noqa: ANN002, ANN003
        raise RuntimeError("boom")

    monkeypatch.setattr(serve, "chunk_view", broken)
    doc = client.post("/api/document", json={"text": "Some text."}).json()
    r = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": "recursive"}})
    assert r.status_code == 500 and "boom" in r.json()["error"]
    _alive(client)


def test_a_streamed_upload_over_the_limit_is_cut_off(client: TestClient) -> None:
    def parts():
        for _ in range(10):
            yield b"a" * 1000

    r = client.post("/api/upload?name=big.txt", content=parts())
    assert r.status_code == 413 and "limit of 4096 bytes" in r.json()["error"]
    _alive(client)


def test_serving_one_file(served: Path) -> None:
    client = TestClient(create_app(served / "guide.md"))
    files = client.get("/api/files").json()
    assert files["files"] == ["guide.md"] and files["open"] == "guide.md"
    assert client.post("/api/document", json={"path": "guide.md"}).json()["text"] == TEXT
    r = client.post("/api/document", json={"path": "sub/notes.txt"})
    assert r.status_code == 403 and "not the file served" in r.json()["error"]


# -- the fresh-user trial's defects ------------------------------------------------------------

CODE = '''"""A module."""

import os


class Box:
    """A box."""

    def __init__(self, size):
        self.size = size

    def area(self):
        return self.size * self.size


def helper(values):
    total = 0
    for v in values:
        total += v
    return total
''' * 6


def test_files_are_read_as_the_cli_reads_them(client: TestClient, served: Path, tmp_path: Path) -> None:
    """A .py file (from the folder or uploaded) gets its language, so the code strategy cuts
    as `chunkwise chunk FILE --strategy code` does, and "copy as code" gives the same chunks."""
    from click.testing import CliRunner

    from chunkwise.cli import cli

    (served / "box.py").write_text(CODE, encoding="utf-8")
    config = {"strategy": "code", "chunk_size": 200, "chunk_overlap": 0, "unit": "chars"}
    expected = [(c.start_index, c.end_index) for c in chunkwise.chunk(chunkwise.load(served / "box.py"),
                                                                      strategy="code", chunk_size=200)]
    result = CliRunner().invoke(
        cli, ["chunk", str(served / "box.py"), "--strategy", "code", "--chunk-size", "200", "--unit", "chars"]
    )
    assert result.exit_code == 0, result.output
    assert [(r["start_index"], r["end_index"]) for r in map(json.loads, result.stdout.splitlines())] == expected
    with pytest.warns(UserWarning, match="without language"):
        without_language = chunkwise.chunk(chunkwise.Document(CODE), strategy="code", chunk_size=200)
    assert [(c.start_index, c.end_index) for c in without_language] != expected  # the test can tell them apart

    doc = client.post("/api/document", json={"path": "box.py"}).json()
    upload = client.post("/api/upload?name=box.py", content=CODE.encode()).json()
    for d in (doc, upload):
        data = client.post("/api/chunk", json={"doc": d["doc"], "config": config}).json()
        assert [(c["start"], c["end"]) for c in data["chunks"]] == expected
        assert data["chunks"][0]["metadata"]["language"] == "python"
    data = client.post("/api/chunk", json={"doc": doc["doc"], "config": config}).json()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        scope: dict = {}
        exec(data["code"]["python"], scope)  # noqa: S102 - the code the page offers to copy
        ran = CliRunner().invoke(cli, shlex.split(data["code"]["cli"])[1:])
    finally:
        os.chdir(cwd)
    assert [(c.start_index, c.end_index) for c in scope["chunks"]] == expected
    assert [(r["start_index"], r["end_index"]) for r in map(json.loads, ran.stdout.splitlines())] == expected


def test_a_binary_upload_names_the_file_not_bytes(client: TestClient) -> None:
    r = client.post("/api/upload?name=photo.png", content=b"\x89PNG\r\n\x1a\n" + bytes(200))
    assert r.status_code == 415
    assert "photo.png" in r.json()["error"] and "<bytes>" not in r.json()["error"]
    assert "chunkwise-upload-" not in r.json()["error"]  # nor the temporary folder


def test_too_large_names_the_option(client: TestClient, served: Path) -> None:
    (served / "big.txt").write_text("word " * 2000, encoding="utf-8")
    for r in (client.post("/api/upload?name=big.txt", content=b"a" * 5000),
              client.post("/api/document", json={"path": "big.txt"})):
        assert r.status_code == 413 and "--max-upload" in r.json()["error"]


from chunkwise.llm.options import LLMOptions  # noqa: E402 - hierarchical takes a client, yet is no LLM strategy

LLM = [n for n in chunkwise.strategy_names() if issubclass(chunkwise.get_strategy(n), LLMOptions)]


def test_llm_strategies_are_off_unless_the_operator_names_an_endpoint(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert {"agentic", "propositions"} <= set(LLM)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-to-be-used")
    names = [s["name"] for s in client.get("/api/strategies").json()["strategies"]]
    assert not set(LLM) & set(names) and "recursive" in names
    doc = client.post("/api/document", json={"path": "guide.md"}).json()
    for name in LLM:
        r = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": name, "chunk_size": 200}})
        assert r.status_code == 403 and "--llm-base-url" in r.json()["error"]
        r = client.post("/api/query", json={"doc": doc["doc"], "config": {"strategy": name}, "query": "q"})
        assert r.status_code == 403
    _alive(client)


def test_llm_strategies_call_only_the_given_endpoint(served: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("httpx")
    from llm_server import ScriptedServer

    import chunkwise.serve as serve

    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-to-be-used")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://192.0.2.1/v1")  # never called
    with ScriptedServer() as server:
        app = create_app(served, llm_base_url=server.url, llm_model="m")
        client = TestClient(app)
        names = [s["name"] for s in client.get("/api/strategies").json()["strategies"]]
        assert set(LLM) <= set(names)
        doc = client.post("/api/document", json={"path": "guide.md"}).json()
        r = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": "agentic", "chunk_size": 120}})
        assert r.status_code == 200, r.text
        assert server.requests > 0
        expected = chunkwise.chunk(TEXT, strategy="agentic", chunk_size=120, model="m", base_url=server.url)
        assert [(c["start"], c["end"]) for c in r.json()["chunks"]] == [(c.start_index, c.end_index) for c in expected]
        chunker = serve._chunker(app.state.chunkwise, serve._config({"strategy": "agentic"}, serve._strategies(True)))
        assert chunker.llm.base_url == server.url.rstrip("/") and not chunker.llm.api_key


def test_a_newer_request_of_a_pane_supersedes_the_older(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Slider moves do not pile up: while a pane's request runs, only its newest waiting
    request is started; the others (and a stale one that finishes late) answer 409."""
    import threading
    import time

    import chunkwise.serve as serve

    real = serve.chunk_view
    started: list[int] = []
    gate = threading.Event()

    def slow(state, doc, source, config, raw=False):  # noqa: ANN001, ANN202
        started.append(config["chunk_size"])
        if config["chunk_size"] == 100:
            gate.wait(10)
        return real(state, doc, source, config, raw)

    monkeypatch.setattr(serve, "chunk_view", slow)
    doc = client.post("/api/document", json={"text": TEXT}).json()
    answers: dict[int, object] = {}

    def ask(seq: int, size: int) -> None:
        answers[seq] = client.post("/api/chunk", json={"doc": doc["doc"], "pane": "p1", "seq": seq,
                                                       "config": {"strategy": "recursive", "chunk_size": size}})

    first = threading.Thread(target=ask, args=(1, 100))
    first.start()
    deadline = time.monotonic() + 10
    while not started and time.monotonic() < deadline:
        time.sleep(0.01)
    waiting = [threading.Thread(target=ask, args=(seq, 100 + seq)) for seq in (2, 3)]
    for t in waiting:
        t.start()
        time.sleep(0.2)  # 2 waits, then 3 arrives: 2 is superseded without being started
    gate.set()
    for t in (first, *waiting):
        t.join(20)
    assert answers[1].status_code == 409 and answers[2].status_code == 409  # type: ignore[attr-defined]
    assert "superseded" in answers[2].json()["error"]  # type: ignore[attr-defined]
    assert answers[3].status_code == 200  # type: ignore[attr-defined]
    assert started == [100, 103]  # the request of seq 2 never ran
    stale = client.post("/api/chunk", json={"doc": doc["doc"], "pane": "p1", "seq": 2, "config": {}})
    assert stale.status_code == 409
    other = client.post("/api/chunk", json={"doc": doc["doc"], "pane": "p2", "seq": 1, "config": {}})
    assert other.status_code == 200  # panes are independent
    bad = client.post("/api/chunk", json={"doc": doc["doc"], "pane": "p3", "seq": "x", "config": {}})
    assert bad.status_code == 400


def test_a_parameter_of_the_wrong_type_is_named(client: TestClient) -> None:
    doc = client.post("/api/document", json={"text": "A b c. D e f."}).json()
    r = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": "recursive",
                                                                      "params": {"separators": 5}}})
    assert r.status_code == 422 and "separators=5" in r.json()["error"] and "recursive" in r.json()["error"]
    r = client.post("/api/chunk", json={"doc": doc["doc"], "config": {"strategy": "sentence",
                                                                      "params": {"overlap_sentences": "two"}}})
    assert 400 <= r.status_code < 500 and "overlap_sentences" in r.json()["error"]
    _alive(client)


def test_the_static_report_hides_what_it_cannot_do(served: Path) -> None:
    """The query bar and the other server controls are hidden in a report (the hidden
    attribute wins over the CSS display rules), and the curve's caption does not offer a
    drag the report cannot do."""
    from chunkwise.serve.report import render_report

    page = render_report(chunkwise.load(served / "guide.md"), {"strategy": "recursive", "chunk_size": 120,
                                                                 "chunk_overlap": 0, "unit": "chars"}, "guide.md")
    assert "[hidden] { display: none !important; }" in page
    assert '"#query-bar"' in page  # hidden by startReport
    assert "app.report ? \" (a static report: run chunkwise serve to move it)\"" in page
