"""`chunkwise serve` as a process: the address is bound before the banner (a port in use
is a one-line usage error), --port 0 prints the port taken, and Ctrl-C or SIGTERM stops
the server within seconds even while a slow request is being worked on (exit 130)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals")

# the server with a slow chunking (a stand-in for late chunking on a large file)
SLOW_SERVER = """
import sys, time
import chunkwise.serve as serve
real = serve.chunk_view
def slow(*args, **kwargs):
    time.sleep(60)
    return real(*args, **kwargs)
serve.chunk_view = slow
from chunkwise.cli import main
sys.argv = ["chunkwise", "serve", "--port", "0"]
main()
"""


def _start(code: str, cwd: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()  # the banner, printed once the address is bound
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert found, line + proc.stderr.read()
    return proc, int(found.group(1))


def _post(port: int, path: str, body: dict, timeout: float = 30) -> dict:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - the local test server
        return json.loads(resp.read())


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_during_a_slow_request(tmp_path: Path, sig: int) -> None:
    proc, port = _start(SLOW_SERVER, tmp_path)
    try:
        doc = _post(port, "/api/document", {"text": "Some text. More text."})
        worker = threading.Thread(target=lambda: _swallow(_post, port, "/api/chunk",
                                                          {"doc": doc["doc"], "config": {}}, 20), daemon=True)
        worker.start()
        time.sleep(1.0)  # the slow chunking is running
        t0 = time.monotonic()
        proc.send_signal(sig)
        rc = proc.wait(timeout=15)
        assert time.monotonic() - t0 < 10
        assert rc == 130, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def _swallow(fn, *args):  # noqa: ANN001, ANN002, ANN202 - the request dies with the server
    try:
        fn(*args)
    except OSError:
        pass


def test_a_port_in_use_is_a_usage_error(tmp_path: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = held.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "chunkwise.cli", "serve", "--port", str(port)], cwd=tmp_path,
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "in use" in result.stderr and "playground on" not in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("option", ["--html", "--plot"])
def test_inspect_output_in_a_missing_folder_is_a_usage_error(tmp_path: Path, option: str) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    src = tmp_path / "a.txt"
    src.write_text("One sentence here. Another one there.\n" * 5, encoding="utf-8")
    result = CliRunner().invoke(cli, ["inspect", str(src), "--strategy", "recursive", option,
                                      str(tmp_path / "missing" / "x.html")])
    assert result.exit_code == 2, result.output
    assert "does not exist" in result.output and "[0]" not in result.stdout  # before any work
    assert result.exception is None or isinstance(result.exception, SystemExit)
