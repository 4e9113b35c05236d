"""Several Kotlin annotations above a function (``@JvmOverloads`` then ``@JvmName("size")``)
belong to it also where the grammar reads them as a statement of their own: it does so when
more code follows the function (a constant after it), and reads each annotation after the
first as an annotated expression nested in the one before. No chunk ends with such an
annotation line while that line and the next line fit together."""

import re

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import get_sizer

pytestmark = pytest.mark.skipif(not grammar_available("kotlin"), reason="tree-sitter kotlin grammar not installed")

BODY = "".join(f"  val v{i} = compute({i}) + other({i})\n" for i in range(12))
TAIL = "\ninternal const val X: Byte = 1\n"


def repro(tail):
    return f'package okio\n\n@JvmOverloads\n@JvmName("size")\nfun utf8Size(a: Int = 0): Long {{\n{BODY}  return 0L\n}}\n{tail}'


# From okio's src/commonMain/kotlin/okio/Utf8.kt (Copyright (C) 2017 Square, Inc., Apache
# License 2.0), from the file annotation to the second function after utf8Size, verbatim.
OKIO_UTF8 = r'''@file:JvmName("Utf8")

package okio

import kotlin.jvm.JvmName
import kotlin.jvm.JvmOverloads

/**
 * Returns the number of bytes used to encode the slice of `string` as UTF-8 when using
 * [BufferedSink.writeUtf8].
 */
@JvmOverloads
@JvmName("size")
fun String.utf8Size(beginIndex: Int = 0, endIndex: Int = length): Long {
  require(beginIndex >= 0) { "beginIndex < 0: $beginIndex" }
  require(endIndex >= beginIndex) { "endIndex < beginIndex: $endIndex < $beginIndex" }
  require(endIndex <= length) { "endIndex > string.length: $endIndex > $length" }

  var result = 0L
  var i = beginIndex
  while (i < endIndex) {
    val c = this[i].code

    if (c < 0x80) {
      // A 7-bit character with 1 byte.
      result++
      i++
    } else if (c < 0x800) {
      // An 11-bit character with 2 bytes.
      result += 2
      i++
    } else if (c < 0xd800 || c > 0xdfff) {
      // A 16-bit character with 3 bytes.
      result += 3
      i++
    } else {
      val low = if (i + 1 < endIndex) this[i + 1].code else 0
      if (c > 0xdbff || low < 0xdc00 || low > 0xdfff) {
        // A malformed surrogate, which yields '?'.
        result++
        i++
      } else {
        // A 21-bit character with 4 bytes.
        result += 4
        i += 2
      }
    }
  }

  return result
}

internal const val REPLACEMENT_BYTE: Byte = '?'.code.toByte()
internal const val REPLACEMENT_CHARACTER: Char = '\ufffd'
internal const val REPLACEMENT_CODE_POINT: Int = REPLACEMENT_CHARACTER.code

@Suppress("NOTHING_TO_INLINE") // Syntactic sugar.
internal inline fun isIsoControl(codePoint: Int): Boolean =
  (codePoint in 0x00..0x1F) || (codePoint in 0x7F..0x9F)

@Suppress("NOTHING_TO_INLINE") // Syntactic sugar.
internal inline fun isUtf8Continuation(byte: Byte): Boolean {
  // 0b10xxxxxx
  return byte and 0xc0 == 0x80
}

// TODO combine with Buffer.writeUtf8?
// TODO combine with Buffer.writeUtf8CodePoint?
'''


def annotation_left_behind(src, chunks, size, sizer):
    """The chunks that end with annotation lines while those lines (the run of them at the
    chunk's end) and the first line of the next chunk fit ``size`` together."""
    bad = []
    for i, c in enumerate(chunks[:-1]):
        lines = c.text.rstrip().split("\n")
        run = 0
        while run < len(lines) and re.match(r"\s*@\w", lines[-1 - run]):
            run += 1
        if run:
            ls = c.start_index + len("\n".join(lines[:-run])) + (run < len(lines))
            eol = src.find("\n", chunks[i + 1].start_index)
            if sizer.count(src[ls : len(src) if eol < 0 else eol]) <= size:
                bad.append((i, c.text))
    return bad


def chunks_of(src, size, unit="chars"):
    out = chunkwise.chunk(src, strategy="code", language="kotlin", chunk_size=size, unit=unit)
    check_invariants(src, out, size, get_sizer(unit), trimmed=False, overlap_allowed=False)
    return out


@pytest.mark.parametrize("tail", ["", TAIL], ids=["alone", "constant-after"])
def test_nested_annotations_belong_to_the_function(tail):
    src = repro(tail)
    d = next(d for d in parse_code(src, "kotlin").definitions if d.name == "utf8Size")
    assert src[d.start :].startswith("@JvmOverloads\n@JvmName(")
    assert src[d.head :].startswith("fun utf8Size(")
    assert d.signature == "fun utf8Size(a: Int = 0): Long"


@pytest.mark.parametrize("tail", ["", TAIL], ids=["alone", "constant-after"])
def test_nested_annotations_stay_with_the_header(tail):
    src = repro(tail)
    for size in range(50, 301, 10):
        chunks = chunks_of(src, size)
        assert not annotation_left_behind(src, chunks, size, get_sizer("chars")), size
        holder = next(c for c in chunks if "fun utf8Size(" in c.text)
        assert holder.metadata["symbols"] == ["utf8Size"]
        if size >= 200:  # the annotations and the header fit with the package line
            assert holder.text.startswith("@JvmOverloads\n") or "\n@JvmOverloads\n" in holder.text


def test_okio_utf8_no_chunk_ends_with_an_annotation_that_fits_with_the_next_line():
    src = OKIO_UTF8
    sizer = get_sizer("chars")
    for size in range(200, 1001, 25):
        chunks = chunks_of(src, size)
        assert not annotation_left_behind(src, chunks, size, sizer), size


def test_okio_utf8_tokens():
    pytest.importorskip("numpy")
    try:
        sizer = get_sizer("tokens")
        sizer.count("x")
    except chunkwise.ChunkwiseError as exc:
        pytest.skip(str(exc))
    for size in (64, 256):
        chunks = chunks_of(OKIO_UTF8, size, "tokens")
        assert not annotation_left_behind(OKIO_UTF8, chunks, size, sizer), size


def test_annotated_expression_statements_stay_statements():
    # nested annotations on an expression inside a function are code, not a definition's
    src = 'fun f() {\n  @Suppress("x")\n  @Foo (a)\n  g()\n}\n\nfun h() {}\n'
    names = [d.qualname for d in parse_code(src, "kotlin").definitions]
    assert names == ["f", "h"]
    d = next(d for d in parse_code(src, "kotlin").definitions if d.name == "h")
    assert src[d.start :].startswith("fun h()")
