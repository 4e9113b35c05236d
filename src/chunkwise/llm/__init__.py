"""LLM-assisted chunking through any OpenAI-compatible chat endpoint.

* :class:`ChatClient`: the chat completions protocol over ``httpx`` (``pip install
  'chunkwise[llm]'``), with a disk cache (:class:`ResponseCache`), retries with
  exponential backoff, a bounded thread pool and an :meth:`~ChatClient.estimate` of
  tokens and cost before anything is sent.
* The strategies ``agentic`` (:mod:`chunkwise.chunkers.agentic`) and ``propositions``
  (:mod:`chunkwise.chunkers.propositions`), and :func:`contextualize` for any strategy.
* Prompts: ``chunkwise/llm/prompts/*.txt``, overridable (:func:`load_prompt`).

Nothing a model returns becomes chunk text: answers name numbers, validated
(:mod:`chunkwise.llm.answers`); a proposition or a situating context goes to
``chunk.context``.
"""

from __future__ import annotations

from .answers import AnswerError, parse_cuts, parse_propositions
from .cache import ResponseCache
from .client import ChatClient, Estimate, LLMError, count_tokens
from .contextualize import contextualize, contextualize_requests, estimate_contextualize
from .prompts import load_prompt, render_prompt

__all__ = [
    "AnswerError",
    "ChatClient",
    "Estimate",
    "LLMError",
    "ResponseCache",
    "contextualize",
    "contextualize_requests",
    "count_tokens",
    "estimate_contextualize",
    "load_prompt",
    "parse_cuts",
    "parse_propositions",
    "render_prompt",
]
