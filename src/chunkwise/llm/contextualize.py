"""Contextual retrieval: a chat model writes a short context situating each chunk in its
document, stored in ``chunk.context`` (before any context the strategy gave, such as a
header breadcrumb). An enrichment step after chunking, for any strategy.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..types import Chunk, Document
from .client import ChatClient, Estimate, Message
from .options import FALLBACK_KEY
from .prompts import load_prompt, render_prompt

log = logging.getLogger(__name__)

__all__ = [
    "DOCUMENT_CHARS",
    "MAX_CONTEXT_CHARS",
    "Contextualized",
    "contextualize",
    "contextualize_requests",
    "estimate_contextualize",
    "valid_answer",
]

DOCUMENT_CHARS = 24_000
"""The most characters of the document shown with each chunk (a longer document is shown
as the part around the chunk)."""

MAX_CONTEXT_CHARS = 1_000
"""An answer longer than this is cut at the last whitespace before it."""


def _excerpt(text: str, chunk: Chunk, limit: int) -> str:
    if len(text) <= limit:
        return text
    mid = (chunk.start_index + chunk.end_index) // 2
    a = max(0, min(mid - limit // 2, len(text) - limit))
    return ("[...]\n" if a else "") + text[a : a + limit] + ("\n[...]" if a + limit < len(text) else "")


def contextualize_requests(
    chunks: Sequence[Chunk],
    document: Document | str,
    *,
    prompt: str | Path | None = None,
    document_chars: int = DOCUMENT_CHARS,
) -> list[list[Message]]:
    """The request :func:`contextualize` sends for each chunk, unsent."""
    text = document.text if isinstance(document, Document) else document
    template = load_prompt("contextualize", prompt)
    return [
        [{"role": "user", "content": render_prompt(template, document=_excerpt(text, c, document_chars), chunk=c.text)}]
        for c in chunks
    ]


def _clean(answer: str) -> str:
    out = " ".join(answer.split())
    if len(out) > MAX_CONTEXT_CHARS:
        cut = out.rfind(" ", 0, MAX_CONTEXT_CHARS)
        out = out[: cut if cut > 0 else MAX_CONTEXT_CHARS]
    return out


def contextualize(
    chunks: Sequence[Chunk],
    document: Document | str,
    client: ChatClient,
    *,
    prompt: str | Path | None = None,
    document_chars: int = DOCUMENT_CHARS,
    answer_retries: int = 1,
) -> list[Chunk]:
    """The chunks with a situating context from the model before their ``context``.

    Args:
        chunks: chunks of ``document`` (any strategy).
        document: the document they index into.
        client: the chat client (requests go ``client.concurrency`` at a time, through its
            cache).
        prompt: a template path or text with ``$document`` and ``$chunk`` (default: the
            packaged one, Anthropic's published prompt).
        document_chars: the most characters of the document shown per request.
        answer_retries: how many times a chunk whose answer is empty (or white space
            only) is asked again before it is left without a model context.

    Returns:
        New chunks, same order, text, offsets and ids; ``context`` is the model's answer
        (whitespace runs made single spaces, at most 1,000 characters), a newline, then
        the chunk's previous context; ``metadata["contextualized"]`` is True.
        The context is not counted in ``chunk_size``. A chunk whose answers stayed empty
        keeps its context, with ``metadata["contextualized"]`` False and
        ``metadata["llm_fallback"]`` True (an empty answer is never cached: a later run
        asks again).

    Raises:
        LLMError: the endpoint cannot be used (no server, a wrong URL, model or key, every
            one of the client's tries failed): no chunk is passed off as contextualized.
        ConfigError: an invalid prompt.

    Method:
        Contextual Retrieval (Anthropic, "Introducing Contextual Retrieval", 2024), with
        its prompt.
    """
    if isinstance(answer_retries, bool) or not isinstance(answer_retries, int) or answer_retries < 0:
        raise ConfigError(f"answer_retries must be an integer >= 0, not {answer_retries!r}")
    requests = contextualize_requests(chunks, document, prompt=prompt, document_chars=document_chars)

    def one(job: tuple[Chunk, list[Message]]) -> Chunk:
        c, msgs = job
        asked = list(msgs)
        for _ in range(answer_retries + 1):
            answer = client.chat(asked, valid=valid_answer)
            situated = _clean(answer)
            if situated:
                ctx = "\n".join(x for x in (situated, c.context) if x)
                return replace(c, context=ctx, metadata={**c.metadata, "contextualized": True})
            log.info("empty context answer for chunk %d of %r; asking again", c.index, c.document_id)
            asked = [
                *msgs,
                {"role": "assistant", "content": answer},
                {"role": "user", "content": "That answer is empty. Answer again with the short context only."},
            ]
        log.warning("empty context answers for chunk %d of %r; left without a context", c.index, c.document_id)
        return replace(c, metadata={**c.metadata, "contextualized": False, FALLBACK_KEY: True})

    return client.map(one, list(zip(chunks, requests)))


def valid_answer(answer: str) -> bool:
    """Whether a contextualizing answer is usable: it holds a character that is not
    white space (an empty answer is asked again, never cached)."""
    return bool(answer.strip())


def estimate_contextualize(
    chunks: Sequence[Chunk], document: Document | str, client: ChatClient, *, prompt: str | Path | None = None
) -> Estimate:
    """Requests, tokens and cost of :func:`contextualize` on ``chunks`` (answers estimated
    at 80 tokens), sending nothing."""
    reqs = contextualize_requests(chunks, document, prompt=prompt)
    return client.estimate(reqs, [80] * len(reqs), valid=valid_answer)


@dataclass(frozen=True)
class Contextualized:
    """A chunker whose chunks get a situating context from a chat model
    (:func:`contextualize` after ``chunker.chunk``): what ``chunkwise index build
    --contextualize`` indexes.

    Args:
        chunker: any chunker.
        client: the chat client.
        answer_retries: as :func:`contextualize`'s.

    Its ``repr`` (an index's chunking configuration, through
    :func:`chunkwise.llm.options.config_repr`) names the chunker and the chat model, not
    the endpoint. Pickles when the chunker and the client do.
    """

    chunker: Any
    client: ChatClient
    answer_retries: int = 1

    def chunk(self, document: Document | str) -> list[Chunk]:
        """``contextualize(chunker.chunk(document), document, client)``.

        Raises:
            LLMError: the endpoint cannot be used (see :func:`contextualize`).
        """
        from ..chunkers.base import as_document

        doc = as_document(document)
        return contextualize(self.chunker.chunk(doc), doc, self.client, answer_retries=self.answer_retries)
