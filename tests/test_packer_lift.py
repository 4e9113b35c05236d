"""The heading lift's pre-check (``packer._no_title``): it only ever rules out ends that
``titles.ends_with_title`` rejects, so the lift moves the same titles with or without it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise import packer
from chunkwise.titles import ends_with_title

# characters that make titles, underlines, ATX headings, blank lines and sentence ends
_ALPHABET = st.sampled_from(list("ab #=-~*+.:)\n\n\n  \t\r"))


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, min_size=1, max_size=700).map("".join), st.data())
def test_no_title_never_hides_a_title(text, data):
    end = data.draw(st.integers(min_value=1, max_value=len(text)))
    if packer._no_title(text, end):
        assert not ends_with_title(text, end)


def test_no_title_rules_out_code_line_ends():
    body = "x = 1\n" * 60  # past the first 300 characters
    code = body + "    def load(self, path):\n        return open(path).read()"
    assert packer._no_title(code, len(code))  # ends like a sentence, no "#": no title
    title = body + "\nInstall\n\nRun it."
    end = title.index("Install") + len("Install")
    assert not packer._no_title(title, end) and ends_with_title(title, end)
    atx = body + "\n## Usage: the basics.\n\nText."
    end = atx.index("basics.") + len("basics.")
    assert not packer._no_title(atx, end) and ends_with_title(atx, end)
