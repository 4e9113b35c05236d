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

The same scan runs in C where the optional extension ``chunkwise.parsers._code_scan`` was
built at install (``setup.py``; without a C compiler the install goes on without it): the
checks, the mask, the line pass and the walk, with the same results, value for value
(compared on the standard library's modules and on generated text by the tests). The
Python code here stays the reference, and runs where the extension is missing, was
built from another version of its source, or ``CHUNKWISE_PURE_SCAN=1`` is set. Blocks
nested more than 40 deep are walked by the Python code (from the lines the C pass found).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from functools import partial
from itertools import accumulate, compress, count, islice, repeat
from operator import gt, itemgetter, lt, mul, or_
from typing import Any

from .code import (
    _CLAUSE, CodeStructure, Definition, _line_cuts, _line_start, _link_parents, _Node, _signature, _token_cut,
)

__all__ = ["scan_python"]

# The scan in C (the checks, the mask, the line pass, the walk), built at install where a
# compiler is found: the same values as the Python code below, which stays the reference.
# CHUNKWISE_PURE_SCAN=1 (or ``_native = None``) runs the Python code.
_native: Any = None
if not os.environ.get("CHUNKWISE_PURE_SCAN"):
    try:
        from . import _code_scan as _native
    except ImportError:  # no compiler at install: the Python code
        _native = None
    else:
        # (built from another version of the C file; or definitions that are no longer the
        # named tuple of nine fields that it makes)
        if getattr(_native, "VERSION", None) != 3 or len(Definition._fields) != 9:
            _native = None

_Child = tuple[int, int, Any, int, Any, int]  # see the walk in _Scanner

_STRING = (  # unrolled loops: linear, also where a string does not end
    r"'''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*'"
    r'|"[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*"'
)
# comments, strings (any prefix: only the quotes matter), backslash continuations, and a
# quote that opens no string (the file is not well formed)
# (every alternative begins with a literal character, so that the engine skips to the next
# "#", quote or backslash instead of trying each position: 5x faster than groups)
_LEX = re.compile(rf"#[^\r\n]*|{_STRING}|\\(?:\r\n|\n)|'|\"")
_LEX_SPLIT = re.compile(f"({_LEX.pattern})")
_MASK_AS = {"#": "#", "\\": " ", "'": "_", '"': "_"}  # by the first character of what _LEX finds
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
_KEYWORD_FIRST = frozenset(kw[0] for kw in [*_TYPES, "async", "@"])  # what a keyword (or "@") begins with
_NAME = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
# (a line break, not "^": the engine then skips to the next line break at once)
_INNER_DEF = re.compile(r"\n( +)(?:async[ \t]+)?(?:def|class)[ \t]")
_HEADER = re.compile(r"[():]")
_TOKEN = re.compile(
    rf"{_STRING}|#[^\r\n]*|(?:\d|\.\d)(?:[eE][+-]|[\w.])*|\w+(?:{_STRING})?"
    r"|\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%&|^@<>=!]=|\.\.\.|\S"
)
_IMPORTS = frozenset({"import_statement", "import_from_statement", "future_import_statement"})
# the compound statements kept whole where they fit (a block under their header)
_COMPOUND = frozenset({"if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
                       "match_statement"})
# the types before which a statement cut is a clause cut (kind 2), as the analysis decides
_CLAUSE_TYPES = frozenset(t for t in [*_TYPES.values(), "future_import_statement"] if _CLAUSE.search(t))
# the kind of the cut before a one-line statement of each type in a block
_CUT_KIND = {
    t: 2 if t in _CLAUSE_TYPES else 1 for t in [*_TYPES.values(), "future_import_statement", "expression_statement"]
}
_CONTINUATION = re.compile(r"\\(?=\r?\n)")
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"()\n")
# the type of a one-line statement by its first keyword (not a definition or a clause)
_PLAIN = {kw: _TYPES.get(kw, "expression_statement") for kw in ["", *_TYPES] if kw not in ("def", "class", *_CLAUSES)}


class _Fail(Exception):
    """The scan does not explain the file: another parser reads it."""


class _Scanner:
    def __init__(self, text: str, masked: str, fits: Callable[[int, int], bool] | None,
                 keep: Callable[[int, int], bool] | None = None) -> None:
        self.text = text
        self.masked = masked
        self.fits = fits
        self.keep = keep
        self.whole: list[tuple[int, int]] = []  # the compound statements that fit (outermost)
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
        self.kinds: list[str | None] = []
        self.defs: list[Definition] = []
        self.statements: list[tuple[int, int, str]] = []
        # (start, end, indentation, kind); two for one place (the kinds differ) are cut
        # to the stronger when the scan ends
        self.cuts: list[tuple[int, int, int, int]] = []
        self.continued = False  # a backslash continuation in the file
        # logical line -> after the last backslash continuation between the line before it
        # and its own line (where the text before it ends; see continuations)
        self.after_cont: dict[int, int] = {}

    # -- lines ------------------------------------------------------------------------

    def lines(self) -> None:
        starts, inds, ends = self.starts, self.inds, self.ends
        cstarts, cends, cinds, ops, code_ends = self.cstarts, self.cends, self.cinds, self.ops, self.code_ends
        add_start, add_ind, add_end, add_code_end, add_op = (
            starts.append, inds.append, ends.append, code_ends.append, ops.append)
        masked = self.masked
        lines = masked.split("\n")
        # brackets: the pairs on one line removed from a copy that keeps only brackets and
        # line breaks, what is left of a line is ")...(...": only the lines where the
        # depth changes are read, and a line inside brackets joins the one it continues
        br = masked.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKET)
        for _ in range(16):  # (pairs nested deeper on one line are counted below)
            if b"()" not in br:
                break
            br = br.replace(b"()", b"")
        if len(br) > len(lines) - 1:
            by_line = br.split(b"\n")
            depth = first = 0
            runs: list[tuple[int, int]] = []
            for i in compress(count(), by_line):
                s = by_line[i]
                d = depth + s.count(b"(") - s.count(b")")
                if d < 0:
                    raise _Fail
                if not depth:
                    first = i
                elif not d:
                    runs.append((first, i))
                depth = d
            if depth:
                raise _Fail
            if runs:
                joined: list[str] = []
                prev = 0
                for a, b in runs:
                    joined += lines[prev:a]
                    joined.append("\n".join(lines[a : b + 1]))
                    prev = b + 1
                joined += lines[prev:]
                lines = joined
        pos = 0
        for line in lines:
            r = line.rstrip(" \t\f\r#")
            if r:
                ind = len(r) - len(r.lstrip(" "))
                add_start(pos + ind)
                add_ind(ind)
                add_end(pos + len(line.rstrip()))
                add_code_end(pos + len(r))
                add_op(r[-1] == ":")
            elif "#" in line:
                ls = line.lstrip(" ")
                cstarts.append(pos + len(line) - len(ls))
                cends.append(pos + len(line.rstrip()))
                cinds.append(len(line) - len(ls))
            pos += len(line) + 1
        n = len(starts)
        # blocks: a line deeper than the one before follows a header (a line ending with
        # ":"), and a header has a deeper line after it
        if n and (inds[0] or ops[-1] or list(map(gt, islice(inds, 1, None), inds)) != ops[:-1]):
            raise _Fail
        # the next line at the same or a lower indentation: the line after, but after a
        # header, the first line that dedents to its level or lower, which must return to
        # the level of a header whose block it ends
        nxt = list(range(1, n + 1))
        dedents = [False, *map(lt, islice(inds, 1, None), inds)]
        stack: list[int] = []  # the open headers
        for j in compress(count(), map(or_, ops, dedents)):
            ij = inds[j]
            if dedents[j]:
                last = -1
                while stack and inds[stack[-1]] >= ij:
                    last = stack.pop()
                    nxt[last] = j
                if last < 0 or inds[last] != ij:
                    raise _Fail  # a dedent to no open level
            if ops[j]:
                stack.append(j)
        for h in stack:
            nxt[h] = n
        self.nxt = nxt
        self.kinds = [None] * n

    def continuations(self) -> None:
        """The backslash continuations that end a logical line (a blank line after them):
        the text before the next line ends after the backslash, not at the line's code."""
        starts, inds, ends, masked, after = self.starts, self.inds, self.ends, self.masked, self.after_cont
        for m in _CONTINUATION.finditer(self.text):
            q = m.start()
            if masked[q] != " ":
                continue  # in a string or a comment
            k = bisect_right(starts, q)
            if 0 < k < len(starts) and ends[k - 1] <= q < starts[k] - inds[k]:
                after[k] = q + 1

    def kind(self, k: int) -> str:
        """The first keyword of logical line ``k`` ("@" for a decorator, "" for others)."""
        s = self.starts[k]
        first = self.text[s]
        if first == "@":
            v = "@"
        elif first not in _KEYWORD_FIRST:
            v = ""
        else:
            m = _KIND.match(self.text, s)
            v = m.group(1) if m else ""
            if v in _SOFT and not self.ops[k]:
                v = ""
        self.kinds[k] = v
        return v

    # -- nodes ------------------------------------------------------------------------

    def header_end(self, head: int, k: int) -> int:
        """Where the body of the definition at ``head`` (logical line ``k``) begins: after
        the colon that closes its header, past a comment on that line."""
        end = self.ends[k]
        if self.ops[k] and self.masked.count(":", head, self.code_ends[k]) == 1:
            # (most headers: one colon, the one that ends the line)
            if self.masked[self.code_ends[k] : end].strip(" \t\r#") == "":
                return self.starts[k + 1]
        depth = 0
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
        # (a definition on one line: with the comment after its code, as one over several
        # lines has the comment on its last line)
        end = self.ends[k] if self.nxt[k] == k + 1 else self.stop(k)
        node = _Node("decorated_definition" if start < s else _TYPES[kw], start, end)
        m = _NAME.match(self.text, s)
        if m is None:
            raise _Fail
        node.name = m.group(1)
        node.def_type = _TYPES[kw]
        node.head = s
        node.head_end = self.header_end(s, k)
        return node

    # -- the walk ---------------------------------------------------------------------
    #
    # The syntax tree is not built: the statements of a block are read line by line when
    # the walk reaches it (:meth:`block`), the other children of a node are listed as
    # tuples, and the analysis of the tree-sitter and ``ast`` readings
    # (``parsers.code._analyze``: groups, statement cuts, definitions) is done on them
    # there, with the same results. A child is ``(start, end, type, k, extra, indent)``:
    # ``type`` None for a comment; ``k`` its logical line (for a block: the line of its
    # header); ``extra`` a definition's node, or a compound statement's clauses (children
    # too); ``indent`` the spaces before it on its line (-1: it does not start its line).

    def header(self, k: int) -> list[_Child]:
        """The comment lines between the header on line ``k`` and the first statement of
        its block, then the block (the grammar's children of a compound statement)."""
        cstarts, cends, cinds = self.cstarts, self.cends, self.cinds
        i = k + 1
        out: list[_Child] = [
            (cstarts[c], cends[c], None, -1, None, cinds[c])
            for c in range(bisect_left(cstarts, self.ends[k]), bisect_left(cstarts, self.starts[i]))
        ]
        out.append((self.starts[i], self.stop(k), "block", k, None, self.inds[i]))
        return out

    def walk(self, children: list[_Child], node_start: int, listing: bool, parent: int, prefix: str) -> None:
        """The analysis of the ``children`` of a compound statement (the comment lines
        above its block, its block, its clauses) or of a clause list, in one pass: its
        groups (comments go with the child right below them), the statements it lists,
        the cuts between its groups; each child's own children right after its group.
        (A block's statements are read by :meth:`block`.)"""
        text, statements, cuts, nxt = self.text, self.statements, self.cuts, self.nxt
        n = len(children)
        i = gi = 0
        pending = pind = -1
        while i < n:
            c = children[i]
            i += 1
            if c[2] is None:  # a comment: with the child below it unless a blank line follows
                if pending < 0:
                    pending = c[0]
                    pind = c[5]
                if i < n:
                    gap = text[c[1] : children[i][0]]
                    if gap.count("\n") + gap.count("\r") - gap.count("\r\n") <= 1:
                        continue
                gs, ge, ind = pending, c[1], pind
                pending = -1
                typ = "comment"
            else:
                if pending >= 0:
                    gs, ind = pending, pind
                    pending = -1
                else:
                    gs, ind = c[0], c[5]
                ge = c[1]
                typ = c[2]
            if ind >= 0:  # the group starts its line (after ``ind`` spaces: no tabs in indentation)
                if listing:
                    statements.append((gs, ge, typ))
                if gs > 0:
                    a = gs - ind
                    while a > 0 and text[a - 1].isspace():
                        a -= 1
                    if a > 0 and (gi > 0 or a > node_start):
                        kind = 2 if typ in _CLAUSE_TYPES else 1
                        cuts.append((a, gs, ind, kind))
            gi += 1
            if typ == "comment":
                continue
            k = c[3]
            if typ == "block":
                j = k + 1
                self.block(j, nxt[k], self.starts[j], c[1], c[0], parent, prefix)
            elif nxt[k] > k + 1:
                self.body(k, c[0], c[4], typ.endswith("clause"), parent, prefix)
            elif c[4] is not None:
                self.walk(c[4], c[0], typ.endswith("clause"), parent, prefix)

    def block(self, i: int, j: int, lo: int, end: int, node_start: int, parent: int, prefix: str,
              keep: list[tuple[int, int, Any]] | None = None) -> None:
        """The analysis of a block (or the module): its statements, lines ``[i, j)`` at one
        indentation (a compound statement's clauses are its own), and the comment lines in
        ``[lo, end]`` between them, in one pass as they are read: the groups (comments go
        with the statement right below them, a comment after a statement on its line with
        that statement), the statements (all listed), the cuts between the groups and the
        definitions (one that fits with the comments right above it is left closed); each
        statement's own children right after its group. ``keep``: a list that gets the
        groups ``(start, end, child)``, a child as :meth:`walk` reads them."""
        text, defs, statements, cuts, nxt, fits = self.text, self.defs, self.statements, self.cuts, self.nxt, self.fits
        kinds, kind, starts, inds, stop = self.kinds, self.kind, self.starts, self.inds, self.stop
        ends, code_ends = self.ends, self.code_ends
        cstarts, cends, cinds = self.cstarts, self.cends, self.cinds
        ci, cj = bisect_left(cstarts, lo), bisect_right(cstarts, end)
        continued, after_cont = self.continued, self.after_cont
        gi = 0
        prev_def = False
        pending = pind = lead = -1
        k = i
        while True:
            if k < j:  # the next statement: its child (s0, e0, typ, kl, x, ind0)
                k0 = k  # (its first line)
                kw = kinds[k]
                if kw is None:
                    kw = kind(k) if text[starts[k]] in _KEYWORD_FIRST else ""
                if kw == "@":
                    d0 = starts[k]
                    while kw == "@":
                        k = nxt[k]
                        if k >= j or inds[k] != inds[i]:
                            raise _Fail
                        kw = kinds[k]
                        if kw is None:
                            kw = kind(k)
                    if kw not in ("def", "class"):
                        raise _Fail
                    x: Any = self.definition(k, d0, kw)
                    s0, e0, typ, kl, ind0 = x.start, x.end, x.type, k, inds[k]
                elif kw == "def" or kw == "class":
                    x = self.definition(k, starts[k], kw)
                    s0, e0, typ, kl, ind0 = x.start, x.end, x.type, k, inds[k]
                elif kw in _CLAUSES:
                    raise _Fail  # a clause without its statement
                else:
                    typ = _TYPES.get(kw, "expression_statement")
                    s0 = starts[k]
                    if kw == "from" and text.startswith("__future__", _skip(text, s0 + 4)):
                        typ = "future_import_statement"
                    c = nxt[k]
                    kl = k
                    ind0 = inds[k]
                    x = None
                    if c < j and inds[c] == ind0:
                        ck = kinds[c]
                        if ck is None:
                            ck = kind(c)
                        if ck in _CLAUSES:
                            x = []
                            prev_end = code_ends[k] if c == k + 1 else stop(k)
                            while True:
                                # the comment lines between the clause before and this one
                                # (none indented into its block): children of the statement,
                                # grouped with the clause below them as the grammar's are
                                c1 = bisect_left(cstarts, prev_end)
                                if c1 < len(cstarts) and cstarts[c1] < starts[c]:
                                    c2 = bisect_left(cstarts, starts[c], c1)
                                    x.extend((cstarts[q], cends[q], None, -1, None, cinds[q]) for q in range(c1, c2))
                                prev_end = code_ends[c] if nxt[c] == c + 1 else stop(c)
                                x.append((starts[c], prev_end, _TYPES[ck], c, None, inds[c]))
                                k = c
                                c = nxt[c]
                                if c >= j or inds[c] != ind0:
                                    break
                                ck = kinds[c]
                                if ck is None:
                                    ck = kind(c)
                                if ck not in _CLAUSES:
                                    break
                            e0 = x[-1][1]
                    if x is None:
                        e0 = code_ends[k] if c == k + 1 else stop(k)
                    if (typ in _COMPOUND and (x is not None or c > k + 1) and self.keep is not None
                            and (not self.whole or s0 >= self.whole[-1][1])):
                        if self.keep(s0 - ind0, e0):
                            self.whole.append((s0, e0))  # (a compound statement that fits)
                        elif ends[c - 1] < e0 and self.keep(s0 - ind0, ends[c - 1]):
                            # (one that fits without the comment lines after its last line
                            # of code, indented into its block: kept whole without them, as
                            # a definition is; they go with the code after it)
                            self.whole.append((s0, ends[c - 1]))
                kid_start = s0
            else:
                kid_start = -1
            # the comment lines before it (a comment goes with what is right below it
            # unless a blank line follows)
            while ci < cj and (kid_start < 0 or cstarts[ci] < kid_start):
                p = cstarts[ci]
                q = cends[ci]
                if lead < 0:
                    lead = p
                if pending < 0:
                    pending = p
                    pind = cinds[ci]
                ci += 1
                nxt_start = cstarts[ci] if ci < cj and (kid_start < 0 or cstarts[ci] < kid_start) else kid_start
                if nxt_start >= 0:
                    gap = text[q:nxt_start]
                    if gap.count("\n") + gap.count("\r") - gap.count("\r\n") <= 1:
                        continue
                gs, ind = pending, pind
                pending = -1
                statements.append((gs, q, "comment"))
                if gs > 0:
                    a = gs - ind
                    while a > 0 and text[a - 1].isspace():
                        a -= 1
                    if a > 0 and (gi > 0 or a > node_start):
                        kd = 0 if prev_def else 1
                        cuts.append((a, gs, ind, kd))
                prev_def = False
                gi += 1
                if keep is not None:
                    keep.append((gs, q, None))
            if kid_start < 0:
                return
            c0 = ci  # (the first comment line after its start)
            while ci < cj and cstarts[ci] < e0:  # comment lines inside it: its own
                ci += 1
            # the statement's group
            if pending >= 0:
                gs, ind = pending, pind
                pending = -1
                a = -1
            else:
                gs, ind = s0, ind0
                # where the text before it ends: the line or the comment line before it
                a = ends[k0 - 1] if k0 else 0
                if c0 and cends[c0 - 1] > a:
                    a = cends[c0 - 1]
                if continued and k0 in after_cont and after_cont[k0] > a:  # (a backslash, then a blank line)
                    a = after_cont[k0]
            group = lead if lead >= 0 else s0  # (where a definition's comments start)
            lead = -1
            ge = e0
            if nxt[kl] == kl + 1 and ends[kl] > code_ends[kl] and x.__class__ is not list:  # a comment after it
                lead = self.masked.index("#", code_ends[kl])
                if ends[kl] > ge:
                    ge = ends[kl]
            is_def = x.__class__ is _Node
            statements.append((gs, ge, x.def_type if is_def else typ))
            if gs > 0:
                if a < 0:
                    a = gs - ind
                    while a > 0 and text[a - 1].isspace():
                        a -= 1
                if a > 0 and (gi > 0 or a > node_start):
                    kd = 0 if is_def or prev_def else (2 if typ in _CLAUSE_TYPES else 1)
                    cuts.append((a, gs, ind, kd))
            prev_def = is_def
            gi += 1
            if keep is not None:
                keep.append((gs, ge, (s0, e0, typ, kl, x, ind0)))
            k = nxt[k]
            if is_def:
                name = x.name
                qual = f"{prefix}.{name}" if prefix else name
                ls = x.head - ind0  # (the start of its line)
                sig = text[ls : x.head_end].rstrip()  # the signature (see _sig): most are one line
                if len(sig) > 400 or len(sig.splitlines()) != 1:
                    sig = _signature(text, x)
                defs.append(Definition(gs, x.head, x.end, name, qual, x.def_type, sig, parent))
                idx = len(defs) - 1
                if fits is not None and fits(group - ind0 if group == s0 else _line_start(text, group), x.end):
                    self.closed.append((x.start, x.end))
                    self.inner(x, kl)
                    if x.children:
                        self.record_closed(x, idx, qual)
                elif nxt[kl] > kl + 1:
                    self.body(kl, x.start, None, False, idx, qual, e0)
            elif nxt[kl] > kl + 1:
                self.body(kl, s0, x, typ.endswith("clause"), parent, prefix, e0)
            elif x is not None:
                self.walk(x, s0, typ.endswith("clause"), parent, prefix)

    def body(self, k: int, node_start: int, clauses: Any, listing: bool, parent: int, prefix: str,
             end: int = -1) -> None:
        """The children of the node whose header is line ``k`` (followed by its block):
        the comment lines above the block's first statement, the block, its ``clauses``.
        Without comments or clauses (most nodes), the block alone: its group, its cut and
        its statements, as :meth:`walk` gives them, without a walk of one child. ``end``:
        where the node ends when it has no clauses (:meth:`stop`), if known."""
        cstarts = self.cstarts
        i = k + 1
        bs = self.starts[i]
        c0 = bisect_left(cstarts, self.ends[k])
        if clauses is not None or (c0 < len(cstarts) and cstarts[c0] < bs):
            sub = self.header(k)
            if clauses is not None:
                sub.extend(clauses)
            self.walk(sub, node_start, listing, parent, prefix)
            return
        text, ends, code_ends, cuts = self.text, self.ends, self.code_ends, self.cuts
        be = end if end >= 0 and clauses is None else self.stop(k)
        ind = self.inds[i]
        if listing:
            self.statements.append((bs, be, "block"))
        a = ends[k]  # (the end of the header's line: no comment line before the block)
        if self.continued and self.after_cont.get(i, -1) > a:  # (a backslash, then a blank line)
            a = self.after_cont[i]
        if a > node_start:  # (a cut between statements, kind 1, unless a cut there is stronger)
            cuts.append((a, bs, ind, 1))
        e = self.nxt[k]
        if (c0 == len(cstarts) or cstarts[c0] > be) and not any(self.ops[i:e]):
            # no comment line and no block inside: one-line statements (most blocks), each a
            # group, with a cut before each but the first, read at once if none is a
            # definition or a clause
            kinds, kind = self.kinds, self.kind
            types = []
            for x in range(i, e):
                kw = kinds[x]
                if kw is None:
                    kw = kind(x)
                t = _PLAIN.get(kw)
                if t is None:
                    break
                if kw == "from" and text.startswith("__future__", _skip(text, self.starts[x] + 4)):
                    t = "future_import_statement"
                types.append(t)
            else:
                if e == i + 1:
                    self.statements.append((bs, max(ends[i], code_ends[i]), types[0]))
                    return
                starts = self.starts
                self.statements.extend(zip(starts[i:e], map(max, ends[i:e], code_ends[i:e]), types))
                b = starts[i + 1 : e]
                a_ = ends[i : e - 1]
                if self.continued:  # (a backslash, then a blank line: the cut starts after it)
                    after = self.after_cont
                    a_ = [max(x, after.get(y, -1)) for x, y in zip(a_, range(i + 1, e))]
                cuts.extend(zip(a_, b, repeat(ind), map(_CUT_KIND.__getitem__, types[1:])))
                return
        self.block(i, e, bs, be, bs, parent, prefix)

    def record_closed(self, node: _Node, parent: int, prefix: str) -> None:
        """The definitions inside the closed definition ``node`` (found by :meth:`inner`)."""
        text, defs = self.text, self.defs
        for c in node.children:
            name = c.name
            qual = f"{prefix}.{name}" if prefix else name
            defs.append(Definition(c.start, c.head, c.end, name, qual, c.def_type, _signature(text, c), parent))
            if c.children:
                self.record_closed(c, len(defs) - 1, qual)

    def inner(self, node: _Node, k: int) -> None:
        """The definitions inside the closed definition ``node`` (line ``k``), nested."""
        starts, inds = self.starts, self.inds
        chain: list[_Node] = [node]
        for m in _INNER_DEF.finditer(self.masked, starts[k], node.end):
            s = m.end(1)
            i = bisect_left(starts, s)
            if i >= len(starts) or starts[i] != s:
                continue  # not a statement (inside brackets)
            d = i
            while d > k + 1 and self.text[starts[d - 1]] == "@" and inds[d - 1] == inds[i]:
                d -= 1
            kw = self.kinds[i]
            if kw is None:
                kw = self.kind(i)
            if kw not in ("def", "class"):
                continue
            inner = self.definition(i, starts[d], kw)
            inner.closed = True
            while len(chain) > 1 and chain[-1].end <= inner.start:
                chain.pop()
            chain[-1].children.append(inner)
            chain.append(inner)


def _skip(text: str, p: int) -> int:
    while p < len(text) and text[p] in " \t":
        p += 1
    return p


def _mask(text: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The text with strings as ``_``, comments as ``#``, backslash continuations as
    spaces and brackets as ``(``/``)`` (same length); the multi-line strings."""
    found = _mask_continued(text)
    return None if found is None else found[:2]


def _mask_continued(text: str) -> tuple[str, list[tuple[int, int]], bool] | None:
    """:func:`_mask`'s text and multi-line strings, and whether a backslash continuation
    outside strings hides a line break (of what the mask hides, the line breaks that are
    in no multi-line string)."""
    pieces = _LEX_SPLIT.split(text)  # text, found, text, found, ..., text
    found = pieces[1::2]
    if "'" in found or '"' in found:
        return None  # a quote that opens no string
    opaque: list[tuple[int, int]] = []
    multi = list(compress(count(), map(str.__contains__, found, repeat("\n"))))
    continued = False
    if multi:  # strings over several lines (a backslash continuation is no string)
        offsets = list(accumulate(map(len, pieces), initial=0))
        opaque = [(offsets[2 * i + 1], offsets[2 * i + 2]) for i in multi if found[i][0] != "\\"]
        continued = len(opaque) < len(multi)
    pieces[1::2] = map(mul, map(_MASK_AS.__getitem__, map(itemgetter(0), found)), map(len, found))
    # (four replacements, each a search for one character: 10x faster than translate)
    masked = "".join(pieces).replace("[", "(").replace("{", "(").replace("]", ")").replace("}", ")")
    return masked, opaque, continued


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


def _lines_native(text: str, found: tuple[Any, ...], fits: Callable[[int, int], bool] | None,
                  keep: Callable[[int, int], bool] | None) -> _Scanner:
    """A scanner whose lines were read by the C module (what :meth:`_Scanner.lines` and
    :meth:`_Scanner.continuations` give, after the checks of :func:`scan_python`)."""
    sc = _Scanner(text, found[0], fits, keep)
    (sc.continued, sc.starts, sc.inds, sc.ends, sc.code_ends, sc.cstarts, sc.cends, sc.cinds, sc.ops, sc.nxt,
     sc.after_cont) = found[2:]
    sc.kinds = [None] * len(sc.starts)
    return sc


def _signature_at(text: str, head: int, head_end: int, end: int) -> str:
    """:func:`~chunkwise.parsers.code._signature` of a definition (for the C walk)."""
    node = _Node("", head, end)
    node.head_end = head_end
    return _signature(text, node)


def _scan_native(text: str, found: tuple[Any, ...]) -> CodeStructure:
    """scan_python's structure from the values of the C module's ``scan``."""
    _, opaque, whole, closed, defs, statements, cuts, top, items, imports = found
    closed = list(closed)
    _link_parents(defs)
    return CodeStructure(
        language="python",
        parser="scan",
        definitions=tuple(defs),
        top=tuple(top),
        items=tuple(items),
        statements=tuple(statements),
        cuts=cuts,
        imports=tuple(imports),
        whole=whole,
        lazy_tokens=_tokens(text, opaque, closed),
        lazy_lines=_line_cuts(text, opaque, closed),
    )


def scan_python(text: str, fits: Callable[[int, int], bool] | None = None,
                keep: Callable[[int, int], bool] | None = None) -> CodeStructure | None:
    """The structure of the Python source ``text``, or None when the scan cannot vouch for
    it (see the module docstring): the caller parses it another way.

    Args:
        text: Python source.
        fits: ``(start, end) -> bool``, whether ``text[start:end]`` fits a chunk: a
            definition that fits with its comments is not read inside (only the
            definitions in it). None: every statement is read.
        keep: ``(start, end) -> bool``, whether a compound statement fits a chunk from the
            start of its line: the outermost that fit are listed in ``whole``. None: none.

    Returns:
        A :class:`~chunkwise.parsers.code.CodeStructure` with ``parser="scan"`` (line and
        token cuts read when asked), or None.
    """
    native = _native
    if native is not None:  # the same scan in C (see _scan_native)
        try:
            found = native.scan(text, fits, keep, Definition, partial(_signature_at, text))
        except (_Fail, IndexError, ValueError, RecursionError):  # (raised by fits or keep, as below)
            return None
        if found is None:
            return None
        if found[0]:
            return _scan_native(text, found)
        # (blocks nested too deep for the C walk: the Python walk reads the lines it found)
        sc = _lines_native(text, found[1], fits, keep)
        opaque = found[1][1]
    else:
        if "\r" in text and text.count("\r") != text.count("\r\n"):
            return None  # a lone carriage return ends a line for Python, not for the scan
        masked = _mask_continued(text)
        if masked is None:
            return None
        mtext, opaque, continued = masked
        if ("\t" in mtext or "\f" in mtext) and _BAD_INDENT.search(mtext):
            return None
        sc = _Scanner(text, mtext, fits, keep)
        # (a backslash continuation outside strings: the line breaks the mask hides are not
        # all in strings -- each piece the mask hides that holds one is a string or a
        # continuation)
        sc.continued = continued
    try:
        if native is None:
            sc.lines()
            if sc.continued:
                sc.continuations()
        n = len(text)
        groups: list[tuple[int, int, Any]] = []
        sc.block(0, len(sc.starts), 0, n, 0, -1, "", groups)
    except (_Fail, IndexError, ValueError, RecursionError):  # (nesting deeper than the stack)
        return None
    closed = sorted(sc.closed)
    defs = sc.defs
    _link_parents(defs)
    top = tuple(
        (g[0], g[1], "comment" if g[2] is None else ("definition" if g[2][4].__class__ is _Node else "statement"))
        for g in groups
    )
    items = tuple((g[0], g[1]) for g in groups)
    imports = tuple((c[0], c[1]) for g in groups if (c := g[2]) is not None and c[2] in _IMPORTS)
    cuts = sorted(sc.cuts)
    if sc.continued:  # a line that begins with a backslash continuation: no cut before it
        cuts = [c for c in cuts if text[c[0] : c[1]].isspace()]
    if len(set(map(itemgetter(1), cuts))) < len(cuts):  # a place cut twice: the stronger kind (the lower)
        cuts = [c for i, c in enumerate(cuts) if not i or c[1] != cuts[i - 1][1]]
    cuts = tuple(cuts)
    # (statements, like cuts and definitions, are found in document order, outer first)
    return CodeStructure(
        language="python",
        parser="scan",
        definitions=tuple(defs),
        top=top,
        items=items,
        statements=tuple(sc.statements),
        cuts=cuts,
        imports=imports,
        whole=tuple(sc.whole),
        lazy_tokens=_tokens(text, opaque, closed),
        lazy_lines=_line_cuts(text, opaque, closed),
    )

