"""Code chunking with an overlap: an overlap that reaches into a definition's header (its
attribute lines, the lines of a header over several lines, the header's last line) ends
at the end of one of those lines where that end fits, not between two of its tokens."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

csharp = pytest.mark.skipif(not grammar_available("csharp"), reason="no C# grammar")

GUARD = '''namespace Shop.Orders
{
    public static class Guard
    {
        /// <summary>
        /// Throws an <see cref="OrderException"/> with the message and arguments
        /// that are passed in.
        /// </summary>
        /// <param name="message">The message to initialize the exception with.</param>
        [DoesNotReturn]
        public static void Fail(string message, params object?[]? args)
        {
            if (message is null) message = string.Empty;
            throw new OrderException(string.Format(message, args));
        }

        /// <summary>
        /// Checks a condition and throws when it is false.
        /// </summary>
        /// <param name="condition">The evaluated condition</param>
        /// <param name="message">The message to display if the condition is false</param>
        public static void That(bool condition,
                                string message,
                                params object?[]? args)
        {
            if (!condition)
                Fail(message, args);
        }

        /// <summary>
        /// Runs the check on another thread and reports the result to the callback.
        /// </summary>
        /// <param name="callback">A callback that receives the result</param>
        private static void RunAsync(Action<string> callback, string filter)
        {
            ThreadPool.QueueUserWorkItem(_ => callback(Check(filter)));
        }
    }
}
'''


def mid_line_overlaps(src, chunks, size, overlap):
    """The overlapped ends that stop inside a line whose end fits both the chunk and the
    overlap."""
    out = []
    for c, n in zip(chunks, chunks[1:]):
        e = c.end_index
        le = src.find("\n", e)
        le = len(src) if le < 0 else le
        if e > n.start_index and src[e:le].strip() and le - c.start_index <= size and le - n.start_index <= overlap:
            out.append(src[src.rfind("\n", 0, e) + 1 : le])
    return out


@csharp
@pytest.mark.parametrize("size,overlap", [(120, 24), (140, 35), (180, 36), (220, 55), (260, 52), (300, 75), (300, 100),
                                          (340, 113)])
def test_csharp_overlap_ends_at_a_header_line_end(size, overlap):
    chunks = chunkwise.chunk(GUARD, strategy="code", language="csharp", chunk_size=size, chunk_overlap=overlap)
    check_invariants(GUARD, chunks, size, CharSizer(), trimmed=False, overlap_allowed=True)
    assert mid_line_overlaps(GUARD, chunks, size, overlap) == []
    # (some overlap reaches into a header or its attribute: the case is exercised)
    assert any(c.end_index > n.start_index for c, n in zip(chunks, chunks[1:]))


@csharp
@pytest.mark.parametrize("size", [120, 200, 300])
def test_csharp_without_overlap_never_ends_after_an_attribute_or_header(size):
    # (the cuts the overlap may end at are no cuts of the packing without an overlap)
    chunks = chunkwise.chunk(GUARD, strategy="code", language="csharp", chunk_size=size)
    ends = [c.text.rstrip().rsplit("\n", 1)[-1].strip() for c in chunks[:-1]]
    assert not [e for e in ends if e.startswith("[") or e.endswith((",", ")")) and "(" in e]


PY = '''class Store:
    @property
    @functools.lru_cache(maxsize=None)
    def location(self):
        return self._root / "data"

    def load(self, path,
             strict=False,
             encoding="utf-8"):
        with open(path, encoding=encoding) as handle:
            return handle.read()
'''


@pytest.mark.parametrize("parser", ["auto", "ast"] + (["tree-sitter"] if grammar_available("python") else []))
@pytest.mark.parametrize("size,overlap", [(50, 25), (70, 35), (80, 40), (100, 25), (120, 30)])
def test_python_overlap_ends_at_a_header_line_end(parser, size, overlap):
    chunks = chunkwise.chunk(PY, strategy="code", language="python", chunk_size=size, chunk_overlap=overlap,
                             parser=parser)
    check_invariants(PY, chunks, size, CharSizer(), trimmed=False, overlap_allowed=True)
    assert mid_line_overlaps(PY, chunks, size, overlap) == []
