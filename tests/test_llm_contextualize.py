"""contextualize with answers that are empty: asked again, then the chunk is left without
a model context (``llm_fallback``), nothing cached, and the dry run counts what a run sends."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("httpx")
from click.testing import CliRunner
from llm_server import ScriptedServer

import chunkwise
from chunkwise.cli import cli
from chunkwise.llm import ChatClient, ResponseCache

TEXT = (
    "Pumps start at six in the morning. Valves open at seven. Tanks fill by eight. "
    "The night shift checks every gauge. Alarms ring when pressure drops.\n\n"
    "Maintenance happens on Sundays. The crew replaces filters and seals. "
    "Logs are kept for ten years."
)


def test_empty_answers_are_asked_again_then_fall_back(tmp_path):
    plain = chunkwise.chunk(TEXT, chunk_size=20, unit="words")
    cache = ResponseCache(tmp_path / "c.sqlite")
    with ScriptedServer(default="empty") as server:
        client = ChatClient("m", base_url=server.url, cache=cache)
        chunks = chunkwise.chunk(TEXT, chunk_size=20, unit="words", contextualize=True, llm=client)
        assert server.requests == 2 * len(plain)  # each asked once more (answer_retries=1)
    assert [(c.id, c.text, c.context) for c in chunks] == [(c.id, c.text, c.context) for c in plain]
    assert all(c.metadata["llm_fallback"] is True and c.metadata["contextualized"] is False for c in chunks)
    assert len(cache) == 0  # an empty answer is never cached
    # the retry cures it: an empty first answer, a valid second one
    with ScriptedServer(script=["empty"], default="valid") as server:
        client = ChatClient("m", base_url=server.url, concurrency=1)
        chunks = chunkwise.chunk(TEXT, chunk_size=20, unit="words", contextualize=True, llm=client)
        assert server.requests == len(plain) + 1
    assert all(c.context.startswith("This chunk") and "llm_fallback" not in c.metadata for c in chunks)


def test_cli_reports_empty_answers_and_the_dry_run_counts_what_a_run_sends(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with ScriptedServer(default="empty") as server:
        args = ["chunk", str(src), "-n", "20", "-u", "words", "--llm-model", "m", "--llm-base-url", server.url,
                "--llm-cache", str(tmp_path / "c.sqlite"), "--contextualize", "-o", str(out)]
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, res.output
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert rows and all(r["metadata"]["llm_fallback"] is True for r in rows)
        assert f"{len(rows)} of {len(rows)} chunks" in res.output and "1 document chunked in part" in res.output
        dry = CliRunner().invoke(cli, [*args, "--dry-run"])
        assert f"{len(rows)} requests (0 cached)" in dry.output, dry.output
        first = server.requests
        assert CliRunner().invoke(cli, args).exit_code == 0
        assert first == 2 * len(rows)  # each chunk asked twice (answer_retries=1)
        assert server.requests == 2 * first  # a later run asks again: nothing was cached
        server.default = "valid"
        assert CliRunner().invoke(cli, args).exit_code == 0
        dry = CliRunner().invoke(cli, [*args, "--dry-run"])
    assert f"{len(rows)} requests ({len(rows)} cached)" in dry.output, dry.output
    # every request cached: the tokenizer that would count is still named
    assert re.search(r"about 0 input and 0 output tokens \((cl100k_base|chars/4)\)", dry.output), dry.output


def test_cli_contextualize_takes_the_endpoint_from_p_parameters(tmp_path):
    """``--contextualize`` with ``-p model=... -p base_url=... -p max_retries=...`` (the
    forms the error messages advise) builds the client; the chunker never sees them."""
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with ScriptedServer(default="valid") as server:
        for strategy in ("recursive", "auto"):
            args = ["chunk", str(src), "-s", strategy, "-n", "20", "-u", "words", "--contextualize",
                    "-p", "model=m", "-p", f"base_url={server.url}", "-p", "max_retries=1", "-p", "timeout=5",
                    "--no-llm-cache", "-o", str(out)]
            res = CliRunner().invoke(cli, args)
            assert res.exit_code == 0, res.output
            rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
            assert rows and all(r["context"].startswith("This chunk") for r in rows)
    # a semantic strategy keeps its own model= (the embedding model): the chat model comes from --llm-model
    res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "semantic", "--contextualize", "-p", "model=nosuch",
                                   "--llm-base-url", "http://127.0.0.1:9/v1", "--dry-run"])
    assert res.exit_code == 2 and "--llm-model" in res.output, res.output
