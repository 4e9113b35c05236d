/* Python's structural scan (chunkwise.parsers.code_scan.scan_python), in C.
 *
 * This file mirrors chunkwise/parsers/code_scan.py, which stays the reference (the
 * documented algorithm; it runs where this module is not built):
 *
 *   line_pass     scan_python's checks before the scan (a lone carriage return,
 *                 _mask_continued, _BAD_INDENT), _Scanner.lines, _Scanner.continuations
 *   kind_of ...   _Scanner.kind, header_end, stop, definition, header, walk, body, block,
 *                 inner, record_closed, and the end of scan_python (the cuts sorted, the
 *                 cuts after a backslash continuation dropped, one cut for each place)
 *
 * with the same names. It gives the same values, offset for offset and in the same order,
 * or None where the Python code returns None (raises _Fail); fits and keep are asked the
 * same questions in the same order; what they raise goes to the caller. Offsets count code
 * points, as Python's str does. Where the Python code relies on IndexError or ValueError
 * this code fails explicitly (FAIL). Blocks nested more than MAX_NESTING deep are left to
 * the Python walk. A change to one of those Python functions must be made here too, with
 * VERSION raised in both files (tests/test_scan_native.py compares the two on the
 * standard library and on generated text).
 *
 * lines(text) -> None, or (masked, opaque, continued, starts, inds, ends, code_ends,
 *     cstarts, cends, cinds, ops, nxt, after_cont), the names of code_scan.py
 * scan(text, fits, keep, Definition, signature) -> see scan_scan below
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_ssize_t *v;
    Py_ssize_t n, cap;
} Vec;

static int vec_grow(Vec *a) {
    Py_ssize_t cap = a->cap ? a->cap * 2 : 256;
    Py_ssize_t *v = (Py_ssize_t *)realloc(a->v, (size_t)cap * sizeof(Py_ssize_t));
    if (v == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    a->v = v;
    a->cap = cap;
    return 0;
}

static inline int vec_push(Vec *a, Py_ssize_t x) {
    if (a->n == a->cap && vec_grow(a) < 0)
        return -1;
    a->v[a->n++] = x;
    return 0;
}

static void vec_free(Vec *a) {
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

#define RD(i) PyUnicode_READ(kind, data, (i))

/* the characters the mask looks at: comments, strings, backslashes, brackets */
static const unsigned char SPECIAL[128] = {
    ['#'] = 1, ['\''] = 1, ['"'] = 1, ['\\'] = 1, ['\n'] = 1,
    ['('] = 1, ['['] = 1, ['{'] = 1, [')'] = 1, [']'] = 1, ['}'] = 1,
};

/* The end of the string literal that starts at p (a quote), as _STRING's alternatives
 * match it (triple-quoted first, then on one line), or -1 where none does. */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE static __forceinline
#else
#define ALWAYS_INLINE static inline
#endif

ALWAYS_INLINE Py_ssize_t string_end(const int kind, const void *data, Py_ssize_t n, Py_ssize_t p) {
    Py_UCS4 qc = RD(p);
    Py_ssize_t q;
    if (p + 2 < n && RD(p + 1) == qc && RD(p + 2) == qc) {
        q = p + 3;
        while (q < n) {
            Py_UCS4 c = RD(q);
            if (c == '\\') {
                if (q + 1 >= n)
                    break;
                q += 2;
            } else if (c == qc) {
                if (q + 2 < n && RD(q + 1) == qc && RD(q + 2) == qc)
                    return q + 3;
                q++;
            } else {
                q++;
            }
        }
    }
    q = p + 1;
    while (q < n) {
        Py_UCS4 c = RD(q);
        if (c == qc)
            return q + 1;
        if (c == '\\') {
            if (q + 1 >= n)
                return -1;
            if (RD(q + 1) == '\r' && q + 2 < n && RD(q + 2) == '\n')
                q += 3;
            else
                q += 2;
        } else if (c == '\r' || c == '\n') {
            return -1;
        } else {
            q++;
        }
    }
    return -1;
}

static PyObject *list_of(const Vec *a) {
    PyObject *out = PyList_New(a->n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < a->n; i++) {
        PyObject *x = PyLong_FromSsize_t(a->v[i]);
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static int is_strip_code(Py_UCS4 c) { /* rstrip(" \t\f\r#") */
    return c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '#';
}

/* -- the line pass --------------------------------------------------------------------- */

typedef struct {
    PyObject *text;
    int kind;
    const void *data;
    Py_ssize_t n;
    void *mbuf; /* the masked text (same kind as the text) */
    PyObject *opaque;
    int continued;
    Vec starts, inds, ends, code_ends, cstarts, cends, cinds, ops, nxt;
    Vec after; /* after_cont by line, -1 where none */
    Py_ssize_t max_open; /* the most headers open at once (the nesting of blocks) */
} Lines;

static void lines_free(Lines *L) {
    if (L->mbuf != NULL)
        PyMem_Free(L->mbuf);
    L->mbuf = NULL;
    Py_CLEAR(L->opaque);
    vec_free(&L->starts);
    vec_free(&L->inds);
    vec_free(&L->ends);
    vec_free(&L->code_ends);
    vec_free(&L->cstarts);
    vec_free(&L->cends);
    vec_free(&L->cinds);
    vec_free(&L->ops);
    vec_free(&L->nxt);
    vec_free(&L->after);
}

/* 1: read; 0: the scan cannot vouch for the text (scan_python: None); -1: an error.
 * (Inlined for each kind of str, so that each reads its characters directly.) */
ALWAYS_INLINE int line_pass_kind(PyObject *text, Lines *L, const int kind) {
    L->text = text;
    L->kind = kind;
    const void *data = L->data = PyUnicode_DATA(text);
    const Py_ssize_t n = L->n = PyUnicode_GET_LENGTH(text);
    Vec stack = {0}, lstart = {0}, lend = {0}, nl = {0}, deltas = {0}, conts = {0};
    int rc = -1;
    Py_ssize_t i;
    void *mbuf;

    /* a lone carriage return (scan_python: None) */
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *b = (const Py_UCS1 *)data, *r = b;
        while ((r = (const Py_UCS1 *)memchr(r, '\r', (size_t)(n - (r - b)))) != NULL) {
            if (r + 1 >= b + n || r[1] != '\n')
                return 0;
            r++;
        }
    } else {
        for (i = 0; i < n; i++) {
            if (RD(i) == '\r' && (i + 1 >= n || RD(i + 1) != '\n'))
                return 0;
        }
    }

    /* _mask_continued: strings as "_", comments as "#", backslash continuations as
     * spaces, brackets as "(" and ")" */
    mbuf = L->mbuf = PyMem_Malloc((size_t)(n ? n : 1) * (size_t)kind);
    if (mbuf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    L->opaque = PyList_New(0);
    if (L->opaque == NULL)
        return -1;
    memcpy(mbuf, data, (size_t)n * (size_t)kind); /* (then what is masked is written over) */
    /* and, as the mask is made: the line breaks it keeps (nl), the count of "(" less ")" on
     * each of its lines (deltas), the backslash continuations (conts) */
    Py_ssize_t delta = 0;
    {
        Py_ssize_t p = 0;
        while (p < n) {
            Py_UCS4 c = RD(p);
            if (c >= 128 || !SPECIAL[c]) { /* most characters */
                p++;
                continue;
            }
            if (c == '#') {
                Py_ssize_t q = p;
                while (q < n) {
                    Py_UCS4 d = RD(q);
                    if (d == '\r' || d == '\n')
                        break;
                    PyUnicode_WRITE(kind, mbuf, q, '#');
                    q++;
                }
                p = q;
            } else if (c == '\'' || c == '"') {
                Py_ssize_t q = string_end(kind, data, n, p);
                if (q < 0) { /* a quote that opens no string */
                    rc = 0;
                    goto out;
                }
                int multi = 0;
                for (Py_ssize_t r = p; r < q; r++) {
                    if (RD(r) == '\n')
                        multi = 1;
                    PyUnicode_WRITE(kind, mbuf, r, '_');
                }
                if (multi) {
                    PyObject *span = Py_BuildValue("(nn)", p, q);
                    if (span == NULL || PyList_Append(L->opaque, span) < 0) {
                        Py_XDECREF(span);
                        goto out;
                    }
                    Py_DECREF(span);
                }
                p = q;
            } else if (c == '\n') {
                if (vec_push(&nl, p) < 0 || vec_push(&deltas, delta) < 0)
                    goto out;
                delta = 0;
                p++;
            } else if (c == '\\' && p + 1 < n && RD(p + 1) == '\n') {
                PyUnicode_WRITE(kind, mbuf, p, ' ');
                PyUnicode_WRITE(kind, mbuf, p + 1, ' ');
                L->continued = 1;
                if (vec_push(&conts, p) < 0)
                    goto out;
                p += 2;
            } else if (c == '\\' && p + 2 < n && RD(p + 1) == '\r' && RD(p + 2) == '\n') {
                PyUnicode_WRITE(kind, mbuf, p, ' ');
                PyUnicode_WRITE(kind, mbuf, p + 1, ' ');
                PyUnicode_WRITE(kind, mbuf, p + 2, ' ');
                L->continued = 1;
                if (vec_push(&conts, p) < 0)
                    goto out;
                p += 3;
            } else {
                if (c == '(') {
                    delta++;
                } else if (c == ')') {
                    delta--;
                } else if (c == '[' || c == '{') {
                    PyUnicode_WRITE(kind, mbuf, p, '(');
                    delta++;
                } else if (c == ']' || c == '}') {
                    PyUnicode_WRITE(kind, mbuf, p, ')');
                    delta--;
                }
                p++;
            }
        }
    }
    if (vec_push(&nl, n) < 0 || vec_push(&deltas, delta) < 0) /* (the last line) */
        goto out;
#define MR(i) PyUnicode_READ(kind, mbuf, (i))

    /* lines: the logical lines -- a line that starts inside brackets joins the one
     * before it (the bracket depth by each line's count of "(" and ")"); and
     * _BAD_INDENT: spaces, then a tab or a form feed, at the start of a line */
    {
        Py_ssize_t depth = 0, first = 0;
        for (Py_ssize_t t = 0; t < nl.n; t++) {
            Py_ssize_t p = t ? nl.v[t - 1] + 1 : 0, q = p;
            while (q < n && MR(q) == ' ')
                q++;
            if (q < n && (MR(q) == '\t' || MR(q) == '\f')) {
                rc = 0;
                goto out;
            }
            if (depth == 0)
                first = p;
            depth += deltas.v[t];
            if (depth < 0) {
                rc = 0;
                goto out;
            }
            if (depth == 0) {
                if (vec_push(&lstart, first) < 0 || vec_push(&lend, nl.v[t]) < 0)
                    goto out;
            }
        }
        if (depth) {
            rc = 0;
            goto out;
        }
    }
    for (Py_ssize_t ln = 0; ln < lstart.n; ln++) {
        Py_ssize_t a = lstart.v[ln], b = lend.v[ln];
        Py_ssize_t r = b;
        while (r > a && is_strip_code(MR(r - 1)))
            r--;
        if (r > a) {
            Py_ssize_t s = a;
            while (s < r && MR(s) == ' ')
                s++;
            Py_ssize_t e = b;
            while (e > a && Py_UNICODE_ISSPACE(MR(e - 1)))
                e--;
            if (vec_push(&L->starts, s) < 0 || vec_push(&L->inds, s - a) < 0 || vec_push(&L->ends, e) < 0 ||
                vec_push(&L->code_ends, r) < 0 || vec_push(&L->ops, MR(r - 1) == ':'))
                goto out;
        } else {
            int hash = 0;
            for (Py_ssize_t s = a; s < b; s++) {
                if (MR(s) == '#') {
                    hash = 1;
                    break;
                }
            }
            if (hash) {
                Py_ssize_t s = a;
                while (s < b && MR(s) == ' ')
                    s++;
                Py_ssize_t e = b;
                while (e > a && Py_UNICODE_ISSPACE(MR(e - 1)))
                    e--;
                if (vec_push(&L->cstarts, s) < 0 || vec_push(&L->cends, e) < 0 || vec_push(&L->cinds, s - a) < 0)
                    goto out;
            }
        }
    }

    /* blocks: a line deeper than the one before follows a header, a header has a deeper
     * line after it; nxt: the next line at the same or a lower indentation */
    {
        const Py_ssize_t m = L->starts.n;
        const Py_ssize_t *inds = L->inds.v, *ops = L->ops.v;
        if (m) {
            if (inds[0] || ops[m - 1]) {
                rc = 0;
                goto out;
            }
            for (i = 0; i + 1 < m; i++) {
                if ((inds[i + 1] > inds[i]) != (ops[i] != 0)) {
                    rc = 0;
                    goto out;
                }
            }
        }
        for (i = 0; i < m; i++) {
            if (vec_push(&L->nxt, i + 1) < 0 || vec_push(&L->after, -1) < 0)
                goto out;
        }
        Py_ssize_t *nxt = L->nxt.v;
        for (Py_ssize_t j = 0; j < m; j++) {
            if (j > 0 && inds[j] < inds[j - 1]) { /* a dedent */
                Py_ssize_t ij = inds[j], last = -1;
                while (stack.n && inds[stack.v[stack.n - 1]] >= ij) {
                    last = stack.v[--stack.n];
                    nxt[last] = j;
                }
                if (last < 0 || inds[last] != ij) {
                    rc = 0;
                    goto out;
                }
            }
            if (ops[j]) {
                if (vec_push(&stack, j) < 0)
                    goto out;
                if (stack.n > L->max_open)
                    L->max_open = stack.n;
            }
        }
        for (i = 0; i < stack.n; i++)
            nxt[stack.v[i]] = m;
    }

    /* continuations: a backslash continuation, then a blank line */
    if (L->continued) {
        const Py_ssize_t m = L->starts.n;
        const Py_ssize_t *starts = L->starts.v, *inds = L->inds.v, *ends = L->ends.v;
        for (Py_ssize_t u = 0; u < conts.n; u++) {
            Py_ssize_t q = conts.v[u];
            Py_ssize_t lo = 0, hi = m; /* bisect_right(starts, q) */
            while (lo < hi) {
                Py_ssize_t mid = (lo + hi) / 2;
                if (q < starts[mid])
                    hi = mid;
                else
                    lo = mid + 1;
            }
            Py_ssize_t k = lo;
            if (0 < k && k < m && ends[k - 1] <= q && q < starts[k] - inds[k])
                L->after.v[k] = q + 1;
        }
    }
    rc = 1;
out:
    vec_free(&stack);
    vec_free(&lstart);
    vec_free(&lend);
    vec_free(&nl);
    vec_free(&deltas);
    vec_free(&conts);
    return rc;
}

static int line_pass(PyObject *text, Lines *L) {
    memset(L, 0, sizeof(*L));
    if (PyUnicode_READY(text) < 0)
        return -1;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return line_pass_kind(text, L, PyUnicode_1BYTE_KIND);
    case PyUnicode_2BYTE_KIND:
        return line_pass_kind(text, L, PyUnicode_2BYTE_KIND);
    default:
        return line_pass_kind(text, L, PyUnicode_4BYTE_KIND);
    }
}

static PyObject *lines_tuple(Lines *L) {
    PyObject *result = NULL, *masked = NULL, *after = NULL;
    PyObject *l[9] = {NULL};
    Vec *vs[9] = {&L->starts, &L->inds, &L->ends, &L->code_ends, &L->cstarts, &L->cends, &L->cinds, &L->ops, &L->nxt};
    masked = PyUnicode_FromKindAndData(L->kind, L->mbuf, L->n);
    after = PyDict_New();
    if (masked == NULL || after == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < L->after.n; k++) {
        if (L->after.v[k] >= 0) {
            PyObject *key = PyLong_FromSsize_t(k), *val = PyLong_FromSsize_t(L->after.v[k]);
            int bad = key == NULL || val == NULL || PyDict_SetItem(after, key, val) < 0;
            Py_XDECREF(key);
            Py_XDECREF(val);
            if (bad)
                goto done;
        }
    }
    for (int f = 0; f < 9; f++) {
        if (f == 7) {
            l[f] = PyList_New(L->ops.n);
            if (l[f] == NULL)
                goto done;
            for (Py_ssize_t i = 0; i < L->ops.n; i++) {
                PyObject *b = L->ops.v[i] ? Py_True : Py_False;
                Py_INCREF(b);
                PyList_SET_ITEM(l[f], i, b);
            }
        } else {
            l[f] = list_of(vs[f]);
            if (l[f] == NULL)
                goto done;
        }
    }
    result = Py_BuildValue("(OOOOOOOOOOOOO)", masked, L->opaque, L->continued ? Py_True : Py_False, l[0], l[1], l[2],
                           l[3], l[4], l[5], l[6], l[7], l[8], after);
done:
    Py_XDECREF(masked);
    Py_XDECREF(after);
    for (int f = 0; f < 9; f++)
        Py_XDECREF(l[f]);
    return result;
}

static PyObject *scan_lines(PyObject *self, PyObject *arg) {
    (void)self;
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "lines() takes a str");
        return NULL;
    }
    Lines L;
    int rc = line_pass(arg, &L);
    PyObject *result = NULL;
    if (rc > 0)
        result = lines_tuple(&L);
    else if (rc == 0) {
        result = Py_None;
        Py_INCREF(result);
    }
    lines_free(&L);
    return result;
}

/* -- the walk (_Scanner.kind ... _Scanner.inner) ------------------------------------------ */

/* the types of _TYPES, and the others the walk gives */
enum {
    T_FUNCTION, T_CLASS, T_IF, T_ELIF, T_ELSE, T_FOR, T_WHILE, T_TRY, T_EXCEPT, T_FINALLY, T_WITH, T_MATCH, T_CASE,
    T_IMPORT, T_FROM, T_RETURN, T_RAISE, T_PASS, T_BREAK, T_CONTINUE, T_DEL, T_GLOBAL, T_NONLOCAL, T_ASSERT,
    T_EXPRESSION, T_FUTURE, T_DECORATED, T_BLOCK, T_COMMENT, T_COUNT
};
/* the keywords of _KIND, in its order (each the type of the same index); then the
 * kinds that are no keyword */
static const char *const KEYWORDS[] = {
    "def", "class", "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "match", "case",
    "import", "from", "return", "raise", "pass", "break", "continue", "del", "global", "nonlocal", "assert",
};
#define N_KEYWORDS 24
#define K_NONE N_KEYWORDS      /* "" */
#define K_AT (N_KEYWORDS + 1)  /* "@" */
#define K_UNKNOWN (-1)
static const char *const TYPE_NAMES[T_COUNT] = {
    "function_definition", "class_definition", "if_statement", "elif_clause", "else_clause", "for_statement",
    "while_statement", "try_statement", "except_clause", "finally_clause", "with_statement", "match_statement",
    "case_clause", "import_statement", "import_from_statement", "return_statement", "raise_statement",
    "pass_statement", "break_statement", "continue_statement", "delete_statement", "global_statement",
    "nonlocal_statement", "assert_statement", "expression_statement", "future_import_statement",
    "decorated_definition", "block", "comment",
};
static PyObject *TYPE_STR[T_COUNT];

static int is_clause_kw(int kw) { return kw == T_ELIF || kw == T_ELSE || kw == T_EXCEPT || kw == T_FINALLY; }
static int is_clause_type(int t) { /* _CLAUSE_TYPES, typ.endswith("clause") */
    return t == T_ELIF || t == T_ELSE || t == T_EXCEPT || t == T_FINALLY || t == T_CASE;
}
static int is_compound(int t) {
    return t == T_IF || t == T_FOR || t == T_WHILE || t == T_TRY || t == T_WITH || t == T_MATCH;
}
static int is_import(int t) { return t == T_IMPORT || t == T_FROM || t == T_FUTURE; }

typedef struct Node Node;
struct Node {
    int type, def_type;
    Py_ssize_t start, end, head, head_end;
    PyObject *name;
    Node **kids;
    Py_ssize_t nkids, capkids;
};

typedef struct {
    Py_ssize_t s, e, k, ind;
    int type; /* T_COMMENT for a comment */
} Child;

typedef struct {
    Child *v;
    Py_ssize_t n, cap;
} Children;

static int children_push(Children *c, Child x) {
    if (c->n == c->cap) {
        Py_ssize_t cap = c->cap ? c->cap * 2 : 8;
        Child *v = (Child *)realloc(c->v, (size_t)cap * sizeof(Child));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = x;
    return 0;
}

typedef struct {
    Lines *L;
    int *kinds;
    PyObject *fits, *keep, *defcls, *sigfn; /* fits, keep: NULL for None */
    Vec whole;                              /* pairs */
    Vec closed;                             /* pairs */
    Vec cuts;                               /* quadruples */
    PyObject *defs, *statements;
    PyObject *top, *items, *imports; /* the top-level groups (keep of block) */
    Node **nodes;
    Py_ssize_t nnodes, capnodes;
} W;

#define FAIL (-2) /* _Fail */

#define TX(i) PyUnicode_READ(w->L->kind, w->L->data, (i))
#define MX(i) PyUnicode_READ(w->L->kind, w->L->mbuf, (i))

static int is_word(Py_UCS4 c) { return c == '_' || Py_UNICODE_ISALNUM(c); }

/* text[p:] starts with the ASCII word kw */
static int starts_with(W *w, Py_ssize_t p, const char *kw) {
    Py_ssize_t n = w->L->n;
    for (; *kw; kw++, p++) {
        if (p >= n || TX(p) != (Py_UCS4)(unsigned char)*kw)
            return 0;
    }
    return 1;
}

/* _KIND.match(text, p): the keyword (an index of KEYWORDS) or -1 */
static int match_keyword_at(W *w, Py_ssize_t p) {
    Py_ssize_t n = w->L->n;
    for (int k = 0; k < N_KEYWORDS; k++) {
        if (starts_with(w, p, KEYWORDS[k])) {
            Py_ssize_t q = p + (Py_ssize_t)strlen(KEYWORDS[k]);
            if (q >= n || !is_word(TX(q)))
                return k;
        }
    }
    return -1;
}

static int match_kind(W *w, Py_ssize_t p) {
    Py_ssize_t n = w->L->n;
    if (starts_with(w, p, "async")) {
        Py_ssize_t q = p + 5;
        if (q < n && (TX(q) == ' ' || TX(q) == '\t')) {
            while (q < n && (TX(q) == ' ' || TX(q) == '\t'))
                q++;
            int k = match_keyword_at(w, q);
            if (k >= 0)
                return k;
        }
    }
    return match_keyword_at(w, p);
}

/* _Scanner.kind */
static int kind_of(W *w, Py_ssize_t k) {
    int v = w->kinds[k];
    if (v != K_UNKNOWN)
        return v;
    Py_ssize_t s = w->L->starts.v[k];
    if (TX(s) == '@') {
        v = K_AT;
    } else {
        v = match_kind(w, s);
        if (v < 0)
            v = K_NONE;
        else if ((v == T_MATCH || v == T_CASE) && !w->L->ops.v[k])
            v = K_NONE;
    }
    w->kinds[k] = v;
    return v;
}

static Py_ssize_t bisect_left(const Vec *a, Py_ssize_t x, Py_ssize_t lo) {
    Py_ssize_t hi = a->n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (a->v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static Py_ssize_t bisect_right(const Vec *a, Py_ssize_t x) {
    Py_ssize_t lo = 0, hi = a->n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (x < a->v[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* masked[a:b].strip(" \t\r#") == "" */
static int blank_code(W *w, Py_ssize_t a, Py_ssize_t b) {
    for (Py_ssize_t p = a; p < b; p++) {
        Py_UCS4 c = MX(p);
        if (c != ' ' && c != '\t' && c != '\r' && c != '#')
            return 0;
    }
    return 1;
}

/* _Scanner.header_end; FAIL where no colon ends the header */
static Py_ssize_t header_end(W *w, Py_ssize_t head, Py_ssize_t k) {
    Lines *L = w->L;
    Py_ssize_t end = L->ends.v[k];
    if (L->ops.v[k]) {
        Py_ssize_t colons = 0;
        for (Py_ssize_t p = head; p < L->code_ends.v[k]; p++) {
            if (MX(p) == ':')
                colons++;
        }
        if (colons == 1 && blank_code(w, L->code_ends.v[k], end))
            return L->starts.v[k + 1];
    }
    Py_ssize_t depth = 0;
    for (Py_ssize_t p = head; p < end; p++) {
        Py_UCS4 c = MX(p);
        if (c == '(') {
            depth++;
        } else if (c == ')') {
            depth--;
        } else if (c == ':' && depth == 0) {
            Py_ssize_t q = p + 1;
            if (blank_code(w, q, end) && k + 1 < L->starts.n)
                return L->starts.v[k + 1];
            while (q < end && (TX(q) == ' ' || TX(q) == '\t'))
                q++;
            return q;
        }
    }
    return FAIL;
}

/* _Scanner.stop */
static Py_ssize_t stop_of(W *w, Py_ssize_t k) {
    Lines *L = w->L;
    Py_ssize_t nx = L->nxt.v[k];
    if (nx == k + 1)
        return L->code_ends.v[k];
    Py_ssize_t e = L->ends.v[nx - 1];
    Py_ssize_t c = bisect_left(&L->cstarts, nx < L->starts.n ? L->starts.v[nx] : L->n, 0) - 1;
    while (c >= 0 && L->cstarts.v[c] > e) {
        if (L->cinds.v[c] > L->inds.v[k])
            return L->cends.v[c];
        c--;
    }
    return e;
}

static Node *new_node(W *w) {
    if (w->nnodes == w->capnodes) {
        Py_ssize_t cap = w->capnodes ? w->capnodes * 2 : 64;
        Node **v = (Node **)realloc(w->nodes, (size_t)cap * sizeof(Node *));
        if (v == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        w->nodes = v;
        w->capnodes = cap;
    }
    Node *x = (Node *)calloc(1, sizeof(Node));
    if (x == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    w->nodes[w->nnodes++] = x;
    return x;
}

/* _Scanner.definition: 0 and *out, FAIL or -1 */
static int definition(W *w, Py_ssize_t k, Py_ssize_t start, int kw, Node **out) {
    Lines *L = w->L;
    Py_ssize_t s = L->starts.v[k];
    Py_ssize_t end = L->nxt.v[k] == k + 1 ? L->ends.v[k] : stop_of(w, k);
    /* _NAME: (?:async[ \t]+)?(?:def|class)[ \t]+(\w+) */
    Py_ssize_t n = L->n, p = -1, q;
    for (int pass = 0; pass < 2 && p < 0; pass++) {
        q = s;
        if (pass == 0) {
            if (!starts_with(w, q, "async"))
                continue;
            q += 5;
            if (!(q < n && (TX(q) == ' ' || TX(q) == '\t')))
                continue;
            while (q < n && (TX(q) == ' ' || TX(q) == '\t'))
                q++;
        }
        if (starts_with(w, q, "def"))
            q += 3;
        else if (starts_with(w, q, "class"))
            q += 5;
        else
            continue;
        if (!(q < n && (TX(q) == ' ' || TX(q) == '\t')))
            continue;
        while (q < n && (TX(q) == ' ' || TX(q) == '\t'))
            q++;
        if (!(q < n && is_word(TX(q))))
            continue;
        p = q;
    }
    if (p < 0)
        return FAIL;
    q = p;
    while (q < n && is_word(TX(q)))
        q++;
    Py_ssize_t he = header_end(w, s, k);
    if (he == FAIL)
        return FAIL;
    Node *x = new_node(w);
    if (x == NULL)
        return -1;
    x->name = PyUnicode_Substring(L->text, p, q);
    if (x->name == NULL)
        return -1;
    x->type = start < s ? T_DECORATED : kw;
    x->def_type = kw;
    x->start = start;
    x->end = end;
    x->head = s;
    x->head_end = he;
    *out = x;
    return 0;
}

static int add_kid(Node *parent, Node *kid) {
    if (parent->nkids == parent->capkids) {
        Py_ssize_t cap = parent->capkids ? parent->capkids * 2 : 4;
        Node **v = (Node **)realloc(parent->kids, (size_t)cap * sizeof(Node *));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        parent->kids = v;
        parent->capkids = cap;
    }
    parent->kids[parent->nkids++] = kid;
    return 0;
}

/* _Scanner.inner: the definitions inside the closed definition x (line k), nested */
static int inner(W *w, Node *x, Py_ssize_t k) {
    Lines *L = w->L;
    Node *chain_small[64];
    Node **chain = chain_small;
    Py_ssize_t nchain = 0, capchain = 64;
    int rc = 0;
    chain[nchain++] = x;
    /* _INNER_DEF (\n( +)(?:async[ \t]+)?(?:def|class)[ \t]) where it matches at the
     * start of a logical line (not inside brackets): a line after line k, indented,
     * whose masked text begins so (the match inside the definition) */
    const Py_ssize_t lim = x->end;
    for (Py_ssize_t i = k + 1; i < L->starts.n && L->starts.v[i] < lim; i++) {
        if (L->inds.v[i] < 1)
            continue;
        Py_ssize_t s = L->starts.v[i], mend = -1;
        for (int pass = 0; pass < 2 && mend < 0; pass++) {
            Py_ssize_t r = s;
            if (pass == 0) {
                if (!(r + 5 <= lim && MX(r) == 'a' && MX(r + 1) == 's' && MX(r + 2) == 'y' && MX(r + 3) == 'n' &&
                      MX(r + 4) == 'c'))
                    continue;
                r += 5;
                if (!(r < lim && (MX(r) == ' ' || MX(r) == '\t')))
                    continue;
                while (r < lim && (MX(r) == ' ' || MX(r) == '\t'))
                    r++;
            }
            if (r + 3 <= lim && MX(r) == 'd' && MX(r + 1) == 'e' && MX(r + 2) == 'f')
                r += 3;
            else if (r + 5 <= lim && MX(r) == 'c' && MX(r + 1) == 'l' && MX(r + 2) == 'a' && MX(r + 3) == 's' &&
                     MX(r + 4) == 's')
                r += 5;
            else
                continue;
            if (r < lim && (MX(r) == ' ' || MX(r) == '\t'))
                mend = r + 1;
        }
        if (mend < 0)
            continue;
        Py_ssize_t d = i;
        while (d > k + 1 && TX(L->starts.v[d - 1]) == '@' && L->inds.v[d - 1] == L->inds.v[i])
            d--;
        int kw = kind_of(w, i);
        if (kw != T_FUNCTION && kw != T_CLASS)
            continue;
        Node *y;
        rc = definition(w, i, L->starts.v[d], kw, &y);
        if (rc < 0)
            break;
        while (nchain > 1 && chain[nchain - 1]->end <= y->start)
            nchain--;
        if (add_kid(chain[nchain - 1], y) < 0) {
            rc = -1;
            break;
        }
        if (nchain == capchain) {
            Node **v = (Node **)malloc((size_t)capchain * 2 * sizeof(Node *));
            if (v == NULL) {
                PyErr_NoMemory();
                rc = -1;
                break;
            }
            memcpy(v, chain, (size_t)nchain * sizeof(Node *));
            if (chain != chain_small)
                free(chain);
            chain = v;
            capchain *= 2;
        }
        chain[nchain++] = y;
    }
    if (chain != chain_small)
        free(chain);
    return rc;
}

static PyObject *qualify(PyObject *prefix, PyObject *name) {
    if (PyUnicode_GET_LENGTH(prefix) == 0) {
        Py_INCREF(name);
        return name;
    }
    return PyUnicode_FromFormat("%U.%U", prefix, name);
}

/* Definition(start, head, end, name, qual, def_type, signature, parent), appended to
 * defs: made as its named tuple's __new__ makes it (tuple.__new__: the type's tp_alloc,
 * then the nine fields, container False) */
static int add_definition(W *w, Py_ssize_t start, Node *x, PyObject *qual, PyObject *sig, Py_ssize_t parent) {
    PyTypeObject *tp = (PyTypeObject *)w->defcls;
    PyObject *d = tp->tp_alloc(tp, 9);
    if (d == NULL)
        return -1;
    PyObject *f[9];
    f[0] = PyLong_FromSsize_t(start);
    f[1] = PyLong_FromSsize_t(x->head);
    f[2] = PyLong_FromSsize_t(x->end);
    f[3] = x->name;
    f[4] = qual;
    f[5] = TYPE_STR[x->def_type];
    f[6] = sig;
    f[7] = PyLong_FromSsize_t(parent);
    f[8] = Py_False;
    Py_INCREF(f[3]);
    Py_INCREF(f[4]);
    Py_INCREF(f[5]);
    Py_INCREF(f[6]);
    Py_INCREF(f[8]);
    for (int i = 0; i < 9; i++)
        PyTuple_SET_ITEM(d, i, f[i]); /* (a NULL from a failed PyLong: dealloc skips it) */
    int rc = -1;
    if (f[0] && f[1] && f[2] && f[7])
        rc = PyList_Append(w->defs, d);
    Py_DECREF(d);
    return rc;
}

/* _signature(text, x), by the Python function (sig(head, head_end, end)) */
static PyObject *long_signature(W *w, Node *x) {
    return PyObject_CallFunction(w->sigfn, "nnn", x->head, x->head_end, x->end);
}

/* _Scanner.record_closed */
static int record_closed(W *w, Node *x, Py_ssize_t parent, PyObject *prefix) {
    for (Py_ssize_t i = 0; i < x->nkids; i++) {
        Node *c = x->kids[i];
        PyObject *qual = qualify(prefix, c->name);
        if (qual == NULL)
            return -1;
        PyObject *sig = long_signature(w, c);
        int rc = sig == NULL ? -1 : add_definition(w, c->start, c, qual, sig, parent);
        Py_XDECREF(sig);
        if (rc == 0 && c->nkids)
            rc = record_closed(w, c, PyList_GET_SIZE(w->defs) - 1, qual);
        Py_DECREF(qual);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* fits(a, b) / keep(a, b): 1, 0 or -1 */
static int call2(PyObject *fn, Py_ssize_t a, Py_ssize_t b) {
    PyObject *args[2];
    args[0] = PyLong_FromSsize_t(a);
    args[1] = PyLong_FromSsize_t(b);
    int rc = -1;
    if (args[0] && args[1]) {
        PyObject *r = PyObject_Vectorcall(fn, args, 2, NULL);
        if (r != NULL) {
            rc = PyObject_IsTrue(r);
            Py_DECREF(r);
        }
    }
    Py_XDECREF(args[0]);
    Py_XDECREF(args[1]);
    return rc;
}

static int add_statement(W *w, Py_ssize_t s, Py_ssize_t e, int type) {
    PyObject *t = PyTuple_New(3);
    if (t == NULL)
        return -1;
    PyObject *a = PyLong_FromSsize_t(s), *b = PyLong_FromSsize_t(e);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_DECREF(t);
        return -1;
    }
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);
    Py_INCREF(TYPE_STR[type]);
    PyTuple_SET_ITEM(t, 2, TYPE_STR[type]);
    PyObject_GC_UnTrack(t); /* (ints and a str: in no cycle; the collector need not visit it) */
    int rc = PyList_Append(w->statements, t);
    Py_DECREF(t);
    return rc;
}

static int add_cut(W *w, Py_ssize_t a, Py_ssize_t b, Py_ssize_t ind, Py_ssize_t kind) {
    if (vec_push(&w->cuts, a) < 0 || vec_push(&w->cuts, b) < 0 || vec_push(&w->cuts, ind) < 0 ||
        vec_push(&w->cuts, kind) < 0)
        return -1;
    return 0;
}

/* the cut before a group at gs, indented by ind: after the whitespace before it */
static Py_ssize_t back_space(W *w, Py_ssize_t a) {
    while (a > 0 && Py_UNICODE_ISSPACE(TX(a - 1)))
        a--;
    return a;
}

/* gap.count("\n") + gap.count("\r") - gap.count("\r\n") of text[a:b] */
static Py_ssize_t breaks(W *w, Py_ssize_t a, Py_ssize_t b) {
    Py_ssize_t c = 0;
    for (Py_ssize_t p = a; p < b; p++) {
        Py_UCS4 ch = TX(p);
        if (ch == '\n')
            c++;
        else if (ch == '\r' && !(p + 1 < b && TX(p + 1) == '\n'))
            c++;
    }
    return c;
}

/* _line_start */
static Py_ssize_t line_start(W *w, Py_ssize_t p) {
    Py_ssize_t nl = p - 1;
    while (nl >= 0 && TX(nl) != '\n')
        nl--;
    Py_ssize_t r = p - 1;
    while (r > nl && TX(r) != '\r')
        r--;
    return (r > nl ? r : nl) + 1;
}

static int is_future(W *w, Py_ssize_t s0) {
    Py_ssize_t p = s0 + 4, n = w->L->n;
    while (p < n && (TX(p) == ' ' || TX(p) == '\t'))
        p++;
    return starts_with(w, p, "__future__");
}

static int block(W *w, Py_ssize_t i, Py_ssize_t j, Py_ssize_t lo, Py_ssize_t end, Py_ssize_t node_start,
                 Py_ssize_t parent, PyObject *prefix, int top);
static int body(W *w, Py_ssize_t k, Py_ssize_t node_start, Children *clauses, int listing, Py_ssize_t parent,
                PyObject *prefix, Py_ssize_t end);

/* _Scanner.header, appended to out */
static int header(W *w, Py_ssize_t k, Children *out) {
    Lines *L = w->L;
    Py_ssize_t i = k + 1;
    Py_ssize_t c1 = bisect_left(&L->cstarts, L->ends.v[k], 0), c2 = bisect_left(&L->cstarts, L->starts.v[i], 0);
    for (Py_ssize_t c = c1; c < c2; c++) {
        Child ch = {L->cstarts.v[c], L->cends.v[c], -1, L->cinds.v[c], T_COMMENT};
        if (children_push(out, ch) < 0)
            return -1;
    }
    Child b = {L->starts.v[i], stop_of(w, k), k, L->inds.v[i], T_BLOCK};
    return children_push(out, b);
}

/* _Scanner.walk */
static int walk(W *w, Children *ch, Py_ssize_t node_start, int listing, Py_ssize_t parent, PyObject *prefix) {
    Lines *L = w->L;
    Py_ssize_t n = ch->n, i = 0, gi = 0, pending = -1, pind = -1;
    while (i < n) {
        Child c = ch->v[i];
        i++;
        Py_ssize_t gs, ge, ind;
        int typ;
        if (c.type == T_COMMENT) {
            if (pending < 0) {
                pending = c.s;
                pind = c.ind;
            }
            if (i < n && breaks(w, c.e, ch->v[i].s) <= 1)
                continue;
            gs = pending;
            ge = c.e;
            ind = pind;
            pending = -1;
            typ = T_COMMENT;
        } else {
            if (pending >= 0) {
                gs = pending;
                ind = pind;
                pending = -1;
            } else {
                gs = c.s;
                ind = c.ind;
            }
            ge = c.e;
            typ = c.type;
        }
        if (ind >= 0) {
            if (listing && add_statement(w, gs, ge, typ) < 0)
                return -1;
            if (gs > 0) {
                Py_ssize_t a = back_space(w, gs - ind);
                if (a > 0 && (gi > 0 || a > node_start) && add_cut(w, a, gs, ind, is_clause_type(typ) ? 2 : 1) < 0)
                    return -1;
            }
        }
        gi++;
        if (typ == T_COMMENT)
            continue;
        Py_ssize_t k = c.k;
        int rc = 0;
        if (typ == T_BLOCK) {
            Py_ssize_t jj = k + 1;
            rc = block(w, jj, L->nxt.v[k], L->starts.v[jj], c.e, c.s, parent, prefix, 0);
        } else if (L->nxt.v[k] > k + 1) {
            rc = body(w, k, c.s, NULL, is_clause_type(typ), parent, prefix, -1);
        }
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* _Scanner.body */
static int body(W *w, Py_ssize_t k, Py_ssize_t node_start, Children *clauses, int listing, Py_ssize_t parent,
                PyObject *prefix, Py_ssize_t end) {
    Lines *L = w->L;
    const Py_ssize_t *starts = L->starts.v, *ends = L->ends.v, *code_ends = L->code_ends.v;
    Py_ssize_t i = k + 1, bs = starts[i];
    Py_ssize_t c0 = bisect_left(&L->cstarts, ends[k], 0), nc = L->cstarts.n;
    if (clauses != NULL || (c0 < nc && L->cstarts.v[c0] < bs)) {
        Children sub = {0};
        int rc = header(w, k, &sub);
        if (rc == 0 && clauses != NULL) {
            for (Py_ssize_t q = 0; q < clauses->n && rc == 0; q++)
                rc = children_push(&sub, clauses->v[q]);
        }
        if (rc == 0)
            rc = walk(w, &sub, node_start, listing, parent, prefix);
        free(sub.v);
        return rc;
    }
    Py_ssize_t be = end >= 0 ? end : stop_of(w, k);
    Py_ssize_t ind = L->inds.v[i];
    if (listing && add_statement(w, bs, be, T_BLOCK) < 0)
        return -1;
    Py_ssize_t a = ends[k];
    if (L->continued && L->after.v[i] > a)
        a = L->after.v[i];
    if (a > node_start && add_cut(w, a, bs, ind, 1) < 0)
        return -1;
    Py_ssize_t e = L->nxt.v[k];
    if (c0 == nc || L->cstarts.v[c0] > be) {
        int any_op = 0;
        for (Py_ssize_t x = i; x < e; x++) {
            if (L->ops.v[x]) {
                any_op = 1;
                break;
            }
        }
        if (!any_op) {
            /* one-line statements: read at once if none is a definition or a clause */
            int plain = 1;
            for (Py_ssize_t x = i; x < e; x++) {
                int kw = kind_of(w, x);
                if (kw == T_FUNCTION || kw == T_CLASS || is_clause_kw(kw) || kw == K_AT) {
                    plain = 0;
                    break;
                }
            }
            if (plain) {
                for (Py_ssize_t x = i; x < e; x++) {
                    int kw = kind_of(w, x);
                    int t = kw == K_NONE ? T_EXPRESSION : kw;
                    if (kw == T_FROM && is_future(w, starts[x]))
                        t = T_FUTURE;
                    Py_ssize_t se = ends[x] > code_ends[x] ? ends[x] : code_ends[x];
                    if (add_statement(w, starts[x], se, t) < 0)
                        return -1;
                    if (x > i) {
                        Py_ssize_t aa = ends[x - 1];
                        if (L->continued && L->after.v[x] > aa)
                            aa = L->after.v[x];
                        if (add_cut(w, aa, starts[x], ind, is_clause_type(t) ? 2 : 1) < 0)
                            return -1;
                    }
                }
                return 0;
            }
        }
    }
    return block(w, i, e, bs, be, bs, parent, prefix, 0);
}

static int add_pair(PyObject *list, Py_ssize_t a, Py_ssize_t b) {
    PyObject *t = Py_BuildValue("(nn)", a, b);
    if (t == NULL)
        return -1;
    int rc = PyList_Append(list, t);
    Py_DECREF(t);
    return rc;
}

static int add_top(W *w, Py_ssize_t gs, Py_ssize_t ge, const char *what) {
    PyObject *t = Py_BuildValue("(nns)", gs, ge, what);
    if (t == NULL)
        return -1;
    int rc = PyList_Append(w->top, t);
    Py_DECREF(t);
    if (rc < 0)
        return -1;
    return add_pair(w->items, gs, ge);
}

/* _Scanner.block (top: the module, whose groups are listed) */
static int block(W *w, Py_ssize_t i, Py_ssize_t j, Py_ssize_t lo, Py_ssize_t end, Py_ssize_t node_start,
                 Py_ssize_t parent, PyObject *prefix, int top) {
    Lines *L = w->L;
    const Py_ssize_t *starts = L->starts.v, *inds = L->inds.v, *ends = L->ends.v, *code_ends = L->code_ends.v;
    const Py_ssize_t *nxt = L->nxt.v, *cstarts = L->cstarts.v, *cends = L->cends.v, *cinds = L->cinds.v;
    Py_ssize_t ci = bisect_left(&L->cstarts, lo, 0), cj = bisect_right(&L->cstarts, end);
    Py_ssize_t gi = 0, pending = -1, pind = -1, lead = -1;
    int prev_def = 0;
    Py_ssize_t k = i;
    Children clauses = {0};
    int rc = 0;
    for (;;) {
        Py_ssize_t kid_start, k0 = -1, s0 = 0, e0 = 0, kl = 0, ind0 = 0;
        int typ = 0, has_clauses = 0;
        Node *x = NULL;
        clauses.n = 0;
        if (k < j) {
            k0 = k;
            int kw = kind_of(w, k);
            if (kw == K_AT) {
                Py_ssize_t d0 = starts[k];
                while (kw == K_AT) {
                    k = nxt[k];
                    if (k >= j || inds[k] != inds[i]) {
                        rc = FAIL;
                        goto out;
                    }
                    kw = kind_of(w, k);
                }
                if (kw != T_FUNCTION && kw != T_CLASS) {
                    rc = FAIL;
                    goto out;
                }
                rc = definition(w, k, d0, kw, &x);
                if (rc < 0)
                    goto out;
                s0 = x->start, e0 = x->end, typ = x->type, kl = k, ind0 = inds[k];
            } else if (kw == T_FUNCTION || kw == T_CLASS) {
                rc = definition(w, k, starts[k], kw, &x);
                if (rc < 0)
                    goto out;
                s0 = x->start, e0 = x->end, typ = x->type, kl = k, ind0 = inds[k];
            } else if (is_clause_kw(kw)) {
                rc = FAIL; /* a clause without its statement */
                goto out;
            } else {
                typ = kw == K_NONE ? T_EXPRESSION : kw;
                s0 = starts[k];
                if (kw == T_FROM && is_future(w, s0))
                    typ = T_FUTURE;
                Py_ssize_t c = nxt[k];
                kl = k;
                ind0 = inds[k];
                if (c < j && inds[c] == ind0) {
                    int ck = kind_of(w, c);
                    if (is_clause_kw(ck)) {
                        has_clauses = 1;
                        Py_ssize_t prev_end = c == k + 1 ? code_ends[k] : stop_of(w, k);
                        for (;;) {
                            Py_ssize_t c1 = bisect_left(&L->cstarts, prev_end, 0);
                            if (c1 < L->cstarts.n && cstarts[c1] < starts[c]) {
                                Py_ssize_t c2 = bisect_left(&L->cstarts, starts[c], c1);
                                for (Py_ssize_t q = c1; q < c2; q++) {
                                    Child cm = {cstarts[q], cends[q], -1, cinds[q], T_COMMENT};
                                    if (children_push(&clauses, cm) < 0) {
                                        rc = -1;
                                        goto out;
                                    }
                                }
                            }
                            prev_end = nxt[c] == c + 1 ? code_ends[c] : stop_of(w, c);
                            Child cl = {starts[c], prev_end, c, inds[c], ck};
                            if (children_push(&clauses, cl) < 0) {
                                rc = -1;
                                goto out;
                            }
                            k = c;
                            c = nxt[c];
                            if (c >= j || inds[c] != ind0)
                                break;
                            ck = kind_of(w, c);
                            if (!is_clause_kw(ck))
                                break;
                        }
                        e0 = clauses.v[clauses.n - 1].e;
                    }
                }
                if (!has_clauses)
                    e0 = c == k + 1 ? code_ends[k] : stop_of(w, k);
                if (is_compound(typ) && (has_clauses || c > k + 1) && w->keep != NULL &&
                    (w->whole.n == 0 || s0 >= w->whole.v[w->whole.n - 1])) {
                    int f = call2(w->keep, s0 - ind0, e0);
                    if (f < 0) {
                        rc = -1;
                        goto out;
                    }
                    if (f) {
                        if (vec_push(&w->whole, s0) < 0 || vec_push(&w->whole, e0) < 0) {
                            rc = -1;
                            goto out;
                        }
                    } else if (ends[c - 1] < e0) {
                        f = call2(w->keep, s0 - ind0, ends[c - 1]);
                        if (f < 0) {
                            rc = -1;
                            goto out;
                        }
                        if (f && (vec_push(&w->whole, s0) < 0 || vec_push(&w->whole, ends[c - 1]) < 0)) {
                            rc = -1;
                            goto out;
                        }
                    }
                }
            }
            kid_start = s0;
        } else {
            kid_start = -1;
        }
        /* the comment lines before it */
        while (ci < cj && (kid_start < 0 || cstarts[ci] < kid_start)) {
            Py_ssize_t p = cstarts[ci], q = cends[ci];
            if (lead < 0)
                lead = p;
            if (pending < 0) {
                pending = p;
                pind = cinds[ci];
            }
            ci++;
            Py_ssize_t nxt_start = ci < cj && (kid_start < 0 || cstarts[ci] < kid_start) ? cstarts[ci] : kid_start;
            if (nxt_start >= 0 && breaks(w, q, nxt_start) <= 1)
                continue;
            Py_ssize_t gs = pending, ind = pind;
            pending = -1;
            if (add_statement(w, gs, q, T_COMMENT) < 0) {
                rc = -1;
                goto out;
            }
            if (gs > 0) {
                Py_ssize_t a = back_space(w, gs - ind);
                if (a > 0 && (gi > 0 || a > node_start) && add_cut(w, a, gs, ind, prev_def ? 0 : 1) < 0) {
                    rc = -1;
                    goto out;
                }
            }
            prev_def = 0;
            gi++;
            if (top && add_top(w, gs, q, "comment") < 0) {
                rc = -1;
                goto out;
            }
        }
        if (kid_start < 0)
            break;
        Py_ssize_t c0 = ci;
        while (ci < cj && cstarts[ci] < e0)
            ci++;
        Py_ssize_t gs, ind, a;
        if (pending >= 0) {
            gs = pending;
            ind = pind;
            pending = -1;
            a = -1;
        } else {
            gs = s0;
            ind = ind0;
            a = k0 ? ends[k0 - 1] : 0;
            if (c0 && cends[c0 - 1] > a)
                a = cends[c0 - 1];
            if (L->continued && L->after.v[k0] > a)
                a = L->after.v[k0];
        }
        Py_ssize_t group = lead >= 0 ? lead : s0;
        lead = -1;
        Py_ssize_t ge = e0;
        if (nxt[kl] == kl + 1 && ends[kl] > code_ends[kl] && !has_clauses) {
            Py_ssize_t h = code_ends[kl];
            while (h < L->n && MX(h) != '#')
                h++;
            if (h >= L->n) { /* (masked.index: ValueError) */
                rc = FAIL;
                goto out;
            }
            lead = h;
            if (ends[kl] > ge)
                ge = ends[kl];
        }
        int is_def = x != NULL;
        if (add_statement(w, gs, ge, is_def ? x->def_type : typ) < 0) {
            rc = -1;
            goto out;
        }
        if (gs > 0) {
            if (a < 0)
                a = back_space(w, gs - ind);
            if (a > 0 && (gi > 0 || a > node_start) &&
                add_cut(w, a, gs, ind, is_def || prev_def ? 0 : (is_clause_type(typ) ? 2 : 1)) < 0) {
                rc = -1;
                goto out;
            }
        }
        prev_def = is_def;
        gi++;
        if (top) {
            if (add_top(w, gs, ge, is_def ? "definition" : "statement") < 0) {
                rc = -1;
                goto out;
            }
            if (is_import(typ) && add_pair(w->imports, s0, e0) < 0) {
                rc = -1;
                goto out;
            }
        }
        k = nxt[k];
        if (is_def) {
            Py_ssize_t ls = x->head - ind0;
            Py_ssize_t se = x->head_end;
            while (se > ls && Py_UNICODE_ISSPACE(TX(se - 1)))
                se--;
            int one = se - ls <= 400 && se > ls;
            for (Py_ssize_t p = ls; one && p < se; p++) {
                Py_UCS4 ch = TX(p);
                if (ch < 128 ? (ch >= '\n' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1e) : Py_UNICODE_ISLINEBREAK(ch))
                    one = 0;
            }
            PyObject *sig = one ? PyUnicode_Substring(L->text, ls, se) : long_signature(w, x);
            if (sig == NULL) {
                rc = -1;
                goto out;
            }
            PyObject *qual = qualify(prefix, x->name);
            if (qual == NULL) {
                Py_DECREF(sig);
                rc = -1;
                goto out;
            }
            rc = add_definition(w, gs, x, qual, sig, parent);
            Py_DECREF(sig);
            Py_ssize_t idx = PyList_GET_SIZE(w->defs) - 1;
            int f = 0;
            if (rc == 0 && w->fits != NULL) {
                f = call2(w->fits, group == s0 ? group - ind0 : line_start(w, group), x->end);
                if (f < 0)
                    rc = -1;
            }
            if (rc == 0) {
                if (f) {
                    if (vec_push(&w->closed, x->start) < 0 || vec_push(&w->closed, x->end) < 0)
                        rc = -1;
                    if (rc == 0)
                        rc = inner(w, x, kl);
                    if (rc == 0 && x->nkids)
                        rc = record_closed(w, x, idx, qual);
                } else if (nxt[kl] > kl + 1) {
                    rc = body(w, kl, x->start, NULL, 0, idx, qual, e0);
                }
            }
            Py_DECREF(qual);
            if (rc < 0)
                goto out;
        } else if (nxt[kl] > kl + 1) {
            Children mine = clauses; /* (the walk below needs them, the next statement its own list) */
            clauses.v = NULL;
            clauses.n = clauses.cap = 0;
            rc = body(w, kl, s0, has_clauses ? &mine : NULL, is_clause_type(typ), parent, prefix, e0);
            free(mine.v);
            if (rc < 0)
                goto out;
        } else if (has_clauses) {
            Children mine = clauses;
            clauses.v = NULL;
            clauses.n = clauses.cap = 0;
            rc = walk(w, &mine, s0, is_clause_type(typ), parent, prefix);
            free(mine.v);
            if (rc < 0)
                goto out;
        }
    }
out:
    free(clauses.v);
    return rc;
}

static int cmp4(const void *a, const void *b) {
    const Py_ssize_t *x = (const Py_ssize_t *)a, *y = (const Py_ssize_t *)b;
    for (int i = 0; i < 4; i++) {
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

static int cmp2(const void *a, const void *b) {
    const Py_ssize_t *x = (const Py_ssize_t *)a, *y = (const Py_ssize_t *)b;
    for (int i = 0; i < 2; i++) {
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

static PyObject *pairs_tuple(const Vec *v) {
    Py_ssize_t m = v->n / 2;
    PyObject *t = PyTuple_New(m);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *p = Py_BuildValue("(nn)", v->v[2 * i], v->v[2 * i + 1]);
        if (p == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyObject_GC_UnTrack(p);
        PyTuple_SET_ITEM(t, i, p);
    }
    return t;
}

/* scan_python's cuts: sorted, without those after a backslash continuation (text not
 * all whitespace), one for each place (the first in order: the stronger kind) */
static PyObject *final_cuts(W *w) {
    Lines *L = w->L;
    Py_ssize_t m = w->cuts.n / 4;
    Py_ssize_t *v = w->cuts.v;
    if (m > 1)
        qsort(v, (size_t)m, 4 * sizeof(Py_ssize_t), cmp4);
    Py_ssize_t kept = 0;
    if (L->continued) {
        for (Py_ssize_t i = 0; i < m; i++) {
            Py_ssize_t a = v[4 * i], b = v[4 * i + 1];
            int space = b > a; /* str.isspace: not empty, all whitespace */
            for (Py_ssize_t p = a; space && p < b; p++) {
                if (!Py_UNICODE_ISSPACE(TX(p)))
                    space = 0;
            }
            if (space) {
                memmove(v + 4 * kept, v + 4 * i, 4 * sizeof(Py_ssize_t));
                kept++;
            }
        }
        m = kept;
    }
    /* (compared with the one before it in the sorted list, dropped or not) */
    Py_ssize_t out = 0, prev_b = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t b = v[4 * i + 1];
        if (i == 0 || b != prev_b) {
            if (out != i)
                memmove(v + 4 * out, v + 4 * i, 4 * sizeof(Py_ssize_t));
            out++;
        }
        prev_b = b;
    }
    PyObject *t = PyTuple_New(out);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < out; i++) {
        PyObject *c = PyTuple_New(4);
        if (c == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, c);
        for (int f = 0; f < 4; f++) {
            PyObject *x = PyLong_FromSsize_t(v[4 * i + f]);
            if (x == NULL) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(c, f, x);
        }
        PyObject_GC_UnTrack(c);
    }
    return t;
}

/* the nesting of blocks up to which the walk runs in C: a deeper file is walked by the
 * Python code (so that a recursion too deep for Python fails there, as before) */
#define MAX_NESTING 40

/* scan(text, fits, keep, Definition, signature) -> None, or (False, lines(text)) where
 * the Python code must walk it, or (True, opaque, whole, closed, defs, statements, cuts,
 * top, items, imports): scan_python's values before _link_parents (defs unsorted,
 * parents as found) */
static PyObject *scan_scan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *text, *fits, *keep, *defcls, *sigfn;
    if (!PyArg_ParseTuple(args, "UOOOO:scan", &text, &fits, &keep, &defcls, &sigfn))
        return NULL;
    if (!PyType_Check(defcls) || !PyType_IsSubtype((PyTypeObject *)defcls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "scan(): Definition must be a named tuple of nine fields");
        return NULL;
    }
    Lines L;
    int rc = line_pass(text, &L);
    PyObject *result = NULL;
    if (rc <= 0) {
        lines_free(&L);
        if (rc == 0)
            Py_RETURN_NONE;
        return NULL;
    }
    if (L.max_open > MAX_NESTING) {
        PyObject *lt = lines_tuple(&L);
        lines_free(&L);
        if (lt == NULL)
            return NULL;
        result = Py_BuildValue("(ON)", Py_False, lt);
        return result;
    }
    W w;
    memset(&w, 0, sizeof(w));
    w.L = &L;
    w.fits = fits == Py_None ? NULL : fits;
    w.keep = keep == Py_None ? NULL : keep;
    w.defcls = defcls;
    w.sigfn = sigfn;
    PyObject *prefix = PyUnicode_FromString("");
    w.kinds = (int *)malloc((size_t)(L.starts.n ? L.starts.n : 1) * sizeof(int));
    w.defs = PyList_New(0);
    w.statements = PyList_New(0);
    w.top = PyList_New(0);
    w.items = PyList_New(0);
    w.imports = PyList_New(0);
    if (prefix == NULL || w.kinds == NULL || !w.defs || !w.statements || !w.top || !w.items || !w.imports) {
        if (w.kinds == NULL)
            PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < L.starts.n; k++)
        w.kinds[k] = K_UNKNOWN;
    rc = block(&w, 0, L.starts.n, 0, L.n, 0, -1, prefix, 1);
    if (rc == FAIL) {
        result = Py_None;
        Py_INCREF(result);
    } else if (rc == 0) {
        if (w.closed.n > 2)
            qsort(w.closed.v, (size_t)(w.closed.n / 2), 2 * sizeof(Py_ssize_t), cmp2);
        PyObject *whole = pairs_tuple(&w.whole), *closed = pairs_tuple(&w.closed), *cuts = final_cuts(&w);
        if (whole && closed && cuts)
            result = Py_BuildValue("(OOOOOOOOOO)", Py_True, L.opaque, whole, closed, w.defs, w.statements, cuts,
                                   w.top, w.items, w.imports);
        Py_XDECREF(whole);
        Py_XDECREF(closed);
        Py_XDECREF(cuts);
    }
done:
    Py_XDECREF(prefix);
    free(w.kinds);
    Py_XDECREF(w.defs);
    Py_XDECREF(w.statements);
    Py_XDECREF(w.top);
    Py_XDECREF(w.items);
    Py_XDECREF(w.imports);
    vec_free(&w.whole);
    vec_free(&w.closed);
    vec_free(&w.cuts);
    for (Py_ssize_t q = 0; q < w.nnodes; q++) {
        Py_XDECREF(w.nodes[q]->name);
        free(w.nodes[q]->kids);
        free(w.nodes[q]);
    }
    free(w.nodes);
    lines_free(&L);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", scan_scan, METH_VARARGS,
     "scan(text, fits, keep, Definition, signature): scan_python's values (see chunkwise.parsers.code_scan), "
     "or None where the scan cannot vouch for the text."},
    {"lines", scan_lines, METH_O,
     "lines(text): the masked text, the multi-line strings and the logical lines of Python source "
     "(see chunkwise.parsers.code_scan), or None where the scan cannot vouch for it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_code_scan", "Python's structural scan: the line pass in C (see code_scan.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

/* code_scan.py uses this module only where VERSION is the one it expects (a module built
 * from an older copy of this file is left unused): raise both with a change of output */
PyMODINIT_FUNC PyInit__code_scan(void) {
    for (int t = 0; t < T_COUNT; t++) {
        if (TYPE_STR[t] == NULL) {
            TYPE_STR[t] = PyUnicode_InternFromString(TYPE_NAMES[t]);
            if (TYPE_STR[t] == NULL)
                return NULL;
        }
    }
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", 3) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
