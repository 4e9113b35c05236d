"""The LLM strategies (agentic, propositions) and contextualize against the scripted chat
server: exact slices whatever the model answers (valid, malformed, out of range, failing),
fallbacks, retries with the reason, the cache on a second run, estimates, the CLI's
--dry-run and --contextualize, and a Hypothesis contract for proposition records."""

from __future__ import annotations

import json
import pickle
import re

import pytest

pytest.importorskip("httpx")
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants, cluster_boundaries
from llm_server import BAD_ANSWERS, ScriptedServer, scripted_client
from test_invariants import hostile

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import ConfigError
from chunkwise.llm import ChatClient, LLMError
from chunkwise.sizers import CharSizer, WordSizer
from chunkwise.types import Document

TEXT = (
    "Photosynthesis turns light into chemical energy. Plants, algae and some bacteria do it. "
    "It happens in the chloroplasts.\n\n"
    "The Calvin cycle fixes carbon dioxide. It needs ATP and NADPH from the light reactions. "
    "Its product is a three-carbon sugar.\n\n"
    "Stomata let gases in and out of the leaf. They close when the plant lacks water. "
    "Guard cells control them.\n\n"
    "Chlorophyll absorbs red and blue light. It reflects green light, which is why leaves look green."
)


@pytest.fixture
def server():
    with ScriptedServer() as s:
        yield s


def _agentic(server, **kw):
    kw.setdefault("chunk_size", 120)
    return chunkwise.make_chunker("agentic", model="m", base_url=server.url, **kw)


def _slices_exact(text, chunks):
    for c in chunks:
        assert c.text == text[c.start_index : c.end_index]
        assert c.text.strip()


# -- agentic ------------------------------------------------------------------------------


def test_agentic_cuts_where_the_model_says(server):
    chunker = _agentic(server, piece_size=40, window_size=2000)
    chunks = chunker.chunk(TEXT)
    check_invariants(TEXT, chunks, 120, CharSizer(), overlap_allowed=False)
    assert server.requests == 1
    prompt = server.bodies[0]["messages"][0]["content"]
    n = max(int(x) for x in re.findall(r"\[\[(\d+)\]\]", prompt))
    assert f"between 1 and {n}" in prompt
    # every second candidate was chosen: those cuts end chunks, marked "agentic"
    assert [c.metadata["boundary"] for c in chunks].count("agentic") >= n // 2
    assert {c.metadata["agentic"] for c in chunks} == {"model"}


def test_agentic_falls_back_to_recursive_on_every_bad_answer():
    recursive = chunkwise.chunk(TEXT, strategy="recursive", chunk_size=120)
    for mode in BAD_ANSWERS:
        with ScriptedServer(default=mode) as server:
            chunker = _agentic(server, piece_size=40, max_retries=1, answer_retries=1)
            chunks = chunker.chunk(TEXT)
            _slices_exact(TEXT, chunks)
            assert [(c.start_index, c.end_index) for c in chunks] == [(c.start_index, c.end_index) for c in recursive]
            assert {c.metadata["agentic"] for c in chunks} == {"fallback (invalid answer)"}, mode
            assert {c.metadata["llm_fallback"] for c in chunks} == {True}, mode
            # a bad answer is asked again once with the reason
            assert server.requests == 2, mode
            retry = server.bodies[1]["messages"]
            assert retry[1]["role"] == "assistant" and "not valid" in retry[2]["content"]


@pytest.mark.parametrize("mode", ["error", "busy", "slow"])
def test_agentic_a_server_failing_every_retry_is_an_error_not_a_fallback(mode):
    with ScriptedServer(default=mode, slow_seconds=0.5) as server:
        client = ChatClient("m", base_url=server.url, max_retries=1, backoff=0.0, timeout=0.2)
        chunker = chunkwise.make_chunker("agentic", chunk_size=120, piece_size=40, client=client)
        with pytest.raises(LLMError, match=re.escape(server.url) + ".*failed 2 times") as info:
            chunker.chunk(TEXT)
        assert info.value.transient and server.requests == 2


def test_agentic_no_server_listening_is_an_error_naming_the_endpoint():
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    chunker = chunkwise.make_chunker("agentic", chunk_size=120, model="m", base_url=url, max_retries=0)
    with pytest.raises(LLMError, match=f"cannot reach the chat endpoint {re.escape(url)}"):
        chunker.chunk(TEXT)


def test_invalid_answers_are_not_cached_and_a_later_run_asks_again(tmp_path):
    cache = str(tmp_path / "llm.sqlite")
    with ScriptedServer(default="malformed") as server:
        first = _agentic(server, piece_size=40, cache=cache).chunk(TEXT)
        assert {c.metadata["llm_fallback"] for c in first} == {True} and server.requests == 2
        server.default = "valid"  # the model answers well now: the second run asks it again
        second = _agentic(server, piece_size=40, cache=cache).chunk(TEXT)
        assert server.requests == 3
        assert {c.metadata["llm_fallback"] for c in second} == {False}
        assert {c.metadata["agentic"] for c in second} == {"model"}
        _agentic(server, piece_size=40, cache=cache).chunk(TEXT)
        assert server.requests == 3  # the valid answer was cached


def test_no_key_and_no_base_url_is_refused(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY.*--llm-base-url"):
        ChatClient("gpt-4o-mini")
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        chunkwise.make_chunker("agentic", model="gpt-4o-mini")
    assert ChatClient("gpt-4o-mini", api_key="sk-test").base_url == "https://api.openai.com/v1"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert ChatClient("gpt-4o-mini").api_key == "sk-test"


def test_agentic_bad_answer_then_good_answer_uses_the_model(server):
    server.script = ["malformed"]
    chunks = _agentic(server, piece_size=40).chunk(TEXT)
    assert server.requests == 2
    assert {c.metadata["agentic"] for c in chunks} == {"model"}
    assert "agentic" in {c.metadata["boundary"] for c in chunks}


def test_agentic_a_wrong_model_name_is_raised(server):
    server.default = "bad_request"
    with pytest.raises(LLMError, match="answered 400"):
        _agentic(server).chunk(TEXT)


def test_agentic_second_run_is_answered_by_the_cache(server, tmp_path):
    cache = str(tmp_path / "llm.sqlite")
    first = _agentic(server, chunk_size=60, piece_size=15, window_size=200, cache=cache).chunk(TEXT)
    sent = server.requests
    assert sent > 1
    second = _agentic(server, chunk_size=60, piece_size=15, window_size=200, cache=cache).chunk(TEXT)
    assert server.requests == sent
    assert [c.id for c in second] == [c.id for c in first]


def test_agentic_estimate_matches_what_a_run_sends(server):
    chunker = _agentic(server, chunk_size=60, piece_size=15, window_size=200)
    est = chunker.estimate([TEXT])
    assert server.requests == 0
    chunker.chunk(TEXT)
    assert est.requests == server.requests > 1
    assert est.input_tokens > 0 and est.output_tokens > 0


def test_agentic_windows_run_concurrently_and_cover_the_document(server):
    long = "\n\n".join([TEXT] * 6)
    chunker = _agentic(server, chunk_size=80, piece_size=20, window_size=300, concurrency=4)
    chunks = chunker.chunk(long)
    check_invariants(long, chunks, 80, CharSizer(), overlap_allowed=False)
    assert server.requests >= 6


def test_agentic_in_tokens_and_with_overlap(server, cl100k):
    chunks = _agentic(server, chunk_size=30, chunk_overlap=5, unit=cl100k).chunk(TEXT)
    check_invariants(TEXT, chunks, 30, cl100k, overlap_allowed=True)


@settings(max_examples=15)
@given(text=hostile, size=st.integers(2, 60), start=st.integers(0, 9))
def test_agentic_contract_over_http_with_every_kind_of_answer(text, size, start):
    """The real HTTP server, its modes in turn (a failing one retried once, without wait:
    one request at a time, so that the retry of a failure gets the next mode, a 200)."""
    modes = ["valid", "error", "malformed", "busy", "out_of_range", "unordered", "wrong_types", "wrong_shape"]
    with ScriptedServer(script=(modes[start % 8 :] + modes[: start % 8]) * 4) as server:
        client = ChatClient("m", base_url=server.url, max_retries=1, backoff=0.0, concurrency=1)
        chunker = chunkwise.make_chunker("agentic", chunk_size=size, client=client, piece_size=max(1, size // 3))
        chunks = chunker.chunk(text)
        check_invariants(text, chunks, size, CharSizer(), overlap_allowed=False)


def test_agentic_configuration_errors():
    with pytest.raises(ConfigError, match="needs model="):
        chunkwise.make_chunker("agentic")
    with pytest.raises(ConfigError, match="piece_size must be a positive integer"):
        chunkwise.make_chunker("agentic", model="m", piece_size=0)
    with pytest.raises(ConfigError, match="window_size .* must be larger than piece_size"):
        chunkwise.make_chunker("agentic", model="m", piece_size=50, window_size=50)
    with pytest.raises(ConfigError, match="client must be a chunkwise.llm.ChatClient"):
        chunkwise.make_chunker("agentic", client="gpt")
    with pytest.raises(ConfigError, match="does not fill"):
        chunkwise.make_chunker("agentic", model="m", prompt="$text $oops")
    client = ChatClient("m", base_url="http://localhost:11434/v1")
    assert chunkwise.make_chunker("agentic", client=client, model="m").llm is client
    with pytest.raises(ConfigError, match="model, cache given with client="):
        chunkwise.make_chunker("agentic", client=client, model="other", cache="x.sqlite")


def test_agentic_chunker_pickles_with_its_client(server):
    chunker = _agentic(server, piece_size=40)
    copy = pickle.loads(pickle.dumps(chunker))
    assert [c.id for c in copy.chunk(TEXT)] == [c.id for c in chunker.chunk(TEXT)]


def test_agentic_prompt_override(server):
    chunker = _agentic(server, piece_size=40, prompt="Candidate cut points: between 1 and $n.\n$text")
    chunker.chunk(TEXT)
    assert server.bodies[0]["messages"][0]["content"].startswith("Candidate cut points: between 1 and")


# -- propositions -------------------------------------------------------------------------


def check_records(text, records, chunk_size, sizer):
    """The contract of proposition records: exact slices, no empty or untrimmed record,
    sorted by span, every non-whitespace character in some record, the size cap, a
    proposition only in context, unique ids and linked neighbours."""
    covered = bytearray(len(text))
    bounds = cluster_boundaries(text)
    prev = (-1, -1)
    for i, r in enumerate(records):
        assert 0 <= r.start_index < r.end_index <= len(text)
        assert r.text == text[r.start_index : r.end_index], i
        assert r.text.strip() and not r.text[-1].isspace()
        assert not r.text[0].isspace() or not r.text[1].isspace()  # a space may carry a combining mark
        assert r.start_index in bounds and r.end_index in bounds, f"record {i} cuts a grapheme cluster"
        assert (r.start_index, r.end_index) >= prev
        prev = (r.start_index, r.end_index)
        assert r.index == i and r.size == sizer.count(r.text)
        assert r.size <= chunk_size or r.metadata.get("oversize")
        assert r.metadata["proposition"] == bool(r.context)
        covered[r.start_index : r.end_index] = b"\x01" * (r.end_index - r.start_index)
    assert all(covered[i] or ch.isspace() for i, ch in enumerate(text))
    ids = [r.id for r in records]
    assert len(set(ids)) == len(ids)
    for i, r in enumerate(records):
        assert r.metadata["prev_id"] == (ids[i - 1] if i else None)
        assert r.metadata["next_id"] == (ids[i + 1] if i + 1 < len(ids) else None)


def test_propositions_are_records_over_their_source_sentences(server):
    records = chunkwise.chunk(TEXT, strategy="propositions", chunk_size=200, model="m", base_url=server.url)
    check_records(TEXT, records, 200, CharSizer())
    props = [r for r in records if r.metadata["proposition"]]
    assert props and all(r.metadata["llm"] == "model" for r in records)
    first = props[0]
    assert first.context.startswith("Proposition 1: Photosynthesis turns light")
    assert first.text == "Photosynthesis turns light into chemical energy."
    pair = next(r for r in props if r.metadata["sentences"] == [1, 2])
    assert pair.text == "Photosynthesis turns light into chemical energy. Plants, algae and some bacteria do it."
    # the model's words are never chunk text
    assert not any(r.text.startswith(("Proposition", "Sentences")) for r in records)
    assert server.requests == len({r.metadata["passage"] for r in records})


def test_propositions_fall_back_to_sentences_on_bad_answers():
    for mode in BAD_ANSWERS:
        with ScriptedServer(default=mode) as server:
            records = chunkwise.chunk(
                TEXT, strategy="propositions", chunk_size=200, model="m", base_url=server.url, max_retries=0
            )
            check_records(TEXT, records, 200, CharSizer())
            assert not any(r.metadata["proposition"] for r in records), mode
            assert all(r.metadata["llm"].startswith("fallback") for r in records), mode
            assert all(r.metadata["llm_fallback"] is True for r in records), mode
            assert [r.text for r in records][:2] == [
                "Photosynthesis turns light into chemical energy.",
                "Plants, algae and some bacteria do it.",
            ]


def test_propositions_cache_and_estimate(server, tmp_path):
    kw = dict(strategy="propositions", chunk_size=150, model="m", base_url=server.url, cache=str(tmp_path / "c.sqlite"))
    chunker = chunkwise.make_chunker(**kw)
    est = chunker.estimate([TEXT])
    assert server.requests == 0
    first = chunker.chunk(TEXT)
    assert est.requests == server.requests
    again = chunkwise.make_chunker(**kw).chunk(TEXT)
    assert server.requests == est.requests
    assert [(r.id, r.context) for r in again] == [(r.id, r.context) for r in first]
    assert chunkwise.make_chunker(**kw).estimate([TEXT]).cached == est.requests


def test_propositions_refuse_overlap():
    with pytest.raises(ConfigError, match="chunk_overlap \\(5\\) must be 0 for propositions"):
        chunkwise.make_chunker("propositions", model="m", chunk_size=50, chunk_overlap=5)


@settings(max_examples=40)
@given(text=hostile, size=st.integers(1, 80), kind=st.sampled_from(["chars", "words", "tokens"]))
def test_propositions_contract_under_scripted_answers(request, text, size, kind):
    sizer = {"chars": CharSizer(), "words": WordSizer()}.get(kind) or request.getfixturevalue("cl100k")
    chunker = chunkwise.make_chunker("propositions", chunk_size=size, unit=sizer, client=scripted_client())
    records = chunker.chunk(text)
    check_records(text, records, size, sizer)
    assert [(r.id, r.context) for r in chunker.chunk(text)] == [(r.id, r.context) for r in records]


# -- contextualize ------------------------------------------------------------------------


def test_contextualize_puts_the_models_context_before_the_strategys(server):
    pytest.importorskip("markdown_it")
    text = "# Guide\n\n## Install\n\nRun the installer. Then restart.\n\n## Use\n\nOpen the app.\n"
    doc = Document(text, source="g.md", metadata={"format": "markdown"})
    plain = chunkwise.chunk(doc, strategy="markdown", chunk_size=60)
    client = ChatClient("m", base_url=server.url)
    rich = chunkwise.chunk(doc, strategy="markdown", chunk_size=60, contextualize=True, llm=client)
    assert server.requests == len(plain)
    assert [(c.id, c.text, c.start_index) for c in rich] == [(c.id, c.text, c.start_index) for c in plain]
    for p, r in zip(plain, rich):
        assert r.context.startswith("This chunk, which begins with")
        assert r.context.endswith(p.context) and r.metadata["contextualized"] is True
        assert r.text_for_embedding().endswith(r.text)
    prompt = server.bodies[0]["messages"][0]["content"]
    assert "<document>\n# Guide" in prompt and "<chunk>\n" in prompt


def test_contextualize_a_server_that_stays_down_is_an_error(server):
    server.default = "error"
    client = ChatClient("m", base_url=server.url, max_retries=1, backoff=0.0)
    with pytest.raises(LLMError, match=re.escape(server.url)):
        chunkwise.chunk(TEXT, chunk_size=200, contextualize=True, llm=client)


def test_contextualize_needs_a_client():
    with pytest.raises(ConfigError, match="contextualize=True needs llm="):
        chunkwise.chunk(TEXT, contextualize=True)


def test_contextualize_reuses_the_strategys_client(server):
    chunks = chunkwise.chunk(
        TEXT, strategy="agentic", chunk_size=120, model="m", base_url=server.url, contextualize=True
    )
    assert all(c.context.startswith("This chunk") for c in chunks)


# -- the command line ---------------------------------------------------------------------


def test_cli_dry_run_sends_and_writes_nothing(server, tmp_path):
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    args = ["chunk", str(src), "-s", "agentic", "-n", "40", "--llm-model", "m", "--llm-base-url", server.url,
            "--no-llm-cache", "--contextualize", "--llm-price", "0.5,1.5", "--dry-run", "-o", str(out)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    assert re.search(r"dry run, nothing sent: 1 documents?;", res.output) and "cost $" in res.output
    assert server.requests == 0 and not out.exists()


def test_cli_agentic_with_contextualize_and_cache(server, tmp_path):
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    args = ["chunk", str(src), "-s", "agentic", "-n", "40", "--llm-model", "m", "--llm-base-url", server.url,
            "--llm-cache", str(tmp_path / "c.sqlite"), "--contextualize", "-o", str(out)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all(r["text"] == TEXT[r["start_index"] : r["end_index"]] for r in rows)
    assert all(r["context"].startswith("This chunk") and r["metadata"]["agentic"] == "model" for r in rows)
    sent = server.requests
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert server.requests == sent  # the second run is answered by the cache
    dry = CliRunner().invoke(cli, [a for a in args if a != "--contextualize"] + ["--dry-run"])
    assert re.search(r"(\d+) requests? \(\1 cached\)", dry.output), dry.output


def test_cli_needs_a_model_for_llm_work(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    for extra in (["-s", "agentic"], ["--contextualize"]):
        res = CliRunner().invoke(cli, ["chunk", str(src), *extra])
        assert res.exit_code == 2 and "--llm-model" in res.output


def _dead_url():
    import socket

    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def _src(tmp_path, n=1):
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    for i in range(n):
        (folder / f"d{i}.txt").write_text(TEXT, encoding="utf-8")
    return folder / "d0.txt" if n == 1 else folder


def test_cli_unreachable_server_stops_the_run_with_one_line(tmp_path):
    src = _src(tmp_path)
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n", encoding="utf-8")
    url = _dead_url()
    for extra in (["-s", "agentic"], ["-s", "propositions"], ["-s", "recursive", "--contextualize"]):
        res = CliRunner().invoke(cli, ["chunk", str(src), *extra, "--llm-model", "m", "--llm-base-url", url,
                                       "--no-llm-cache", "-o", str(out)])
        assert res.exit_code == 1, (extra, res.output)
        lines = [line for line in res.output.splitlines() if line.startswith("Error:")]
        assert len(lines) == 1 and f"cannot reach the chat endpoint {url}" in lines[0], res.output
        assert "Traceback" not in res.output and "looks like a bug" not in res.output
        assert out.read_text(encoding="utf-8") == "previous\n"  # the output left as it was


def test_cli_server_failing_every_retry_stops_the_run(tmp_path):
    src = _src(tmp_path)
    with ScriptedServer(default="error") as server:
        res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "agentic", "--llm-model", "m", "--llm-base-url",
                                       server.url, "--no-llm-cache", "-p", "max_retries=1", "-p", "timeout=5"])
        assert res.exit_code == 1 and "failed 2 times" in res.output and server.url in res.output, res.output
        assert server.requests == 2  # -p max_retries=1 reached the client


def test_cli_no_key_and_no_base_url_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    src = _src(tmp_path)
    for extra in (["-s", "agentic"], ["--contextualize"], ["-s", "propositions", "--dry-run"]):
        res = CliRunner().invoke(cli, ["chunk", str(src), *extra, "--llm-model", "gpt-4o-mini", "--no-llm-cache"])
        assert res.exit_code == 2, (extra, res.output)
        assert "OPENAI_API_KEY" in res.output and "--llm-base-url" in res.output


def test_cli_invalid_answers_fall_back_reported_and_retried_later(tmp_path):
    src = _src(tmp_path, 2)
    out = tmp_path / "out.jsonl"
    cache = tmp_path / "llm.sqlite"
    with ScriptedServer(default="malformed") as server:
        args = ["chunk", str(src), "-s", "agentic", "-n", "40", "--llm-model", "m", "--llm-base-url", server.url,
                "--llm-cache", str(cache), "-o", str(out)]
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, res.output
        assert re.search(r"fallback \S*d0\.txt: (\d+) of \1 chunks", res.output), res.output
        assert "2 documents chunked in part by the fallback" in res.output
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert rows and all(r["metadata"]["llm_fallback"] is True for r in rows)
        sent = server.requests
        server.default = "valid"  # nothing was cached: the next run asks again and gets the model's cuts
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0 and "fallback" not in res.output, res.output
        assert server.requests > sent
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert rows and all(r["metadata"]["llm_fallback"] is False for r in rows)


def test_cli_resume_leaves_a_fallback_document_out_for_the_next_resume(tmp_path):
    src = _src(tmp_path)
    out = tmp_path / "out.jsonl"
    with ScriptedServer(default="malformed") as server:
        args = ["chunk", str(src), "-s", "agentic", "-n", "40", "--llm-model", "m", "--llm-base-url", server.url,
                "--no-llm-cache", "--resume", "-o", str(out)]
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 1 and "llm fallback" in res.output and "--resume again" in res.output, res.output
        assert out.read_text(encoding="utf-8") == ""
        server.default = "valid"
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, res.output
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert rows and all(r["metadata"]["agentic"] == "model" for r in rows)


def test_cli_params_and_llm_options_make_one_client(tmp_path):
    src = _src(tmp_path)
    with ScriptedServer() as server:
        # the endpoint given as -p alone: no clash with the client the command builds
        res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "agentic", "-n", "40", "-p", "model=m",
                                       "-p", f"base_url={server.url}", "--no-llm-cache"])
        assert res.exit_code == 0, res.output
        assert server.requests > 0 and {b["model"] for b in server.bodies} == {"m"}
        # -p and --llm-* together when they agree; an error naming both when they do not
        res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "propositions", "--llm-model", "m", "-p", "model=m",
                                       "--llm-base-url", server.url, "--no-llm-cache"])
        assert res.exit_code == 0, res.output
        res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "agentic", "--llm-model", "a", "-p", "model=b",
                                       "--llm-base-url", server.url])
        assert res.exit_code == 2 and "-p model=b and --llm-model a disagree" in res.output
        res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "agentic", "--llm-model", "m", "--llm-base-url",
                                       server.url, "-p", "timeout=-1"])
        assert res.exit_code == 2 and "timeout must be a positive number" in res.output


def test_cli_dry_run_creates_no_cache_file(server, tmp_path):
    src = _src(tmp_path)
    cache = tmp_path / "sub" / "llm.sqlite"
    res = CliRunner().invoke(cli, ["chunk", str(src), "-s", "agentic", "--llm-model", "m", "--llm-base-url",
                                   server.url, "--llm-cache", str(cache), "--dry-run"])
    assert res.exit_code == 0 and "dry run, nothing sent" in res.output, res.output
    assert not cache.exists() and not cache.parent.exists() and server.requests == 0


def test_cli_hierarchical_with_an_llm_level(server, tmp_path):
    src = _src(tmp_path)
    base = ["-s", "hierarchical", "-p", "chunk_sizes=[200, 50]", "-p", 'base=["recursive", "agentic"]',
            "--llm-model", "m", "--llm-base-url", server.url, "--no-llm-cache"]
    dry = CliRunner().invoke(cli, ["chunk", str(src), *base, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    planned = int(re.search(r"(\d+) requests?", dry.output).group(1))
    assert planned > 0 and server.requests == 0
    res = CliRunner().invoke(cli, ["chunk", str(src), *base])
    assert res.exit_code == 0, res.output
    assert server.requests == planned
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    leaves = [r for r in rows if r["metadata"]["leaf"]]
    assert leaves and all(r["metadata"]["agentic"] == "model" and r["metadata"]["llm_fallback"] is False
                          for r in leaves)
    assert all(r["text"] == TEXT[r["start_index"] : r["end_index"]] for r in rows)


def test_cli_resume_with_another_server_of_the_same_model_continues(tmp_path):
    folder = _src(tmp_path, 1).parent
    out = tmp_path / "out.jsonl"
    with ScriptedServer() as one, ScriptedServer() as two:
        args = ["chunk", str(folder), "-s", "agentic", "-n", "40", "--no-llm-cache", "--resume", "-o", str(out)]
        assert CliRunner().invoke(cli, [*args, "--llm-model", "m", "--llm-base-url", one.url]).exit_code == 0
        (folder / "d1.txt").write_text(TEXT.replace("leaf", "leaves"), encoding="utf-8")
        res = CliRunner().invoke(cli, [*args, "--llm-model", "m", "--llm-base-url", two.url, "-p", "timeout=30"])
        assert res.exit_code == 0 and "changed" not in res.output, res.output
        ids = {json.loads(line)["document_id"] for line in out.read_text(encoding="utf-8").splitlines()}
        assert len(ids) == 2
        before = out.read_bytes()
        res = CliRunner().invoke(cli, [*args, "--llm-model", "other", "--llm-base-url", two.url])
        # another model: other chunks, another config_id: refused before any work
        assert res.exit_code == 2 and "written with other chunking options" in res.output
        assert out.read_bytes() == before
