"""The index with LLM strategies and against what users meet: a chat endpoint that cannot
be used stops the build and leaves the index as it was; a document whose answers stayed
invalid is stored but chunked again next time; an index without a committed document takes
new settings; the endpoint (base_url) is not chunking configuration; a dangling link keeps
its document while a deleted file loses it; ``--return`` follows what is stored; usage
errors exit 2."""

from __future__ import annotations

import re
import socket

import pytest

pytest.importorskip("numpy")
pytest.importorskip("usearch")
pytest.importorskip("httpx")

from click.testing import CliRunner  # noqa: E402
from llm_server import ScriptedServer  # noqa: E402
from test_index import CountingEmbedder, _folder  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise.cli import cli  # noqa: E402
from chunkwise.errors import ConfigError  # noqa: E402
from chunkwise.index import Index, build_index  # noqa: E402
from chunkwise.llm import ChatClient, LLMError  # noqa: E402
from chunkwise.types import document_id_for_path  # noqa: E402

IDS = tuple(sorted(document_id_for_path(name) for name in ("pumps.txt", "valves.txt")))

LONG = {
    "pumps.txt": " ".join(["The pump moves water uphill. A pump needs a motor. Pumps fail when the seal wears."] * 3),
    "valves.txt": " ".join(["A valve controls the flow. The valve opens at dawn. Valves close at dusk."] * 3),
}


@pytest.fixture
def offline_default(monkeypatch):
    """The CLI's default embedding model, offline: a counting embedder."""
    from chunkwise import embeddings

    emb = CountingEmbedder()
    monkeypatch.setattr(embeddings, "RETRIEVAL_MODEL", emb)
    return emb


def _dead_url() -> str:
    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def _agentic(url: str, **kw):
    return chunkwise.make_chunker("agentic", chunk_size=60, piece_size=15, model="m", base_url=url, **kw)


# -- the chat endpoint --------------------------------------------------------------------


def test_an_unreachable_endpoint_stops_the_build_and_changes_nothing(tmp_path):
    src = _folder(tmp_path, LONG)
    with pytest.raises(LLMError, match="cannot reach the chat endpoint"):
        build_index([src], tmp_path / "ix", chunker=_agentic(_dead_url(), max_retries=0), model=CountingEmbedder())
    # the failed first build bound nothing: another configuration is accepted
    report = build_index([src], tmp_path / "ix", chunker=chunkwise.make_chunker("recursive", chunk_size=40),
                         model=CountingEmbedder())
    assert sorted(report.added) == list(IDS) and not report.rebuilt


def test_cli_unreachable_endpoint_is_one_line_exit_1(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    ix = tmp_path / "ix"
    args = ["index", "build", str(src), "--index", str(ix), "-s", "agentic", "-n", "60",
            "-p", "model=m", "-p", f"base_url={_dead_url()}", "-p", "max_retries=0",
            "-p", f"cache={tmp_path / 'llm.sqlite'}"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output and re.search(r"Error: cannot reach the chat endpoint http://127\.0\.0\.1:\d+/v1",
                                                     r.output)
    # nothing committed: the next build may use other settings
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 0 and "2 added" in r.output, r.output


def test_invalid_answers_store_the_document_but_not_as_final(tmp_path):
    src = _folder(tmp_path, LONG)
    emb = CountingEmbedder()
    with ScriptedServer(default="malformed") as server:
        chunker = _agentic(server.url, cache=str(tmp_path / "llm.sqlite"))
        report = build_index([src], tmp_path / "ix", chunker=chunker, model=emb)
        assert sorted(report.added) == list(IDS) and set(report.fallback) == set(report.added)
        assert "chunked in part by the fallback" in report.summary()
        with Index(tmp_path / "ix", model=emb) as index:
            hits = index.query("pump", k=50)
        assert hits and all(h.chunk.metadata["llm_fallback"] is True for h in hits)
        sent = server.requests
        server.default = "valid"  # the model answers well now: the next build asks again
        report = build_index([src], tmp_path / "ix", chunker=chunker, model=emb)
        assert sorted(report.changed) == list(IDS) and report.fallback == ()
        assert server.requests > sent
        with Index(tmp_path / "ix", model=emb) as index:
            hits = index.query("pump", k=50)
        assert hits and all(h.chunk.metadata["llm_fallback"] is False for h in hits)
        # final now: a third build changes nothing and asks nothing
        sent = server.requests
        report = build_index([src], tmp_path / "ix", chunker=chunker, model=emb)
        assert sorted(report.unchanged) == list(IDS) and server.requests == sent


def test_base_url_is_not_chunking_configuration_but_the_model_is(tmp_path):
    src = _folder(tmp_path, LONG)
    emb = CountingEmbedder()
    with ScriptedServer() as one, ScriptedServer() as two:
        build_index([src], tmp_path / "ix", chunker=_agentic(one.url, timeout=30), model=emb)
        report = build_index([src], tmp_path / "ix", chunker=_agentic(two.url, concurrency=2), model=emb)
        assert sorted(report.unchanged) == list(IDS) and two.requests == 0
        client = ChatClient("m", base_url=two.url, cache=tmp_path / "c.sqlite")
        chunker = chunkwise.make_chunker("agentic", chunk_size=60, piece_size=15, client=client)
        assert sorted(build_index([src], tmp_path / "ix", chunker=chunker, model=emb).unchanged) == list(IDS)
        other = chunkwise.make_chunker("agentic", chunk_size=60, piece_size=15, model="other-model", base_url=two.url)
        with pytest.raises(ConfigError, match="another configuration"):
            build_index([src], tmp_path / "ix", chunker=other, model=emb)


# -- settings of an index without documents -----------------------------------------------


def test_an_index_without_committed_documents_takes_new_settings(tmp_path, offline_default):
    src = _folder(tmp_path, {})
    ix = str(tmp_path / "ix")
    with pytest.raises(ConfigError, match="no document was given"):
        build_index([], ix, chunker=chunkwise.make_chunker("recursive", chunk_size=20), model=offline_default)
    _folder(tmp_path)
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", ix, "-n", "30", "-s", "sentence"])
    assert r.exit_code == 0 and "3 added" in r.output, r.output
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", ix, "-n", "20"])
    assert r.exit_code == 2 and "another configuration" in r.output  # now it holds documents: settled


class WideEmbedder(CountingEmbedder):
    name = "hash-bag-48"
    dim = 48


def test_an_empty_first_build_binds_no_settings(tmp_path):
    ix = tmp_path / "ix"
    with pytest.raises(ConfigError, match="no document was given"):
        build_index([], ix, chunker=chunkwise.make_chunker("recursive", chunk_size=20), model=CountingEmbedder())
    # another chunker and another model (of another dimension) are taken
    report = build_index([chunkwise.Document("A pump.", id="a")], ix,
                         chunker=chunkwise.make_chunker("sentence", chunk_size=30), model=WideEmbedder())
    assert report.added == ("a",) and not report.rebuilt
    with Index(ix, model=WideEmbedder()) as index:
        assert index.info()["dim"] == "48"
        assert [h.chunk.document_id for h in index.query("pump", k=1)] == ["a"]


# -- files that are gone, files that cannot be read ---------------------------------------


def test_dangling_link_keeps_its_document_a_deleted_file_is_removed(tmp_path, offline_default):
    src = _folder(tmp_path)
    ix = str(tmp_path / "ix")
    runner = CliRunner()
    assert runner.invoke(cli, ["index", "build", str(src), "--index", ix, "-n", "20"]).exit_code == 0
    (src / "valves.txt").unlink()
    (src / "valves.txt").symlink_to(tmp_path / "unmounted" / "valves.txt")  # dangling: cannot be read now
    (src / "tanks.md").unlink()  # gone
    r = runner.invoke(cli, ["index", "build", str(src), "--index", ix, "-n", "20"])
    assert r.exit_code == 1 and "dangling" in r.output and "valves.txt" in r.output, r.output
    assert "1 removed" in r.output and "kept as they were: 1 document that" in r.output
    with Index(ix, model=offline_default) as index:
        info = index.info()
        assert info["documents"] == 2
        assert {h.chunk.document_id for h in index.query("valve opens", k=20)} == set(IDS)


# -- what a query returns -----------------------------------------------------------------


def test_return_follows_the_stored_chunks(tmp_path):
    text = "One pump. Two pumps run. Three valves open. Four tanks fill.\n\nFive pipes leak. Six seals wear out."
    docs = [chunkwise.Document(text, id="d")]
    emb = CountingEmbedder()
    leaves = chunkwise.make_chunker("hierarchical", chunk_sizes=[60, 20], leaves_only=True)
    build_index(docs, tmp_path / "leaves", chunker=leaves, model=emb)
    with Index(tmp_path / "leaves", model=emb) as index:
        assert index.returns() == ("chunks",)  # parent ids, but no parent stored
        with pytest.raises(ConfigError, match=r"supports --return chunks\. "):
            index.query("pump", returns="parents")
    windows = chunkwise.make_chunker("hierarchical", chunk_sizes=[60, 20], base=["recursive", "sentence"],
                                     base_params=[{}, {"window_sentences": 1}])
    build_index(docs, tmp_path / "windows", chunker=windows, model=emb)
    with Index(tmp_path / "windows", model=emb) as index:
        assert index.returns() == ("chunks", "parents", "merged", "window")
        hit = index.query("Three valves open.", k=1, returns="window")[0]
        assert hit.chunk.text == text[hit.chunk.start_index : hit.chunk.end_index]
        assert "valves" in hit.chunk.text and len(hit.chunk.text) > len("Three valves open.")
        assert index.query("Three valves open.", k=1, returns="parents")[0].chunk.metadata["level"] == 0
    flat = chunkwise.make_chunker("sentence", chunk_size=30, window_sentences=1)
    build_index(docs, tmp_path / "flat", chunker=flat, model=emb)
    with Index(tmp_path / "flat", model=emb) as index:
        assert index.returns() == ("chunks", "window")


def test_cli_return_the_index_cannot_serve_is_exit_2(tmp_path, offline_default):
    src = _folder(tmp_path)
    ix = str(tmp_path / "ix")
    assert CliRunner().invoke(cli, ["index", "build", str(src), "--index", ix, "-n", "20"]).exit_code == 0
    r = CliRunner().invoke(cli, ["index", "query", "pump", "--index", ix, "--return", "merged"])
    assert r.exit_code == 2 and "supports --return chunks." in r.output and "-s hierarchical" in r.output


def test_cli_query_when_the_reader_left_is_quiet(tmp_path, offline_default, monkeypatch):
    import errno

    import click

    from chunkwise import embeddings

    known = embeddings.get_embedder
    monkeypatch.setattr(
        embeddings, "get_embedder", lambda m=None, **kw: offline_default if m == "hash" else known(m, **kw)
    )
    src = _folder(tmp_path)
    ix = str(tmp_path / "ix")
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", ix, "-n", "20", "--model", "hash"])
    assert r.exit_code == 0, r.output
    real, printed = click.echo, []

    def echo(message=None, file=None, nl=True, err=False, color=None):
        if not err and file is None:  # standard output, as after `| head` stopped reading
            printed.append(message)
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return real(message, file=file, nl=nl, err=err, color=color)

    monkeypatch.setattr(click, "echo", echo)
    for extra in ([], ["--json"]):
        r = CliRunner().invoke(cli, ["index", "query", "pump", "--index", ix, "-k", "2", *extra])
        assert r.exit_code == 0 and r.exception is None, r.output
    assert len(printed) == 2 and '"rank": 2' in printed[1]  # each view tried once, whole


# -- usage errors ---------------------------------------------------------------------------


def test_unknown_model_names_the_index_default(tmp_path):
    from chunkwise.embeddings import RETRIEVAL_MODEL

    src = _folder(tmp_path)
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(tmp_path / "ix"), "--model", "nosuch"])
    assert r.exit_code == 2, r.output
    assert f"a new index: {RETRIEVAL_MODEL!r}" in r.output and "WordLlama" not in r.output
    assert not (tmp_path / "ix").exists()  # refused before anything was written


def test_cli_llm_parameters_reach_the_one_client(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    with ScriptedServer(script=["error"]) as server:
        args = ["index", "build", str(src), "--index", str(tmp_path / "ix"), "-s", "agentic", "-n", "60",
                "-p", "model=m", "-p", f"base_url={server.url}", "-p", "timeout=5", "-p", "max_retries=1",
                "-p", f"cache={tmp_path / 'llm.sqlite'}", "-p", "piece_size=15"]
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 0, r.output  # the 500 was retried (max_retries=1) and then answered
        assert server.bodies and all(b["model"] == "m" for b in server.bodies)
        assert (tmp_path / "llm.sqlite").exists()
        with Index(tmp_path / "ix", model=offline_default) as index:
            config = index.info()["config"]
        assert "llm=ChatClient('m'" in config and server.url not in config and "timeout" not in config


def test_cli_llm_strategy_without_key_or_url_is_a_usage_error(tmp_path, monkeypatch, offline_default):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    src = _folder(tmp_path)
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(tmp_path / "ix"), "-s", "agentic",
                                 "-p", "model=gpt-4o-mini"])
    assert r.exit_code == 2 and "OPENAI_API_KEY" in r.output and "--llm-base-url" in r.output
    assert not (tmp_path / "ix").exists()


def test_a_loop_of_links_is_reported_not_a_crash(tmp_path, offline_default):
    src = _folder(tmp_path)
    (src / "loop1").symlink_to(src / "loop2")
    (src / "loop2").symlink_to(src / "loop1")
    (src / "gone").symlink_to(tmp_path / "nowhere" / "dir")
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(tmp_path / "ix"), "-n", "20"])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit), r.output  # reported, not raised
    assert "loop1" in r.output and "3 added" in r.output, r.output


def test_cli_hierarchical_index_with_an_agentic_level(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    with ScriptedServer() as server:
        args = ["index", "build", str(src), "--index", str(tmp_path / "ix"), "-s", "hierarchical", "-u", "chars",
                "-p", "chunk_sizes=[200, 60]", "-p", 'base=["recursive", "agentic"]', "-p", "model=m",
                "-p", f"base_url={server.url}", "-p", f"cache={tmp_path / 'llm.sqlite'}"]
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 0 and "2 added" in r.output, r.output
        assert server.requests > 0
        with Index(tmp_path / "ix", model=offline_default) as index:
            assert index.returns() == ("chunks", "parents", "merged")
            hits = index.query("valve", k=3)
            assert hits and all(h.chunk.metadata["agentic"] == "model" for h in hits)
            assert index.query("valve", k=3, returns="parents")[0].chunk.metadata["level"] == 0


def test_cli_index_build_takes_the_chunk_commands_llm_options(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    ix = tmp_path / "ix"
    with ScriptedServer() as server:
        args = ["index", "build", str(src), "--index", str(ix), "-n", "20", "--contextualize",
                "--llm-model", "m", "--llm-base-url", server.url, "--llm-cache", str(tmp_path / "llm.sqlite"),
                "--llm-concurrency", "2"]
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 0, r.output
        with Index(ix, model=offline_default) as index:
            hits = index.query("pump", k=50)
            config = index.info()["config"]
        assert hits and all(h.chunk.context.startswith("This chunk") for h in hits)
        assert "Contextualized" in config and "ChatClient('m'" in config
        assert server.url not in config
        sent = server.requests
        r = CliRunner().invoke(cli, args)  # unchanged: nothing asked, nothing embedded again
        assert r.exit_code == 0 and server.requests == sent, r.output
        # without --contextualize the configuration differs: refused without --rebuild
        r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "20"])
        assert r.exit_code == 2 and "--rebuild" in r.output, r.output
    # empty answers: the chunks are stored without a model context, reported, not final
    with ScriptedServer(default="empty") as server:
        r = CliRunner().invoke(cli, [*args[:2], str(src), "--index", str(tmp_path / "ix2"), *args[5:8],
                                     "--llm-model", "m", "--llm-base-url", server.url, "--no-llm-cache"])
        assert r.exit_code == 0, r.output
        assert "fallback" in r.output and "invalid or empty" in r.output
    for bad in (["--contextualize", "--llm-model", "m", "--llm-base-url", "not-a-url"],
                ["-s", "agentic", "-p", "model=m", "-p", "base_url=ftp://x"]):
        r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(tmp_path / "ix3"), *bad])
        assert r.exit_code == 2 and "http(s) URL" in r.output, r.output
        assert not (tmp_path / "ix3").exists()


def test_cli_empty_files_are_named_and_skipped_as_chunk_skips_them(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    (src / "zero.txt").write_text("", encoding="utf-8")
    (src / "blank.txt").write_text("  \n\t\n", encoding="utf-8")
    ix = tmp_path / "ix"
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 0, r.output  # other files produced chunks
    assert "2 added" in r.output and "2 empty" in r.output and "zero.txt" in r.output, r.output
    only = tmp_path / "only"
    only.mkdir()
    (only / "zero.txt").write_text("", encoding="utf-8")
    r = CliRunner().invoke(cli, ["index", "build", str(only), "--index", str(tmp_path / "ix2"), "-n", "40"])
    assert r.exit_code == 1 and "empty" in r.output, r.output  # no input produced a chunk


# -- a build that reads no file creates nothing ---------------------------------------------


def test_cli_no_readable_file_creates_no_index(tmp_path, offline_default):
    src = _folder(tmp_path, {})
    (src / "bad.pdf").write_bytes(b"not a pdf")  # a damaged PDF: reported, skipped
    (src / "zero.txt").write_text("", encoding="utf-8")  # no text: named, skipped
    ix = tmp_path / "ix"
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "20"])
    assert r.exit_code == 1, r.output
    assert f"the index {ix} was not created" in r.output and "bad.pdf" in r.output and "zero.txt" in r.output
    assert not ix.exists()
    ix.mkdir()  # a folder made for it stays as it was: empty
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "20"])
    assert r.exit_code == 1 and sorted(ix.iterdir()) == [], r.output
    ix.rmdir()
    # a file that reads: the index is made; when later no file reads, it is built as before
    (src / "pumps.txt").write_text(LONG["pumps.txt"], encoding="utf-8")
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "20"])
    assert r.exit_code == 1 and "1 added" in r.output and (ix / "index.sqlite").is_file(), r.output  # bad.pdf
    # when later no file reads, nothing changes: the build would remove every document
    (src / "pumps.txt").unlink()
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "20"])
    assert r.exit_code == 1 and "nothing was changed in the index" in r.output, r.output
    assert "removed" not in r.output and "not created" not in r.output
    assert Index(ix).info()["documents"] == 1


def _snapshot(ix):
    """The index's files and their bytes: nothing written shows as the same snapshot."""
    return {p.name: p.read_bytes() for p in sorted(ix.iterdir())}


def test_cli_unreadable_folder_leaves_an_existing_index_as_it_was(tmp_path, offline_default):
    src = _folder(tmp_path, {**LONG, "gears.txt": "Gears turn. " * 20})
    ix = tmp_path / "ix"
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 0 and "3 added" in r.output, r.output
    before = _snapshot(ix)
    bad = tmp_path / "unreadable"
    bad.mkdir()
    (bad / "prog").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)  # an executable
    (bad / "blob.txt").write_bytes(b"\x00\x01\xff\xfe" * 300)  # binary under a text suffix
    (bad / "empty.md").write_bytes(b"")
    r = CliRunner().invoke(cli, ["index", "build", str(bad), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 1, r.output
    assert "nothing indexed: no file gave a document with text" in r.output, r.output
    assert f"nothing was changed in the index {ix}" in r.output
    assert all(name in r.output for name in ("prog", "blob.txt", "empty.md"))  # each one said
    assert "removed" not in r.output and "generation" not in r.output
    assert _snapshot(ix) == before  # no removal, no new generation
    info = Index(ix).info()
    assert info["documents"] == 3 and int(info["generation"]) == 1


def test_cli_a_folder_that_gives_no_document_is_refused_with_the_others(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    ix = tmp_path / "ix"
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 0 and "2 added" in r.output, r.output
    before = _snapshot(ix)
    other = tmp_path / "other"
    other.mkdir()
    (other / "empty.md").write_bytes(b"")
    (src / "new.txt").write_text("A new file. " * 10, encoding="utf-8")
    # the folder that reads is not indexed alone: the other one's documents would be removed
    r = CliRunner().invoke(cli, ["index", "build", str(src), str(other), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 1, r.output
    assert f"no file under {other.as_posix()} gave a document" in r.output and "empty.md" in r.output, r.output
    assert "added" not in r.output and _snapshot(ix) == before
    # a folder that gives a document: the build goes on, the empty file named and skipped
    (other / "notes.txt").write_text("Notes on pumps. " * 10, encoding="utf-8")
    r = CliRunner().invoke(cli, ["index", "build", str(src), str(other), "--index", str(ix), "-n", "40"])
    assert r.exit_code == 0 and "2 added" in r.output and "empty.md" in r.output, r.output
    assert Index(ix).info()["documents"] == 4


def test_cli_skipped_files_are_reported_in_the_order_found(tmp_path, offline_default):
    src = _folder(tmp_path, {})
    (src / "a.odt").write_bytes(b"PK")  # passed over by the walk
    (src / "b.txt").write_text("Bees buzz. " * 10, encoding="utf-8")
    (src / "c.txt").write_bytes(b"")  # read: empty
    (src / "d.odt").write_bytes(b"PK")
    r = CliRunner().invoke(cli, ["index", "build", str(src), "--index", str(tmp_path / "ix"), "-n", "40"])
    assert r.exit_code == 1, r.output  # the .odt files failed
    said = [line.split(":")[0].rsplit("/", 1)[-1] for line in r.output.splitlines() if line.startswith("skipped ")]
    assert said[:3] == ["a.odt", "c.txt", "d.odt"], r.output


# -- what changed, said as old -> new -------------------------------------------------------


def test_config_change_names_each_setting_old_and_new():
    from chunkwise.index._store import config_change, config_of
    from chunkwise.llm.contextualize import Contextualized

    def cfg(chunker):
        return config_of(chunker)

    small, large = (chunkwise.make_chunker("recursive", chunk_size=n) for n in (200, 300))
    assert config_change(cfg(small), cfg(large)) == "chunk_size: 200 -> 300"
    words = chunkwise.make_chunker("recursive", chunk_size=300, unit="words")
    assert config_change(cfg(small), cfg(words)) == "chunk_size: 200 -> 300, unit: 'chars' -> 'words'"
    sentence = chunkwise.make_chunker("sentence", chunk_size=200)
    assert config_change(cfg(small), cfg(sentence)) == "chunker: RecursiveChunker -> SentenceChunker"
    # auto holds a chunker per kind of document: one change, named once
    auto = [chunkwise.make_chunker("auto", chunk_size=n) for n in (96, 128)]
    assert config_change(cfg(auto[0]), cfg(auto[1])) == "chunk_size: 96 -> 128"
    one, two = (ChatClient(m, base_url="http://127.0.0.1:9/v1") for m in ("m1", "m2"))
    ctx_small, ctx_two = Contextualized(small, one), Contextualized(small, two)
    assert config_change(cfg(small), cfg(ctx_small)) == "contextualize: off -> on"
    assert config_change(cfg(ctx_small), cfg(small)) == "contextualize: on -> off"
    assert config_change(cfg(ctx_small), cfg(ctx_two)) == "contextualize.client: ChatClient('m1') -> ChatClient('m2')"
    assert config_change(cfg(ctx_small), cfg(Contextualized(large, one))) == "chunk_size: 200 -> 300"
    # a value in place of a nested chunker's, and a configuration that is not Python syntax
    assert config_change("x.C:C(a=None)", "x.C:C(a=D(b=1))") == "a: None -> D"
    assert config_change("x.C:C(<odd>)", "x.C:C(<other>)") == "x.C:C(<odd>) -> x.C:C(<other>)"


def test_cli_contextualized_index_says_what_changed(tmp_path, offline_default):
    src = _folder(tmp_path, LONG)
    ix = tmp_path / "ix"
    with ScriptedServer() as server:
        llm = ["--llm-base-url", server.url, "--no-llm-cache"]
        base = ["index", "build", str(src), "--index", str(ix), "-n", "20"]
        r = CliRunner().invoke(cli, [*base, "--contextualize", "--llm-model", "m", *llm])
        assert r.exit_code == 0, r.output
        for args, said in (
            ([*base, "--contextualize", "--llm-model", "m2", *llm], "contextualize.client: ChatClient('m') -> "
                                                                    "ChatClient('m2')"),
            ([*base, "--contextualize", "--llm-model", "m", "-n", "30", *llm], "chunk_size: 20 -> 30"),
            (base, "contextualize: on -> off"),
        ):
            r = CliRunner().invoke(cli, args)
            assert r.exit_code == 2 and f"another configuration ({said}); rebuild it" in r.output, r.output
            assert " now " not in r.output and "Contextualized" not in r.output


def test_cli_files_that_read_but_give_no_chunk_create_no_index(tmp_path, offline_default):
    """Every file reads, every one fails to chunk (a row larger than chunk_size, with
    oversize=raise): no index is created, and an existing one is left as it was."""
    src = tmp_path / "tables"
    src.mkdir()
    for name in ("a.csv", "b.csv"):
        (src / name).write_text("name,notes\nAda," + "word " * 60 + "\n", encoding="utf-8")
    ix = tmp_path / "ix"
    args = ["index", "build", str(src), "--index", str(ix), "-s", "table", "-p", "oversize=raise", "-n", "10"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 1, r.output
    said = f"nothing indexed: none of the 2 documents read gave a chunk (2 failed to chunk); the index {ix} was not created"
    assert said in r.output, r.output
    assert "a.csv (oversize)" in r.output and "b.csv (oversize)" in r.output
    assert "generation" not in r.output and not ix.exists()
    r = CliRunner().invoke(cli, [*args[:-1], "100"])
    assert r.exit_code == 0 and "2 added" in r.output, r.output
    before = _snapshot(ix)
    (src / "a.csv").write_text("name,notes\nAda," + "other " * 60 + "\n", encoding="utf-8")
    (src / "b.csv").unlink()
    r = CliRunner().invoke(cli, [*args, "--rebuild"])
    assert r.exit_code == 1, r.output
    assert "none of the 1 document read gave a chunk (1 failed to chunk); nothing was changed in the index" in r.output
    assert _snapshot(ix) == before and Index(ix).info()["documents"] == 2
