/* The line pass of Python's structural scan, in C.
 *
 * This file mirrors chunkwise/parsers/code_scan.py, which stays the reference (the
 * documented algorithm): scan_python's checks before the scan (a lone carriage return,
 * _mask_continued, _BAD_INDENT), _Scanner.lines and _Scanner.continuations. It gives the
 * same values, offset for offset, or None where the Python code returns None or raises
 * _Fail. Offsets count code points, as Python's str does. A change to one of those
 * Python functions must be made here too (tests/test_scan_native.py compares the two on
 * the standard library and on generated text).
 *
 * lines(text) -> None, or a tuple
 *   (masked, opaque, continued, starts, inds, ends, code_ends, cstarts, cends, cinds,
 *    ops, nxt, after_cont)
 * with the names of code_scan.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_ssize_t *v;
    Py_ssize_t n, cap;
} Vec;

static int vec_push(Vec *a, Py_ssize_t x) {
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? a->cap * 2 : 256;
        Py_ssize_t *v = (Py_ssize_t *)realloc(a->v, (size_t)cap * sizeof(Py_ssize_t));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

static void vec_free(Vec *a) {
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

#define RD(i) PyUnicode_READ(kind, data, (i))

/* The end of the string literal that starts at p (a quote), as _STRING's alternatives
 * match it (triple-quoted first, then on one line), or -1 where none does. */
static Py_ssize_t string_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t p) {
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

static PyObject *scan_lines(PyObject *self, PyObject *arg) {
    (void)self;
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "lines() takes a str");
        return NULL;
    }
    if (PyUnicode_READY(arg) < 0)
        return NULL;
    PyObject *text = arg;
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);

    PyObject *result = NULL, *masked = NULL, *opaque = NULL, *after = NULL;
    void *mbuf = NULL;
    Vec starts = {0}, inds = {0}, ends = {0}, code_ends = {0}, cstarts = {0}, cends = {0}, cinds = {0};
    Vec ops = {0}, nxt = {0}, stack = {0}, lstart = {0}, lend = {0};
    int continued = 0;
    Py_ssize_t i;

    /* a lone carriage return (scan_python: None) */
    for (i = 0; i < n; i++) {
        if (RD(i) == '\r' && (i + 1 >= n || RD(i + 1) != '\n'))
            Py_RETURN_NONE;
    }

    /* _mask_continued: strings as "_", comments as "#", backslash continuations as
     * spaces, brackets as "(" and ")" */
    mbuf = PyMem_Malloc((size_t)(n ? n : 1) * (size_t)kind);
    if (mbuf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    opaque = PyList_New(0);
    if (opaque == NULL)
        goto done;
    {
        Py_ssize_t p = 0;
        while (p < n) {
            Py_UCS4 c = RD(p);
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
                if (q < 0) /* a quote that opens no string */
                    goto none;
                int multi = 0;
                for (Py_ssize_t r = p; r < q; r++) {
                    if (RD(r) == '\n')
                        multi = 1;
                    PyUnicode_WRITE(kind, mbuf, r, '_');
                }
                if (multi) {
                    PyObject *span = Py_BuildValue("(nn)", p, q);
                    if (span == NULL || PyList_Append(opaque, span) < 0) {
                        Py_XDECREF(span);
                        goto done;
                    }
                    Py_DECREF(span);
                }
                p = q;
            } else if (c == '\\' && p + 1 < n && RD(p + 1) == '\n') {
                PyUnicode_WRITE(kind, mbuf, p, ' ');
                PyUnicode_WRITE(kind, mbuf, p + 1, ' ');
                continued = 1;
                p += 2;
            } else if (c == '\\' && p + 2 < n && RD(p + 1) == '\r' && RD(p + 2) == '\n') {
                PyUnicode_WRITE(kind, mbuf, p, ' ');
                PyUnicode_WRITE(kind, mbuf, p + 1, ' ');
                PyUnicode_WRITE(kind, mbuf, p + 2, ' ');
                continued = 1;
                p += 3;
            } else {
                if (c == '[' || c == '{')
                    c = '(';
                else if (c == ']' || c == '}')
                    c = ')';
                PyUnicode_WRITE(kind, mbuf, p, c);
                p++;
            }
        }
    }
#define MR(i) PyUnicode_READ(kind, mbuf, (i))

    /* _BAD_INDENT: spaces, then a tab or a form feed, at the start of a line */
    {
        Py_ssize_t p = 0;
        while (p < n) {
            Py_ssize_t q = p;
            while (q < n && MR(q) == ' ')
                q++;
            if (q < n && (MR(q) == '\t' || MR(q) == '\f'))
                goto none;
            while (q < n && MR(q) != '\n')
                q++;
            p = q + 1;
        }
    }

    /* lines: the logical lines -- a line that starts inside brackets joins the one
     * before it (the bracket depth by each line's count of "(" and ")") */
    {
        Py_ssize_t depth = 0, p = 0, first = 0;
        for (;;) {
            Py_ssize_t q = p, d = 0;
            while (q < n) {
                Py_UCS4 c = MR(q);
                if (c == '\n')
                    break;
                if (c == '(')
                    d++;
                else if (c == ')')
                    d--;
                q++;
            }
            if (depth == 0)
                first = p;
            depth += d;
            if (depth < 0)
                goto none;
            if (depth == 0) {
                if (vec_push(&lstart, first) < 0 || vec_push(&lend, q) < 0)
                    goto done;
            }
            if (q >= n)
                break;
            p = q + 1;
        }
        if (depth)
            goto none;
    }
    for (Py_ssize_t L = 0; L < lstart.n; L++) {
        Py_ssize_t a = lstart.v[L], b = lend.v[L];
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
            if (vec_push(&starts, s) < 0 || vec_push(&inds, s - a) < 0 || vec_push(&ends, e) < 0 ||
                vec_push(&code_ends, r) < 0 || vec_push(&ops, MR(r - 1) == ':'))
                goto done;
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
                if (vec_push(&cstarts, s) < 0 || vec_push(&cends, e) < 0 || vec_push(&cinds, s - a) < 0)
                    goto done;
            }
        }
    }

    /* blocks: a line deeper than the one before follows a header, a header has a deeper
     * line after it; nxt: the next line at the same or a lower indentation */
    {
        const Py_ssize_t m = starts.n;
        if (m) {
            if (inds.v[0] || ops.v[m - 1])
                goto none;
            for (i = 0; i + 1 < m; i++) {
                if ((inds.v[i + 1] > inds.v[i]) != (ops.v[i] != 0))
                    goto none;
            }
        }
        for (i = 0; i < m; i++) {
            if (vec_push(&nxt, i + 1) < 0)
                goto done;
        }
        for (Py_ssize_t j = 0; j < m; j++) {
            int dedent = j > 0 && inds.v[j] < inds.v[j - 1];
            if (dedent) {
                Py_ssize_t ij = inds.v[j], last = -1;
                while (stack.n && inds.v[stack.v[stack.n - 1]] >= ij) {
                    last = stack.v[--stack.n];
                    nxt.v[last] = j;
                }
                if (last < 0 || inds.v[last] != ij)
                    goto none;
            }
            if (ops.v[j] && vec_push(&stack, j) < 0)
                goto done;
        }
        for (i = 0; i < stack.n; i++)
            nxt.v[stack.v[i]] = m;
    }

    /* continuations: a backslash continuation, then a blank line */
    after = PyDict_New();
    if (after == NULL)
        goto done;
    if (continued) {
        const Py_ssize_t m = starts.n;
        for (Py_ssize_t q = 0; q < n; q++) {
            if (RD(q) != '\\')
                continue;
            if (!((q + 1 < n && RD(q + 1) == '\n') || (q + 2 < n && RD(q + 1) == '\r' && RD(q + 2) == '\n')))
                continue;
            if (MR(q) != ' ')
                continue;
            /* k = bisect_right(starts, q) */
            Py_ssize_t lo = 0, hi = m;
            while (lo < hi) {
                Py_ssize_t mid = (lo + hi) / 2;
                if (q < starts.v[mid])
                    hi = mid;
                else
                    lo = mid + 1;
            }
            Py_ssize_t k = lo;
            if (0 < k && k < m && ends.v[k - 1] <= q && q < starts.v[k] - inds.v[k]) {
                PyObject *key = PyLong_FromSsize_t(k), *val = PyLong_FromSsize_t(q + 1);
                int bad = key == NULL || val == NULL || PyDict_SetItem(after, key, val) < 0;
                Py_XDECREF(key);
                Py_XDECREF(val);
                if (bad)
                    goto done;
            }
        }
    }

    masked = PyUnicode_FromKindAndData(kind, mbuf, n);
    if (masked == NULL)
        goto done;
    {
        PyObject *l_starts = list_of(&starts), *l_inds = list_of(&inds), *l_ends = list_of(&ends);
        PyObject *l_code_ends = list_of(&code_ends), *l_cstarts = list_of(&cstarts), *l_cends = list_of(&cends);
        PyObject *l_cinds = list_of(&cinds), *l_nxt = list_of(&nxt), *l_ops = PyList_New(ops.n);
        if (l_ops != NULL) {
            for (i = 0; i < ops.n; i++) {
                PyObject *b = ops.v[i] ? Py_True : Py_False;
                Py_INCREF(b);
                PyList_SET_ITEM(l_ops, i, b);
            }
        }
        if (l_starts && l_inds && l_ends && l_code_ends && l_cstarts && l_cends && l_cinds && l_nxt && l_ops) {
            result = Py_BuildValue("(OOOOOOOOOOOOO)", masked, opaque, continued ? Py_True : Py_False, l_starts,
                                   l_inds, l_ends, l_code_ends, l_cstarts, l_cends, l_cinds, l_ops, l_nxt, after);
        }
        Py_XDECREF(l_starts);
        Py_XDECREF(l_inds);
        Py_XDECREF(l_ends);
        Py_XDECREF(l_code_ends);
        Py_XDECREF(l_cstarts);
        Py_XDECREF(l_cends);
        Py_XDECREF(l_cinds);
        Py_XDECREF(l_nxt);
        Py_XDECREF(l_ops);
    }
    goto done;

none:
    result = Py_None;
    Py_INCREF(result);
done:
    if (mbuf != NULL)
        PyMem_Free(mbuf);
    Py_XDECREF(masked);
    Py_XDECREF(opaque);
    Py_XDECREF(after);
    vec_free(&starts);
    vec_free(&inds);
    vec_free(&ends);
    vec_free(&code_ends);
    vec_free(&cstarts);
    vec_free(&cends);
    vec_free(&cinds);
    vec_free(&ops);
    vec_free(&nxt);
    vec_free(&stack);
    vec_free(&lstart);
    vec_free(&lend);
    return result;
}

static PyMethodDef methods[] = {
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
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
