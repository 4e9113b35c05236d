"""JSON chat messages (``.json``): one ``role: content`` turn per line, offsets exact.

A chat is a JSON list of messages (``[{"role": "user", "content": "..."}, ...]``), an
object holding one under ``"messages"`` (OpenAI) or ``"conversations"`` (ShareGPT, whose
messages are ``{"from": ..., "value": ...}``), or a list of such objects (a data set of
conversations). The document text is the messages rendered one turn per line,
``role: content``, the content's own line breaks kept, a blank line between
conversations, so every chunk offset indexes that text exactly and turn ``k`` of the
``conversation`` strategy is message ``k`` of the source (conversations in order). A
message's tool calls (OpenAI's ``tool_calls`` and ``function_call``, a ``tool_use``
content part) follow its content, one ``name(arguments)`` line each; a tool's reply
(``role: tool``) is a turn like any other.

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

__all__ = [
    "ChatLoader",
    "JsonLoader",
    "JsonlLoader",
    "chat_conversations",
    "chat_messages",
    "jsonl_conversations",
    "render_chat",
]

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
    """The text of a message: its content, then one line per tool call it makes
    (``name(arguments)``), so that a message that only calls a tool is not empty."""
    text = _text(message)
    calls = _calls(message)
    return "\n".join(p for p in (text, *calls) if p) if calls else text


def _text(message: Mapping[str, Any]) -> str:
    for key in _CONTENT_KEYS:
        if key not in message:
            continue
        v = message[key]
        if v is None:
            return ""
        if isinstance(v, str):
            return v
        if isinstance(v, list):  # content parts: [{"type": "text", "text": "..."}, ...]
            return "\n".join(p for p in map(_part, v) if p)
        if isinstance(v, Mapping):  # one content part, else an object kept as JSON
            one = _part(v)
            return one if one or "type" in v else json.dumps(v, ensure_ascii=False)
        return json.dumps(v, ensure_ascii=False)
    return ""


# parts that carry media: a short placeholder, never their (base64) data
_MEDIA_PARTS = frozenset(
    {"image", "image_url", "input_image", "audio", "input_audio", "file", "input_file", "document", "video"}
)


def _part(part: Any) -> str:
    """A content part's text: a string as it is; a text part's ``text``; a tool use
    (``{"type": "tool_use", "name": ..., "input": {...}}``) as ``name(input)``; a tool
    result (Anthropic's ``tool_result``) as its content's text; a media part (``image``,
    ``image_url``, ``audio``, ``file``, ...) as ``[image]`` (its type in brackets, never
    its data); any other part by its ``text`` field, else ``[type]``; a nested list by its
    parts."""
    if isinstance(part, str):
        return part
    if isinstance(part, list):
        return "\n".join(p for p in map(_part, part) if p)
    if not isinstance(part, Mapping):
        return "" if part is None else json.dumps(part, ensure_ascii=False)
    kind = part.get("type")
    kind = kind.strip() if isinstance(kind, str) else ""
    if kind == "tool_use":
        return _call(part)
    if kind == "tool_result" or (not kind and "content" in part and "text" not in part):
        inner = part.get("content")
        return "" if inner is None else _part(inner)
    if kind in _MEDIA_PARTS:
        return f"[{kind.removeprefix('input_').removesuffix('_url')}]"
    if isinstance(part.get("text"), str):
        return part["text"]
    return f"[{kind}]" if kind else ""


def _calls(message: Mapping[str, Any]) -> list[str]:
    """The tool calls of a message, each ``name(arguments)``: OpenAI's ``tool_calls``
    (``{"function": {"name": ..., "arguments": "..."}}``) and the older ``function_call``."""
    found: list[Any] = []
    calls = message.get("tool_calls")
    if isinstance(calls, list):
        for c in calls:
            if isinstance(c, Mapping):
                f = c.get("function")
                found.append(f if isinstance(f, Mapping) else c)
    if isinstance(message.get("function_call"), Mapping):
        found.append(message["function_call"])
    return [t for t in map(_call, found) if t]


def _call(call: Mapping[str, Any]) -> str:
    """``name(arguments)`` of one call (the arguments as the source gives them: a JSON
    string as it is, any other value as JSON); ``""`` without a name."""
    name = call.get("name")
    if not isinstance(name, str) or not name.strip():
        return ""
    args = next((call[k] for k in ("arguments", "input", "args") if k in call), None)
    if args is None:
        shown = ""
    elif isinstance(args, str):
        shown = args
    else:
        shown = json.dumps(args, ensure_ascii=False)
    return f"{name.strip()}({shown})"


def _is_messages(value: Any) -> bool:
    """Whether ``value`` is a list of chat messages (see :func:`chat_messages`)."""
    if not isinstance(value, list) or not value or not all(isinstance(m, Mapping) for m in value):
        return False
    if not all(_role(m) is not None or any(k in m for k in _CONTENT_KEYS) for m in value):
        return False
    return any(_role(m) is not None and any(k in m for k in _CONTENT_KEYS) for m in value)


def _record_messages(value: Any) -> tuple[list[Mapping[str, Any]], str] | None:
    """The messages of one chat record (``{"messages": [...]}``, ``{"conversations":
    [...]}``) and the key holding them, or None."""
    if not isinstance(value, Mapping):
        return None
    key = next((k for k in _LISTS if isinstance(value.get(k), list)), None)
    if key is None or not _is_messages(value[key]):
        return None
    return value[key], key


def chat_conversations(value: Any) -> tuple[list[list[Mapping[str, Any]]], str] | None:
    """The conversations of a parsed JSON value and their JSON path, or None when it is
    not a chat. A chat is:

    * a list of messages (path ``"$"``): objects each with a role (``role``, ``from``,
      ``speaker``, ``author``, ``name`` or ``sender``) or a content (``content``,
      ``value``, ``text`` or ``message``), at least one with both;
    * an object holding one under ``"messages"`` (OpenAI) or ``"conversations"``
      (ShareGPT, messages ``{"from": ..., "value": ...}``): path ``"$.messages"``,
      ``"$.conversations"``;
    * a list of such objects, one conversation each (a ShareGPT or OpenAI fine-tuning
      data set): path ``"$[*].conversations"`` or ``"$[*].messages"`` (the first
      record's key); a record whose list is empty is skipped (no conversation), as
      long as one record holds messages.

    Example:
        >>> chat_conversations([{"conversations": [{"from": "human", "value": "Hi"}]},
        ...                     {"conversations": [{"from": "gpt", "value": "Yo"}]}])[1]
        '$[*].conversations'
    """
    if _is_messages(value):
        return [value], "$"
    one = _record_messages(value)
    if one is not None:
        return [one[0]], f"$.{one[1]}"
    deep = _nested_messages(value)
    if deep is not None:
        return [deep[0]], deep[1]
    if isinstance(value, list) and value:
        # a record with an empty list (a conversation of no message) is skipped
        records = [_record_messages(v) for v in value if not _empty_record(v)]
        if records and all(r is not None for r in records):
            return [r[0] for r in records], f"$[*].{records[0][1]}"  # type: ignore[index]
    return None


def _nested_messages(value: Any, depth: int = 2, path: str = "$") -> tuple[list[Mapping[str, Any]], str] | None:
    """The messages of a chat record nested one or two levels down under a key
    (``{"data": {"chat": {"messages": [...]}}}``: path ``"$.data.chat.messages"``; a list
    of messages right under a key: ``{"chat": [...]}``), the first in key order, or None."""
    if not isinstance(value, Mapping) or depth <= 0:
        return None
    for key, v in value.items():
        if not isinstance(key, str):
            continue
        here = f"{path}.{key}"
        if _is_messages(v):
            return v, here
        one = _record_messages(v)
        if one is not None:
            return one[0], f"{here}.{one[1]}"
        deeper = _nested_messages(v, depth - 1, here)
        if deeper is not None:
            return deeper
    return None


def jsonl_conversations(text: str) -> tuple[list[list[Mapping[str, Any]]], str] | None:
    """The conversations of JSON lines (one record a line, blank lines skipped), each line
    a chat (see :func:`chat_conversations`; the OpenAI fine-tuning layout is one
    ``{"messages": [...]}`` a line), and the path of the first line's with ``$[*]`` for
    the line (``"$[*].messages"``); None when a line is not JSON or not a chat, or the
    text is a single JSON value."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) < 2:
        return None
    out: list[list[Mapping[str, Any]]] = []
    path = ""
    for ln in lines:
        try:
            value = json.loads(ln)
        except ValueError:
            return None
        if _empty_record(value):  # a record of no message is skipped, as in a JSON list
            continue
        found = chat_conversations(value)
        if found is None:
            return None
        out += found[0]
        path = path or "$[*]" + found[1][1:]
    if not out:
        return None
    return out, path


def _empty_record(value: Any) -> bool:
    """Whether ``value`` is a chat record of no message (``{"conversations": []}``)."""
    if not isinstance(value, Mapping):
        return False
    key = next((k for k in _LISTS if isinstance(value.get(k), list)), None)
    return key is not None and not value[key]


def chat_messages(value: Any) -> tuple[list[Mapping[str, Any]], str] | None:
    """The messages of a parsed JSON value (all its conversations, in order) and their
    JSON path, or None when it is not a chat (see :func:`chat_conversations`)."""
    found = chat_conversations(value)
    if found is None:
        return None
    return [m for conv in found[0] for m in conv], found[1]


def render_chat(
    messages: Sequence[Mapping[str, Any]], firsts: Sequence[int] = ()
) -> tuple[str, list[int], list[str], bool]:
    """The document text of ``messages``: ``role: content`` per message (``role:`` when
    the content is empty; a message without a role is ``unknown``), joined by line
    breaks, and a blank line before each message of ``firsts`` (the first message of a
    conversation after the first). Returns the text, each turn's start offset, the roles
    in order of first appearance, and whether a content line reads like a turn
    (``role: ...`` of a known role), when the offsets must be recorded for the turns to
    be read back exactly."""
    lines: list[str] = []
    starts: list[int] = []
    roles: dict[str, None] = {}
    blank = set(firsts) - {0}
    pos = 0
    for k, m in enumerate(messages):
        role = _role(m) or "unknown"
        roles.setdefault(role, None)
        content = _content(m)
        line = f"{role}: {content}" if content else f"{role}:"
        if k in blank:
            line = "\n" + line
            pos += 1
        starts.append(pos)
        lines.append(line)
        pos += len(line) + 1 - (k in blank)
    text = "\n".join(lines) + "\n"
    alts = "|".join(re.escape(r) for r in sorted(roles, key=len, reverse=True))
    found = sum(1 for _ in re.finditer(rf"^(?:{alts}):(?=[ \t]|$)", text, re.MULTILINE))
    return text, starts, list(roles), found != len(starts)


class ChatLoader(Loader):
    """JSON chat messages (``metadata["format"] == "chat"``), rendered one turn per line.

    Metadata: ``roles`` (in order of first appearance), ``messages`` (their number),
    ``json_path`` (where the list is in the source JSON: ``"$"``, ``"$.messages"``,
    ``"$.conversations"``, ``"$[*].messages"`` or ``"$[*].conversations"``),
    ``conversation_starts`` (for more than one conversation: the number of each one's
    first message) and, only when a content line reads like a turn of a known role,
    ``turn_offsets`` (each message's start in the text). The ``conversation``
    strategy's turn ``k`` is message ``k``, and packs each conversation on its own;
    ``auto`` chooses it.

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
            lines = jsonl_conversations(text)
            if lines is not None:
                return self.document(lines[0], lines[1], source=source, metadata=metadata, id=id)
            raise ParseError(f"{source or '<text>'}: not JSON ({exc}); give a JSON list of chat messages") from None
        found = chat_conversations(value)
        if found is None:
            raise ParseError(
                f"{source or '<text>'}: not a list of chat messages; expected "
                '[{"role": ..., "content": ...}, ...], {"messages": [...]}, {"conversations": [...]} or a list of '
                "those, or read it as text (format='text')"
            )
        return self.document(found[0], found[1], source=source, metadata=metadata, id=id)

    def document(
        self,
        conversations: Sequence[Sequence[Mapping[str, Any]]],
        json_path: str,
        *,
        source: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        id: str = "",
    ) -> Document:
        """The document of parsed ``conversations`` (each a list of messages) found at
        ``json_path``."""
        messages = [m for conv in conversations for m in conv]
        firsts, k = [], 0
        for conv in conversations:
            firsts.append(k)
            k += len(conv)
        rendered, starts, roles, ambiguous = render_chat(messages, firsts)
        meta = dict(metadata or {})
        meta["format"] = self.format
        meta.update(roles=roles, messages=len(messages), json_path=json_path)
        if len(conversations) > 1:
            meta["conversation_starts"] = firsts
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
    plain: ClassVar[str] = "json"  # the format of a file that is not a chat

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        head = text.lstrip()[:1]
        if head in ("[", "{"):
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            found = chat_conversations(value) if value is not None else jsonl_conversations(text)
            if found is not None:
                return _CHAT.document(found[0], found[1], source=source, metadata=metadata, id=id)
        meta = dict(metadata or {})
        meta.setdefault("format", self.plain)
        return Document(text, id=id, source=source, metadata=meta)


class JsonlLoader(JsonLoader):
    """JSON lines (``.jsonl``, ``.ndjson``): when every line is a chat (the fine-tuning
    layout, one ``{"messages": [...]}`` a line) a ``"chat"`` document of one conversation
    a line (each packed on its own by the ``conversation`` strategy); any other file is
    kept as decoded, as text of format ``"jsonl"``, which the ``recursive`` strategy (what
    ``auto`` picks for it) packs by records: one a line, never cut while it fits.

    Example:
        >>> doc = JsonlLoader().parse('{"messages": [{"role": "user", "content": "Hi"}]}\\n'
        ...                           '{"messages": [{"role": "user", "content": "Yo"}]}\\n')
        >>> doc.text, doc.metadata["conversation_starts"], doc.metadata["json_path"]
        ('user: Hi\\n\\nuser: Yo\\n', [0, 1], '$[*].messages')
    """

    format: ClassVar[str] = "jsonl"
    suffixes: ClassVar[tuple[str, ...]] = (".jsonl", ".ndjson")
    mime_types: ClassVar[tuple[str, ...]] = ("application/jsonl", "application/x-ndjson")
    aliases: ClassVar[tuple[str, ...]] = ("ndjson", "json-lines")
    plain: ClassVar[str] = "jsonl"


_CHAT = ChatLoader()
register_loader(_CHAT)
register_loader(JsonLoader())
register_loader(JsonlLoader())
