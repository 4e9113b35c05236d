"""The playground in a real browser: Playwright for Python drives the system's Chromium
(Debian's ``chromium`` package; Playwright's own browser download is not used). The tests
start the server (uvicorn in a thread on a free port), load a document, switch strategy,
move the size slider, set an overlap and drag the similarity threshold, and each time
check that the coloured spans of the pane -- their number and offsets -- equal what
:func:`chunkwise.chunk` returns for the same settings.

Screenshots (side by side, the similarity curve) are written to the folder named by
``CHUNKWISE_SCREENSHOTS`` (the README's are in ``docs/``), else to a temporary folder.

Skipped, with the reason, when the ``playwright`` package or a Chromium is missing
(set ``CHUNKWISE_CHROMIUM`` to a browser's path to use another one).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (pip install playwright)")

import chunkwise  # noqa: E402
from chunkwise.serve import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPEECH = ROOT / "data" / "chroma_eval" / "corpora" / "state_of_the_union.md"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def _chromium() -> str | None:
    given = os.environ.get("CHUNKWISE_CHROMIUM")
    if given:
        return given if os.path.isfile(given) else None
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name) if not name.startswith("/") else (name if os.path.isfile(name) else None)
        if found:
            return found
    return None


CHROMIUM = _chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (apt-get install chromium, or set CHUNKWISE_CHROMIUM)"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("served")
    text = SPEECH.read_text("utf-8")
    cut = text.index("\n\n", 7000)  # the speech's first pages, ending at a paragraph
    (root / "speech.md").write_text("# State of the Union\n\n## Opening\n\n" + text[:cut] + "\n", encoding="utf-8")
    (root / "blob.bin").write_bytes(bytes(range(256)) * 8)
    return root


@pytest.fixture(scope="module")
def server(served: Path) -> Iterator[str]:
    with _serving(served) as url:
        yield url


@contextlib.contextmanager
def _serving(root: Path) -> Iterator[str]:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(create_app(root), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    p = browser.new_page(viewport={"width": 1500, "height": 950})
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.goto(server)
    p.wait_for_selector("body[data-ready='1']", timeout=20000)
    yield p
    p.close()
    assert errors == [], errors


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("CHUNKWISE_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def _open(page: Any, name: str) -> None:
    page.select_option("#files", name)
    page.click("#open-file")
    page.wait_for_function("document.body.dataset.doc !== undefined")


def _settled(page: Any, k: int, after: int = 0, timeout: float = 60000) -> int:
    """Wait until pane ``k`` shows an answer newer than version ``after``; its version."""
    page.wait_for_function(
        "([k, v]) => { const p = document.querySelectorAll('.pane')[k];"
        " return p && p.dataset.status === 'ready' && Number(p.dataset.version) > v; }",
        arg=[k, after],
        timeout=timeout,
    )
    return int(page.eval_on_selector_all(".pane", "(ps, k) => ps[k].dataset.version", k))


def _version(page: Any, k: int) -> int:
    return int(page.eval_on_selector_all(".pane", "(ps, k) => ps[k].dataset.version", k))


def _after(page: Any, k: int, action: Any) -> None:
    """Do ``action()`` and wait until pane ``k`` shows the answer it asked for."""
    before = _version(page, k)
    action()
    _settled(page, k, before)


_SPANS = """(ps, k) => {
  const out = {};
  let wrongColour = 0, hatched = 0;
  for (const s of ps[k].querySelectorAll('.doc span[data-chunks]')) {
    const ids = s.dataset.chunks.split(',').map(Number);
    const a = Number(s.dataset.start), b = Number(s.dataset.end);
    if (!s.classList.contains('c' + (ids[0] % 2))) wrongColour++;
    if (ids.length > 1) { hatched++; if (!s.classList.contains('ov')) wrongColour++; }
    for (const i of ids) {
      const o = out[i] || (out[i] = [a, b]);
      o[0] = Math.min(o[0], a); o[1] = Math.max(o[1], b);
    }
  }
  return {spans: Object.keys(out).map(Number).sort((x, y) => x - y).map((i) => [i, out[i][0], out[i][1]]),
          wrongColour, hatched};
}"""


def _check(page: Any, k: int, doc: Any, **config: Any) -> dict[str, Any]:
    """The coloured spans of pane ``k`` against ``chunkwise.chunk(doc, **config)``."""
    seen = page.eval_on_selector_all(".pane", _SPANS, k)
    expected = chunkwise.chunk(doc, **config)
    assert len(seen["spans"]) == len(expected) > 1
    assert [tuple(s) for s in seen["spans"]] == [(c.index, c.start_index, c.end_index) for c in expected]
    assert seen["wrongColour"] == 0
    return seen


def _pane_config(page: Any, k: int) -> dict[str, Any]:
    pane = page.locator(".pane").nth(k)
    return {
        "strategy": pane.locator(".strategy").input_value(),
        "chunk_size": int(pane.locator(".size").input_value()),
        "chunk_overlap": int(pane.locator(".overlap").input_value()),
        "unit": pane.locator(".unit").input_value(),
    }


def test_side_by_side_strategy_slider_and_overlap(page: Any, served: Path, tmp_path: Path) -> None:
    doc = chunkwise.load(served / "speech.md")
    _open(page, "speech.md")
    v0, v1 = _settled(page, 0), _settled(page, 1)
    _check(page, 0, doc, **_pane_config(page, 0))
    _check(page, 1, doc, **_pane_config(page, 1))
    assert _pane_config(page, 1)["strategy"] == "sentence"

    # switch strategy
    first, second = page.locator(".pane").nth(0), page.locator(".pane").nth(1)
    _after(page, 0, lambda: first.locator(".strategy").select_option("markdown"))
    _check(page, 0, doc, **_pane_config(page, 0))
    assert first.locator(".doc span[title*='header path: State of the Union']").count() > 0

    # move the size slider
    _after(page, 1, lambda: second.locator(".size-slider").fill("300"))
    assert _pane_config(page, 1)["chunk_size"] == 300
    _check(page, 1, doc, **_pane_config(page, 1))
    assert second.locator(".strip .bar").count() == len(chunkwise.chunk(doc, **_pane_config(page, 1)))

    # a third pane, fixed windows with an overlap: the overlaps are hatched
    page.click("#add-pane")
    _settled(page, 2)
    pane = page.locator(".pane").nth(2)
    _after(page, 2, lambda: pane.locator(".strategy").select_option("fixed"))

    def overlap() -> None:
        pane.locator(".overlap").fill("80")
        pane.locator(".overlap").dispatch_event("change")

    _after(page, 2, overlap)
    seen = _check(page, 2, doc, **_pane_config(page, 2))
    assert seen["hatched"] > 0 and _pane_config(page, 2)["chunk_overlap"] == 80
    assert page.locator("#add-pane").is_disabled()  # three panes at most

    # statistics and copy as code
    stats = pane.locator(".stats").inner_text()
    assert f"chunks\t{len(chunkwise.chunk(doc, **_pane_config(page, 2)))}" in stats
    code = pane.locator(".code-cli").text_content()
    # the file's path as the server's working folder sees it (absolute outside it)
    assert code.startswith("chunkwise chunk ") and "speech.md --strategy fixed" in code and "--chunk-overlap 80" in code
    # a query: each pane outlines its top-k chunks, the same the default model ranks first
    if _has("numpy") and _has("wordllama"):
        from chunkwise.embeddings import get_embedder

        query = "Why is this moment in history unprecedented?"
        page.fill("#query", query)
        page.fill("#k", "2")
        page.click("#search")
        emb = get_embedder(None)
        for k in range(3):
            page.wait_for_function("(k) => document.querySelectorAll('.pane')[k].dataset.hits !== undefined", arg=k)
            chunks = chunkwise.chunk(doc, **_pane_config(page, k))
            scores = emb.embed([c.text_for_embedding() for c in chunks]) @ emb.embed([query])[0]
            best = sorted(range(len(chunks)), key=lambda i: (-float(scores[i]), i))[:2]
            shown = page.locator(".pane").nth(k).get_attribute("data-hits")
            assert [int(x) for x in shown.split(",")] == [chunks[i].index for i in best]
            outlined = page.eval_on_selector_all(
                ".pane", "(ps, k) => [...new Set([...ps[k].querySelectorAll('.doc span.hit')]"
                ".flatMap((s) => s.dataset.chunks.split(',').map(Number)))]", k)
            assert {chunks[i].index for i in best} <= set(outlined)
        # a probe set: each pane scores it as chunkwise eval does
        import json

        from chunkwise.evaluation import evaluate, load_questions

        text = doc.text
        refs = [("What did Roosevelt say in January 1941?", "I address you at a moment"),
                ("Who is on the march in Europe?", "Putin of Russia is on the march")]
        probe_file = tmp_path / "probes.jsonl"
        probe_file.write_text("".join(json.dumps({
            "question": q, "document_id": "speech",
            "references": [{"start_index": text.index(a), "end_index": text.index(a) + len(a)}]}) + "\n"
            for q, a in refs), encoding="utf-8")
        page.set_input_files("#probes", str(probe_file))
        for k in range(3):
            page.wait_for_function("(k) => document.querySelectorAll('.pane')[k].dataset.probe !== undefined", arg=k)
            shown = json.loads(page.locator(".pane").nth(k).get_attribute("data-probe"))
            expected = evaluate([chunkwise.load(served / "speech.md", root=served)], load_questions(probe_file),
                                chunkwise.make_chunker(**_pane_config(page, k)), emb, k=2)
            assert shown["questions"] == 2
            for key in ("recall", "precision", "iou"):
                assert shown["means"][key] == pytest.approx(expected.means[key], abs=1e-4)
    page.screenshot(path=str(_shots(tmp_path) / "playground-side-by-side.png"))


def test_similarity_curve_and_threshold_drag(page: Any, served: Path, tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("wordllama")
    doc = chunkwise.load(served / "speech.md")
    _open(page, "speech.md")
    _settled(page, 0)
    pane = page.locator(".pane").nth(0)
    _after(page, 0, lambda: pane.locator(".strategy").select_option("semantic"))
    _check(page, 0, doc, **_pane_config(page, 0))
    svg = pane.locator(".curve svg")
    assert svg.is_visible() and pane.locator(".curve .threshold").count() == 1
    # drag the threshold line to a quarter of the height: an absolute similarity there
    box = svg.bounding_box()
    x = box["x"] + box["width"] / 2

    def drag() -> None:
        page.mouse.move(x, box["y"] + box["height"] * 0.7)
        page.mouse.down()
        page.mouse.move(x, box["y"] + box["height"] * 0.35, steps=5)
        page.mouse.up()

    _after(page, 0, drag)
    kind = pane.locator("[data-param='threshold_type']").input_value()
    value = float(pane.locator("[data-param='threshold']").input_value())
    assert kind == "absolute" and -1 <= value <= 1
    _check(page, 0, doc, **_pane_config(page, 0), threshold_type="absolute", threshold=value)
    assert f"similarity {value:.3f}" in pane.locator(".curve .hint").inner_text()
    pane.screenshot(path=str(_shots(tmp_path) / "playground-semantic.png"))


def test_paste_text_and_errors_in_the_page(page: Any, tmp_path: Path) -> None:
    text = "First paragraph here. It has two sentences.\n\nSecond paragraph, short.\n\n" * 12
    page.click("#paste-box summary")
    page.fill("#paste", text)
    _after(page, 0, lambda: page.click("#use-text"))
    pane = page.locator(".pane").nth(0)
    _after(page, 0, lambda: pane.locator(".size-slider").fill("100"))
    _check(page, 0, text, **_pane_config(page, 0))
    # a binary upload: a message, the page keeps working
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(256)) * 8)
    page.set_input_files("#upload", str(blob))
    page.wait_for_selector("#message:not([hidden])")
    assert "blob.bin" in page.locator("#message").inner_text()
    # a file dropped on the page is uploaded and chunked
    before = _version(page, 0)
    page.evaluate("""() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["# Dropped\\n\\nA dropped file. It has two sentences.\\n"], "dropped.md"));
      document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }""")
    _settled(page, 0, before)
    assert page.locator("#docname").inner_text().startswith("dropped.md")
    assert page.locator(".pane").nth(0).locator(".doc").inner_text().startswith("# Dropped")
    # an invalid configuration: the pane says why
    pane.locator(".overlap").fill("500")
    pane.locator(".overlap").dispatch_event("change")
    page.wait_for_function("() => document.querySelectorAll('.pane')[0].dataset.status === 'error'")
    assert "chunk_overlap" in pane.locator(".pane-error").inner_text()


def test_static_report_shows_the_same_chunks(browser: Any, served: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    out = tmp_path / "report.html"
    args = ["inspect", str(served / "speech.md"), "--strategy", "sentence", "--chunk-size", "400", "--unit", "chars",
            "--chunk-overlap", "60", "--html", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    _settled(page, 0)
    seen = _check(page, 0, chunkwise.load(served / "speech.md"), strategy="sentence", chunk_size=400,
                  chunk_overlap=60, unit="chars")
    assert seen["hatched"] > 0
    assert page.locator(".pane .strategy").is_disabled()
    assert requests == [out.as_uri()] and errors == []
    page.close()


def test_a_file_named_on_the_command_line_opens_with_the_page(browser: Any, served: Path) -> None:
    with _serving(served / "speech.md") as url:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        _settled(page, 0)
        _check(page, 0, chunkwise.load(served / "speech.md"), **_pane_config(page, 0))
        assert page.locator("#files option").all_inner_texts() == ["speech.md"]
        page.close()
