"""The chat client against a local scripted server: answers, retries with backoff on 429,
5xx and timeouts, errors that are not retried, the disk cache, estimates, concurrency,
environment variables, prompts and answer validation. No network: 127.0.0.1 only."""

from __future__ import annotations

import json
import pickle
import socket
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("httpx")
import httpx
from llm_server import ScriptedServer, completion

from chunkwise.errors import ConfigError
from chunkwise.llm import (
    AnswerError,
    ChatClient,
    LLMError,
    ResponseCache,
    load_prompt,
    parse_cuts,
    parse_propositions,
)

HELLO = [{"role": "user", "content": "Candidate cut points [[1]] between 1 and 3"}]


@pytest.fixture
def server():
    with ScriptedServer() as s:
        yield s


def test_a_valid_answer_is_the_message_content(server):
    client = ChatClient("m", base_url=server.url)
    assert parse_cuts(client.chat(HELLO), 3) == [2]
    assert server.requests == 1
    body = server.bodies[0]
    assert body["model"] == "m" and body["messages"] == HELLO and body["temperature"] == 0.0


def test_429_and_500_are_retried_with_backoff(server):
    server.script = ["error", "busy", "valid"]
    client = ChatClient("m", base_url=server.url, backoff=0.01)
    assert parse_cuts(client.chat(HELLO), 3) == [2]
    assert server.requests == 3 and client.requests == 3


def test_retries_are_bounded_and_the_error_is_transient(server):
    server.default = "error"
    client = ChatClient("m", base_url=server.url, backoff=0.01, max_retries=2)
    with pytest.raises(LLMError, match="failed 3 times; last: status 500") as info:
        client.chat(HELLO)
    assert info.value.transient
    assert server.requests == 3
    once = ChatClient("m", base_url=server.url, backoff=0.01, max_retries=0)
    with pytest.raises(LLMError, match="failed once; last: status 500"):
        once.chat(HELLO)


def test_backoff_grows_exponentially():
    times: list[float] = []

    def handler(request):
        times.append(time.perf_counter())
        return httpx.Response(503, json={"error": "overloaded"})

    transport = httpx.MockTransport(handler)
    client = ChatClient("m", base_url="http://x.invalid/v1", backoff=0.05, max_retries=3, transport=transport)
    with pytest.raises(LLMError):
        client.chat(HELLO)
    gaps = [b - a for a, b in zip(times, times[1:])]
    # waits of 0.05, 0.1, 0.2 s, each with jitter in [50%, 100%]
    assert len(gaps) == 3
    assert gaps[0] >= 0.024 and gaps[1] >= 0.049 and gaps[2] >= 0.099
    assert gaps[2] > gaps[0]


def test_a_client_error_is_not_retried(server):
    server.default = "bad_request"
    client = ChatClient("m", base_url=server.url, backoff=0.01)
    with pytest.raises(LLMError, match="answered 400") as info:
        client.chat(HELLO)
    assert not info.value.transient
    assert server.requests == 1


def test_a_slow_answer_times_out_and_is_retried():
    with ScriptedServer(script=["slow"], slow_seconds=2.0) as server:
        client = ChatClient("m", base_url=server.url, timeout=0.3, backoff=0.01)
        t0 = time.perf_counter()
        assert parse_cuts(client.chat(HELLO), 3) == [2]
        assert time.perf_counter() - t0 < 1.5
        assert server.requests == 2


def test_no_server_listening_is_not_transient():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    client = ChatClient("m", base_url=f"http://127.0.0.1:{port}/v1", backoff=0.01)
    with pytest.raises(LLMError, match="is the server running") as info:
        client.chat(HELLO)
    assert not info.value.transient


def test_an_answer_that_is_not_a_completion_is_an_error():
    transport = httpx.MockTransport(lambda r: httpx.Response(200, text="<html>"))
    client = ChatClient("m", base_url="http://x.invalid/v1", transport=transport)
    with pytest.raises(LLMError, match="not a chat completion"):
        client.chat(HELLO)


def test_the_cache_answers_the_second_run_without_a_request(server, tmp_path):
    path = tmp_path / "llm.sqlite"
    first = ChatClient("m", base_url=server.url, cache=path)
    a = first.chat(HELLO)
    assert server.requests == 1
    second = ChatClient("m", base_url=server.url, cache=path)  # another process would see the same file
    assert second.chat(HELLO) == a
    assert server.requests == 1 and second.cache_hits == 1
    # another model or another input is a miss
    ChatClient("other", base_url=server.url, cache=path).chat(HELLO)
    second.chat([{"role": "user", "content": "between 1 and 4"}])
    assert server.requests == 3
    assert len(ResponseCache(path)) == 3


def test_failures_are_not_cached(server, tmp_path):
    server.script = ["error"]
    client = ChatClient("m", base_url=server.url, cache=tmp_path / "c.sqlite", max_retries=0)
    with pytest.raises(LLMError):
        client.chat(HELLO)
    client.chat(HELLO)
    assert server.requests == 2


def test_estimate_counts_tokens_and_cost_and_sends_nothing(server, tmp_path):
    client = ChatClient("m", base_url=server.url, cache=tmp_path / "c.sqlite", price_input=1.0, price_output=2.0)
    requests = [HELLO, [{"role": "user", "content": "between 1 and 4 " * 50}]]
    est = client.estimate(requests, [10, 20])
    assert server.requests == 0
    assert est.requests == 2 and est.cached == 0 and est.output_tokens == 30
    assert est.input_tokens > 100
    assert est.cost_usd == pytest.approx((est.input_tokens * 1.0 + 30 * 2.0) / 1e6)
    client.chat(HELLO)
    again = client.estimate(requests, [10, 20])
    assert again.cached == 1 and again.output_tokens == 20 and again.input_tokens < est.input_tokens
    assert "2 requests (1 cached)" in str(again)


def test_map_keeps_order_and_bounds_concurrency():
    active = 0
    peak = 0
    lock = threading.Lock()

    def handler(request):
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.05)
        with lock:
            active -= 1
        content = json.loads(request.content)["messages"][0]["content"]
        return httpx.Response(200, json=completion(content.upper(), "m"))

    client = ChatClient("m", base_url="http://x.invalid/v1", concurrency=3, transport=httpx.MockTransport(handler))
    items = list(range(12))
    out = client.map(lambda i: client.chat([{"role": "user", "content": f"item {i:04d}"}]), items)
    assert out == [f"ITEM {i:04d}" for i in items]
    assert 1 < peak <= 3


def test_environment_variables_give_url_and_key(monkeypatch):
    seen = {}

    def handler(request):
        seen["url"] = str(request.url)
        seen["auth"] = request.headers.get("authorization")
        return httpx.Response(200, json=completion("ok", "m"))

    monkeypatch.setenv("OPENAI_BASE_URL", "http://local.invalid:1234/v1/")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    client = ChatClient("m", transport=httpx.MockTransport(handler))
    assert client.chat(HELLO) == "ok"
    assert seen == {"url": "http://local.invalid:1234/v1/chat/completions", "auth": "Bearer sk-test"}
    monkeypatch.delenv("OPENAI_API_KEY")
    ChatClient("m", transport=httpx.MockTransport(handler)).chat(HELLO)
    assert seen["auth"] is None  # a local server needs no key


def test_client_pickles_and_keeps_its_cache(server, tmp_path):
    client = ChatClient("m", base_url=server.url, cache=tmp_path / "c.sqlite", timeout=5, concurrency=2)
    client.chat(HELLO)
    copy = pickle.loads(pickle.dumps(client))
    assert (copy.model, copy.base_url, copy.timeout, copy.concurrency) == ("m", server.url, 5.0, 2)
    copy.chat(HELLO)
    assert server.requests == 1


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"model": ""}, "model must name the chat model"),
        ({"model": "m", "timeout": 0}, "timeout must be a positive number"),
        ({"model": "m", "max_retries": -1}, "max_retries must be an integer >= 0"),
        ({"model": "m", "concurrency": 0}, "concurrency must be an integer >= 1"),
    ],
)
def test_invalid_settings_raise_config_error(kwargs, fragment):
    model = kwargs.pop("model")
    with pytest.raises(ConfigError, match=fragment):
        ChatClient(model, **kwargs)


def test_importing_chunkwise_does_not_load_httpx():
    code = "import sys, chunkwise, chunkwise.cli, chunkwise.llm\nprint('httpx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- answers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "n", "cuts"),
    [
        ('{"cuts": [1, 3]}', 3, [1, 3]),
        ("[2]", 3, [2]),
        ('{"cuts": []}', 3, []),
        ('Here you go:\n```json\n{"cuts": [2, 3]}\n```', 3, [2, 3]),
        ('I chose {"cuts": [1]} because...', 2, [1]),
    ],
)
def test_valid_cut_answers(answer, n, cuts):
    assert parse_cuts(answer, n) == cuts


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        ("cut at 2 and 4", "not JSON"),
        ('{"cuts": [0]}', "outside 1..3"),
        ('{"cuts": [4]}', "outside 1..3"),
        ('{"cuts": [2, 2]}', "increasing"),
        ('{"cuts": [3, 1]}', "increasing"),
        ('{"cuts": ["2"]}', "not an integer"),
        ('{"cuts": [1.5]}', "not an integer"),
        ('{"cuts": [true]}', "not an integer"),
        ('{"cuts": 2}', "must be a list"),
        ('{"answer": [2]}', 'no "cuts" key'),
    ],
)
def test_invalid_cut_answers(answer, fragment):
    with pytest.raises(AnswerError, match=fragment):
        parse_cuts(answer, 3)


def test_proposition_answers_are_validated():
    ok = parse_propositions('{"propositions": [{"text": " Ann  flies.\\n", "sentences": [1, 2]}]}', 2)
    assert ok == [("Ann flies.", [1, 2])]
    for bad, fragment in [
        ('{"propositions": [{"text": "", "sentences": [1]}]}', 'no "text"'),
        ('{"propositions": [{"text": "x", "sentences": []}]}', "at least one"),
        ('{"propositions": [{"text": "x", "sentences": [3]}]}', "outside 1..2"),
        ('{"propositions": [{"text": "x"}]}', "must be a list"),
        ('{"propositions": ["x"]}', "not an object"),
        ('{"propositions": "x"}', "list of objects"),
        ("nope", "not JSON"),
    ]:
        with pytest.raises(AnswerError, match=fragment):
            parse_propositions(bad, 2)


# -- prompts ------------------------------------------------------------------------------


def test_packaged_prompts_and_overrides(tmp_path):
    for task, field in (("agentic", "$text"), ("propositions", "$sentences"), ("contextualize", "$chunk")):
        assert field in load_prompt(task)
    path = tmp_path / "mine.txt"
    path.write_text("Cut this: $text (up to $n)", encoding="utf-8")
    assert load_prompt("agentic", str(path)) == "Cut this: $text (up to $n)"
    assert load_prompt("agentic", "Inline $text") == "Inline $text"
    with pytest.raises(ConfigError, match="must hold \\$chunk"):
        load_prompt("contextualize", "No placeholder here $document")
    with pytest.raises(ConfigError, match="does not fill"):
        load_prompt("agentic", "$text and $nonsense")
    with pytest.raises(ConfigError, match="neither a file nor a template"):
        load_prompt("agentic", str(tmp_path / "missing.txt"))


def test_doctests_of_the_llm_modules():
    import doctest
    import importlib

    names = ["chunkwise.llm.client", "chunkwise.llm.cache", "chunkwise.llm.answers", "chunkwise.chunkers.agentic",
             "chunkwise.chunkers.propositions"]
    for name in names:
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0, name
        assert result.attempted > 0, name


def test_estimate_counts_in_the_singular_for_one():
    from chunkwise.llm import Estimate

    assert str(Estimate(1, 0, 5, 80)).startswith("1 request (0 cached)")
    assert str(Estimate(2, 1, 5, 80)).startswith("2 requests (1 cached)")
