"""The title rule the heading lift asks at each chunk end (``titles.ends_with_title``):
a code line ending like a sentence is no title; a line after a blank line and an ATX
heading are."""

from __future__ import annotations

from chunkwise.titles import ends_with_title


def test_code_line_ends_are_no_titles_and_headings_are():
    body = "x = 1\n" * 60  # past the first 300 characters
    code = body + "    def load(self, path):\n        return open(path).read()"
    assert not ends_with_title(code, len(code))  # ends like a sentence, no "#": no title
    title = body + "\nInstall\n\nRun it."
    assert ends_with_title(title, title.index("Install") + len("Install"))
    atx = body + "\n## Usage: the basics.\n\nText."
    assert ends_with_title(atx, atx.index("basics.") + len("basics."))
