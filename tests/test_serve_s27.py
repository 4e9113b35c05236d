"""The playground's file list and paths on a messy folder: symbolic link loops, dangling
links and unreadable entries are passed over (as ``chunkwise chunk`` passes them over),
never an internal error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from chunkwise.errors import ConfigError  # noqa: E402
from chunkwise.serve import create_app  # noqa: E402

needs_symlinks = pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")


@pytest.fixture()
def messy(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    (root / "bad").mkdir(parents=True)
    (root / "good.md").write_text("# Good\n\nA paragraph.\n", encoding="utf-8")
    (root / "bad" / "notes.txt").write_text("Some notes.\n", encoding="utf-8")
    (root / "bad" / "loopA").symlink_to("loopB")
    (root / "bad" / "loopB").symlink_to("loopA")
    (root / "bad" / "self").symlink_to("self")
    (root / "bad" / "dangling.txt").symlink_to(tmp_path / "nonexistent")
    (root / "bad" / "up").symlink_to("..")  # a link to a folder that contains it
    return root


@needs_symlinks
def test_a_symlink_loop_is_passed_over_in_the_file_list(messy: Path) -> None:
    client = TestClient(create_app(messy), raise_server_exceptions=False)
    r = client.get("/api/files")
    assert r.status_code == 200, r.text
    assert r.json()["files"] == ["good.md", "bad/notes.txt"]


@needs_symlinks
@pytest.mark.parametrize("rel", ["bad/loopA", "bad/self", "bad/dangling.txt"])
def test_opening_a_loop_or_dangling_link_is_a_4xx(messy: Path, rel: str) -> None:
    client = TestClient(create_app(messy), raise_server_exceptions=False)
    r = client.post("/api/document", json={"path": rel})
    assert 400 <= r.status_code < 500, r.text
    assert rel in r.json()["error"]
    assert client.post("/api/document", json={"path": "bad/notes.txt"}).status_code == 200


@needs_symlinks
def test_serving_a_symlink_loop_is_a_config_error(messy: Path) -> None:
    with pytest.raises(ConfigError, match="root"):
        create_app(messy / "bad" / "loopA")


# -- the page starts from `chunkwise chunk`'s defaults ----------------------------------


def test_the_defaults_are_those_of_the_chunk_command(tmp_path: Path) -> None:
    from chunkwise.commands._options import CLI_DEFAULTS

    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    defaults = client.get("/api/strategies").json()["defaults"]
    assert defaults == CLI_DEFAULTS
    assert (defaults["strategy"], defaults["chunk_size"], defaults["unit"]) == ("auto", 96, "tokens")

