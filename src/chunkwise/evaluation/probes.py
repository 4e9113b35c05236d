"""Probe sets: labelled questions whose answers are character spans of documents.

Two formats load into the same :class:`Question` values:

* Chroma's ``questions.csv`` (Smith & Troynikov, "Evaluating Chunking Strategies for
  Retrieval", 2024): columns ``question``, ``references`` (a JSON list of
  ``{"content", "start_index", "end_index"}``) and ``corpus_id`` (the stem of the corpus
  file the offsets index into).
* chunkwise's JSON lines: one object per line::

      {"question": "Who signed it?", "document_id": "treaty",
       "references": [{"start_index": 120, "end_index": 168}], "id": "q1"}

  ``document_id`` is the id of the document the offsets index into (for a corpus folder,
  the file name without its suffix); ``id`` is optional; a reference may carry its own
  ``document_id`` (an answer spread over documents) and a ``content`` that is checked
  against the text. Offsets are half-open ``str`` indices (code points) of the text as
  :func:`chunkwise.load` reads it: decoded, line ends unchanged (``\\r\\n`` is two
  characters). Chroma's evaluator reads with universal newlines, so its offsets match
  files with LF line ends (as its corpora have); :func:`check_questions` finds a mismatch.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import ConfigError, LoadError
from ..types import Document
from .metrics import SpanRef

__all__ = ["Question", "check_questions", "load_corpus", "load_questions"]

_CORPUS_SUFFIXES = (".md", ".txt", ".markdown", ".rst")


@dataclass(frozen=True)
class Question:
    """A labelled question.

    Attributes:
        text: the question.
        references: reference spans ``(document_id, start, end)`` (half-open character
            offsets), with their expected text when known (``contents``, same order, or
            empty).
        id: a stable id (given, or a hash of the question and its references).
    """

    text: str
    references: tuple[SpanRef, ...]
    contents: tuple[str | None, ...] = ()
    id: str = ""

    def __post_init__(self) -> None:
        if not self.references:
            raise ConfigError(f"question {self.text[:60]!r} has no reference span; give at least one")
        for doc, s, e in self.references:
            if not (isinstance(s, int) and isinstance(e, int)) or s < 0 or e <= s:
                raise ConfigError(
                    f"reference ({doc!r}, {s!r}, {e!r}) of question {self.text[:60]!r} is not a non-empty "
                    "span; start_index and end_index must be integers with 0 <= start_index < end_index"
                )
        if not self.id:
            key = json.dumps([self.text, list(self.references)])
            object.__setattr__(self, "id", hashlib.blake2b(key.encode(), digest_size=8).hexdigest())


def _refs(raw: object, default_doc: str, where: str) -> tuple[tuple[SpanRef, ...], tuple[str | None, ...]]:
    if not isinstance(raw, list):
        raise LoadError(f"{where}: references must be a JSON list of {{start_index, end_index}} objects")
    spans, contents = [], []
    for r in raw:
        if not isinstance(r, dict) or "start_index" not in r or "end_index" not in r:
            raise LoadError(f"{where}: each reference needs start_index and end_index, got {r!r}")
        spans.append((str(r.get("document_id", default_doc)), int(r["start_index"]), int(r["end_index"])))
        contents.append(r.get("content"))
    return tuple(spans), tuple(contents)


def _load_chroma_csv(path: Path) -> list[Question]:
    out = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"question", "references", "corpus_id"} - set(reader.fieldnames or ())
        if missing:
            raise LoadError(
                f"{path}: a Chroma questions CSV needs the columns question, references, corpus_id; missing {sorted(missing)}"
            )
        for line, row in enumerate(reader, start=2):
            where = f"{path}:{line}"
            try:
                raw = json.loads(row["references"])
            except json.JSONDecodeError as exc:
                raise LoadError(f"{where}: references is not JSON ({exc})") from exc
            spans, contents = _refs(raw, row["corpus_id"], where)
            out.append(Question(row["question"], spans, contents))
    return out


def _load_jsonl(path: Path) -> list[Question]:
    out = []
    with open(path, encoding="utf-8") as fh:
        for line, raw_line in enumerate(fh, start=1):
            if not raw_line.strip():
                continue
            where = f"{path}:{line}"
            try:
                obj = json.loads(raw_line)
            except json.JSONDecodeError as exc:
                raise LoadError(f"{where}: not JSON ({exc})") from exc
            if not isinstance(obj, dict) or "question" not in obj or "references" not in obj:
                raise LoadError(f"{where}: each line needs 'question' and 'references' (and 'document_id')")
            spans, contents = _refs(obj["references"], str(obj.get("document_id", "")), where)
            out.append(Question(str(obj["question"]), spans, contents, id=str(obj.get("id", ""))))
    return out


def load_questions(path: str | os.PathLike[str]) -> list[Question]:
    """Load a probe set: Chroma's CSV (``.csv``) or chunkwise JSON lines (``.jsonl``/``.json``).

    Args:
        path: the file.

    Returns:
        Questions in file order.

    Raises:
        LoadError: the file cannot be read or a row is malformed (the message gives the line).
        ConfigError: a reference span is empty or negative.

    Example:
        A JSON lines probe set holds lines like
        ``{"question": "...", "document_id": "doc", "references": [{"start_index": 0, "end_index": 12}]}``.
    """
    p = Path(path)
    try:
        if p.suffix.lower() == ".csv":
            return _load_chroma_csv(p)
        return _load_jsonl(p)
    except OSError as exc:
        raise LoadError(f"cannot read questions file {p}: {exc}") from exc


def load_corpus(
    folder: str | os.PathLike[str],
    suffixes: Sequence[str] = _CORPUS_SUFFIXES,
    *,
    encoding: str | None = None,
    ids: Literal["stem", "path"] = "stem",
) -> list[Document]:
    """Every text file directly in ``folder``, read by :func:`chunkwise.load`.

    The text is exactly what :func:`chunkwise.load` gives for the same file (same loader,
    same decoding; ``\\r\\n`` kept), so chunks and offsets agree with ``chunkwise chunk``.

    Args:
        folder: the corpus folder (not searched recursively).
        suffixes: the file endings read, lower case (default ``.md``, ``.txt``,
            ``.markdown``, ``.rst``).
        encoding: a codec for every file instead of detecting each one.
        ids: ``"stem"`` (default): the id is the file name without its suffix, the name
            probe sets use (Chroma's ``corpus_id``, chunkwise's ``document_id``);
            ``"path"``: the id of :func:`chunkwise.load` (derived from the file name, the
            path relative to ``folder``), the same as ``chunkwise chunk FOLDER`` gives.

    Returns:
        Documents sorted by file name.

    Raises:
        LoadError: the folder or a file cannot be read or decoded (or is in a format no
            loader handles), or the folder holds no such file.
        ConfigError: an unknown ``ids`` or ``encoding``.

    Example:
        ``load_corpus("data/chroma_eval/corpora")[0].id == "chatlogs"``.
    """
    from ..loaders import load

    if ids not in ("stem", "path"):
        raise ConfigError(f"ids must be 'stem' or 'path', not {ids!r}")
    root = Path(folder)
    if not root.is_dir():
        raise LoadError(f"corpus folder {root} does not exist or is not a folder")
    wanted = tuple(x.lower() for x in suffixes)
    docs = []
    for p in sorted(root.iterdir()):
        if p.is_file() and p.name.lower().endswith(wanted):
            doc = load(p, root=root, encoding=encoding)
            if ids == "stem":
                doc = dataclasses.replace(doc, id=p.stem)
            docs.append(doc)
    if not docs:
        raise LoadError(f"no {', '.join(suffixes)} file in {root}")
    return docs


def check_questions(questions: Iterable[Question], documents: Sequence[Document]) -> None:
    """Check that every reference lies inside a known document and matches its content.

    Raises:
        ConfigError: a reference names an unknown document, runs past its end, or its
            ``content`` differs from the text at its offsets.
    """
    texts = {d.id: d.text for d in documents}
    for q in questions:
        for i, (doc, s, e) in enumerate(q.references):
            if doc not in texts:
                raise ConfigError(
                    f"question {q.text[:60]!r} refers to document {doc!r}, which is not in the corpus "
                    f"(documents: {', '.join(sorted(texts)[:10])})"
                )
            if e > len(texts[doc]):
                raise ConfigError(
                    f"reference ({doc!r}, {s}, {e}) of question {q.text[:60]!r} runs past the end of the document ({len(texts[doc])} characters)"
                )
            content = q.contents[i] if i < len(q.contents) else None
            if content is not None and texts[doc][s:e] != content:
                raise ConfigError(
                    f"reference ({doc!r}, {s}, {e}) of question {q.text[:60]!r} does not match its content: "
                    f"the text there is {texts[doc][s:e][:60]!r}, expected {content[:60]!r}"
                )
