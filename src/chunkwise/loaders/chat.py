"""JSON chat messages (``.json``): one ``role: content`` turn per line, offsets exact.

A chat is a JSON list of messages (``[{"role": "user", "content": "..."}, ...]``), or an
object holding one under ``"messages"`` (OpenAI) or ``"conversations"`` (ShareGPT, whose
messages are ``{"from": ..., "value": ...}``). The document text is the messages
rendered one turn per line, ``role: content``, the content's own line breaks kept, so
every chunk offset indexes that text exactly and turn ``k`` of the ``conversation``
strategy is message ``k`` of the source list.

Other JSON files (``.json`` that is not a chat) load as they are, as text of format
``"json"``; ``format="chat"`` on them raises :class:`~chunkwise.errors.ParseError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..errors import ParseError
from ..types import Document
from .base import Loader, register_loader

__all__ = ["ChatLoader", "JsonLoader", "chat_messages", "render_chat"]

_ROLE_KEYS = ("role", "from", "speaker", "author", "name", "sender")
_CONTENT_KEYS = ("content", "value", "text", "message")
_LISTS = ("messages", "conversations")


def _role(message: Mapping[str, Any]) -> str | None:
    for key in _ROLE_KEYS:
        v = message.get(key)
        if isinstance(v, Mapping):  # {"author": {"role": "user"}}
            v = v.get("role") or v.get("name")
        if isinstance(v, str) and v.strip():
            return " ".join(v.split())  # one line, no stray spaces
    return None


def _content(message: Mapping[str, Any]) -> str:
    for key in _CONTENT_KEYS:
        if key not in message:
            continue
        v = message[key]
        if v is None:
            return ""
        if isinstance(v, str):
            return v
        if isinstance(v, list):  # content parts: [{"type": "text", "text": "..."}]
            parts = [p.get("text") if isinstance(p, Mapping) else p for p in v]
            if all(isinstance(p, str) for p in parts):
                return "\n".join(parts)  # type: ignore[arg-type]
        return json.dumps(v, ensure_ascii=False)
    return ""


def chat_messages(value: Any) -> tuple[list[Mapping[str, Any]], str] | None:
    """The messages of a parsed JSON value and their JSON path (``"$"``,
    ``"$.messages"``, ``"$.conversations"``), or None when it is not a chat: a list of
    objects, each with a role (``role``, ``from``, ``speaker``, ``author``, ``name`` or
    ``sender``) or a content (``content``, ``value``, ``text`` or ``message``), at least
    one with both."""
    path = "$"
    if isinstance(value, Mapping):
        key = next((k for k in _LISTS if isinstance(value.get(k), list)), None)
        if key is None:
            return None
        value, path = value[key], f"$.{key}"
    if not isinstance(value, list) or not value or not all(isinstance(m, Mapping) for m in value):
        return None
    if not all(_role(m) is not None or any(k in m for k in _CONTENT_KEYS) for m in value):
        return None
    if not any(_role(m) is not None and any(k in m for k in _CONTENT_KEYS) for m in value):
        return None
    return value, path


def render_chat(messages: Sequence[Mapping[str, Any]]) -> tuple[str, list[int], list[str], bool]:
    """The document text of ``messages``: ``role: content`` per message (``role:`` when
    the content is empty; a message without a role is ``unknown``), joined by line
    breaks. Returns the text, each turn's start offset, the roles in order of first
    appearance, and whether a content line reads like a turn (``role: ...`` of a known
    role), when the offsets must be recorded for the turns to be read back exactly."""
    lines: list[str] = []
    starts: list[int] = []
    roles: dict[str, None] = {}
    pos = 0
    for m in messages:
        role = _role(m) or "unknown"
        roles.setdefault(role, None)
        content = _content(m)
        line = f"{role}: {content}" if content else f"{role}:"
        starts.append(pos)
        lines.append(line)
        pos += len(line) + 1
    text = "\n".join(lines) + "\n"
    alts = "|".join(re.escape(r) for r in sorted(roles, key=len, reverse=True))
    found = sum(1 for _ in re.finditer(rf"^(?:{alts}):(?=[ \t]|$)", text, re.MULTILINE))
    return text, starts, list(roles), found != len(starts)


class ChatLoader(Loader):
    """JSON chat messages (``metadata["format"] == "chat"``), rendered one turn per line.

    Metadata: ``roles`` (in order of first appearance), ``messages`` (their number),
    ``json_path`` (where the list is in the source JSON: ``"$"``, ``"$.messages"`` or
    ``"$.conversations"``) and, only when a content line reads like a turn of a known
    role, ``turn_offsets`` (each message's start in the text). The ``conversation``
    strategy's turn ``k`` is message ``k`` of that list; ``auto`` chooses it.

    Raises:
        ParseError: the text is not JSON, or not a list of chat messages.

    Example:
        >>> doc = ChatLoader().parse('[{"role": "user", "content": "Hi?"}, '
        ...                          '{"role": "assistant", "content": "Hello.\\\\nHow can I help?"}]')
        >>> doc.text
        'user: Hi?\\nassistant: Hello.\\nHow can I help?\\n'
        >>> doc.metadata["roles"], doc.metadata["messages"], doc.metadata["json_path"]
        (['user', 'assistant'], 2, '$')
    """

    format: ClassVar[str] = "chat"
    suffixes: ClassVar[tuple[str, ...]] = ()
    mime_types: ClassVar[tuple[str, ...]] = ()
    aliases: ClassVar[tuple[str, ...]] = ("chat-json", "messages")

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise ParseError(f"{source or '<text>'}: not JSON ({exc}); give a JSON list of chat messages") from None
        found = chat_messages(value)
        if found is None:
            raise ParseError(
                f"{source or '<text>'}: not a list of chat messages; expected "
                '[{"role": ..., "content": ...}, ...] or {"messages": [...]}, or read it as text (format=\'text\')'
            )
        return self.document(found[0], found[1], source=source, metadata=metadata, id=id)

    def document(
        self,
        messages: Sequence[Mapping[str, Any]],
        json_path: str,
        *,
        source: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        id: str = "",
    ) -> Document:
        """The document of parsed ``messages`` found at ``json_path``."""
        rendered, starts, roles, ambiguous = render_chat(messages)
        meta = dict(metadata or {})
        meta["format"] = self.format
        meta.update(roles=roles, messages=len(messages), json_path=json_path)
        if ambiguous:
            meta["turn_offsets"] = starts
        return Document(rendered, id=id, source=source, metadata=meta)


class JsonLoader(Loader):
    """``.json`` files: a chat (see :class:`ChatLoader`) becomes a ``"chat"`` document;
    any other JSON is kept exactly as decoded, as text of format ``"json"``.

    Example:
        >>> JsonLoader().parse('{"a": 1}').metadata["format"]
        'json'
        >>> JsonLoader().parse('[{"role": "user", "content": "Hi"}]').metadata["format"]
        'chat'
    """

    format: ClassVar[str] = "json"
    suffixes: ClassVar[tuple[str, ...]] = (".json",)
    mime_types: ClassVar[tuple[str, ...]] = ("application/json", "text/json")
    aliases: ClassVar[tuple[str, ...]] = ()

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        head = text.lstrip()[:1]
        if head in ("[", "{"):
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            found = chat_messages(value) if value is not None else None
            if found is not None:
                return _CHAT.document(found[0], found[1], source=source, metadata=metadata, id=id)
        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        return Document(text, id=id, source=source, metadata=meta)


_CHAT = ChatLoader()
register_loader(_CHAT)
register_loader(JsonLoader())
