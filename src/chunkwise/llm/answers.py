"""Validation of model answers: JSON of the promised shape, numbers in range, increasing.

Nothing a model returns becomes chunk text: an answer only names numbers (cut points,
sentences); a proposition's text goes to ``chunk.context``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import ChunkwiseError

__all__ = ["AnswerError", "parse_cuts", "parse_propositions"]

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
MAX_PROPOSITION_CHARS = 2000


class AnswerError(ChunkwiseError):
    """A model answer is not what the prompt asked for (the message says why, and is sent
    back to the model when the request is retried)."""


def _json(answer: str) -> Any:
    text = answer.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        pass
    # a JSON object or list with words around it
    for opener, closer in (("{", "}"), ("[", "]")):
        a, b = text.find(opener), text.rfind(closer)
        if 0 <= a < b:
            try:
                return json.loads(text[a : b + 1])
            except (json.JSONDecodeError, RecursionError):
                continue
    raise AnswerError("the answer is not JSON")


def _numbers(value: Any, n: int, what: str, *, empty: bool) -> list[int]:
    if not isinstance(value, list):
        raise AnswerError(f"{what} must be a list of numbers, not {type(value).__name__}")
    if not value and not empty:
        raise AnswerError(f"{what} must name at least one number")
    out: list[int] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise AnswerError(f"{what} holds {v!r}, which is not an integer")
        if not 1 <= v <= n:
            raise AnswerError(f"{what} holds {v}, outside 1..{n}")
        if out and v <= out[-1]:
            raise AnswerError(f"{what} must be in increasing order ({out[-1]} then {v})")
        out.append(v)
    return out


def parse_cuts(answer: str, n: int) -> list[int]:
    """The cut points of an agentic answer: ``{"cuts": [2, 5]}`` (or a bare list).

    Args:
        answer: the model's text.
        n: the number of candidate cut points (numbered 1..n).

    Returns:
        Distinct cut numbers in 1..n, increasing (possibly empty).

    Raises:
        AnswerError: not JSON, not that shape, a number that is not an integer, out of
            range or not increasing.

    Example:
        >>> parse_cuts('Sure: {"cuts": [1, 3]}', 4)
        [1, 3]
    """
    data = _json(answer)
    if isinstance(data, dict):
        if "cuts" not in data:
            raise AnswerError('the answer has no "cuts" key')
        data = data["cuts"]
    return _numbers(data, n, '"cuts"', empty=True)


def parse_propositions(answer: str, n: int) -> list[tuple[str, list[int]]]:
    """The propositions of an answer: ``{"propositions": [{"text": ..., "sentences":
    [1, 2]}, ...]}`` (or a bare list of such objects).

    Args:
        answer: the model's text.
        n: the number of sentences (numbered 1..n).

    Returns:
        ``(proposition text, sentence numbers)`` pairs: the text stripped, non-empty, at
        most 2000 characters, whitespace runs made single spaces; the numbers in 1..n,
        increasing, at least one.

    Raises:
        AnswerError: anything else.

    Example:
        >>> parse_propositions('[{"text": "Ann is a pilot.", "sentences": [1]}]', 2)
        [('Ann is a pilot.', [1])]
    """
    data = _json(answer)
    if isinstance(data, dict):
        if "propositions" not in data:
            raise AnswerError('the answer has no "propositions" key')
        data = data["propositions"]
    if not isinstance(data, list):
        raise AnswerError('"propositions" must be a list of objects')
    out: list[tuple[str, list[int]]] = []
    for k, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise AnswerError(f"proposition {k} is not an object")
        text = item.get("text")
        if not isinstance(text, str) or not text.strip():
            raise AnswerError(f'proposition {k} has no "text"')
        text = " ".join(text.split())
        if len(text) > MAX_PROPOSITION_CHARS:
            raise AnswerError(f"proposition {k} is longer than {MAX_PROPOSITION_CHARS} characters")
        out.append((text, _numbers(item.get("sentences"), n, f'"sentences" of proposition {k}', empty=False)))
    return out
