"""A speaker's name alone on its line (a play's `CORIOLANUS:`) starts a turn in CRLF text too."""

from pathlib import Path

import chunkwise
from chunkwise.parsers.conversation import find_turns

PLAY = (Path(__file__).parent / "corpus" / "conversation" / "coriolanus.txt").read_text(encoding="utf-8")
SHORT = "First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n\nFirst Citizen:\nYou are all resolved rather to die than to famish?\n"


def test_names_alone_on_their_line_are_turns_with_crlf():
    lf = find_turns(SHORT).turns
    crlf = find_turns(SHORT.replace("\n", "\r\n")).turns
    assert [t.speaker for t in lf] == ["First Citizen", "All", "First Citizen"]
    assert [t.speaker for t in crlf] == [t.speaker for t in lf]


def test_a_crlf_play_chunks_as_its_lf_text():
    crlf = PLAY.replace("\n", "\r\n")
    assert len(find_turns(crlf).turns) == len(find_turns(PLAY).turns) > 10
    lf_chunks = chunkwise.chunk(PLAY, strategy="conversation", chunk_size=300)
    crlf_chunks = chunkwise.chunk(crlf, strategy="conversation", chunk_size=300)
    assert [c.text.replace("\r\n", "\n") for c in crlf_chunks] == [c.text for c in lf_chunks]
    assert [c.metadata.get("speakers") for c in crlf_chunks] == [c.metadata.get("speakers") for c in lf_chunks]
    for c in crlf_chunks:
        assert crlf[c.start_index:c.end_index] == c.text
