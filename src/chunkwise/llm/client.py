"""A small client for any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp's
server, LM Studio, ...): ``POST {base_url}/chat/completions``.

Why ``httpx`` and not the ``openai`` package: chunkwise sends one request shape to one
endpoint, and needs its own control of what is retried (429, 5xx, timeouts), of the cache
key and of the answer's validation. ``httpx`` is the HTTP library the ``openai`` package is
built on (well kept, thread-safe connection pool, per-request timeouts, a mock transport
for tests), without the SDK's pydantic models and async machinery.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ChunkwiseError, ConfigError, MissingDependencyError
from .cache import ResponseCache, request_key

__all__ = ["DEFAULT_BASE_URL", "ChatClient", "Estimate", "LLMError", "Message", "count_tokens"]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
"""The endpoint when neither ``base_url`` nor ``OPENAI_BASE_URL`` is given."""

Message = Mapping[str, str]
"""One chat message: ``{"role": "system" | "user" | "assistant", "content": str}``."""

T = TypeVar("T")
R = TypeVar("R")

_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class LLMError(ChunkwiseError):
    """A chat request failed.

    Every ``LLMError`` means the endpoint cannot be used (nothing is cached): the LLM
    strategies and :func:`~chunkwise.llm.contextualize` raise it to the caller rather than
    fall back, so that a run never passes off the fallback's chunks as the model's. Only
    an answer that arrives and is invalid (:class:`~chunkwise.llm.AnswerError`, after the
    strategy's ``answer_retries``) falls back, for that part of the document.

    Attributes:
        transient: the server was overloaded or slow (429, 5xx, a timeout) on every try
            (``max_retries`` more tries with backoff). False for what retrying cannot fix
            (a wrong URL, model or key: 4xx; no server listening; an answer that is not a
            chat completion).
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


@dataclass(frozen=True)
class Estimate:
    """What a run would send, counted before anything is sent.

    Attributes:
        requests: chat requests a run makes (first tries; a retried bad answer adds one).
        cached: how many of them the cache already answers (they cost nothing).
        input_tokens, output_tokens: tokens of the requests not cached (output: an
            estimate from the task), counted with ``tokenizer``.
        tokenizer: what counted them: ``"cl100k_base"``, or ``"chars/4"`` without the
            ``tokens`` extra.
        cost_usd: ``input_tokens`` and ``output_tokens`` at the client's prices (USD per
            million tokens); None when no price was given.
    """

    requests: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokenizer: str = "chars/4"
    cost_usd: float | None = None

    def __add__(self, other: Estimate) -> Estimate:
        cost = None
        if self.cost_usd is not None or other.cost_usd is not None:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Estimate(
            self.requests + other.requests,
            self.cached + other.cached,
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            other.tokenizer if other.requests else self.tokenizer,
            cost,
        )

    def __str__(self) -> str:
        cost = "no price given (--llm-price IN,OUT)" if self.cost_usd is None else f"${self.cost_usd:.4f}"
        return (
            f"{self.requests} request{'' if self.requests == 1 else 's'} ({self.cached} cached), about "
            f"{self.input_tokens} input and "
            f"{self.output_tokens} output tokens ({self.tokenizer}); cost {cost}"
        )


def count_tokens(text: str) -> tuple[int, str]:
    """``(tokens, counter)``: cl100k_base tokens when the ``tokens`` extra is installed,
    else ``ceil(len(text) / 4)`` (the usual rule of thumb for English)."""
    try:
        from ..sizers import get_sizer

        return get_sizer("tokens", "cl100k_base").count(text), "cl100k_base"
    except (ImportError, ChunkwiseError):
        return -(-len(text) // 4), "chars/4"


def _env_float(value: float | None, default: float) -> float:
    return default if value is None else float(value)


class ChatClient:
    """Chat completions against an OpenAI-compatible endpoint, with a disk cache, retries
    and a bounded thread pool.

    Args:
        model: the model name the server knows (``"gpt-4o-mini"``, ``"llama3.1"`` on
            Ollama, the served model on vLLM).
        base_url: the API root, ending in ``/v1`` for most servers (Ollama:
            ``http://localhost:11434/v1``; vLLM and llama.cpp: ``http://localhost:8000/v1``).
            Default: ``$OPENAI_BASE_URL``, else OpenAI's (which needs a key: without a
            key and without a base URL the client is refused).
        api_key: sent as ``Authorization: Bearer``. Default: ``$OPENAI_API_KEY``; none
            is sent when both are empty (local servers need none).
        cache: a :class:`ResponseCache` or a path for one (answers by model and request);
            None: no cache.
        timeout: seconds to wait for one answer (connect, read, write).
        max_retries: further tries of a request that got 429, a 5xx status or a timeout.
        backoff: the first wait before a retry, in seconds; doubled at each retry (with
            jitter, at most ``max_backoff``); a ``Retry-After`` header (seconds) wins.
        max_backoff: the longest wait between tries, in seconds.
        concurrency: requests in flight at once (the size of the thread pool), >= 1.
        temperature: sampling temperature sent with each request (0: as repeatable as
            the server allows).
        max_tokens: the most tokens of an answer (None: the server's default).
        price_input, price_output: USD per million input / output tokens, for
            :meth:`estimate` (None: no cost figure).
        transport: an ``httpx`` transport (tests: ``httpx.MockTransport``).

    Attributes:
        requests: HTTP requests sent (retries included); ``cache_hits``: answers read from
            the cache.

    Raises:
        ConfigError: an empty model or an invalid number; neither a base URL
            (``base_url``, ``$OPENAI_BASE_URL``) nor a key (``api_key``,
            ``$OPENAI_API_KEY``): the default endpoint, OpenAI's, would refuse every request.
        MissingDependencyError: ``httpx`` is not installed (``pip install 'chunkwise[llm]'``),
            when the first request is sent.

    Method:
        The OpenAI chat completions protocol; exponential backoff with jitter as in
        the AWS Architecture Blog, "Exponential Backoff And Jitter" (2015).

    Example:
        >>> client = ChatClient("llama3.1", base_url="http://localhost:11434/v1")
        >>> client.estimate([[{"role": "user", "content": "Hello"}]]).requests
        1
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        cache: ResponseCache | str | Path | None = None,
        timeout: float = 60.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        concurrency: int = 4,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        price_input: float | None = None,
        price_output: float | None = None,
        transport: Any = None,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(
                f"model must name the chat model the server serves (for example 'gpt-4o-mini', or "
                f"'llama3.1' on Ollama), not {model!r}"
            )
        for name, value in (("timeout", timeout), ("backoff", backoff), ("max_backoff", max_backoff)):
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if not number or value < 0 or (name == "timeout" and value == 0):
                raise ConfigError(f"{name} must be a positive number of seconds, not {value!r}")
        for name, ivalue, ilow in (("max_retries", max_retries, 0), ("concurrency", concurrency, 1)):
            if not isinstance(ivalue, int) or isinstance(ivalue, bool) or ivalue < ilow:
                raise ConfigError(f"{name} must be an integer >= {ilow}, not {ivalue!r}")
        self.model = model
        given_url = base_url or os.environ.get("OPENAI_BASE_URL")
        self.base_url = (given_url or DEFAULT_BASE_URL).rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY") or None
        if not given_url and not self.api_key:
            raise ConfigError(
                f"no endpoint for the chat model {model!r}: without base_url the client would call OpenAI "
                f"({DEFAULT_BASE_URL}), which needs a key; set OPENAI_API_KEY, or give the server's URL "
                "(--llm-base-url URL, base_url=, or OPENAI_BASE_URL; Ollama: http://localhost:11434/v1)"
            )
        self.cache = cache if isinstance(cache, ResponseCache) or cache is None else ResponseCache(cache)
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.concurrency = concurrency
        self.temperature = float(temperature)
        self.max_tokens = max_tokens
        self.price_input = price_input
        self.price_output = price_output
        self.transport = transport
        self.requests = 0
        self.cache_hits = 0
        self._lock = threading.Lock()
        self._http: Any = None

    # -- values travel ------------------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        # the connection pool and the lock are rebuilt; the cache reopens its file
        kwargs = {
            "base_url": self.base_url,
            "api_key": self.api_key,
            "cache": self.cache,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "backoff": self.backoff,
            "max_backoff": self.max_backoff,
            "concurrency": self.concurrency,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "price_input": self.price_input,
            "price_output": self.price_output,
            "transport": self.transport,
        }
        return (_rebuild_client, (self.model, kwargs))

    def _config(self) -> tuple[Any, ...]:
        cache = None if self.cache is None else self.cache.path
        return (
            self.model, self.base_url, self.api_key, cache, self.timeout, self.max_retries, self.backoff,
            self.max_backoff, self.concurrency, self.temperature, self.max_tokens, self.price_input,
            self.price_output, id(self.transport) if self.transport is not None else None,
        )

    def __eq__(self, other: object) -> bool:
        # a value: two clients of the same configuration are equal (a pickled copy too)
        return isinstance(other, ChatClient) and self._config() == other._config()

    def __hash__(self) -> int:
        return hash(self._config())

    def __repr__(self) -> str:
        return f"ChatClient({self.model!r}, base_url={self.base_url!r}, cache={self.cache!r})"

    # -- requests -------------------------------------------------------------------------

    def _settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"temperature": self.temperature}
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        return out

    def _client(self) -> Any:
        with self._lock:
            if self._http is None:
                try:
                    import httpx
                except ImportError:
                    raise MissingDependencyError("httpx", "llm", "an OpenAI-compatible chat endpoint") from None
                headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
                self._http = httpx.Client(
                    base_url=self.base_url,
                    headers=headers,
                    timeout=self.timeout,
                    transport=self.transport,
                    limits=httpx.Limits(max_connections=self.concurrency),
                )
            return self._http

    def close(self) -> None:
        """Close the connection pool (a later request opens a new one)."""
        with self._lock:
            if self._http is not None:
                self._http.close()
                self._http = None

    def chat(self, messages: Sequence[Message], *, valid: Callable[[str], bool] | None = None) -> str:
        """The assistant's answer to ``messages`` (from the cache when it holds it).

        Args:
            messages: the chat messages.
            valid: when given, only an answer for which it returns True is cached, and a
                cached answer for which it returns False is asked again (an invalid answer
                is never kept: a later run asks the model again).

        Returns:
            The text of the first choice's message.

        Raises:
            LLMError: every try failed (``transient`` says whether the server was only
                overloaded or slow), or the answer is not a chat completion.
        """
        msgs = [{"role": str(m["role"]), "content": str(m["content"])} for m in messages]
        key = request_key(self.model, msgs, self._settings())
        if self.cache is not None:
            hit = self.cache.get(self.model, key)
            if hit is not None and (valid is None or valid(hit)):
                with self._lock:
                    self.cache_hits += 1
                return hit
        answer = self._send(msgs)
        if self.cache is not None and (valid is None or valid(answer)):
            self.cache.put(self.model, key, answer)
        return answer

    def _send(self, msgs: list[dict[str, str]]) -> str:
        http = self._client()  # raises MissingDependencyError without httpx
        import httpx

        body = {"model": self.model, "messages": msgs, **self._settings()}
        last = ""
        for attempt in range(self.max_retries + 1):
            wait: float | None = None
            with self._lock:
                self.requests += 1
            try:
                resp = http.post("/chat/completions", json=body)
            except httpx.TimeoutException:
                last = f"no answer within {self.timeout:g} s"
            except httpx.TransportError as exc:
                raise LLMError(
                    f"cannot reach the chat endpoint {self.base_url} ({exc.__class__.__name__}: {exc}); is the "
                    "server running? give its URL with --llm-base-url (base_url=, OPENAI_BASE_URL)"
                ) from exc
            else:
                if resp.status_code == 200:
                    return _content(resp, self.base_url)
                detail = resp.text[:300].strip()
                if resp.status_code not in _RETRY_STATUS:
                    hint = " (check the key: api_key or OPENAI_API_KEY)" if resp.status_code in (401, 403) else ""
                    raise LLMError(f"{self.base_url}/chat/completions answered {resp.status_code}{hint}: {detail}")
                last = f"status {resp.status_code}: {detail}"
                wait = _retry_after(resp.headers.get("retry-after"))
            if attempt == self.max_retries:
                break
            delay = min(self.max_backoff, self.backoff * 2**attempt) * (0.5 + random.random() / 2)  # noqa: S311
            if wait is not None:  # the server said when to come back
                delay = min(wait, self.max_backoff)
            log.info("chat request failed (%s); retry %d in %.2f s", last, attempt + 1, delay)
            time.sleep(delay)
        raise LLMError(
            f"the chat endpoint {self.base_url}/chat/completions failed {_times(self.max_retries + 1)}; last: {last} "
            "(more tries or a longer wait: max_retries=N, timeout=SECONDS; on the command line -p max_retries=N "
            "-p timeout=SECONDS)",
            transient=True,
        )

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        """``[fn(item) for item in items]`` on at most ``concurrency`` threads, in order.

        Raises:
            Whatever ``fn`` raises first (in the order of ``items``).
        """
        work = list(items)
        if self.concurrency == 1 or len(work) <= 1:
            return [fn(x) for x in work]
        workers = min(self.concurrency, len(work))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="chunkwise-llm") as pool:
            return list(pool.map(fn, work))

    def estimate(
        self,
        requests: Iterable[Sequence[Message]],
        output_tokens: Iterable[int] | None = None,
        *,
        valid: Callable[[str], bool] | None = None,
    ) -> Estimate:
        """Count what sending ``requests`` would cost, sending nothing.

        Args:
            requests: the message lists a run would send.
            output_tokens: the expected answer length of each request, in tokens
                (default 100 each).
            valid: as :meth:`chat`'s: a cached answer for which it returns False is
                not counted as cached (a run asks again).

        Returns:
            An :class:`Estimate`; requests the cache answers count as ``cached`` only.
        """
        reqs = [list(r) for r in requests]
        outs = list(output_tokens) if output_tokens is not None else [100] * len(reqs)
        n_in = n_out = cached = 0
        counter = count_tokens("")[1]  # named even when every request is cached
        for msgs, out in zip(reqs, outs):
            norm = [{"role": str(m["role"]), "content": str(m["content"])} for m in msgs]
            if self.cache is not None:
                hit = self.cache.get(self.model, request_key(self.model, norm, self._settings()))
                if hit is not None and (valid is None or valid(hit)):
                    cached += 1
                    continue
            for m in norm:
                n, counter = count_tokens(m["content"])
                n_in += n + 4  # the chat format's few tokens per message
            n_out += out
        cost = None
        if self.price_input is not None or self.price_output is not None:
            cost = (n_in * (self.price_input or 0.0) + n_out * (self.price_output or 0.0)) / 1e6
        return Estimate(len(reqs), cached, n_in, n_out, counter, cost)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _rebuild_client(model: str, kwargs: dict[str, Any]) -> ChatClient:
    return ChatClient(model, **kwargs)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _content(resp: Any, base_url: str) -> str:
    try:
        data = resp.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise LLMError(f"{base_url} answered 200 but not a chat completion: {resp.text[:200]!r}") from None
    if content is None:
        return ""
    if not isinstance(content, str):
        raise LLMError(f"{base_url} answered a message whose content is not text: {content!r:.200}")
    return content
