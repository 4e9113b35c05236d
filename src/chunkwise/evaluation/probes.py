"""Probe sets: labelled questions whose answers are character spans of documents.

Two formats load into the same :class:`Question` values:

* Chroma's ``questions.csv`` (Smith & Troynikov, "Evaluating Chunking Strategies for
  Retrieval", 2024): columns ``question``, ``references`` (a JSON list of
  ``{"content", "start_index", "end_index"}``) and ``corpus_id`` (the stem of the corpus
  file the offsets index into).
* chunkwise's JSON lines: one object per line::

      {"question": "Who signed it?", "document_id": "treaty",
       "references": [{"start_index": 120, "end_index": 168}], "id": "q1"}

  ``document_id`` names the document the offsets index into; ``id`` is optional; a reference may carry its own
  ``document_id`` (an answer spread over documents) and a ``content`` that is checked
  against the text. Offsets are half-open ``str`` indices (code points) of the text as
  :func:`chunkwise.load` reads it: decoded, line ends unchanged (``\\r\\n`` is two
  characters). Chroma's evaluator reads with universal newlines, so its offsets match
  files with LF line ends (as its corpora have); :func:`check_questions` finds a mismatch.

A question names a document by its stem (``"state_of_the_union"``, Chroma's ``corpus_id``),
its path relative to the corpus folder (``"sub/a.md"``) or its id; :class:`DocumentNames`
resolves the name to the id that :func:`load_corpus`, :func:`chunkwise.load` and
``chunkwise chunk`` give the file (derived from that relative path), and a stem that two
files share is an error naming both.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from ..errors import ConfigError, LoadError
from ..types import Document, document_id_for_path
from .metrics import SpanRef

__all__ = [
    "CORPUS_SUFFIXES",
    "DocumentNames",
    "Question",
    "SkippedFile",
    "check_questions",
    "load_corpus",
    "load_questions",
    "resolve_questions",
]

CORPUS_SUFFIXES = (".md", ".txt", ".markdown", ".rst", ".pdf")
"""The file endings :func:`load_corpus` reads by default."""
_CORPUS_SUFFIXES = CORPUS_SUFFIXES  # the name of earlier versions


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


@dataclass(frozen=True)
class SkippedFile:
    """A file of a corpus folder that :func:`load_corpus` did not read (with ``skipped=``).

    Attributes:
        path: the file.
        relative: its POSIX path relative to the corpus folder (its document's would-be
            names: see :class:`DocumentNames`).
        reason: why (``"pdf is not a supported format"``, ``"suffix not among .md, .txt"``,
            or the message of the error that reading raised).
        error: the exception that reading the file raised; None for a file left out
            before reading (a format no loader handles, a suffix not asked for).
    """

    path: Path
    relative: str
    reason: str
    error: BaseException | None = None

    @property
    def id(self) -> str:
        """The id its document would have had."""
        return document_id_for_path(self.relative)


def _names_of(relative: str) -> tuple[str, str, str]:
    """The path, the path without its suffix, and the stem (file name without suffix)."""
    pure = PurePosixPath(relative)
    without = pure.with_suffix("").as_posix() if pure.suffix else relative
    return relative, without, pure.stem


class DocumentNames:
    """The names by which probe sets refer to documents, each resolved to a document id.

    A document is known by, from the most exact to the least: its id; its path relative
    to the corpus folder (``"sub/a.md"``, from ``metadata["relative_path"]``, else from
    ``source``); that path without its suffix (``"sub/a"``) and its stem, the file name
    without its suffix (``"a"``: Chroma's ``corpus_id``). A name is resolved by the most
    exact kind that knows it; a name that several documents share at that kind (the files
    ``a.md`` and ``sub/a.txt`` both have the stem ``a``) is ambiguous, and resolving it is
    an error that names the candidates.

    Args:
        documents: the documents, or ``(id, relative_path)`` pairs (the path may be None).

    Example:
        >>> from chunkwise.types import Document
        >>> names = DocumentNames([Document("x", id="7f", metadata={"relative_path": "sub/a.md"})])
        >>> names.resolve("a"), names.resolve("sub/a.md"), names.resolve("7f"), names.name_of("7f")
        ('7f', '7f', '7f', 'a')
    """

    def __init__(self, documents: Iterable[Document | tuple[str, str | None]]) -> None:
        self._levels: list[dict[str, list[str]]] = [{}, {}, {}]
        self._relative: dict[str, str | None] = {}
        for item in documents:
            if isinstance(item, Document):
                doc_id, rel = item.id, item.metadata.get("relative_path")
                if not rel and item.source and not item.source.startswith("<"):
                    rel = PurePosixPath(item.source.replace("\\", "/")).name
            else:
                doc_id, rel = item
            rel = str(rel) if rel else None
            if doc_id in self._relative:
                continue
            self._relative[doc_id] = rel
            if rel:
                path, without, stem = _names_of(rel)
                names = [(0, doc_id), (1, path), (2, without), (2, stem)]
            else:
                names = [(0, doc_id)]
            for level, name in names:
                ids = self._levels[level].setdefault(name, [])
                if doc_id not in ids:
                    ids.append(doc_id)

    def __contains__(self, name: object) -> bool:
        return any(name in level for level in self._levels)

    def __len__(self) -> int:
        return len(self._relative)

    def get(self, name: str) -> str | None:
        """The id of the document called ``name``, or None when no document is.

        Raises:
            ConfigError: ``name`` is ambiguous (the message names the candidates).
        """
        for level in self._levels:
            ids = level.get(name)
            if not ids:
                continue
            if len(ids) > 1:
                candidates = ", ".join(sorted(self._relative[i] or i for i in ids))
                raise ConfigError(
                    f"document name {name!r} is ambiguous: it names {len(ids)} documents ({candidates}); "
                    "refer to the document by its path relative to the corpus folder"
                )
            return ids[0]
        return None

    def resolve(self, name: str) -> str:
        """The id of the document called ``name``.

        Raises:
            ConfigError: no document is called ``name``, or several are.
        """
        found = self.get(name)
        if found is None:
            raise ConfigError(f"no document of the corpus is called {name!r} (documents: {self.listing()})")
        return found

    def listing(self, limit: int = 10) -> str:
        """The readable names of the first ``limit`` documents (sorted), for messages."""
        names = sorted(self.name_of(i) for i in self._relative)
        more = f", and {len(names) - limit} more" if len(names) > limit else ""
        return ", ".join(names[:limit]) + more

    def name_of(self, document_id: str) -> str:
        """A readable name of a document: its stem when no other document shares it, else
        its relative path, else its id."""
        rel = self._relative.get(document_id)
        if rel:
            path, _, stem = _names_of(rel)
            for name in (stem, path):
                try:
                    if self.get(name) == document_id:
                        return name
                except ConfigError:
                    continue
        return document_id


def load_corpus(
    folder: str | os.PathLike[str],
    suffixes: Sequence[str] | None = CORPUS_SUFFIXES,
    *,
    encoding: str | None = None,
    ids: Literal["path", "stem"] = "path",
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    skipped: list[SkippedFile] | None = None,
    loader_options: Mapping[str, Any] | None = None,
) -> list[Document]:
    """The documents of a corpus folder, read exactly as ``chunkwise chunk FOLDER`` and
    ``chunkwise.load(path, root=FOLDER)`` read them.

    Files are found by :func:`chunkwise.loaders.find_files` (the folder searched
    recursively, sorted, hidden files passed over) and read by :func:`chunkwise.load`
    with the folder as root: same loader, same decoding (``\\r\\n`` kept), same id (derived
    from the path relative to the folder), so chunks, chunk ids and offsets agree with
    ``chunkwise chunk``. Probe sets name documents by stem, relative path or id; questions
    are resolved to ids by :class:`DocumentNames` (:func:`check_questions` and
    :func:`~chunkwise.evaluation.evaluate` do it).

    Args:
        folder: the corpus folder.
        suffixes: the file endings read, lower case (default ``.md``, ``.txt``,
            ``.markdown``, ``.rst``, ``.pdf``); None: every file a loader handles.
        encoding: a codec for every file instead of detecting each one.
        ids: ``"path"`` (default): the id of :func:`chunkwise.load`; ``"stem"``: the file
            name without its suffix (the ids of earlier versions; resolving names makes it
            unnecessary).
        include: glob patterns (as :func:`~chunkwise.loaders.find_files`): only the files
            matching one are read.
        exclude: glob patterns: the files matching one are left out (not reported).
        skipped: when given, a file that cannot be read or decoded, or whose format or
            suffix is not read, is appended to it as a :class:`SkippedFile` instead of
            raising (or, for a suffix or format, instead of being passed over in silence).
        loader_options: options for the loaders (``password``, ``pages`` of PDF files;
            see :func:`chunkwise.load`).

    Returns:
        The documents, sorted by relative path.

    Raises:
        LoadError: the folder does not exist, holds no such file, or (without
            ``skipped``) a file cannot be read or decoded or is in a format no loader
            handles (:class:`~chunkwise.errors.UnsupportedFormatError`).
        ConfigError: an unknown ``ids`` or ``encoding``.

    Example:
        ``load_corpus("data/chroma_eval/corpora")[0].metadata["relative_path"] == "chatlogs.md"``.
    """
    from ..loaders import find_files, load

    if ids not in ("stem", "path"):
        raise ConfigError(f"ids must be 'path' or 'stem', not {ids!r}")
    root = Path(folder)
    if not root.is_dir():
        raise LoadError(f"corpus folder {root} does not exist or is not a folder")
    passed: list[Any] = []
    found = list(find_files([root], suffixes, include=include or None, exclude=exclude or None, skipped=passed))
    if skipped is not None:
        skipped.extend(SkippedFile(Path(f.path), f.relative, f.reason) for f in passed)
    docs = []
    for f in found:
        try:
            doc = load(f, encoding=encoding, **dict(loader_options or {}))
        except ConfigError:  # an unknown encoding: the same for every file
            raise
        except Exception as exc:  # noqa: BLE001 - reported, then skipped, when asked to
            if skipped is None:
                raise
            skipped.append(SkippedFile(Path(f.path), f.relative, str(exc), exc))
            continue
        if ids == "stem":
            doc = dataclasses.replace(doc, id=PurePosixPath(f.relative).stem)
        docs.append(doc)
    if not docs and skipped is None:
        what = ", ".join(suffixes) if suffixes else "readable"
        raise LoadError(f"no {what} file in {root}")
    return docs


def resolve_questions(questions: Iterable[Question], documents: Sequence[Document] | DocumentNames) -> list[Question]:
    """The questions with every reference naming its document by id.

    A reference may name its document by id, relative path (``"sub/a.md"``), relative
    path without suffix or stem (``"a"``): see :class:`DocumentNames`. A question keeps
    its id (computed from the names it was loaded with), so per-question results do not
    depend on how its documents are named.

    Raises:
        ConfigError: a reference names no document of ``documents``, or several.
    """
    names = documents if isinstance(documents, DocumentNames) else DocumentNames(documents)
    out = []
    for q in questions:
        refs = []
        for doc, s, e in q.references:
            found = names.get(doc)
            if found is None:
                raise ConfigError(
                    f"question {q.text[:60]!r} refers to document {doc!r}, which is not in the corpus "
                    f"(documents: {names.listing()})"
                )
            refs.append((found, s, e))
        new = tuple(refs)
        out.append(q if new == q.references else dataclasses.replace(q, references=new))
    return out


def check_questions(questions: Iterable[Question], documents: Sequence[Document]) -> list[Question]:
    """Check that every reference lies inside a known document and matches its content.

    References are resolved first (:func:`resolve_questions`: a document may be named by
    id, relative path or stem).

    Returns:
        The questions, references resolved to document ids.

    Raises:
        ConfigError: a reference names an unknown document (or an ambiguous name), runs
            past its end, or its ``content`` differs from the text at its offsets.
    """
    names = DocumentNames(documents)
    texts = {d.id: d.text for d in documents}
    originals = list(questions)
    resolved = resolve_questions(originals, names)
    for q, original in zip(resolved, originals):
        for i, ((doc, s, e), (name, _, _)) in enumerate(zip(q.references, original.references)):
            if e > len(texts[doc]):
                raise ConfigError(
                    f"reference ({name!r}, {s}, {e}) of question {q.text[:60]!r} runs past the end of the document ({len(texts[doc])} characters)"
                )
            content = q.contents[i] if i < len(q.contents) else None
            if content is not None and texts[doc][s:e] != content:
                raise ConfigError(
                    f"reference ({name!r}, {s}, {e}) of question {q.text[:60]!r} does not match its content: "
                    f"the text there is {texts[doc][s:e][:60]!r}, expected {content[:60]!r}"
                )
    return resolved
