"""Probe questions generated from a corpus by a chat model, for a corpus without labels.

:func:`generate_questions` samples passages of the corpus, asks an OpenAI-compatible chat
model (:class:`chunkwise.llm.ChatClient`) for one question per passage together with the
excerpts of the passage that answer it, and locates the excerpts in the document: each
question's references are those excerpts' character spans. An answer whose excerpts are
not in the passage is asked again with the reason (``answer_retries``) and then dropped.
:func:`write_questions` saves them as chunkwise's JSON lines (``load_questions`` reads them
back; ``chunkwise eval --questions``).

Generated questions are an approximation of a user's: the model sees the passage it asks
about, so its questions tend to reuse the passage's words, and each is answered inside one
passage. Scores on them rank configurations; their absolute values are not comparable with
those on questions written by people (README, "Measuring chunking"). No chat model is
reachable offline, so how closely the ranking on generated questions follows the ranking on
people's questions is not measured in this repository.

Method:
    Synthetic question generation with excerpt references, as in the generated part of
    Chroma's evaluation (Smith & Troynikov, "Evaluating Chunking Strategies for
    Retrieval", 2024, which also filtered the excerpts that do not match the corpus).
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..types import Chunk, Document
from .probes import Question

__all__ = ["MIN_PASSAGE_WORDS", "QUESTION_PROMPT", "generate_questions", "parse_question", "question_messages", "write_questions"]

QUESTION_PROMPT = """You write test questions for a search system over a collection of documents.

Read the passage below (from the document "{name}") and write ONE question that a user of
the system could ask and that the passage answers. The question must make sense on its own,
without the passage (name the subject; do not say "the passage" or "the text"). Then copy,
character for character, the shortest excerpts of the passage that answer the question
(one to three excerpts, each a sentence or part of one).

<passage>
{passage}
</passage>

Answer with JSON only, in this shape:
{{"question": "...", "excerpts": ["...", "..."]}}"""
"""The prompt: ``{name}`` (the document's name) and ``{passage}`` are filled in."""

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_SPACE = re.compile(r"\s+")


def question_messages(passage: str, name: str) -> list[dict[str, str]]:
    """The chat messages asking for one question about ``passage``."""
    return [{"role": "user", "content": QUESTION_PROMPT.format(name=name, passage=passage)}]


def _find(passage: str, excerpt: str) -> tuple[int, int] | None:
    """Offsets of ``excerpt`` in ``passage``: verbatim, else with runs of whitespace (and
    straight/curly quotes) matched loosely; None when absent."""
    i = passage.find(excerpt)
    if i >= 0:
        return i, i + len(excerpt)
    words = excerpt.split()
    if not words:
        return None
    quote = {"'": "['\u2018\u2019]", '"': '["\u201c\u201d]', "\u2019": "['\u2019]", "\u201c": '["\u201c]',
             "\u201d": '["\u201d]', "\u2018": "['\u2018]"}
    pattern = r"\s+".join("".join(quote.get(ch, re.escape(ch)) for ch in w) for w in words)
    m = re.search(pattern, passage)
    return (m.start(), m.end()) if m else None


def parse_question(answer: str, passage: str) -> tuple[str, list[tuple[int, int]]]:
    """The question and the excerpts' spans (offsets into ``passage``) of a model answer.

    Raises:
        chunkwise.llm.answers.AnswerError: not JSON of the expected shape, an empty
            question, no excerpt, or an excerpt that is not in the passage (the message
            says which, for the model to try again).
    """
    from ..llm.answers import AnswerError

    text = answer.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        a, b = text.find("{"), text.rfind("}")
        try:
            obj = json.loads(text[a : b + 1]) if 0 <= a < b else None
        except json.JSONDecodeError:
            obj = None
    if not isinstance(obj, dict) or not isinstance(obj.get("question"), str) or "excerpts" not in obj:
        raise AnswerError('the answer must be a JSON object {"question": "...", "excerpts": ["..."]}')
    question = _SPACE.sub(" ", obj["question"]).strip()
    excerpts = obj["excerpts"]
    if isinstance(excerpts, str):
        excerpts = [excerpts]
    if not question:
        raise AnswerError("the question is empty")
    if not isinstance(excerpts, list) or not excerpts or not all(isinstance(e, str) and e.strip() for e in excerpts):
        raise AnswerError("excerpts must be a non-empty list of non-empty strings")
    spans = []
    for e in excerpts:
        found = _find(passage, e.strip())
        if found is None:
            raise AnswerError(f"the excerpt {e.strip()[:80]!r} is not in the passage; copy excerpts exactly")
        spans.append(found)
    spans.sort()
    merged: list[tuple[int, int]] = []
    for s, t in spans:  # overlapping excerpts become one reference
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], t))
        else:
            merged.append((s, t))
    return question, merged


MIN_PASSAGE_WORDS = 20
"""A passage of fewer words gives no question worth asking: it is not sampled."""


def _passages(documents: Sequence[Document], passage_tokens: int) -> list[Chunk]:
    from ..api import make_chunker

    chunker = make_chunker("recursive", chunk_size=passage_tokens, unit="tokens")
    out = []
    for d in documents:
        # a passage of a few words gives no question worth asking
        out.extend(c for c in chunker.chunk(d) if len(c.text.split()) >= MIN_PASSAGE_WORDS)
    return out


def generate_questions(
    documents: Sequence[Document],
    client: Any,
    n: int = 50,
    *,
    seed: int = 0,
    passage_tokens: int = 300,
    answer_retries: int = 1,
    names: Sequence[str] | None = None,
    counts: dict[str, int] | None = None,
) -> list[Question]:
    """Up to ``n`` questions about ``documents``, one per sampled passage, with references.

    Passages are the corpus cut by ``recursive`` at ``passage_tokens`` cl100k tokens
    (passages under 20 words left out); ``n`` of them are drawn at random (``seed``), so a
    document gets questions in proportion to its length. Each passage is sent to the chat
    model with :data:`QUESTION_PROMPT`; the answer is parsed by :func:`parse_question` and
    its excerpts located in the document. Requests run on the client's threads and go
    through its response cache (a re-run with the same seed asks nothing again).

    Args:
        documents: the corpus (``chunkwise.evaluation.load_corpus``).
        client: a :class:`chunkwise.llm.ChatClient` (or any object with ``chat(messages)
            -> str`` and ``map(fn, items)``).
        n: questions wanted (at most one per passage; fewer come back when the corpus has
            fewer passages or answers are dropped).
        seed: the passage sample's seed.
        passage_tokens: the size of a passage, in cl100k tokens.
        answer_retries: times an invalid answer is asked again, with the reason.
        names: a name per document for the prompt (default: the document's ``source``
            file name, else its id).
        counts: if given, filled with ``passages`` (the passages of at least
            :data:`MIN_PASSAGE_WORDS` words) and ``asked`` (those sampled and sent).

    Returns:
        :class:`Question` values in the documents' order, references ``(document.id,
        start, end)`` with their ``contents``.

    Raises:
        ConfigError: ``n`` or ``passage_tokens`` not a positive integer, no document.
        chunkwise.llm.LLMError: the server cannot be reached or refuses (wrong URL, model
            or key). A server that stays overloaded drops those passages instead.
    """
    from ..llm.options import ask

    for label, value in (("n", n), ("passage_tokens", passage_tokens)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ConfigError(f"{label} must be a positive integer, not {value!r}")
    if not documents:
        raise ConfigError("generate_questions needs at least one document")
    if names is not None and len(names) != len(documents):
        raise ConfigError(f"names has {len(names)} entries for {len(documents)} documents; give one per document")
    by_id = {d.id: d for d in documents}
    name_of = {
        d.id: (names[i] if names is not None else os.path.basename(d.source) if d.source else d.id)
        for i, d in enumerate(documents)
    }
    passages = _passages(documents, passage_tokens)
    picked = sorted(random.Random(seed).sample(range(len(passages)), min(n, len(passages))))
    if counts is not None:
        counts.update(passages=len(passages), asked=len(picked))

    def one(i: int) -> Question | None:
        p = passages[i]
        msgs = question_messages(p.text, name_of[p.document_id])
        got, _ = ask(client, msgs, lambda a: parse_question(a, p.text), answer_retries)
        if got is None:
            return None
        text = by_id[p.document_id].text
        spans = tuple((p.document_id, p.start_index + s, p.start_index + e) for s, e in got[1])
        return Question(got[0], spans, tuple(text[s:e] for _, s, e in spans))

    return [q for q in client.map(one, picked) if q is not None]


def write_questions(questions: Sequence[Question], path: str | os.PathLike[str]) -> Path:
    """Write questions as chunkwise's JSON lines (read back by ``load_questions``)."""
    out = Path(path)
    with open(out, "w", encoding="utf-8") as fh:
        for q in questions:
            refs = [
                {"document_id": d, "start_index": s, "end_index": e, **({"content": c} if c is not None else {})}
                for (d, s, e), c in zip(q.references, q.contents or (None,) * len(q.references))
            ]
            fh.write(json.dumps({"question": q.text, "references": refs, "id": q.id}, ensure_ascii=False) + "\n")
    return out
