"""Token cuts read from the syntax tree on demand: a range where no child of the node
around it ends after the range's start (a file's trailing blank lines, a line after a
stray closing brace) gives no cut there instead of crashing the process (tree-sitter's
``first_child_for_byte`` is not called where it finds no child)."""

import subprocess
import sys
import textwrap

import pytest

from chunkwise.parsers.code import grammar_available


def run(code):
    """Runs ``code`` in a child process (a crash there fails the test, not the run)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not grammar_available("python"), reason="tree-sitter Python grammar not installed")
def test_tokens_in_trailing_blank_lines():
    r = run(
        """
        from chunkwise.parsers.code import parse_code
        st = parse_code("x = 1\\n\\n\\n", "python", parser="tree-sitter")
        print(list(st.lazy_tokens(0, 5)), list(st.lazy_tokens(6, 8)))
        """
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[(1, 2), (3, 4)] []"


@pytest.mark.skipif(not grammar_available("kotlin"), reason="tree-sitter Kotlin grammar not installed")
def test_kotlin_stray_brace_chunks():
    r = run(
        """
        import chunkwise
        src = '}\\n  message = "Moved to ByteString companion object",'
        for size in (40, 60, 80):
            chunks = chunkwise.chunk(src, strategy="code", language="kotlin", chunk_size=size)
            assert all(c.text == src[c.start_index : c.end_index] for c in chunks)
            assert "".join("".join(c.text.split()) for c in chunks) == "".join(src.split())
            print([c.text for c in chunks])
        """
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines()[0] == repr(['}\n  message = "Moved to ByteString', 'companion object",'])
