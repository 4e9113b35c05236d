/* A growable string buffer. */
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

#define STRBUF_MIN 16

struct strbuf {
    char *data;
    size_t len;
    size_t cap;
};

/* Make room for at least `extra` more bytes. */
static int grow(struct strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return 0;
    size_t cap = sb->cap ? sb->cap : STRBUF_MIN;
    while (cap < need)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p)
        return -1;
    sb->data = p;
    sb->cap = cap;
    return 0;
}

struct strbuf *strbuf_new(void)
{
    struct strbuf *sb = calloc(1, sizeof *sb);
    return sb;
}

int strbuf_append(struct strbuf *sb, const char *s)
{
    size_t n = strlen(s);
    if (grow(sb, n) != 0)
        return -1;
    memcpy(sb->data + sb->len, s, n + 1);
    sb->len += n;
    return 0;
}

void strbuf_free(struct strbuf *sb)
{
    if (!sb)
        return;
    free(sb->data);
    free(sb);
}
