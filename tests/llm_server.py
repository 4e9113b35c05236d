"""A local stand-in for an OpenAI-compatible chat endpoint, with scripted answers (tests
never touch the network).

* :class:`ScriptedServer`: a real HTTP server on 127.0.0.1 in a thread, speaking
  ``POST /v1/chat/completions``; it counts requests and answers by a script of modes.
* :func:`scripted_client`: a :class:`chunkwise.llm.ChatClient` whose transport calls the
  same responder in process (``httpx.MockTransport``), for fast property tests.

Modes (what one request gets):

* ``valid``: a well-formed answer computed from the prompt (agentic: every second
  candidate cut; propositions: one proposition per sentence and one per pair; contextualize:
  a sentence naming the chunk's first words);
* ``empty``: white space only; ``malformed``: text that is not JSON; ``out_of_range``: numbers outside 1..n;
  ``unordered``: decreasing numbers; ``wrong_types``: strings, floats and booleans
  where integers belong; ``wrong_shape``: JSON of another shape;
* ``slow``: the valid answer after ``slow_seconds`` (longer than the client's timeout);
* ``error``: status 500; ``busy``: status 429 with ``Retry-After: 0``; ``bad_request``:
  status 400 (not retried);
* ``flaky`` (:class:`HashedModes` only): status 500 the first time a request is seen, the
  valid answer when it is sent again (a retry that succeeds).

A server that keeps failing (``error``, ``busy``, ``slow`` past every retry, ``bad_request``)
makes a run fail with :class:`chunkwise.llm.LLMError`; only invalid answers
(:data:`BAD_ANSWERS`) fall back.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODES = (
    "valid", "empty", "malformed", "out_of_range", "unordered", "wrong_types", "wrong_shape",
    "slow", "error", "busy", "bad_request",
)
BAD_ANSWERS = ("malformed", "out_of_range", "unordered", "wrong_types", "wrong_shape")
ANSWER_MODES = ("valid", *BAD_ANSWERS, "flaky")
"""What a run survives: answers valid or not, and failures that a retry cures."""

_N = re.compile(r"between 1 and (\d+)")
_SENTENCE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)
_CHUNK = re.compile(r"<chunk>\n(.*)\n</chunk>", re.DOTALL)


def task_of(prompt: str) -> str:
    """``agentic``, ``propositions`` or ``contextualize``, from the packaged prompts' words."""
    if "Candidate cut points" in prompt:
        return "agentic"
    if "SENTENCES:" in prompt:
        return "propositions"
    return "contextualize"


def answer_for(prompt: str, mode: str) -> str:
    """The content of the assistant's message for ``prompt`` under an answer ``mode``."""
    if mode == "empty":  # nothing but white space: an invalid answer for every task
        return " \n "
    task = task_of(prompt)
    found = _N.search(prompt)
    n = int(found.group(1)) if found else 0
    if mode == "malformed":
        return "Sure! I would cut at 2 and 4, {cuts: [2, 4"
    if mode == "wrong_shape":
        return json.dumps({"answer": "cut everything"} if task != "propositions" else {"propositions": "all of it"})
    if task == "agentic":
        if mode == "out_of_range":
            return json.dumps({"cuts": [0, n + 5]})
        if mode == "unordered":
            return json.dumps({"cuts": [max(n, 2), 1]})
        if mode == "wrong_types":
            return json.dumps({"cuts": ["2", 1.5, True]})
        return json.dumps({"cuts": list(range(2, n + 1, 2))})
    if task == "propositions":
        sentences = {int(k): s for k, s in _SENTENCE.findall(prompt)}
        if mode == "out_of_range":
            return json.dumps({"propositions": [{"text": "An invented fact.", "sentences": [n + 3]}]})
        if mode == "unordered":
            return json.dumps({"propositions": [{"text": "Backwards.", "sentences": [max(n, 2), 1]}]})
        if mode == "wrong_types":
            return json.dumps({"propositions": [{"text": 7, "sentences": ["1"]}]})
        props = []
        for i in range(1, n + 1):
            props.append({"text": f"Proposition {i}: " + " ".join(sentences.get(i, "").split()[:6]), "sentences": [i]})
            if i % 2 == 0:
                props.append({"text": f"Sentences {i - 1} and {i} together say something.", "sentences": [i - 1, i]})
        # an answer that tries to smuggle text: it must end up in context, never in text
        return "```json\n" + json.dumps({"propositions": props}) + "\n```"
    chunk = _CHUNK.search(prompt)
    words = " ".join(chunk.group(1).split()[:4]) if chunk else ""
    return f"This chunk, which begins with {words!r}, is part of the test document."


def completion(content: str, model: str) -> dict[str, Any]:
    """A chat completion object as OpenAI's API returns it."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def respond(body: dict[str, Any], mode: str) -> tuple[int, dict[str, str], bytes]:
    """``(status, headers, body)`` of the answer to a request body under ``mode``."""
    if mode == "error":
        return 500, {"Content-Type": "application/json"}, b'{"error": {"message": "internal error"}}'
    if mode == "busy":
        return 429, {"Content-Type": "application/json", "Retry-After": "0"}, b'{"error": {"message": "rate limited"}}'
    if mode == "bad_request":
        return 400, {"Content-Type": "application/json"}, b'{"error": {"message": "model not found"}}'
    prompt = body["messages"][-1]["content"] if body["messages"][-1]["role"] == "user" else ""
    if len(body["messages"]) > 1:  # a retry with the reason: answer the original task validly
        prompt = body["messages"][0]["content"]
    content = answer_for(prompt, "valid" if mode == "slow" else mode)
    return 200, {"Content-Type": "application/json"}, json.dumps(completion(content, body.get("model", ""))).encode()


class ScriptedServer:
    """An OpenAI-compatible chat server on 127.0.0.1 (a thread), answering by a script.

    Args:
        script: modes for the first requests, in order of arrival.
        default: the mode once the script is used up.
        slow_seconds: how long a ``slow`` answer waits.

    Attributes:
        url: the base URL to give a client (``http://127.0.0.1:PORT/v1``).
        requests: how many chat requests arrived; ``bodies``: their JSON bodies.

    Use as a context manager (the server stops on exit).
    """

    def __init__(self, script: Iterable[str] = (), default: str = "valid", slow_seconds: float = 1.0) -> None:
        self.script = list(script)
        self.default = default
        self.slow_seconds = slow_seconds
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                if self.path != "/v1/chat/completions":
                    self.send_response(404)
                    self.end_headers()
                    return
                with owner._lock:
                    owner.requests += 1
                    owner.bodies.append(body)
                    mode = owner.script.pop(0) if owner.script else owner.default
                if mode == "slow":
                    time.sleep(owner.slow_seconds)
                status, headers, payload = respond(body, mode)
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HashedModes:
    """An in-process responder: each request gets a mode chosen from ``modes`` by a hash
    of its messages (deterministic: the same request always gets the same mode; a retry
    with the reason appended is another request). Picklable."""

    def __init__(self, modes: Iterable[str] = MODES) -> None:
        self.modes = tuple(m for m in modes if m != "slow")
        self.requests = 0
        self.seen: set[bytes] = set()

    def __call__(self, request: Any) -> Any:
        import httpx

        body = json.loads(request.content)
        self.requests += 1
        digest = hashlib.blake2b(json.dumps(body["messages"]).encode("utf-8", "surrogatepass"), digest_size=4).digest()
        mode = self.modes[int.from_bytes(digest, "big") % len(self.modes)]
        if mode == "flaky":
            mode = "valid" if digest in self.seen else "error"
            self.seen.add(digest)
        status, headers, payload = respond(body, mode)
        return httpx.Response(status, headers=headers, content=payload)


def scripted_client(modes: Iterable[str] = ANSWER_MODES, **kwargs: Any) -> Any:
    """A :class:`chunkwise.llm.ChatClient` answered in process by :class:`HashedModes`
    (no socket), retrying without waiting. The default modes are those a run survives
    (:data:`ANSWER_MODES`)."""
    import httpx

    from chunkwise.llm import ChatClient

    kwargs.setdefault("backoff", 0.0)
    kwargs.setdefault("max_retries", 1)
    transport = httpx.MockTransport(HashedModes(modes))
    return ChatClient("scripted", base_url="http://scripted.invalid/v1", transport=transport, **kwargs)
