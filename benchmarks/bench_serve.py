"""The playground's answer time after a slider move: ``POST /api/chunk`` on a 100 KB
document, the chunk size moved one step each time (as dragging the slider does).

Usage (from the repository root)::

    nice .venv/bin/python benchmarks/bench_serve.py            # 20 moves per strategy
    nice .venv/bin/python benchmarks/bench_serve.py --moves 50 --strategies recursive,semantic

The document: the first 100,000 characters of ``data/chroma_eval/corpora/wikitexts.md``
(cut at its last blank line before that, if any). Each request goes through the whole application (Starlette's
``TestClient``: routing, JSON in and out, chunking, the statistics of ``chunkwise stats``,
the code lines) but not a network socket. The document is loaded once, as the page does;
for the semantic strategy the first request embeds the sentences and is reported apart
(the later ones re-cut from the sentence vectors the server keeps). The median and the
95th percentile of the moves are printed; the target is under 150 ms. The load average is
printed before and after: the machine is shared.

``--browser /usr/bin/chromium`` also measures the page itself (Playwright driving that
Chromium, the server in a thread): from setting the chunk size of the first pane to the
pane showing the new chunks (request, answer, drawing the spans, the strip, the statistics,
and the next animation frame), the number box's change event (the slider's own input
events wait 60 ms more, so that dragging sends fewer requests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "data" / "chroma_eval" / "corpora" / "wikitexts.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--strategies", default="recursive,markdown,sentence,fixed,semantic")
    parser.add_argument("--chars", type=int, default=100_000)
    parser.add_argument("--browser", default=None, metavar="CHROMIUM", help="also time the page in this Chromium")
    args = parser.parse_args()

    from starlette.testclient import TestClient

    from chunkwise.serve import create_app

    text = SOURCE.read_text("utf-8")
    cut = text.rfind("\n\n", 0, args.chars)
    text = text[: cut if cut > 0 else args.chars]
    client = TestClient(create_app(None))
    doc = client.post("/api/document", json={"text": text}).json()["doc"]
    print(f"document: {len(text)} characters ({len(text.encode('utf-8'))} bytes); load average {os.getloadavg()}")
    print(f"{'strategy':<12} {'first ms':>9} {'median ms':>10} {'p95 ms':>8} {'server ms':>10} {'chunks':>7}")
    for strategy in args.strategies.split(","):
        sizes = [500 + 7 * k for k in range(args.moves + 1)]

        def ask(size: int) -> tuple[float, dict]:
            t0 = time.perf_counter()
            r = client.post("/api/chunk", json={"doc": doc, "config": {"strategy": strategy, "chunk_size": size}})
            elapsed = (time.perf_counter() - t0) * 1000
            r.raise_for_status()
            return elapsed, r.json()

        first, data = ask(sizes[0])
        times, server = [], []
        for size in sizes[1:]:
            ms, data = ask(size)
            times.append(ms)
            server.append(data["elapsed_ms"])
        times.sort()
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        print(f"{strategy:<12} {first:>9.1f} {statistics.median(times):>10.1f} {p95:>8.1f} "
              f"{statistics.median(server):>10.1f} {len(data['chunks']):>7}")
    if args.browser:
        browser_times(text, args)
    print(f"load average {os.getloadavg()}")


_MOVE = """async (v) => {
  const p = document.querySelector('.pane');
  const before = Number(p.dataset.version);
  const box = p.querySelector('.size');
  const t0 = performance.now();
  box.value = String(v);
  box.dispatchEvent(new Event('change'));
  await new Promise((done) => {
    const check = () => (Number(p.dataset.version) > before && p.dataset.status === 'ready')
      ? done() : requestAnimationFrame(check);
    check();
  });
  return performance.now() - t0;
}"""


def browser_times(text: str, args: argparse.Namespace) -> None:
    import socket
    import tempfile
    import threading

    import uvicorn
    from playwright.sync_api import sync_playwright

    from chunkwise.serve import create_app

    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "doc.md").write_text(text, encoding="utf-8")
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        sock.close()
        server = uvicorn.Server(uvicorn.Config(create_app(tmp), host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
        print(f"in the browser ({args.browser}): change of chunk_size to the new chunks drawn")
        print(f"{'strategy':<12} {'median ms':>10} {'p95 ms':>8}")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.browser, args=flags)
            page = browser.new_page(viewport={"width": 1500, "height": 950})
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("body[data-ready='1']")
            page.click("#open-file")
            page.wait_for_function("document.querySelector('.pane').dataset.status === 'ready'", timeout=120000)
            for strategy in args.strategies.split(","):
                page.select_option(".pane .strategy", strategy)
                page.evaluate(_MOVE, 499)  # the first answer of this strategy (imports, embedding)
                times = sorted(page.evaluate(_MOVE, 500 + 7 * k) for k in range(1, args.moves + 1))
                p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
                print(f"{strategy:<12} {statistics.median(times):>10.1f} {p95:>8.1f}")
            browser.close()
        server.should_exit = True
        thread.join(10)


if __name__ == "__main__":
    main()
