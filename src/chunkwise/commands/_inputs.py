"""The inputs of the commands: files, folders and standard input, read one at a time, with
every per-file failure reported (the file, what went wrong, the fix) and skipped."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

__all__ = [
    "STDIN",
    "STDIN_SOURCE",
    "Failures",
    "Input",
    "Skipped",
    "classify",
    "counted",
    "emptiness",
    "gather",
    "matches",
    "passed_over",
    "read",
]

STDIN = "-"
STDIN_SOURCE = "<stdin>"
LISTED = 5
"""How many skipped files the summary names before "and N more"."""

SHOWN = 20
"""How many skipped files are reported one line each as they come; the rest are counted
in the summary (``--verbose``: every one, and every one named in the summary)."""


def counted(n: int, noun: str) -> str:
    """``1 document``, ``2 documents``, ``0 chunks``: a count and its noun, plural unless 1."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def emptiness(doc: Any, inp: Input | None = None) -> str | None:
    """Why a document has nothing to chunk (``zero bytes``: an empty file; ``white space
    only``; ``no text``: a file whose format held none), or None when it has text."""
    text = getattr(doc, "text", "")
    if text.strip():
        return None
    if text:
        return "white space only"
    if inp is not None and inp.path is not None:
        try:
            if inp.path.stat().st_size == 0:
                return "zero bytes"
        except OSError:
            pass
        return "no text"
    return "zero bytes"


@dataclass(frozen=True)
class Input:
    """A file to read (``path``; ``root``: the folder it was found in, if any; ``found``:
    the loader's record of it, when :func:`chunkwise.loaders.find_files` gives one) or
    standard input (``path`` None)."""

    path: Path | None
    root: Path | None = None
    found: Any = None
    named: bool = False
    """Named on the command line (not found in a folder)."""

    @property
    def name(self) -> str:
        return STDIN_SOURCE if self.path is None else self.path.as_posix()


@dataclass(frozen=True)
class Skipped:
    """A file left out: its name, the kind of failure, what happened and the fix."""

    name: str
    kind: str
    reason: str
    fix: str = ""
    why: str = ""
    """For an empty document: why it has no text (``zero bytes``, ``white space only``, ...)."""

    def line(self) -> str:
        return f"skipped {self.name}: {self.reason}" + (f"; fix: {self.fix}" if self.fix else "")


@dataclass
class Failures:
    """The files skipped so far; each is reported on standard error when added.

    The rule of the exit status (every command): a file that failed makes it 1; an empty
    document (zero bytes, white space only, a binary file without text) is skipped and
    named but is not a failure, unless no input produced a chunk at all -- then the status
    is 1 and nothing is written (:meth:`failed`)."""

    items: list[Skipped] = field(default_factory=list)
    empty: list[Skipped] = field(default_factory=list)
    """Documents without text: skipped and named, not failures (see :meth:`failed`)."""
    shown: int | None = SHOWN
    """Skipped files reported one line each as they come; then one line says the rest are
    only counted (None: every one, and :meth:`summary` names every one)."""
    echo: Callable[[str], Any] | None = None
    """Writes a line on standard error: a progress bar's writer while one is drawn, so that
    the line is not glued to the bar (None: :func:`click.echo`)."""
    every_option: str = ""
    """How to have every one reported (a command's option), said when the rest are only
    counted: ``--verbose``."""
    said: int = 0
    """The skipped files reported so far."""
    every: list[Skipped] = field(default_factory=list)
    """Every file skipped (failed or empty), in the order reported: input order."""

    def add(self, skipped: Skipped) -> None:
        """Report ``skipped``; an empty file of a binary format (a loader's ``empty``
        kind: a 0-byte PDF) counts as an empty document, as a 0-byte text file does."""
        if skipped.kind == "empty":
            zero = "0 bytes" in skipped.reason or "zero bytes" in skipped.reason
            skipped = dataclasses.replace(skipped, why=skipped.why or ("zero bytes" if zero else "no text"))
            self.empty.append(skipped)
        else:
            self.items.append(skipped)
        self.every.append(skipped)
        self.said += 1
        if self.shown is not None and self.said > self.shown:
            if self.said > self.shown + 1:
                return
            line = (f"skipped more files: only the first {self.shown} are reported as they come; the summary at "
                    "the end counts them all" + (f" ({self.every_option} reports every one)" if self.every_option else ""))
        else:
            line = skipped.line()
        if self.echo is not None:
            self.echo(line)
        else:
            click.echo(line, err=True)

    def add_empty(self, name: str, why: str) -> None:
        """Skip an empty document (``why``: ``zero bytes``, ``white space only``, ``no
        text``), reported on standard error now and in :meth:`summary`."""
        self.add(Skipped(name, "empty", f"empty document ({why}): nothing to chunk", why=why))

    def failed(self, produced: int) -> bool:
        """Whether the exit status is 1, given how many documents produced chunks: a file
        failed, or none produced a chunk and some input was an empty document."""
        return bool(self.items) or (produced == 0 and bool(self.empty))

    def extend(self, items: Iterable[Skipped]) -> None:
        for s in items:
            self.add(s)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def names(self) -> set[str]:
        return {s.name for s in self.items}

    def summary(self) -> str:
        """``skipped 3 files: 2 undecodable, 1 unsupported`` and the first files, then
        ``and N more`` (in the order they were reported: input order); empty when nothing
        was skipped."""
        every = self.every
        if not every:
            return ""
        kinds = Counter(s.kind for s in every)
        n = len(every)
        lines = [f"skipped {counted(n, 'file')}: " + ", ".join(f"{c} {k}" for k, c in kinds.most_common())]
        listed = n if self.shown is None else LISTED
        lines += [f"  {s.name} ({s.kind}{': ' + s.why if s.why else ''})" for s in every[:listed]]
        if n > listed:
            lines.append(f"  and {n - listed} more")
        return "\n".join(lines)


# -- finding files ---------------------------------------------------------------------


def matches(rel: str, patterns: Sequence[str], *, folders: bool = False) -> bool:
    """Whether a glob of ``patterns`` matches the file ``rel`` (its path under the folder
    given): one without ``/`` matches the file's name (``*.md``), or with ``folders`` (the
    rule of ``--exclude``) also a folder's name on the way (``drafts``); one with ``/`` the
    whole path (``guide/*.md``, ``**/api/*``) -- the rule of
    :func:`chunkwise.loaders.find_files`."""
    from ..loaders.files import _matcher

    match = _matcher(list(patterns), folders)
    return match is not None and bool(match(rel))


def _glob_literal(path: str) -> str:
    """``path`` as a glob that matches only itself (``[``, ``*``, ``?`` escaped)."""
    return re.sub(r"([\[*?])", r"[\1]", path)


def exclude_hint(path: Path, relative: str | None = None) -> str:
    """The ``--exclude`` glob that leaves out a file like ``path``: ``*.pdf`` when no loader
    reads its suffix (every such file fails alike), else the file's own path relative to
    the folder given (``relative``; default: its name), so that one bad ``.txt`` does not
    suggest leaving out every good one."""
    from ..loaders import SUFFIXES
    from ..loaders.compressed import inner_name, is_compressed_name

    name = path.name.lower()
    if is_compressed_name(name):  # NAME.EXT.gz (.bz2, .xz): by the suffix under .gz (*.tar.gz), never every .gz file
        inner = Path(inner_name(name))
        handled = any(inner.name.endswith(s) and len(inner.name) > len(s) for s in SUFFIXES)
        if inner.suffix and not handled:
            return f"*{inner.suffix}{path.suffix}"
        return _glob_literal(relative or path.name)
    handled = any(name.endswith(s) and len(name) > len(s) for s in SUFFIXES)
    if path.suffix and not handled:
        return f"*{path.suffix}"
    return _glob_literal(relative or path.name)


def unsupported(name: str, path: Path, reason: str = "not a supported format", relative: str | None = None) -> Skipped:
    """The skip of a file of a folder whose format chunkwise (or this command) does not read
    (``relative``: its path relative to the folder given, for the ``--exclude`` hint)."""
    glob = exclude_hint(path, relative)
    what = "such files" if glob.startswith("*") else "this file"
    fix = f"leave {what} out with --exclude '{glob}' (or convert it to text first)"
    return Skipped(name, "unsupported", reason, fix)


def gather(
    paths: Iterable[str | os.PathLike[str]],
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    root: str | os.PathLike[str] | None = None,
) -> tuple[list[Input], list[Skipped]]:
    """The inputs named by ``paths`` (``-``: standard input, once; folders searched
    recursively, in sorted order, by :func:`chunkwise.loaders.find_files`), and the files
    of those folders that are skipped because chunkwise does not read their format (or
    cannot open them).

    ``include`` and ``exclude`` globs choose among the files of folders (files named
    directly are always read): a glob without ``/`` matches a file's name (``*.md``; for
    ``exclude`` also a folder's name, leaving out the files under it: ``drafts``), one
    with ``/`` the path under the folder given (``guide/*.md``, ``**/api/*``). A file
    named directly that does not exist or that chunkwise does not read is kept, so that
    reading it reports it. ``root`` (``--root``):
    every file's id derives from its path relative to that folder.

    Raises:
        click.UsageError: a path outside ``root``.
    """
    from ..loaders import find_files

    paths = list(paths)
    inputs: list[Input] = []
    if any(str(p) == STDIN for p in paths):
        inputs.append(Input(None))
    files = [p for p in paths if str(p) != STDIN]
    if not files:
        return inputs, []
    found_skipped: list[Any] = []
    direct = {os.path.abspath(p) for p in files if not Path(p).is_dir()}
    from ..errors import ConfigError

    try:
        found = list(
            find_files(
                files, include=list(include) or None, exclude=list(exclude) or None, skipped=found_skipped, root=root
            )
        )
    except ConfigError as exc:
        raise click.UsageError(f"{exc} (--root must contain every path named)") from exc
    for f in found:
        inputs.append(Input(Path(f.path), root=Path(f.root), found=f, named=os.path.abspath(f.path) in direct))
    taken = {os.path.abspath(i.path) for i in inputs if i.path is not None}
    skipped = [
        passed_over(Path(f.path), f.reason, f.relative) for f in found_skipped if os.path.abspath(f.path) not in taken
    ]
    return inputs, skipped  # a file also named directly is reported when read


def passed_over(path: Path, reason: str, relative: str | None = None) -> Skipped:
    """The skip of a file of a folder that the loader passed over without reading it
    (:func:`chunkwise.loaders.find_files`'s ``skipped``: a format no loader handles, a
    suffix not asked for, a file it cannot open, a dangling symbolic link, a named pipe or
    other special file; ``relative``: its path under the folder given, for the
    ``--exclude`` hint)."""
    reason = str(reason or "not a supported format")
    if reason.startswith("cannot read"):
        what = "folder" if path.is_dir() else "file"
        return Skipped(path.as_posix(), "unreadable", reason, f"check the {what} and its permissions")
    if reason == "does not exist":  # listed, then gone before it was read (deleted during the run)
        return Skipped(path.as_posix(), "unreadable", "does not exist (removed after the folder was listed)",
                       "check the path; run again once the folder has stopped changing")
    if reason.startswith("dangling"):
        glob = _glob_literal(relative or path.name)
        return Skipped(
            path.as_posix(), "unreadable", reason, f"point the link at a file, or leave it out with --exclude '{glob}'"
        )
    if reason.startswith("not a regular file"):
        glob = _glob_literal(relative or path.name)
        return Skipped(path.as_posix(), "unsupported", reason, f"leave it out with --exclude '{glob}'")
    return unsupported(path.as_posix(), path, reason, relative)


# -- reading ---------------------------------------------------------------------------


def read(inp: Input, *, encoding: str | None = None, fmt: str = "text") -> Any:
    """The :class:`~chunkwise.Document` of an input (standard input: in ``fmt``), by
    :func:`chunkwise.load` or :func:`chunkwise.parse` (``encoding``: a codec instead of
    detecting one).

    The loader options are the command's ``-L KEY=VALUE``.

    Raises whatever reading raises (``LoadError``, ``UnsupportedFormatError``,
    ``OSError``, ``UnicodeError``, ...); :func:`classify` turns it into a :class:`Skipped`.
    """
    from ..loaders import load, parse
    from ._options import loader_options_of

    options = loader_options_of()  # -L KEY=VALUE
    if inp.path is None:
        return parse(sys.stdin.buffer.read(), fmt, source=STDIN_SOURCE, encoding=encoding, **options)
    if inp.found is not None:  # carries its root and the path its id derives from
        return load(inp.found, encoding=encoding, **options)
    return load(inp.path, root=inp.root, encoding=encoding, **options)


def _strip_name(message: str, name: str) -> str:
    for prefix in (f"{name}: ", f"{name} ", f"cannot read {name}: "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def classify(exc: BaseException, inp: Input | str, stage: str = "read", encoding: str | None = None) -> Skipped:
    """What a failure to read (``stage="read"``), chunk (``"chunk"``) or write
    (``"write"``) one input means, and its fix (``encoding``: the ``--encoding`` given)."""
    from ..errors import ConfigError, MissingDependencyError, OversizeError, ParseError

    name = inp if isinstance(inp, str) else inp.name
    chain: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and e not in chain:
        chain.append(e)
        e = e.__cause__ or e.__context__
    message = _strip_name(str(exc), name) or type(exc).__name__
    if isinstance(exc, UnicodeDecodeError):
        message = f"not valid {exc.encoding} ({exc.reason} at byte {exc.start})"

    def has(*types: type) -> bool:
        return any(isinstance(x, types) for x in chain)

    if stage == "write":
        return Skipped(
            name,
            "unserialisable",
            f"a value that cannot be written as JSON in UTF-8 ({type(exc).__name__}: {message})",
            "correct that value (front matter, metadata) in the file",
        )
    if has(ConfigError) and stage == "chunk":
        return Skipped(name, "not chunked", message, "change the options named in the message")
    if has(ConfigError) and stage == "read":  # a loader option (-L) this file's format does not take
        return Skipped(name, "not read", message, "change the -L loader options named in the message")
    # a loader's own diagnosis (a PDF encrypted, damaged, without a text layer): its problem and fix
    told = next((x for x in chain if getattr(x, "fix", None) and getattr(x, "problem", None)), None)
    if told is not None and stage == "read":
        return Skipped(name, getattr(told, "kind", "unreadable"), _strip_name(told.problem, name), told.fix)
    if has(MissingDependencyError):
        return Skipped(name, "missing dependency", message, "")
    if any("unsupported" in type(x).__name__.lower() for x in chain):
        if isinstance(inp, Input) and (inp.named or inp.path is None):
            return Skipped(name, "unsupported", message, "convert it to text, Markdown or HTML first, or leave it out")
        relative = getattr(inp.found, "relative", None) if isinstance(inp, Input) else None
        return unsupported(name, Path(name), message, relative)
    if has(ParseError):
        message = "; ".join(part for part in message.split("; ") if "format='text'" not in part)
        return Skipped(
            name,
            "unparsable",
            message,
            "check that the file is valid in its format (or rename it .txt to read it as text), "
            "or leave it out with --exclude",
        )
    if has(UnicodeDecodeError) or "not valid utf-8" in message.lower() or "decode" in message.lower():
        # the library's hints name its Python argument (encoding=); the fix below names the option
        message = "; ".join(part for part in message.split("; ") if "encoding=" not in part)
        fix = (
            "give the file's real encoding with --encoding, or leave --encoding out to detect it"
            if encoding
            else "give its encoding with --encoding (for example --encoding cp1252), or convert it to UTF-8"
        )
        return Skipped(name, "undecodable", message, fix)
    if has(FileNotFoundError):
        return Skipped(name, "unreadable", message, "check the path")
    if has(IsADirectoryError):
        return Skipped(name, "unreadable", message, "name a file, or the folder alone to read the files in it")
    if has(PermissionError):
        return Skipped(name, "unreadable", message, "give yourself permission to read it")
    if stage == "read" and has(OSError):
        return Skipped(name, "unreadable", message, "check the file and the disk it is on")
    if has(OversizeError):
        return Skipped(name, "oversize", message, "")
    if stage == "read":
        return Skipped(name, "unreadable", f"{type(exc).__name__}: {message}", "check that the file is in its format")
    return Skipped(
        name,
        "not chunked",
        f"{type(exc).__name__}: {message}",
        "this looks like a bug of chunkwise; please report it with the file",
    )
