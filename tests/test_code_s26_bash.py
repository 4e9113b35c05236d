"""Code chunking, Bash: a quoted argument or here-document over several lines follows the
one rule of multi-line strings (its line breaks are cut after the line breaks of the code
around it and before the tokens of a line): a command with such an argument that fits a
chunk is not cut between the argument's lines, and no chunk starts between two tokens
of a line that fits."""

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available, parse_code
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(not grammar_available("bash"), reason="no bash grammar")

# (the shape of jetty.sh's start: "su -c" with a script in double quotes)
SERVER = '''start_server() {
  if [ -n "$APP_USER" ] && [ "$(whoami)" != "$APP_USER" ]
  then
    unset SU_SHELL
    if [ "$APP_SHELL" ]
    then
      SU_SHELL="-s $APP_SHELL"
    fi

    touch "$APP_PID"
    chown "$APP_USER" "$APP_PID"
    # run as the service user, in the background
    su - "$APP_USER" $SU_SHELL -c "
      cd \\"$APP_BASE\\"
      exec ${RUN_CMD[*]} --log=\\"$APP_LOG\\" > /dev/null &
      disown \\$!
      echo \\$! > \\"$APP_PID\\""
  else
    "${RUN_CMD[@]}" > /dev/null &
    disown $!
    echo $! > "$APP_PID"
  fi
}
'''


def chunk(src, size, overlap=0):
    chunks = chunkwise.chunk(src, strategy="code", language="bash", chunk_size=size, chunk_overlap=overlap)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=bool(overlap))
    return chunks


@pytest.mark.parametrize("size", [170, 190, 210, 300])
def test_command_with_a_multi_line_argument_that_fits_is_whole(size):
    s = SERVER.index('    su - "$APP_USER"')
    e = SERVER.index("\n", SERVER.index('PID\\""', s))
    assert e - s <= size
    chunks = chunk(SERVER, size)
    assert any(c.start_index <= s and c.end_index >= e for c in chunks)


@pytest.mark.parametrize("size,overlap", [(60, 0), (80, 0), (120, 0), (80, 20), (120, 30)])
def test_no_chunk_starts_between_tokens_of_a_line_that_fits(size, overlap):
    chunks = chunk(SERVER, size, overlap)
    budget = size - overlap
    for c in chunks[1:]:
        ls = SERVER.rfind("\n", 0, c.start_index) + 1
        le = SERVER.find("\n", c.start_index)
        if le - ls <= budget:
            assert not SERVER[ls : c.start_index].strip(), c.text


def test_multi_line_arguments_and_here_documents_are_multi_line_strings():
    src = 'cat <<EOF > "$out"\nfirst line\nsecond line\nEOF\nsh -c "\n  echo a\n  echo b"\necho done\n'
    st = parse_code(src, "bash")
    # (their inner line breaks are no cuts between the code's lines: the level of the lines
    # inside multi-line strings has them)
    code_lines = {b for _a, b in st.lazy_lines(0, len(src))}
    assert src.index("second") not in code_lines and src.index("  echo b") not in code_lines
    assert src.index("echo done") in code_lines
