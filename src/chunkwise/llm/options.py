"""What the LLM strategies share: their configuration fields and the validated question.

:class:`LLMOptions` is a dataclass mixin for a chunker (``agentic``, ``propositions``):
the endpoint (``model``, ``base_url``, ``api_key``, or a ready ``client``), the prompt
override, the response cache, concurrency, timeouts and retries. :func:`ask` sends one
request and validates the answer, re-asking with the reason when it is invalid.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ConfigError
from .answers import AnswerError
from .client import ChatClient, Message
from .prompts import load_prompt

__all__ = ["ENDPOINT_FIELDS", "FALLBACK_KEY", "ConfigView", "LLMOptions", "ask", "config_repr"]

ENDPOINT_FIELDS = ("base_url", "api_key", "cache", "concurrency", "timeout", "max_retries")
"""The fields of :class:`LLMOptions` that say where and how the model is asked (not what
it is asked): the same answers come from any of their values."""

FALLBACK_KEY = "llm_fallback"
"""``metadata[FALLBACK_KEY]``: True on a chunk of a part of the document whose answers were
invalid after every retry (the strategy's fallback stands in for the model's choice),
False on the others."""

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class LLMOptions:
    """The endpoint and policies of a strategy that asks a chat model.

    Args:
        model: the chat model name (required unless ``client`` is given).
        base_url: the OpenAI-compatible API root (default ``$OPENAI_BASE_URL``, else
            OpenAI's); Ollama: ``http://localhost:11434/v1``.
        api_key: default ``$OPENAI_API_KEY`` (none for a local server).
        client: a ready :class:`~chunkwise.llm.ChatClient`; the fields above and the
            policies below are then its own (``model``, ``base_url``, ``api_key`` or
            ``cache`` that differ from the client's raise ``ConfigError``).
        prompt: the task's prompt: a path to a template file or the template text (see
            :mod:`chunkwise.llm.prompts`); None: the packaged one.
        cache: a file for the response cache (answers by model and request); None: none.
        concurrency: requests in flight at once.
        timeout: seconds to wait for one answer.
        max_retries: further tries after 429, 5xx or a timeout (exponential backoff);
            when every try fails the chunker raises :class:`~chunkwise.llm.LLMError`.
        answer_retries: how many times a request whose answer is invalid is asked again,
            with the reason, before the strategy falls back for that part (its chunks then
            carry ``metadata["llm_fallback"]`` True; the invalid answers are not cached).

    The endpoint fields (``base_url``, ``api_key``, ``cache``, ``concurrency``,
    ``timeout``, ``max_retries``, or the client's) say where and how the model is asked,
    not how the text is chunked: :data:`ENDPOINT_FIELDS`, left out of an index's
    chunking configuration (the model's name stays in it).
    """

    model: str | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    client: Any = None
    prompt: str | None = None
    cache: str | None = None
    concurrency: int = 4
    timeout: float = 60.0
    max_retries: int = 4
    answer_retries: int = 1

    def _llm_setup(self, task: str) -> None:
        template = load_prompt(task, self.prompt)  # a bad prompt is named before the endpoint
        if self.client is not None:
            if not callable(getattr(self.client, "chat", None)):
                raise ConfigError(f"client must be a chunkwise.llm.ChatClient, not {type(self.client).__name__}")
            client = self.client
            clash = [
                name
                for name, mine, theirs in (
                    ("model", self.model, client.model),
                    ("base_url", self.base_url and self.base_url.rstrip("/"), client.base_url),
                    ("api_key", self.api_key, client.api_key),
                    ("cache", self.cache, None),
                )
                if mine is not None and mine != theirs
            ]
            if clash:
                raise ConfigError(
                    f"{', '.join(clash)} given with client=, which has its own; set them on the client "
                    "(chunkwise.llm.ChatClient) or leave client out"
                )
        else:
            if not self.model:
                raise ConfigError(
                    f"strategy {task!r} needs model= (the chat model the server serves, for example "
                    "'gpt-4o-mini', or 'llama3.1' with base_url='http://localhost:11434/v1' for Ollama) or client="
                )
            client = ChatClient(
                self.model,
                base_url=self.base_url,
                api_key=self.api_key,
                cache=Path(self.cache) if self.cache else None,
                timeout=self.timeout,
                max_retries=self.max_retries,
                concurrency=self.concurrency,
            )
        if isinstance(self.answer_retries, bool) or not isinstance(self.answer_retries, int) or self.answer_retries < 0:
            raise ConfigError(f"answer_retries must be an integer >= 0, not {self.answer_retries!r}")
        object.__setattr__(self, "_client", client)
        object.__setattr__(self, "_template", template)

    @property
    def llm(self) -> ChatClient:
        """The chat client this chunker sends its requests through."""
        return self._client  # type: ignore[attr-defined,no-any-return]


def ask(
    client: ChatClient, messages: Sequence[Message], parse: Callable[[str], T], retries: int
) -> tuple[T | None, str]:
    """Send ``messages``; parse the answer; when ``parse`` raises :class:`AnswerError`, ask
    again up to ``retries`` times with the invalid answer and the reason appended.

    Only a valid answer is cached (:meth:`ChatClient.chat`'s ``valid``): an invalid one is
    asked again by a later run.

    Returns:
        ``(value, "model")``, or ``(None, "invalid answer")`` when every answer was
        invalid: the caller falls back (the detail is logged).

    Raises:
        LLMError: the endpoint cannot be used: no server, a wrong URL, model or key, or
            every try failed (overloaded, erroring or slow past ``max_retries``). A
            run must not pass off a fallback as the model's choice for such a failure.
    """

    def valid(answer: str) -> bool:
        try:
            parse(answer)
        except AnswerError:
            return False
        return True

    msgs = list(messages)
    reason = ""
    for _ in range(retries + 1):
        answer = client.chat(msgs, valid=valid)
        try:
            return parse(answer), "model"
        except AnswerError as exc:
            reason = str(exc)
            log.info("invalid answer (%s); asking again", reason)
            msgs = [
                *messages,
                {"role": "assistant", "content": answer},
                {"role": "user", "content": f"That answer is not valid: {reason}. Answer again with the JSON only."},
            ]
    log.warning("invalid answers (last: %s), falling back", reason)
    return None, "invalid answer"


def config_repr(value: Any) -> str:
    """``repr(value)`` without where and how a chat model is asked: for a configuration
    key (an index's chunking configuration, the content ids of ``chunkwise chunk``).

    An LLM strategy's :data:`ENDPOINT_FIELDS` and its ``model``/``client`` are replaced by
    ``llm=ChatClient(model, temperature=..., max_tokens=...)`` -- the same whether the
    model came as ``model=`` or in a client, and whatever server serves it; a chat client
    anywhere inside (a hierarchy's ``client``, ``base_params``) likewise. The plain
    ``repr`` of anything that holds no chat model.
    """
    import dataclasses

    if isinstance(value, ChatClient):
        return f"ChatClient({value.model!r}, temperature={value.temperature!r}, max_tokens={value.max_tokens!r})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not _holds_llm(value):
            return repr(value)
        llm = isinstance(value, LLMOptions)
        skip = (*ENDPOINT_FIELDS, "model", "client") if llm else ()
        parts = [
            f"{f.name}={config_repr(getattr(value, f.name))}"
            for f in dataclasses.fields(value)
            if f.repr and f.name not in skip
        ]
        if llm:
            parts.append(f"llm={config_repr(value.llm)}")  # type: ignore[attr-defined]
        return f"{type(value).__qualname__}({', '.join(parts)})"
    if isinstance(value, dict) and _holds_llm(value):
        return "{" + ", ".join(f"{k!r}: {config_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)) and _holds_llm(value):
        inner = ", ".join(config_repr(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def _holds_llm(value: Any) -> bool:
    """Whether ``value`` is or holds (in fields, mappings, sequences) a chat client or an
    LLM strategy's options."""
    import dataclasses

    if isinstance(value, (ChatClient, LLMOptions)):
        return True
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_holds_llm(getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr)
    if isinstance(value, dict):
        return any(_holds_llm(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_llm(v) for v in value)
    return False


class ConfigView:
    """A chunker whose ``repr`` is :func:`config_repr`'s (for
    :func:`chunkwise.corpus.config_key`): the content ids of ``chunkwise chunk --resume``
    do not change with the endpoint of the same model."""

    def __init__(self, chunker: Any) -> None:
        self.chunker = chunker

    def __repr__(self) -> str:
        return config_repr(self.chunker)
