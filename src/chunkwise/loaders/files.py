"""Finding documents: files and folders named by the user, with the root each id is relative to.

Document ids of files (:func:`chunkwise.types.document_id_for_path`) derive from the path
relative to the root the user gave, so the same tree gives the same ids from any working
directory, by relative or absolute path:

* a folder named: its files' paths relative to that folder (``docs`` → ``guide/a.md``);
* a file named directly: relative to its parent folder, i.e. its name (``docs/a.md`` →
  ``a.md``); a file named directly that is a symbolic link: relative to the folder that
  holds the file it leads to, i.e. that file's name (``notes.md`` → ``docs/a.md`` gives
  ``a.md``, as ``docs/a.md`` does);
* symbolic links do not change an id: the path is the file's real path (every link
  resolved) relative to the root's real path, wherever the real file lies under the real
  root (``docs/latest/a.md``, ``latest`` a link to ``v2``, gives ``v2/a.md``, as
  ``docs/v2/a.md`` does); a file whose real path is outside the real root (a link that
  leads out of the tree) keeps its path as seen under the root (``docs/shared/a.md``,
  ``shared`` a link to another tree, gives ``shared/a.md``); a file reached without a
  link has the same id as ever;
* a file reached twice in one run (named directly and inside a named folder, or through
  two folders) is found once, whatever the order of the arguments: by the path through
  the fewest symbolic links below the folder named (a folder reached directly and through
  a link: the direct path; a file reached only through links keeps a link's path), then
  the path relative to the folder (the longest relative path); that path is its
  ``source``, and its id follows the rule above, so it is the id that either path alone
  gives when the real file is under the root;
* two different files with the same relative path (``docs/a.md`` and ``other/a.md`` named
  directly) take, both, their path relative to their nearest common folder
  (``docs/a.md``, ``other/a.md``), so no two documents of one run share an id;
* ``root=`` (``--root``): every file's path relative to that folder, whatever was named,
  so files named one at a time in separate runs keep distinct, stable ids; a path is
  inside the root when it is as typed or once its links are resolved.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from ..errors import ConfigError, UnsupportedFormatError
from ..types import document_id_for_path
from .base import HEAD_BYTES, detect_loader
from .compressed import CompressedLoader, inner_name, is_compressed_name

__all__ = ["FoundFile", "classify_entry", "display_path", "find_files", "list_folder", "relative_id_path"]

logger = logging.getLogger(__name__)


def display_path(path: str) -> str:
    """``path`` as valid UTF-8 text for metadata and output (``source``, ``filename``,
    ``relative_path``): unchanged when it already is; a name with bytes that are not UTF-8
    (Python holds them as surrogate escapes) has each such byte written ``\\xNN``
    (``'backslashreplace'`` over :func:`os.fsencode`), so it stays readable and distinct.

    Ids do not use this form: they hash the path itself, so they stay stable.

    Example:
        >>> display_path("a/caf\\udce9.txt"), display_path("a/café.txt")
        ('a/caf\\\\xe9.txt', 'a/café.txt')
    """
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        pass
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate that no file system byte gave
        raw = path.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "backslashreplace")


def _inside(path: str, base: str) -> str | None:
    """The POSIX path of absolute ``path`` relative to absolute ``base`` (lexical), or None
    when it is not inside it (``base`` itself, outside, another drive)."""
    try:
        rel = os.path.relpath(path, base)
    except ValueError:  # another drive (Windows)
        return None
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return rel.replace(os.sep, "/")


def _real(path: str) -> str:
    """``os.path.realpath`` of an absolute path; the path itself where it cannot be resolved."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError, RuntimeError):
        return path


def _real_name(absolute: str) -> str:
    """The name of the file that ``absolute`` leads to when it is a symbolic link (the last
    part of its real path); else its own name."""
    try:
        link = os.path.islink(absolute)
    except (OSError, ValueError):
        link = False
    if link:
        name = os.path.basename(_real(absolute))
        if name:
            return name
    return Path(absolute).name


def relative_id_path(path: str | os.PathLike[str], root: str | os.PathLike[str] | None = None) -> str:
    """The POSIX path of ``path`` relative to ``root`` that its document id derives from.

    Symbolic links do not change it: it is the real path of ``path`` (every link resolved)
    relative to the real path of ``root``, when the real file lies under the real root;
    otherwise (a link that leads out of the tree) the path as seen under ``root``
    (lexical). Without ``root``: the file's name, or, when ``path`` itself is a symbolic
    link, the name of the file it leads to. Computed from absolute paths, so the working
    directory does not matter, and a path without links gives the same result as ever.

    Raises:
        ConfigError: ``path`` is not inside ``root``, neither as typed nor once resolved.

    Example:
        >>> relative_id_path("docs/guide/a.md", "docs"), relative_id_path("docs/a.md")
        ('guide/a.md', 'a.md')
    """
    absolute = os.path.abspath(os.fspath(path))
    if root is None:
        return _real_name(absolute)
    base = os.path.abspath(os.fspath(root))
    rel = _inside(_real(absolute), _real(base))
    if rel is None:
        rel = _inside(absolute, base)
    if rel is None:
        raise ConfigError(f"{os.fspath(path)} is not inside root {os.fspath(root)}")
    return rel


def _folder_prefix(folder: str | os.PathLike[str], root: str | os.PathLike[str]) -> str | None:
    """What :func:`relative_id_path` gives every file ``folder/rel`` of a folder without
    symbolic links below it, before ``rel``: ``""`` (the folder is the root), ``"sub/"``,
    or None where the files must be resolved one by one (the real root lies inside the
    folder, or the folder is outside the root: :func:`relative_id_path` raises)."""
    top, base = os.path.abspath(os.fspath(folder)), os.path.abspath(os.fspath(root))
    real_top, real_base = _real(top), _real(base)
    if real_top == real_base or top == base:
        return ""
    rel = _inside(real_top, real_base)
    if rel is not None:  # real_top/rel has no link: each file really under the root
        return rel + "/"
    if real_base.startswith(real_top.rstrip(os.sep) + os.sep):  # some files under the root, others not
        return None
    rel = _inside(top, base)  # no file of it is really under the root: the paths as seen
    return None if rel is None else rel + "/"


@dataclass(frozen=True)
class FoundFile:
    """A file that :func:`find_files` found (an ``os.PathLike``: ``load(found)`` works).

    Attributes:
        path: the file, as found (the folder given joined with the path inside it) or as
            given.
        root: the folder its id is relative to.
        supported: whether a loader handles it (when false, :func:`chunkwise.load`
            raises :class:`~chunkwise.errors.UnsupportedFormatError` or
            :class:`~chunkwise.errors.LoadError`).
        reason: why it is not supported (``"pdf is not a supported format"``,
            ``"does not exist"``), ``""`` when supported.
        format: the format of its loader, when supported.
        relative: its POSIX path relative to ``root``; the document id derives from it
            (:attr:`id`). Default: computed from ``path`` and ``root``.
    """

    path: Path
    root: Path
    supported: bool = True
    reason: str = ""
    format: str | None = None
    relative: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))
        object.__setattr__(self, "root", Path(self.root))
        if not self.relative:
            object.__setattr__(self, "relative", relative_id_path(self.path, self.root))

    @property
    def id(self) -> str:
        """The id its document gets: :func:`~chunkwise.types.document_id_for_path` of
        :attr:`relative`."""
        return document_id_for_path(self.relative)

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    def __str__(self) -> str:
        return str(self.path)


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def _matcher(patterns: Sequence[str] | None, folders: bool = False) -> Any:
    """A test of a file's POSIX path relative to its folder against glob ``patterns``: one
    with ``/`` matches the whole path; one without, the file's name, or with ``folders``
    (``exclude``) also the name of any folder on the way (``drafts``: every file under
    it). None when there is no pattern."""
    if not patterns:
        return None
    if isinstance(patterns, str):
        patterns = [patterns]
    names = [p for p in patterns if "/" not in p]
    paths = [_glob_regex(p.lstrip("/")) for p in patterns if "/" in p]

    def match(rel: str) -> bool:
        parts = rel.split("/") if folders else (rel.rpartition("/")[2],)
        return any(fnmatchcase(part, p) for p in names for part in parts) or any(r.match(rel) for r in paths)

    return match


def _special(path: Path) -> str:
    """Why ``path`` is not a file to read (a dangling symbolic link, a named pipe, a
    socket, a device), or ``""`` for a regular file (or a link to one)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return f"dangling symbolic link (to {target})"
        return "does not exist"
    except OSError as exc:
        return f"cannot read ({exc.strerror or exc})"
    if stat.S_ISREG(st.st_mode):
        return ""
    if stat.S_ISFIFO(st.st_mode):
        return "not a regular file (a named pipe)"
    if stat.S_ISSOCK(st.st_mode):
        return "not a regular file (a socket)"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "not a regular file (a device)"
    if stat.S_ISDIR(st.st_mode):  # only a subfolder that could not be listed is classified
        try:
            with os.scandir(path):
                pass
        except OSError as exc:
            return f"cannot read ({exc.strerror or exc})"
        return "is a folder"
    return "not a regular file"


def _classify(path: Path, root: Path, relative: str = "", *, wanted: frozenset[str] | None = None) -> FoundFile:
    name = path.name
    special = _special(path)
    if special:  # never opened: reading a named pipe would wait forever
        return FoundFile(path, root, False, special, relative=relative)
    # NAME.EXT.gz (.bz2, .xz): chosen by the suffix its decompressed file would have, or by its own
    names = (name.lower(), inner_name(name).lower()) if is_compressed_name(name) else (name.lower(),)
    if wanted is not None and not any(n.endswith(s) for n in names for s in wanted):
        return FoundFile(path, root, False, f"suffix not among {', '.join(sorted(wanted))}", relative=relative)
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError as exc:
        return FoundFile(path, root, False, f"cannot read ({exc.strerror or exc})", relative=relative)
    try:
        loader = detect_loader(name, head)
        if isinstance(loader, CompressedLoader):
            inner = loader.peek(head)
            if inner is None:  # not data of its compression, or damaged: reading it tells which
                return FoundFile(path, root, True, "", None, relative=relative)
            loader = loader.inner(name, inner)
    except UnsupportedFormatError as exc:
        return FoundFile(path, root, False, f"{exc.format} is not a supported format", relative=relative)
    return FoundFile(path, root, True, "", loader.format, relative=relative)


def _walk_relative(
    folder: Path, hidden: bool, links: list[Path] | None = None, sizes: bool = False
) -> list[tuple[str, int]]:
    """Every entry under ``folder`` that is not a folder (files, links, pipes), as its POSIX
    path relative to ``folder`` and, with ``sizes``, its size in bytes (``stat``; 0 when it
    cannot be told; else 0), following symbolic links to folders; a link back to a folder
    being walked (a cycle) is not followed again. A subfolder that cannot be listed
    (permission denied) is itself an entry, so that the caller reports it. Hidden names
    and ``__pycache__`` folders are passed over unless ``hidden``. Sorted as
    ``sorted(folder.rglob("*"))`` sorts (by path components).
    ``links`` receives every symbolic link met (to a file or a folder). Strings, not
    :class:`~pathlib.Path` objects: a ``scandir`` walk of 6,455 files takes about 0.02 s."""
    out: list[tuple[str, int]] = []

    def visit(d: str, prefix: str, ancestors: frozenset[tuple[int, int]]) -> None:
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except OSError as exc:
            logger.info("cannot list %s: %s", d, exc.strerror or exc)
            if prefix:  # a subfolder: listed as an entry, so that it is reported, not lost
                out.append((prefix[:-1], 0))
            return
        for entry in entries:
            name = entry.name
            if not hidden and (name.startswith(".") or name == "__pycache__"):
                continue
            if links is not None and entry.is_symlink():
                links.append(Path(d) / name)
            try:
                is_dir = entry.is_dir()  # follows a symbolic link
            except OSError:
                is_dir = False
            if not is_dir:
                size = 0
                if sizes:
                    try:
                        size = entry.stat().st_size
                    except OSError:
                        pass
                out.append((prefix + name, size))
                continue
            try:
                st = os.stat(entry.path)
            except OSError:
                out.append((prefix + name, 0))
                continue
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                logger.info("not following %s: a link to a folder that contains it (a cycle)", Path(d) / name)
                continue
            visit(entry.path, prefix + name + "/", ancestors | {key})

    try:
        st = folder.stat()
        start = frozenset({(st.st_dev, st.st_ino)})
    except OSError:
        start = frozenset()
    visit(os.fspath(folder), "", start)
    out.sort(key=lambda e: e[0].split("/"))
    return out


def _walk(folder: Path, hidden: bool, links: list[Path] | None = None) -> list[Path]:
    """:func:`_walk_relative` as paths (``folder`` joined with each relative path)."""
    return [folder / rel for rel, _ in _walk_relative(folder, hidden, links)]


def list_folder(
    folder: str | os.PathLike[str],
    *,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    hidden: bool = False,
) -> list[tuple[str, int]] | None:
    """The entries of one folder that :func:`find_files` would classify, as ``(relative
    POSIX path, size in bytes)`` in its order, without reading any file (no format
    detection: :func:`classify_entry` does it, in a worker process of the caller's); or
    None when the folder holds a symbolic link (a file may then be reached twice, which
    only :func:`find_files` resolves). ``include``/``exclude``: as :func:`find_files`.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "b.md").write_text("# B"); (d / "a").mkdir(); _ = (d / "a" / "c.txt").write_text("C")
        >>> list_folder(d)
        [('a/c.txt', 1), ('b.md', 3)]
    """
    links: list[Path] = []
    entries = _walk_relative(Path(folder), hidden, links, sizes=True)
    if links:
        return None
    keep, drop = _matcher(include), _matcher(exclude, folders=True)
    if keep is None and drop is None:
        return entries
    # a folder among the entries is one that could not be listed: reported whatever include says
    return [
        e for e in entries
        if (keep is None or keep(e[0]) or os.path.isdir(os.path.join(folder, e[0])))
        and (drop is None or not drop(e[0]))
    ]


def classify_entry(
    folder: str | os.PathLike[str], relative: str, root: str | os.PathLike[str] | None = None
) -> FoundFile:
    """The :class:`FoundFile` that :func:`find_files` gives the entry ``relative`` of
    :func:`list_folder` (its first bytes read, its format detected; ``supported`` false
    with the reason when no loader reads it), its id relative to ``folder`` or, given,
    to ``root`` (:func:`relative_id_path`: symbolic links above ``folder`` resolved).

    Raises:
        ConfigError: the file is not inside ``root``.
    """
    top = Path(folder)
    path = top / relative
    if root is not None:
        prefix = _folder_prefix(top, root)  # a listed folder holds no link below it
        return _classify(path, Path(root), relative_id_path(path, root) if prefix is None else prefix + relative)
    return _classify(path, top, relative)


def _depth_key(f: FoundFile) -> int:
    return f.relative.count("/")


def _disambiguate(files: list[FoundFile]) -> list[FoundFile]:
    for _ in range(4):
        groups: dict[str, list[int]] = {}
        for k, f in enumerate(files):
            groups.setdefault(f.relative, []).append(k)
        clashes = [ks for ks in groups.values() if len(ks) > 1]
        if not clashes:
            return files
        for ks in clashes:
            # the path its id derives from (its root joined with its relative path: the
            # file's real path where a symbolic link was resolved), not the path as typed
            absolute = [os.path.abspath(os.path.join(files[k].root, files[k].relative)) for k in ks]
            try:
                common = os.path.commonpath(absolute)
            except ValueError:  # different drives
                common = ""
            for k, a in zip(ks, absolute):
                rel = os.path.relpath(a, common) if common else a
                files[k] = replace(files[k], root=Path(common or files[k].root), relative=rel.replace(os.sep, "/"))
    for k, f in enumerate(files):  # give up on relative paths: the absolute path is unique
        files[k] = replace(f, relative=Path(os.path.abspath(f.path)).as_posix())
    return files


def find_files(
    paths: Iterable[str | os.PathLike[str]],
    suffixes: Iterable[str] | None = None,
    *,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    skipped: list[FoundFile] | None = None,
    hidden: bool = False,
    root: str | os.PathLike[str] | None = None,
) -> Iterator[FoundFile]:
    """The files named by ``paths``, folders searched recursively, each once, with the
    root its document id is relative to.

    Files named directly are always yielded (with ``supported=False`` and a ``reason``
    when no loader handles them, or when they do not exist, so that the caller reports
    them). In folders, in sorted order, the files a loader handles are yielded (known
    suffixes: ``.txt``, ``.text``, ``.rst``, ``.rst.txt``, ``.md``, ``.markdown``,
    ``.html``, ``.htm``, ...; a file without a suffix whose bytes look like text; a
    ``NAME.EXT.gz`` whose decompressed ``NAME.EXT`` would be found, with the format of
    ``NAME.EXT``: :mod:`.compressed`); every
    other file is **not** silently dropped: it is appended to ``skipped`` as a
    :class:`FoundFile` with ``supported=False`` and its reason, and logged; so are
    dangling symbolic links, entries that are not regular files (named pipes, sockets,
    devices: never opened) and subfolders that cannot be listed (reason
    ``cannot read (Permission denied)``). Symbolic links to folders are followed, except one that leads
    back to a folder being walked (a cycle). Hidden files and folders (names starting with
    ``.``) and ``__pycache__`` folders (Python's compiled bytecode) inside a folder are
    passed over unless ``hidden``.

    Ids: see the module's documentation: a folder's files are relative to the folder, a
    file named directly to its parent (a symbolic link named directly: to the folder of
    the file it leads to); symbolic links resolved wherever the real file is under the
    real root (:func:`relative_id_path`), so a file has one id however it is reached; a
    file reached twice is found once (the path through the fewest symbolic links below
    its folder wins, then the longest relative path: it is the ``path``, and ``source``);
    different files with the same relative path both fall back to their path relative to
    their nearest common folder. With ``root``, every file's id is its path relative to
    ``root`` instead (stable across runs that name files one by one).

    ``skipped`` is filled lazily, as this is a generator: nothing is appended before the
    iteration starts, and all of it once the iterator is exhausted -- read it after
    ``list(find_files(...))``.

    Args:
        paths: files and folders.
        suffixes: in folders, only files with these endings (``".md"``; ``README.md.gz``
            too, by its name without ``.gz``); the others go to ``skipped``. Default:
            every file a loader handles.
        include: glob patterns; in folders, only files matching one are kept (the real
            name: ``*.md`` does not match ``README.md.gz``, ``*.md*`` does). A pattern
            without ``/`` matches the file's name (``"*.md"``; a folder named ``x.md`` is
            still searched, its files matched by their own names); one with ``/`` matches
            the whole path relative to the folder (``"guide/*.md"``, ``"**/api/*.md"``;
            ``**`` spans folders).
        exclude: glob patterns, as ``include``; matching files are left out (not
            reported). A pattern without ``/`` also matches a folder's name, leaving out
            every file under it (``"drafts"``).
        skipped: a list that receives the files of the folders that were not yielded
            because no loader handles them or their suffix was not asked for.
        hidden: also search hidden files and folders, and ``__pycache__`` folders.
        root: the folder every id is relative to (each path must be inside it, as typed
            or once its symbolic links are resolved).

    Returns:
        An iterator of :class:`FoundFile`, in the order of ``paths`` (sorted inside each
        folder). The folders are listed before the first file is yielded. One folder
        without symbolic links (the common case: nothing to find twice, no two ids alike)
        is streamed: each file's first bytes are read as it is yielded, so that a caller
        starts on the first files while the rest are classified, and ``skipped`` fills as
        the iteration goes (complete once it is exhausted). Otherwise every file is
        classified first (a file reached twice keeps the best path of all), and
        ``skipped`` fills in the same order: each file passed over is appended before the
        file found after it is yielded.

    Raises:
        ConfigError: with ``root``, a path outside it (when the iteration reaches it).

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "a.md").write_text("# A"); _ = (d / "b.odt").write_bytes(b"PK")
        >>> skipped = []
        >>> [f.relative for f in find_files([d, d / "a.md"], skipped=skipped)], [s.reason for s in skipped]
        (['a.md'], ['odt is not a supported format'])
    """
    wanted = frozenset(s.lower() if s.startswith(".") else "." + s.lower() for s in suffixes) if suffixes else None
    keep, drop = _matcher(include), _matcher(exclude, folders=True)
    found: list[FoundFile] = []
    seen: dict[str, int] = {}

    real_dirs: dict[str, str] = {}
    folder_links: dict[tuple[str, str], tuple[int, str]] = {}

    def key_of(f: FoundFile) -> str:
        """The file's real path: its folder's (resolved once per folder), then its name,
        unless the file itself is a symbolic link."""
        try:
            if f.path.is_symlink():
                return str(f.path.resolve())
            folder, name = os.path.split(os.path.abspath(f.path))
            real = real_dirs.get(folder)
            if real is None:
                real = real_dirs[folder] = os.path.realpath(folder)
            return os.path.join(real, name)
        except (OSError, RuntimeError):  # RuntimeError: a loop of symbolic links (Path.resolve)
            return os.path.abspath(f.path)

    def links_in(f: FoundFile) -> int:
        """The symbolic links the path of ``f`` passes through from its root's parent down
        (the root's own name, then each component of its relative path), so that links
        above the root (how its path was typed) do not count."""
        top = os.path.abspath(f.root)
        folder, _, name = f.relative.rpartition("/")
        known = folder_links.get((top, folder))
        if known is None:  # the links to the file's folder: counted once per folder
            parent, first = os.path.split(top)
            here = real_dirs.get(parent)
            if here is None:
                here = real_dirs[parent] = os.path.realpath(parent)
            n = 0
            for part in (first, *folder.split("/")):
                if not part:
                    continue
                step = os.path.join(here, part)
                if os.path.islink(step):
                    n += 1
                    step = os.path.realpath(step)
                here = step
            known = folder_links[(top, folder)] = (n, here)
        n, here = known
        return n + os.path.islink(os.path.join(here, name))

    def better(new: FoundFile, old: FoundFile, key: str) -> bool:
        """Of two paths to one file: the one through fewer symbolic links (below its root)
        wins; then the deeper relative path; then the smaller relative path, then the smaller
        absolute path (so the choice does not depend on the order of the arguments)."""
        a, b = (links_in(new), -_depth_key(new)), (links_in(old), -_depth_key(old))
        if a != b:
            return a < b
        return (new.relative, os.path.abspath(new.path)) < (old.relative, os.path.abspath(old.path))

    def add(f: FoundFile) -> None:
        key = key_of(f)
        if key in seen:
            k = seen[key]
            if better(f, found[k], key):
                found[k] = f
            return
        seen[key] = len(found)
        found.append(f)
        found_at.append(len(found_at) + len(passed_at))

    passed: list[FoundFile] = []
    passed_at: dict[str, int] = {}
    found_at: list[int] = []  # when each file of found, and of passed, was first reached
    passed_seq: list[int] = []

    def pass_over(f: FoundFile) -> None:  # a file reached through two folders is reported once
        key = key_of(f) if not f.reason.startswith("dangling") else os.path.abspath(f.path)
        if key in passed_at:
            k = passed_at[key]
            if better(f, passed[k], key):
                passed[k] = f
            return
        passed_at[key] = len(passed)
        passed.append(f)
        passed_seq.append(len(found_at) + len(passed_at) - 1)

    base = Path(root) if root is not None else None
    top_of_base = os.path.abspath(base) if base is not None else ""

    def under(path: Path, folder: Path, rel: str) -> tuple[Path, str]:
        """The root of ``path`` and its path relative to that root (``root=`` wins) as seen
        (resolved at the end), or resolved where it is inside ``root`` only through links."""
        if base is None:
            return folder, rel
        seen_rel = _inside(os.path.abspath(path), top_of_base)
        return base, seen_rel if seen_rel is not None else relative_id_path(path, base)

    paths = list(paths)
    listed: list[str] | None = None
    if len(paths) == 1 and Path(paths[0]).is_dir():
        folder = Path(paths[0])
        links: list[Path] = []
        listed = [rel for rel, _ in _walk_relative(folder, hidden, links)]
        if not links:  # each file once, under one folder: ids unique, classified as yielded
            prefix: str | None = None
            resolved = False
            for rel in listed:
                f = folder / rel
                if (keep is not None and not keep(rel) and not f.is_dir()) or (drop is not None and drop(rel)):
                    continue
                if base is None:
                    item = _classify(f, folder, rel, wanted=wanted)
                else:  # no link below the folder: its path under the root, resolved once
                    if not resolved:  # at its first file (a folder outside root raises there)
                        prefix, resolved = _folder_prefix(folder, base), True
                    item = _classify(
                        f, base, relative_id_path(f, base) if prefix is None else prefix + rel, wanted=wanted
                    )
                if item.supported:
                    yield item
                    continue
                logger.info("skipped %s: %s", item.path, item.reason)
                if skipped is not None:
                    skipped.append(item)
            return
    direct_links: dict[int, FoundFile] = {}  # files named directly that are symbolic links
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for rel in listed if listed is not None else [r for r, _ in _walk_relative(p, hidden)]:
                f = p / rel
                if (keep is not None and not keep(rel) and not f.is_dir()) or (drop is not None and drop(rel)):
                    continue
                item = _classify(f, *under(f, p, rel), wanted=wanted)
                if item.supported:
                    add(item)
                else:
                    pass_over(item)
        elif p.is_file():
            item = _classify(p, *under(p, p.parent, Path(os.path.abspath(p)).name))
            if base is None and p.is_symlink():
                direct_links[id(item)] = item
            add(item)
        else:  # named directly: kept, with the reason, so that reading it reports it
            top, rel = under(p, p.parent, Path(os.path.abspath(p)).name)
            add(FoundFile(p, top, False, _special(p) or "does not exist", relative=rel))
    # the ids: each file's real path relative to its root's real path, where it is under it
    keys = [""] * len(found)
    for key, k in seen.items():
        keys[k] = key
    real_roots: dict[str, str] = {}
    for k, f in enumerate(found):
        if not f.supported:
            continue
        if direct_links.get(id(f)) is f:  # a link named directly: the name of the file it leads to
            folder_of, name = os.path.split(keys[k])
            if name and (name != f.relative or folder_of != os.path.abspath(f.root)):
                found[k] = replace(f, root=Path(folder_of), relative=name)
            continue
        top = os.path.abspath(f.root)
        real_root = real_roots.get(top)
        if real_root is None:
            real_root = real_roots[top] = _real(top)
        rel = _inside(keys[k], real_root)
        if rel is not None and rel != f.relative:
            found[k] = replace(f, relative=rel)
    k = 0
    for f, at in zip(_disambiguate(found), found_at):
        while k < len(passed) and passed_seq[k] < at:  # the files passed over before this one
            logger.info("skipped %s: %s", passed[k].path, passed[k].reason)
            if skipped is not None:
                skipped.append(passed[k])
            k += 1
        yield f
    for item in passed[k:]:
        logger.info("skipped %s: %s", item.path, item.reason)
        if skipped is not None:
            skipped.append(item)
