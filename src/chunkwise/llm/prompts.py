"""Prompt templates: files inside the package (``llm/prompts/<task>.txt``) that a user can
override with a path or a text.

A template is plain text with ``$name`` placeholders (:class:`string.Template`, so JSON
braces need no escaping); each task documents its placeholders. The filled template is
sent as one user message.
"""

from __future__ import annotations

import string
from importlib import resources
from pathlib import Path

from ..errors import ConfigError

__all__ = ["PROMPT_FIELDS", "load_prompt", "render_prompt"]

PROMPT_FIELDS: dict[str, tuple[str, ...]] = {
    "agentic": ("text", "n", "chunk_size", "unit"),
    "propositions": ("sentences", "n"),
    "contextualize": ("document", "chunk"),
}
"""The placeholders each task fills (a template may leave any out, but the task's input:
``$text``, ``$sentences``, ``$chunk``, must be there)."""

_REQUIRED = {"agentic": "text", "propositions": "sentences", "contextualize": "chunk"}


def load_prompt(task: str, override: str | Path | None = None) -> str:
    """The template of ``task``: the packaged file, or ``override`` (a path to a file, or
    the template text itself when it names no file).

    Raises:
        ConfigError: an unknown task, or a template without the task's input placeholder
            or with a placeholder the task does not fill.
    """
    if task not in PROMPT_FIELDS:
        raise ConfigError(f"no prompt for task {task!r}; tasks: {', '.join(PROMPT_FIELDS)}")
    if override is None:
        text = resources.files("chunkwise.llm").joinpath("prompts", f"{task}.txt").read_text(encoding="utf-8")
    elif isinstance(override, Path) or ("\n" not in str(override) and "$" not in str(override)):
        path = Path(override)
        if not path.is_file():
            raise ConfigError(
                f"prompt {str(override)!r} is neither a file nor a template (a template holds "
                f"${_REQUIRED[task]}); give a path to a text file or the template text"
            )
        text = path.read_text(encoding="utf-8")
    else:
        text = str(override)
    _check(task, text)
    return text


def _check(task: str, text: str) -> None:
    tpl = string.Template(text)
    if not tpl.is_valid():
        raise ConfigError(f"the {task} prompt has a malformed placeholder; write $$ for a dollar sign")
    names = set(tpl.get_identifiers())
    unknown = sorted(names - set(PROMPT_FIELDS[task]))
    if unknown:
        raise ConfigError(
            f"the {task} prompt uses ${', $'.join(unknown)}, which the task does not fill; "
            f"its placeholders are ${', $'.join(PROMPT_FIELDS[task])}"
        )
    if _REQUIRED[task] not in names:
        raise ConfigError(f"the {task} prompt must hold ${_REQUIRED[task]} (where the input goes)")


def render_prompt(template: str, **values: object) -> str:
    """The template with its placeholders filled (``$$`` is a dollar sign)."""
    return string.Template(template).substitute({k: str(v) for k, v in values.items()})
