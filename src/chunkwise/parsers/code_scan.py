"""Python source by a structural scan: statements by indentation, without a syntax tree.

:func:`scan_python` gives the same :class:`~chunkwise.parsers.code.CodeStructure` as the
tree-sitter grammar (definitions with decorators, leading comments, qualified names and
signatures; statement cuts ranked by indentation; line and token cuts) from what Python's
own tokenizer decides by (the language reference's "Line structure"): strings and
comments are masked by one regular expression, a logical line starts where the bracket
depth is 0 and the line before does not end with a backslash, and blocks are read from
indentation. Nothing inside a definition that fits the budget is read but the
definitions inside it.

It returns None -- the caller then parses with tree-sitter or the standard library's
:mod:`ast` -- when the file is not plainly well formed: an unterminated string, brackets
that do not balance, an indentation that no block explains (an unexpected indent, a
dedent to no open level, a block header without a block), tabs or form feeds in
indentation, a lone carriage return as a line break, a decorator or clause (``else``,
``except``) in the wrong place.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Any

from .code import CodeStructure, _analyze, _line_cuts, _line_start, _Node, _token_cut

__all__ = ["scan_python"]

_STRING = (  # unrolled loops: linear, also where a string does not end
    r"'''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*'"
    r'|"[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*"'
)
# comments, strings (any prefix: only the quotes matter), backslash continuations, and a
# quote that opens no string (the file is not well formed)
_LEX = re.compile(rf"(#[^\r\n]*)|({_STRING})|(\\(?:\r\n|\n))|(['\"])")
_BRACKETS = str.maketrans("[{]}", "(())")
_BAD_INDENT = re.compile(r"^ *[\t\f]", re.M)
_KIND = re.compile(
    r"(?:async[ \t]+)?(def|class|if|elif|else|for|while|try|except|finally|with|match|case|import|from|return|raise"
    r"|pass|break|continue|del|global|nonlocal|assert)(?!\w)"
)
_TYPES = {
    "def": "function_definition", "class": "class_definition", "if": "if_statement", "elif": "elif_clause",
    "else": "else_clause", "for": "for_statement", "while": "while_statement", "try": "try_statement",
    "except": "except_clause", "finally": "finally_clause", "with": "with_statement", "match": "match_statement",
    "case": "case_clause", "import": "import_statement", "from": "import_from_statement",
    "return": "return_statement", "raise": "raise_statement", "pass": "pass_statement",
    "break": "break_statement", "continue": "continue_statement", "del": "delete_statement",
    "global": "global_statement", "nonlocal": "nonlocal_statement", "assert": "assert_statement",
}
_CLAUSES = frozenset({"elif", "else", "except", "finally"})
_SOFT = frozenset({"match", "case"})  # keywords only as block headers
_NAME = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
_INNER_DEF = re.compile(r"^[ ]+(?:async[ \t]+)?(?:def|class)[ \t]", re.M)
_HEADER = re.compile(r"[():]")
_TOKEN = re.compile(
    rf"{_STRING}|#[^\r\n]*|(?:\d|\.\d)(?:[eE][+-]|[\w.])*|\w+(?:{_STRING})?"
    r"|\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%&|^@<>=!]=|\.\.\.|\S"
)
_IMPORTS = frozenset({"import_statement", "import_from_statement", "future_import_statement"})


class _Fail(Exception):
    """The scan does not explain the file: another parser reads it."""


class _Scanner:
    def __init__(self, text: str, masked: str, fits: Callable[[int, int], bool] | None) -> None:
        self.text = text
        self.masked = masked
        self.fits = fits
        self.starts: list[int] = []  # logical lines with code: first character
        self.inds: list[int] = []  # indentation (spaces)
        self.ends: list[int] = []  # end of the line (a comment on it included)
        self.code_ends: list[int] = []  # end of its code
        self.cstarts: list[int] = []  # comment lines
        self.cends: list[int] = []
        self.cinds: list[int] = []
        self.ops: list[bool] = []  # the logical line ends with ":" (a block header)
        self.nxt: list[int] = []
        self.closed: list[tuple[int, int]] = []
        self._kinds: dict[int, str] = {}

    # -- lines ------------------------------------------------------------------------

    def lines(self) -> None:
        starts, inds, ends = self.starts, self.inds, self.ends
        cstarts, cends, cinds, ops, code_ends = self.cstarts, self.cends, self.cinds, self.ops, self.code_ends
        pos = 0
        depth = 0
        for line in self.masked.split("\n"):
            r = line.rstrip(" \t\f\r#")
            if not r:
                if not depth and "#" in line:
                    ls = line.lstrip(" ")
                    cstarts.append(pos + len(line) - len(ls))
                    cends.append(pos + len(line.rstrip()))
                    cinds.append(len(line) - len(ls))
            else:
                if not depth:
                    code = r.lstrip(" ")
                    ind = len(r) - len(code)
                    starts.append(pos + ind)
                    inds.append(ind)
                    ends.append(pos + len(line.rstrip()))
                    code_ends.append(pos + len(r))
                    ops.append(r[-1] == ":")
                else:
                    ends[-1] = pos + len(line.rstrip())
                    code_ends[-1] = pos + len(r)
                    ops[-1] = r[-1] == ":"
                if "(" in r or ")" in r:
                    depth += r.count("(") - r.count(")")
                    if depth < 0:
                        raise _Fail
            pos += len(line) + 1
        if depth:
            raise _Fail
        # the next line at the same or a lower indentation; blocks checked
        n = len(starts)
        nxt = [n] * n
        stack: list[int] = []
        ops = self.ops
        prev = -1
        for j in range(n):
            ij = inds[j]
            last = -1
            while stack and inds[stack[-1]] >= ij:
                last = stack.pop()
                nxt[last] = j
            if prev < 0:
                if ij:
                    raise _Fail  # an unexpected indent
            else:
                p = inds[prev]
                opener = ops[prev]
                if ij > p:
                    if not opener:
                        raise _Fail  # an unexpected indent
                elif opener or (ij < p and inds[last] != ij):
                    raise _Fail  # a header without a block, or a dedent to no open level
            stack.append(j)
            prev = j
        if n and ops[-1]:
            raise _Fail
        self.nxt = nxt

    def kind(self, k: int) -> str:
        """The first keyword of logical line ``k`` ("@" for a decorator, "" for others)."""
        v = self._kinds.get(k)
        if v is None:
            s = self.starts[k]
            if self.text[s] == "@":
                v = "@"
            else:
                m = _KIND.match(self.text, s)
                v = m.group(1) if m else ""
                if v in _SOFT and not self.ops[k]:
                    v = ""
            self._kinds[k] = v
        return v

    # -- nodes ------------------------------------------------------------------------

    def header_end(self, head: int, k: int) -> int:
        """Where the body of the definition at ``head`` (logical line ``k``) begins: after
        the colon that closes its header, past a comment on that line."""
        depth = 0
        end = self.ends[k]
        for m in _HEADER.finditer(self.masked, head, end):
            c = m.group()
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0:
                p = m.end()
                if self.masked[p:end].strip(" \t\r#") == "" and k + 1 < len(self.starts):
                    return self.starts[k + 1]  # a block on the lines below: it starts there
                while p < end and self.text[p] in " \t":
                    p += 1
                return p
        raise _Fail

    def stop(self, k: int) -> int:
        """Where the statement of line ``k`` ends: its code; after a block, the end of its
        last line and the comment lines indented into it that follow it (the grammar's
        block holds them)."""
        nxt = self.nxt[k]
        if nxt == k + 1:
            return self.code_ends[k]
        e = self.ends[nxt - 1]
        cstarts = self.cstarts
        c = bisect_left(cstarts, self.starts[nxt] if nxt < len(self.starts) else len(self.text)) - 1
        while c >= 0 and cstarts[c] > e:
            if self.cinds[c] > self.inds[k]:
                return self.cends[c]
            c -= 1
        return e

    def definition(self, k: int, start: int, kw: str) -> _Node:
        s = self.starts[k]
        node = _Node("decorated_definition" if start < s else _TYPES[kw], start, self.stop(k))
        m = _NAME.match(self.text, s)
        if m is None:
            raise _Fail
        node.name = m.group(1)
        node.def_type = _TYPES[kw]
        node.head = s
        node.head_end = self.header_end(s, k)
        return node

    def block(self, node: _Node, k: int) -> None:
        """The body of the statement on line ``k`` (lines ``k + 1`` to ``nxt[k]``) as a
        ``block`` child of ``node``, after the comment lines above its first statement,
        as the grammar has it; ``k = -1``: the module, straight into ``node``."""
        nxt, starts = self.nxt, self.starts
        if k < 0:
            self.attach(node, self.statements(0, len(starts)), 0)
            return
        i, j = k + 1, nxt[k]
        blk = _Node("block", starts[i], self.stop(k))
        cstarts = self.cstarts
        for c in range(bisect_left(cstarts, self.ends[k]), bisect_left(cstarts, starts[i])):
            cm = _Node("comment", cstarts[c], self.cends[c])
            cm.trivia = cm.comment = True
            node.children.append(cm)
        node.children.append(blk)
        node.children.sort(key=_start)
        self.attach(blk, self.statements(i, j), starts[i])

    def statements(self, i: int, j: int) -> list[tuple[_Node, int]]:
        """The statements of lines ``[i, j)`` (one indentation level) with their first
        lines; a compound statement's clauses (``elif``, ``else``, ``except``,
        ``finally``) become its children, their bodies read here."""
        nxt, kinds, starts, inds = self.nxt, self.kind, self.starts, self.inds
        kids: list[tuple[_Node, int]] = []
        clauses: list[tuple[_Node, int]] = []
        k = i
        while k < j:
            kw = kinds(k)
            if kw == "@":
                d0 = starts[k]
                while kw == "@":
                    k = nxt[k]
                    if k >= j or inds[k] != inds[i]:
                        raise _Fail
                    kw = kinds(k)
                if kw not in ("def", "class"):
                    raise _Fail
                kids.append((self.definition(k, d0, kw), k))
            elif kw in ("def", "class"):
                kids.append((self.definition(k, starts[k], kw), k))
            elif kw in _CLAUSES:
                raise _Fail  # a clause without its statement
            else:
                t = _TYPES.get(kw, "expression_statement")
                if kw == "from" and self.text.startswith("__future__", _skip(self.text, starts[k] + 4)):
                    t = "future_import_statement"
                stmt = _Node(t, starts[k], self.stop(k))
                kids.append((stmt, k))
                c = nxt[k]
                while c < j and inds[c] == inds[k] and kinds(c) in _CLAUSES:
                    clause = _Node(_TYPES[kinds(c)], starts[c], self.stop(c))
                    stmt.children.append(clause)
                    clauses.append((clause, c))
                    stmt.end = clause.end
                    k = c
                    c = nxt[c]
            k = nxt[k]
        for clause, c in clauses:
            if nxt[c] > c + 1:
                self.block(clause, c)
        return kids

    def attach(self, node: _Node, kids: list[tuple[_Node, int]], lo: int) -> None:
        """``kids`` and the comment lines between them (from ``lo``) become ``node``'s
        children; each kid over several lines is opened, or closed when it is a
        definition that fits."""
        text, fits, nxt, ends, code_ends = self.text, self.fits, self.nxt, self.ends, self.code_ends
        out = [kid for kid, _k in kids]
        for kid, k in kids:  # a comment after a statement on its line
            if nxt[k] == k + 1 and ends[k] > code_ends[k] and not kid.children:
                cm = _Node("comment", self.masked.index("#", code_ends[k]), ends[k])
                cm.trivia = cm.comment = True
                out.append(cm)
        if len(out) > len(kids):
            out.sort(key=_start)
        cstarts = self.cstarts
        ci, cj = bisect_left(cstarts, lo), bisect_right(cstarts, node.end)
        if ci < cj:  # comment lines not inside a child (a child reads its own)
            merged: list[_Node] = []
            x = 0
            for c in range(ci, cj):
                p = cstarts[c]
                while x < len(out) and out[x].end <= p:
                    merged.append(out[x])
                    x += 1
                if x < len(out) and out[x].start <= p:
                    continue
                cm = _Node("comment", p, self.cends[c])
                cm.trivia = cm.comment = True
                merged.append(cm)
            merged.extend(out[x:])
            out = merged
        node.children = out
        # a definition that fits with the comments right above it is an atom the packer
        # never cuts: only the definitions inside it are read
        line = {id(kid): k for kid, k in kids}
        lead = -1
        for kid in out:
            if kid.comment:
                if lead < 0:
                    lead = kid.start
                continue
            group = lead if lead >= 0 else kid.start
            lead = -1
            k = line[id(kid)]
            if kid.name is not None and fits is not None and fits(_line_start(text, group), kid.end):
                kid.closed = True
                self.closed.append((kid.start, kid.end))
                self.inner(kid, k)
            elif nxt[k] > k + 1:
                self.block(kid, k)

    def inner(self, node: _Node, k: int) -> None:
        """The definitions inside the closed definition ``node`` (line ``k``), nested."""
        starts, inds = self.starts, self.inds
        chain: list[_Node] = [node]
        for m in _INNER_DEF.finditer(self.masked, starts[k], node.end):
            s = m.start() + len(m.group()) - len(m.group().lstrip(" "))
            i = bisect_left(starts, s)
            if i >= len(starts) or starts[i] != s:
                continue  # not a statement (inside brackets)
            d = i
            while d > k + 1 and self.text[starts[d - 1]] == "@" and inds[d - 1] == inds[i]:
                d -= 1
            kw = self.kind(i)
            if kw not in ("def", "class"):
                continue
            inner = self.definition(i, starts[d], kw)
            inner.closed = True
            while len(chain) > 1 and chain[-1].end <= inner.start:
                chain.pop()
            chain[-1].children.append(inner)
            chain.append(inner)


def _start(node: _Node) -> int:
    return node.start


def _skip(text: str, p: int) -> int:
    while p < len(text) and text[p] in " \t":
        p += 1
    return p


def _mask(text: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The text with strings as ``_``, comments as ``#``, backslash continuations as
    spaces and brackets as ``(``/``)`` (same length); the multi-line strings."""
    parts: list[str] = []
    opaque: list[tuple[int, int]] = []
    prev = 0
    for m in _LEX.finditer(text):
        s, e = m.span()
        g = m.lastindex
        parts.append(text[prev:s])
        if g == 1:
            parts.append("#" * (e - s))
        elif g == 2:
            parts.append("_" * (e - s))
            if "\n" in m.group() or "\r" in m.group():
                opaque.append((s, e))
        elif g == 3:
            parts.append(" " * (e - s))
        else:
            return None
        prev = e
    parts.append(text[prev:])
    return "".join(parts).translate(_BRACKETS), opaque


def _tokens(text: str, opaque: list[tuple[int, int]], closed: list[tuple[int, int]]) -> Any:
    """A function ``(start, end) -> cuts`` between the tokens of ``text[start:end]`` on one
    line (a string, a comment and a definition left closed are one token each)."""
    dark = sorted(opaque + closed)
    dstarts = [a for a, _ in dark]

    def cuts(start: int, end: int) -> Iterator[tuple[int, int]]:
        pos = start
        prev = -1
        k = bisect_right(dstarts, pos) - 1
        if k >= 0 and dark[k][0] < pos < dark[k][1]:  # begun inside a string or a closed definition
            prev = pos = dark[k][1]
        search = _TOKEN.search
        while pos < end:
            m = search(text, pos, end)
            if m is None:
                return
            s, e = m.span()
            k = bisect_left(dstarts, s)
            if k < len(dark) and dstarts[k] == s:  # a closed definition is one token
                e = max(e, dark[k][1])
            if prev > 0 and s >= prev and (cut := _token_cut(text, prev, s)) is not None:
                yield cut
            prev = max(prev, e)
            pos = e
    return cuts


def scan_python(text: str, fits: Callable[[int, int], bool] | None = None) -> CodeStructure | None:
    """The structure of the Python source ``text``, or None when the scan cannot vouch for
    it (see the module docstring): the caller parses it another way.

    Args:
        text: Python source.
        fits: ``(start, end) -> bool``, whether ``text[start:end]`` fits a chunk: a
            definition that fits with its comments is not read inside (only the
            definitions in it). None: every statement is read.

    Returns:
        A :class:`~chunkwise.parsers.code.CodeStructure` with ``parser="scan"`` (line and
        token cuts read when asked), or None.
    """
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # a lone carriage return ends a line for Python, not for the scan
    masked = _mask(text)
    if masked is None:
        return None
    mtext, opaque = masked
    if _BAD_INDENT.search(mtext):
        return None
    sc = _Scanner(text, mtext, fits)
    try:
        sc.lines()
        root = _Node("module", 0, len(text))
        sc.block(root, -1)
    except (_Fail, IndexError, ValueError, RecursionError):  # (nesting deeper than the stack)
        return None
    closed = sorted(sc.closed)
    return _analyze(text, "python", "scan", root, None, False, _IMPORTS, opaque=opaque,
                    lazy_tokens=_tokens(text, opaque, closed), closed=closed)
